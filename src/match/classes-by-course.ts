/**
 * The course step of class mapping: an event system class and a service class whose courses are the same (same
 * controls, or failing those the same course name and length) are one class, whatever their names. Classes that share
 * a course are told apart by their names, or reported; names that disagree (`H21` on `D21`'s course) overrule it.
 */
import type { EmsClass, EmsCourse } from '../ems/source.js';
import { normaliseControlCode, punchedControlCodes } from '../iof/course-controls.js';
import type { Course, RaceCourseData } from '../iof/model.js';
import { classConflicts, classSimilarity } from './class-similarity.js';
import type { ParsedClassName } from './class-names.js';
import { CLASS_MATCHING, exactName, quote, type Entry, type MappingState, type ServiceClass } from './class-mapping.js';
import { round2 } from './round.js';
import { foldText } from '../core/fold.js';
import { COURSE_WORDS } from './class-conventions.js';

/** How strongly a course of each side is the same course: the higher the stronger. */
const Fit = { SameName: 1, SameNameAndLength: 2, SameControls: 3 } as const;
type Fit = (typeof Fit)[keyof typeof Fit];

interface CourseFit {
  fit: Fit;
  course: Course;
  /** Plain words: what is the same. */
  evidence: string;
}

// Course names are written with or without a course word: "Bana 5", "Course 5" and "5" are one course.
function courseName(name: string | undefined): string {
  return foldText(name ?? '')
    .split(' ')
    .filter((w) => w !== '' && !COURSE_WORDS.has(w))
    .join(' ');
}

/**
 * Each service class's courses (a relay or forked class has several), in the order of the assignments. Assignments
 * and courses are looked up by id and name, not scanned per class: an event may have 100,000 of each.
 */
function serviceCoursesByClass(data: RaceCourseData, service: readonly Entry<ServiceClass>[]): Course[][] {
  const byId = new Map<string, number[]>();
  const byName = new Map<string, number[]>();
  data.classAssignments.forEach((a, i) => {
    if (a.classId !== undefined) push(byId, a.classId.trim(), i);
    else push(byName, exactName(a.className ?? ''), i);
  });
  const courseNamed = new Map<string | undefined, Course>();
  for (const c of data.courses) if (!courseNamed.has(c.name)) courseNamed.set(c.name, c);
  return service.map((s) => {
    const out: Course[] = [];
    const mine = [...(byId.get(String(s.item.id)) ?? []), ...(byName.get(s.exact) ?? [])].sort((a, b) => a - b);
    for (const i of mine) {
      const course = courseNamed.get(data.classAssignments[i]!.courseName);
      if (course && !out.includes(course)) out.push(course);
    }
    return out;
  });
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function formatControls(codes: readonly string[]): string {
  const shown = codes.length <= 6 ? codes : [...codes.slice(0, 3), '…', ...codes.slice(-2)];
  return `${shown.join('-')}, ${codes.length} controls`;
}

/** A course's control codes as one map key. */
const controlsKey = (codes: readonly string[]) => codes.join('\u0000');

const km = (m: number) => `${round2(m / 1000)} km`;

function courseFit(ours: EmsCourse, theirs: Course, theirCodes: readonly string[]): CourseFit | undefined {
  const ourCodes = (ours.controls ?? []).map(normaliseControlCode);
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

/** Maps what the courses tell, among the classes the name steps left. */
export function matchByCourse(state: MappingState, data: RaceCourseData): void {
  const coursesOf = serviceCoursesByClass(data, state.service);
  if (state.service.length > 0 && coursesOf.every((c) => c.length === 0)) {
    state.issues.push({
      code: 'service_courses_unassigned',
      severity: 'info',
      message: "the service's course data assigns no course to any of its classes: classes were not compared by course",
    });
  }
  matchCourses(data, coursesOf, state);
}

function matchCourses(data: RaceCourseData, coursesOf: readonly Course[][], state: MappingState): void {
  const open = state.open().filter((e) => e.item.course !== undefined);
  const free = state.free().filter((s) => coursesOf[s.index]!.length > 0);
  if (open.length === 0 || free.length === 0) return;
  // Only pairs that can fit are compared: the free classes with a course of the same controls, or of the same name
  // (which a course without controls on either side is judged by). Comparing every pair took minutes at 100,000.
  const codesOf = new Map<Course, string[]>();
  const byControls = new Map<string, Entry<ServiceClass>[]>();
  const byCourseName = new Map<string, Entry<ServiceClass>[]>();
  for (const s of free) {
    for (const course of coursesOf[s.index]!) {
      const codes = punchedControlCodes(course, data);
      codesOf.set(course, codes);
      if (codes.length > 0) push(byControls, controlsKey(codes), s);
      const name = courseName(course.name);
      if (name !== '') push(byCourseName, name, s);
    }
  }
  const fits = new Map<string, CourseFit>();
  /** The free classes each open class fits (in the order of `free`), and the open classes each free class fits. */
  const fittingOf = new Map<number, Entry<ServiceClass>[]>();
  const fittedBy = new Map<number, Entry<EmsClass>[]>();
  for (const e of open) {
    const ours = e.item.course!;
    const ourCodes = (ours.controls ?? []).map(normaliseControlCode);
    const near = new Set([
      ...(ourCodes.length > 0 ? (byControls.get(controlsKey(ourCodes)) ?? []) : []),
      ...(byCourseName.get(courseName(ours.name)) ?? []),
    ]);
    const fitting: Entry<ServiceClass>[] = [];
    for (const s of [...near].sort((a, b) => a.index - b.index)) {
      let best: CourseFit | undefined;
      for (const course of coursesOf[s.index]!) {
        const fit = courseFit(ours, course, codesOf.get(course)!);
        if (fit && (!best || fit.fit > best.fit)) best = fit;
      }
      if (!best) continue;
      fits.set(`${e.index}:${s.index}`, best);
      fitting.push(s);
      push(fittedBy, s.index, e);
    }
    fittingOf.set(e.index, fitting);
  }
  const fitOf = (e: number, s: number) => fits.get(`${e}:${s}`);

  const proposals: { e: Entry<EmsClass>; s: Entry<ServiceClass>; fit: CourseFit; shared: string }[] = [];
  for (const e of open) {
    const fitting = fittingOf.get(e.index) ?? [];
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
        state.note(
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
        state.note(
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
    const rivals = (fittedBy.get(s.index) ?? []).filter((o) => o !== e && (fitOf(o.index, s.index)?.fit ?? 0) >= top);
    if (rivals.length > 0) {
      const { chosen } = singledOut([e, ...rivals], s.parsed);
      if (chosen !== e) {
        state.note(
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
    state.map(
      e.index,
      s.index,
      'course',
      confidence,
      `${ourCourse} here and the service's course '${fit.course.name}' of class '${s.item.name}' have ${fit.evidence}${shared}`,
    );
  }
}
