/**
 * The service side of `sync`: bring the local mirror of the service's events in the window up to date with as few
 * requests as the situation allows (SYNC-NOTES.md):
 *
 * - The first run, a window that grew, and `full` sweep the window (or its new part) page by page.
 * - Every other run asks only for events modified since the cursor minus an overlap, in the same window: a night
 *   without change costs one request.
 * - The cursor is the largest `modifiedTime` the service returned (its clock, never ours); with none yet, the
 *   service's `Date` at the run. The caller stores it only when the whole run commits.
 * - Pages are indexes into one fixed query, and answers are de-duplicated by id and content: equal timestamps at a page
 *   edge lose nothing, and a full page of equal timestamps cannot loop.
 * - `modifiedSince` never shows a deletion: a full sweep counts a miss for every mirrored event of the window it did not
 *   return (as does a 404 of a detail request); two consecutive misses and the event is gone. Near today (near.ts) a
 *   linked event missing from a light search of those days is asked for by id, and a 404 makes it gone at once.
 */
import type { LiveloxClient } from '../../client.js';
import { contentHash } from '../../core/hash.js';
import { DAY_MS } from '../../ems/dates.js';
import { NotFoundError } from '../../errors.js';
import { MAX_PAGE_SIZE, type EventSearchParams, type LiveloxEvent } from '../../resources/events.js';
import type { MirrorRecord, SyncCursor } from '../../store/sync-state.js';
import { idsIn, nearWindow, stillThere, type NearDays } from './near.js';

export interface Window {
  from: Date;
  to: Date;
}

export interface MirrorProgress {
  /**
   * `sweep` (whole window or a new part of it), `changes` (modified since), `near` (the light search of the days near
   * today), `details` (one event by id).
   */
  kind: 'sweep' | 'changes' | 'near' | 'details';
  page: number;
  events: number;
}

export interface MirrorUpdateOptions {
  client: LiveloxClient;
  mirror: ReadonlyMap<number, MirrorRecord>;
  cursor: SyncCursor;
  window: Window;
  full: boolean;
  overlapMs: number;
  /** Ids the portal names exactly (stored ids, pins): fetched by id when the mirror lacks them. */
  wanted: ReadonlySet<number>;
  /** Service events some portal event is linked to: near today, one missing from a search is asked for by id. */
  linked: ReadonlySet<number>;
  /** The days around the service's clock swept for deletions of linked events; 0 and 0: none. */
  nearDays: NearDays;
  pageSize?: number;
  signal?: AbortSignal | undefined;
  onProgress?: (p: MirrorProgress) => void;
}

export interface MirrorUpdate {
  /** The mirror after the run (a new map; the input is not changed). */
  mirror: Map<number, MirrorRecord>;
  /** Records written or changed by this run. */
  upserts: MirrorRecord[];
  /** Ids dropped: gone from the service, or outside the window now. */
  deletes: number[];
  /** Ids found gone this run (two consecutive misses, or a 404 near today), with how it was found. */
  gone: Map<number, string>;
  cursor: SyncCursor;
  /** The service's clock during the run (its `Date`). */
  serviceTime: Date | undefined;
}

/** A mirror record of `event`, with its content hash and interval; `misses` is bookkeeping, not content. */
export function mirrorRecord(event: LiveloxEvent, misses = 0): MirrorRecord {
  const start = Date.parse(event.timeInterval.start);
  const end = Date.parse(event.timeInterval.end);
  // An interval the service wrote unreadably counts as everywhere, so that no window ever drops the event.
  return {
    id: event.id,
    hash: contentHash(event),
    startMs: Number.isFinite(start) ? start : Number.MIN_SAFE_INTEGER,
    endMs: Number.isFinite(end) ? end : Number.MAX_SAFE_INTEGER,
    misses,
    event,
  };
}

function overlaps(record: MirrorRecord, window: Window): boolean {
  return record.startMs < window.to.getTime() && record.endMs >= window.from.getTime();
}

function contractTime(d: Date): string {
  return `${d.toISOString().slice(0, 19)}Z`;
}

/** The parts of `window` a search still has to cover in full, given the window the mirror already covers. */
function sweepsNeeded(window: Window, cursor: SyncCursor, full: boolean): Window[] {
  if (full || cursor.modifiedSince === undefined || cursor.windowFrom === undefined || cursor.windowTo === undefined) {
    return [window];
  }
  const had = { from: new Date(cursor.windowFrom), to: new Date(cursor.windowTo) };
  const out: Window[] = [];
  if (window.from < had.from) out.push({ from: window.from, to: had.from < window.to ? had.from : window.to });
  if (window.to > had.to) out.push({ from: had.to > window.from ? had.to : window.from, to: window.to });
  return out;
}

