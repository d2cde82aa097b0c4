/**
 * The course file as publishing sends it: IOF XML 3.0 CourseData, valid against IOF.xsd. A 2.0.3 file is converted
 * with our writer (and the result says so); either way the bytes that would be sent are validated before any request,
 * so that the service never receives a file its validation would only refuse later.
 */
import { InputError, ValidationError } from '../../errors.js';
import { getProjection } from '../../geo/projection.js';
import { identifyIof } from '../../iof/identify.js';
import type { CourseData, RaceCourseData } from '../../iof/model.js';
import { parseCourseData } from '../../iof/read-course-data.js';
import { validateIofXml, type ValidateOptions } from '../../iof/validate/validate.js';
import { writeCourseData } from '../../iof/write-course-data.js';

export interface PublishCourseFile {
  data: CourseData;
  race: RaceCourseData;
  /** 1-based position of the race in the file. */
  raceIndex: number;
  /** The IOF XML 3.0 bytes to upload: the file itself, or its conversion. */
  bytes: Uint8Array;
  /** The file was IOF 2.0.3 and was converted to 3.0. */
  convertedFrom?: '2.0.3';
  /** The file's control positions were in this grid and were sent converted to WGS 84 degrees. */
  positionsConvertedFrom?: number | string;
}

/**
 * Reads, converts when needed, picks the race and validates. Throws `InputError` for a file that is not IOF XML,
 * not CourseData (`wrong_message_type`), broken (`not_well_formed`), without the race asked for (`no_such_race`) or
 * without one (`no_courses`); `ValidationError` (code `schema` issues with lines) when the 3.0 bytes are not valid
 * against IOF.xsd; the validator's errors when the schema is missing.
 */
export async function readPublishCourseFile(
  file: { name: string; bytes: Uint8Array },
  options: {
    race?: number | undefined;
    /** The grid of the file's control positions when they are not degrees: sent converted to WGS 84. */
    positionsSystem?: number | string | undefined;
    validation?: Pick<ValidateOptions, 'schemaPath' | 'dtdPath' | 'env'>;
  } = {},
): Promise<PublishCourseFile> {
  const identity = identifyIof(file.bytes, file.name);
  if (identity.messageType !== 'CourseData') {
    throw new InputError(
      file.name,
      'wrong_message_type',
      `expected an IOF CourseData document but it is ${identity.messageType}.`,
      { hint: 'Give the course file as the course-setting program exports it: IOF XML CourseData.' },
    );
  }
  const data = parseCourseData(file.bytes, file.name);
  const converted = data.iofVersion === '2.0.3';
  const grid = options.positionsSystem;
  // The service reads `Position` as degrees: grid positions (old Condes exports) are sent as degrees.
  const toDegrees = grid === undefined ? undefined : getProjection(grid);
  const bytes =
    converted || toDegrees
      ? new TextEncoder().encode(
          writeCourseData(
            data,
            toDegrees ? { position: (p) => toDegrees.inverse({ easting: p.lng, northing: p.lat }) } : {},
          ),
        )
      : file.bytes;
  await checkSchema(file.name, bytes, options.validation ?? {});
  // The race as read: the map is placed with it (its positions in the file's own grid, which the map is told).
  const sent = converted ? parseCourseData(bytes, file.name) : data;
  const { race, index } = pickRace(toDegrees ? data : sent, options.race, file.name);
  return {
    data: sent,
    race,
    raceIndex: index,
    bytes,
    ...(converted ? { convertedFrom: '2.0.3' as const } : {}),
    ...(grid === undefined ? {} : { positionsConvertedFrom: grid }),
  };
}

async function checkSchema(name: string, bytes: Uint8Array, validation: ValidateOptions): Promise<void> {
  const [result] = await validateIofXml([{ name, bytes }], validation);
  if (result === undefined || result.valid === true) return;
  const issues = result.errors.length > 0 ? result.errors : [{ code: 'schema', message: 'not valid against IOF.xsd' }];
  throw new ValidationError(`${name} is not valid IOF XML 3.0 CourseData`, issues);
}

function pickRace(
  data: CourseData,
  wanted: number | undefined,
  source: string,
): { race: RaceCourseData; index: number } {
  const races = data.races.filter((r) => r.courses.length > 0 || r.controls.length > 0);
  if (races.length === 0) throw new InputError(source, 'no_courses', 'the file holds no race with courses.');
  if (wanted === undefined) return { race: races[0]!, index: data.races.indexOf(races[0]!) + 1 };
  const numbered = data.races.some((r) => r.raceNumber !== undefined);
  const index = numbered ? data.races.findIndex((r) => r.raceNumber === wanted) : wanted - 1;
  const race = data.races[index];
  if (race === undefined) {
    const known = numbered ? data.races.map((r) => r.raceNumber ?? '?').join(', ') : `1 to ${data.races.length}`;
    throw new InputError(source, 'no_such_race', `the file has no race ${wanted} (it has ${known}).`);
  }
  return { race, index: index + 1 };
}
