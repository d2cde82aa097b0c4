/**
 * `sync`: keeps every event of a portal linked to its service event, night after night. One run: read the state, bring
 * the mirror of the service's events up to date (mirror.ts), link every portal event against the mirror
 * (linking.ts, no requests) with the statuses links keep over nights (statuses.ts), tell what changed (changes.ts),
 * and commit all of it in one transaction. Nothing is written before that commit, so a run that fails or is killed
 * leaves the state as the last run left it, and the next run does what this one would have. A dry run does all of it
 * but the commit.
 */
import { hostname } from 'node:os';
import type { LiveloxClient } from '../../client.js';
import { canonicalJson, contentHash } from '../../core/hash.js';
import { eventDays } from '../../ems/dates.js';
import type { PortalEvent, PortalProblem } from '../../ems/portal.js';
import { checkLinkTemplate, DEFAULT_LINK_TEMPLATE } from '../../links/template.js';
import type {
  HistoryEntry,
  LinkRecord,
  LockHolder,
  MirrorRecord,
  PortalRecord,
  SyncCursor,
  SyncSnapshot,
  SyncStore,
} from '../../store/sync-state.js';
import { syncStoreOf, type SyncStateFile } from '../../store/sqlite.js';
import { linkChanges, type SyncChange } from './changes.js';
import { candidateDays, daysOf, indexByDay, linkPortalEvent, type LinkContext } from './linking.js';
import { portalWindow, updateMirror, type MirrorProgress, type Window } from './mirror.js';
import { DEFAULT_NEAR_DAYS, type NearDays } from './near.js';
import { carryStatuses, currentLinkShape } from './statuses.js';
import { byField } from '../../core/order.js';

export interface SyncProgress {
  step: 'state' | 'service' | 'countries' | 'linking' | 'commit';
  detail: string;
}

export interface SyncJobOptions {
  client: LiveloxClient;
  /** The state file `openSqliteStore` opened (with `readOnly` for a dry run that must not touch it). */
  store: SyncStateFile;
  /** The portal's events as read this run (`readPortal` or `portalFromSources`), with what could not be read. */
  portal: { events: readonly PortalEvent[]; problems: readonly PortalProblem[] };
  /** Links a person pins: portal key -> service event id. Kept in the state; never overridden. */
  pins?: Readonly<Record<string, number>>;
  /** Pins to remove. */
  unpin?: readonly string[];
  /** Sweep the whole window and count misses: finds events deleted on the service. Recommended weekly. */
  full?: boolean;
  /**
   * The days around the service's clock in which a linked event deleted on the service is found by the next run: a
   * light search of them, and a request by id for a linked event it lacks. `{ back: 0, ahead: 0 }` turns it off.
   * Default `{ back: 3, ahead: 14 }`.
   */
  nearDays?: NearDays;
  /**
   * Do everything a run does (every request, every link, every change) but commit nothing: the result is what a run
   * would do now, and the state is not written, nor locked. Default false.
   */
  dryRun?: boolean;
  /** How far before the cursor `modifiedSince` asks. Default 1 h. */
  overlapMs?: number;
  /** Days added to both ends of the window the portal's events span. Default 7. */
  marginDays?: number;
  /** Link template for classes the service gives no url for. Default `{viewerUrl}/Viewer?classId={classId}`. */
  template?: string;
  /** Events per search page. Default (and at most) `MAX_PAGE_SIZE`. */
  pageSize?: number;
  /** How old (by the service's clock) the stored country list may be. Default 30 days. */
  countriesMaxAgeMs?: number;
  onProgress?: (p: SyncProgress) => void;
  signal?: AbortSignal | undefined;
  /** The local clock, for the run log only (never for the cursor). Default `new Date()`. */
  now?: () => Date;
}

export interface SyncResult {
  /** A dry run: nothing was committed; everything else is what a run would have done. */
  dryRun: boolean;
  /** What changed since the last run, portal event by portal event, in key order; problems last. */
  changes: SyncChange[];
  /** Every portal event's link as committed (for a dry run: as it would be), in key order. */
  links: LinkRecord[];
  /** Some change needs a person (unmatched, ambiguous, gone, a class unmapped, unreadable). */
  attention: boolean;
  /** Requests sent, retries included. */
  requests: number;
  /** The window the mirror covers. */
  window: { from: string; to: string } | undefined;
  cursor: SyncCursor;
  /** Runs committed so far, this one included (a dry run is not one). */
  runs: number;
  /** The service's clock during the run (ISO 8601), when it answered: what the run's stamps are told by. */
  serviceTime?: string;
}

