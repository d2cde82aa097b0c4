/**
 * The event search of GET /events over the in-memory dataset. Pure: a parsed query in, the matching events out, in
 * the order and page asked for.
 */
import { distanceM, EARTH_RADIUS_M, type LatLng } from '../geo/distance.js';
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

/** Between an event's texts in its search text. */
const TEXT_SEPARATOR = '\u0000';

/** Lower-cased name and organiser names of an event: `q` is matched against each. */
function textsOf(e: SimEvent): string[] {
  return [e.name, ...e.organisers.map((o) => o.name)].map((t) => t.toLocaleLowerCase('en-US'));
}

/**
 * An event's texts joined by TEXT_SEPARATOR, computed once (the index is rebuilt after every change, and churn makes
 * many). A changed event is a new object (see `world.ts`), so its old text is never found for it.
 */
const searchText = new WeakMap<SimEvent, string>();
function textOf(e: SimEvent): string {
  let text = searchText.get(e);
  if (text === undefined) {
    text = textsOf(e).join(TEXT_SEPARATOR);
    searchText.set(e, text);
  }
  return text;
}

/** Whether `needle` is inside one of the event's texts: one look at the joined text, which holds any such match. */
function textHas(e: SimEvent, text: string, needle: string): boolean {
  if (!text.includes(needle)) return false;
  // Only a needle holding the separator could match across two texts (or a text holding it): asked text by text.
  return !needle.includes(TEXT_SEPARATOR) || textsOf(e).some((t) => t.includes(needle));
}

/** Flag bits of `Columns.flags`. */
const SEARCHABLE = 1;
const PUBLISHED = 2;
const VALID_MAP = 4;

/** What searches compare, one entry per event in start order (ties by id). */
interface Columns {
  events: SimEvent[];
  starts: Float64Array;
  ends: Float64Array;
  /** modifiedMs in whole seconds, as searches compare it. */
  modified: Float64Array;
  /** Degrees; NaN for an event without a position. */
  lat: Float64Array;
  lng: Float64Array;
  /** The position as a point on the unit sphere (NaN without one), for a circle's first cut. */
  x: Float64Array;
  y: Float64Array;
  z: Float64Array;
  /** Index into `countries`. */
  country: Int32Array;
  countries: Map<string, number>;
  flags: Uint8Array;
  /** `textOf` each event. */
  text: string[];
  maxDurationMs: number;
  /** Positions of the events in each cell of a one-degree grid (`cellOf`), ascending. */
  cells: Map<number, number[]>;
}

function columnsOf(list: readonly SimEvent[]): Columns {
  const events = [...list].sort((a, b) => a.startMs - b.startMs || a.id - b.id);
  const n = events.length;
  const c: Columns = {
    events,
    starts: new Float64Array(n),
    ends: new Float64Array(n),
    modified: new Float64Array(n),
    lat: new Float64Array(n),
    lng: new Float64Array(n),
    x: new Float64Array(n),
    y: new Float64Array(n),
    z: new Float64Array(n),
    country: new Int32Array(n),
    countries: new Map(),
    flags: new Uint8Array(n),
    text: new Array<string>(n),
    maxDurationMs: 0,
    cells: new Map(),
  };
  events.forEach((e, i) => {
    c.starts[i] = e.startMs;
    c.ends[i] = e.endMs;
    c.modified[i] = wholeSeconds(e.modifiedMs);
    const p = e.position;
    c.lat[i] = p ? p.latitude : NaN;
    c.lng[i] = p ? p.longitude : NaN;
    [c.x[i], c.y[i], c.z[i]] = p ? unitVector(p.latitude, p.longitude) : [NaN, NaN, NaN];
    let country = c.countries.get(e.countryCode);
    if (country === undefined) c.countries.set(e.countryCode, (country = c.countries.size));
    c.country[i] = country;
    c.flags[i] =
      (e.isSearchable ? SEARCHABLE : 0) | (e.isPublished ? PUBLISHED : 0) | (e.hasValidMapAndCourses ? VALID_MAP : 0);
    c.text[i] = textOf(e);
    c.maxDurationMs = Math.max(c.maxDurationMs, e.endMs - e.startMs);
    if (p) {
      const cell = cellOf(Math.floor(p.latitude), Math.floor(p.longitude));
      const list = c.cells.get(cell);
      if (list) list.push(i);
      else c.cells.set(cell, [i]);
    }
  });
  return c;
}

/**
 * Events ordered by start, with what searches compare held in columns (typed arrays) beside them: a search is a loop
 * over numbers instead of property reads on 10,000 objects. A time window is found by binary search: an event
 * overlapping [from, to) starts before `to` and no earlier than `from` minus the longest event. The world changes while
 * the simulator runs, so the index is rebuilt from the live list on the first search after a change.
 */
