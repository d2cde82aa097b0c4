/**
 * The main job: an event system's export in, the service's event and a viewer link per class out. Reads the export,
 * finds the event (search + country lookup, or the id the user gave), maps the classes by name, and fetches the
 * service's courses only when names leave classes unmapped and the export knows their courses.
 */
import type { LiveloxClient } from '../client.js';
import { compact } from '../core/compact.js';
import { issueOf, LiveloxError, type Issue } from '../errors.js';
import type { EmsEvent, EmsSource } from '../ems/source.js';
import { emsClassRef, linksOfMapping, serviceClassLink, serviceClassesOf } from './class-links.js';
import { findEvent, type EventSearchStep, type FoundEvent, type FoundVia } from './find-event.js';
import { checkLinkTemplate, DEFAULT_LINK_TEMPLATE } from '../links/template.js';
import type { EventChoiceCode, ScoredEvent } from '../match/event.js';
import type { LiveloxEvent } from '../resources/events.js';
import type { ClassMapping, ClassMatchMethod, ServiceClass } from '../match/class-mapping.js';
import { isRelayEvent, matchClasses } from '../match/classes.js';
import { parseCourseData } from '../iof/read-course-data.js';
import type { RaceCourseData } from '../iof/model.js';

export type LinkStep = 'read' | 'search' | 'classes' | 'courses';

export interface LinkJobOptions {
  client: LiveloxClient;
  source: EmsSource;
  /** The service's event id: skips the search. */
  eventId?: number | undefined;
  /** Overrides the export's country. */
  country?: string | undefined;
  /** Link template for classes the service gives no url for. Default `DEFAULT_LINK_TEMPLATE`. */
  template?: string | undefined;
  /** Compare courses when names leave classes unmapped. Default true. */
  useCourses?: boolean;
  /**
   * Build every link from the template, even where the service gives a class url: for portals that want one link
   * shape. Default false.
   */
  alwaysTemplate?: boolean;
  signal?: AbortSignal | undefined;
  /** Told when each step starts, for progress output. */
  onStep?: (step: LinkStep, detail: string) => void;
}

export interface EventSummary {
  id: number;
  name: string;
  start: string;
  end: string;
  country?: string;
  organisers: string[];
  score: number;
  parts: ScoredEvent['parts'];
}

export interface ClassLink {
  emsClass: { id?: string; name: string };
  serviceClass: { id: number; name: string };
  url: string;
  /** `service`: the class url the service gave; `template`: built from the class id. */
  urlFrom: 'service' | 'template';
  method: ClassMatchMethod;
  confidence: number;
  reason: string;
}

export interface LinkResult {
  /** `linked` when the event was found and classes mapped; otherwise the event's status. */
  status: 'linked' | 'ambiguous' | 'not_found';
  ems: { source: string; format: string; event: EmsEvent; classCount: number };
  event: {
    /**
     * Why, as data (see `EventChoiceCode`): for a result that is not linked, `ambiguous` (two plausible candidates
     * compete), `unsure` (one plausible candidate the evidence does not confirm), `none_plausible`, `none_in_country`
     * or `no_events_in_window`.
     */
    code: EventChoiceCode;
    /** How the event was found: `given`, `stored_id`, `external_id_lookup` or `search`. */
    via: FoundVia;
    reason: string;
    chosen?: EventSummary;
    /** The best candidates (at most 5), best first. */
    candidates: EventSummary[];
    country?: { id: number; code: string; name: string };
    searches: EventSearchStep[];
    /** Lookups by external id (observed, not published), in order. */
    lookups: FoundEvent['lookups'];
    /** For an event given by id: the export's days against the event's when they do not overlap (also an issue). */
    dateMismatch?: { export: string; event: string };
  };
  links: ClassLink[];
  unmatchedEms: Array<{ emsClass: { id?: string; name: string }; reason: string; candidates: ServiceClass[] }>;
  unmatchedService: ServiceClass[];
  issues: Issue[];
  /** Whether the service's courses were fetched and compared. */
  coursesCompared: boolean;
  /** Requests sent to the service, retries included. */
  requests: number;
}

