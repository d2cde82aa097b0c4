/**
 * Checks on course data that the schema cannot make and organisers trip on: coordinates that are not degrees, courses
 * naming controls that do not exist, classes on unknown courses, leg lengths the positions contradict, duplicates,
 * times the service would read in its own time zone. Every finding says where it is and what to do about it; what grid
 * coordinates that are not degrees are is worked out in `explain-grid.ts`.
 */
import { plural } from '../core/plural.js';
import type { Hint, Issue } from '../errors.js';
import { isDegrees } from './course-projection.js';
import { explainNotDegrees } from './explain-grid.js';
import { distanceM } from '../geo/distance.js';
import type { Control, Course, CourseData, GeoPosition, RaceCourseData } from './model.js';

export type LintSeverity = NonNullable<Issue['severity']>;

/** A lint finding: always graded. */
export type LintIssue = Issue & { path: string; severity: LintSeverity };

export type LintCode =
  | 'position_not_degrees'
  | 'undefined_control'
  | 'course_without_controls'
  | 'unknown_course'
  | 'leg_length_mismatch'
  | 'course_length_mismatch'
  | 'duplicate_control_id'
  | 'duplicate_course_name'
  | 'duplicate_class_assignment'
  | 'time_without_offset'
  | 'no_positions'
  | 'map_position_unit';

/** The grade of each code: `error` means the service would place or assign something wrongly, or not at all. */
export const LINT_SEVERITY: Readonly<Record<LintCode, LintSeverity>> = {
  position_not_degrees: 'error',
  undefined_control: 'error',
  course_without_controls: 'error',
  unknown_course: 'error',
  duplicate_control_id: 'error',
  duplicate_course_name: 'error',
  leg_length_mismatch: 'warning',
  course_length_mismatch: 'warning',
  duplicate_class_assignment: 'warning',
  // Event times; a createTime without offset is only `info` (see lintTimes).
  time_without_offset: 'warning',
  no_positions: 'warning',
  map_position_unit: 'info',
};

export interface LintOptions {
  /**
   * Metres a given leg length may differ from the distance between the controls' positions, on top of
   * `legToleranceRatio` of that distance. Default 25: course-setting programs round legs and measure from the
   * circle's centre, a hand-measured leg is rarely better than this.
   */
  legToleranceM?: number;
  /** Share of the measured distance a leg length may differ by, on top of `legToleranceM`. Default 0.1 (10 %). */
  legToleranceRatio?: number;
  /**
   * Metres a course's given length may differ from the sum of its legs, on top of `courseToleranceRatio`. Default 50.
   * Looser than a leg: lengths are often rounded to 50 or 100 m, and some programs leave out the leg to the triangle.
   */
  courseToleranceM?: number;
  /** Share of the sum of the legs a course's length may differ by, on top of `courseToleranceM`. Default 0.15. */
  courseToleranceRatio?: number;
}

/** At most this many ids or places are named in one message; the rest are counted. */
const LIST_MAX = 5;

/**
 * Lints parsed course data (`parseCourseData`). Returns the findings in document order (event and times first, then
 * each race), each with a `path` into the model (`races[0].controls[3]`, `races[0].courses[1].controls[4]`), a `code`
 * (`LintCode`), a `severity` (`LINT_SEVERITY`) and a message that says what to do. An empty list means nothing was
 * found. Pure: reads nothing but `data`.
 */
export function lintCourseData(data: CourseData, options: LintOptions = {}): LintIssue[] {
  const tolerances = {
    legM: options.legToleranceM ?? 25,
    legRatio: options.legToleranceRatio ?? 0.1,
    courseM: options.courseToleranceM ?? 50,
    courseRatio: options.courseToleranceRatio ?? 0.15,
  };
  const issues: LintIssue[] = [];
  const add: Add = (path, code, message, severity = LINT_SEVERITY[code], hint) => {
    issues.push({ path, code, severity, message, ...(hint === undefined ? {} : { hint }) });
  };
  lintTimes(data, add);
  data.races.forEach((race, r) => lintRace(race, `races[${r}]`, tolerances, add));
  return issues;
}

type Add = (path: string, code: LintCode, message: string, severity?: LintSeverity, hint?: Hint) => void;

interface Tolerances {
  legM: number;
  legRatio: number;
  courseM: number;
  courseRatio: number;
}

