/**
 * Finding an event system's event on the service with as few requests as the contract allows. Exact links first: the
 * id the user gives, the service event id the event system stores, then the service's lookup by the event's Eventor
 * id (observed, not published). Else a search: the country through the (cached) country list, one search over the
 * event's days in that country (inside a circle when the position is known), and a narrower search by name only when
 * that window holds more events than one page.
 */
import type { LiveloxClient } from '../client.js';
import { NotFoundError, ValidationError } from '../errors.js';
import type { Country } from '../resources/countries.js';
import type { EventSearchParams, LiveloxEvent } from '../resources/events.js';
import type { EmsClass, EmsEvent } from '../ems/source.js';
import { DAY_MS, eventDays } from '../ems/dates.js';
import { eventorSwedenLookupId } from '../ems/eventor-ids.js';
import { isoCountryCode } from '../ems/ioc-codes.js';
import { alpha2ToAlpha3 } from '../geo/iso-countries.js';
import {
  chooseEvent,
  dateMismatch,
  EVENT_MATCHING,
  liftableName,
  isFillerWord,
  scoreEvents,
  type EventChoice,
  type ScoredEvent,
} from '../match/event.js';
import { foldText } from '../core/fold.js';

export interface FindEventOptions {
  /** Overrides the export's country (alpha-3, alpha-2, name or the service's id). */
  country?: string | undefined;
  /** Skips the search: the event the user chose. */
  eventId?: number | undefined;
  /**
   * The service event id the event system stores for the event (`EmsExport.serviceEventId`): taken before any
   * search; one the service does not have (404) falls back to the search, with a note.
   */
  serviceEventId?: number | undefined;
  /**
   * Ask the service for the event by its Eventor id (observed, not published): before searching when `race` is known,
   * else only when the search does not settle it. Default true.
   */
  lookupExternalId?: boolean;
  /** The export's race number (`EmsExport.race`), for the lookup by Eventor id. */
  race?: number | undefined;
  /** Events a search page holds; a full page means the window may hold more. Default 100. */
  pageSize?: number;
  /** Radius of the circle around a known position, in metres. Default 50 km: exports give the arena or the town. */
  radiusM?: number;
  signal?: AbortSignal | undefined;
}

export interface EventSearchStep {
  /** The parameters sent, for reports (`from=... to=... countryId=...`). */
  query: string;
  found: number;
}

/**
 * How the event was found: the id given (`given`), the id the event system stores (`stored_id`), the service's answer
 * to a lookup by the event's Eventor id (`external_id_lookup`), or a search and scoring (`search`).
 */
export type FoundVia = 'given' | 'stored_id' | 'external_id_lookup' | 'search';

export type FoundEvent = EventChoice<LiveloxEvent> & {
  via: FoundVia;
  country?: Country;
  /** The searches made, in order. */
  searches: EventSearchStep[];
  /** The external ids asked for (`EventorSweden:49812-1`) and whether the service had the event. */
  lookups: Array<{ externalId: string; found: boolean }>;
  /** What the search had to work around, in plain words. */
  notes: string[];
  /**
   * For an event given by id (the user's or the stored one): the export's days against the event's when they do not
   * overlap. The event is still taken (the user said so), but the caller must say it.
   */
  dateMismatch?: { export: string; event: string };
};

/**
 * The search window: the event's written days, widened by a day on each side because the service's intervals are
 * UTC and the export's dates are local (up to 14 hours apart), and a day off is still scored as a possible date slip.
 */
export function searchWindow(ems: EmsEvent): { from: Date; to: Date } | undefined {
  const days = eventDays(ems.start, ems.end);
  if (days === undefined) return undefined;
  return { from: new Date((days.first - 1) * DAY_MS), to: new Date((days.last + 2) * DAY_MS) };
}

// Discipline words fill every name of a weekend (`sprint`, `long`): as weak in a search as the filler words.
const DISCIPLINES = new Set('sprint middle long medel lang natt night'.split(' '));

/** The most telling word of a name for `q`: the longest that is neither a year, a number nor a generic word. */
export function distinctiveWord(name: string): string | undefined {
  const candidates = foldText(name)
    .split(' ')
    .filter((w) => w.length >= 3 && !/^\d+$/.test(w) && !isFillerWord(w) && !DISCIPLINES.has(w));
  candidates.sort((a, b) => b.length - a.length);
  const folded = candidates[0];
  if (folded === undefined) return undefined;
  // q is matched against names as written: send the original spelling of the word when it can be found.
  const original = name.split(/[^\p{L}\p{N}]+/u).find((w) => foldText(w) === folded);
  return original ?? folded;
}

