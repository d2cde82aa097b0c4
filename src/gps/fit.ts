/**
 * FIT (Garmin's binary activity format) to a track. Only what a route needs is decoded: `record` messages (global 20)
 * with timestamp, position and altitude, and `file_id` (global 0) for the creator. Every other message is skipped by
 * the size its definition declares, so unknown and developer fields cannot throw the reader off.
 */
import { InputError } from '../errors.js';
import type { Track, TrackPoint } from './types.js';

/** FIT timestamps count seconds from 1989-12-31T00:00:00Z. */
export const FIT_EPOCH_MS = Date.UTC(1989, 11, 31);
/** FIT timestamps below this are seconds since the device was switched on, not a date (FIT profile, `date_time`). */
export const FIT_MIN_ABSOLUTE_TIME = 0x10000000;

export const MESG_FILE_ID = 0;
export const MESG_RECORD = 20;
export const FIELD_TIMESTAMP = 253;
export const FIELD_POSITION_LAT = 0;
export const FIELD_POSITION_LONG = 1;
export const FIELD_ALTITUDE = 2;
export const FIELD_ENHANCED_ALTITUDE = 78;
const FIELD_MANUFACTURER = 1;
const FIELD_PRODUCT = 2;

const SINT32_INVALID = 0x7fffffff;
const UINT32_INVALID = 0xffffffff;
const UINT16_INVALID = 0xffff;
const SEMICIRCLES_TO_DEGREES = 180 / 2 ** 31;

const SIGNATURE = [0x2e, 0x46, 0x49, 0x54]; // .FIT

/** FIT files start with a 12- or 14-byte header whose bytes 8..11 are the ASCII signature `.FIT`. */
export function isFitHeader(bytes: Uint8Array): boolean {
  return bytes.length >= 12 && isFitStart(bytes);
}

/**
 * `isFitHeader`, or a file that ends inside the header where what it has agrees (a header size byte of 12 or 14, and
 * at least the signature's first byte): the test for "read this as FIT", so that a FIT file cut short is reported as
 * truncated rather than as some other kind of file. Sniffing keeps to whole headers (a few bytes are no evidence for a
 * format); reading may use this, since it then says exactly what is missing.
 */
export function isFitStart(bytes: Uint8Array): boolean {
  if (bytes.length < 9 || (bytes[0] !== 12 && bytes[0] !== 14)) return false;
  const end = Math.min(bytes.length, 12);
  for (let i = 8; i < end; i += 1) if (bytes[i] !== SIGNATURE[i - 8]) return false;
  return true;
}

/**
 * Checks a FIT file's frame without decoding it: the header is whole and sound, and the data it announces is all
 * there. Cheap (no checksum of the data), for refusing a file cut short before it is sent anywhere.
 */
export function checkFitFrame(bytes: Uint8Array, source: string): void {
  fitFrame(bytes, new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), 0, source);
}

/** A few manufacturers by their FIT profile number, for a readable `creator`; the others are named by number. */
const MANUFACTURERS: Record<number, string> = {
  1: 'Garmin',
  15: 'Dynastream',
  23: 'Suunto',
  32: 'Wahoo Fitness',
  123: 'Polar',
  255: 'development',
  260: 'Zwift',
  265: 'Strava',
  294: 'Coros',
};

const CRC_TABLE = [
  0x0000, 0xcc01, 0xd801, 0x1400, 0xf001, 0x3c00, 0x2800, 0xe401, 0xa001, 0x6c00, 0x7800, 0xb401, 0x5000, 0x9c01,
  0x8801, 0x4400,
] as const;

/** FIT's CRC-16, a nibble at a time with its 16-entry table (FIT protocol, "CRC"); pass `crc` to continue a sum. */
export function fitCrc16(bytes: Uint8Array, start = 0, end = bytes.length, crc = 0): number {
  let sum = crc;
  for (let i = start; i < end; i += 1) {
    const byte = bytes[i] ?? 0;
    let tmp = CRC_TABLE[sum & 0xf] ?? 0;
    sum = (sum >> 4) & 0x0fff;
    sum = sum ^ tmp ^ (CRC_TABLE[byte & 0xf] ?? 0);
    tmp = CRC_TABLE[sum & 0xf] ?? 0;
    sum = (sum >> 4) & 0x0fff;
    sum = sum ^ tmp ^ (CRC_TABLE[(byte >> 4) & 0xf] ?? 0);
  }
  return sum;
}

interface Definition {
  global: number;
  little: boolean;
  /** Bytes of one data message of this type, developer fields included. */
  size: number;
  // Offsets of the fields a route needs inside the message, -1 when absent or of an unexpected size.
  timestamp: number;
  lat: number;
  lng: number;
  altitude: number;
  enhancedAltitude: number;
  manufacturer: number;
  product: number;
}

interface State {
  points: TrackPoint[];
  records: number;
  manufacturer?: number;
  product?: number;
}

