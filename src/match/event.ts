/**
 * Scoring the service's events against an event system's event, and choosing only on a clear lead. Pure: the search
 * that produces the candidates is in `jobs/find-event.ts`.
 *
 * Each part is 0..1 and absent when either side lacks the data; the total is the weighted mean of the parts present,
 * so an export without organisers is neither helped nor hurt by them. Weights and thresholds are in `EVENT_MATCHING`.
 * Names are read with initials and other languages in mind (`event-names.ts`); a weak name may be lifted by the rest
 * of the evidence, and a choice that is not made says why as data (`EventChoiceCode`). Over 400 lines: scoring and
 * choosing share the thresholds and must be read together to see that no path links another event.
 */
import { compact } from '../core/compact.js';
import { distanceM } from '../geo/distance.js';
import type { EmsClass, EmsEvent } from '../ems/source.js';
import { EVENTOR_KEY, swedishEventorId } from '../ems/eventor-ids.js';
import { classKey } from './class-names.js';
import { DAY_MS, eventDays, writtenOffsetHours } from '../ems/dates.js';
import { round2 } from './round.js';
import { foldText } from '../core/fold.js';
import { diceSimilarity, weightedWordSimilarity, words } from './text.js';
import { readNames, spellOutName, type NameReading } from './event-names.js';
import { duplicateOf } from './event-duplicates.js';
import type { NameKind } from './name-kinds.js';

export interface EventScoreParts {
  /** Event names, accents folded, years and filler words weighed down. */
  name?: number;
  /** 1 on the same day(s), less one or two days off, 0 beyond. */
  date?: number;
  /** Best similarity between an organiser on each side. */
  organiser?: number;
  /** 1 within 3 km, falling to 0 at 60 km. */
  distance?: number;
  /** Share of the event system's classes that the candidate has (by normalised class name). */
  classes?: number;
  /** 1 when an id of the event in another system (`eventorId`) is the candidate's; 0 when it names another event. */
  externalId?: number;
}

/**
 * What scoring reads of a service event. A service answer (`LiveloxEvent`) is one; so is any stored copy of it: matching
 * depends on this shape, not on the service layer.
 */
export interface CandidateEvent {
  id: number;
  name: string;
  timeInterval: { start: string; end: string };
  organisers?: ReadonlyArray<{ name: string }> | undefined;
  position?: { latitude: number; longitude: number } | null | undefined;
  classes?: ReadonlyArray<{ name: string }> | undefined;
  properties?: ReadonlyArray<{ key: string; value: string }> | undefined;
}

export interface ScoredEvent<E extends CandidateEvent = CandidateEvent> {
  event: E;
  /** 0..1, the weighted mean of the parts present. */
  score: number;
  parts: EventScoreParts;
  /**
   * How the names read word by word (`scoreEvents` sets it when both sides have a name), and `plain`, the name score
   * without initials, translations or cut-short words. `chooseEvent` lets that evidence name an event only when the
   * rest agrees; scored parts made without it (by hand) are judged by `parts.name` alone.
   */
  nameReading?: NameReading & { plain: number };
}

/**
 * Why a choice came out as it did, as data for a caller to word: `given` (an exact id: the user's, the one the event
 * system stores, or the service's answer to a lookup by the event's Eventor id), `matched_by_id` (an id both sides carry settles it),
 * `matched` (the score leads clearly), `ambiguous` (two plausible candidates compete), `unsure` (one plausible
 * candidate, but its name, date or score does not say it is the event), `none_plausible` (events were found, none close
 * enough in name, date and classes), `none_in_country` (events on those days, none in the country),
 * `no_events_in_window` (no event at all on those days, or with that name when the export is undated).
 */
export type EventChoiceCode =
  | 'given'
  | 'matched_by_id'
  | 'matched'
  | 'ambiguous'
  | 'unsure'
  | 'none_plausible'
  | 'none_in_country'
  | 'no_events_in_window';

