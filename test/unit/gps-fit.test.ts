import { describe, expect, it } from 'vitest';
import { fitCrc16 } from '../../src/gps/fit.js';
import { parseTrack } from '../../src/gps/track.js';
import { catchInputError, realdata } from '../helpers/files.js';

// A FIT builder written from the protocol description, independent of src/gps/fit-write.ts, so that the decoder is
// checked against hand-made bytes: big-endian definitions, compressed timestamps, developer fields.

/** CRC-16/ARC computed bit by bit: the same polynomial FIT's nibble table encodes, by a different route. */
function crc16Arc(bytes: ArrayLike<number>): number {
  let crc = 0;
  for (let i = 0; i < bytes.length; i += 1) {
    crc ^= bytes[i] ?? 0;
    for (let k = 0; k < 8; k += 1) crc = crc & 1 ? (crc >>> 1) ^ 0xa001 : crc >>> 1;
  }
  return crc;
}

const u16 = (v: number, bigEndian = false): number[] =>
  bigEndian ? [(v >> 8) & 255, v & 255] : [v & 255, (v >> 8) & 255];
const u32 = (v: number, bigEndian = false): number[] => {
  const le = [v & 255, (v >>> 8) & 255, (v >>> 16) & 255, (v >>> 24) & 255];
  return bigEndian ? le.reverse() : le;
};
const i32 = (v: number, bigEndian = false): number[] => u32(v >>> 0, bigEndian);

type Field = [number: number, size: number, baseType: number];
const TIMESTAMP: Field = [253, 4, 0x86];
const LAT: Field = [0, 4, 0x85];
const LNG: Field = [1, 4, 0x85];
const ALTITUDE: Field = [2, 2, 0x84];
const ENHANCED_ALTITUDE: Field = [78, 4, 0x86];

class FitBuilder {
  private readonly data: number[] = [];

  define(
    local: number,
    global: number,
    fields: Field[],
    options: { bigEndian?: boolean; devSizes?: number[] } = {},
  ): this {
    const { bigEndian = false, devSizes } = options;
    this.data.push(
      0x40 | (devSizes ? 0x20 : 0) | local,
      0,
      bigEndian ? 1 : 0,
      ...u16(global, bigEndian),
      fields.length,
    );
    for (const field of fields) this.data.push(...field);
    if (devSizes) {
      this.data.push(devSizes.length);
      devSizes.forEach((size, i) => this.data.push(i, size, 0));
    }
    return this;
  }

  message(header: number, ...parts: number[][]): this {
    this.data.push(header, ...parts.flat());
    return this;
  }

  build(options: { headerSize?: 12 | 14; headerCrc?: boolean } = {}): Uint8Array {
    const { headerSize = 14, headerCrc = true } = options;
    const header = [headerSize, 0x10, ...u16(2100), ...u32(this.data.length), 0x2e, 0x46, 0x49, 0x54];
    if (headerSize === 14) header.push(...u16(headerCrc ? crc16Arc(header) : 0));
    const file = [...header, ...this.data];
    return new Uint8Array([...file, ...u16(crc16Arc(file))]);
  }
}

const FIT_EPOCH_MS = Date.UTC(1989, 11, 31);
const fitSeconds = (ms: number): number => (ms - FIT_EPOCH_MS) / 1000;
/** A base time whose low five bits are 30, so that the next compressed offsets roll over. */
const T0 = (() => {
  const s = fitSeconds(Date.UTC(2021, 8, 5, 10));
  return s - (s & 31) + 30;
})();
const at = (seconds: number): number => FIT_EPOCH_MS + seconds * 1000;
// Semicircle values that are exact powers of two, so the expected degrees are exact.
const DEG_90 = 2 ** 30;
const DEG_45 = 2 ** 29;
const DEG_22_5 = 2 ** 28;
const DEG_11_25 = 2 ** 27;