/** What a result says of a service event, chosen by search or given by id. */
function eventFacts(e: LiveloxEvent): Omit<EventSummary, 'score' | 'parts'> {
  return compact({
    id: e.id,
    name: e.name,
    start: e.timeInterval.start,
    end: e.timeInterval.end,
    country: e.country?.code,
    organisers: (e.organisers ?? []).map((o) => o.name),
  });
}

function summary(s: ScoredEvent<LiveloxEvent>): EventSummary {
  return { ...eventFacts(s.event), score: s.score, parts: s.parts };
}

/** Whether the courses could map classes the names left: some unmapped class on each side, and courses to compare. */
function coursesMayHelp(mapping: ClassMapping): boolean {
  return (
    mapping.unmatchedService.length > 0 &&
    mapping.unmatchedEms.some((u) => u.ems.course !== undefined && Object.keys(u.ems.course).length > 0)
  );
}

async function serviceCourses(
  client: LiveloxClient,
  eventId: number,
  issues: Issue[],
  signal: AbortSignal | undefined,
): Promise<RaceCourseData | undefined> {
  try {
    // The contract leaves these flags' defaults unstated: ask for what the mapping needs.
    const bytes = await client.courses.getIofXmlBytes({
      eventId,
      includeControls: true,
      includeClassConnections: true,
      includeClasses: true,
      signal,
    });
    const data = parseCourseData(bytes, `the service's courses of event ${eventId}`);
    return data.races[0];
  } catch (err) {
    if (signal?.aborted) throw err;
    // Courses are a help, not a need: a key without course access or unpublished courses leave the name mapping.
    if (!(err instanceof LiveloxError)) throw err;
    issues.push(
      issueOf(err, 'courses_unavailable', {
        severity: 'warning',
        prefix: "the service's courses could not be used to map the remaining classes: ",
      }),
    );
    return undefined;
  }
}

export async function linkJob(options: LinkJobOptions): Promise<LinkResult> {
  const { client, signal } = options;
  const template = options.template ?? DEFAULT_LINK_TEMPLATE;
  checkLinkTemplate(template);
  const before = client.transport.attempts;
  const step = options.onStep ?? (() => undefined);

  step('read', options.source.source);
  const ems = await options.source.read({ signal });
  const issues: Issue[] = [];
  if (ems.classes.length === 0) {
    issues.push({ code: 'no_classes', severity: 'warning', message: `${ems.source} names no classes` });
  }

  step('search', options.eventId === undefined ? ems.event.name || '(no name)' : `event ${options.eventId}`);
  const found = await findEvent(client, ems.event, ems.classes, {
    eventId: options.eventId,
    serviceEventId: ems.serviceEventId,
    race: ems.race,
    country: options.country,
    signal,
  });
  for (const note of found.notes) issues.push({ code: 'search_widened', severity: 'warning', message: note });
  if (found.dateMismatch && found.status === 'matched') {
    issues.push({
      code: 'date_differs',
      severity: 'warning',
      message: `the export is dated ${found.dateMismatch.export}, but event ${found.best.event.id} (${found.best.event.name}) is on ${found.dateMismatch.event}`,
    });
  }
  const result: LinkResult = {
    status: found.status === 'matched' ? 'linked' : found.status,
    ems: { source: ems.source, format: ems.format, event: ems.event, classCount: ems.classes.length },
    event: compact({
      code: found.code,
      via: found.via,
      reason: found.reason,
      chosen: found.status === 'matched' ? summary(found.best) : undefined,
      candidates: found.candidates.slice(0, 5).map(summary),
      country: found.country && { id: found.country.id, code: found.country.code, name: found.country.name },
      searches: found.searches,
      lookups: found.lookups,
      dateMismatch: found.dateMismatch,
    }),
    links: [],
    unmatchedEms: [],
    unmatchedService: [],
    issues,
    coursesCompared: false,
    requests: 0,
  };
  if (found.status !== 'matched') {
    result.requests = client.transport.attempts - before;
    return result;
  }

  const event = found.best.event;
  const serviceClasses = serviceClassesOf(event);
  step('classes', `${ems.classes.length} classes against ${serviceClasses.length}`);
  const relayEvent = isRelayEvent(ems.event.name, event);
  let mapping = matchClasses(ems.classes, serviceClasses, { relayEvent });
  if ((options.useCourses ?? true) && coursesMayHelp(mapping)) {
    step('courses', `event ${event.id}`);
    const courses = await serviceCourses(client, event.id, issues, signal);
    if (courses) {
      mapping = matchClasses(ems.classes, serviceClasses, { serviceCourses: courses, relayEvent });
      result.coursesCompared = true;
    }
  }

  result.links = linksOfMapping(mapping, event, {
    template,
    viewerUrl: client.addresses.viewerUrl,
    alwaysTemplate: options.alwaysTemplate,
  }).map(({ match: m, url, from }) => ({
    emsClass: emsClassRef(m.ems),
    serviceClass: { id: m.service.id, name: m.service.name },
    url,
    urlFrom: from,
    method: m.method,
    confidence: m.confidence,
    reason: m.reason,
  }));
  result.unmatchedEms = mapping.unmatchedEms.map((u) => ({
    emsClass: emsClassRef(u.ems),
    reason: u.reason,
    candidates: u.candidates,
  }));
  result.unmatchedService = mapping.unmatchedService;
  issues.push(...mapping.issues);
  result.requests = client.transport.attempts - before;
  return result;
}

