/**
 * GET /events and GET /events/{eventId}: parameter rules (contract section 4.3, 4.4) and response records.
 * The record field names are not in the contract; they are the ones real clients see. Also the lookup of an event by
 * its id in another system (observed, not published). A little over 400 lines: one resource, its schemas beside it.
 */
import { z } from 'zod';
import type { ResourceRequester } from './requester.js';
import { parseAnswer, SERVICE_ANSWER } from '../core/answer.js';
import { zodProblems } from '../core/issues.js';
import { headerValue } from '../core/transport.js';
import {
  booleanParam,
  checkParam,
  checkQuery,
  cultureCodeParam,
  datetimeParam,
  definedEntries,
  optionalText,
  formatContractDatetime,
  numberParam,
  positiveIdParam,
  UNKNOWN_PARAMETER,
} from './params.js';
import { MAX_PAGE_SIZE, SORT_PROPERTIES, type SortProperty } from './event-search-terms.js';

export { MAX_PAGE_SIZE, SORT_PROPERTIES, type SortProperty };
export type SortOrder = 'ascending' | 'descending';

export const EVENT_SEARCH_PARAMETERS = [
  'from',
  'to',
  'q',
  'modifiedSince',
  'latitude',
  'longitude',
  'radius',
  'south',
  'north',
  'west',
  'east',
  'countryId',
  'onlySearchable',
  'onlyPublished',
  'onlyHavingValidMapAndCourses',
  'includeClasses',
  'includeProperties',
  // Observed on the real service, not published: includes the viewer urls of classes.
  'includeUrls',
  'cultureCode',
  'sorting',
  'paging',
] as const;

const sortingParam = z.string().transform((value, ctx) => {
  const m = /^([a-z]+)(?::([a-z]+))?$/i.exec(value);
  const property = m?.[1]?.toLowerCase();
  const order = (m?.[2] ?? 'ascending').toLowerCase();
  if (!property || !(SORT_PROPERTIES as readonly string[]).includes(property)) {
    ctx.addIssue({
      code: 'custom',
      message: `'${value}' does not start with one of ${SORT_PROPERTIES.join(', ')} (shape property:order)`,
    });
    return z.NEVER;
  }
  if (order !== 'ascending' && order !== 'descending') {
    ctx.addIssue({ code: 'custom', message: `order '${m?.[2] ?? ''}' is neither ascending nor descending` });
    return z.NEVER;
  }
  return { by: property as SortProperty, order: order satisfies SortOrder };
});

const pagingParam = z.string().transform((value, ctx) => {
  const m = /^(\d{1,9}):(\d{1,9})$/.exec(value);
  if (!m) {
    ctx.addIssue({ code: 'custom', message: `'${value}' is not of the shape index:size, such as 0:50` });
    return z.NEVER;
  }
  const index = Number(m[1]);
  const size = Number(m[2]);
  if (size < 1 || size > MAX_PAGE_SIZE) {
    ctx.addIssue({ code: 'custom', message: `page size ${size} is outside 1..${MAX_PAGE_SIZE}` });
    return z.NEVER;
  }
  return { index, size };
});

const countryIdParam = z.string().transform((value, ctx) => {
  if (/^\d{1,9}$/.test(value)) return { id: Number(value) } as const;
  if (/^[a-z]{3}$/i.test(value)) return { code: value.toUpperCase() } as const;
  ctx.addIssue({ code: 'custom', message: `'${value}' is neither a country id nor an ISO 3166-1 alpha-3 code` });
  return z.NEVER;
});

const latitude = numberParam(-90, 90, 'latitude');
const longitude = numberParam(-180, 180, 'longitude');

/** The fields of GET /events one by one: every value a string, as in the query string. */
export const eventSearchFields = z
  .object({
    from: datetimeParam.optional(),
    to: datetimeParam.optional(),
    q: z.string().min(1, { message: 'is empty' }).max(200).optional(),
    modifiedSince: datetimeParam.optional(),
    latitude: latitude.optional(),
    longitude: longitude.optional(),
    radius: numberParam(0, 20_100_000, 'radius in metres').optional(),
    south: latitude.optional(),
    north: latitude.optional(),
    west: longitude.optional(),
    east: longitude.optional(),
    countryId: countryIdParam.optional(),
    onlySearchable: booleanParam.optional(),
    onlyPublished: booleanParam.optional(),
    onlyHavingValidMapAndCourses: booleanParam.optional(),
    includeClasses: booleanParam.optional(),
    includeProperties: booleanParam.optional(),
    includeUrls: booleanParam.optional(),
    cultureCode: cultureCodeParam.optional(),
    sorting: sortingParam.optional(),
    paging: pagingParam.optional(),
  })
  .strict();

