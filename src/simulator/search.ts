/**
 * The event search of GET /events over the in-memory dataset. Pure: a parsed query in, the matching events out, in
 * the order and page asked for.
 */
import { distanceM } from '../geo/distance.js';
import type { EventSearchQuery } from '../resources/events.js';
import type { SimEvent } from './model.js';

export interface SearchFilters {
  query: EventSearchQuery;
  /** countryId already resolved to an alpha-3 code by the caller. */
  countryCode?: string;
}

/**
 * An event's interval is [start, end). It matches [from, to) when the two overlap; an event of zero length matches
 * when its instant lies inside [from, to).
 */
export function overlaps(event: SimEvent, from: number | undefined, to: number | undefined): boolean {
  if (to !== undefined && event.startMs >= to) return false;
  if (from !== undefined) {
    if (event.endMs > event.startMs) return event.endMs > from;
    return event.startMs >= from;
  }
  return true;
}

function geoCentre(q: EventSearchQuery): { lat: number; lng: number } | undefined {
  if (q.latitude !== undefined && q.longitude !== undefined && q.radius !== undefined) {
    return { lat: q.latitude, lng: q.longitude };
  }
  if (q.south !== undefined && q.north !== undefined && q.west !== undefined && q.east !== undefined) {
    const width = q.west <= q.east ? q.east - q.west : q.east + 360 - q.west;
    const lng = q.west + width / 2;
    return { lat: (q.south + q.north) / 2, lng: lng > 180 ? lng - 360 : lng };
  }
  return undefined;
}

interface Box {
  south: number;
  north: number;
  west: number;
  east: number;
}

function inBox(lat: number, lng: number, { south, north, west, east }: Box): boolean {
  if (lat < south || lat > north) return false;
  // A box whose west edge is east of its east edge crosses the antimeridian.
  return west <= east ? lng >= west && lng <= east : lng >= west || lng <= east;
}

/** A time as modifiedTime shows it: whole seconds. Searches compare, and the world stamps, at this resolution. */
export function wholeSeconds(ms: number): number {
  return Math.floor(ms / 1000) * 1000;
}

/**
 * Lower-cased name and organiser names per event, computed once: `q` is matched against them on every search. A
 * changed event is a new object (see `world.ts`), so its old text is never found for it.
 */
const searchText = new WeakMap<SimEvent, string[]>();
function textOf(e: SimEvent): string[] {
  let text = searchText.get(e);
  if (!text) {
    text = [e.name, ...e.organisers.map((o) => o.name)].map((t) => t.toLocaleLowerCase('en-US'));
    searchText.set(e, text);
  }
  return text;
}

/**
 * Events ordered by start, so that a time window is found by binary search instead of a scan. Exact for any dataset:
 * an event overlapping [from, to) starts before `to` and no earlier than `from` minus the longest event. The world
 * changes while the simulator runs, so the order is rebuilt from the live list on the first search after a change.
 */
export class EventIndex {
  readonly #events: readonly SimEvent[];
  #byStart: SimEvent[] = [];
  #starts = new Float64Array(0);
  #maxDurationMs = 0;
  #stale = true;

  /** `events` is the live list: the index reads it again after `invalidate()`. */
  constructor(events: readonly SimEvent[]) {
    this.#events = events;
  }

  /** Called after any event was added, removed or replaced. */
  invalidate(): void {
    this.#stale = true;
  }

  /** Every event that could overlap [from, to); the caller still applies `overlaps`. */
  candidates(from: number | undefined, to: number | undefined): SimEvent[] {
    if (this.#stale) this.#rebuild();
    const lo = from === undefined ? 0 : this.#lowerBound(from - this.#maxDurationMs);
    const hi = to === undefined ? this.#byStart.length : this.#lowerBound(to);
    return lo === 0 && hi === this.#byStart.length ? this.#byStart : this.#byStart.slice(lo, hi);
  }

  #rebuild(): void {
    this.#byStart = [...this.#events].sort((a, b) => a.startMs - b.startMs || a.id - b.id);
    this.#starts = Float64Array.from(this.#byStart, (e) => e.startMs);
    this.#maxDurationMs = this.#byStart.reduce((m, e) => Math.max(m, e.endMs - e.startMs), 0);
    this.#stale = false;
  }

