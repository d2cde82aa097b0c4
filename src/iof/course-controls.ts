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