const CIRCLE = ['latitude', 'longitude', 'radius'] as const;
const BOX = ['south', 'north', 'west', 'east'] as const;

/**
 * GET /events as the service checks it. Rules about which parameters are present (the groups, at least one of the
 * list) are checked on the raw query, field formats next, rules between values last, and every problem found is
 * reported at once: a bad latitude must not hide a missing radius.
 */
export const eventSearchQuerySchema = z.record(z.string(), z.string()).transform((raw, ctx) => {
  const present = (k: string) => raw[k] !== undefined;
  let failed = false;
  const issue = (path: string[], message: string) => {
    failed = true;
    ctx.addIssue({ code: 'custom', path, message });
  };
  for (const [group, name] of [
    [CIRCLE, 'the circle needs latitude, longitude and radius'],
    [BOX, 'the box needs south, north, west and east'],
  ] as const) {
    const given = group.filter(present);
    if (given.length > 0 && given.length < group.length) {
      for (const k of group.filter((k) => !present(k))) issue([k], `is required with ${given.join(', ')} (${name})`);
    }
  }
  const anyOf = ['from', 'to', 'modifiedSince', 'paging', ...CIRCLE, ...BOX];
  if (!anyOf.some(present)) {
    issue(
      [],
      'at least one of from, to, modifiedSince, the circle (latitude, longitude, radius), the box (south, north, west, east) or paging is required',
    );
  }
  // Needs only the sorting's property and which parameters are there, so it is told even when a value is bad.
  if (/^distance(:|$)/i.test(raw.sorting ?? '') && !CIRCLE.every(present) && !BOX.every(present)) {
    issue(['sorting'], 'distance sorting needs a geo search (the circle or the box)');
  }
  const parsed = eventSearchFields.safeParse(raw);
  if (!parsed.success) {
    for (const problem of zodProblems(parsed.error, { unknownField: UNKNOWN_PARAMETER })) {
      issue(problem.path.map(String), problem.message);
    }
    return z.NEVER;
  }
  const q = parsed.data;
  if (q.south !== undefined && q.north !== undefined && q.south > q.north) {
    issue(['south'], `south ${q.south} is north of north ${q.north}`);
  }
  if (q.from !== undefined && q.to !== undefined && q.from >= q.to) issue(['to'], 'is not later than from');
  return failed ? z.NEVER : q;
});

export type EventSearchQuery = z.output<typeof eventSearchQuerySchema>;

export const EVENT_DETAILS_PARAMETERS = ['includeClasses', 'includeProperties', 'includeUrls', 'cultureCode'] as const;

export const eventDetailsQuerySchema = z
  .object({
    includeClasses: booleanParam.optional(),
    includeProperties: booleanParam.optional(),
    includeUrls: booleanParam.optional(),
    cultureCode: cultureCodeParam.optional(),
  })
  .strict();

export const eventIdParam = positiveIdParam;

/**
 * An event's id in another system as the service is observed to take it in place of its own id (observed, not
 * published): `EventorSweden:{eventorEventId}-{raceNumber}`, the race counted from 1. The system name is letters and
 * digits; the rest has no slash, so that it stays one path segment.
 */
export const externalEventIdParam = z.string().regex(/^[A-Za-z][A-Za-z0-9]{0,39}:[^/\s]{1,60}$/, {
  message: 'is not of the shape System:id (EventorSweden:49812-1)',
});

/** The observed external id of a race of an event in Sweden's Eventor (observed, not published). */
export function eventorSwedenId(eventorEventId: number | string, race = 1): string {
  return `EventorSweden:${String(eventorEventId).trim()}-${race}`;
}

// ---- Response records. Loose objects: the real service sends fields the contract does not name, and we keep them.

export const eventClassSchema = z.looseObject({
  id: z.number().int(),
  name: z.string(),
  url: z.string().optional(),
});