export type EventChoice<E extends CandidateEvent = CandidateEvent> =
  | {
      status: 'matched';
      code: 'given' | 'matched' | 'matched_by_id';
      best: ScoredEvent<E>;
      candidates: ScoredEvent<E>[];
      reason: string;
    }
  | {
      status: 'ambiguous' | 'not_found';
      code: Exclude<EventChoiceCode, 'given' | 'matched' | 'matched_by_id'>;
      /** Only the plausible candidates (`isPlausible`), best first: never an unrelated event as a suggestion. */
      candidates: ScoredEvent<E>[];
      reason: string;
    };

export const EVENT_MATCHING = {
  weights: { name: 0.35, date: 0.25, classes: 0.15, organiser: 0.1, distance: 0.15 },
  /** The best must reach this score... */
  minScore: 0.55,
  /** ...and lead the second by this much; otherwise the user chooses. */
  minLead: 0.12,
  /** Below this nothing looks like the event. */
  notFoundBelow: 0.35,
  /** The best must have at least this name score, unless an external id settles it or the evidence lifts it. */
  minName: 0.4,
  /**
   * A weaker name is lifted when everything else says it is the event: the same day, the same organiser, every class
   * of the export, and (when both sides have a place) not far off, with no other candidate agreeing as well. Some
   * name evidence is still needed, read word by word (`NameReading.words`): letter pairs alone are noise two unrelated
   * names share (about 0.25; "Klubbsprint" and "Klubbmedel" 0.35), and names of two formats (a sprint, a middle) are
   * never lifted: a club's morning and evening events share all of that, and only the name tells them apart.
   */
  lift: { minName: 0.3, minOrganiser: 0.8, minClasses: 0.9, minClassCount: 3, minDistance: 0.5 },
  /**
   * A candidate worth showing to a person: it scores this much and has some name evidence (or an id, or the export
   * names no event). Below it an event is another event that merely shares the day or the country; listing it as
   * "for example --event-id ..." misleads more than it helps.
   */
  plausible: 0.45,
} as const;

// Words every event name has: they say nothing about which event it is.
const FILLER = new Set(
  [
    'o ol ob orientering orienteering orientierungslauf orientation orientamento suunnistus orientacni orienteringslop',
    'orienteeringu orientacny beh cup pokal coupe trophy trofeo tavling tavlingen lopp lopet lop lob race day dag dagen',
    'tag jour etapp etappe etapa stage etap the of och og und et e i and a der die das le la il di en de',
  ]
    .join(' ')
    .split(' '),
);

/** A vetoing kind of word in a reason: "names another region than the export's". */
const CONFLICT_TEXT: Readonly<Record<NameKind, string>> = {
  format: 'format',
  direction: 'region',
  level: 'level',
  round: 'round',
};

/** Whether a folded word is one that every event name has (OL, cup, etapp, day...). */
export function isFillerWord(word: string): boolean {
  return FILLER.has(word);
}

function eventWordWeight(word: string): number {
  if (/^(19|20)\d\d$/.test(word)) return 0.15;
  if (FILLER.has(word)) return 0.25;
  // Stage and round numbers tell "Day 1" from "Day 2": they count, a little less than words.
  if (/^\d{1,3}$/.test(word)) return 0.6;
  return 1;
}

const CLUB_WORDS = new Set(
  'ok sk if il ik ol oc olg olv ols oks fk bk gif sok tj tjs club klubb klub orienteering orientering verein seura ry'.split(
    ' ',
  ),
);

function organiserWordWeight(word: string): number {
  return CLUB_WORDS.has(word) ? 0.3 : 1;
}

/** Shared words (misspellings tolerated) and letter pairs: the name score that alone may say "this is the event". */
function plainNameSimilarity(a: string, b: string): number {
  const wa = words(a);
  const wb = words(b);
  if (wa.length === 0 || wb.length === 0) return 0;
  return Math.max(weightedWordSimilarity(wa, wb, eventWordWeight), 0.8 * diceSimilarity(foldText(a), foldText(b)));
}

function readEventNames(rawA: string, rawB: string): NameReading & { plain: number } {
  const a = spellOutName(rawA);
  const b = spellOutName(rawB);
  return { ...readNames(a, b, eventWordWeight, diceSimilarity), plain: plainNameSimilarity(a, b) };
}

/**
 * The name score shown and weighed into the total: shared words, letter pairs, and the word-by-word evidence of
 * initials, cut-short words and one word in two languages (none between two formats). Whether that evidence may say
 * "this is the event" is `chooseEvent`'s to decide, with the rest of the evidence.
 */
