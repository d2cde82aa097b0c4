/**
 * Finding an event system's event on the service with as few requests as the contract allows: the country through
 * the (cached) country list, one search over the event's days in that country (inside a circle when the position is
 * known), and a narrower search by name only when that window holds more events than one page.
 */
import type { LiveloxClient } from '../client.js';
import { ValidationError } from '../errors.js';
import type { Country } from '../resources/countries.js';
import type { EventSearchParams, LiveloxEvent } from '../resources/events.js';
import type { EmsClass, EmsEvent } from '../ems/source.js';
import { DAY_MS, eventDays } from '../ems/dates.js';
import { chooseEvent, isFillerWord, scoreEvents, type EventChoice } from '../match/event.js';
import { foldText } from '../core/fold.js';

export interface FindEventOptions {
  /** Overrides the export's country (alpha-3, alpha-2, name or the service's id). */
  country?: string | undefined;
  /** Skips the search: the event the user chose. */
  eventId?: number | undefined;
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

export type FoundEvent = EventChoice<LiveloxEvent> & {
  country?: Country;
  /** The searches made, in order. */
  searches: EventSearchStep[];
  /** What the search had to work around, in plain words. */
  notes: string[];
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
  if (options.eventId !== undefined) {
    const event = await client.events.get(options.eventId, { signal });
    const [scored] = scoreEvents(ems, classes, [event]);
    return {
      status: 'matched',
      best: scored!,
      candidates: [scored!],
      reason: `event ${options.eventId} was given`,
      searches,
      notes,
    };
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
  return { ...chooseEvent(scored), ...(country ? { country } : {}), searches, notes };
}