export const countryRefSchema = z.looseObject({
  id: z.number().int(),
  code: z.string(),
  name: z.string(),
});

export const eventSchema = z.looseObject({
  id: z.number().int(),
  name: z.string(),
  timeInterval: z.looseObject({ start: z.string(), end: z.string() }),
  organisers: z.array(z.looseObject({ name: z.string() })).optional(),
  country: countryRefSchema.nullable().optional(),
  position: z.looseObject({ latitude: z.number(), longitude: z.number() }).nullable().optional(),
  classes: z.array(eventClassSchema).optional(),
  properties: z.array(z.looseObject({ key: z.string(), value: z.string() })).optional(),
  participantCount: z.number().int().optional(),
  isSearchable: z.boolean().optional(),
  isPublished: z.boolean().optional(),
  hasValidMapAndCourses: z.boolean().optional(),
  modifiedTime: z.string().optional(),
});

export type LiveloxEvent = z.output<typeof eventSchema>;
export const eventListSchema = z.array(eventSchema);

// ---- The client side: typed parameters in, checked before sending, records out.

/** Search parameters as typed values. Datetimes may be Dates or contract strings (yyyy-mm-ddThh:mm:ssZ). */
export interface EventSearchParams {
  /** Start of the UTC interval; events overlapping [from, to) match. */
  from?: Date | string;
  /** End of the interval, exclusive. */
  to?: Date | string;
  /** Matched against event and organiser names. */
  q?: string;
  /** Only events modified later than this. */
  modifiedSince?: Date | string;
  /** A circle: centre in degrees, radius in metres. */
  circle?: { latitude: number; longitude: number; radius: number };
  /** A box in degrees; west > east crosses the antimeridian. */
  box?: { south: number; north: number; west: number; east: number };
  /** The service's internal country id, or an ISO 3166-1 alpha-3 code. See `client.countries.resolve`. */
  countryId?: number | string;
  onlySearchable?: boolean;
  onlyPublished?: boolean;
  onlyHavingValidMapAndCourses?: boolean;
  /** Default true (service). */
  includeClasses?: boolean;
  /** Default true (service). */
  includeProperties?: boolean;
  /** Observed, not published: asks for the classes' viewer urls. The client sends true unless told otherwise. */
  includeUrls?: boolean;
  /** Language of country names. Default en-US (service). */
  cultureCode?: string;
  sorting?: { by: SortProperty; order?: SortOrder };
  /** Zero-based page index and page size (at most MAX_PAGE_SIZE). */
  paging?: { index: number; size: number };
}

export interface EventDetailsParams {
  includeClasses?: boolean;
  includeProperties?: boolean;
  includeUrls?: boolean;
  cultureCode?: string;
}

const asDatetime = (v: Date | string | undefined): string | undefined =>
  v === undefined
    ? undefined
    : typeof v === 'string'
      ? v
      : Number.isNaN(v.getTime())
        ? 'Invalid Date'
        : formatContractDatetime(v);

/** The query string of GET /events for typed parameters (not yet checked). */
export function eventSearchQuery(p: EventSearchParams): Record<string, string> {
  const record: Record<string, string | undefined> = {
    from: asDatetime(p.from),
    to: asDatetime(p.to),
    q: p.q,
    modifiedSince: asDatetime(p.modifiedSince),
    latitude: optionalText(p.circle?.latitude),
    longitude: optionalText(p.circle?.longitude),
    radius: optionalText(p.circle?.radius),
    south: optionalText(p.box?.south),
    north: optionalText(p.box?.north),
    west: optionalText(p.box?.west),
    east: optionalText(p.box?.east),
    countryId: p.countryId === undefined ? undefined : String(p.countryId),
    onlySearchable: optionalText(p.onlySearchable),
    onlyPublished: optionalText(p.onlyPublished),
    onlyHavingValidMapAndCourses: optionalText(p.onlyHavingValidMapAndCourses),
    includeClasses: optionalText(p.includeClasses),
    includeProperties: optionalText(p.includeProperties),
    includeUrls: optionalText(p.includeUrls ?? true),
    cultureCode: p.cultureCode,
    sorting: p.sorting ? `${p.sorting.by}:${p.sorting.order ?? 'ascending'}` : undefined,
    paging: p.paging ? `${p.paging.index}:${p.paging.size}` : undefined,
  };
  return definedEntries(record);
}