const DEFAULT_OVERLAP_MS = 3_600_000;
const DEFAULT_MARGIN_DAYS = 7;
const DEFAULT_COUNTRIES_MAX_AGE_MS = 30 * 86_400_000;

function portalHash(p: PortalEvent): string {
  return contentHash({ event: p.export.event, classes: p.export.classes, serviceEventId: p.serviceEventId ?? null });
}

function portalRecord(p: PortalEvent, hash: string): PortalRecord {
  return {
    key: p.key,
    hash,
    origin: p.origin,
    name: p.export.event.name,
    ...(p.export.event.start === undefined ? {} : { start: p.export.event.start }),
  };
}

const localNow = (options: SyncJobOptions): Date => (options.now ?? (() => new Date()))();

const byKey = byField('key');

export async function syncJob(options: SyncJobOptions): Promise<SyncResult> {
  const dryRun = options.dryRun ?? false;
  if (options.store.readOnly && !dryRun) {
    throw new TypeError(`${options.store.path} was opened read-only: pass dryRun, or open it to write`);
  }
  const store = syncStoreOf(options.store);
  checkLinkTemplate(options.template ?? DEFAULT_LINK_TEMPLATE);
  const startedAt = localNow(options).toISOString();
  const holder: LockHolder = { pid: process.pid, host: hostname(), since: startedAt };
  // A dry run writes nothing, the lock included: it reads one committed snapshot, also beside a run.
  if (!dryRun) store.lock(holder);
  try {
    return await runOnState(options, store, startedAt, dryRun);
  } finally {
    if (!dryRun) store.unlock();
  }
}

async function runOnState(
  options: SyncJobOptions,
  store: SyncStore,
  startedAt: string,
  dryRun: boolean,
): Promise<SyncResult> {
  const { client, signal } = options;
  const progress = options.onProgress ?? (() => undefined);
  const before = client.transport.attempts;
  progress({ step: 'state', detail: 'reading the state' });
  const { state, upgraded } = readState(store);
  const pins = new Map(state.pins);
  for (const [key, id] of Object.entries(options.pins ?? {})) pins.set(key, id);
  for (const key of options.unpin ?? []) pins.delete(key);
  const events = [...options.portal.events].sort(byKey);

  const service = await refreshMirror(options, state, events, pins);
  const cursor = await refreshCountries(options, events, service.cursor, service.serviceTime);
  const linked = linkAll(options, state, { events, pins, service, cursor, upgraded });
  const { changes, links } = linked;
  const removed = portalRemovals(options, state, linked);
  for (const problem of options.portal.problems) {
    changes.push({
      key: problem.origin,
      kind: 'portal_problem',
      message: problem.message,
      attention: true,
      detail: { code: problem.code },
    });
  }

  const history: HistoryEntry[] = changes
    .filter((c) => !c.kind.startsWith('still_') && c.kind !== 'portal_problem')
    .map((c) => ({ key: c.key, change: c.kind, detail: { message: c.message, ...c.detail } }));
  const summary: Record<string, number> = { portalEvents: events.length, mirror: service.mirror.size };
  for (const c of changes) summary[c.kind] = (summary[c.kind] ?? 0) + 1;
  const requests = client.transport.attempts - before;

  if (dryRun) signal?.throwIfAborted();
  else {
    progress({ step: 'commit', detail: 'committing' });
    signal?.throwIfAborted();
    store.commit({
      cursor: linked.cursor,
      mirrorUpserts: service.upserts,
      mirrorDeletes: service.deletes,
      portalUpserts: linked.portalUpserts,
      portalDeletes: removed,
      linkUpserts: linked.linkUpserts,
      linkDeletes: [...state.links.keys()].filter((k) => !linked.keys.has(k)),
      pins,
      history,
      run: {
        startedAt,
        finishedAt: localNow(options).toISOString(),
        ...(service.serviceTime ? { serviceTime: service.serviceTime.toISOString() } : {}),
        requests,
        summary,
      },
    });
    progress({ step: 'commit', detail: 'committed' });
  }
  const window = service.window;
  return {
    dryRun,
    changes,
    links,
    attention: changes.some((c) => c.attention),
    requests,
    window: window && { from: window.from.toISOString(), to: window.to.toISOString() },
    cursor: linked.cursor,
    runs: state.runs + (dryRun ? 0 : 1),
    ...(service.serviceTime ? { serviceTime: service.serviceTime.toISOString() } : {}),
  };
}

/** The state as the last run left it, its links in the current shape (`upgraded`: keys whose record needs rewriting). */
function readState(store: SyncStore): { state: SyncSnapshot; upgraded: Set<string> } {
  const state = store.load();
  const upgraded = new Set<string>();
  for (const [key, stored] of state.links) {
    const { record, upgraded: changed } = currentLinkShape(stored);
    if (!changed) continue;
    state.links.set(key, record);
    upgraded.add(key);
  }
  return { state, upgraded };
}

