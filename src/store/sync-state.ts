/**
 * What `sync` keeps between runs, and the small interface a store offers it. The SQLite store (sqlite.ts) is the one
 * there is; the interface is what another store (a portal's own database) would implement. A run reads a snapshot,
 * works in memory, and hands back one commit that the store applies atomically: a run killed at any point leaves the
 * state as it was before the run or as it is after it, never between.
 */
import type { LiveloxEvent } from '../resources/events.js';
import type { Country } from '../resources/countries.js';

/** A service event as last seen, in the window the portal's events span. */
export interface MirrorRecord {
  id: number;
  /** Hash of the event as the service answered it: an answer with the same hash changed nothing. */
  hash: string;
  /** The event's interval (epoch ms), kept apart so that windows and days are found without reading `event`. */
  startMs: number;
  endMs: number;
  /** The event as the service answered it. A store may read it only when asked (the SQLite store does). */
  event: LiveloxEvent;
  /** Consecutive looks (full sweeps, detail requests) that did not find the event; at 2 it is gone. */
  misses: number;
}

/** A portal event as last read. */
export interface PortalRecord {
  key: string;
  /** Hash of what the portal said of it (event and classes): a changed hash means the portal changed it. */
  hash: string;
  origin: string;
  name: string;
  start?: string;
}

/**
 * Every status a link may have; a row with another is refused as damaged when read (state-rows.ts). `gone`: the linked
 * service event was deleted; it stays so (with when and why) until the portal event changes, is removed, or links to
 * another event.
 */
export const LINK_STATUSES = ['linked', 'ambiguous', 'not_found', 'gone'] as const;
export type LinkStatus = (typeof LINK_STATUSES)[number];
/** How a link was made: a person's pin, an id the portal stores, an id both sides carry, or scoring. */
export const LINK_METHODS = ['pinned', 'portal_id', 'external_id', 'scored'] as const;
export type LinkMethod = (typeof LINK_METHODS)[number];

/**
 * One class of a portal event, the same shape in `SyncResult.links`, `--json` and the links document: `name` is the
 * portal's class name, and `status` says whether it has a link.
 */
export type ClassLinkRecord = LinkedClassRecord | UnmappedClassRecord;

/** A portal class mapped to a service class, with its viewer link. */
interface LinkedClassRecord {
  /** The portal's class name. */
  name: string;
  status: 'linked';
  classId: number;
  /** The service class's name. */
  serviceClass: string;
  url: string;
  /** `service`: the class url the service gave; `template`: built from the link template. */
  from: 'service' | 'template';
  /** How the class was mapped: `exact`, `normalised` (another naming convention), `course` or `similar`. */
  method: string;
}

/**
 * A portal class that was mapped and maps to no class of the same service event now (its service class was removed or
 * renamed). It stays, needing a person, until it maps again or the portal drops it.
 */
export interface UnmappedClassRecord {
  name: string;
  status: 'unmapped';
  /** Why, in words. */
  reason: string;
  /** When it was found unmapped (the service's clock). */
  since: string;
  /** The service class it was linked to. */
  was: { classId: number; serviceClass: string };
}

export interface CandidateRecord {
  id: number;
  name: string;
  start: string;
  score: number;
}

/** Where a portal event stands: its service event and class links, or why it has none. */
export interface LinkRecord {
  key: string;
  status: LinkStatus;
  /** Why it stands so, in words (for `gone`: what was deleted and how that was found). */
  reason: string;
  /** For `gone`: when the deletion was found (the service's clock). */
  since?: string;
  method?: LinkMethod;
  eventId?: number;
  eventName?: string;
  eventStart?: string;
  eventEnd?: string;
  published?: boolean;
  validMapAndCourses?: boolean;
  classes: ClassLinkRecord[];
  /** Portal classes no service class was found for. */
  unmatchedPortalClasses: string[];
  /** Service classes no portal class maps to. */
  unmatchedServiceClasses: string[];
  /** Every class of the linked service event, as it was at this run: what class changes are told from. */
  serviceClasses?: Array<{ id: number; name: string }>;
  /** Ranked candidates when ambiguous or not found. */
  candidates: CandidateRecord[];
}

export interface SyncCursor {
  /**
   * The largest `modifiedTime` the service has returned (or, before it returned any, its clock at the first run):
   * the next run asks for events modified since this minus the overlap. Always the service's time, never ours.
   */
  modifiedSince?: string;
  /** The window the mirror covers (UTC, `to` exclusive). */
  windowFrom?: string;
  windowTo?: string;
  /** The service's clock at the last full sweep. */
  lastFullSweep?: string;
  /** The service's country list, and its clock when fetched. */
  countries?: { fetchedAt: string; list: Country[] };
  /**
   * What linking depended on besides the portal event and its candidates (template, viewer address, country list):
   * when it is unchanged, a portal event whose candidates did not change keeps its link without being scored again.
   */
  linkContext?: string;
}

export interface SyncSnapshot {
  cursor: SyncCursor;
  mirror: Map<number, MirrorRecord>;
  portal: Map<string, PortalRecord>;
  links: Map<string, LinkRecord>;
  /** Links a person pinned: portal key -> service event id. Never overridden by a run. */
  pins: Map<string, number>;
  /** Runs committed so far. */
  runs: number;
}

export interface HistoryEntry {
  key: string;
  /** The change's kind, as the report names it (`newly_linked`, `link_changed`, ...). */
  change: string;
  detail: unknown;
}

export interface RunLog {
  /** When the run started and (before its commit) finished, by the local clock: for people, not for logic. */
  startedAt: string;
  finishedAt?: string;
  /** The service's clock during the run, when it answered. */
  serviceTime?: string;
  requests: number;
  summary: Record<string, number>;
}

/** Everything one run changes, applied in one transaction. */
export interface SyncCommit {
  cursor: SyncCursor;
  mirrorUpserts: MirrorRecord[];
  mirrorDeletes: number[];
  portalUpserts: PortalRecord[];
  portalDeletes: string[];
  linkUpserts: LinkRecord[];
  linkDeletes: string[];
  /** The whole set of pins after the run. */
  pins: Map<string, number>;
  history: HistoryEntry[];
  run: RunLog;
}

/** Who holds a store's run lock: said to a run refused, never used to decide whether the lock is free. */
export interface LockHolder {
  pid: number;
  host: string;
  /** When the run started (local clock: for people, not for logic). */
  since: string;
}

export interface SyncStore {
  /**
   * Takes the run lock, or throws a StateError (`locked`) naming the holder. The lock ends with `unlock`, `close` or
   * the holder's process, however it ends: a holder that died never keeps a run out.
   */
  lock(holder: LockHolder): void;
  unlock(): void;
  load(): SyncSnapshot;
  commit(commit: SyncCommit): void;
  /** The last `limit` runs committed, newest first. */
  recentRuns(limit: number): RunLog[];
  close(): void;
}
