/**
 * The event search of GET /events over the in-memory dataset. Pure: a parsed query in, the matching events out, in
 * the order and page asked for.
 */
import { distanceM, EARTH_RADIUS_M } from '../geo/distance.js';
import type { EventSearchQuery, SortProperty } from '../resources/events.js';
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

/** Lower-cased name and organiser names of an event: `q` is matched against them. */
function textOf(e: SimEvent): string[] {
  return [e.name, ...e.organisers.map((o) => o.name)].map((t) => t.toLocaleLowerCase('en-US'));
}

/** Flag bits of `EventIndex` columns. */
const SEARCHABLE = 1;
const PUBLISHED = 2;
const VALID_MAP = 4;

/**
 * Events ordered by start, with what searches compare held in columns (typed arrays) beside them: a search is a loop
 * over numbers instead of property reads on 10,000 objects. A time window is found by binary search: an event
 * overlapping [from, to) starts before `to` and no earlier than `from` minus the longest event. The world changes while
 * the simulator runs, so the index is rebuilt from the live list on the first search after a change.
 */
export class EventIndex {
  readonly #events: readonly SimEvent[];
  #byStart: SimEvent[] = [];
  #starts = new Float64Array(0);
  #ends = new Float64Array(0);
  /** modifiedMs in whole seconds, as searches compare it. */
  #modified = new Float64Array(0);
  /** NaN for an event without a position. */
  #lat = new Float64Array(0);
  #lng = new Float64Array(0);
  #unit: UnitVectors = { x: new Float64Array(0), y: new Float64Array(0), z: new Float64Array(0) };
  #country = new Int32Array(0);
  #flags = new Uint8Array(0);
  #countries = new Map<string, number>();
  #text: string[][] = [];
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

