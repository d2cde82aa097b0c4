/**
 * What differs between two versions of one race's courses: the organiser's course file and what the service holds.
 * Pure: it reads nothing but the two races it is handed, and answers with data (findings and notes), never text on a
 * terminal.
 *
 * How things are matched, so that a finding always means the same thing:
 * - Controls by code, exactly as written (`031` is not `31`). Only controls some course uses, on either side, are
 *   compared: course-setting programs export spare controls that no course visits, and whether the service keeps
 *   those is of no consequence to anyone's route.
 * - Start and finish points by code too; when one side has exactly one start (finish) the other side lacks and the
 *   other side has exactly one the first lacks, they are taken as the same point under two codes (`S` and `S1`), said
 *   in a note, and compared by position.
 * - Courses by name, ignoring case and white space (`Brown 1` is `brown1`).
 * - Classes by `classKey` of their name (default: ignoring case and white space), and the courses they run by course
 *   name as above.
 */
import { plural } from '../core/plural.js';
import { withNormalisedControlCodes } from './course-controls.js';
import { guessProjections, isDegrees } from '../geo/course-projection.js';
import { distanceM } from '../geo/distance.js';
import { getProjection, type Projection } from '../geo/projection.js';
import type { ClassCourseAssignment, Control, ControlType, Course, RaceCourseData } from './model.js';

export type CourseFindingKind =
  | 'invalid_file'
  | 'course_missing_on_service'
  | 'course_missing_in_organiser'
  | 'control_missing_on_service'
  | 'control_missing_in_organiser'
  | 'control_moved'
  | 'sequence_changed'
  | 'length_changed'
  | 'climb_changed'
  | 'class_missing_on_service'
  | 'class_missing_in_organiser'
  | 'class_course_changed';

/** Every kind in the order reports list them: files, then courses, controls, sequences, numbers, classes. */
export const COURSE_FINDING_KINDS: readonly CourseFindingKind[] = [
  'invalid_file',
  'course_missing_on_service',
  'course_missing_in_organiser',
  'control_missing_on_service',
  'control_missing_in_organiser',
  'control_moved',
  'sequence_changed',
  'length_changed',
  'climb_changed',
  'class_missing_on_service',
  'class_missing_in_organiser',
  'class_course_changed',
];

export interface Position {
  lat: number;
  lng: number;
}

/**
 * A value as one side has it: a position as its file writes it (degrees, or easting in `lng` and northing in `lat`),
 * a sequence of control codes, course names, metres, or a text.
 */
export type FindingValue = number | string | readonly string[] | Position;

/** One difference, in plain words (`message`) and as data. */
export interface CourseFinding {
  kind: CourseFindingKind;
  /** The course's name as the organiser's file writes it (the service's when only it has the course). */
  course?: string;
  /** The control's code as the organiser's file writes it (the service's when only it has the control). */
  control?: string;
  /** The class's name as the organiser's file writes it (the service's when only it has the class). */
  class?: string;
  /** `invalid_file`: which document. */
  file?: 'organiser' | 'service';
  message: string;
  organiser?: FindingValue;
  service?: FindingValue;
  /** `control_moved`: metres between the two positions, to 0.1 m. */
  distanceM?: number;
  /** The tolerance the difference went beyond: metres (moved controls, lengths, climbs). */
  toleranceM?: number;
  /** `sequence_changed`: the first place in the sequences (1-based, the start is 1) where they differ. */
  position?: number;
}

export type CompareNoteCode =
  | 'start_code_differs'
  | 'finish_code_differs'
  | 'no_controls'
  | 'no_positions'
  | 'positions_not_degrees'
  | 'organiser_epsg_ignored'
  | 'positions_not_compared'
  | 'duplicate_course_name'
  | 'service_has_no_courses'
  | 'classes_not_compared';

/** Something the comparison could not do, or did in a way worth knowing: not a difference, but never left unsaid. */
export interface CompareNote {
  code: CompareNoteCode;
  message: string;
}

