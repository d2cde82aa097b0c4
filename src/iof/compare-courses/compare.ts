/**
 * What differs between two versions of one race's courses: the organiser's course file and what the service holds.
 * Pure: it reads nothing but the two races it is handed, and answers with data (findings and notes), never text on a
 * terminal. This file is the entry point and its types; each step of the comparison has its own file: start and finish
 * pairing and control positions (`controls.ts`), courses (`courses.ts`), classes (`classes.ts`), and what they share
 * (`report.ts`).
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
import { getProjection } from '../../geo/projection.js';
import { withNormalisedControlCodes } from '../course-controls.js';
import type { RaceCourseData } from '../model.js';
import { compareClasses } from './classes.js';
import { compareControls, frameName, pairStartsAndFinishes } from './controls.js';
import { compareCourseLists, foldName } from './courses.js';
import { note, type Out, type Settings } from './report.js';
import {
  COURSE_FINDING_KINDS,
  type CompareCoursesOptions,
  type CompareNote,
  type CourseComparison,
  type CourseFinding,
  type CourseFindingKind,
  type CompareVerdict,
  type PositionCheck,
} from './types.js';

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

  const positions = compareControls(organiser, svcControls, svcCourses, settings, out);
  compareCourseLists(organiser.courses, svcCourses, settings, out);
  compareClasses(organiser, service, settings, out);

  const rank = (k: CourseFindingKind): number => COURSE_FINDING_KINDS.indexOf(k);
  // A stable sort keeps each group in the order it was found: the organiser's order.
  findings.sort((a, b) => rank(a.kind) - rank(b.kind));
  const verdict = comparisonVerdict(findings.length, positions);
  return {
    same: verdict === 'same',
    verdict,
    positions,
    comparedIn: frameName(settings.serviceProjection),
    positionsCompared: positions.controls > 0,
    findings,
    notes,
    ...(out.georeference === undefined ? {} : { georeference: out.georeference }),
  };
}

/**
 * Findings decide first; without any, "the same" is said only when every control position was compared, since a file
 * whose positions could not be read would otherwise pass for one that matches.
 */
export function comparisonVerdict(findings: number, positions: PositionCheck): CompareVerdict {
  if (findings > 0) return 'different';
  return positions.status === 'compared' ? 'same' : 'not_compared';
}

export { COURSE_FINDING_KINDS } from './types.js';
export type {
  CourseFindingKind,
  Position,
  FindingValue,
  CourseFinding,
  CompareNoteCode,
  CompareNote,
  CompareCoursesOptions,
  CourseComparison,
  CompareVerdict,
  PositionCheck,
  GeoreferenceFit,
} from './types.js';