describe('parseTrack on real FIT files', () => {
  // Expected values were read with a separate Python reader of the FIT protocol, not with this decoder.
  it('reads a Garmin fenix 2 run', () => {
    const track = parseTrack(realdata('fit/fitparse_activity-small-fenix2-run.fit'));
    expect(track.format).toBe('fit');
    expect(track.creator).toBe('Garmin product 1967');
    expect(track.points).toHaveLength(2809);
    const first = track.points[0]!;
    const last = track.points.at(-1)!;
    expect(first).toMatchObject({ time: 1_439_649_908_000, lat: 58.95918281748891, lng: 5.728839039802551 });
    expect(first.ele).toBeCloseTo(55, 9);
    expect(last).toMatchObject({ time: 1_439_652_741_000, lat: 58.95881451666355, lng: 5.729834055528045 });
    expect(last.ele).toBeCloseTo(58.6, 9);
  });

  it('matches the GPX export of the same Garmin Connect activity at its first and last point', () => {
    // Reference: sports-alliance/sports-lib src/specs/fixtures/runs/gpx/2067489619.gpx (commit 236ae407), the GPX that
    // Garmin Connect exported for activity 2067489619; that file is not in realdata, so its end points are copied here.
    const track = parseTrack(realdata('fit/sportslib_run_2067489619.fit'));
    expect(track.points).toHaveLength(502);
    const first = track.points[0]!;
    const last = track.points.at(-1)!;
    expect(first.time).toBe(Date.parse('2017-10-08T14:54:11.000Z'));
    expect(first.lat).toBeCloseTo(45.20987707190215587615966796875, 9);
    expect(first.lng).toBeCloseTo(5.7817612029612064361572265625, 9);
    expect(first.ele).toBeCloseTo(236.8000030517578125, 2);
    expect(last.time).toBe(Date.parse('2017-10-08T15:41:09.000Z'));
    expect(last.lat).toBeCloseTo(45.21028627641499042510986328125, 9);
    expect(last.lng).toBeCloseTo(5.7823730818927288055419921875, 9);
    expect(last.ele).toBeCloseTo(237.399993896484375, 2);
  });

  it('reports a file shorter than its header says as truncated', () => {
    const error = catchInputError(() =>
      parseTrack(realdata('fit/fitparse_activity-unexpected-eof_truncated.fit'), 'eof.fit'),
    );
    expect(error.reason).toBe('truncated');
    expect(error.message).toMatch(/^eof\.fit: the FIT header announces 757 bytes of data/);
  });

  it('reports a real file cut short as truncated', () => {
    const bytes = realdata('fit/fitparse_activity-small-fenix2-run.fit');
    expect(catchInputError(() => parseTrack(bytes.subarray(0, bytes.length - 100))).reason).toBe('truncated');
  });

  it('reports a changed byte as corrupt through the file checksum', () => {
    const bytes = realdata('fit/fitparse_activity-small-fenix2-run.fit');
    bytes[60_000] = (bytes[60_000] ?? 0) ^ 0x01;
    const error = catchInputError(() => parseTrack(bytes));
    expect(error.reason).toBe('corrupt');
    expect(error.message).toContain('checksum');
  });

  it('reports bytes after the end of the FIT data as corrupt', () => {
    const bytes = realdata('fit/sportslib_run_2067489619.fit');
    expect(catchInputError(() => parseTrack(new Uint8Array([...bytes, 0, 0, 0]))).reason).toBe('corrupt');
  });

  it('reads a file that is a view into a larger buffer', () => {
    const bytes = realdata('fit/sportslib_run_2067489619.fit');
    const padded = new Uint8Array(bytes.length + 7);
    padded.set(bytes, 3);
    expect(parseTrack(padded.subarray(3, 3 + bytes.length)).points).toHaveLength(502);
  });
});