function describe(params: EventSearchParams): string {
  const parts: string[] = [];
  if (params.from) parts.push(`from=${(params.from as Date).toISOString().slice(0, 10)}`);
  if (params.to) parts.push(`to=${(params.to as Date).toISOString().slice(0, 10)}`);
  if (params.countryId !== undefined) parts.push(`countryId=${params.countryId}`);
  if (params.circle) parts.push(`circle=${params.circle.latitude},${params.circle.longitude},${params.circle.radius}m`);
  if (params.q) parts.push(`q=${params.q}`);
  return parts.join(' ');
}

/** The event system's event on the service: matched, ambiguous (with the candidates) or not found. */
export async function findEvent(
  client: LiveloxClient,
  ems: EmsEvent,
  classes: readonly EmsClass[],
  options: FindEventOptions = {},
): Promise<FoundEvent> {
  const signal = options.signal;
  const searches: EventSearchStep[] = [];
  const notes: string[] = [];
  const lookups: FoundEvent['lookups'] = [];
  const exact = (
    event: LiveloxEvent,
    via: FoundVia,
    reason: string,
    code: 'given' | 'matched_by_id' = 'given',
  ): FoundEvent => {
    const [scored] = scoreEvents(ems, classes, [event]);
    const mismatch = dateMismatch(ems, event);
    return {
      status: 'matched',
      code,
      best: scored!,
      candidates: [scored!],
      reason,
      via,
      searches,
      lookups,
      notes,
      ...(mismatch ? { dateMismatch: mismatch } : {}),
    };
  };
  if (options.eventId !== undefined) {
    const event = await client.events.get(options.eventId, { signal });
    return exact(event, 'given', `event ${options.eventId} was given`);
  }
  if (options.serviceEventId !== undefined) {
    const event = await orNotFound(client.events.get(options.serviceEventId, { signal }));
    if (event) return exact(event, 'stored_id', `the event system stores event ${options.serviceEventId} for it`);
    notes.push(`the service has no event ${options.serviceEventId}, the id the event system stores; searched instead`);
  }
  const externalId = options.lookupExternalId === false ? undefined : eventorSwedenLookupId(ems, options.race);
  const lookup = async (): Promise<FoundEvent | undefined> => {
    if (externalId === undefined) return undefined;
    const event = await orNotFound(client.events.getByExternalId(externalId, { signal }));
    lookups.push({ externalId, found: event !== undefined });
    if (!event) return undefined;
    const [scored] = scoreEvents(ems, classes, [event]);
    if (confirmsLookup(scored!, ems.country, options.race !== undefined)) {
      return exact(
        event,
        'external_id_lookup',
        `the service holds ${externalId} as event ${event.id}`,
        'matched_by_id',
      );
    }
    notes.push(
      `the service's event for ${externalId} (${event.id}) is on another day, in another country, or has neither the export's name nor its classes`,
    );
    return undefined;
  };
  // With the race known the lookup is exact and comes first; without it race 1 is a guess (a one-day start list of a
  // multi-day event rarely says its race), asked only when the search does not settle the event.
  if (options.race !== undefined) {
    const byLookup = await lookup();
    if (byLookup) return byLookup;
  }
  let country: Country | undefined;
  if (options.country !== undefined) {
    country = await client.countries.resolve(options.country, { signal });
  } else if (ems.country !== undefined) {
    try {
      country = await client.countries.resolve(ems.country, { signal });
    } catch (err) {
      // The export's country is a hint, not an order: one the service does not know widens the search instead.
      if (!(err instanceof ValidationError)) throw err;
      notes.push(`the export's country '${ems.country}' is not one the service knows; searched every country`);
    }
  }
  const window = searchWindow(ems);
  const pageSize = options.pageSize ?? 100;
  const base: EventSearchParams = {
    ...(window ?? {}),
    ...(country ? { countryId: country.id } : {}),
    includeClasses: true,
    includeProperties: true,
    paging: { index: 0, size: pageSize },
  };
  if (!window) {
    // Without dates only the name can narrow the search; the contract's paging satisfies its at-least-one rule.
    const q = distinctiveWord(ems.name);
    if (q === undefined) {
      throw new ValidationError('EMS event', [
        {
          path: 'event',
          code: 'unsearchable',
          message: 'has neither a date nor a name to search by; pass the service event id (the eventId option)',
          hint: { code: 'event_id', text: '(the eventId option)' },
        },
      ]);
    }
    base.q = q;
  }
  const found = new Map<number, LiveloxEvent>();
  const search = async (params: EventSearchParams): Promise<LiveloxEvent[]> => {
    const page = await client.events.search(params, { signal });
    searches.push({ query: describe(params), found: page.length });
    for (const e of page) found.set(e.id, e);
    return page;
  };
  const radius = options.radiusM ?? 50_000;
  let page = await search(ems.position && window ? { ...base, circle: { ...ems.position, radius } } : base);
  let wide = !(ems.position && window);
  // A wrong position in the export must not hide the event: an empty circle falls back to the whole country.
  if (page.length === 0 && !wide) {
    page = await search(base);
    wide = true;
  }
  if (page.length >= pageSize) {
    // More events in the window than a page: narrow by the name's most telling word, then by the organiser's.
    for (const q of new Set([distinctiveWord(ems.name), distinctiveWord(ems.organisers[0] ?? '')])) {
      if (q !== undefined && q !== base.q) await search({ ...base, q });
    }
  }
  let scored = scoreEvents(ems, classes, [...found.values()]);
  // The circle held events, but none of them is clearly it: the event may lie beyond the export's position.
  if (!wide && chooseEvent(scored).status !== 'matched') {
    await search(base);
    scored = scoreEvents(ems, classes, [...found.values()]);
  }
  const choice = chooseEvent(scored, { emsClassCount: classes.length });
  if (choice.status !== 'matched' && options.race === undefined) {
    const byLookup = await lookup();
    if (byLookup) return { ...byLookup, ...(country ? { country } : {}) };
  }
  if (choice.status === 'not_found' && found.size === 0 && country && window) {
    // Nothing in the country: one look at the whole window tells "no event those days" from "none in the country".
    const anywhere = await client.events.search(
      { ...window, includeClasses: false, includeProperties: false, paging: { index: 0, size: 1 } },
      { signal },
    );
    searches.push({ query: describe({ ...window, paging: { index: 0, size: 1 } }), found: anywhere.length });
    if (anywhere.length > 0) {
      return {
        ...choice,
        code: 'none_in_country',
        reason: `the service has events on those days, but none in ${country.name}`,
        via: 'search',
        country,
        searches,
        lookups,
        notes,
      };
    }
  }
  return { ...choice, via: 'search', ...(country ? { country } : {}), searches, lookups, notes };
}