export interface CompareCoursesOptions {
  /** Metres a control may be apart on the two sides before it counts as moved. Default 10. */
  toleranceM?: number;
  /** Metres a course length may differ by; the larger of this and `lengthToleranceRatio` applies. Default 10. */
  lengthToleranceM?: number;
  /** Share of the organiser's course length it may differ by (0.01 is 1 %). Default 0.01. */
  lengthToleranceRatio?: number;
  /** Metres a course climb may differ by. Default 5. */
  climbToleranceM?: number;
  /**
   * The key classes are matched by, so that names written differently on the two sides (`H21E`, `M21E`) can meet.
   * Default `foldName`: case and white space ignored.
   */
  classKey?: (name: string) => string;
  /**
   * The grid the service's positions are in (the `projectionEpsgCode` asked for: easting in `lng`, northing in
   * `lat`): an EPSG code or a proj4 definition. Distances are then measured in it, in metres. Default: the service's
   * positions are WGS 84 degrees, and distances are great-circle metres.
   */
  serviceProjection?: number | string;
  /**
   * The grid the organiser's positions are in when they are not degrees (old Condes files write British National
   * Grid metres into `Position`): an EPSG code or a proj4 definition. Default: the organiser's positions are degrees.
   */
  organiserProjection?: number | string;
}

export interface CourseComparison {
  /** No finding: the two races agree within the tolerances. */
  same: boolean;
  /** Where control distances were measured: `WGS 84` or the service's grid (`EPSG:27700`). */
  comparedIn: string;
  /** Whether any control's position was compared (false: no positions, or not in a known system; see `notes`). */
  positionsCompared: boolean;
  findings: CourseFinding[];
  notes: CompareNote[];
}

/*
 * Why these defaults. The two sides are meant to be the same data, so any difference is an edit, a re-export or a
 * re-georeferenced map; the tolerances only have to absorb what re-exporting does on its own:
 * - 10 m for a control: rounding of coordinates and of the georeference moves controls by a few metres; a control
 *   that was really moved in the forest (or placed on the wrong feature) is off by more than that, and 10 m is 1 mm
 *   on a 1:10 000 map, well inside the printed circle.
 * - max(10 m, 1 %) for a length: programs round lengths (to 10 m, or 50 m), and a course recomputed from positions
 *   that moved a few metres changes by a few metres per leg; a changed leg or an added control changes it by more.
 * - 5 m for a climb: climbs are stated in 5 m steps; more than one step is a real change.
 */
const DEFAULT_TOLERANCE_M = 10;
const DEFAULT_LENGTH_TOLERANCE_M = 10;
const DEFAULT_LENGTH_TOLERANCE_RATIO = 0.01;
const DEFAULT_CLIMB_TOLERANCE_M = 5;

/** At most this many codes are named in one note; the rest are counted. */
const LIST_MAX = 8;

/** The default key for course and class names: case and white space do not count (`Brown 1` is `brown1`). */
export function foldName(name: string): string {
  return name.normalize('NFC').replace(/\s+/g, '').toLowerCase();
}

/**
 * Compares the organiser's race with the service's. Findings come grouped by kind, in the order of
 * `COURSE_FINDING_KINDS`, each group in the organiser's order. Throws `ValidationError` only for a projection
 * `getProjection` does not know (`serviceProjection`, `organiserProjection`).
 */
