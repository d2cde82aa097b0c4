/**
 * Where a portal's sync stands, read from its state without a run: every portal event with its link, what needs a
 * person (in the words a run repeats every night: changes.ts `standingChanges`), counts, and the last runs of the
 * state's run log. The status page and `sync status` are this, worded; `sync --status-html` reads it right after its
 * commit. Reading takes no run lock and writes nothing.
 */
import { existsSync } from 'node:fs';
import { StateError } from '../../errors.js';
import type { LinkRecord, RunLog } from '../../store/sync-state.js';
import { openSqliteStore, syncStoreOf, type SyncStateFile } from '../../store/sqlite.js';
import { needsPerson, standingChanges, type SyncChange } from './changes.js';

/** Runs of the run log a status shows by default. */
export const RECENT_RUNS = 30;

/** One run of the run log. */
export interface SyncRunStatus {
  startedAt: string;
  finishedAt?: string;
  /** From start to commit (local clock); absent for runs logged before the state kept when a run finished. */
  durationMs?: number;
  serviceTime?: string;
  requests: number;
  /** Something needed a person after it (the run exited 1; else 0). */
  attention: boolean;
  /** Counts: `portalEvents`, `mirror`, and each change kind of the run. */
  summary: Record<string, number>;
}

/** One portal event as the state holds it, with its link (none for an event whose input could never be read). */
export interface SyncEventStatus {
  key: string;
  /** The portal's name of the event, and where it was read from. */
  name: string;
  origin: string;
  start?: string;
  /** The service event a person pinned it to. */
  pinned?: number;
  link?: LinkRecord;
}

export interface SyncStatusCounts {
  portalEvents: number;
  linked: number;
  ambiguous: number;
  notFound: number;
  gone: number;
  /** Portal classes with a link, and those that lost theirs (`unmapped`). */
  classesLinked: number;
  classesUnmapped: number;
  pins: number;
  /** Service events mirrored. */
  mirror: number;
}

export interface SyncStatus {
  /** The state file. */
  state: string;
  /** Runs committed so far. */
  runs: number;
  /** The last runs, newest first (at most `recentRuns`). */
  recentRuns: SyncRunStatus[];
  counts: SyncStatusCounts;
  /** What needs a person, as the report's `!` lines say it. */
  attention: SyncChange[];
  /** Every portal event, in key order. */
  events: SyncEventStatus[];
}

/** The status of an open state file (one a run has just committed to, or one opened read-only). */
export function syncStatusOf(file: SyncStateFile, options: { recentRuns?: number } = {}): SyncStatus {
  const store = syncStoreOf(file);
  const state = store.load();
  const recent = store.recentRuns(options.recentRuns ?? RECENT_RUNS).map(runStatus);
  const links = [...state.links.values()];
  const keys = [...new Set([...state.portal.keys(), ...state.links.keys()])].sort();
  const events = keys.map((key): SyncEventStatus => {
    const portal = state.portal.get(key);
    const link = state.links.get(key);
    const pinned = state.pins.get(key);
    return {
      key,
      name: portal?.name ?? link?.eventName ?? key,
      origin: portal?.origin ?? '',
      ...(portal?.start === undefined ? {} : { start: portal.start }),
      ...(pinned === undefined ? {} : { pinned }),
      ...(link === undefined ? {} : { link }),
    };
  });
  const count = (status: LinkRecord['status']) => links.filter((l) => l.status === status).length;
  const classes = links.flatMap((l) => l.classes);
  return {
    state: file.path,
    runs: state.runs,
    recentRuns: recent,
    counts: {
      portalEvents: events.length,
      linked: count('linked'),
      ambiguous: count('ambiguous'),
      notFound: count('not_found'),
      gone: count('gone'),
      classesLinked: classes.filter((c) => c.status === 'linked').length,
      classesUnmapped: classes.filter((c) => c.status === 'unmapped').length,
      pins: state.pins.size,
      mirror: state.mirror.size,
    },
    attention: events.flatMap((e) => (e.link ? standingChanges(e.link) : [])),
    events,
  };
}

/**
 * The status of the state file at `path`, read from a copy in memory (state-file.ts `openStateSnapshot`): no lock is
 * taken, nothing is written, a run may be under way. A path with no file is a StateError (`missing`); a damaged file
 * one of the kinds a run would refuse it with.
 */
export function readSyncStatus(path: string, options: { recentRuns?: number } = {}): SyncStatus {
  if (!existsSync(path)) {
    throw new StateError('missing', path, 'there is no state file here: a sync run makes one.', {
      hint: 'Give the state file the nightly run uses.',
    });
  }
  const file = openSqliteStore(path, { readOnly: true });
  try {
    return syncStatusOf(file, options);
  } finally {
    file.close();
  }
}

function runStatus(run: RunLog): SyncRunStatus {
  const duration = run.finishedAt === undefined ? NaN : Date.parse(run.finishedAt) - Date.parse(run.startedAt);
  return {
    startedAt: run.startedAt,
    ...(run.finishedAt === undefined ? {} : { finishedAt: run.finishedAt }),
    ...(Number.isFinite(duration) ? { durationMs: duration } : {}),
    ...(run.serviceTime === undefined ? {} : { serviceTime: run.serviceTime }),
    requests: run.requests,
    attention: Object.entries(run.summary).some(([kind, n]) => n > 0 && needsPerson(kind)),
    summary: run.summary,
  };
}