export async function updateMirror(options: MirrorUpdateOptions): Promise<MirrorUpdate> {
  const { window } = options;
  const fetched = await fetchChanges(options);
  const { seen, sweeps, serviceTime } = fetched;
  const edit = new MirrorEdit(options.mirror);
  for (const event of seen.values()) edit.answered(mirrorRecord(event));
  // A sweep of a part returns every event of that part that exists: the mirror's others there were missed.
  for (const part of sweeps) {
    for (const record of options.mirror.values()) {
      if (!seen.has(record.id) && overlaps(record, part)) edit.miss(record, 'two full sweeps of the window missed it');
    }
  }
  if (serviceTime) await confirmNear(options, edit, fetched, serviceTime);
  // Events whose dates moved out of the window are no longer the portal's concern.
  for (const record of [...edit.mirror.values()]) {
    if (!overlaps(record, window) && !options.wanted.has(record.id)) edit.drop(record.id);
  }
  await fetchWanted(options, edit);

  const cursor: SyncCursor = {
    ...options.cursor,
    windowFrom: window.from.toISOString(),
    windowTo: window.to.toISOString(),
  };
  const start = fetched.maxModified ?? (serviceTime ? contractTime(serviceTime) : undefined);
  if (start !== undefined) cursor.modifiedSince = start;
  if (options.full && serviceTime) cursor.lastFullSweep = serviceTime.toISOString();
  return {
    mirror: edit.mirror,
    upserts: dedupe(edit.upserts),
    deletes: edit.deletes,
    gone: edit.gone,
    cursor,
    serviceTime,
  };
}

interface Fetched {
  /** Every event the searches returned, by id, in its newest state. */
  seen: Map<number, LiveloxEvent>;
  /** The parts of the window swept whole. */
  sweeps: Window[];
  serviceTime: Date | undefined;
  maxModified: string | undefined;
}

/** The searches of a run: the parts of the window to sweep whole, then (unless it was swept whole) what changed. */
async function fetchChanges(options: MirrorUpdateOptions): Promise<Fetched> {
  const { client, window, signal } = options;
  const size = Math.min(options.pageSize ?? MAX_PAGE_SIZE, MAX_PAGE_SIZE);
  const seen = new Map<number, LiveloxEvent>();
  let serviceTime: Date | undefined;
  let maxModified = options.cursor.modifiedSince;

  const pageThrough = async (kind: MirrorProgress['kind'], params: EventSearchParams): Promise<void> => {
    for (let index = 0; ; index++) {
      const page = await client.events.searchPage(
        {
          ...params,
          includeClasses: true,
          includeProperties: true,
          includeUrls: true,
          // One fixed order, ties broken by the service: pages are indexes into the same list.
          sorting: { by: 'time', order: 'ascending' },
          paging: { index, size },
        },
        { signal },
      );
      serviceTime ??= page.serviceTime;
      for (const event of page.events) {
        // An event met twice (it moved across a page edge while we paged) counts once, in its newer state.
        const before = seen.get(event.id);
        if (!before || (event.modifiedTime ?? '') >= (before.modifiedTime ?? '')) seen.set(event.id, event);
        if (event.modifiedTime !== undefined && (maxModified === undefined || event.modifiedTime > maxModified)) {
          maxModified = event.modifiedTime;
        }
      }
      options.onProgress?.({ kind, page: index + 1, events: seen.size });
      if (page.events.length < size) return;
    }
  };

  const sweeps = sweepsNeeded(window, options.cursor, options.full);
  for (const part of sweeps) await pageThrough('sweep', { from: part.from, to: part.to });
  const sweptWhole = sweeps.length === 1 && sweeps[0] === window;
  if (!sweptWhole) {
    const since = new Date(Date.parse(options.cursor.modifiedSince!) - options.overlapMs);
    await pageThrough('changes', { from: window.from, to: window.to, modifiedSince: contractTime(since) });
  }
  return { seen, sweeps, serviceTime, maxModified };
}

/**
 * Linked events near today that no search of this run returned: those a sweep covered, and (by a light search of the
 * near window, asked only when some are left) the others; each missing one is asked for by id, and a 404 makes it gone
 * at once. Unlinked mirrored events the light search lacks count a miss, as a sweep counts one.
 */
