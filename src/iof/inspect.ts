/**
 * What a file is and holds, at a glance: the model behind `livelox-bridge inspect`. Encoding, IOF version and message
 * type for every file; event and classes for every message type; courses, controls and lint findings for course
 * data. Pure: bytes in, summary out.
 */
import { isDegrees, unprojectCourseData } from './course-projection.js';
import { getProjection, type ProjectedPoint } from '../geo/projection.js';
import { parseCourseData } from './read-course-data.js';
import { readEventAndClasses } from './event-classes/read.js';
import { identifyIof } from './identify.js';
import { lintCourseData, type LintIssue, type LintOptions } from './lint.js';
import type {
  ControlType,
  CourseData,
  EventInfo,
  GeoPosition,
  IofMessageType,
  IofVersion,
  MapPosition,
  RaceInfo,
} from './model.js';
import type { XmlEncoding } from '../xml/decode.js';
import { compact } from '../core/compact.js';

export interface InspectOptions {
  /**
   * A grid to show control positions in as well (EPSG code or proj4 definition). When every position in the file is
   * not degrees, they are taken to be in this grid instead, converted to degrees, and linted as such: how
   * `position_not_degrees` findings are checked and fixed. Default: degrees only.
   */
  epsg?: number | string;
  /** Passed to `lintCourseData`. */
  lint?: LintOptions;
  /** Cancels reading a large list; the promise rejects with the signal's reason. */
  signal?: AbortSignal;
}

export interface InspectClass {
  id?: string;
  name: string;
  shortName?: string;
  /** Names of the courses (or course families) the class runs; empty when the file does not say. */
  courses: string[];
  /** Persons or teams entered, started or placed in the class in this file; 0 in class lists and course data. */
  entries: number;
  /** Relay legs, when the file says. */
  legs?: number;
}

export interface InspectCourse {
  /** 0-based index of the race in the file. */
  race: number;
  name: string;
  family?: string;
  /** Metres. */
  length?: number;
  /** Metres. */
  climb?: number;
  /** Controls of type `Control` on the course (start and finish not counted). */
  controls: number;
  /** The course's sequence of control codes, start and finish included. */
  sequence: string[];
}

export interface InspectControl {
  race: number;
  id: string;
  type: ControlType;
  /** In degrees, unless the file has grid values there (see `InspectSummary.positions`). */
  position?: GeoPosition;
  /** With `epsg`: the position in that grid, easting and northing. */
  projected?: ProjectedPoint;
  mapPosition?: MapPosition;
}

export interface InspectSummary {
  /** The name the file was inspected under. */
  source: string;
  bytes: number;
  encoding: XmlEncoding;
  bom: boolean;
  version: IofVersion;
  /** `CourseData`, `ResultList`, `StartList`, ... (2.0.3 roots by their 3.0 name: `ClassData` is a `ClassList`). */
  messageType: IofMessageType;
  /** Whether the root element is in the IOF 3.0 namespace (OCAD 11 and IOF 2.0.3 files have none). */
  namespace: boolean;
  /** Course data only: the program that wrote the file, and when. */
  creator?: string;
  createTime?: string;
  event?: EventInfo;
  /** The event's races (stages), when the file lists them. */
  races: RaceInfo[];
  classes: InspectClass[];
  /** Course data only (empty otherwise). */
  courses: InspectCourse[];
  /** Course data only (empty otherwise). */
  controls: InspectControl[];
  /** The grid of `InspectControl.projected`, when asked for. */
  projection?: { epsg?: number; name: string };
  /**
   * `degrees` when the file's positions are latitude/longitude; `grid` when they are not and no `epsg` was given to
   * read them (lint says which grid they fit); `converted` when they were read as `epsg` grid values and converted.
   */
  positions?: 'degrees' | 'grid' | 'converted' | 'none';
  /** Counts of what the file holds: `races`, `classes`, `persons`, `teams`, and for course data `courses`, `controls`. */
  counts: Record<string, number>;
  /** Lint findings (course data only). */
  issues: LintIssue[];
}

/**
 * Summarises an IOF XML file of any message type: identification for all, event and classes (read as a stream, so
 * a large result list stays in bounded memory), and for course data its courses, controls and lint findings.
 * Throws `InputError`: `not_iof` (naming what the file is instead), `empty`, `not_well_formed` (with line and
 * column), or any reason of `identifyIof`, `readEventAndClasses` and `parseCourseData`. Throws `ValidationError` for
 * an `epsg` that `getProjection` does not know.
 */