export function compareCourses(
  organiserRace: RaceCourseData,
  serviceRace: RaceCourseData,
  options: CompareCoursesOptions = {},
): CourseComparison {
  // One system pads control codes (`031`), another does not: that is not a moved or missing control.
  const organiser = withNormalisedControlCodes(organiserRace);
  const service = withNormalisedControlCodes(serviceRace);
  const settings: Settings = {
    toleranceM: options.toleranceM ?? DEFAULT_TOLERANCE_M,
    lengthToleranceM: options.lengthToleranceM ?? DEFAULT_LENGTH_TOLERANCE_M,
    lengthToleranceRatio: options.lengthToleranceRatio ?? DEFAULT_LENGTH_TOLERANCE_RATIO,
    climbToleranceM: options.climbToleranceM ?? DEFAULT_CLIMB_TOLERANCE_M,
    classKey: options.classKey ?? foldName,
    serviceProjection: options.serviceProjection === undefined ? undefined : getProjection(options.serviceProjection),
    organiserProjection:
      options.organiserProjection === undefined ? undefined : getProjection(options.organiserProjection),
  };
  const findings: CourseFinding[] = [];
  const notes: CompareNote[] = [];
  const out: Out = { findings, notes };

  if (service.courses.length === 0 && organiser.courses.length > 0) {
    note(
      out,
      'service_has_no_courses',
      'The service has no courses for this event: they may not be uploaded yet, or not public yet (the service ' +
        'does not show courses before the event is published).',
    );
  }

  const alias = pairStartsAndFinishes(organiser, service, out);
  const svcId = (id: string): string => alias.get(id) ?? id;
  const svcCourses = service.courses.map((c) => ({
    ...c,
    controls: c.controls.map((cc) => ({ ...cc, controlId: svcId(cc.controlId) })),
  }));
  const svcControls = service.controls.map((c) => ({ ...c, id: svcId(c.id) }));

  const positionsCompared = compareControls(organiser, svcControls, svcCourses, settings, out);
  compareCourseLists(organiser.courses, svcCourses, settings, out);
  compareClasses(organiser, service, settings, out);

  const rank = (k: CourseFindingKind): number => COURSE_FINDING_KINDS.indexOf(k);
  // A stable sort keeps each group in the order it was found: the organiser's order.
  findings.sort((a, b) => rank(a.kind) - rank(b.kind));
  return {
    same: findings.length === 0,
    comparedIn: frameName(settings.serviceProjection),
    positionsCompared,
    findings,
    notes,
  };
}

interface Settings {
  toleranceM: number;
  lengthToleranceM: number;
  lengthToleranceRatio: number;
  climbToleranceM: number;
  classKey: (name: string) => string;
  serviceProjection: Projection | undefined;
  organiserProjection: Projection | undefined;
}

interface Out {
  findings: CourseFinding[];
  notes: CompareNote[];
}

function note(out: Out, code: CompareNoteCode, message: string): void {
  out.notes.push({ code, message });
}

function frameName(projection: Projection | undefined): string {
  if (projection === undefined) return 'WGS 84';
  return projection.epsg === undefined ? projection.name : `EPSG:${projection.epsg} (${projection.name})`;
}

/* --------------------------------------------------------------------------------------------- start and finish */

/** Service code -> organiser code for a start or finish that only its code tells apart. */
function pairStartsAndFinishes(organiser: RaceCourseData, service: RaceCourseData, out: Out): Map<string, string> {
  const alias = new Map<string, string>();
  const orgIds = new Set(organiser.controls.map((c) => c.id));
  const svcIds = new Set(service.controls.map((c) => c.id));
  const pairs: Array<[ControlType, CompareNoteCode, string]> = [
    ['Start', 'start_code_differs', 'start'],
    ['Finish', 'finish_code_differs', 'finish'],
  ];
  for (const [type, code, word] of pairs) {
    const orgOnly = organiser.controls.filter((c) => c.type === type && !svcIds.has(c.id));
    const svcOnly = service.controls.filter((c) => c.type === type && !orgIds.has(c.id));
    if (orgOnly.length !== 1 || svcOnly.length !== 1) continue;
    const o = orgOnly[0]!;
    const s = svcOnly[0]!;
    alias.set(s.id, o.id);
    note(
      out,
      code,
      `The ${word} is ${o.id} in the organiser's file and ${s.id} on the service: taken as the same ${word}, ` +
        'as it is the only one each side has under a code the other side lacks.',
    );
  }
  return alias;
}

/* ----------------------------------------------------------------------------------------------------- controls */

type Side = 'organiser' | 'service';

const SIDE_WORDS: Readonly<Record<Side, string>> = { organiser: "the organiser's file", service: 'the service' };

/** A position put into the frame distances are measured in, or why it cannot be. */
type Placer = (p: Position) => Position | string;

function usedIds(courses: readonly Course[]): Set<string> {
  return new Set(courses.flatMap((c) => c.controls.map((cc) => cc.controlId)));
}

function byId(controls: readonly Control[]): Map<string, Control> {
  const map = new Map<string, Control>();
  for (const c of controls) if (!map.has(c.id)) map.set(c.id, c);
  return map;
}

