/**
 * The organiser's cross-check: fetch the courses the service holds for an event, validate them and the organiser's own
 * course file against the IOF schema, and say what differs (`compareCourses`). Two requests' worth of work (one to the
 * service, one validator run), so there is no progress to report.
 *
 * Schema problems do not stop the comparison: a file that parses is compared even when it is not valid, because the
 * organiser wants both answers at once. Only a file that cannot be read as course data at all ends the check.
 */
import type { LiveloxClient } from '../client.js';
import type { LiveloxEvent } from '../resources/events.js';
import { classKey } from '../match/class-names.js';
import { InputError, issueOf, ResponseShapeError, type Hint, type Issue } from '../errors.js';
import {
  compareCourses,
  comparisonVerdict,
  type CompareCoursesOptions,
  type CompareNoteCode,
  type CompareVerdict,
  type CourseComparison,
  type CourseFinding,
  type GeoreferenceFit,
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
  /**
   * Where the schema and the IOF 2.0.3 DTD are, and the environment their lookup reads. Default: the lookup's answer
   * (see `validate`). A schema that is not found (or does not compile) does not stop the check: the verdict is then
   * `not_compared` at best (see `schema`).
   */
  validation?: Pick<ValidateOptions, 'schemaPath' | 'dtdPath' | 'env'>;
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

/**
 * `same`: both files checked and valid, the same courses within the tolerances, every control position compared.
 * `different`: at least one finding (invalid files included). `not_compared`: no finding, but control positions were not
 * (all) compared, or a file could not be checked against its schema (`notCompared` says which, `positions` and `schema`
 * why). `not_published`: the service holds no courses anyone may see for the event yet, so there was nothing to compare
 * with (`publication` says what the service says of the event).
 */
export type CheckVerdict = CompareVerdict | 'not_published';

/**
 * Whether both documents were checked against their grammar (IOF.xsd, or the 2.0.3 DTD for a 2.0.3 file). When not,
 * why: `schema_missing` (IOF.xsd was not found: neither file was checked), `schema_invalid` (it does not compile),
 * `dtd_missing` (an IOF 2.0.3 file, and no usable 2.0.3 DTD); `message` says it in words, with the `hint` to fix it.
 */
export type SchemaCheck =
  | { status: 'checked' }
  | {
      status: 'not_checked';
      reason: 'schema_missing' | 'schema_invalid' | 'dtd_missing';
      message: string;
      hint?: Hint;
    };

/** What the service says of an event whose courses it does not show (yet): what is known of when it will. */
export interface CoursePublication {
  /** The event's name, and its times as the service gives them (ISO 8601). Absent when the details could not be read. */
  eventName?: string;
  start?: string;
  end?: string;
  /** The service publishes an event when its maps and courses are no longer secret. */
  isPublished?: boolean;
  /** The service has a valid map and class-course connections for the event (without them it shows no courses). */
  hasValidMapAndCourses?: boolean;
  /** All of it in words: why no course is shown, and what would change that. */
  message: string;
}

export interface CheckCoursesResult {
  /** `verdict === 'same'`. */
  same: boolean;
  /**
   * See `CheckVerdict`. A front end reports anything but `same` as a failure, `not_compared` unless told to accept
   * it: "no difference found" is not "the same" when positions or the schema were never looked at.
   */
  verdict: CheckVerdict;
  /** With `not_compared`: what was not compared (`positions`, `schema`, or both); empty otherwise. */
  notCompared: Array<'positions' | 'schema'>;
  /** Whether the controls' positions were compared, and when not all were, why (the same words as the note). */
  positions: PositionCheck;
  /** Whether both files were checked against their schema, and when not, why. */
  schema: SchemaCheck;
  /** With `not_published`: what the service says of the event. */
  publication?: CoursePublication;
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
  /**
   * The shift, rotation and scale fitted between the two sides' controls (see `CourseComparison.georeference`): when it
   * `explains` the differences, one `georeference_differs` finding stands for the controls it moved. Absent when fewer
   * than three controls were measured, or nothing public was compared.
   */
  georeference?: GeoreferenceFit;
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
  return (await checkCoursesInDetail(client, options)).result;
}

/** The check's result, and what it was made from: both races and the comparison (what a picture of it draws). */
export interface CheckedCourses {
  result: CheckCoursesResult;
  /** The organiser's race compared, and the service's (empty when it holds no courses). */
  organiserRace: RaceCourseData;
  serviceRace: RaceCourseData;
  comparison: CourseComparison;
}

/** `checkCourses`, keeping what the result was made from (see `CheckedCourses`). Throws as `checkCourses` does. */
export async function checkCoursesInDetail(
  client: LiveloxClient,
  options: CheckCoursesOptions,
): Promise<CheckedCourses> {
  const { eventId, organiser: file } = options;
  // The organiser's file first: a broken file is the user's to fix, and should not cost a request.
  const organiser = parseOrganiser(file);
  const { race, index } = pickRace(organiser, options.race, file.name);
  const notes: CheckNote[] = raceChosenNotes(organiser, race, index);

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

  const validated = await validateBoth(
    [
      { name: file.name, bytes: file.bytes },
      { name: serviceName, bytes: serviceBytes },
    ],
    options,
    notes,
  );
  const [orgCheck, svcCheck] = validated.results;
  notes.push(...notValidatedNotes(orgCheck, organiser.iofVersion, notes));
  const schema = validated.schema ?? grammarCheck(orgCheck, svcCheck);

  // Nothing public to compare with: said as such, with what the service says of the event, not as every course missing.
  const publication = serviceRace.courses.length === 0 ? await coursePublication(client, options) : undefined;
  const comparison = compareCourses(race, serviceRace, {
    ...compareOptions(options),
    ...(options.projectionEpsgCode === undefined ? {} : { serviceProjection: options.projectionEpsgCode }),
  });
  const result = checkResult(options, {
    organiser: { name: file.name, data: organiser, race, index, check: orgCheck },
    service: { name: serviceName, data: service, race: serviceRace, check: svcCheck },
    schema,
    publication,
    comparison,
    notes,
  });
  return { result, organiserRace: race, serviceRace, comparison };
}

/** A multi-race file: which race was compared, and how to choose another. */
function raceChosenNotes(organiser: CourseData, race: RaceCourseData, index: number): CheckNote[] {
  if (organiser.races.length <= 1) return [];
  const races = raceNumbers(organiser);
  const hint: Hint = {
    code: 'choose_race',
    text: `(choose another with the \`race\` option: ${races.join(', ')}).`,
    values: races,
  };
  return [
    {
      code: 'race_chosen',
      message: `The organiser's file has ${organiser.races.length} races; race ${race.raceNumber ?? index} was compared ${hint.text}`,
      hint,
    },
  ];
}

/** The organiser's file was not checked (an IOF 2.0.3 file without its DTD), unless a note already says why. */
function notValidatedNotes(check: IofValidationResult, version: IofVersion, notes: readonly CheckNote[]): CheckNote[] {
  if (check.valid !== null || check.checked !== 'not-checked' || notes.some((n) => n.code === 'not_validated')) {
    return [];
  }
  return [
    {
      code: 'not_validated',
      message: `The organiser's file (IOF ${version}) could not be checked against its schema: ${
        check.errors[0]?.message ?? 'no grammar for it is installed'
      }`,
      ...(check.errors[0]?.hint === undefined ? {} : { hint: check.errors[0].hint }),
    },
  ];
}

interface CheckedSide {
  name: string;
  data: CourseData;
  race: RaceCourseData;
  check: IofValidationResult;
}

/** The result from what was found: the findings (none from the service side when nothing is public), the verdict. */
function checkResult(
  options: CheckCoursesOptions,
  parts: {
    organiser: CheckedSide & { index: number };
    service: CheckedSide;
    schema: SchemaCheck;
    publication: CoursePublication | undefined;
    comparison: ReturnType<typeof compareCourses>;
    notes: CheckNote[];
  },
): CheckCoursesResult {
  const { organiser, service, schema, publication, comparison } = parts;
  const findings: CourseFinding[] = [
    ...invalidFinding('organiser', organiser.check, organiser.data.iofVersion),
    ...(publication === undefined
      ? [...invalidFinding('service', service.check, service.data.iofVersion), ...comparison.findings]
      : []),
  ];
  const notCompared = [
    ...(comparison.positions.status === 'compared' ? [] : (['positions'] as const)),
    ...(schema.status === 'checked' ? [] : (['schema'] as const)),
  ];
  const verdict: CheckVerdict =
    publication !== undefined ? 'not_published' : checkVerdict(findings.length, comparison.positions, schema);
  const { race, index } = organiser;
  return {
    same: verdict === 'same',
    verdict,
    notCompared: verdict === 'not_compared' ? notCompared : [],
    positions: comparison.positions,
    schema,
    ...(publication === undefined ? {} : { publication }),
    eventId: options.eventId,
    organiser: {
      ...checkedFile(organiser.name, organiser.data, race, organiser.check),
      races: organiser.data.races.length,
      race: race.raceNumber === undefined ? { index } : { index, raceNumber: race.raceNumber },
    },
    service: {
      ...checkedFile(service.name, service.data, service.race, service.check),
      ...(options.projectionEpsgCode === undefined ? {} : { projectionEpsgCode: options.projectionEpsgCode }),
    },
    comparedIn: comparison.comparedIn,
    positionsCompared: comparison.positionsCompared,
    ...(publication === undefined && comparison.georeference !== undefined
      ? { georeference: comparison.georeference }
      : {}),
    tolerances: {
      controlM: options.toleranceM ?? 10,
      lengthM: options.lengthToleranceM ?? 10,
      lengthRatio: options.lengthToleranceRatio ?? 0.01,
      climbM: options.climbToleranceM ?? 5,
    },
    findings,
    notes: [...parts.notes, ...(publication === undefined ? comparison.notes : [])],
  };
}

/** The comparison's verdict, made `not_compared` when a file was not checked against its schema. */
function checkVerdict(findings: number, positions: PositionCheck, schema: SchemaCheck): CheckVerdict {
  const verdict = comparisonVerdict(findings, positions);
  return verdict === 'same' && schema.status !== 'checked' ? 'not_compared' : verdict;
}

/** A document the validator left unchecked (an IOF 2.0.3 file without a usable DTD) keeps the verdict from `same`. */
function grammarCheck(...checks: IofValidationResult[]): SchemaCheck {
  const unchecked = checks.find((c) => c.valid === null);
  if (unchecked === undefined) return { status: 'checked' };
  const issue = unchecked.errors[0];
  return {
    status: 'not_checked',
    reason: 'dtd_missing',
    message: `${unchecked.name} was not checked against its schema: ${issue?.message ?? 'no grammar for it was found'}`,
    ...(issue?.hint === undefined ? {} : { hint: issue.hint }),
  };
}

/**
 * What the service says of an event whose course data holds no course: published or not, a valid map and courses or
 * not, and its times. The service shows courses once an event is published (its maps and courses no longer secret)
 * and has a valid map and class-course connections; when that happens is the organiser's doing, so no date is made up.
 */
async function coursePublication(client: LiveloxClient, options: CheckCoursesOptions): Promise<CoursePublication> {
  const none = `The service shows no courses for event ${options.eventId} yet`;
  let event: LiveloxEvent;
  try {
    event = await client.events.get(options.eventId, options.signal === undefined ? {} : { signal: options.signal });
  } catch (err) {
    if (options.signal?.aborted) throw err;
    const why = err instanceof Error ? err.message : String(err);
    return { message: `${none}, and its details could not be read (${why}).` };
  }
  const { isPublished, hasValidMapAndCourses } = event;
  const { start, end } = event.timeInterval;
  const state: string[] = [];
  if (isPublished === false) {
    state.push(
      'the event is not published (the service publishes an event once its maps and courses are no longer secret)',
    );
  }
  if (hasValidMapAndCourses === false) state.push('the service has no valid map and courses for it');
  const why =
    state.length > 0
      ? `: ${state.join(', and ')}`
      : isPublished === true && hasValidMapAndCourses === true
        ? ', although the event is published and has a valid map and courses'
        : '';
  const fix =
    state.length > 0
      ? ' They are shown once the event is published with a valid map and courses; run the check again then.'
      : ' Run the check again later.';
  return {
    eventName: event.name,
    start,
    end,
    ...(isPublished === undefined ? {} : { isPublished }),
    ...(hasValidMapAndCourses === undefined ? {} : { hasValidMapAndCourses }),
    message: `${none}${why}. The event runs from ${start} to ${end} on the service.${fix}`,
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
 * Both verdicts in one validator call (the schema compiles once). A schema that is not found, or does not compile, is
 * said in a note and leaves both documents unchecked (and the verdict `not_compared` at best) rather than hiding the
 * comparison the organiser asked for.
 */
async function validateBoth(
  docs: [{ name: string; bytes: Uint8Array }, { name: string; bytes: Uint8Array }],
  options: CheckCoursesOptions,
  notes: CheckNote[],
): Promise<{ results: [IofValidationResult, IofValidationResult]; schema?: SchemaCheck }> {
  try {
    const [a, b] = await validateIofXml(docs, {
      ...options.validation,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    return { results: [a!, b!] };
  } catch (err) {
    if (!(err instanceof InputError) || (err.reason !== 'schema_missing' && err.reason !== 'schema_invalid')) throw err;
    const note = issueOf(err, 'not_validated', { prefix: 'Neither file was checked against the IOF schema: ' });
    notes.push(note);
    const unchecked = (name: string): IofValidationResult => ({
      name,
      valid: null,
      version: 'unknown',
      checked: 'not-checked',
      errors: [],
    });
    return {
      results: [unchecked(docs[0].name), unchecked(docs[1].name)],
      schema: {
        status: 'not_checked',
        reason: err.reason,
        message: note.message,
        ...(note.hint === undefined ? {} : { hint: note.hint }),
      },
    };
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