interface ServiceUpdate {
  window: Window | undefined;
  cursor: SyncCursor;
  mirror: ReadonlyMap<number, MirrorRecord>;
  upserts: MirrorRecord[];
  deletes: number[];
  gone: ReadonlyMap<number, string>;
  serviceTime: Date | undefined;
}

/** The mirror brought up to date for the window the portal's events span and the ids they name. */
async function refreshMirror(
  options: SyncJobOptions,
  state: SyncSnapshot,
  events: readonly PortalEvent[],
  pins: ReadonlyMap<string, number>,
): Promise<ServiceUpdate> {
  const dated = events
    .map((p) => eventDays(p.export.event.start, p.export.event.end))
    .filter((d): d is { first: number; last: number } => d !== undefined);
  const window = dated.length > 0 ? portalWindow(dated, options.marginDays ?? DEFAULT_MARGIN_DAYS) : undefined;
  const wanted = new Set<number>(pins.values());
  for (const p of events) if (p.serviceEventId !== undefined) wanted.add(p.serviceEventId);
  const unchanged: ServiceUpdate = {
    window,
    cursor: state.cursor,
    mirror: state.mirror,
    upserts: [],
    deletes: [],
    gone: new Map(),
    serviceTime: undefined,
  };
  if (window === undefined && wanted.size === 0) return unchanged;

  const progress = options.onProgress ?? (() => undefined);
  progress({ step: 'service', detail: 'asking the service what changed' });
  const linked = new Set<number>();
  for (const l of state.links.values()) if (l.status === 'linked' && l.eventId !== undefined) linked.add(l.eventId);
  const update = await updateMirror({
    client: options.client,
    mirror: state.mirror,
    cursor: state.cursor,
    window: window ?? { from: new Date(0), to: new Date(0) },
    full: options.full ?? false,
    overlapMs: options.overlapMs ?? DEFAULT_OVERLAP_MS,
    wanted,
    linked,
    nearDays: options.nearDays ?? DEFAULT_NEAR_DAYS,
    ...(options.pageSize === undefined ? {} : { pageSize: options.pageSize }),
    signal: options.signal,
    onProgress: (p: MirrorProgress) =>
      progress({ step: 'service', detail: `${p.kind}: page ${p.page}, ${p.events} events` }),
  });
  return { ...update, window };
}

/** The cursor with the service's country list, asked for only when linking needs it and the stored one is missing or old. */
async function refreshCountries(
  options: SyncJobOptions,
  events: readonly PortalEvent[],
  cursor: SyncCursor,
  serviceTime: Date | undefined,
): Promise<SyncCursor> {
  const needCountries = events.some((p) => p.export.event.country !== undefined);
  const age = cursor.countries && serviceTime ? serviceTime.getTime() - Date.parse(cursor.countries.fetchedAt) : 0;
  const maxAge = options.countriesMaxAgeMs ?? DEFAULT_COUNTRIES_MAX_AGE_MS;
  if (!needCountries || (cursor.countries !== undefined && age <= maxAge)) return cursor;
  options.onProgress?.({ step: 'countries', detail: "the service's country list" });
  const list = await options.client.countries.list({ signal: options.signal, fresh: true });
  const fetchedAt = (serviceTime ?? localNow(options)).toISOString();
  return { ...cursor, countries: { fetchedAt, list } };
}

interface Linked {
  changes: SyncChange[];
  links: LinkRecord[];
  linkUpserts: LinkRecord[];
  portalUpserts: PortalRecord[];
  /** The portal keys the state keeps: tonight's, and those held because their input could not be read. */
  keys: Set<string>;
  cursor: SyncCursor;
}