/** Reads a FIT file, or several chained ones, into one track. */
export function parseFit(bytes: Uint8Array, source: string): Track {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const state: State = { points: [], records: 0 };
  let offset = 0;
  do {
    offset = readFile(bytes, view, offset, source, state);
  } while (offset < bytes.length);
  if (state.points.length === 0) {
    const found =
      state.records > 0
        ? `its ${state.records} records have no GPS position with a date and time (recorded indoors or without GPS?)`
        : 'it has no records (it may be a settings, workout or course file)';
    throw new InputError(source, 'no_track_points', `the FIT file holds no recorded route: ${found}.`, {
      hint: 'Export an activity recorded with GPS switched on from the watch or training app.',
    });
  }
  const creator = describeCreator(state);
  return creator ? { format: 'fit', points: state.points, creator } : { format: 'fit', points: state.points };
}

/** Reads one FIT file starting at `start` and returns where the next chained file would begin. */
function readFile(bytes: Uint8Array, view: DataView, start: number, source: string, state: State): number {
  const remaining = bytes.length - start;
  if (start > 0 && !isFitHeader(bytes.subarray(start, start + 14))) {
    throw corrupt(source, `${remaining} unexpected bytes follow the end of the FIT data.`);
  }
  const { dataStart, dataEnd } = fitFrame(bytes, view, start, source);
  const storedCrc = view.getUint16(dataEnd, true);
  if (storedCrc !== fitCrc16(bytes, start, dataEnd)) {
    throw corrupt(source, 'the FIT checksum does not match the data: some bytes were changed.');
  }
  readMessages(bytes, view, dataStart, dataEnd, source, state);
  return dataEnd + 2;
}

/** Where the data of the FIT file at `start` lies, once its header is whole and sound and the data all there. */
function fitFrame(
  bytes: Uint8Array,
  view: DataView,
  start: number,
  source: string,
): { dataStart: number; dataEnd: number } {
  const remaining = bytes.length - start;
  const headerSize = bytes[start] ?? 0;
  if (remaining < 12) {
    const announced =
      headerSize === 12 || headerSize === 14 ? `its header says ${headerSize}` : 'a FIT header takes 12';
    throw truncated(source, `the FIT file ends after ${remaining} bytes, inside its header (${announced} bytes).`);
  }
  if (headerSize !== 12 && headerSize !== 14)
    throw corrupt(source, `the FIT header size is ${headerSize}; 12 or 14 expected.`);
  if (remaining < headerSize) throw truncated(source, `the file ends inside the ${headerSize}-byte FIT header.`);
  const dataSize = view.getUint32(start + 4, true);
  if (headerSize === 14) {
    const headerCrc = view.getUint16(start + 12, true);
    // Zero means "not computed", which the FIT protocol allows.
    if (headerCrc !== 0 && headerCrc !== fitCrc16(bytes, start, start + 12)) {
      throw corrupt(source, 'the FIT header checksum does not match its content.');
    }
  }
  const dataStart = start + headerSize;
  const dataEnd = dataStart + dataSize;
  if (dataEnd + 2 > bytes.length) {
    throw truncated(
      source,
      `the FIT header announces ${dataSize} bytes of data plus a 2-byte checksum, but only ${bytes.length - dataStart} bytes follow.`,
    );
  }
  return { dataStart, dataEnd };
}

function readMessages(
  bytes: Uint8Array,
  view: DataView,
  start: number,
  end: number,
  source: string,
  state: State,
): void {
  const definitions: (Definition | undefined)[] = new Array<Definition | undefined>(16);
  let lastTimestamp: number | undefined;
  let pos = start;
  while (pos < end) {
    const header = bytes[pos] ?? 0;
    pos += 1;
    let local: number;
    let compressedTime: number | undefined;
    if (header & 0x80) {
      // Compressed timestamp header: 5 bits of seconds, rolled over against the last full timestamp.
      local = (header >> 5) & 0x3;
      if (lastTimestamp !== undefined) {
        const offset = header & 0x1f;
        lastTimestamp += (offset - lastTimestamp) & 0x1f;
        compressedTime = lastTimestamp;
      }
    } else if (header & 0x40) {
      pos = readDefinition(bytes, view, pos, end, header, definitions, source);
      continue;
    } else {
      local = header & 0x0f;
    }
    const def = definitions[local];
    if (!def)
      throw corrupt(source, `a data message at byte ${pos - 1} uses local message type ${local} before defining it.`);
    if (pos + def.size > end) throw corrupt(source, `a message at byte ${pos - 1} runs past the end of the FIT data.`);
    let time = compressedTime;
    if (def.timestamp >= 0) {
      const value = view.getUint32(pos + def.timestamp, def.little);
      if (value !== UINT32_INVALID) {
        lastTimestamp = value;
        time = value;
      }
    }
    if (def.global === MESG_RECORD) {
      state.records += 1;
      const point = recordPoint(view, pos, def, time);
      if (point) state.points.push(point);
    } else if (def.global === MESG_FILE_ID && state.manufacturer === undefined) {
      if (def.manufacturer >= 0) {
        const value = view.getUint16(pos + def.manufacturer, def.little);
        if (value !== UINT16_INVALID) state.manufacturer = value;
      }
      if (def.product >= 0) {
        const value = view.getUint16(pos + def.product, def.little);
        if (value !== UINT16_INVALID) state.product = value;
      }
    }
    pos += def.size;
  }
}

