/**
 * The name steps of class mapping: exact names (the event system's short name too), then normalised names
 * (`classKey`), and last relay legs an event system keeps as classes of their own, named by a leg word (`H21 Leg 2`)
 * or by a number after the relay's name (`H21-2`). A name shared by several classes is reported with its candidates
 * rather than guessed.
 */
import type { EmsClass } from '../ems/source.js';
import type { Issue } from '../errors.js';
import { classKeyOf, describeClassName, parseClassName, type ParsedClassName } from './class-names.js';
import {
  CLASS_MATCHING,
  exactName,
  groupBy,
  quote,
  type Entry,
  type MappingState,
  type ServiceClass,
} from './class-mapping.js';
import { round2 } from './round.js';

/** Two classes of one side with one name: the caller's data is odd, and exact matching cannot use that name. */
export function reportDuplicateNames({ ems, service, issues }: MappingState): void {
  reportDuplicates(ems, 'emsClasses', 'the event system', issues);
  reportDuplicates(service, 'serviceClasses', 'the service', issues);
}

function reportDuplicates<T extends { name: string }>(
  list: readonly Entry<T>[],
  path: string,
  side: string,
  issues: Issue[],
): void {
  for (const [, same] of groupBy(
    list.filter((x) => x.exact !== ''),
    (x) => x.exact,
  )) {
    if (same.length < 2) continue;
    issues.push({
      path: `${path}[${same[1]!.index}]`,
      code: path === 'emsClasses' ? 'duplicate_ems_class_name' : 'duplicate_service_class_name',
      severity: 'warning',
      message: `${side} has ${same.length} classes named '${same[0]!.item.name}'`,
    });
  }
}

/** Exact names, then the event system's short names against the service's names. */
export function matchExactNames(state: MappingState): void {
  const { emsOf, map, note } = state;
  const byExact = groupBy(state.service, (s) => s.exact);
  for (const by of ['name', 'shortName'] as const) {
    for (const e of state.open()) {
      const text = by === 'name' ? e.exact : exactName(e.item.shortName ?? '');
      if (text === '') continue;
      const same = byExact.get(text) ?? [];
      if (same.length === 1) {
        const s = same[0]!;
        if (emsOf[s.index] === undefined) {
          const reason =
            by === 'shortName'
              ? `its short name '${e.item.shortName}' is the service's class name`
              : e.item.name === s.item.name
                ? `named '${e.item.name}' on both sides`
                : `named '${e.item.name}' here and '${s.item.name}' on the service`;
          const confidence = by === 'name' ? CLASS_MATCHING.confidence.exact : CLASS_MATCHING.confidence.shortName;
          map(e.index, s.index, 'exact', confidence, reason);
        } else if (by === 'name') {
          state.alreadyMatched(e, s);
        }
      } else if (same.length > 1) {
        note(
          e.index,
          `the service has ${same.length} classes named '${same[0]!.item.name}'`,
          same.map((s) => s.index),
        );
      }
    }
  }
}

/** Normalised names: one key on each side, or nothing. */
export function matchNormalisedNames(state: MappingState): void {
  const { emsOf, issues, note } = state;
  const emsByKey = groupBy(
    state.open().filter((e) => e.key !== ''),
    (e) => e.key,
  );
  const freeByKey = groupBy(
    state.free().filter((s) => s.key !== ''),
    (s) => s.key,
  );
  for (const [key, es] of emsByKey) {
    const ss = freeByKey.get(key) ?? [];
    const reads = describeClassName(es[0]!.parsed) || key;
    if (ss.length === 0) {
      const taken = state.serviceByKey.get(key)?.find((s) => emsOf[s.index] !== undefined);
      if (taken) for (const e of es) state.alreadyMatched(e, taken);
      continue;
    }
    if (es.length === 1 && ss.length === 1) {
      const [e, s] = [es[0]!, ss[0]!];
      state.map(
        e.index,
        s.index,
        'normalised',
        CLASS_MATCHING.confidence.normalised,
        `named '${e.item.name}' here and '${s.item.name}' on the service: both read as ${reads}`,
      );
      continue;
    }
    const serviceNames = quote(ss.map((s) => s.item.name));
    const emsNames = quote(es.map((e) => e.item.name));
    const message =
      ss.length > 1
        ? `service classes ${serviceNames} all read as ${reads}, like ${emsNames} here: which is which is not clear`
        : `classes ${emsNames} here all read as ${reads}, like the service's ${serviceNames}: which is which is not clear`;
    issues.push({ path: `emsClasses[${es[0]!.index}]`, code: 'ambiguous_class_key', severity: 'warning', message });
    for (const e of es) {
      note(
        e.index,
        ss.length > 1
          ? `several service classes read as ${reads}: ${serviceNames}`
          : `${emsNames} here all read as ${reads}, like the service's ${serviceNames}`,
        ss.map((s) => s.index),
      );
    }
  }
}

/**
 * The event system's short name read as the class (`D11-12` with the short name `D-12` is the service's `D12`): tried
 * after the names, and taken only when its key is one free service class's and no other open class reads so.
 */