/* ------------------------------------------------------------------------------------------------------- times */

// A time of day with an offset (Z or ±hh:mm) at its end.
const TIME_WITH_OFFSET = /T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/;

function lintTimes(data: CourseData, add: Add): void {
  const fix =
    data.iofVersion === '2.0.3'
      ? 'IOF 2.0.3 cannot carry an offset: export IOF XML 3.0 if the program can.'
      : 'Write it with its offset (such as {value}+01:00) or in UTC (Z); most course-setting programs have a setting for this.';
  const check = (path: string, what: string, value: string | undefined, severity: LintSeverity): void => {
    // A date alone names a day, which is not ambiguous the way a time of day is.
    if (value === undefined || !value.includes('T') || TIME_WITH_OFFSET.test(value)) return;
    add(
      path,
      'time_without_offset',
      `${what} "${value}" has no time zone offset, so a service in another time zone may read it hours off. ` +
        fix.replace('{value}', value),
      severity,
    );
  };
  check('event.start', 'the event start', data.event.start, 'warning');
  check('event.end', 'the event end', data.event.end, 'warning');
  // Only when the file was made, which nothing is scheduled by.
  check('createTime', 'the creation time', data.createTime, 'info');
}

/* -------------------------------------------------------------------------------------------------------- race */

function lintRace(race: RaceCourseData, path: string, tolerances: Tolerances, add: Add): void {
  const byId = new Map<string, Control>();
  race.controls.forEach((control, c) => {
    if (byId.has(control.id)) {
      const first = race.controls.findIndex((x) => x.id === control.id);
      add(
        `${path}.controls[${c}]`,
        'duplicate_control_id',
        `control ${control.id} is defined more than once (also ${path}.controls[${first}]); courses naming it are ` +
          `ambiguous. Give each control its own code in the course-setting program.`,
      );
      return;
    }
    byId.set(control.id, control);
  });

  const usable = lintPositions(race, path, add);
  lintMapPositionUnits(race, path, add);

  const courseNames = new Map<string, number>();
  const families = new Set<string>();
  race.courses.forEach((course, i) => {
    const coursePath = `${path}.courses[${i}]`;
    const earlier = courseNames.get(course.name);
    if (earlier !== undefined) {
      add(
        coursePath,
        'duplicate_course_name',
        `course "${course.name}" has the same name as ${path}.courses[${earlier}]; classes and routes are matched to ` +
          `courses by name, so one of them would be lost. Rename one of them.`,
      );
    } else {
      courseNames.set(course.name, i);
    }
    if (course.courseFamily !== undefined) families.add(course.courseFamily);
    lintCourse(course, coursePath, race.controls.length > 0 ? byId : undefined, usable, tolerances, add);
  });

  lintAssignments(race, path, courseNames, families, add);
}

/** Positions the distance checks may use: degrees only; none at all when the race's positions are not degrees. */
type UsablePositions = ReadonlyMap<string, GeoPosition>;

