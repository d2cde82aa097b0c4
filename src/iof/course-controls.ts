/**
 * The controls a runner punches on a course, as codes in order: what an event system's split times show and what two
 * course files must agree on. One definition for every side that compares courses, so that the two sides of a
 * comparison can never drop different things.
 */
import type { Course, RaceCourseData } from './model.js';

/** SPORTident and Emit codes are numbers: some exports pad them (`031`), some do not. */
export function normaliseControlCode(code: string): string {
  return code.trim().replace(/^0+(?=\d)/, '');
}

/**
 * Codes of the course's controls in order, without start, finish or crossing points: by the course control's own
 * type, and by the race's control list, because course files may list start and finish as plain course controls.
 */
export function punchedControlCodes(course: Course, race?: RaceCourseData): string[] {
  const notPunched = new Set((race?.controls ?? []).filter((c) => c.type !== 'Control').map((c) => c.id));
  return course.controls
    .filter((c) => c.type === 'Control' && !notPunched.has(c.controlId))
    .map((c) => normaliseControlCode(c.controlId));
}

/**
 * The race with its control codes written one way (`031` as `31`), so that a file from a system that pads codes and
 * one from a system that does not compare control by control. Left as it is when two of its codes would become one.
 */
export function withNormalisedControlCodes(race: RaceCourseData): RaceCourseData {
  const codes = new Set(race.controls.map((c) => normaliseControlCode(c.id)));
  if (codes.size !== race.controls.length) return race;
  return withControlCodes(race, normaliseControlCode);
}

/** The race with every control code, in its controls and its courses alike, written as `code` says. */
export function withControlCodes(race: RaceCourseData, code: (id: string) => string): RaceCourseData {
  return {
    ...race,
    controls: race.controls.map((c) => ({ ...c, id: code(c.id) })),
    courses: race.courses.map((course) => ({
      ...course,
      controls: course.controls.map((cc) => ({ ...cc, controlId: code(cc.controlId) })),
    })),
  };
}
