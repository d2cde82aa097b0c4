/**
 * The published endpoints (contract section 4) over the simulator's state. Every parameter goes through the same zod
 * schemas the client uses; anything the schemas refuse is a 400 naming the parameter.
 */
import type { z } from 'zod';
import { getProjection } from '../geo/projection.js';
import type { CourseData } from '../iof/model.js';
import { writeCourseData } from '../iof/write-course-data.js';
import { COUNTRIES_PARAMETERS, countriesQuerySchema } from '../resources/countries.js';
import { COURSES_PARAMETERS, COURSES_SCOPE, coursesQuerySchema } from '../resources/courses.js';
import {
  EVENT_DETAILS_PARAMETERS,
  EVENT_SEARCH_PARAMETERS,
  eventDetailsQuerySchema,
  eventIdParam,
  eventSearchQuerySchema,
  externalEventIdParam,
} from '../resources/events.js';
import { queryRecord } from '../resources/params.js';
import { importableRouteRequestSchema, MAX_ROUTE_BODY_BYTES, type ImportRecord } from '../resources/routes.js';
import { authenticate, requireScope, type AuthOutcome, type AuthSettings } from './auth.js';
import type { SimRequest, SimResponse } from './http.js';
import { badRequest, decodePathSegment, issuesToErrors, json, jsonText, message, notJson, xml } from './http.js';
import type { SimEvent } from './model.js';
import { countryRecord, EventRecordCache } from './records.js';
import { awaitParse, importRecordFor, startParse, type ImportSettings } from './route-import.js';
import { findByExternalId, searchEvents } from './search.js';
import type { Principal, RouteRecord, SimState } from './state.js';

export interface ApiSettings extends AuthSettings, ImportSettings {
  viewerUrl: string;
}

type Handler = (req: SimRequest, principal: Principal, match: RegExpExecArray) => SimResponse | Promise<SimResponse>;

export interface ApiRoute {
  method: string;
  pattern: RegExp;
  /** Name used in statistics: the contract's path template. */
  name: string;
  /** Largest body taken, when more than MAX_SMALL_BODY_BYTES (request-limits.ts): checked before it is read. */
  maxBodyBytes?: number;
  handler: Handler;
}

export class Api {
  readonly #state: SimState;
  readonly #settings: ApiSettings;
  readonly #routes: ApiRoute[];
  /** Keyed by event id and flags, and checked against the event object: a changed event is a new object. */
  readonly #courseXmlCache = new Map<string, { event: SimEvent; body: string }>();
  readonly #records: EventRecordCache;