  /** First position whose start is >= t. */
  #lowerBound(t: number): number {
    let lo = 0;
    let hi = this.#starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.#starts[mid]! < t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

export function searchEvents(index: EventIndex, filters: SearchFilters): SimEvent[] {
  const q = filters.query;
  const events = index.candidates(q.from, q.to);
  const needle = q.q?.toLocaleLowerCase('en-US');
  const hasCircle = q.latitude !== undefined && q.longitude !== undefined && q.radius !== undefined;
  const box: Box | undefined =
    q.south !== undefined && q.north !== undefined && q.west !== undefined && q.east !== undefined
      ? { south: q.south, north: q.north, west: q.west, east: q.east }
      : undefined;
  const hasBox = box !== undefined;
  const circleCentre = hasCircle ? { lat: q.latitude!, lng: q.longitude! } : undefined;

  const matches = events.filter((e) => {
    if (!overlaps(e, q.from, q.to)) return false;
    // Strictly later, compared as the client sees the time: modifiedTime has whole seconds, so a stamp within the
    // second of modifiedSince is not later than it.
    if (q.modifiedSince !== undefined && !(wholeSeconds(e.modifiedMs) > q.modifiedSince)) return false;
    if (filters.countryCode !== undefined && e.countryCode !== filters.countryCode) return false;
    if (q.onlySearchable && !e.isSearchable) return false;
    if (q.onlyPublished && !e.isPublished) return false;
    if (q.onlyHavingValidMapAndCourses && !e.hasValidMapAndCourses) return false;
    if (hasCircle || hasBox) {
      if (!e.position) return false;
      const p = { lat: e.position.latitude, lng: e.position.longitude };
      if (circleCentre && distanceM(circleCentre, p) > q.radius!) return false;
      if (box && !inBox(p.lat, p.lng, box)) return false;
    }
    if (needle !== undefined && !textOf(e).some((t) => t.includes(needle))) return false;
    return true;
  });

  const by = q.sorting?.by ?? 'time';
  const sign = q.sorting?.order === 'descending' ? -1 : 1;
  const centre = geoCentre(q);
  const key = (e: SimEvent): number => {
    switch (by) {
      case 'time':
        return e.startMs;
      case 'duration':
        return e.endMs - e.startMs;
      case 'participantcount':
        return e.participantCount;
      case 'distance':
        // Events without a position cannot be inside a geo search, so every match has one.
        return centre && e.position ? distanceM(centre, { lat: e.position.latitude, lng: e.position.longitude }) : 0;
    }
  };
  const keyed = matches.map((e) => ({ e, k: key(e) }));
  // Ties fall back to the id so that pages of a fixed query never overlap or skip while nothing changes: a total order.
  keyed.sort((a, b) => sign * (a.k - b.k) || a.e.id - b.e.id);
  const sorted = keyed.map((x) => x.e);

  if (!q.paging) return sorted;
  const start = q.paging.index * q.paging.size;
  return sorted.slice(start, start + q.paging.size);
}

/**
 * The event an external id names (observed, not published): `EventorSweden:{eventorId}-{race}` is race `race` of the
 * event whose `eventorId` property is `eventorId`, held in Sweden. The race is the event's stage (its `stage`
 * property, `2/3`), 1 for an event of one stage. Other systems are not observed: nothing answers to them.
 */
export function findByExternalId(events: Iterable<SimEvent>, externalId: string): SimEvent | undefined {
  const m = /^EventorSweden:([1-9]\d{0,9})-([1-9]\d{0,2})$/.exec(externalId);
  if (!m) return undefined;
  const [, eventorId, race] = m;
  for (const e of events) {
    if (e.countryCode !== 'SWE') continue;
    if (!e.properties.some((p) => p.key === 'eventorId' && p.value.trim() === eventorId)) continue;
    const stage = e.properties.find((p) => p.key === 'stage')?.value;
    const number = stage === undefined ? 1 : Number(/^(\d+)\//.exec(stage)?.[1]);
    if (String(number) === race) return e;
  }
  return undefined;
}
