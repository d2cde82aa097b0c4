/**
 * The courses of one event of a dataset file: a race taken from an IOF XML CourseData file, or controls and courses
 * written inline. Problems go into the caller's issue list with their path instead of throwing, so that a file with
 * several broken events is reported in one go.
 */
import { readInputFile } from '../../core/files.js';
import { InputError, type Issue } from '../../errors.js';
import { distanceM } from '../../geo/distance.js';
import { parseCourseData } from '../../iof/read-course-data.js';
import type { Control, ControlType, Course, CourseControl, CourseData, RaceCourseData } from '../../iof/model.js';
import { issueAt as issue, type PathPart } from '../../core/issues.js';
import type { CoursesEntry } from './file-schema.js';

/** Map scale of inline courses when the file gives none. */
export const DEFAULT_MAP_SCALE = 10_000;

// ---------------------------------------------------------------------------------------------------------------------
// Course files

export interface LoadedCourseFile {
  path: string;
  data?: CourseData;
  error?: string;
}

/** Largest course file read: IOF CourseData of a large multi-day event is a few MiB; it is parsed whole. */
export const MAX_COURSE_FILE_BYTES = 64 * 1024 * 1024;

export async function readCourseFile(path: string): Promise<LoadedCourseFile> {
  let bytes: Uint8Array;
  try {
    // A regular file under the limit only: a course file named `/dev/zero` or a FIFO must not grow or stall the
    // simulator that loads the dataset.
    bytes = await readInputFile(path, { what: 'the course file', maxBytes: MAX_COURSE_FILE_BYTES });
  } catch (err) {
    if (err instanceof InputError) return { path, error: err.message };
    throw err;
  }
  try {
    return { path, data: parseCourseData(bytes, path) };
  } catch (err) {
    if (err instanceof InputError) return { path, error: err.message };
    throw err;
  }
}

/** Degrees, not the projected metres some old course setters write into `Position`. */
function isDegrees(p: { lat: number; lng: number } | undefined): boolean {
  return p !== undefined && Math.abs(p.lat) <= 90 && Math.abs(p.lng) <= 180;
}

/** The race of a course file an event uses, after checks that make it usable as simulator courses. */
export function raceFromFile(
  file: LoadedCourseFile,
  entry: CoursesEntry,
  at: PathPart[],
  issues: Issue[],
): RaceCourseData | undefined {
  if (file.error !== undefined || file.data === undefined) {
    issues.push(issue([...at, 'iofXml'], 'unreadable_course_file', file.error ?? `cannot read ${file.path}`));
    return undefined;
  }
  const races = file.data.races;
  // Races are found by their RaceNumber, or by position when the file does not number them.
  const race =
    entry.raceNumber === undefined
      ? races[0]
      : (races.find((r) => r.raceNumber === entry.raceNumber) ??
        (races.some((r) => r.raceNumber !== undefined) ? undefined : races[entry.raceNumber - 1]));
  if (race === undefined) {
    issues.push(
      entry.raceNumber === undefined
        ? issue([...at, 'iofXml'], 'no_courses', `${file.path} holds no race with courses`)
        : issue(
            [...at, 'raceNumber'],
            'no_such_race',
            `${file.path} holds ${races.length} race(s), not race ${entry.raceNumber}`,
          ),
    );
    return undefined;
  }
  if (race.courses.length === 0) {
    issues.push(issue([...at, 'iofXml'], 'no_courses', `${file.path} holds no courses`));
    return undefined;
  }
  const defined = new Map(race.controls.map((c) => [c.id, c]));
  for (const control of race.controls) {
    if (!isDegrees(control.position)) {
      issues.push(
        issue(
          [...at, 'iofXml'],
          'no_geographic_position',
          `control ${control.id} in ${file.path} has no WGS84 position in degrees; the simulator places courses by ` +
            'latitude and longitude, so export the courses georeferenced',
        ),
      );
      return undefined;
    }
  }
  for (const course of race.courses) {
    for (const cc of course.controls) {
      if (!defined.has(cc.controlId)) {
        issues.push(
          issue(
            [...at, 'iofXml'],
            'unknown_control',
            `course ${course.name} in ${file.path} names control ${cc.controlId}, which the file does not define`,
          ),
        );
        return undefined;
      }
    }
  }
  // Each event gets its own copy: several events may use one file, and assignments are rewritten per event.
  return structuredClone(race);
}
// ---------------------------------------------------------------------------------------------------------------------
// Inline courses

/** `S`, `S1` start; `F`, `F1` finish; everything else a control: what course setters write. */
function defaultControlType(id: string): ControlType {
  if (/^S\d*$/i.test(id)) return 'Start';
  if (/^F\d*$/i.test(id)) return 'Finish';
  return 'Control';
}

export function inlineRace(entry: CoursesEntry, at: PathPart[], issues: Issue[]): RaceCourseData | undefined {
  const controls: Control[] = [];
  const byId = new Map<string, Control>();
  (entry.controls ?? []).forEach((c, i) => {
    if (byId.has(c.id)) {
      issues.push(
        issue([...at, 'controls', i, 'id'], 'duplicate_id', `control ${c.id} is defined twice in this event`),
      );
      return;
    }
    const control: Control = {
      id: c.id,
      type: c.type ?? defaultControlType(c.id),
      position: { lat: c.lat, lng: c.lng },
    };
    byId.set(c.id, control);
    controls.push(control);
  });
  const courses: Course[] = [];
  const names = new Set<string>();
  (entry.courses ?? []).forEach((c, i) => {
    if (names.has(c.name)) {
      issues.push(
        issue([...at, 'courses', i, 'name'], 'duplicate_name', `course ${c.name} is defined twice in this event`),
      );
      return;
    }
    names.add(c.name);
    const courseControls: CourseControl[] = [];
    let previous: Control | undefined;
    let length = 0;
    c.controls.forEach((id, j) => {
      const control = byId.get(id);
      if (control === undefined) {
        issues.push(
          issue(
            [...at, 'courses', i, 'controls', j],
            'unknown_control',
            `control ${id} is not among this event's controls`,
          ),
        );
        return;
      }
      const cc: CourseControl = { controlId: id, type: control.type };
      if (previous?.position && control.position) {
        cc.legLength = Math.round(distanceM(previous.position, control.position));
        length += cc.legLength;
      }
      courseControls.push(cc);
      previous = control;
    });
    const course: Course = {
      name: c.name,
      length: c.length ?? length,
      numberOfControls: courseControls.filter((cc) => cc.type === 'Control').length,
      controls: courseControls,
    };
    if (c.climb !== undefined) course.climb = c.climb;
    courses.push(course);
  });
  return { maps: [{ scale: entry.mapScale ?? DEFAULT_MAP_SCALE }], controls, courses, classAssignments: [] };
}
