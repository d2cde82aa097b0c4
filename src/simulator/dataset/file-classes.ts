/**
 * The classes of one event of a dataset file and the courses each runs: as written, or made from the course file's
 * class assignments, or one class per course, so that a file with only courses still gives a usable event. Class
 * names match case-insensitively, as organisers write them inconsistently.
 */
import type { ClassCourseAssignment, RaceCourseData } from '../../iof/model.js';
import type { PathPart } from '../../core/issues.js';
import type { EventEntry } from './file-schema.js';

export interface ClassDraft {
  id?: number;
  name: string;
  shortName?: string;
  /** Explicit course names from the file, with their path for error messages. */
  courses?: string[];
  path: PathPart[];
}

export function normalName(name: string): string {
  return name.trim().toLowerCase();
}

/** The event's classes: as written, or made from the course file's assignments, or one per course. */
export function classDrafts(
  event: EventEntry,
  race: RaceCourseData | undefined,
  fileAssignments: readonly ClassCourseAssignment[],
  at: PathPart[],
): ClassDraft[] {
  if (event.classes !== undefined) {
    return event.classes.map((c, i) => {
      const draft: ClassDraft = { name: c.name, path: [...at, 'classes', i] };
      if (c.id !== undefined) draft.id = c.id;
      if (c.shortName !== undefined) draft.shortName = c.shortName;
      if (c.courses !== undefined) draft.courses = c.courses;
      return draft;
    });
  }
  if (race === undefined) return [];
  const named = new Map<string, ClassDraft>();
  for (const a of fileAssignments) {
    const name = a.className?.trim();
    if (name && !named.has(normalName(name))) named.set(normalName(name), { name, path: [...at, 'courses', 'iofXml'] });
  }
  if (named.size > 0) return [...named.values()];
  return race.courses.map((c) => ({ name: c.name, path: [...at, 'courses'] }));
}

/** Assignments for one class: its explicit courses, else the course file's, else a course named like the class. */
export function assignmentsFor(
  draft: ClassDraft,
  classId: number,
  race: RaceCourseData,
  fileAssignments: readonly ClassCourseAssignment[],
): ClassCourseAssignment[] {
  const base = { classId: String(classId), className: draft.name };
  if (draft.courses !== undefined) return draft.courses.map((courseName) => ({ ...base, courseName }));
  const fromFile = fileAssignments.filter(
    (a) => a.className !== undefined && normalName(a.className) === normalName(draft.name),
  );
  if (fromFile.length > 0) {
    const out: ClassCourseAssignment[] = [];
    for (const a of fromFile) {
      // A whole course family (`courseName` empty) becomes one assignment per course of the family.
      const names =
        a.courseName === '' && a.courseFamily !== undefined
          ? race.courses.filter((c) => c.courseFamily === a.courseFamily).map((c) => c.name)
          : [a.courseName];
      for (const courseName of names) {
        const assignment: ClassCourseAssignment = { ...base, courseName };
        if (a.allowedOnLegs !== undefined) assignment.allowedOnLegs = [...a.allowedOnLegs];
        out.push(assignment);
      }
    }
    return out;
  }
  const sameName = race.courses.find((c) => normalName(c.name) === normalName(draft.name));
  return sameName ? [{ ...base, courseName: sameName.name }] : [];
}