function readDefinition(
  bytes: Uint8Array,
  view: DataView,
  start: number,
  end: number,
  header: number,
  definitions: (Definition | undefined)[],
  source: string,
): number {
  let pos = start;
  if (pos + 5 > end) throw corrupt(source, `a definition at byte ${pos - 1} runs past the end of the FIT data.`);
  const architecture = bytes[pos + 1];
  if (architecture !== 0 && architecture !== 1) {
    throw corrupt(source, `a definition at byte ${pos - 1} names architecture ${architecture}; 0 or 1 expected.`);
  }
  const little = architecture === 0;
  const global = view.getUint16(pos + 2, little);
  const fieldCount = bytes[pos + 4] ?? 0;
  pos += 5;
  if (pos + fieldCount * 3 > end)
    throw corrupt(source, `a definition at byte ${start - 1} runs past the end of the FIT data.`);
  const def: Definition = {
    global,
    little,
    size: 0,
    timestamp: -1,
    lat: -1,
    lng: -1,
    altitude: -1,
    enhancedAltitude: -1,
    manufacturer: -1,
    product: -1,
  };
  for (let i = 0; i < fieldCount; i += 1) {
    const number = bytes[pos] ?? 0;
    const size = bytes[pos + 1] ?? 0;
    pos += 3;
    // Fields are located by number and size only: producers disagree on base types, never on these widths.
    if (number === FIELD_TIMESTAMP && size === 4) def.timestamp = def.size;
    else if (global === MESG_RECORD) {
      if (number === FIELD_POSITION_LAT && size === 4) def.lat = def.size;
      else if (number === FIELD_POSITION_LONG && size === 4) def.lng = def.size;
      else if (number === FIELD_ALTITUDE && size === 2) def.altitude = def.size;
      else if (number === FIELD_ENHANCED_ALTITUDE && size === 4) def.enhancedAltitude = def.size;
    } else if (global === MESG_FILE_ID) {
      if (number === FIELD_MANUFACTURER && size === 2) def.manufacturer = def.size;
      else if (number === FIELD_PRODUCT && size === 2) def.product = def.size;
    }
    def.size += size;
  }
  if (header & 0x20) {
    // Developer data fields: only their sizes matter here.
    if (pos + 1 > end) throw corrupt(source, `a definition at byte ${start - 1} runs past the end of the FIT data.`);
    const devCount = bytes[pos] ?? 0;
    pos += 1;
    if (pos + devCount * 3 > end)
      throw corrupt(source, `a definition at byte ${start - 1} runs past the end of the FIT data.`);
    for (let i = 0; i < devCount; i += 1) {
      def.size += bytes[pos + 1] ?? 0;
      pos += 3;
    }
  }
  definitions[header & 0x0f] = def;
  return pos;
}

function recordPoint(view: DataView, pos: number, def: Definition, time: number | undefined): TrackPoint | undefined {
  if (time === undefined || time < FIT_MIN_ABSOLUTE_TIME || def.lat < 0 || def.lng < 0) return undefined;
  const rawLat = view.getInt32(pos + def.lat, def.little);
  const rawLng = view.getInt32(pos + def.lng, def.little);
  if (rawLat === SINT32_INVALID || rawLng === SINT32_INVALID) return undefined;
  const lat = rawLat * SEMICIRCLES_TO_DEGREES;
  const lng = rawLng * SEMICIRCLES_TO_DEGREES;
  if (lat < -90 || lat > 90) return undefined;
  const point: TrackPoint = { time: FIT_EPOCH_MS + time * 1000, lat, lng };
  let rawAltitude: number | undefined;
  if (def.enhancedAltitude >= 0) {
    const value = view.getUint32(pos + def.enhancedAltitude, def.little);
    if (value !== UINT32_INVALID) rawAltitude = value;
  }
  if (rawAltitude === undefined && def.altitude >= 0) {
    const value = view.getUint16(pos + def.altitude, def.little);
    if (value !== UINT16_INVALID) rawAltitude = value;
  }
  // Scale 5, offset 500; subtracting the offset before dividing keeps values such as 236.8 exact.
  if (rawAltitude !== undefined) point.ele = (rawAltitude - 2500) / 5;
  return point;
}

function describeCreator(state: State): string | undefined {
  if (state.manufacturer === undefined) return undefined;
  const name = MANUFACTURERS[state.manufacturer] ?? `FIT manufacturer ${state.manufacturer}`;
  return state.product === undefined ? name : `${name} product ${state.product}`;
}

function truncated(source: string, message: string): InputError {
  return new InputError(source, 'truncated', message, {
    hint: 'The file was cut short while copying or uploading; copy it from the watch or training app again.',
  });
}

function corrupt(source: string, message: string): InputError {
  return new InputError(source, 'corrupt', message, {
    hint: 'The file is damaged; copy it from the watch or training app again.',
  });
}