function lintPositions(race: RaceCourseData, path: string, add: Add): UsablePositions {
  const usable = new Map<string, GeoPosition>();
  if (race.controls.length === 0) {
    if (race.courses.length > 0) {
      add(
        `${path}.controls`,
        'no_positions',
        'the race defines no controls, only course sequences of codes, so the service cannot place the controls ' +
          'on the map. Export the course data with the controls included.',
      );
    }
    return usable;
  }

  const notDegrees: Array<{ index: number; control: Control; position: GeoPosition }> = [];
  const missing: number[] = [];
  let zeros = 0;
  race.controls.forEach((control, index) => {
    const p = control.position;
    // 0°, 0° is in the sea off Africa: what some programs write for a map without georeference.
    const zero = p !== undefined && p.lat === 0 && p.lng === 0;
    if (zero) zeros++;
    if (p === undefined || zero) missing.push(index);
    else if (!isDegrees(p)) notDegrees.push({ index, control, position: p });
    else usable.set(control.id, p);
  });

  if (notDegrees.length > 0) {
    const where = notDegrees.length === 1 ? `${path}.controls[${notDegrees[0]!.index}]` : `${path}.controls`;
    const ids = names(notDegrees.map((n) => n.control.id));
    const first = notDegrees[0]!.position;
    const what =
      notDegrees.length === race.controls.length
        ? `no control position is in degrees (control ${notDegrees[0]!.control.id} has lat ${first.lat}, lng ${first.lng})`
        : `${notDegrees.length} of ${race.controls.length} control positions are not in degrees (${ids}; control ` +
          `${notDegrees[0]!.control.id} has lat ${first.lat}, lng ${first.lng})`;
    const why = explainNotDegrees(notDegrees.map((n) => n.position));
    add(where, 'position_not_degrees', `${what}. ${why.text}`, undefined, why.hint);
    // Distances between grid values and degrees mean nothing: leave every distance check out for this race.
    usable.clear();
  }

  if (missing.length === race.controls.length) {
    add(
      `${path}.controls`,
      'no_positions',
      `no control has a geographic position (${zeros > 0 ? 'only 0°, 0°' : 'only map positions'}), so the ` +
        'service cannot place the controls on the ' +
        'map. Georeference the map in the course-setting program (give it its coordinate system) and export the ' +
        'course data again.',
    );
  } else if (missing.length > 0) {
    add(
      missing.length === 1 ? `${path}.controls[${missing[0]}]` : `${path}.controls`,
      'no_positions',
      `${plural(missing.length, 'control')} ${missing.length === 1 ? 'has' : 'have'} no geographic position` +
        `${zeros > 0 ? ' (or 0°, 0°)' : ''} ` +
        `(${names(missing.map((i) => race.controls[i]!.id))}), so the service cannot place ` +
        `${missing.length === 1 ? 'it' : 'them'}. Give ${missing.length === 1 ? 'it a position' : 'them positions'} ` +
        'in the course-setting program and export again.',
    );
  }
  return usable;
}

function lintMapPositionUnits(race: RaceCourseData, path: string, add: Add): void {
  const px = race.controls.filter((c) => c.mapPosition?.unit === 'px');
  const maps = race.maps.filter((m) => m.mapPositionTopLeft?.unit === 'px' || m.mapPositionBottomRight?.unit === 'px');
  if (px.length === 0 && maps.length === 0) return;
  const parts = [
    px.length > 0 ? `${plural(px.length, 'control map position')} (${names(px.map((c) => c.id))})` : undefined,
    maps.length > 0 ? `${plural(maps.length, 'map corner')}` : undefined,
  ].filter((s): s is string => s !== undefined);
  add(
    px.length === 1 && maps.length === 0 ? `${path}.controls[${race.controls.indexOf(px[0]!)}]` : path,
    'map_position_unit',
    `${parts.join(' and ')} ${px.length + maps.length === 1 ? 'is' : 'are'} in pixels, where course-setting ` +
      'programs usually write millimetres on the printed map; they depend on the scan resolution. This only ' +
      'matters to software placing controls by map position.',
  );
}

/* ----------------------------------------------------------------------------------------------------- courses */

