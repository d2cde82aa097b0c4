/** Writes a minimal FIT activity file: 14-byte header, `file_id`, one `record` per point, trailing CRC. */
import {
  FIELD_ENHANCED_ALTITUDE,
  FIELD_POSITION_LAT,
  FIELD_POSITION_LONG,
  FIELD_TIMESTAMP,
  FIT_EPOCH_MS,
  FIT_MIN_ABSOLUTE_TIME,
  MESG_FILE_ID,
  MESG_RECORD,
  fitCrc16,
} from './fit.js';
import { assertWritablePoints } from './track.js';
import type { TrackPoint } from './types.js';

const HEADER_SIZE = 14;
/** Protocol 1.0: no developer fields are written, so readers that predate protocol 2.0 can read the file too. */
const PROTOCOL_VERSION = 0x10;
/** Profile 21.00; only `file_id` and `record` fields defined since the earliest profiles are written. */
const PROFILE_VERSION = 2100;
const FILE_TYPE_ACTIVITY = 4;
const MANUFACTURER_DEVELOPMENT = 255;

const BASE_ENUM = 0x00;
const BASE_UINT16 = 0x84;
const BASE_SINT32 = 0x85;
const BASE_UINT32 = 0x86;

const LOCAL_FILE_ID = 0;
const LOCAL_RECORD = 1;

const FILE_ID_FIELDS: [number, number, number][] = [
  [0, 1, BASE_ENUM], // type
  [1, 2, BASE_UINT16], // manufacturer
  [2, 2, BASE_UINT16], // product
  [4, 4, BASE_UINT32], // time_created
];
const RECORD_FIELDS: [number, number, number][] = [
  [FIELD_TIMESTAMP, 4, BASE_UINT32],
  [FIELD_POSITION_LAT, 4, BASE_SINT32],
  [FIELD_POSITION_LONG, 4, BASE_SINT32],
  [FIELD_ENHANCED_ALTITUDE, 4, BASE_UINT32],
];
const RECORD_SIZE = 1 + 16;
const FILE_ID_SIZE = 1 + 1 + 2 + 2 + 4;
const definitionSize = (fields: unknown[]): number => 1 + 5 + fields.length * 3;

const MIN_TIME_MS = FIT_EPOCH_MS + FIT_MIN_ABSOLUTE_TIME * 1000;
const MAX_TIME_MS = FIT_EPOCH_MS + 0xfffffffe * 1000;

/**
 * Encodes points as a FIT activity file. FIT stores whole seconds (times are rounded), positions in semicircles (about
 * 1 cm) and elevation in 0.2 m steps; an elevation below -500 m, which FIT cannot hold, is written as absent.
 * Throws `ValidationError` for an empty list, a point without a valid time or position, or a time before 1998-07-04 or
 * after 2126, which FIT cannot express as a date.
 */
export function writeFit(points: TrackPoint[]): Uint8Array {
  assertWritablePoints(points, 'writeFit points', {
    min: MIN_TIME_MS,
    max: MAX_TIME_MS,
    message: 'must lie between 1998-07-04 and 2126 to be stored as a FIT date',
  });
  const dataSize =
    definitionSize(FILE_ID_FIELDS) + FILE_ID_SIZE + definitionSize(RECORD_FIELDS) + points.length * RECORD_SIZE;
  const bytes = new Uint8Array(HEADER_SIZE + dataSize + 2);
  const view = new DataView(bytes.buffer);

  bytes[0] = HEADER_SIZE;
  bytes[1] = PROTOCOL_VERSION;
  view.setUint16(2, PROFILE_VERSION, true);
  view.setUint32(4, dataSize, true);
  bytes.set([0x2e, 0x46, 0x49, 0x54], 8); // ".FIT"
  view.setUint16(12, fitCrc16(bytes, 0, 12), true);

  let pos = HEADER_SIZE;
  pos = writeDefinition(bytes, view, pos, LOCAL_FILE_ID, MESG_FILE_ID, FILE_ID_FIELDS);
  bytes[pos] = LOCAL_FILE_ID;
  bytes[pos + 1] = FILE_TYPE_ACTIVITY;
  view.setUint16(pos + 2, MANUFACTURER_DEVELOPMENT, true);
  view.setUint16(pos + 4, 0, true);
  view.setUint32(pos + 6, fitTime(points[0]?.time ?? MIN_TIME_MS), true);
  pos += FILE_ID_SIZE;

  pos = writeDefinition(bytes, view, pos, LOCAL_RECORD, MESG_RECORD, RECORD_FIELDS);
  for (const point of points) {
    bytes[pos] = LOCAL_RECORD;
    view.setUint32(pos + 1, fitTime(point.time), true);
    view.setInt32(pos + 5, semicircles(point.lat), true);
    view.setInt32(pos + 9, semicircles(point.lng), true);
    view.setUint32(pos + 13, fitAltitude(point.ele), true);
    pos += RECORD_SIZE;
  }
  view.setUint16(pos, fitCrc16(bytes, 0, pos), true);
  return bytes;
}

function writeDefinition(
  bytes: Uint8Array,
  view: DataView,
  start: number,
  local: number,
  global: number,
  fields: [number, number, number][],
): number {
  bytes[start] = 0x40 | local;
  bytes[start + 1] = 0; // reserved
  bytes[start + 2] = 0; // little-endian
  view.setUint16(start + 3, global, true);
  bytes[start + 5] = fields.length;
  let pos = start + 6;
  for (const [number, size, baseType] of fields) {
    bytes[pos] = number;
    bytes[pos + 1] = size;
    bytes[pos + 2] = baseType;
    pos += 3;
  }
  return pos;
}

function fitTime(ms: number): number {
  return Math.round((ms - FIT_EPOCH_MS) / 1000);
}

function semicircles(degrees: number): number {
  let value = Math.round((degrees * 2 ** 31) / 180);
  // +180 degrees is 2^31, one past sint32; it is the same meridian as -180.
  if (value >= 2 ** 31) value -= 2 ** 32;
  // 0x7FFFFFFF means "no position" in FIT; the neighbouring value is under 1 cm away.
  if (value === 0x7fffffff) value -= 1;
  return value;
}

function fitAltitude(ele: number | undefined): number {
  if (ele === undefined) return 0xffffffff;
  const value = Math.round((ele + 500) * 5);
  return value >= 0 && value < 0xffffffff ? value : 0xffffffff;
}