export async function inspectIof(
  bytes: Uint8Array,
  source = 'input',
  options: InspectOptions = {},
): Promise<InspectSummary> {
  const projection = options.epsg === undefined ? undefined : getProjection(options.epsg);
  const id = identifyIof(bytes, source);
  const summary: InspectSummary = {
    source,
    bytes: bytes.byteLength,
    encoding: id.encoding,
    bom: id.bom,
    version: id.version,
    messageType: id.messageType,
    namespace: id.namespace,
    races: [],
    classes: [],
    courses: [],
    controls: [],
    counts: {},
    issues: [],
  };
  if (projection) {
    summary.projection =
      projection.epsg === undefined ? { name: projection.name } : { epsg: projection.epsg, name: projection.name };
  }
  if (id.messageType !== 'CourseData') {
    const read = await readEventAndClasses(bytes, {
      source,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    if (read.event !== undefined) summary.event = read.event;
    summary.races = read.races;
    summary.classes = read.classes.map((c) =>
      compact({
        id: c.id,
        name: c.name,
        shortName: c.shortName,
        courses: c.courseNames ?? c.courseIds ?? [],
        entries: c.entries,
        legs: c.legs,
      }),
    );
    summary.counts = { races: read.races.length, classes: read.classes.length, ...read.counts };
    return summary;
  }

  let data = parseCourseData(bytes, source);
  const all = data.races.flatMap((r) => r.controls.flatMap((c) => (c.position ? [c.position] : [])));
  summary.positions = all.length === 0 ? 'none' : all.every(isDegrees) ? 'degrees' : 'grid';
  if (options.epsg !== undefined && all.length > 0 && all.every((p) => !isDegrees(p))) {
    data = unprojectCourseData(data, options.epsg);
    summary.positions = 'converted';
  }
  fillFromCourseData(summary, data);
  summary.issues = lintCourseData(data, options.lint);
  if (projection) {
    for (const c of summary.controls) {
      if (c.position === undefined || !isDegrees(c.position)) continue;
      try {
        c.projected = projection.forward(c.position);
      } catch {
        // Outside the projection's domain: the control is shown without grid values.
      }
    }
  }
  return summary;
}

function fillFromCourseData(summary: InspectSummary, data: CourseData): void {
  if (data.creator !== undefined) summary.creator = data.creator;
  if (data.createTime !== undefined) summary.createTime = data.createTime;
  const e = data.event;
  // 2.0.3 course data has no event at all: its empty placeholder is not shown.
  if (data.iofVersion === '3.0') summary.event = { ...e, organisers: [...e.organisers] };
  const classes = new Map<string, InspectClass>();
  data.races.forEach((race, r) => {
    for (const a of race.classAssignments) {
      const name = a.className ?? '';
      const key = `${a.classId ?? ''}\u0000${name}`;
      let cls = classes.get(key);
      if (!cls) {
        cls = compact({ id: a.classId, name, courses: [] as string[], entries: 0 });
        classes.set(key, cls);
      }
      // A class may run a whole course family (a relay's forking): shown by the family's name.
      const course = a.courseName !== '' ? a.courseName : `${a.courseFamily ?? ''} (family)`;
      if (!cls.courses.includes(course)) cls.courses.push(course);
      const legs = Math.max(0, ...(a.allowedOnLegs ?? []));
      if (legs > (cls.legs ?? 0)) cls.legs = legs;
    }
    for (const c of race.courses) {
      summary.courses.push(
        compact({
          race: r,
          name: c.name,
          family: c.courseFamily,
          length: c.length,
          climb: c.climb,
          controls: c.numberOfControls ?? c.controls.filter((x) => x.type === 'Control').length,
          sequence: c.controls.map((x) => x.controlId),
        }),
      );
    }
    for (const c of race.controls) {
      summary.controls.push(
        compact({ race: r, id: c.id, type: c.type, position: c.position, mapPosition: c.mapPosition }),
      );
    }
  });
  summary.classes = [...classes.values()];
  summary.counts = {
    races: data.races.length,
    classes: summary.classes.length,
    courses: summary.courses.length,
    controls: summary.controls.length,
  };
}

/* ------------------------------------------------------------------------------------------------------ helpers */