/** 0°, 0° is what some programs write for a map without georeference: no position at all. */
function hasPosition(c: Control): c is Control & { position: Position } {
  return c.position !== undefined && !(c.position.lat === 0 && c.position.lng === 0);
}

function compareControls(
  organiser: RaceCourseData,
  svcControls: readonly Control[],
  svcCourses: readonly Course[],
  settings: Settings,
  out: Out,
): boolean {
  // Without courses on one side every control would be "missing" there: the missing courses already say it all.
  if (svcCourses.length === 0 || organiser.courses.length === 0) return false;
  if (organiser.controls.length === 0) {
    note(
      out,
      'no_controls',
      "The organiser's file defines no controls, only the courses' sequences of codes: controls were not compared. " +
        'Export the course data with the controls included.',
    );
    return false;
  }
  if (svcControls.length === 0) {
    note(out, 'no_controls', 'The service sent no control definitions: controls were not compared.');
    return false;
  }

  const orgUsed = usedIds(organiser.courses);
  const svcUsed = usedIds(svcCourses);
  const orgDefs = byId(organiser.controls);
  const svcDefs = byId(svcControls);

  // Codes in the organiser's order, then the ones only the service has, in its order.
  const codes = [...new Set([...organiser.controls.map((c) => c.id), ...svcControls.map((c) => c.id)])].filter(
    (id) => orgUsed.has(id) || svcUsed.has(id),
  );

  const pairs: Array<{ code: string; o: Control; s: Control }> = [];
  for (const code of codes) {
    const o = orgDefs.get(code);
    const s = svcDefs.get(code);
    if (o !== undefined && s === undefined && orgUsed.has(code)) {
      out.findings.push({
        kind: 'control_missing_on_service',
        control: code,
        message: `Control ${code} is in the organiser's file (on ${coursesUsing(organiser.courses, code)}) but not on the service.`,
      });
    } else if (s !== undefined && o === undefined && svcUsed.has(code)) {
      out.findings.push({
        kind: 'control_missing_in_organiser',
        control: code,
        message: `Control ${code} is on the service (on ${coursesUsing(svcCourses, code)}) but not in the organiser's file.`,
      });
    } else if (o !== undefined && s !== undefined) {
      pairs.push({ code, o, s });
    }
  }

  const orgPlacer = organiserPlacer(organiser.controls, settings, out);
  if (orgPlacer === undefined) return false;
  const svcPlacer = servicePlacer(settings);
  const distance = settings.serviceProjection === undefined ? distanceM : planeDistance;

  const skipped: string[] = [];
  let compared = 0;
  for (const { code, o, s } of pairs) {
    if (!hasPosition(o) || !hasPosition(s)) {
      skipped.push(`${code} (no position ${hasPosition(o) ? 'on the service' : "in the organiser's file"})`);
      continue;
    }
    const a = orgPlacer(o.position);
    const b = svcPlacer(s.position);
    if (typeof a === 'string') {
      skipped.push(`${code} (${a})`);
      continue;
    }
    if (typeof b === 'string') {
      skipped.push(`${code} (${b})`);
      continue;
    }
    compared++;
    const d = distance(a, b);
    if (d > settings.toleranceM) {
      out.findings.push({
        kind: 'control_moved',
        control: code,
        message:
          `Control ${code} is ${Math.round(d)} m from where the organiser's file puts it ` +
          `(tolerance ${settings.toleranceM} m).`,
        organiser: { lat: o.position.lat, lng: o.position.lng },
        service: { lat: s.position.lat, lng: s.position.lng },
        distanceM: Math.round(d * 10) / 10,
        toleranceM: settings.toleranceM,
      });
    }
  }
  if (skipped.length > 0) {
    note(
      out,
      'positions_not_compared',
      `The positions of ${plural(skipped.length, 'control')} were not compared: ${list(skipped)}.`,
    );
  }
  return compared > 0;
}

/** `Brown and Blue`, the courses of one side that visit `code`. */
function coursesUsing(courses: readonly Course[], code: string): string {
  const names = courses.filter((c) => c.controls.some((cc) => cc.controlId === code)).map((c) => c.name);
  return names.length === 1 ? names[0]! : `${list(names)}`;
}