async function confirmNear(
  options: MirrorUpdateOptions,
  edit: MirrorEdit,
  fetched: Fetched,
  serviceTime: Date,
): Promise<void> {
  const near = nearWindow(serviceTime, options.nearDays);
  if (!near) return;
  const swept = (r: MirrorRecord): boolean => fetched.sweeps.some((part) => overlaps(r, part));
  const suspects = [...options.linked]
    .map((id) => edit.mirror.get(id))
    .filter((r): r is MirrorRecord => r !== undefined && overlaps(r, near) && !fetched.seen.has(r.id));
  let listed: Set<number> | undefined;
  if (suspects.some((r) => !swept(r))) {
    listed = await idsIn(options.client, near, {
      pageSize: options.pageSize,
      signal: options.signal,
      onPage: (page) => options.onProgress?.({ kind: 'near', page, events: fetched.seen.size }),
    });
    for (const record of [...edit.mirror.values()]) {
      // A record a sweep covered had its look (and its miss) already this run.
      if (!overlaps(record, near) || swept(record) || fetched.seen.has(record.id) || options.linked.has(record.id)) {
        continue;
      }
      if (listed.has(record.id)) edit.found(record);
      else edit.miss(record, 'two searches of the days near today missed it');
    }
  }
  for (const record of suspects) {
    if (listed?.has(record.id)) continue;
    const there = await stillThere(options.client, record.id, options.signal);
    options.onProgress?.({ kind: 'details', page: 1, events: 1 });
    if (there) continue;
    edit.drop(record.id, `a search of the days near today missed it, and GET /events/${record.id} answered 404`);
  }
}

/** Exact ids the portal names but the window did not hold (another date, say): asked for one by one. */
async function fetchWanted(options: MirrorUpdateOptions, edit: MirrorEdit): Promise<void> {
  for (const id of options.wanted) {
    if (edit.mirror.has(id) || edit.gone.has(id)) continue;
    try {
      const event = await options.client.events.get(id, {
        includeClasses: true,
        includeProperties: true,
        includeUrls: true,
        fresh: true,
        signal: options.signal,
      });
      options.onProgress?.({ kind: 'details', page: 1, events: 1 });
      edit.answered(mirrorRecord(event));
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
      const old = options.mirror.get(id);
      if (old) edit.miss(old, 'the service answered 404 for it twice');
    }
  }
}

/** The mirror as a run changes it: records written, ids dropped, and ids found gone (with how). */
class MirrorEdit {
  readonly mirror: Map<number, MirrorRecord>;
  readonly upserts: MirrorRecord[] = [];
  readonly deletes: number[] = [];
  readonly gone = new Map<number, string>();

  constructor(mirror: ReadonlyMap<number, MirrorRecord>) {
    this.mirror = new Map(mirror);
  }

  put(record: MirrorRecord): void {
    this.mirror.set(record.id, record);
    this.upserts.push(record);
  }

  /** The service answered the event: written when its content changed, or when it had misses to clear. */
  answered(record: MirrorRecord): void {
    const old = this.mirror.get(record.id);
    if (!old || old.hash !== record.hash) this.put(record);
    else this.found(old);
  }

  /** The service listed the event (content unknown): its misses start again from zero. */
  found(record: MirrorRecord): void {
    if (record.misses > 0) this.put({ ...record, misses: 0 });
  }

  /** A look that should have found the event did not: at the second in a row it is gone, for `why`. */
  miss(record: MirrorRecord, why: string): void {
    if (this.gone.has(record.id)) return;
    const misses = record.misses + 1;
    if (misses >= 2) this.drop(record.id, why);
    else this.put({ ...record, misses });
  }

  /** Out of the mirror: gone from the service (with `why`), or no longer in the window. */
  drop(id: number, why?: string): void {
    this.mirror.delete(id);
    this.deletes.push(id);
    if (why !== undefined) this.gone.set(id, why);
  }
}

/** The last write of each id wins: a record missed and then fetched is written once, in its final state. */
function dedupe(records: MirrorRecord[]): MirrorRecord[] {
  const last = new Map<number, MirrorRecord>();
  for (const r of records) last.set(r.id, r);
  return [...last.values()];
}

/** The window that the portal's events span, widened by `marginDays` on both sides (whole UTC days). */
export function portalWindow(dates: ReadonlyArray<{ first: number; last: number }>, marginDays: number): Window {
  const first = Math.min(...dates.map((d) => d.first));
  const last = Math.max(...dates.map((d) => d.last));
  return { from: new Date((first - marginDays) * DAY_MS), to: new Date((last + 1 + marginDays) * DAY_MS) };
}