/** The query string of GET /events/{eventId}, checked. */
function eventDetailsQuery(params: EventDetailsParams): Record<string, string> {
  const query = definedEntries({
    includeClasses: optionalText(params.includeClasses),
    includeProperties: optionalText(params.includeProperties),
    includeUrls: optionalText(params.includeUrls ?? true),
    cultureCode: params.cultureCode,
  });
  checkQuery('Event details parameters', query, eventDetailsQuerySchema);
  return query;
}

export class Events {
  readonly #client: ResourceRequester;

  constructor(client: ResourceRequester) {
    this.#client = client;
  }

  /** One page (or, without paging, every match) of events. Parameters are checked before anything is sent. */
  async search(params: EventSearchParams, options: { signal?: AbortSignal | undefined } = {}): Promise<LiveloxEvent[]> {
    return (await this.searchPage(params, options)).events;
  }

  /**
   * `search`, with the service's clock when it answered (its `Date` header, when it sent a valid one). A job that keeps
   * a "modified since" cursor takes its time from here, never from the local clock, which may be off.
   */
  async searchPage(
    params: EventSearchParams,
    options: { signal?: AbortSignal | undefined } = {},
  ): Promise<{ events: LiveloxEvent[]; serviceTime: Date | undefined }> {
    const query = eventSearchQuery(params);
    checkQuery('Event search parameters', query, eventSearchQuerySchema);
    const res = await this.#client.request({ path: '/events', query, signal: options.signal });
    const events = parseAnswer(res, { method: 'GET', path: '/events' }, eventListSchema, SERVICE_ANSWER);
    const date = Date.parse(headerValue(res.headers.date) ?? '');
    return { events, serviceTime: Number.isFinite(date) ? new Date(date) : undefined };
  }

  /**
   * Every matching event, page by page (`for await (const e of client.events.searchAll(q))`). Starts at
   * `params.paging.index` (default 0) with `params.paging.size` or `pageSize` (default 500) events a page, and stops
   * at the first short page.
   */
  async *searchAll(
    params: EventSearchParams,
    options: { pageSize?: number; signal?: AbortSignal | undefined } = {},
  ): AsyncGenerator<LiveloxEvent, void, undefined> {
    const size = params.paging?.size ?? options.pageSize ?? 500;
    for (let index = params.paging?.index ?? 0; ; index++) {
      const page = await this.search({ ...params, paging: { index, size } }, options);
      yield* page;
      if (page.length < size) return;
    }
  }

  /** One event's details, cached for `eventTtlMs` (default 60 s). 404 becomes NotFoundError. */
  async get(
    eventId: number,
    params: EventDetailsParams & { signal?: AbortSignal | undefined; fresh?: boolean } = {},
  ): Promise<LiveloxEvent> {
    checkParam('Event id', 'eventId', String(eventId), eventIdParam);
    const query = eventDetailsQuery(params);
    const key = `event:${eventId}:${new URLSearchParams(query).toString()}`;
    const cache = this.#client.cache;
    if (cache && !params.fresh) {
      const hit = (await cache.get(key)) as LiveloxEvent | undefined;
      if (hit) return hit;
    }
    const event = await this.#client.requestJson(
      { path: `/events/${eventId}`, query, signal: params.signal },
      eventSchema,
    );
    await cache?.set(key, event, this.#client.ttl.eventMs);
    return event;
  }

  /**
   * One event by its id in another system, as real clients are observed to ask (observed, not published):
   * `GET /events/EventorSweden%3A49812-1` for race 1 of Eventor event 49812 (see `eventorSwedenId`). The colon is
   * percent-encoded. 404 (no event has that id) becomes NotFoundError. Not cached: it is asked once per export.
   */
  async getByExternalId(
    externalId: string,
    params: EventDetailsParams & { signal?: AbortSignal | undefined } = {},
  ): Promise<LiveloxEvent> {
    checkParam('External event id', 'externalId', externalId, externalEventIdParam);
    const query = eventDetailsQuery(params);
    return this.#client.requestJson(
      { path: `/events/${encodeURIComponent(externalId)}`, query, signal: params.signal },
      eventSchema,
    );
  }
}