export interface EventLinksOptions {
  client: LiveloxClient;
  /** The service's event id. */
  eventId: number;
  /** Link template for classes the service gives no url for. Default `DEFAULT_LINK_TEMPLATE`. */
  template?: string | undefined;
  /** Build every link from the template, even where the service gives a class url. Default false. */
  alwaysTemplate?: boolean;
  signal?: AbortSignal | undefined;
}

/** The links of every class of one service event: what `link --event-id N` gives without an export. */
export interface EventLinksResult {
  status: 'linked';
  event: { reason: string; chosen: Omit<EventSummary, 'score' | 'parts'> };
  /** One per class of the service event, in the service's order; `emsClass` is the service's class (no export). */
  links: Array<Omit<ClassLink, 'method' | 'confidence' | 'reason'>>;
  issues: Issue[];
  /** Requests sent to the service, retries included. */
  requests: number;
}

/**
 * Every class of a service event with its viewer link, for a portal that already knows the event id and has no
 * export to map: nothing to match, so every class is linked as the service names it. 404 is NotFoundError.
 */
export async function eventLinksJob(options: EventLinksOptions): Promise<EventLinksResult> {
  const { client, signal } = options;
  const template = options.template ?? DEFAULT_LINK_TEMPLATE;
  checkLinkTemplate(template);
  const before = client.transport.attempts;
  const event = await client.events.get(options.eventId, { signal });
  const classes = serviceClassesOf(event);
  const issues: Issue[] = [];
  if (classes.length === 0) {
    issues.push({
      code: 'no_classes',
      severity: 'warning',
      message: `event ${event.id} has no classes on the service`,
    });
  }
  const linkOptions = { template, viewerUrl: client.addresses.viewerUrl, alwaysTemplate: options.alwaysTemplate };
  const links = classes.map((c) => {
    const link = serviceClassLink(c, event, linkOptions);
    return { emsClass: { name: c.name }, serviceClass: { id: c.id, name: c.name }, url: link.url, urlFrom: link.from };
  });
  return {
    status: 'linked',
    event: {
      reason: `event ${options.eventId} was given`,
      chosen: eventFacts(event),
    },
    links,
    issues,
    requests: client.transport.attempts - before,
  };
}