/** Every portal event linked against the mirror, with what each change of link means for a person. */
function linkAll(
  options: SyncJobOptions,
  state: SyncSnapshot,
  run: {
    events: readonly PortalEvent[];
    pins: ReadonlyMap<string, number>;
    service: ServiceUpdate;
    cursor: SyncCursor;
    upgraded: ReadonlySet<string>;
  },
): Linked {
  const { events, pins, service } = run;
  const template = options.template ?? DEFAULT_LINK_TEMPLATE;
  const viewerUrl = options.client.addresses.viewerUrl;
  const hashes = new Map(events.map((p) => [p.key, portalHash(p)]));
  const linkContext = contentHash({ template, viewerUrl, countries: run.cursor.countries });
  const cursor = { ...run.cursor, linkContext };
  const unchanged = unchangedTest(state, service, {
    hashes,
    pins,
    contextSame: state.cursor.linkContext === linkContext,
  });
  const at = (service.serviceTime ?? localNow(options)).toISOString();

  (options.onProgress ?? (() => undefined))({
    step: 'linking',
    detail: `${events.length} portal events against ${service.mirror.size} service events`,
  });
  const ctx: LinkContext = {
    mirror: service.mirror,
    byDay: indexByDay(service.mirror),
    countries: cursor.countries?.list,
    template,
    viewerUrl,
  };
  const out: Linked = { changes: [], links: [], linkUpserts: [], portalUpserts: [], keys: new Set(), cursor };
  for (const p of events) {
    options.signal?.throwIfAborted();
    const pinned = pins.get(p.key);
    const exact =
      pinned !== undefined
        ? { id: pinned, method: 'pinned' as const }
        : p.serviceEventId !== undefined
          ? { id: p.serviceEventId, method: 'portal_id' as const }
          : undefined;
    const previous = state.links.get(p.key);
    const old = state.portal.get(p.key);
    const hash = hashes.get(p.key)!;
    const portalChanged = old !== undefined && old.hash !== hash;
    const fresh =
      previous !== undefined && unchanged(p, exact?.id) ? previous : linkPortalEvent(p.key, p.export, exact, ctx);
    const after = carryStatuses(previous, fresh, {
      portalChanged: portalChanged || state.pins.get(p.key) !== pinned,
      gone: service.gone,
      at,
    });
    out.changes.push(...linkChanges(previous, after, { portalNew: old === undefined, portalChanged }));
    out.links.push(after);
    out.keys.add(p.key);
    if (previous === undefined || run.upgraded.has(p.key) || canonicalJson(previous) !== canonicalJson(after)) {
      out.linkUpserts.push(after);
    }
    const record = portalRecord(p, hash);
    if (old === undefined || canonicalJson(old) !== canonicalJson(record)) out.portalUpserts.push(record);
  }
  return out;
}

/**
 * Whether a portal event keeps its link unscored: nothing it was scored on changed (the portal event, its pin, the
 * mirror's events on its candidate days, or for an exact id that event, and the linking context). Scoring it again
 * would give the same link, so this saves time, not correctness (the season test compares with fresh runs).
 */
function unchangedTest(
  state: SyncSnapshot,
  service: ServiceUpdate,
  run: { hashes: ReadonlyMap<string, string>; pins: ReadonlyMap<string, number>; contextSame: boolean },
): (p: PortalEvent, exactId: number | undefined) => boolean {
  const touchedIds = new Set<number>([...service.upserts.map((r) => r.id), ...service.deletes]);
  const dirtyDays = new Set<number>();
  for (const id of touchedIds) {
    for (const record of [state.mirror.get(id), service.mirror.get(id)]) {
      if (record) for (const d of daysOf(record)) dirtyDays.add(d);
    }
  }
  return (p, exactId) => {
    if (!run.contextSame || state.portal.get(p.key)?.hash !== run.hashes.get(p.key)) return false;
    if (state.pins.get(p.key) !== run.pins.get(p.key)) return false;
    if (exactId !== undefined) return !touchedIds.has(exactId);
    const days = candidateDays(p.export);
    return days === undefined ? touchedIds.size === 0 : !days.some((d) => dirtyDays.has(d));
  };
}

/**
 * The portal keys removed tonight, reported as changes (and their links added to `linked` for those held). A portal
 * event read from a file that could not be read tonight is not removed: it is held as it was, and the problem is
 * reported. Only events whose input was read and no longer has them are removed.
 */
function portalRemovals(options: SyncJobOptions, state: SyncSnapshot, linked: Linked): string[] {
  const unreadable = options.portal.problems.map((p) => p.origin);
  const held = (record: PortalRecord): boolean =>
    unreadable.some(
      (origin) =>
        record.origin === origin ||
        record.origin.startsWith(`${origin}#`) ||
        record.origin.startsWith(`${origin} `) ||
        record.origin.startsWith(`${origin}/`),
    );
  const missing = [...state.portal.values()].filter((r) => !linked.keys.has(r.key));
  for (const r of missing) {
    if (!held(r)) continue;
    linked.keys.add(r.key);
    const link = state.links.get(r.key);
    if (link) linked.links.push(link);
  }
  linked.links.sort(byKey);
  const removed = missing
    .filter((r) => !linked.keys.has(r.key))
    .map((r) => r.key)
    .sort();
  for (const key of removed) {
    linked.changes.push({ key, kind: 'portal_removed', message: 'removed from the portal', attention: false });
  }
  return removed;
}