export class EventIndex {
  readonly #events: readonly SimEvent[];
  #columns: Columns | undefined;

  /** `events` is the live list: the index reads it again after `invalidate()`. */
  constructor(events: readonly SimEvent[]) {
    this.#events = events;
  }

  /** Called after any event was added, removed or replaced. */
  invalidate(): void {
    this.#columns = undefined;
  }

  /** The matching events, in the order and page asked for. */
  search(filters: SearchFilters): SimEvent[] {
    const c = (this.#columns ??= columnsOf(this.#events));
    const q = filters.query;
    const by = q.sorting?.by ?? 'time';
    const sign = q.sorting?.order === 'descending' ? -1 : 1;
    const page = q.paging
      ? { start: q.paging.index * q.paging.size, end: (q.paging.index + 1) * q.paging.size }
      : undefined;
    // Start order, ties by id, is the index's own order: ascending time needs no sort, and a page of it no more
    // matches than reach its end.
    if (by === 'time' && sign === 1) {
      const { found } = matching(c, filters, page ? page.end : Infinity);
      return (page ? found.slice(page.start, page.end) : found).map((i) => c.events[i]!);
    }
    const { found, distances } = matching(c, filters, Infinity);
    const keys = by === 'distance' && distances ? distances : sortKeys(c, by, q, found);
    const sorted = ordered(c, found, keys, sign, page?.end);
    return (page ? sorted.slice(page.start, page.end) : sorted).map((j) => c.events[found[j]!]!);
  }
}

/** First position whose start is >= t. */
function lowerBound(starts: Float64Array, t: number): number {
  let lo = 0;
  let hi = starts.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (starts[mid]! < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Positions (in start order) of the events matching every filter, at most `limit` of them, with their distances from
 * a circle's centre when the search has one. Filters are checked cheapest first; the result is the same in any order,
 * as they all must hold. A circle first cuts by the angle between unit vectors (a dot product, no trigonometry per
 * event): a point farther than the radius plus a slack is outside; the haversine (`distanceM`, as ever) decides the rest.
 */
function matching(
  c: Columns,
  filters: SearchFilters,
  limit: number,
): { found: number[]; distances: Float64Array | undefined } {
  const q = filters.query;
  const { from, to, modifiedSince } = q;
  const lo = from === undefined ? 0 : lowerBound(c.starts, from - c.maxDurationMs);
  const hi = to === undefined ? c.events.length : lowerBound(c.starts, to);
  const found: number[] = [];
  let country = -1;
  if (filters.countryCode !== undefined) {
    country = c.countries.get(filters.countryCode) ?? -2;
    if (country === -2) return { found, distances: undefined };
  }
  const flags =
    (q.onlySearchable ? SEARCHABLE : 0) |
    (q.onlyPublished ? PUBLISHED : 0) |
    (q.onlyHavingValidMapAndCourses ? VALID_MAP : 0);
  const box: Box | undefined =
    q.south !== undefined && q.north !== undefined && q.west !== undefined && q.east !== undefined
      ? { south: q.south, north: q.north, west: q.west, east: q.east }
      : undefined;
  const centre =
    q.latitude !== undefined && q.longitude !== undefined && q.radius !== undefined
      ? { lat: q.latitude, lng: q.longitude }
      : undefined;
  const radius = q.radius ?? 0;
  const [cx, cy, cz] = centre ? unitVector(centre.lat, centre.lng) : [0, 0, 0];
  const angle = (radius + CUT_SLACK_M) / EARTH_RADIUS_M;
  const minDot = angle >= Math.PI ? -Infinity : Math.cos(angle);
  const distances: number[] = [];
  const needle = q.q?.toLocaleLowerCase('en-US');
  const { starts, ends, modified, lat, lng, x, y, z, flags: flagsOf, text } = c;
  // A circle's events are found among those of the grid cells it touches, when it is small enough for that.
  const near = centre ? cellsAround(c, centre, angle, lo, hi) : undefined;
  const count = near ? near.length : hi - lo;
  for (let k = 0; k < count && found.length < limit; k++) {
    const i = near ? near[k]! : lo + k;
    const start = starts[i]!;
    const end = ends[i]!;
    // overlaps(), on the columns.
    if (to !== undefined && start >= to) continue;
    if (from !== undefined && (end > start ? end <= from : start < from)) continue;
    // Strictly later, compared as the client sees the time: modifiedTime has whole seconds, so a stamp within the
    // second of modifiedSince is not later than it.
    if (modifiedSince !== undefined && !(modified[i]! > modifiedSince)) continue;
    if (country !== -1 && c.country[i] !== country) continue;
    if ((flagsOf[i]! & flags) !== flags) continue;
    let distance = 0;
    if (centre) {
      // Also false for NaN: an event without a position is in no geo search.
      if (!(x[i]! * cx + y[i]! * cy + z[i]! * cz >= minDot)) continue;
      distance = distanceM(centre, { lat: lat[i]!, lng: lng[i]! });
      if (distance > radius) continue;
    }
    if (box && (Number.isNaN(lat[i]!) || !inBox(lat[i]!, lng[i]!, box))) continue;
    if (needle !== undefined && !textHas(c.events[i]!, text[i]!, needle)) continue;
    found.push(i);
    if (centre) distances.push(distance);
  }
  return { found, distances: centre ? Float64Array.from(distances) : undefined };
}

/** A one-degree cell of the grid: whole degrees of latitude (-90..90) and longitude (any, taken round the globe). */
function cellOf(latDeg: number, lngDeg: number): number {
  return (latDeg + 90) * 360 + ((((lngDeg + 180) % 360) + 360) % 360);
}

/**
 * Positions in [lo, hi), ascending, of the events in the grid cells that a circle of `angle` radians around `centre`
 * touches (the angle has its slack already); undefined when the circle is too large for the grid to help or comes
 * near a pole (then every event is looked at). The longitudes a circle spans are within asin(sin d / cos φ) of its
 * centre's (d its angle, φ its centre's latitude) while it holds no pole.
 */
function cellsAround(c: Columns, centre: LatLng, angle: number, lo: number, hi: number): Int32Array | undefined {
  const angleDeg = (angle * 180) / Math.PI;
  if (angleDeg > 10 || Math.abs(centre.lat) + angleDeg > 80) return undefined;
  const lngDeg = (Math.asin(Math.sin(angle) / Math.cos((centre.lat * Math.PI) / 180)) * 180) / Math.PI;
  const near: number[] = [];
  for (let la = Math.floor(centre.lat - angleDeg); la <= Math.floor(centre.lat + angleDeg); la++) {
    for (let ln = Math.floor(centre.lng - lngDeg); ln <= Math.floor(centre.lng + lngDeg); ln++) {
      for (const i of c.cells.get(cellOf(la, ln)) ?? []) if (i >= lo && i < hi) near.push(i);
    }
  }
  return Int32Array.from(near).sort();
}

/** Metres added to a circle's radius in its first cut: far above rounding, so that it never drops a point inside. */
const CUT_SLACK_M = 10;

function unitVector(lat: number, lng: number): [number, number, number] {
  const phi = (lat * Math.PI) / 180;
  const lambda = (lng * Math.PI) / 180;
  return [Math.cos(phi) * Math.cos(lambda), Math.cos(phi) * Math.sin(lambda), Math.sin(phi)];
}

function sortKeys(c: Columns, by: SortProperty, q: EventSearchQuery, found: readonly number[]): Float64Array {
  const keys = new Float64Array(found.length);
  const centre = geoCentre(q);
  for (let j = 0; j < found.length; j++) {
    const i = found[j]!;
    switch (by) {
      case 'time':
        keys[j] = c.starts[i]!;
        break;
      case 'duration':
        keys[j] = c.ends[i]! - c.starts[i]!;
        break;
      case 'participantcount':
        keys[j] = c.events[i]!.participantCount;
        break;
      case 'distance':
        // Events without a position cannot be inside a geo search, so every match has one.
        keys[j] = centre ? distanceM(centre, { lat: c.lat[i]!, lng: c.lng[i]! }) : 0;
    }
  }
  return keys;
}

/**
 * The matches (indexes into `found`) in the order asked for, or its first `count` only. Ties fall back to the id so
 * that pages of a fixed query never overlap or skip while nothing changes: a total order. A page needs only the
 * matches whose key is at most the `count`-th smallest, found in linear time: only those are sorted (sorting all
 * 5,000 events of an open-ended search to show 50 cost more than everything else of the request).
 */
function ordered(
  c: Columns,
  found: readonly number[],
  keys: Float64Array,
  sign: number,
  count: number | undefined,
): number[] {
  const n = found.length;
  // sign * key orders exactly as sign * (a - b) compares: negation is exact, and distinct doubles never differ by 0.
  const signed = new Float64Array(n);
  for (let j = 0; j < n; j++) signed[j] = sign * keys[j]!;
  const id = (j: number): number => c.events[found[j]!]!.id;
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