function lintCourse(
  course: Course,
  path: string,
  byId: ReadonlyMap<string, Control> | undefined,
  usable: UsablePositions,
  tolerances: Tolerances,
  add: Add,
): void {
  const sequence = course.controls;
  const controlCount = sequence.filter((cc) => cc.type === 'Control').length;
  if (sequence.length < 3 || controlCount === 0) {
    const has =
      sequence.length === 0
        ? 'has no controls'
        : `has only ${sequence.map((cc) => `${cc.controlId} (${cc.type})`).join(', ')}`;
    add(
      `${path}.controls`,
      'course_without_controls',
      `course "${course.name}" ${has}; a course needs a start, at least one control and a finish. Add its controls ` +
        'in the course-setting program, or leave the course out of the export.',
    );
  }

  if (byId !== undefined) {
    const reported = new Set<string>();
    sequence.forEach((cc, i) => {
      if (byId.has(cc.controlId) || reported.has(cc.controlId)) return;
      reported.add(cc.controlId);
      add(
        `${path}.controls[${i}]`,
        'undefined_control',
        `course "${course.name}" uses control ${cc.controlId === '' ? '(no code)' : cc.controlId}, which the race ` +
          'does not define, so it has no position. Define the control, or fix the code in the course.',
      );
    });
  }

  // Legs: given lengths against the positions, then the course length against the legs.
  const legs: Array<number | undefined> = [];
  const mismatches: Array<{ index: number; text: string; given: number; measured: number }> = [];
  sequence.forEach((cc, i) => {
    if (i === 0) return;
    const from = usable.get(sequence[i - 1]!.controlId);
    const to = usable.get(cc.controlId);
    const measured = from && to ? distanceM(from, to) : undefined;
    legs.push(cc.legLength ?? measured);
    if (cc.legLength === undefined || measured === undefined) return;
    if (Math.abs(cc.legLength - measured) <= tolerances.legM + tolerances.legRatio * measured) return;
    mismatches.push({
      index: i,
      text: `${sequence[i - 1]!.controlId} → ${cc.controlId}`,
      given: cc.legLength,
      measured,
    });
  });
  if (mismatches.length > 0 && mismatches.length <= 2) {
    for (const m of mismatches) {
      add(
        `${path}.controls[${m.index}]`,
        'leg_length_mismatch',
        `course "${course.name}": the leg ${m.text} is given as ${metres(m.given)}, but the controls' positions are ` +
          `${metres(m.measured)} apart. One of the two controls is probably misplaced, or the leg length is stale: ` +
          'check them on the map.',
      );
    }
  } else if (mismatches.length > 2) {
    // Many legs off at once is one problem (the lengths were not measured between these positions), not many.
    const listed = names(
      mismatches.map((m) => `${m.text}: ${metres(m.given)} given, ${metres(m.measured)} apart`),
      '; ',
    );
    add(
      `${path}.controls`,
      'leg_length_mismatch',
      `course "${course.name}": ${mismatches.length} of ${legs.length} leg lengths disagree with the controls' ` +
        `positions (${listed}). The leg lengths were probably not measured between these positions, or the ` +
        'positions are wrong: check the controls on the map.',
    );
  }
  if (course.length === undefined || legs.length === 0 || legs.some((l) => l === undefined)) return;
  // A leg length given on the first entry is the way from the time start to the start triangle: part of the course.
  const sum = (sequence[0]?.legLength ?? 0) + legs.reduce<number>((s, l) => s + (l ?? 0), 0);
  const allowed = tolerances.courseM + tolerances.courseRatio * sum;
  if (Math.abs(course.length - sum) <= allowed) return;
  add(
    `${path}.length`,
    'course_length_mismatch',
    `course "${course.name}" is given as ${metres(course.length)} long, but its legs add up to ${metres(sum)}. ` +
      'Check the course length in the course-setting program (some include a marked route, some do not).',
  );
}

function lintAssignments(
  race: RaceCourseData,
  path: string,
  courses: ReadonlyMap<string, number>,
  families: ReadonlySet<string>,
  add: Add,
): void {
  const seen = new Map<string, number>();
  race.classAssignments.forEach((a, i) => {
    const at = `${path}.classAssignments[${i}]`;
    const cls =
      a.className !== undefined ? `"${a.className}"` : a.classId === undefined ? '(unnamed)' : `id ${a.classId}`;
    const familyOnly = a.courseName === '';
    if (familyOnly ? !families.has(a.courseFamily ?? '') : !courses.has(a.courseName)) {
      const target = familyOnly ? `course family "${a.courseFamily ?? ''}"` : `course "${a.courseName}"`;
      const known = familyOnly ? [...families] : [...courses.keys()];
      add(
        at,
        'unknown_course',
        `class ${cls} is assigned to ${target}, which this race does not have` +
          `${known.length > 0 ? ` (it has ${names(known.map((n) => `"${n}"`))})` : ''}. Fix the class's course ` +
          'in the course-setting program.',
      );
    }
    const key = JSON.stringify([
      a.classId ?? null,
      a.className ?? null,
      a.courseName,
      a.courseFamily ?? null,
      a.allowedOnLegs ?? null,
    ]);
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      add(
        at,
        'duplicate_class_assignment',
        `class ${cls} is assigned to ${familyOnly ? `course family "${a.courseFamily ?? ''}"` : `course "${a.courseName}"`} ` +
          `twice (also ${path}.classAssignments[${earlier}]). Harmless, but remove one to keep the file clear.`,
      );
    } else {
      seen.set(key, i);
    }
  });
}

/* ----------------------------------------------------------------------------------------------------- helpers */

function names(items: readonly string[], separator = ', '): string {
  if (items.length <= LIST_MAX) return items.join(separator);
  return `${items.slice(0, LIST_MAX).join(separator)} and ${items.length - LIST_MAX} more`;
}

function metres(m: number): string {
  return `${Math.round(m)} m`;
}