export function nameSimilarity(a: string, b: string): number {
  const r = readEventNames(a, b);
  return Math.max(r.plain, r.words);
}

/** The local calendar day (as a day number) of an instant some hours east of UTC. */
function localDay(ms: number, offsetHours: number): number {
  return Math.floor((ms + offsetHours * 3_600_000) / DAY_MS);
}

/** Both sides' days as day numbers, the service's read in the export's local time; undefined when either lacks them. */
function daysOfBoth(
  ems: EmsEvent,
  event: CandidateEvent,
): { ems: { first: number; last: number }; event: { first: number; last: number } } | undefined {
  const days = eventDays(ems.start, ems.end);
  const startMs = Date.parse(event.timeInterval.start);
  const endMs = Date.parse(event.timeInterval.end);
  if (days === undefined || Number.isNaN(startMs) || Number.isNaN(endMs)) return undefined;
  // The export's own offset says where its dates are local; failing that, solar time at the event's longitude.
  const longitude = event.position?.longitude ?? ems.position?.longitude ?? 0;
  const offset = writtenOffsetHours(ems.start ?? '') ?? writtenOffsetHours(ems.end ?? '') ?? Math.round(longitude / 15);
  const first = localDay(startMs, offset);
  const last = localDay(Math.max(startMs, endMs - 1), offset);
  return { ems: days, event: { first, last } };
}

function dateScore(ems: EmsEvent, event: CandidateEvent): number | undefined {
  const both = daysOfBoth(ems, event);
  if (both === undefined) return undefined;
  const { first: from, last: to } = both.ems;
  const { first, last } = both.event;
  const gap = last < from ? from - last : first > to ? first - to : 0;
  return [1, 0.4, 0.15][gap] ?? 0;
}

const dayText = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);
const spanText = ({ first, last }: { first: number; last: number }) =>
  first === last ? dayText(first) : `${dayText(first)} to ${dayText(last)}`;

/**
 * The export's days against the event's when they do not overlap (the event's read in the export's local time), as
 * `YYYY-MM-DD` or `YYYY-MM-DD to YYYY-MM-DD`; undefined when they agree or either side has no date. For an event the
 * user named: linking an export of another day is then said, not done silently.
 */
export function dateMismatch(ems: EmsEvent, event: CandidateEvent): { export: string; event: string } | undefined {
  const both = daysOfBoth(ems, event);
  if (both === undefined) return undefined;
  // Days that overlap are the same event's (a day of a multi-day export, a service event spanning the export's day).
  if (both.event.last >= both.ems.first && both.event.first <= both.ems.last) return undefined;
  return { export: spanText(both.ems), event: spanText(both.event) };
}

function organiserScore(ems: EmsEvent, event: CandidateEvent): number | undefined {
  const theirs = (event.organisers ?? []).map((o) => words(o.name)).filter((w) => w.length > 0);
  const ours = ems.organisers.map(words).filter((w) => w.length > 0);
  if (theirs.length === 0 || ours.length === 0) return undefined;
  let best = 0;
  for (const a of ours)
    for (const b of theirs) {
      // An association written as its initials on one side and in full on the other ("NWOA", "North West
      // Orienteering Association"): read word by word, initials count as the words they stand for.
      const initials = readNames(a.join(' '), b.join(' '), organiserWordWeight, diceSimilarity).words;
      best = Math.max(best, weightedWordSimilarity(a, b, organiserWordWeight), initials);
    }
  return best;
}

function distanceScore(ems: EmsEvent, event: CandidateEvent): number | undefined {
  if (!ems.position || !event.position) return undefined;
  const a = ems.position;
  const b = event.position;
  const km = distanceM({ lat: a.latitude, lng: a.longitude }, { lat: b.latitude, lng: b.longitude }) / 1000;
  return km <= 3 ? 1 : Math.max(0, 1 - (km - 3) / 57);
}

/** An export class's key, and the relay's key when it is written as a leg numbered after the relay's name. */
interface EmsClassKey {
  key: string;
  relay?: string;
}

