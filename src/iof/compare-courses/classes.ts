/**
 * Class assignments on the two sides: classes are matched by `classKey` of their name (assignments by class id alone
 * cannot be matched across systems), and the courses each class runs by course name, a course family standing for
 * each of its courses.
 */
import type { ClassCourseAssignment, Course, RaceCourseData } from '../model.js';
import { foldName } from './courses.js';
import { note, orList, type Out, type Settings } from './report.js';

interface ClassCourses {
  name: string;
  /** Course key -> the course's name as this side writes it. */
  courses: Map<string, string>;
}

/** Class key -> the courses the class runs on one side; assignments by class id alone cannot be matched by name. */
function classCourses(race: RaceCourseData, classKey: (name: string) => string): Map<string, ClassCourses> {
  const out = new Map<string, ClassCourses>();
  for (const a of race.classAssignments) {
    if (a.className === undefined || a.className.trim() === '') continue;
    const key = classKey(a.className);
    let entry = out.get(key);
    if (entry === undefined) {
      entry = { name: a.className, courses: new Map() };
      out.set(key, entry);
    }
    for (const name of assignedCourses(a, race.courses)) entry.courses.set(foldName(name), name);
  }
  return out;
}

/** A whole course family assigned to a class means each course of the family. */
function assignedCourses(a: ClassCourseAssignment, courses: readonly Course[]): string[] {
  if (a.courseName !== '') return [a.courseName];
  if (a.courseFamily === undefined) return [];
  const family = courses.filter((c) => c.courseFamily === a.courseFamily).map((c) => c.name);
  return family.length > 0 ? family : [a.courseFamily];
}

export function compareClasses(organiser: RaceCourseData, service: RaceCourseData, settings: Settings, out: Out): void {
  if (organiser.classAssignments.length === 0) {
    note(
      out,
      'classes_not_compared',
      "The organiser's file assigns no classes to courses, so class assignments were not compared.",
    );
    return;
  }
  const org = classCourses(organiser, settings.classKey);
  if (org.size === 0) {
    note(
      out,
      'classes_not_compared',
      "The organiser's file names its classes by id only, so class assignments could not be matched by name and " +
        'were not compared.',
    );
    return;
  }
  const svc = classCourses(service, settings.classKey);
  const names = (c: ClassCourses): string[] => [...c.courses.values()];
  const sameCourses = (a: ClassCourses, b: ClassCourses): boolean =>
    a.courses.size === b.courses.size && [...a.courses.keys()].every((k) => b.courses.has(k));

  for (const [key, o] of org) {
    const s = svc.get(key);
    if (s === undefined) {
      out.findings.push({
        kind: 'class_missing_on_service',
        class: o.name,
        message: `Class ${o.name} runs ${orList(names(o))} in the organiser's file but has no course on the service.`,
        organiser: names(o),
      });
    } else if (!sameCourses(o, s)) {
      out.findings.push({
        kind: 'class_course_changed',
        class: o.name,
        message: `Class ${o.name} runs ${orList(names(o))} in the organiser's file but ${orList(names(s))} on the service.`,
        organiser: names(o),
        service: names(s),
      });
    }
  }
  for (const [key, s] of svc) {
    if (org.has(key)) continue;
    out.findings.push({
      kind: 'class_missing_in_organiser',
      class: s.name,
      message: `Class ${s.name} runs ${orList(names(s))} on the service but has no course in the organiser's file.`,
      service: names(s),
    });
  }
}
