/**
 * What a class mapping is (the result types and the thresholds in `CLASS_MATCHING`) and the working state its steps
 * share. The steps live one per file (`classes-by-name.ts`, `classes-by-course.ts`, `classes-by-similarity.ts`) and
 * `classes.ts` runs them in order; they meet here, so that none of them imports another or the file that runs them.
 */
import type { EmsClass } from '../ems/source.js';
import type { Issue } from '../errors.js';
import { classKeyOf, parseClassName, type ParsedClassName } from './class-names.js';
import { round2 } from './round.js';

export interface ServiceClass {
  id: number;
  name: string;
  url?: string;
}

export type ClassMatchMethod = 'exact' | 'normalised' | 'course' | 'similar';

export interface ClassMatch {
  ems: EmsClass;
  service: ServiceClass;
  method: ClassMatchMethod;
  /** 0..1 */
  confidence: number;
  /** Plain words: why. */
  reason: string;
}

export interface UnmatchedEmsClass {
  ems: EmsClass;
  reason: string;
  /** Near service classes, best first, when any (at most 5). */
  candidates: ServiceClass[];
}

export interface ClassMapping {
  /** In the event system's order. */
  matches: ClassMatch[];
  /** In the event system's order. */
  unmatchedEms: UnmatchedEmsClass[];
  /** In the service's order. */
  unmatchedService: ServiceClass[];
  /** Duplicates, ambiguities and refusals found on the way (`ambiguous_class_key`, `class_already_matched`, ...). */
  issues: Issue[];
}

export const CLASS_MATCHING = {
  minSimilarity: 0.75,
  /** The best name must lead the second by this much, on both sides, to be taken. */
  minLead: 0.1,
  /** Course lengths this close (relative) are one length: exports round differently. */
  lengthTolerance: 0.02,
  /** When several classes share a course, the name chosen among them must be at least this similar. */
  courseNameFloor: 0.5,
  /** Service classes at least this similar are offered as candidates of an unmatched class. */
  candidateFloor: 0.5,
  maxCandidates: 5,
  confidence: {
    exact: 1,
    shortName: 0.97,
    normalised: 0.95,
    sameControls: 0.9,
    sameNameAndLength: 0.8,
    sameName: 0.65,
    /** Taken off a course match that needed the names to choose among classes sharing the course. */
    sharedCourse: 0.05,
    /** Similarity times this. */
    similar: 0.85,
  },
} as const;

/** A class of either side, read once. */
export interface Entry<T> {
  item: T;
  index: number;
  parsed: ParsedClassName;
  key: string;
  /** Trimmed, lower case: what exact matching compares. */
  exact: string;
}

/** Why an event system class is still unmatched, and the service classes it might be. First reason wins. */
export interface Note {
  reason: string;
  candidates: number[];
}

/** The mapping under way. Indexes are those of `ems` and `service`, the callers' orders. */
export interface MappingState {
  ems: Entry<EmsClass>[];
  service: Entry<ServiceClass>[];
  issues: Issue[];
  /** The match of each event system class, once it has one. */
  matchOf: (ClassMatch | undefined)[];
  /** The event system class each service class is matched to, once it is. */
  emsOf: (number | undefined)[];
  notes: Map<number, Note>;
  /** Each side's classes by `key` (non-empty keys only), in order: the steps look keys up rather than scan a side. */
  emsByKey: Map<string, Entry<EmsClass>[]>;
  serviceByKey: Map<string, Entry<ServiceClass>[]>;
  /** Event system classes still unmatched, in order. */
  open: () => Entry<EmsClass>[];
  /** Service classes no event system class has taken, in order. */
  free: () => Entry<ServiceClass>[];
  map: (e: number, s: number, method: ClassMatchMethod, confidence: number, reason: string) => void;
  /** Records why `e` is still open; a later reason only adds its candidates. */
  note: (e: number, reason: string, candidates?: readonly number[]) => void;
  /** `e` would be `s`, which another class already has: reported once per class. */
  alreadyMatched: (e: Entry<EmsClass>, s: Entry<ServiceClass>) => void;
}

export const quote = (names: readonly string[]): string => names.map((n) => `'${n}'`).join(', ');
export const exactName = (name: string): string => name.trim().toLowerCase();

function entries<T extends { name: string }>(items: readonly T[]): Entry<T>[] {
  return items.map((item, index) => {
    const parsed = parseClassName(item.name);
    return { item, index, parsed, key: classKeyOf(parsed, item.name), exact: exactName(item.name) };
  });
}

export function startMapping(emsClasses: readonly EmsClass[], serviceClasses: readonly ServiceClass[]): MappingState {
  const ems = entries(emsClasses);
  const service = entries(serviceClasses);
  const issues: Issue[] = [];
  const matchOf: (ClassMatch | undefined)[] = ems.map(() => undefined);
  const emsOf: (number | undefined)[] = service.map(() => undefined);
  const notes = new Map<number, Note>();

  const note = (e: number, reason: string, candidates: readonly number[] = []) => {
    const had = notes.get(e);
    if (had) had.candidates.push(...candidates.filter((c) => !had.candidates.includes(c)));
    else notes.set(e, { reason, candidates: [...candidates] });
  };
  return {
    ems,
    service,
    issues,
    matchOf,
    emsOf,
    notes,
    emsByKey: groupBy(
      ems.filter((e) => e.key !== ''),
      (e) => e.key,
    ),
    serviceByKey: groupBy(
      service.filter((s) => s.key !== ''),
      (s) => s.key,
    ),
    open: () => ems.filter((e) => matchOf[e.index] === undefined),
    free: () => service.filter((s) => emsOf[s.index] === undefined),
    map: (e, s, method, confidence, reason) => {
      matchOf[e] = { ems: ems[e]!.item, service: service[s]!.item, method, confidence: round2(confidence), reason };
      emsOf[s] = e;
    },
    note,
    alreadyMatched: (e, s) => {
      if (notes.has(e.index)) return;
      const other = ems[emsOf[s.index]!]!.item.name;
      issues.push({
        path: `emsClasses[${e.index}]`,
        code: 'class_already_matched',
        severity: 'warning',
        message: `'${e.item.name}' would be the service's '${s.item.name}', which is already matched to '${other}'`,
      });
      note(e.index, `service class '${s.item.name}' already matched to EMS class '${other}'`, [s.index]);
    },
  };
}

export function groupBy<T>(items: readonly T[], by: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const key = by(item);
    const group = out.get(key);
    if (group) group.push(item);
    else out.set(key, [item]);
  }
  return out;
}