function classScore(emsKeys: readonly EmsClassKey[], event: CandidateEvent): number | undefined {
  if (emsKeys.length === 0 || !event.classes || event.classes.length === 0) return undefined;
  const theirs = new Set(event.classes.map((c) => classKey(c.name)));
  // A championship's bare `Men` / `Women` is its one elite class of that gender, as the class mapper reads it.
  const onlyElite = (key: string) =>
    (key === 'M' || key === 'W') &&
    !theirs.has(key) &&
    [...theirs].filter((k) => new RegExp(`^${key}\\d*E$`).test(k)).length === 1;
  let shared = 0;
  for (const k of emsKeys) {
    if (theirs.has(k.key) || (k.relay !== undefined && theirs.has(k.relay)) || onlyElite(k.key)) shared++;
  }
  return shared / emsKeys.length;
}

/** `H21-1`, `1) Men's Open-2`, `A - Trophy-3`: a relay leg kept as a class, numbered after the relay's name. */
const LEG_AFTER_NAME = /^(.*\S)\s*-\s*[1-9]$/u;

/**
 * The export's class keys for the overlap, one per distinct key: a relay leg kept as a class of its own (`H21-1`)
 * also counts when the service keeps the relay whole (`H21`), since a relay export lists every leg and the service
 * only the relay. Evidence for the event only: which class a leg maps to is the class mapper's to decide.
 */
function emsClassKeys(emsClasses: readonly EmsClass[]): EmsClassKey[] {
  const out = new Map<string, EmsClassKey>();
  for (const c of emsClasses) {
    const key = classKey(c.name);
    const leg = LEG_AFTER_NAME.exec(c.name.trim());
    if (!out.has(key)) out.set(key, leg ? { key, relay: classKey(leg[1]!) } : { key });
  }
  return [...out.values()];
}

/** `eventor` names the same system as a property `eventorId` or `eventor_id`. */
function idFamily(key: string): string {
  return foldText(key).replace(/ ?id$/, '').replace(/\s+/g, '');
}

const EVENTOR_FAMILY = idFamily(EVENTOR_KEY);

function externalIdScore(ems: EmsEvent, event: CandidateEvent): number | undefined {
  const ids = Object.entries(ems.externalIds ?? {});
  if (ids.length === 0 || !event.properties) return undefined;
  // The service's `eventorId` is Sweden's number: another Eventor's id (Norway's, Australia's) equal to it is chance,
  // and one unequal to it names no other event.
  const swedish = swedishEventorId(ems) !== undefined;
  let conflict = false;
  for (const [system, id] of ids) {
    if (idFamily(system) === EVENTOR_FAMILY && !swedish) continue;
    for (const p of event.properties) {
      if (idFamily(p.key) !== idFamily(system)) continue;
      if (p.value.trim() === id.trim()) return 1;
      conflict = true;
    }
  }
  return conflict ? 0 : undefined;
}

/** Every candidate scored, best first (ties by id, so the order never depends on the service's). */
export function scoreEvents<E extends CandidateEvent>(
  ems: EmsEvent,
  emsClasses: readonly EmsClass[],
  candidates: readonly E[],
): ScoredEvent<E>[] {
  const emsKeys = emsClassKeys(emsClasses);
  const w = EVENT_MATCHING.weights;
  const scored = candidates.map((event): ScoredEvent<E> => {
    const reading = ems.name.trim() === '' ? undefined : readEventNames(ems.name, event.name);
    const raw: EventScoreParts = compact({
      name: reading === undefined ? undefined : Math.max(reading.plain, reading.words),
      date: dateScore(ems, event),
      organiser: organiserScore(ems, event),
      distance: distanceScore(ems, event),
      classes: classScore(emsKeys, event),
      externalId: externalIdScore(ems, event),
    });
    let sum = 0;
    let weight = 0;
    for (const part of ['name', 'date', 'classes', 'organiser', 'distance'] as const) {
      const value = raw[part];
      if (value === undefined) continue;
      sum += w[part] * value;
      weight += w[part];
    }
    let score = weight === 0 ? 0 : sum / weight;
    // An id naming another event all but rules this one out.
    if (raw.externalId === 0) score *= 0.5;
    const parts = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, round2(v as number)])) as EventScoreParts;
    return { event, score: round2(score), parts, ...(reading ? { nameReading: reading } : {}) };
  });
  // An id the event system and the service share settles it, when only one candidate has it: the stages of a
  // multi-day event often share their federation's id, and then the id tells nothing between them.
  const withId = scored.filter((s) => s.parts.externalId === 1);
  if (withId.length === 1) withId[0]!.score = Math.max(withId[0]!.score, 0.98);
  return scored.sort((a, b) => b.score - a.score || a.event.id - b.event.id);
}

