/** What a comparison of courses gives and takes, apart from the code so that every step can name it. */
import type { Hint } from '../../errors.js';

export type CourseFindingKind =
  | 'invalid_file'
  | 'course_missing_on_service'
  | 'course_missing_in_organiser'
  | 'control_missing_on_service'
  | 'control_missing_in_organiser'
  | 'georeference_differs'
  | 'control_moved'
  | 'sequence_changed'
  | 'length_changed'
  | 'climb_changed'
  | 'class_missing_on_service'
  | 'class_missing_in_organiser'
  | 'class_course_changed';

/**
 * Every kind in the order reports list them: files, then courses, controls, sequences, numbers, classes. A
 * georeferencing difference comes before the moved controls: it is what the controls moved with, and those listed
 * after it are the ones it does not account for.
 */
export const COURSE_FINDING_KINDS: readonly CourseFindingKind[] = [
  'invalid_file',
  'course_missing_on_service',
  'course_missing_in_organiser',
  'control_missing_on_service',
  'control_missing_in_organiser',
  'georeference_differs',
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
  /**
   * `control_moved`: metres between the two positions, to 0.1 m (after the georeferencing difference is taken out,
   * when there is one: see `georeference_differs`). `georeference_differs`: the shift of the controls' centre.
   */
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
  /** What to do about it, when a front end words that in its own terms (`organiser_projection`: the grid to give). */
  hint?: Hint;
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
   * Default `foldName` (`courses.ts`): case and white space ignored.
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

/** Why control positions were not all compared: the code of the note that says so, or `no_courses`. */
export type PositionsNotComparedReason =
  'no_courses' | 'no_controls' | 'no_positions' | 'positions_not_degrees' | 'positions_not_compared';

/**
 * Whether the controls' positions were compared. `compared`: every control both sides define was measured.
 * `partly_compared`: some were, the others are named in `message`. `not_compared`: none was (`message` says why).
 */
export type PositionCheck =
  | { status: 'compared'; controls: number }
  | {
      status: 'partly_compared' | 'not_compared';
      /** Controls whose positions were measured. */
      controls: number;
      reason: PositionsNotComparedReason;
      message: string;
    };

/**
 * `same`: no finding, and every control position was compared. `different`: at least one finding. `not_compared`: no
 * finding, but positions were not (all) compared, so "the same" cannot be said (see `positions`): a front end should
 * not report success for it unless told to.
 */
export type CompareVerdict = 'same' | 'different' | 'not_compared';

export interface CourseComparison {
  /** `verdict === 'same'`: no finding, and every control position was compared. */
  same: boolean;
  verdict: CompareVerdict;
  positions: PositionCheck;
  /** Where control distances were measured: `WGS 84` or the service's grid (`EPSG:27700`). */
  comparedIn: string;
  /** Whether any control's position was compared (false: no positions, or not in a known system; see `positions`). */
  positionsCompared: boolean;
  findings: CourseFinding[];
  notes: CompareNote[];
  /**
   * One similarity transform (shift, rotation, uniform scale) fitted between the two sides' controls matched by code:
   * absent when fewer than three controls had positions on both sides. When it `explains` the differences, the moved
   * controls it accounts for are not findings: one georeferencing difference is, with `residuals` the real moves.
   */
  georeference?: GeoreferenceFit;
}

/**
 * A least-squares similarity transform from the organiser's control positions to the service's, refitted without the
 * controls that stay farther apart than the tolerance after it (real moves must not bend the fit).
 */
export interface GeoreferenceFit {
  /**
   * Whether one transform explains the differences: most matched controls (80 %, and at least four) within the
   * tolerance after it, its shift (or the rotation's and scale's displacement at the controls) beyond the tolerance,
   * and at least one control farther apart than the tolerance brought within it.
   */
  explains: boolean;
  /** Controls the fit was made from: matched by code, with a position on both sides. */
  controls: number;
  /** Of those, how many are within the tolerance after the transform. */
  within: number;
  /**
   * The shift of the controls' centre (the mean of the organiser's positions of the `controls` fitted), metres east
   * and north (organiser to service), and its length, to 0.1 m. In the service's grid, east and north are the grid's.
   */
  shiftEastM: number;
  shiftNorthM: number;
  shiftM: number;
  /** Compass bearing of the shift, degrees clockwise from north (0 when there is no shift), to 0.1°. */
  shiftBearingDeg: number;
  /** Rotation about the controls' centre, degrees, positive clockwise (as a compass turns), to 0.001°. */
  rotationDeg: number;
  /** Uniform scale, organiser to service (1: none), to six decimals. */
  scale: number;
  /** Root mean square of the within-tolerance controls' distances after the transform, metres. */
  residualRmsM: number;
  /**
   * Controls farther apart than the tolerance even after the transform (the real moves), farthest first, with that
   * distance (to 0.1 m). Listed whether or not the transform `explains` the differences.
   */
  residuals: Array<{ control: string; distanceM: number }>;
  /**
   * In words: "The whole map is shifted 38 m to the north-east and rotated 0.4° clockwise: a georeferencing
   * difference, not 31 moved controls; apart from it, control 103 is 25 m off.", or why it is no such difference.
   * A rotation or scale is named only when it moves the farthest control a metre or more on its own.
   */
  message: string;
}