export function matchNormalisedShortNames(state: MappingState): void {
  // Keys computed once, and the free classes grouped once: an export may have 100,000 classes with short names.
  const open = state.open().map((e) => ({
    e,
    short: e.item.shortName ? classKeyOf(parseClassName(e.item.shortName), '') : '',
  }));
  const readers = new Map<string, number>();
  const count = (k: string) => k !== '' && readers.set(k, (readers.get(k) ?? 0) + 1);
  for (const { e, short } of open) {
    count(e.key);
    if (short !== e.key) count(short);
  }
  const freeByKey = groupBy(state.free(), (s) => s.key);
  for (const { e, short } of open) {
    if (short === '' || short === e.key || readers.get(short) !== 1) continue;
    mapToTheOnly(
      state,
      e,
      freeByKey.get(short) ?? [],
      CLASS_MATCHING.confidence.normalised,
      (s) =>
        `its short name '${e.item.shortName}' and the service's '${s.item.name}' both read as ${describeClassName(s.parsed)}`,
    );
  }
}

/** Maps `e` to the one class of `ss` when there is exactly one and it is still free. */
function mapToTheOnly(
  state: MappingState,
  e: Entry<EmsClass>,
  ss: readonly Entry<ServiceClass>[],
  confidence: number,
  reason: (s: Entry<ServiceClass>) => string,
): void {
  const s = ss[0];
  if (ss.length !== 1 || s === undefined || state.emsOf[s.index] !== undefined) return;
  state.map(e.index, s.index, 'normalised', confidence, reason(s));
}

/** A name that says a gender and nothing else (`Men`, `Women`, `Herren`). */
const genderOnly = (p: ParsedClassName) =>
  p.gender !== undefined &&
  p.gender !== 'X' &&
  p.age === undefined &&
  p.level === undefined &&
  p.length === undefined &&
  !p.open &&
  p.course === undefined &&
  p.leg === undefined &&
  p.words.length === 0;

/**
 * A championship's bare `Men` / `Women` against the service's one elite class of that gender (`M21E`, `Women Elite`):
 * only when the export has no other class of that gender and the service exactly one elite class of it and no bare
 * one. Then the gender is all the export says, and the elite class is the only one it can be.
 */
export function matchBareGenders(state: MappingState): void {
  const bare = state.open().filter((e) => genderOnly(e.parsed));
  if (bare.length === 0) return;
  // Counted once: the export's classes per gender, and the service's bare and elite classes per gender.
  const emsOfGender = groupBy(state.ems, (o) => o.parsed.gender ?? '');
  const serviceBare = new Set(state.service.filter((s) => genderOnly(s.parsed)).map((s) => s.parsed.gender));
  // Every elite class of the gender counts (a junior elite M20E beside M21E makes `Men` either).
  const elite = groupBy(
    state.service.filter((s) => s.parsed.level === 'E'),
    (s) => s.parsed.gender ?? '',
  );
  for (const e of bare) {
    const g = e.parsed.gender ?? '';
    if ((emsOfGender.get(g)?.length ?? 0) !== 1 || serviceBare.has(e.parsed.gender)) continue;
    mapToTheOnly(
      state,
      e,
      elite.get(g) ?? [],
      round2(CLASS_MATCHING.confidence.normalised * 0.9),
      (s) => `'${e.item.name}' names only the gender, and '${s.item.name}' is the service's one elite class of it`,
    );
  }
}

/**
 * Relay legs: an event system that keeps one class per leg (`H21 Leg 2`) against a service that keeps the relay as one
 * class (`H21`). The legs truly are that one class, the only case where several event system classes share one.
 */
export function matchRelayLegs(state: MappingState): void {
  const { serviceByKey, matchOf, emsOf, notes } = state;
  for (const e of state.open()) {
    const { leg, ...relay } = e.parsed;
    if (leg === undefined) continue;
    const relayKey = classKeyOf(relay, e.item.name);
    const relays = (serviceByKey.get(relayKey) ?? []).filter((s) => s.parsed.leg === undefined && relayKey !== '');
    if (relays.length !== 1) continue;
    const s = relays[0]!;
    const shared = emsOf[s.index] !== undefined && matchOf[emsOf[s.index]!]?.ems.name;
    matchOf[e.index] = {
      ems: e.item,
      service: s.item,
      method: 'normalised',
      confidence: round2(CLASS_MATCHING.confidence.normalised * 0.95),
      reason: `leg ${leg} of the relay class the service keeps as one, '${s.item.name}'${shared ? ` (with '${shared}')` : ''}`,
    };
    emsOf[s.index] ??= e.index;
    notes.delete(e.index);
  }
}

/** `H21-2`, `Herrar 21 - 3`, `Class 3`: a name, then a one-digit leg number after a hyphen or a space. */
const NUMBERED_LEG = /^(.*?[^\s\-–_])\s*(?:[-–_]\s*|\s)([1-9])$/u;

interface NumberedLeg {
  e: Entry<EmsClass>;
  leg: number;
  relayKey: string;
  /** What says this is a relay, for the reason; undefined when nothing does. */
  evidence: string | undefined;
}

