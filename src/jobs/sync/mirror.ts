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
 *   return (as does a 404 of a detail request); two consecutive misses and the event is gone.
 */
import type { LiveloxClient } from '../../client.js';
import { contentHash } from '../../core/hash.js';
import { DAY_MS } from '../../ems/dates.js';
import { NotFoundError } from '../../errors.js';
import { MAX_PAGE_SIZE, type EventSearchParams, type LiveloxEvent } from '../../resources/events.js';
import type { MirrorRecord, SyncCursor } from '../../store/sync-state.js';

export interface Window {
  from: Date;
  to: Date;
}

export interface MirrorProgress {
  /** `sweep` (whole window or a new part of it), `changes` (modified since), `details` (one event by id). */
  kind: 'sweep' | 'changes' | 'details';
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
  /** Ids found gone this run (two consecutive misses). */
  gone: Set<number>;
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

  const mirror = new Map(options.mirror);
  const upserts: MirrorRecord[] = [];
  const deletes: number[] = [];
  const gone = new Set<number>();
  const put = (record: MirrorRecord): void => {
    mirror.set(record.id, record);
    upserts.push(record);
  };
  for (const event of seen.values()) {
    const record = mirrorRecord(event);
    const old = mirror.get(event.id);
    if (old && old.hash === record.hash) {
      if (old.misses > 0) put({ ...old, misses: 0 });
      continue;
    }
    put(record);
  }
  const miss = (record: MirrorRecord): void => {
    const misses = record.misses + 1;
    if (misses >= 2) {
      mirror.delete(record.id);
      deletes.push(record.id);
      gone.add(record.id);
    } else put({ ...record, misses });
  };
  // A sweep of a part returns every event of that part that exists: the mirror's others there were missed.
  for (const part of sweeps) {
    for (const record of options.mirror.values()) {
      if (!seen.has(record.id) && overlaps(record, part) && !gone.has(record.id)) miss(record);
    }
  }
  // Events whose dates moved out of the window are no longer the portal's concern.
  for (const record of [...mirror.values()]) {
    if (!overlaps(record, window) && !options.wanted.has(record.id)) {
      mirror.delete(record.id);
      deletes.push(record.id);
    }
  }
  // Exact ids the portal names but the window did not hold (another date, say): asked for one by one.
  for (const id of options.wanted) {
    if (mirror.has(id) && !gone.has(id)) continue;
    if (gone.has(id)) continue;
    try {
      const event = await client.events.get(id, {
        includeClasses: true,
        includeProperties: true,
        includeUrls: true,
        fresh: true,
        signal,
      });
      options.onProgress?.({ kind: 'details', page: 1, events: 1 });
      const record = mirrorRecord(event);
      const old = mirror.get(id);
      if (!old || old.hash !== record.hash) put(record);
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
      const old = options.mirror.get(id);
      if (old) miss(old);
    }
  }

  const cursor: SyncCursor = {
    ...options.cursor,
    windowFrom: window.from.toISOString(),
    windowTo: window.to.toISOString(),
  };
  const start = maxModified ?? (serviceTime ? contractTime(serviceTime) : undefined);
  if (start !== undefined) cursor.modifiedSince = start;
  if (options.full && serviceTime) cursor.lastFullSweep = serviceTime.toISOString();
  return { mirror, upserts: dedupe(upserts), deletes, gone, cursor, serviceTime };
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
