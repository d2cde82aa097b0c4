/**
 * One portal event linked against the mirror, with no request: the link job's event scoring, class mapping and link
 * templates, run on the service events the mirror holds. What decides, in order:
 *
 * 1. A link a person pinned (never overridden).
 * 2. A service event id the portal stores for the race (Eventor's, observed).
 * 3. Scoring over the mirror's events of the portal event's days (+-1) in its country; an id both sides carry settles
 *    it, as in `link`. Scored links are scored again every run, so a run's links are what a fresh run would give over
 *    the same data: a state never drifts. A person who wants a scored choice kept pins it.
 */
import { compact } from '../../core/compact.js';
import { DAY_MS } from '../../ems/dates.js';
import type { EmsExport } from '../../ems/source.js';
import { isRelayEvent, matchClasses } from '../../match/classes.js';
import { chooseEvent, scoreEvents, type ScoredEvent } from '../../match/event.js';
import type { Country } from '../../resources/countries.js';
import { findCountry } from '../../resources/countries.js';
import type { LiveloxEvent } from '../../resources/events.js';
import type { CandidateRecord, LinkMethod, LinkRecord, MirrorRecord } from '../../store/sync-state.js';
import { linksOfMapping, serviceClassesOf } from '../class-links.js';
import { searchWindow } from '../find-event.js';

export interface LinkContext {
  mirror: ReadonlyMap<number, MirrorRecord>;
  /** Mirror events by UTC day they touch: candidates of a portal event without scanning the whole mirror. */
  byDay: ReadonlyMap<number, readonly MirrorRecord[]>;
  countries: readonly Country[] | undefined;
  template: string;
  viewerUrl: string;
}

/** The UTC days (day numbers) an event's interval touches, at most 60: no orienteering event lasts longer. */
export function daysOf(record: Pick<MirrorRecord, 'startMs' | 'endMs'>): number[] {
  if (!Number.isSafeInteger(record.startMs) || !Number.isSafeInteger(record.endMs)) return [];
  const first = Math.floor(record.startMs / DAY_MS);
  const last = Math.min(Math.floor(Math.max(record.startMs, record.endMs - 1) / DAY_MS), first + 59);
  const out: number[] = [];
  for (let day = first; day <= last; day++) out.push(day);
  return out;
}

/** The days a portal event's candidates are looked for on (its days +-1), or undefined when it has no date. */
export function candidateDays(ems: EmsExport): number[] | undefined {
  const window = searchWindow(ems.event);
  if (window === undefined) return undefined;
  const out: number[] = [];
  for (let day = window.from.getTime() / DAY_MS; day < window.to.getTime() / DAY_MS; day++) out.push(day);
  return out;
}

/** Mirror events indexed by each UTC day their interval touches (an event of a week is under seven days). */
export function indexByDay(mirror: ReadonlyMap<number, MirrorRecord>): Map<number, MirrorRecord[]> {
  const out = new Map<number, MirrorRecord[]>();
  for (const record of mirror.values()) {
    for (const day of daysOf(record)) {
      const list = out.get(day);
      if (list) list.push(record);
      else out.set(day, [record]);
    }
  }
  return out;
}

function candidatesOf(ems: EmsExport, ctx: LinkContext): LiveloxEvent[] {
  const days = candidateDays(ems);
  const found = new Map<number, LiveloxEvent>();
  if (days === undefined) {
    // No date to go by: every mirrored event is a candidate, and the name has to decide.
    for (const r of ctx.mirror.values()) found.set(r.id, r.event);
  } else {
    for (const day of days) for (const r of ctx.byDay.get(day) ?? []) found.set(r.id, r.event);
  }
  const country = countryOf(ems, ctx.countries);
  const all = [...found.values()];
  if (country === undefined) return all;
  const inCountry = all.filter((e) => e.country?.code === undefined || e.country.code === country.code);
  return inCountry;
}

function countryOf(ems: EmsExport, countries: readonly Country[] | undefined): Country | undefined {
  if (ems.event.country === undefined || countries === undefined) return undefined;
  try {
    return findCountry(countries, ems.event.country);
  } catch {
    // A number that names two countries: searching every country is the safe reading.
    return undefined;
  }
}

const candidate = (s: ScoredEvent<LiveloxEvent>): CandidateRecord => ({
  id: s.event.id,
  name: s.event.name,
  start: s.event.timeInterval.start,
  score: s.score,
});

/** The link of one portal event. `exactId` is a pinned or portal-stored service event id. */
export function linkPortalEvent(
  key: string,
  ems: EmsExport,
  exact: { id: number; method: LinkMethod } | undefined,
  ctx: LinkContext,
): LinkRecord {
  const base = { key, classes: [], unmatchedPortalClasses: [], unmatchedServiceClasses: [], candidates: [] };
  if (exact !== undefined) {
    const record = ctx.mirror.get(exact.id);
    if (!record) {
      return {
        ...base,
        status: 'not_found',
        method: exact.method,
        eventId: exact.id,
        reason: `the service has no event ${exact.id} (${exact.method === 'pinned' ? 'pinned' : 'stored in the portal'})`,
      };
    }
    return linked(
      key,
      ems,
      record.event,
      exact.method,
      `${exact.method === 'pinned' ? 'pinned' : 'the id the portal stores'}`,
      ctx,
    );
  }
  const scored = scoreEvents(ems.event, ems.classes, candidatesOf(ems, ctx));
  const choice = chooseEvent(scored, { emsClassCount: ems.classes.length });
  if (choice.status !== 'matched') {
    return {
      ...base,
      status: choice.status,
      reason: choice.reason,
      candidates: choice.candidates.slice(0, 5).map(candidate),
    };
  }
  const method: LinkMethod = choice.best.parts.externalId === 1 ? 'external_id' : 'scored';
  return linked(key, ems, choice.best.event, method, choice.reason, ctx);
}

function linked(
  key: string,
  ems: EmsExport,
  event: LiveloxEvent,
  method: LinkMethod,
  reason: string,
  ctx: LinkContext,
): LinkRecord {
  const mapping = matchClasses(ems.classes, serviceClassesOf(event), {
    relayEvent: isRelayEvent(ems.event.name, event),
  });
  const links = linksOfMapping(mapping, event, { template: ctx.template, viewerUrl: ctx.viewerUrl });
  return compact({
    key,
    status: 'linked' as const,
    reason,
    method,
    eventId: event.id,
    eventName: event.name,
    eventStart: event.timeInterval.start,
    eventEnd: event.timeInterval.end,
    published: event.isPublished,
    validMapAndCourses: event.hasValidMapAndCourses,
    classes: links.map((l) => ({
      name: l.match.ems.name,
      status: 'linked' as const,
      classId: l.match.service.id,
      serviceClass: l.match.service.name,
      url: l.url,
      from: l.from,
      method: l.match.method,
    })),
    unmatchedPortalClasses: mapping.unmatchedEms.map((u) => u.ems.name),
    unmatchedServiceClasses: mapping.unmatchedService.map((c) => c.name),
    serviceClasses: (event.classes ?? []).map((c) => ({ id: c.id, name: c.name })),
    candidates: [],
  });
}