/**
 * Relay legs written as a number after the relay's name (`H21-1`, `H21-2`; `Class-1`, `Class 2`), against the relay
 * the service keeps as one class. A trailing number alone is no evidence of a relay: heats, split start groups and
 * second classes of individual races are written the same way (`H21-1`, `H21 2`, `Herren 1`, `Scuola 1`..`Scuola 4`),
 * and merging them would give two classes one service class. So every numbered class needs relay evidence of its own:
 * a relay word in its name or in the service class's name, or the export's leg count (legs > 1, and this leg within
 * it). A gender class (`H21-2`) may also lean on the caller knowing the event is a relay (`relayEvent`), and so may
 * any name whose leg is glued to it by a hyphen (`1) Men's Open-1`, `A - Trophy-2`); open and course-named classes
 * written with a space (`Öppen 2`, `Bahn 3`) and other names without a gender never do, since a relay event may hold
 * numbered open courses too. Then all of these must hold: the legs come as a set 1..n (n >= 2) of one name; exactly
 * one service class has the name's key, and no other event system class has that key or took that class.
 */
export function matchNumberedLegs(state: MappingState, relayEvent = false): void {
  const { serviceByKey, emsByKey, matchOf, emsOf, notes } = state;
  const legs: NumberedLeg[] = [];
  for (const e of state.ems) {
    const m = NUMBERED_LEG.exec(e.item.name.trim());
    if (!m || e.parsed.leg !== undefined) continue;
    const base = m[1]!;
    const leg = Number(m[2]);
    const parsed = parseClassName(base);
    const relayKey = classKeyOf(parsed, base);
    if (relayKey === '') continue;
    const sameKey = serviceByKey.get(relayKey) ?? [];
    legs.push({ e, leg, relayKey, evidence: relayEvidence(e, parsed, leg, sameKey, relayEvent) });
  }
  for (const [relayKey, numbered] of groupBy(legs, (l) => l.relayKey)) {
    // One numbered class of the name without evidence (`H21-3` beside two legs of a 2-leg `H21`): the export's
    // numbers do not read as one relay's legs, so none of them is taken as a leg.
    const set = numbered.filter((l): l is NumberedLeg & { evidence: string } => l.evidence !== undefined);
    if (set.length !== numbered.length) continue;
    const numbers = set.map((l) => l.leg).sort((a, b) => a - b);
    if (numbers.length < 2 || numbers.some((n, i) => n !== i + 1)) continue;
    if (set.some((l) => matchOf[l.e.index] !== undefined)) continue;
    // The relay itself written here too (`H21` beside `H21-1`, `H21-2`): the numbers may be classes of their own.
    if ((emsByKey.get(relayKey) ?? []).some((o) => !set.some((l) => l.e === o))) continue;
    const relays = (serviceByKey.get(relayKey) ?? []).filter((s) => s.parsed.leg === undefined);
    if (relays.length !== 1) continue;
    const s = relays[0]!;
    if (emsOf[s.index] !== undefined) continue;
    for (const { e, leg, evidence } of set) {
      matchOf[e.index] = {
        ems: e.item,
        service: s.item,
        method: 'normalised',
        confidence: round2(CLASS_MATCHING.confidence.normalised * 0.9),
        reason: `leg ${leg} of ${set.length} (the number after '${relayName(e.item.name)}') of the relay class the service keeps as one, '${s.item.name}' (a relay: ${evidence})`,
      };
      notes.delete(e.index);
    }
    emsOf[s.index] = set[0]!.e.index;
  }
}

/**
 * Why the numbered class `e` (leg `leg` after the name `base` reads as `parsed`) is a relay leg, or undefined when
 * nothing says so; `sameKey` are the service classes with the relay's key. The class's own evidence first; the event's only for a gender class (see `matchNumberedLegs`).
 */
function relayEvidence(
  e: Entry<EmsClass>,
  parsed: ParsedClassName,
  leg: number,
  sameKey: readonly Entry<ServiceClass>[],
  relayEvent: boolean,
): string | undefined {
  if (parsed.relay === true || e.parsed.relay === true) return `'${e.item.name}' says relay`;
  const declared = e.item.legs ?? 0;
  if (declared > 1 && leg <= declared) return `the event system gives '${e.item.name}' ${declared} legs`;
  const relayClass = sameKey.find((s) => s.parsed.relay === true);
  if (relayClass) return `the service's '${relayClass.item.name}' says relay`;
  const numberNames = e.parsed.open === true || e.parsed.course !== undefined;
  if (relayEvent && !numberNames && parsed.gender !== undefined) return 'the event is a relay';
  // `1) Men's Open-1`, `A - Trophy-2`: in a relay event, a leg glued to the name by a hyphen is a leg, open or not.
  // Numbered open courses, heats and school classes are written with a space (`Öppen 2`, `Scuola 3`).
  if (relayEvent && parsed.course === undefined && /\S-[1-9]$/u.test(e.item.name.trim())) {
    return 'the event is a relay, and the leg follows the name after a hyphen';
  }
  return undefined;
}

/** The relay's name of a numbered leg, as written. */
const relayName = (name: string): string => NUMBERED_LEG.exec(name.trim())?.[1] ?? name;