function planeDistance(a: Position, b: Position): number {
  return Math.hypot(a.lng - b.lng, a.lat - b.lat);
}

/**
 * How the organiser's positions reach the frame, after looking at all of them: `undefined` (with a note) when none
 * can be compared at all, so that a file without positions or in an unknown grid is said once, not once per control.
 */
function organiserPlacer(controls: readonly Control[], settings: Settings, out: Out): Placer | undefined {
  const placed = controls.filter(hasPosition);
  if (placed.length === 0) {
    note(
      out,
      'no_positions',
      "The organiser's file gives no geographic positions (only map positions, or none), so control positions " +
        'were not compared; codes, sequences, lengths, climbs and classes were. Georeference the map in the ' +
        'course-setting program and export again to compare positions too.',
    );
    return undefined;
  }
  let grid = settings.organiserProjection;
  if (grid !== undefined && placed.every((c) => isDegrees(c.position))) {
    note(
      out,
      'organiser_epsg_ignored',
      `The organiser's positions are already latitude and longitude, so they were not read as ${frameName(grid)}.`,
    );
    grid = undefined;
  }
  if (grid === undefined) {
    const notDegrees = placed.filter((c) => !isDegrees(c.position));
    if (notDegrees.length * 2 > placed.length) {
      note(out, 'positions_not_degrees', notDegreesMessage(notDegrees.map((c) => c.position)));
      return undefined;
    }
  }
  const target = settings.serviceProjection;
  return (p) => {
    try {
      let degrees: Position = p;
      if (grid !== undefined) {
        // The same grid on both sides: no detour through degrees, which would only add rounding.
        if (target !== undefined && target.definition === grid.definition) return p;
        degrees = grid.inverse({ easting: p.lng, northing: p.lat });
        if (!isDegrees(degrees)) return `not a position in ${frameName(grid)}`;
      } else if (!isDegrees(p)) {
        return "the organiser's position is not in degrees";
      }
      if (target === undefined) return degrees;
      const { easting, northing } = target.forward(degrees);
      return { lat: northing, lng: easting };
    } catch {
      return `cannot be placed in ${frameName(target ?? grid)}`;
    }
  };
}

function servicePlacer(settings: Settings): Placer {
  if (settings.serviceProjection !== undefined) return (p) => p;
  return (p) => (isDegrees(p) ? p : "the service's position is not in degrees");
}

function notDegreesMessage(positions: readonly Position[]): string {
  const first = positions[0]!;
  const guesses = guessProjections(positions);
  const best = guesses[0];
  const fit =
    best === undefined
      ? 'They fit no grid this tool knows; give the grid with --organiser-epsg N (an EPSG code or a proj4 definition).'
      : `They fit ${best.family ?? `${best.name} (EPSG:${best.epsg})`}: if that is the map's grid, run again with ` +
        `--organiser-epsg ${best.family === undefined ? best.epsg : "and the map's zone"}.`;
  return (
    `The organiser's positions are not latitude and longitude (lat ${first.lat}, lng ${first.lng}): they look like ` +
    `grid metres, so control positions were not compared. ${fit} Or export the course data in WGS 84.`
  );
}

/* ------------------------------------------------------------------------------------------------------ courses */

interface Keyed<T> {
  map: Map<string, T>;
  /** Names that appear more than once on the side (after folding). */
  duplicates: string[];
}

function keyed<T>(items: readonly T[], name: (t: T) => string, key: (n: string) => string): Keyed<T> {
  const map = new Map<string, T>();
  const duplicates: string[] = [];
  for (const item of items) {
    const k = key(name(item));
    if (map.has(k)) duplicates.push(name(item));
    else map.set(k, item);
  }
  return { map, duplicates };
}