describe('parseTrack on hand-built FIT files', () => {
  it('implements the standard CRC-16 that FIT uses (check value of "123456789" is 0xBB3D)', () => {
    expect(fitCrc16(new TextEncoder().encode('123456789'))).toBe(0xbb3d);
  });

  it('decodes big-endian definitions, compressed timestamps with rollover, developer fields and redefinitions', () => {
    const bytes = new FitBuilder()
      .define(0, 0, [
        [0, 1, 0x00],
        [1, 2, 0x84],
        [2, 2, 0x84],
        [4, 4, 0x86],
      ])
      .message(0x00, [4], u16(1), u16(42), u32(T0))
      // Record with a full timestamp, big-endian, plain altitude only.
      .define(1, 20, [TIMESTAMP, LAT, LNG, ALTITUDE, ENHANCED_ALTITUDE], { bigEndian: true })
      .message(0x01, u32(T0, true), i32(DEG_45, true), i32(-DEG_22_5, true), u16(3000, true), u32(0xffffffff, true))
      // Records without a timestamp field, for compressed headers, with two developer fields (3 + 1 bytes).
      .define(2, 20, [LAT, LNG, ENHANCED_ALTITUDE], { devSizes: [3, 1] })
      .message(0x80 | (2 << 5) | 0, i32(DEG_11_25), i32(DEG_11_25), u32(2562), [0xaa, 0xbb, 0xcc, 0xdd]) // T0 + 2
      .message(0x80 | (2 << 5) | 3, i32(0x7fffffff), i32(DEG_11_25), u32(2562), [0, 0, 0, 0]) // T0 + 5, no position
      .message(0x80 | (2 << 5) | 1, i32(-DEG_90), i32(DEG_90), u32(0xffffffff), [0, 0, 0, 0]) // T0 + 35
      // Any message's timestamp resets the base of compressed timestamps.
      .define(3, 21, [TIMESTAMP, [0, 1, 0x00], [1, 1, 0x00]])
      .message(0x03, u32(T0 + 100), [0], [0])
      .message(0x80 | (2 << 5) | ((T0 + 101) & 31), i32(DEG_45), i32(DEG_45), u32(0xffffffff), [0, 0, 0, 0])
      // Local type 1 redefined as a little-endian record without altitude.
      .define(1, 20, [TIMESTAMP, LAT, LNG])
      .message(0x01, u32(T0 + 200), i32(DEG_22_5), i32(-DEG_45))
      .build();
    expect(parseTrack(bytes)).toEqual({
      format: 'fit',
      creator: 'Garmin product 42',
      points: [
        { time: at(T0), lat: 45, lng: -22.5, ele: 100 },
        { time: at(T0 + 2), lat: 11.25, lng: 11.25, ele: 12.4 },
        { time: at(T0 + 35), lat: -90, lng: 90 },
        { time: at(T0 + 101), lat: 45, lng: 45 },
        { time: at(T0 + 200), lat: 22.5, lng: -45 },
      ],
    });
  });

  it('prefers enhanced_altitude over altitude', () => {
    const bytes = new FitBuilder()
      .define(0, 20, [TIMESTAMP, LAT, LNG, ALTITUDE, ENHANCED_ALTITUDE])
      .message(0x00, u32(T0), i32(DEG_45), i32(DEG_45), u16(3000), u32(2500 + 5 * 8000))
      .build();
    expect(parseTrack(bytes).points[0]?.ele).toBe(8000);
  });

  it('skips records whose time is unknown or counts from power-on rather than a date', () => {
    const bytes = new FitBuilder()
      .define(0, 20, [LAT, LNG])
      .message(0x80 | 5, i32(DEG_45), i32(DEG_45)) // compressed, but no full timestamp seen yet
      .define(1, 20, [TIMESTAMP, LAT, LNG])
      .message(0x01, u32(5000), i32(DEG_45), i32(DEG_45)) // relative time (< 0x10000000)
      .message(0x01, u32(0xffffffff), i32(DEG_45), i32(DEG_45)) // invalid time
      .message(0x01, u32(T0), i32(DEG_45), i32(DEG_22_5))
      .build();
    expect(parseTrack(bytes).points).toEqual([{ time: at(T0), lat: 45, lng: 22.5 }]);
  });

  it('accepts a 12-byte header and a 14-byte header whose checksum is left at zero', () => {
    const build = (options: { headerSize?: 12 | 14; headerCrc?: boolean }): Uint8Array =>
      new FitBuilder()
        .define(0, 20, [TIMESTAMP, LAT, LNG])
        .message(0x00, u32(T0), i32(DEG_45), i32(DEG_45))
        .build(options);
    expect(parseTrack(build({ headerSize: 12 })).points).toHaveLength(1);
    expect(parseTrack(build({ headerCrc: false })).points).toHaveLength(1);
  });

  it('reads chained FIT files one after the other', () => {
    const one = (seconds: number): Uint8Array =>
      new FitBuilder()
        .define(0, 20, [TIMESTAMP, LAT, LNG])
        .message(0x00, u32(seconds), i32(DEG_45), i32(DEG_45))
        .build();
    expect(parseTrack(new Uint8Array([...one(T0), ...one(T0 + 1)])).points.map((p) => p.time)).toEqual([
      at(T0),
      at(T0 + 1),
    ]);
  });

  it('reports a header checksum mismatch as corrupt', () => {
    const bytes = new FitBuilder().define(0, 20, [TIMESTAMP, LAT, LNG]).build();
    bytes[12] = (bytes[12] ?? 0) ^ 0xff;
    const error = catchInputError(() => parseTrack(bytes));
    expect(error.reason).toBe('corrupt');
    expect(error.message).toContain('header checksum');
  });

  it('reports a data message before its definition as corrupt', () => {
    const bytes = new FitBuilder().message(0x00, u32(T0)).build();
    expect(catchInputError(() => parseTrack(bytes)).reason).toBe('corrupt');
  });

  it('reports a message running past the end of the data as corrupt', () => {
    const bytes = new FitBuilder().define(0, 20, [TIMESTAMP, LAT, LNG]).message(0x00, u32(T0)).build();
    const error = catchInputError(() => parseTrack(bytes));
    expect(error.reason).toBe('corrupt');
    expect(error.message).toContain('runs past the end');
  });

  it('reports an unknown architecture byte as corrupt', () => {
    const bytes = new FitBuilder().message(0x40, [0, 2], u16(20), [0]).build();
    expect(catchInputError(() => parseTrack(bytes)).reason).toBe('corrupt');
  });

  it('reports a file that ends inside its header as truncated', () => {
    const bytes = new FitBuilder().build().subarray(0, 13);
    expect(catchInputError(() => parseTrack(bytes)).reason).toBe('truncated');
  });

  it('refuses a FIT file without records, naming what it may be instead', () => {
    const bytes = new FitBuilder()
      .define(0, 0, [[0, 1, 0x00]])
      .message(0x00, [5])
      .build();
    const error = catchInputError(() => parseTrack(bytes, 'workout.fit'));
    expect(error.reason).toBe('no_track_points');
    expect(error.message).toContain('no records');
  });
});
