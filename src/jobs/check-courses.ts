/**
 * The organiser's cross-check: fetch the courses the service holds for an event, validate them and the organiser's own
 * course file against the IOF schema, and say what differs (`compareCourses`). Two requests' worth of work (one to the
 * service, one validator run), so there is no progress to report.
 *
 * Schema problems do not stop the comparison: a file that parses is compared even when it is not valid, because the
 * organiser wants both answers at once. Only a file that cannot be read as course data at all ends the check.
 */
import type { LiveloxClient } from '../client.js';
import { classKey } from '../match/class-names.js';
import { InputError, issueOf, ResponseShapeError, type Hint, type Issue } from '../errors.js';
import {
  compareCourses,
  comparisonVerdict,
  type CompareCoursesOptions,
  type CompareNoteCode,
  type CompareVerdict,
  type CourseFinding,
  type PositionCheck,
} from '../iof/compare-courses/compare.js';
import { parseCourseData } from '../iof/read-course-data.js';
import type { CourseData, IofVersion, RaceCourseData } from '../iof/model.js';
import { validateIofXml, type IofValidationResult, type ValidateOptions } from '../iof/validate/validate.js';

export interface CheckCoursesOptions extends Omit<CompareCoursesOptions, 'serviceProjection'> {
  eventId: number;
  /** The organiser's course file: its name (for messages) and bytes (IOF XML 3.0 or 2.0.3 `CourseData`). */
  organiser: { name: string; bytes: Uint8Array };
  /**
   * The race of a multi-race organiser file to compare, by its `raceNumber`, or by position (1-based) when the file
   * does not number its races. Default: the first race.
   */
  race?: number;
  /**
   * Ask the service for its positions in this EPSG system (`projectionEpsgCode`), and compare in it: the organiser's
   * positions are projected into it, and distances are plane metres. Default: WGS 84 degrees, great-circle metres.
   */
  projectionEpsgCode?: number;
  /** Where the schema and the IOF 2.0.3 DTD are. Default: this package's `schemas/` (see `validate`). */
  validation?: Pick<ValidateOptions, 'schemaPath' | 'dtdPath'>;
  signal?: AbortSignal;
}

export type CheckNoteCode = CompareNoteCode | 'race_chosen' | 'not_validated';

/** Something worth knowing about how the check went that is not a difference (see `CompareNote`). */
export interface CheckNote {
  code: CheckNoteCode;
  message: string;
  /**
   * What to do about it, when a front end words that in its own terms: `choose_race` (values: the races' numbers),
   * `organiser_projection` (values: the EPSG codes that fit), `schema`.
   */
  hint?: Hint;
}

/** One side's document: what it is, whether it is valid, and how much it holds (in the race compared). */
export interface CheckedFile {
  /** The organiser's file name, or `event N on the service`. */
  source: string;
  iofVersion: IofVersion;
  creator?: string;
  /** As `validate` says: `null` when it could not be checked (see the notes). */
  valid: boolean | null;
  checked: IofValidationResult['checked'];
  /** Schema problems, each with its 1-based line. */
  issues: Issue[];
  courses: number;
  controls: number;
  /** Distinct class names the race assigns to courses. */
  classes: number;
}

export interface CheckCoursesResult {
  /**
   * `verdict === 'same'`: both files are valid, hold the same courses within the tolerances, and every control position
   * was compared.
   */
  same: boolean;
  /**
   * `same`; `different` (at least one finding, invalid files included); `not_compared`: no finding, but control
   * positions were not (all) compared (`positions` says which and why). A front end reports `not_compared` as a failure
   * unless told to accept it: "no difference found" is not "the same" when the positions were never looked at.
   */
  verdict: CompareVerdict;
  /** Whether the controls' positions were compared, and when not all were, why (the same words as the note). */
  positions: PositionCheck;
  eventId: number;
  organiser: CheckedFile & {
    /** Races in the file. */
    races: number;
    /** The race compared: its place in the file (1-based) and its number when the file numbers races. */
    race: { index: number; raceNumber?: number };
  };
  service: CheckedFile & { projectionEpsgCode?: number };
  /** Where control distances were measured: `WGS 84`, or the grid asked for (`EPSG:27700 (...)`). */
  comparedIn: string;
  /** Whether any control position was compared (false: see the notes). */
  positionsCompared: boolean;
  tolerances: { controlM: number; lengthM: number; lengthRatio: number; climbM: number };
  /** Grouped by kind (`COURSE_FINDING_KINDS`): invalid files first. */
  findings: CourseFinding[];
  notes: CheckNote[];
}

/**
 * Runs the cross-check for `options.eventId`. Throws `InputError` when the organiser's file cannot be read as course
 * data (reason from `parseCourseData`, with what to do) or has no such race (reason `no_such_race`),
 * `ResponseShapeError` when the service's answer is not course data, and whatever the request throws (a
 * `NotFoundError` for an unknown event, `ScopeError` for a key without course access).
 */