function compareCourseLists(
  orgCourses: readonly Course[],
  svcCourses: readonly Course[],
  settings: Settings,
  out: Out,
) {
  const org = keyed(orgCourses, (c) => c.name, foldName);
  const svc = keyed(svcCourses, (c) => c.name, foldName);
  for (const [side, k] of [
    ['organiser', org],
    ['service', svc],
  ] as const) {
    if (k.duplicates.length > 0) {
      note(
        out,
        'duplicate_course_name',
        `${capital(SIDE_WORDS[side])} has more than one course named ${list(k.duplicates)} (ignoring case and ` +
          'spaces): only the first of each was compared.',
      );
    }
  }

  for (const [key, o] of org.map) {
    const s = svc.map.get(key);
    if (s === undefined) {
      out.findings.push({
        kind: 'course_missing_on_service',
        course: o.name,
        message: `Course ${o.name} is in the organiser's file but not on the service.`,
      });
      continue;
    }
    compareSequences(o, s, out);
    compareNumber(
      o,
      s,
      'length',
      out,
      Math.max(settings.lengthToleranceM, settings.lengthToleranceRatio * (o.length ?? 0)),
    );
    compareNumber(o, s, 'climb', out, settings.climbToleranceM);
  }
  for (const [key, s] of svc.map) {
    if (org.map.has(key)) continue;
    out.findings.push({
      kind: 'course_missing_in_organiser',
      course: s.name,
      message: `Course ${s.name} is on the service but not in the organiser's file.`,
    });
  }
}

function compareSequences(o: Course, s: Course, out: Out): void {
  const a = o.controls.map((c) => c.controlId);
  const b = s.controls.map((c) => c.controlId);
  const length = Math.max(a.length, b.length);
  let i = 0;
  while (i < length && a[i] === b[i]) i++;
  if (i === length) return;
  const here = (x: string | undefined, whose: string): string =>
    x === undefined ? `${whose} course ends before it` : `${whose} has ${x}`;
  out.findings.push({
    kind: 'sequence_changed',
    course: o.name,
    message:
      `Course ${o.name}: the controls differ from the ${ordinal(i + 1)} on (${here(a[i], "the organiser's file")}, ` +
      `${here(b[i], 'the service')}). Organiser: ${a.join('-')}; service: ${b.join('-')}.`,
    organiser: a,
    service: b,
    position: i + 1,
  });
}

function compareNumber(o: Course, s: Course, what: 'length' | 'climb', out: Out, toleranceM: number): void {
  const a = o[what];
  const b = s[what];
  // A value only the service has is not a difference: the service may work out a length the file left out.
  if (a === undefined) return;
  const kind = what === 'length' ? 'length_changed' : 'climb_changed';
  const tolerance = Math.round(toleranceM * 10) / 10;
  if (b === undefined) {
    out.findings.push({
      kind,
      course: o.name,
      message: `Course ${o.name} has a ${what} of ${metres(a)} in the organiser's file but none on the service.`,
      organiser: a,
      toleranceM: tolerance,
    });
    return;
  }
  const diff = b - a;
  if (Math.abs(diff) <= toleranceM) return;
  out.findings.push({
    kind,
    course: o.name,
    message:
      `Course ${o.name} has a ${what} of ${metres(a)} in the organiser's file and ${metres(b)} on the service ` +
      `(${metres(Math.abs(diff))} ${diff > 0 ? 'more' : 'less'}; tolerance ${metres(tolerance)}).`,
    organiser: a,
    service: b,
    toleranceM: tolerance,
  });
}

/* ------------------------------------------------------------------------------------------------------ classes */

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

function compareClasses(organiser: RaceCourseData, service: RaceCourseData, settings: Settings, out: Out): void {
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

/* ------------------------------------------------------------------------------------------------------- words */

function metres(n: number): string {
  return `${Math.round(n * 10) / 10} m`;
}

function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

/** `a, b and 3 more`: at most LIST_MAX items named. */
function list(items: readonly string[]): string {
  const shown = items.slice(0, LIST_MAX);
  const more = items.length - shown.length;
  if (more > 0) return `${shown.join(', ')} and ${more} more`;
  if (shown.length <= 1) return shown.join('');
  return `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]!}`;
}

/** Courses a class runs: one, or several (forked courses) that it runs one of. */
function orList(items: readonly string[]): string {
  if (items.length === 0) return 'no course';
  if (items.length === 1) return items[0]!;
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]!}`;
}