/**
 * Every part known of both sides agrees: the same day, every class of the export, the same organiser and a place not
 * far off when both sides have them, no id naming another event. Initials, translations and cut-short words say a
 * name is this event only then: "Is Cup" spells "Idre Sprint Cup", and a translation can be another event's word.
 */
function agreesWherever(c: ScoredEvent): boolean {
  const l = EVENT_MATCHING.lift;
  const p = c.parts;
  return (
    p.date === 1 &&
    p.classes !== undefined &&
    p.classes >= l.minClasses &&
    (p.organiser === undefined || p.organiser >= l.minOrganiser) &&
    (p.distance === undefined || p.distance >= l.minDistance) &&
    p.externalId !== 0
  );
}

/**
 * Whether the name says it is the event, or an id the service shares settles it. The plain name score says so when
 * the names share a telling word and name no two formats; the fuller evidence (initials, translations, cut-short
 * words) only when the rest agrees (`agreesWherever`).
 */
function isNamed(c: ScoredEvent): boolean {
  if (c.parts.externalId === 1) return true;
  if (c.parts.name === undefined || c.parts.name < EVENT_MATCHING.minName) return false;
  const r = c.nameReading;
  if (r === undefined) return true;
  if (r.conflict) return false;
  return (r.plain >= EVENT_MATCHING.minName && !r.differ) || (r.words >= EVENT_MATCHING.minName && agreesWherever(c));
}

/** Everything but the name says it is the event (`EVENT_MATCHING.lift`), and the names name no two formats. */
function agreesButName(c: ScoredEvent, emsClassCount: number): boolean {
  // `agreesWherever`, but the organiser must be known too (a lift has no name to lean on) and the export must name
  // enough classes for their agreement to tell.
  return (
    agreesWherever(c) &&
    c.parts.organiser !== undefined &&
    emsClassCount >= EVENT_MATCHING.lift.minClassCount &&
    c.nameReading?.conflict !== true
  );
}

/** The name evidence a lift needs: `lift.minName`, read word by word when the reading is known (never letter pairs). */
export function liftableName(c: ScoredEvent): boolean {
  const min = EVENT_MATCHING.lift.minName;
  if (c.parts.name === undefined || c.parts.name < min) return false;
  const r = c.nameReading;
  return r === undefined || (!r.conflict && r.words >= min);
}

/**
 * Whether a candidate is worth showing to a person (`EVENT_MATCHING.plausible`). Never one whose name a word of one
 * kind contradicts (another region, round, level or format): offered as "for example --event-id", it would invite
 * the wrong link the veto refused.
 */
export function isPlausible(c: ScoredEvent): boolean {
  if (c.score < EVENT_MATCHING.plausible || c.nameReading?.conflict === true) return false;
  return c.parts.externalId === 1 || c.parts.name === undefined || c.parts.name >= EVENT_MATCHING.lift.minName;
}

/**
 * The event to use, only when the best candidate leads clearly; near-equal candidates are the user's choice.
 * `emsClassCount` (the export's classes) lets strong class agreement lift a weak name: without it, names decide alone.
 */