export async function checkCourses(client: LiveloxClient, options: CheckCoursesOptions): Promise<CheckCoursesResult> {
  const { eventId, organiser: file } = options;
  // The organiser's file first: a broken file is the user's to fix, and should not cost a request.
  const organiser = parseOrganiser(file);
  const { race, index } = pickRace(organiser, options.race, file.name);
  const notes: CheckNote[] = [];
  if (organiser.races.length > 1) {
    const races = raceNumbers(organiser);
    const hint: Hint = {
      code: 'choose_race',
      text: `(choose another with the \`race\` option: ${races.join(', ')}).`,
      values: races,
    };
    notes.push({
      code: 'race_chosen',
      message: `The organiser's file has ${organiser.races.length} races; race ${race.raceNumber ?? index} was compared ${hint.text}`,
      hint,
    });
  }

  const serviceName = `event ${eventId} on the service`;
  const serviceBytes = await client.courses.getIofXmlBytes({
    eventId,
    ...(options.projectionEpsgCode === undefined ? {} : { projectionEpsgCode: options.projectionEpsgCode }),
    // The contract leaves these defaults unsaid: ask for everything the comparison needs.
    includeControls: true,
    includeClassConnections: true,
    includeClasses: true,
    signal: options.signal,
  });
  const service = parseService(serviceBytes, serviceName, eventId);
  const serviceRace: RaceCourseData = service.races[0] ?? { maps: [], controls: [], courses: [], classAssignments: [] };

  const [orgCheck, svcCheck] = await validateBoth(
    [
      { name: file.name, bytes: file.bytes },
      { name: serviceName, bytes: serviceBytes },
    ],
    options,
    notes,
  );
  if (orgCheck.valid === null && orgCheck.checked === 'not-checked' && !notes.some((n) => n.code === 'not_validated')) {
    notes.push({
      code: 'not_validated',
      message: `The organiser's file (IOF ${organiser.iofVersion}) could not be checked against its schema: ${
        orgCheck.errors[0]?.message ?? 'no grammar for it is installed'
      }`,
    });
  }

  const comparison = compareCourses(race, serviceRace, {
    ...compareOptions(options),
    ...(options.projectionEpsgCode === undefined ? {} : { serviceProjection: options.projectionEpsgCode }),
  });

  const findings: CourseFinding[] = [
    ...invalidFinding('organiser', orgCheck, organiser.iofVersion),
    ...invalidFinding('service', svcCheck, service.iofVersion),
    ...comparison.findings,
  ];
  const verdict = comparisonVerdict(findings.length, comparison.positions);
  return {
    same: verdict === 'same',
    verdict,
    positions: comparison.positions,
    eventId,
    organiser: {
      ...checkedFile(file.name, organiser, race, orgCheck),
      races: organiser.races.length,
      race: race.raceNumber === undefined ? { index } : { index, raceNumber: race.raceNumber },
    },
    service: {
      ...checkedFile(serviceName, service, serviceRace, svcCheck),
      ...(options.projectionEpsgCode === undefined ? {} : { projectionEpsgCode: options.projectionEpsgCode }),
    },
    comparedIn: comparison.comparedIn,
    positionsCompared: comparison.positionsCompared,
    tolerances: {
      controlM: options.toleranceM ?? 10,
      lengthM: options.lengthToleranceM ?? 10,
      lengthRatio: options.lengthToleranceRatio ?? 0.01,
      climbM: options.climbToleranceM ?? 5,
    },
    findings,
    notes: [...notes, ...comparison.notes],
  };
}

/** The comparison options the caller gave, and only those (`exactOptionalPropertyTypes`). */
function compareOptions(options: CheckCoursesOptions): CompareCoursesOptions {
  const out: CompareCoursesOptions = {};
  if (options.toleranceM !== undefined) out.toleranceM = options.toleranceM;
  if (options.lengthToleranceM !== undefined) out.lengthToleranceM = options.lengthToleranceM;
  if (options.lengthToleranceRatio !== undefined) out.lengthToleranceRatio = options.lengthToleranceRatio;
  if (options.climbToleranceM !== undefined) out.climbToleranceM = options.climbToleranceM;
  // Organisers' software and the service name classes under different conventions (H21E here, M21E there).
  out.classKey = options.classKey ?? classKey;
  if (options.organiserProjection !== undefined) out.organiserProjection = options.organiserProjection;
  return out;
}