  #rebuild(): void {
    const events = [...this.#events].sort((a, b) => a.startMs - b.startMs || a.id - b.id);
    const n = events.length;
    this.#byStart = events;
    this.#starts = new Float64Array(n);
    this.#ends = new Float64Array(n);
    this.#modified = new Float64Array(n);
    this.#lat = new Float64Array(n);
    this.#lng = new Float64Array(n);
    this.#unit = { x: new Float64Array(n), y: new Float64Array(n), z: new Float64Array(n) };
    this.#country = new Int32Array(n);
    this.#flags = new Uint8Array(n);
    this.#countries = new Map();
    this.#text = new Array<string[]>(n);
    this.#maxDurationMs = 0;
    for (let i = 0; i < n; i++) {
      const e = events[i]!;
      this.#starts[i] = e.startMs;
      this.#ends[i] = e.endMs;
      this.#modified[i] = wholeSeconds(e.modifiedMs);
      this.#lat[i] = e.position ? e.position.latitude : NaN;
      this.#lng[i] = e.position ? e.position.longitude : NaN;
      [this.#unit.x[i], this.#unit.y[i], this.#unit.z[i]] = e.position
        ? unitVector(e.position.latitude, e.position.longitude)
        : [NaN, NaN, NaN];
      let country = this.#countries.get(e.countryCode);
      if (country === undefined) this.#countries.set(e.countryCode, (country = this.#countries.size));
      this.#country[i] = country;
      this.#flags[i] =
        (e.isSearchable ? SEARCHABLE : 0) | (e.isPublished ? PUBLISHED : 0) | (e.hasValidMapAndCourses ? VALID_MAP : 0);
      this.#text[i] = textOf(e);
      this.#maxDurationMs = Math.max(this.#maxDurationMs, e.endMs - e.startMs);
    }
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

  /**
   * Positions (in start order) of the events matching every filter, at most `limit` of them. Filters are checked
   * cheapest first; the result is the same in any order, as they all must hold.
   */
  #matching(filters: SearchFilters, limit: number): number[] {
    if (this.#stale) this.#rebuild();
    const q = filters.query;
    const { from, to } = q;
    const lo = from === undefined ? 0 : this.#lowerBound(from - this.#maxDurationMs);
    const hi = to === undefined ? this.#byStart.length : this.#lowerBound(to);
    let country = -1;
    if (filters.countryCode !== undefined) {
      country = this.#countries.get(filters.countryCode) ?? -2;
      if (country === -2) return [];
    }
    const flags =
      (q.onlySearchable ? SEARCHABLE : 0) |
      (q.onlyPublished ? PUBLISHED : 0) |
      (q.onlyHavingValidMapAndCourses ? VALID_MAP : 0);
    const geo = geoFilter(q, this.#lat, this.#lng, this.#unit);
    const needle = q.q?.toLocaleLowerCase('en-US');
    const starts = this.#starts;
    const ends = this.#ends;
    const out: number[] = [];
    for (let i = lo; i < hi && out.length < limit; i++) {
      const start = starts[i]!;
      const end = ends[i]!;
      // overlaps(), on the columns.
      if (to !== undefined && start >= to) continue;
      if (from !== undefined && (end > start ? end <= from : start < from)) continue;
      // Strictly later, compared as the client sees the time: modifiedTime has whole seconds, so a stamp within the
      // second of modifiedSince is not later than it.
      if (q.modifiedSince !== undefined && !(this.#modified[i]! > q.modifiedSince)) continue;
      if (country !== -1 && this.#country[i] !== country) continue;
      if ((this.#flags[i]! & flags) !== flags) continue;
      if (geo && !geo(i)) continue;
      if (needle !== undefined && !this.#text[i]!.some((t) => t.includes(needle))) continue;
      out.push(i);
    }
    return out;
  }

  /** The matching events, in the order and page asked for. */
  search(filters: SearchFilters): SimEvent[] {
    const q = filters.query;
    const by = q.sorting?.by ?? 'time';
    const sign = q.sorting?.order === 'descending' ? -1 : 1;
    const page = q.paging
      ? { start: q.paging.index * q.paging.size, end: (q.paging.index + 1) * q.paging.size }
      : undefined;
    // Start order, ties by id, is the index's own order: ascending time needs no sort, and a page of it no more
    // matches than reach its end.
    if (by === 'time' && sign === 1) {
      const found = this.#matching(filters, page ? page.end : Infinity);
      return (page ? found.slice(page.start, page.end) : found).map((i) => this.#byStart[i]!);
    }
    const found = this.#matching(filters, Infinity);
    const keys = this.#sortKeys(by, q, found);
    const sorted = this.#ordered(found, keys, sign, page?.end);
    return (page ? sorted.slice(page.start, page.end) : sorted).map((j) => this.#byStart[found[j]!]!);
  }

  /**
   * The matches (indexes into `found`) in the order asked for, or its first `count` only. Ties fall back to the id so
   * that pages of a fixed query never overlap or skip while nothing changes: a total order. A page needs only the
   * matches whose key is at most the `count`-th smallest, found in linear time: only those are sorted (sorting all
   * 5,000 events of an open-ended search to show 50 cost more than everything else of the request).
   */
  #ordered(found: readonly number[], keys: Float64Array, sign: number, count: number | undefined): number[] {
    const n = found.length;
    // sign * key orders exactly as sign * (a - b) compares: negation is exact, and distinct doubles never differ by 0.
    const signed = new Float64Array(n);
    for (let j = 0; j < n; j++) signed[j] = sign * keys[j]!;
    const id = (j: number): number => this.#byStart[found[j]!]!.id;
    const order: number[] = [];
    if (count === undefined || count >= n) {
      for (let j = 0; j < n; j++) order.push(j);
    } else {
      const threshold = nthSmallest(signed.slice(), count - 1);
      let ties: number[] = [];
      for (let j = 0; j < n; j++) {
        if (signed[j]! < threshold) order.push(j);
        else if (signed[j] === threshold) ties.push(j);
      }
      // Of those on the threshold (many share a participant count of 0), the lowest ids come first.
      const wanted = count - order.length;
      if (ties.length > wanted) {
        const lastId = nthSmallest(Float64Array.from(ties, id), wanted - 1);
        ties = ties.filter((j) => id(j) <= lastId);
      }
      for (const j of ties) order.push(j);
    }
    return order.sort((a, b) => signed[a]! - signed[b]! || id(a) - id(b));
  }

  #sortKeys(by: SortProperty, q: EventSearchQuery, found: readonly number[]): Float64Array {
    const keys = new Float64Array(found.length);
    const centre = geoCentre(q);
    for (let j = 0; j < found.length; j++) {
      const e = this.#byStart[found[j]!]!;
      switch (by) {
        case 'time':
          keys[j] = e.startMs;
          break;
        case 'duration':
          keys[j] = e.endMs - e.startMs;
          break;
        case 'participantcount':
          keys[j] = e.participantCount;
          break;
        case 'distance':
          // Events without a position cannot be inside a geo search, so every match has one.
          keys[j] =
            centre && e.position ? distanceM(centre, { lat: e.position.latitude, lng: e.position.longitude }) : 0;
      }
    }
    return keys;
  }
}

/** An event's position as a point on the unit sphere (NaN without a position), for the circle's first cut. */
interface UnitVectors {
  x: Float64Array;
  y: Float64Array;
  z: Float64Array;
}

function unitVector(lat: number, lng: number): [number, number, number] {
  const phi = (lat * Math.PI) / 180;
  const lambda = (lng * Math.PI) / 180;
  return [Math.cos(phi) * Math.cos(lambda), Math.cos(phi) * Math.sin(lambda), Math.sin(phi)];
}

/** Metres added to a circle's radius in its first cut: far above rounding, so that it never drops a point inside. */
const CUT_SLACK_M = 10;

/**
 * The circle and box of a geo search as one test of an event's position (none: never inside), or undefined without
 * one. The circle first cuts by the angle between unit vectors (a dot product, no trigonometry per event): a point
 * farther than the radius plus a slack is outside; the haversine (`distanceM`, the same as ever) decides for the rest.
 */
function geoFilter(
  q: EventSearchQuery,
  lats: Float64Array,
  lngs: Float64Array,
  unit: UnitVectors,
): ((i: number) => boolean) | undefined {
  const box: Box | undefined =
    q.south !== undefined && q.north !== undefined && q.west !== undefined && q.east !== undefined
      ? { south: q.south, north: q.north, west: q.west, east: q.east }
      : undefined;
  const circle =
    q.latitude !== undefined && q.longitude !== undefined && q.radius !== undefined
      ? { centre: { lat: q.latitude, lng: q.longitude }, radius: q.radius }
      : undefined;
  if (!box && !circle) return undefined;
  const [cx, cy, cz] = circle ? unitVector(circle.centre.lat, circle.centre.lng) : [0, 0, 0];
  const angle = circle ? (circle.radius + CUT_SLACK_M) / EARTH_RADIUS_M : 0;
  const minDot = angle >= Math.PI ? -Infinity : Math.cos(angle);
  return (i) => {
    const lat = lats[i]!;
    const lng = lngs[i]!;
    if (Number.isNaN(lat)) return false;
    if (circle) {
      if (unit.x[i]! * cx + unit.y[i]! * cy + unit.z[i]! * cz < minDot) return false;
      if (distanceM(circle.centre, { lat, lng }) > circle.radius) return false;
    }
    return !box || inBox(lat, lng, box);
  };
}

/** The `n`-th smallest value (from 0) of `values`, which it reorders: quickselect, linear time on average. */
function nthSmallest(values: Float64Array, n: number): number {
  let lo = 0;
  let hi = values.length - 1;
  while (lo < hi) {
    const pivot = values[(lo + hi) >>> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (values[i]! < pivot) i++;
      while (values[j]! > pivot) j--;
      if (i <= j) {
        const t = values[i]!;
        values[i++] = values[j]!;
        values[j--] = t;
      }
    }
    if (n <= j) hi = j;
    else if (n >= i) lo = i;
    else return values[n]!;
  }
  return values[lo]!;
}

export function searchEvents(index: EventIndex, filters: SearchFilters): SimEvent[] {
  return index.search(filters);
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