export function chooseEvent<E extends CandidateEvent>(
  scored: readonly ScoredEvent<E>[],
  options: { emsClassCount?: number } = {},
): EventChoice<E> {
  const candidates = [...scored];
  const plausible = candidates.filter(isPlausible);
  const top = candidates[0];
  if (!top || top.score < EVENT_MATCHING.notFoundBelow) {
    return {
      status: 'not_found',
      code: candidates.length === 0 ? 'no_events_in_window' : 'none_plausible',
      candidates: plausible,
      reason:
        candidates.length === 0
          ? 'the search found no event'
          : `no event looks like it (best ${top!.event.name}, score ${top!.score})`,
    };
  }
  // Date, place and the federation's standard classes fit any event of that weekend: without a shared id, the name
  // must say it is this event (an export whose event is not on the service yet must not land on its neighbour's).
  // Only when no candidate has the name may the rest of the evidence lift a weak one, and then two lifted candidates
  // compete as two named ones would.
  const agreeing = candidates.filter((c) => agreesButName(c, options.emsClassCount ?? 0));
  // A second event agreeing on all but the name (the club's other event that day) leaves only the names to decide,
  // and a weak name does not: no lift then.
  const lifted = (c: ScoredEvent) => agreeing.length === 1 && agreeing[0] === c && liftableName(c);
  const anyNamed = candidates.some(isNamed);
  const named = anyNamed ? isNamed : lifted;
  // An id only one candidate shares with the export settles it, over any name: the other may be the event entered
  // twice, its name as good.
  const byId = candidates.filter((c) => c.parts.externalId === 1);
  const settled = byId.length === 1 ? byId[0] : undefined;
  const best = settled ?? candidates.find(named) ?? top;
  const dateOff = best.parts.date !== undefined && best.parts.date < 0.4;
  // The lead is over the next candidate that could be the event too; another club's event the same day that only
  // shares the date and the place does not make the choice unsure.
  const rival = settled ? undefined : candidates.find((c) => c !== best && named(c));
  const second = rival ?? candidates.find((c) => c !== best);
  const lead = rival ? round2(best.score - rival.score) : 1;
  const chosen = best.score >= EVENT_MATCHING.minScore && lead >= EVENT_MATCHING.minLead && !dateOff && named(best);
  // The event entered twice on the service: a coin toss between the two, unless an id settles it.
  const twin = chosen && best.parts.externalId !== 1 ? duplicateOf(best, candidates) : undefined;
  if (twin) {
    return {
      status: 'ambiguous',
      code: 'ambiguous',
      candidates: [best, twin],
      reason: `${best.event.name} and ${twin.event.name} look like one event entered twice (same day, organiser and classes)`,
    };
  }
  if (chosen) {
    const liftedNote = anyNamed
      ? ''
      : `; its name differs (name score ${best.parts.name}), but date, organiser and classes agree`;
    return {
      status: 'matched',
      code: best.parts.externalId === 1 ? 'matched_by_id' : 'matched',
      best,
      candidates,
      reason:
        (rival
          ? `score ${best.score}, ahead of the next (${rival.score}) by ${lead}`
          : second
            ? `score ${best.score}; no other candidate has its name (next: ${second.event.name}, ${second.score})`
            : `score ${best.score}, the only candidate`) + liftedNote,
    };
  }
  // Two candidates compete only when both could be the event and neither leads, or when no name decides and two agree
  // on everything else (the club's two events that day): the evidence cannot tell them apart.
  const tied = !anyNamed && agreeing.length >= 2;
  const competing =
    tied || (rival !== undefined && lead < EVENT_MATCHING.minLead && isPlausible(best) && isPlausible(rival));
  const code: EventChoiceCode =
    competing && !dateOff ? 'ambiguous' : plausible.length > 0 ? 'unsure' : 'none_plausible';
  return {
    // "Ambiguous" only when candidates really compete; one unconfirmed candidate, or none plausible, is not found.
    status: code === 'ambiguous' ? 'ambiguous' : 'not_found',
    code,
    candidates: tied && code === 'ambiguous' ? agreeing : plausible,
    reason: dateOff
      ? `the best candidate (${best.event.name}, score ${best.score}) is on another date`
      : !named(best)
        ? best.parts.name === undefined
          ? `the export names no event, and nothing else identifies ${best.event.name} (score ${best.score}) for sure`
          : best.nameReading?.conflictKind
            ? `the best candidate's name (${best.event.name}) names another ${CONFLICT_TEXT[best.nameReading.conflictKind]} than the export's`
            : `the best candidate's name (${best.event.name}) is not the export's (name score ${best.parts.name})`
        : best.score < EVENT_MATCHING.minScore
          ? `the best candidate (${best.event.name}) scores only ${best.score}`
          : `${best.event.name} (${best.score}) and ${second!.event.name} (${second!.score}) are too close to choose`,
  };
}