function parseOrganiser(file: { name: string; bytes: Uint8Array }): CourseData {
  try {
    return parseCourseData(file.bytes, file.name);
  } catch (err) {
    if (!(err instanceof InputError) || err.hint !== undefined) throw err;
    // The reader says what is wrong; the organiser also needs to hear what to give instead.
    const prefix = `${err.source}${err.line === undefined ? '' : `:${err.line}${err.column === undefined ? '' : `:${err.column}`}`}: `;
    const message = err.message.startsWith(prefix) ? err.message.slice(prefix.length) : err.message;
    throw new InputError(err.source, err.reason, message, {
      cause: err,
      hint:
        'Give the course file as the course-setting program (OCAD, Condes, Purple Pen, OpenOrienteering Mapper) ' +
        'exports it: IOF XML CourseData, version 3.0 or 2.0.3.',
      ...(err.line === undefined ? {} : { line: err.line }),
      ...(err.column === undefined ? {} : { column: err.column }),
    });
  }
}

/** The numbers the `race` option takes for this file: the races' own numbers, or their places when none is numbered. */
function raceNumbers(data: CourseData): number[] {
  const numbered = data.races.some((r) => r.raceNumber !== undefined);
  return numbered
    ? data.races.map((r) => r.raceNumber).filter((n): n is number => n !== undefined)
    : data.races.map((_, i) => i + 1);
}

/** The race to compare: the same rule as the simulator's `raceNumber` (number first, then place in the file). */
function pickRace(
  data: CourseData,
  wanted: number | undefined,
  source: string,
): { race: RaceCourseData; index: number } {
  const races = data.races;
  if (races.length === 0) {
    throw new InputError(source, 'no_courses', 'the file holds no race with courses.');
  }
  if (wanted === undefined) return { race: races[0]!, index: 1 };
  const numbered = races.some((r) => r.raceNumber !== undefined);
  const index = numbered ? races.findIndex((r) => r.raceNumber === wanted) : wanted - 1;
  const race = races[index];
  if (race === undefined) {
    const which = numbered
      ? `races numbered ${races.map((r) => r.raceNumber ?? '(none)').join(', ')}`
      : `${races.length === 1 ? 'one race' : `${races.length} races`}`;
    throw new InputError(source, 'no_such_race', `the file has ${which}, not race ${wanted}.`);
  }
  return { race, index: index + 1 };
}

function parseService(bytes: Uint8Array, source: string, eventId: number): CourseData {
  try {
    return parseCourseData(bytes, source);
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    throw new ResponseShapeError(`The courses the service sent for event ${eventId} are not readable course data`, [], {
      cause: err,
      hint: err.message,
    });
  }
}

/**
 * Both verdicts in one validator call (the schema compiles once). A schema that is not installed is said in a note
 * and leaves both documents unchecked rather than hiding the comparison the organiser asked for.
 */
async function validateBoth(
  docs: [{ name: string; bytes: Uint8Array }, { name: string; bytes: Uint8Array }],
  options: CheckCoursesOptions,
  notes: CheckNote[],
): Promise<[IofValidationResult, IofValidationResult]> {
  try {
    const [a, b] = await validateIofXml(docs, {
      ...options.validation,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    return [a!, b!];
  } catch (err) {
    if (!(err instanceof InputError) || err.reason !== 'schema_missing') throw err;
    notes.push(issueOf(err, 'not_validated', { prefix: 'Neither file was checked against the IOF schema: ' }));
    const unchecked = (name: string): IofValidationResult => ({
      name,
      valid: null,
      version: 'unknown',
      checked: 'not-checked',
      errors: [],
    });
    return [unchecked(docs[0].name), unchecked(docs[1].name)];
  }
}

function invalidFinding(
  which: 'organiser' | 'service',
  check: IofValidationResult,
  version: IofVersion,
): CourseFinding[] {
  if (check.valid !== false) return [];
  const errors = check.errors.filter((e) => e.severity !== 'warning' && e.severity !== 'info').length;
  const grammar = version === '2.0.3' ? 'the IOF 2.0.3 DTD' : 'the IOF XML 3.0 schema';
  const whose = which === 'organiser' ? "The organiser's file" : "The service's course data";
  // The errors themselves, with their lines, are the file's `issues`: the message only says how many.
  return [
    {
      kind: 'invalid_file',
      file: which,
      message: `${whose} is not valid against ${grammar}: ${errors === 1 ? 'one error' : `${errors} errors`}.`,
    },
  ];
}

function checkedFile(source: string, data: CourseData, race: RaceCourseData, check: IofValidationResult): CheckedFile {
  const classes = new Set(
    race.classAssignments.map((a) => a.className ?? (a.classId === undefined ? '' : `#${a.classId}`)).filter(Boolean),
  );
  return {
    source,
    iofVersion: data.iofVersion,
    ...(data.creator === undefined ? {} : { creator: data.creator }),
    valid: check.valid,
    checked: check.checked,
    issues: check.errors,
    courses: race.courses.length,
    controls: race.controls.length,
    classes: classes.size,
  };
}
