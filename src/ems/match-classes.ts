/**
 * Mapping an event system's classes to the service's classes of the same event. Pure: the caller hands in both lists
 * (and, when it has them, the service's courses).
 *
 * Steps, each only for the classes the earlier ones left: exact names (the event system's short name too), then
 * normalised names (`classKey`), then courses (same controls, or same course name and length), then similar names.
 * Every step maps only what it can tell apart: a key or course shared by several classes is reported, with the
 * candidates, rather than guessed; a service class is never given two event system classes.
 */
import { normaliseControlCode, punchedControlCodes } from '../iof/course-controls.js';
import type { EmsClass, EmsCourse } from './adapter.js';
import type { Issue } from '../errors.js';
import type { Course, RaceCourseData } from '../iof/model.js';
import {
  classConflicts,
  classSimilarity,
  describeClassName,
  classKeyOf,
  parseClassName,
  type ParsedClassName,
} from './class-names.js';
import { foldText } from './text.js';

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

export interface MatchClassesOptions {
  /**
   * The service's courses of the event, parsed: `courses` and `classAssignments` whose `classId` is the service class
   * id as a string (an assignment without `classId` counts for the service class of that exact `className`). Without
   * it the course step is skipped.
   */
  serviceCourses?: RaceCourseData;
  /** Least name similarity (0..1) for the last step. Default 0.75 (`CLASS_MATCHING.minSimilarity`). */
  minSimilarity?: number;
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

interface Entry<T> {
  item: T;
  index: number;
  parsed: ParsedClassName;
  key: string;
  /** Trimmed, lower case: what exact matching compares. */
  exact: string;
}

/** Why an event system class is still unmatched, and the service classes it might be. First reason wins. */
interface Note {
  reason: string;
  candidates: number[];
}

const round2 = (n: number) => Math.round(n * 100) / 100;
const quote = (names: readonly string[]) => names.map((n) => `'${n}'`).join(', ');
const exactName = (name: string) => name.trim().toLowerCase();

function entries<T extends { name: string }>(items: readonly T[]): Entry<T>[] {
  return items.map((item, index) => {
    const parsed = parseClassName(item.name);
    return { item, index, parsed, key: classKeyOf(parsed, item.name), exact: exactName(item.name) };
  });
}

/** Maps the event system's classes to the service's. See the module comment for the steps. */
export function matchClasses(
  emsClasses: readonly EmsClass[],
  serviceClasses: readonly ServiceClass[],
  options: MatchClassesOptions = {},
): ClassMapping {
  const minSimilarity = options.minSimilarity ?? CLASS_MATCHING.minSimilarity;
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
  const map = (e: number, s: number, method: ClassMatchMethod, confidence: number, reason: string) => {
    matchOf[e] = { ems: ems[e]!.item, service: service[s]!.item, method, confidence: round2(confidence), reason };
    emsOf[s] = e;
  };
  const open = () => ems.filter((e) => matchOf[e.index] === undefined);
  const free = () => service.filter((s) => emsOf[s.index] === undefined);
  const alreadyMatched = (e: Entry<EmsClass>, s: Entry<ServiceClass>) => {
    if (notes.has(e.index)) return;
    const other = ems[emsOf[s.index]!]!.item.name;
    issues.push({
      path: `emsClasses[${e.index}]`,
      code: 'class_already_matched',
      severity: 'warning',
      message: `'${e.item.name}' would be the service's '${s.item.name}', which is already matched to '${other}'`,
    });
    note(e.index, `service class '${s.item.name}' already matched to EMS class '${other}'`, [s.index]);
  };

  reportDuplicates(ems, 'emsClasses', 'the event system', issues);
  reportDuplicates(service, 'serviceClasses', 'the service', issues);

  // 1. Exact names, then the event system's short names against the service's names.
  const byExact = groupBy(service, (s) => s.exact);
  for (const by of ['name', 'shortName'] as const) {
    for (const e of open()) {
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
          alreadyMatched(e, s);
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

  // 2. Normalised names: one key on each side, or nothing.
  const emsByKey = groupBy(
    open().filter((e) => e.key !== ''),
    (e) => e.key,
  );
  const serviceByKey = groupBy(
    free().filter((s) => s.key !== ''),
    (s) => s.key,
  );
  for (const [key, es] of emsByKey) {
    const ss = serviceByKey.get(key) ?? [];
    const reads = describeClassName(es[0]!.parsed) || key;
    if (ss.length === 0) {
      const taken = service.find((s) => s.key === key && emsOf[s.index] !== undefined);
      if (taken) for (const e of es) alreadyMatched(e, taken);
      continue;
    }
    if (es.length === 1 && ss.length === 1) {
      const [e, s] = [es[0]!, ss[0]!];
      map(
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

  // 3. Courses.
  if (options.serviceCourses) {
    const coursesOf = serviceCoursesByClass(options.serviceCourses, service);
    if (service.length > 0 && coursesOf.every((c) => c.length === 0)) {
      issues.push({
        code: 'service_courses_unassigned',
        severity: 'info',
        message:
          "the service's course data assigns no course to any of its classes: classes were not compared by course",
      });
    }
    matchByCourse(options.serviceCourses, coursesOf, { open, free, map, note });
  }

  // 4. Similar names, only when clear on both sides.
  matchBySimilarity(open(), free(), minSimilarity, { map, note });

  // 5. Relay legs: an event system that keeps one class per leg (`H21 Leg 2`) against a service that keeps the relay
  // as one class (`H21`). The legs truly are that one class, the only case where several EMS classes share one.
  for (const e of open()) {
    const { leg, ...relay } = e.parsed;
    if (leg === undefined) continue;
    const relayKey = classKeyOf(relay, e.item.name);
    const relays = service.filter((s) => s.parsed.leg === undefined && s.key === relayKey && relayKey !== '');
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

  // 6. What is left.
  const unmatchedEms: UnmatchedEmsClass[] = [];
  const left = free();
  for (const e of open()) {
    const had = notes.get(e.index);
    const similar = left
      .map((s) => ({ s, similarity: classSimilarity(e.parsed, s.parsed) }))
      .filter((x) => x.similarity >= CLASS_MATCHING.candidateFloor)
      .sort((a, b) => b.similarity - a.similarity || a.s.index - b.s.index);
    const candidates = [...(had?.candidates ?? [])];
    for (const { s } of similar) if (!candidates.includes(s.index)) candidates.push(s.index);
    const reason =
      had?.reason ??
      (service.length === 0
        ? 'the service has no classes in this event'
        : left.length === 0
          ? 'every service class is already matched to another class'
          : similar[0]
            ? `no service class is clearly it: the nearest, '${similar[0].s.item.name}', is only ${round2(similar[0].similarity)} alike`
            : `no service class has this name or a similar one${options.serviceCourses && e.item.course ? ', or its course' : ''}`);
    unmatchedEms.push({
      ems: e.item,
      reason,
      candidates: candidates.slice(0, CLASS_MATCHING.maxCandidates).map((s) => service[s]!.item),
    });
  }

  return {
    matches: matchOf.filter((m): m is ClassMatch => m !== undefined),
    unmatchedEms,
    unmatchedService: left.map((s) => s.item),
    issues,
  };
}

function groupBy<T>(items: readonly T[], by: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const key = by(item);
    const group = out.get(key);
    if (group) group.push(item);
    else out.set(key, [item]);
  }
  return out;
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

// ---------------------------------------------------------------------------------------------------------------------
// Courses

interface Steps {
  open: () => Entry<EmsClass>[];
  free: () => Entry<ServiceClass>[];
  map: (e: number, s: number, method: ClassMatchMethod, confidence: number, reason: string) => void;
  note: (e: number, reason: string, candidates?: readonly number[]) => void;
}

/** How strongly a course of each side is the same course: the higher the stronger. */
const Fit = { SameName: 1, SameNameAndLength: 2, SameControls: 3 } as const;
type Fit = (typeof Fit)[keyof typeof Fit];

interface CourseFit {
  fit: Fit;
  course: Course;
  /** Plain words: what is the same. */
  evidence: string;
}

// Words course names are written with or without: "Bana 5", "Course 5" and "5" are one course.
const COURSE_WORDS = new Set('course bana bane rata bahn parcours circuit trat rada percorso'.split(' '));

function courseName(name: string | undefined): string {
  return foldText(name ?? '')
    .split(' ')
    .filter((w) => w !== '' && !COURSE_WORDS.has(w))
    .join(' ');
}

/** Each service class's courses (a relay or forked class has several). */
function serviceCoursesByClass(data: RaceCourseData, service: readonly Entry<ServiceClass>[]): Course[][] {
  return service.map((s) => {
    const out: Course[] = [];
    for (const a of data.classAssignments) {
      const mine =
        a.classId !== undefined ? a.classId.trim() === String(s.item.id) : exactName(a.className ?? '') === s.exact;
      if (!mine) continue;
      const course = data.courses.find((c) => c.name === a.courseName);
      if (course && !out.includes(course)) out.push(course);
    }
    return out;
  });
}

function formatControls(codes: readonly string[]): string {
  const shown = codes.length <= 6 ? codes : [...codes.slice(0, 3), '…', ...codes.slice(-2)];
  return `${shown.join('-')}, ${codes.length} controls`;
}

const km = (m: number) => `${round2(m / 1000)} km`;

function courseFit(ours: EmsCourse, theirs: Course, race: RaceCourseData): CourseFit | undefined {
  const ourCodes = (ours.controls ?? []).map(normaliseControlCode);
  const theirCodes = punchedControlCodes(theirs, race);
  if (ourCodes.length > 0 && theirCodes.length > 0) {
    // Both sides list the controls: they decide, whatever the names say.
    if (ourCodes.length !== theirCodes.length || ourCodes.some((c, i) => c !== theirCodes[i])) return undefined;
    return { fit: Fit.SameControls, course: theirs, evidence: `the same controls (${formatControls(ourCodes)})` };
  }
  const name = courseName(ours.name);
  if (name === '' || name !== courseName(theirs.name)) return undefined;
  if (ours.length !== undefined && theirs.length !== undefined && ours.length > 0 && theirs.length > 0) {
    const off = Math.abs(ours.length - theirs.length) / Math.max(ours.length, theirs.length);
    if (off > CLASS_MATCHING.lengthTolerance) return undefined;
    return {
      fit: Fit.SameNameAndLength,
      course: theirs,
      evidence: `the same course name and length (${km(ours.length)} here, ${km(theirs.length)} on the service)`,
    };
  }
  return { fit: Fit.SameName, course: theirs, evidence: 'the same course name (no length to compare)' };
}

const FIT_CONFIDENCE: Readonly<Record<Fit, number>> = {
  [Fit.SameControls]: CLASS_MATCHING.confidence.sameControls,
  [Fit.SameNameAndLength]: CLASS_MATCHING.confidence.sameNameAndLength,
  [Fit.SameName]: CLASS_MATCHING.confidence.sameName,
};

/** The one entry whose name is clearly nearest `to`, when there is one. */
function singledOut<T extends { parsed: ParsedClassName }>(
  among: readonly T[],
  to: ParsedClassName,
): { chosen?: T; ranked: T[] } {
  const scored = among
    .map((x) => ({ x, similarity: classConflicts(x.parsed, to).length > 0 ? 0 : classSimilarity(x.parsed, to) }))
    .sort((a, b) => b.similarity - a.similarity);
  const ranked = scored.map((s) => s.x);
  const [best, second] = scored;
  if (
    best &&
    best.similarity >= CLASS_MATCHING.courseNameFloor &&
    best.similarity - (second?.similarity ?? 0) >= CLASS_MATCHING.minLead
  ) {
    return { chosen: best.x, ranked };
  }
  return { ranked };
}

function matchByCourse(data: RaceCourseData, coursesOf: readonly Course[][], steps: Steps): void {
  const open = steps.open().filter((e) => e.item.course !== undefined);
  const free = steps.free().filter((s) => coursesOf[s.index]!.length > 0);
  if (open.length === 0 || free.length === 0) return;
  const fits = new Map<string, CourseFit>();
  for (const e of open) {
    for (const s of free) {
      let best: CourseFit | undefined;
      for (const course of coursesOf[s.index]!) {
        const fit = courseFit(e.item.course!, course, data);
        if (fit && (!best || fit.fit > best.fit)) best = fit;
      }
      if (best) fits.set(`${e.index}:${s.index}`, best);
    }
  }
  const fitOf = (e: number, s: number) => fits.get(`${e}:${s}`);

  const proposals: { e: Entry<EmsClass>; s: Entry<ServiceClass>; fit: CourseFit; shared: string }[] = [];
  for (const e of open) {
    const fitting = free.filter((s) => fitOf(e.index, s.index) !== undefined);
    if (fitting.length === 0) continue;
    const top = Math.max(...fitting.map((s) => fitOf(e.index, s.index)!.fit));
    const best = fitting.filter((s) => fitOf(e.index, s.index)!.fit === top);
    const evidence = fitOf(e.index, best[0]!.index)!.evidence;

    let s: Entry<ServiceClass>;
    let shared = '';
    if (best.length === 1) {
      s = best[0]!;
      const conflicts = classConflicts(e.parsed, s.parsed);
      if (conflicts.length > 0) {
        steps.note(
          e.index,
          `the service's '${s.item.name}' has ${evidence}, but the names disagree on ${conflicts.join(' and ')}`,
          [s.index],
        );
        continue;
      }
    } else {
      const { chosen, ranked } = singledOut(best, e.parsed);
      const names = quote(ranked.map((x) => x.item.name));
      if (!chosen) {
        steps.note(
          e.index,
          `service classes ${names} share a course with ${evidence}; the names do not tell which one this is`,
          ranked.map((x) => x.index),
        );
        continue;
      }
      s = chosen;
      shared = `; of the service classes on that course (${names}) the name fits '${s.item.name}' best`;
    }

    // The service class must not fit another of the event system's open classes as well.
    const rivals = open.filter((o) => o !== e && (fitOf(o.index, s.index)?.fit ?? 0) >= top);
    if (rivals.length > 0) {
      const { chosen } = singledOut([e, ...rivals], s.parsed);
      if (chosen !== e) {
        steps.note(
          e.index,
          `${quote([e, ...rivals].map((x) => x.item.name))} here share the course of the service's '${s.item.name}' ` +
            `(${evidence}); the names do not tell which one it is`,
          [s.index],
        );
        continue;
      }
      shared += `; of ${quote([e, ...rivals].map((x) => x.item.name))} here, which share that course, the name fits best`;
    }
    proposals.push({ e, s, fit: fitOf(e.index, s.index)!, shared });
  }

  const taken = new Set<number>();
  for (const { e, s, fit, shared } of proposals) {
    if (taken.has(s.index)) continue;
    taken.add(s.index);
    const ourCourse = e.item.course?.name ? `course '${e.item.course.name}'` : 'the course';
    const confidence = FIT_CONFIDENCE[fit.fit] - (shared === '' ? 0 : CLASS_MATCHING.confidence.sharedCourse);
    steps.map(
      e.index,
      s.index,
      'course',
      confidence,
      `${ourCourse} here and the service's course '${fit.course.name}' of class '${s.item.name}' have ${fit.evidence}${shared}`,
    );
  }
}

// ---------------------------------------------------------------------------------------------------------------------
// Similar names

function matchBySimilarity(
  open: readonly Entry<EmsClass>[],
  free: readonly Entry<ServiceClass>[],
  minSimilarity: number,
  steps: Pick<Steps, 'map' | 'note'>,
): void {
  if (open.length === 0 || free.length === 0) return;
  const similarity = open.map((e) => free.map((s) => classSimilarity(e.parsed, s.parsed)));
  const ranked = (values: readonly number[]) => values.map((v, i) => ({ v, i })).sort((a, b) => b.v - a.v || a.i - b.i);

  for (const [ei, e] of open.entries()) {
    const row = ranked(similarity[ei]!);
    const [best, second] = row;
    if (!best || best.v < minSimilarity) continue;
    const s = free[best.i]!;
    if (second && best.v - second.v < CLASS_MATCHING.minLead) {
      steps.note(
        e.index,
        `the service's '${s.item.name}' (${round2(best.v)}) and '${free[second.i]!.item.name}' (${round2(second.v)}) ` +
          'are about equally alike',
        row.filter((x) => best.v - x.v < CLASS_MATCHING.minLead).map((x) => free[x.i]!.index),
      );
      continue;
    }
    // The service class's side must be as clear: its nearest class here is this one, well ahead of the next.
    const [top, runnerUp] = ranked(open.map((_, i) => similarity[i]![best.i]!));
    const mine = top!.i === ei;
    if (!mine || (runnerUp && top!.v - runnerUp.v < CLASS_MATCHING.minLead)) {
      const other = open[mine ? runnerUp!.i : top!.i]!;
      steps.note(e.index, `the service's '${s.item.name}' is at least as alike '${other.item.name}' here`, [s.index]);
      continue;
    }
    const next =
      second && second.v > 0 ? `; the next nearest, '${free[second.i]!.item.name}', is ${round2(second.v)}` : '';
    steps.map(
      e.index,
      s.index,
      'similar',
      best.v * CLASS_MATCHING.confidence.similar,
      `named '${e.item.name}' here and '${s.item.name}' on the service, ${round2(best.v)} alike${next}`,
    );
  }
}