/** The event, or undefined when the service answers 404; any other failure is the caller's. */
async function orNotFound(request: Promise<LiveloxEvent>): Promise<LiveloxEvent | undefined> {
  try {
    return await request;
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
}

/**
 * Whether the event a lookup by id gave is the export's: on its days and in its country as far as known, and named
 * as it (word by word, `liftableName`) or holding its classes. An id alone is not enough: the export's bare "Eventor"
 * label may be another federation's number, which Sweden's Eventor gave another event. An undated export is taken on
 * the lookup's word only when its race was known (race 1 of a guess could be another day's).
 */
function confirmsLookup(scored: ScoredEvent<LiveloxEvent>, country: string | undefined, raceKnown: boolean): boolean {
  const date = scored.parts.date;
  if (date === undefined ? !raceKnown : date < 1) return false;
  if (scored.parts.externalId === 0) return false;
  const classes = scored.parts.classes;
  if (!liftableName(scored) && !(classes !== undefined && classes >= EVENT_MATCHING.lift.minClasses)) return false;
  const code = scored.event.country?.code;
  if (country === undefined || code === undefined) return true;
  const c = country.trim().toUpperCase();
  // Exports write alpha-2 (`NO`) or IOC codes (`SUI`) too: compared as the service's alpha-3.
  const alpha3 = c.length === 2 ? alpha2ToAlpha3(c) : c.length === 3 ? isoCountryCode(c) : undefined;
  return alpha3 === undefined || alpha3 === code.toUpperCase();
}