  /** `extraRoutes`: endpoints served by their own modules (the importable events). */
  constructor(state: SimState, settings: ApiSettings, extraRoutes: readonly ApiRoute[] = []) {
    this.#state = state;
    this.#settings = settings;
    this.#records = new EventRecordCache(state, settings.viewerUrl);
    this.#routes = [
      { method: 'GET', pattern: /^\/events\/?$/, name: 'GET /events', handler: (r) => this.#searchEvents(r) },
      {
        method: 'GET',
        pattern: /^\/events\/([^/]+)\/?$/,
        name: 'GET /events/{eventId}',
        handler: (r, _p, m) => this.#eventDetails(r, m[1]!),
      },
      {
        method: 'GET',
        pattern: /^\/orienteering\/courses\/iofxml\/?$/,
        name: 'GET /orienteering/courses/iofxml',
        handler: (r, p) => this.#courses(r, p),
      },
      { method: 'GET', pattern: /^\/countries\/?$/, name: 'GET /countries', handler: (r) => this.#countries(r) },
      {
        method: 'POST',
        pattern: /^\/importableRoutes\/?$/,
        name: 'POST /importableRoutes',
        // The limit the client checks before it sends (resources/routes.ts).
        maxBodyBytes: MAX_ROUTE_BODY_BYTES,
        handler: (r, p) => this.#postRoute(r, p),
      },
      {
        method: 'GET',
        pattern: /^\/importableRoutes\/([^/]+)\/?$/,
        name: 'GET /importableRoutes/{id}',
        handler: (_r, p, m) => this.#routeStatus(p, m[1]!),
      },
      ...extraRoutes,
    ];
  }

  /** The endpoints served, in the order requests are matched against them (the OpenAPI document is checked with it). */
  get routes(): readonly ApiRoute[] {
    return this.#routes;
  }

  /** The import record of a posted route as GET would answer it now (settling it when its delay has passed). */
  importRecord(route: RouteRecord): ImportRecord {
    return importRecordFor(route, this.#state, this.#settings);
  }

  /** The endpoint a request is for, or undefined (a loud 404, never a guess). */
  match(
    req: Pick<SimRequest, 'method' | 'path'>,
  ): { route: ApiRoute; params: RegExpExecArray } | { methodNotAllowed: string[] } | undefined {
    const allowed: string[] = [];
    for (const route of this.#routes) {
      const params = route.pattern.exec(req.path);
      if (!params) continue;
      if (route.method === req.method) return { route, params };
      allowed.push(route.method);
    }
    return allowed.length > 0 ? { methodNotAllowed: allowed } : undefined;
  }

  /** Who is calling, from the headers alone: the server asks before it reads a body, and refuses strangers unread. */
  authenticate(req: Pick<SimRequest, 'headers'>): AuthOutcome {
    return authenticate(req, this.#state, this.#settings);
  }

  async handle(req: SimRequest, route: ApiRoute, params: RegExpExecArray, principal: Principal): Promise<SimResponse> {
    // Errors thrown by a handler are simulator bugs or broken dataset files: the server answers them with a 500.
    return route.handler(req, principal, params);
  }

  #parseQuery<S extends z.ZodType>(
    req: SimRequest,
    known: readonly string[],
    schema: S,
  ): { ok: true; value: z.output<S> } | { ok: false; response: SimResponse } {
    const { values, issues } = queryRecord(req.url.searchParams, known);
    if (issues.length > 0) return { ok: false, response: badRequest(issuesToErrors(issues)) };
    const parsed = schema.safeParse(values);
    if (!parsed.success) return { ok: false, response: badRequest(issuesToErrors(parsed.error.issues)) };
    return { ok: true, value: parsed.data };
  }

  #searchEvents(req: SimRequest): SimResponse {
    const parsed = this.#parseQuery(req, EVENT_SEARCH_PARAMETERS, eventSearchQuerySchema);
    if (!parsed.ok) return parsed.response;
    const q = parsed.value;
    let countryCode: string | undefined;
    if (q.countryId !== undefined) {
      const country =
        'id' in q.countryId
          ? this.#state.countriesById.get(q.countryId.id)
          : this.#state.countriesByCode.get(q.countryId.code);
      if (!country) {
        return badRequest({
          countryId: [
            `no country has the id or alpha-3 code '${req.url.searchParams.get('countryId') ?? ''}' (see GET /countries)`,
          ],
        });
      }
      countryCode = country.code;
    }
    const found = searchEvents(this.#state.eventIndex, { query: q, ...(countryCode ? { countryCode } : {}) });
    return jsonText(200, this.#records.jsonArray(found, recordOptions(q)));
  }

  #eventDetails(req: SimRequest, rawId: string): SimResponse {
    const decoded = decodePathSegment(rawId);
    if (decoded === undefined) return badRequest({ eventId: [`'${rawId}' is not a valid percent-encoded id`] });
    // Observed, not published: the service takes an event's id in another system (`EventorSweden:49812-1`) in place
    // of its own.
    const key = decoded.includes(':') ? externalEventIdParam.safeParse(decoded) : eventIdParam.safeParse(decoded);
    if (!key.success) return badRequest({ eventId: key.error.issues.map((i) => i.message) });
    const parsed = this.#parseQuery(req, EVENT_DETAILS_PARAMETERS, eventDetailsQuerySchema);
    if (!parsed.ok) return parsed.response;
    const event =
      typeof key.data === 'string'
        ? findByExternalId(this.#state.eventsById.values(), key.data)
        : this.#state.eventsById.get(key.data);
    if (!event) return message(404, `No event has the id ${key.data}.`);
    return jsonText(200, this.#records.json(event, recordOptions(parsed.value)));
  }

  #courses(req: SimRequest, principal: Principal): SimResponse {
    // Observed, not published: a key without course access is refused with this 403 before parameters are looked at.
    const denied = requireScope(principal, COURSES_SCOPE);
    if (denied) return denied;
    const parsed = this.#parseQuery(req, COURSES_PARAMETERS, coursesQuerySchema);
    if (!parsed.ok) return parsed.response;
    const q = parsed.value;
    const event = this.#state.eventsById.get(q.eventId);
    if (!event) return message(404, `No event has the id ${q.eventId}.`);
    let position: ((p: { lat: number; lng: number }) => { lat: number; lng: number }) | undefined;
    if (q.projectionEpsgCode !== undefined) {
      let projection;
      try {
        projection = getProjection(q.projectionEpsgCode);
      } catch (err) {
        return badRequest({ projectionEpsgCode: [err instanceof Error ? err.message : String(err)] });
      }
      // The service writes projected coordinates into the same attributes: easting in lng, northing in lat.
      position = (p) => {
        const { easting, northing } = projection.forward(p);
        return { lat: northing, lng: easting };
      };
    }
    const includeControls = q.includeControls ?? true;
    const includeClassConnections = q.includeClassConnections ?? true;
    const includeClasses = q.includeClasses ?? true;
    const cacheKey = [
      event.id,
      q.projectionEpsgCode ?? '',
      includeControls,
      includeClassConnections,
      includeClasses,
    ].join('|');
    const cached = this.#courseXmlCache.get(cacheKey);
    let body = cached?.event === event ? cached.body : undefined;
    if (body === undefined) {
      body = writeCourseData(publicCourseData(event), {
        creator: 'livelox-bridge simulator',
        createTime: new Date(this.#state.clock.now()),
        includeControls,
        includeClassAssignments: includeClassConnections || includeClasses,
        includeClassNames: includeClasses,
        ...(position ? { position } : {}),
      });
      if (this.#courseXmlCache.size >= 256) this.#courseXmlCache.delete(this.#courseXmlCache.keys().next().value!);
      this.#courseXmlCache.set(cacheKey, { event, body });
    }
    return xml(body);
  }

  #countries(req: SimRequest): SimResponse {
    const parsed = this.#parseQuery(req, COUNTRIES_PARAMETERS, countriesQuerySchema);
    if (!parsed.ok) return parsed.response;
    const culture = parsed.value.cultureCode ?? 'en-US';
    const only = parsed.value.onlyHavingEvents ?? false;
    const list = this.#state.dataset.countries
      .filter((c) => !only || this.#state.countriesWithEvents.has(c.code))
      .map((c) => countryRecord(c, culture));
    const collator = new Intl.Collator(safeLocale(culture));
    list.sort((a, b) => collator.compare(a.name, b.name));
    return json(200, list);
  }

  #postRoute(req: SimRequest, principal: Principal): SimResponse {
    if (principal.kind === 'user') {
      const denied = requireScope(principal, 'routes.import');
      if (denied) return denied;
    }
    // As ASP.NET Core answers a [FromBody] parameter sent as another media type (observed, not published).
    const type = notJson(req);
    if (type !== undefined) return message(415, `Send the route as Content-Type: application/json, not '${type}'.`);
    let body: unknown;
    try {
      body = JSON.parse(req.body.toString('utf8'));
    } catch {
      return badRequest({
        body: ['is not JSON (send Content-Type: application/json with an importable route object)'],
      });
    }
    const parsed = importableRouteRequestSchema.safeParse(body);
    if (!parsed.success) return badRequest(issuesToErrors(parsed.error.issues));
    const r = parsed.data;
    const state = this.#state;
    const id = r.id === undefined ? state.generateRouteId() : String(r.id);
    const key = state.routeKey(principal.identity, id);
    const previous = state.routes.get(key);
    const now = state.clock.now();
    const route: RouteRecord = {
      id,
      identity: principal.identity,
      routeNumber: previous?.routeNumber ?? state.nextRouteNumber(),
      receivedMs: now,
      readyMs: now + this.#settings.importDelay(),
      data: r.data,
      ...(r.deviceModel !== undefined ? { deviceModel: r.deviceModel } : {}),
      // Contract 2.1: person is used only when the request is authorized with an API key.
      ...(principal.kind === 'apiKey' && r.person ? { person: r.person } : {}),
      ...(r.classId !== undefined ? { classId: r.classId } : {}),
      postCount: (previous?.postCount ?? 0) + 1,
    };
    state.storeRoute(key, route);
    startParse(key, route, state, this.#settings.parser);
    return json(200, { id });
  }

  async #routeStatus(principal: Principal, rawId: string): Promise<SimResponse> {
    if (principal.kind === 'user') {
      const denied = requireScope(principal, 'routes.import');
      if (denied) return denied;
    }
    const id = decodePathSegment(rawId);
    if (id === undefined) return badRequest({ id: [`'${rawId}' is not a valid percent-encoded route id`] });
    const key = this.#state.routeKey(principal.identity, id);
    const route = this.#state.routes.get(key);
    if (!route) {
      const evicted =
        this.#state.evictedRoutes > 0
          ? ' (the simulator keeps a limited number of routes: maxRoutes, maxRouteBytes; the oldest were evicted)'
          : '';
      return message(404, `No importable route has the id '${id}'${evicted}.`);
    }
    await awaitParse(route, this.#state, STATUS_PARSE_WAIT_MS);
    return json(200, this.importRecord(route));
  }
}

/** How long a status request waits for a parse still running once the delay has passed, before answering pending. */
const STATUS_PARSE_WAIT_MS = 2000;

/** The include flags and culture of GET /events and GET /events/{eventId}, with the contract's defaults. */
function recordOptions(q: {
  includeClasses?: boolean | undefined;
  includeProperties?: boolean | undefined;
  includeUrls?: boolean | undefined;
  cultureCode?: string | undefined;
}) {
  return {
    includeClasses: q.includeClasses ?? true,
    includeProperties: q.includeProperties ?? true,
    // Observed, not published: the real service has an includeUrls flag; class urls are given unless it is false.
    includeUrls: q.includeUrls ?? true,
    cultureCode: q.cultureCode ?? 'en-US',
  };
}

/**
 * What the courses endpoint may show: nothing of an event whose courses are still secret or missing. Class
 * connections follow the event's classes as they are now: a removed class loses its course, a renamed one shows its
 * new name, an added one has no course yet.
 */
function publicCourseData(event: SimEvent): CourseData {
  const drawn = event.isPublished && event.hasValidMapAndCourses ? event.courses : undefined;
  const classes = new Map(event.classes.map((c) => [String(c.id), c.name]));
  const courses = drawn && {
    ...drawn,
    classAssignments: drawn.classAssignments.flatMap((a) => {
      if (a.classId === undefined) return [a];
      const name = classes.get(a.classId);
      return name === undefined ? [] : [{ ...a, className: name }];
    }),
  };
  return {
    iofVersion: '3.0',
    event: {
      id: String(event.id),
      name: event.name,
      start: new Date(event.startMs).toISOString(),
      end: new Date(event.endMs).toISOString(),
      organisers: event.organisers.map((o) => o.name),
    },
    races: [courses ?? { maps: [], controls: [], courses: [], classAssignments: [] }],
  };
}

function safeLocale(culture: string): string {
  try {
    return Intl.Collator.supportedLocalesOf([culture])[0] ?? 'en-US';
  } catch {
    return 'en-US';
  }
}
