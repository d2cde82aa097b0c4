import { XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { writeFit } from '../../src/gps/fit-write.js';
import { sniffGpsFormat } from '../../src/gps/sniff.js';
import { parseTrack } from '../../src/gps/track.js';
import type { TrackPoint } from '../../src/gps/types.js';
import { writeGpx, writeTcx } from '../../src/gps/write.js';
import { catchValidationError, realdata, utf8 } from '../helpers/files.js';

const POINTS: TrackPoint[] = [
  { time: Date.UTC(2022, 4, 14, 9, 30, 0, 250), lat: 59.3293235, lng: 18.0685808, ele: 28.4 },
  { time: Date.UTC(2022, 4, 14, 9, 30, 1, 750), lat: 59.32935, lng: 18.06864, ele: -3.25 },
  { time: Date.UTC(2022, 4, 14, 9, 30, 3), lat: -0.0000001, lng: -179.9999999 },
  { time: Date.UTC(2022, 4, 14, 9, 30, 5), lat: 0, lng: 0.000000123456789, ele: 0 },
];

describe('writeGpx', () => {
  it('round-trips points exactly through parseTrack (millisecond times, full double precision)', () => {
    const track = parseTrack(utf8(writeGpx(POINTS)));
    expect(track).toEqual({ format: 'gpx', points: POINTS, creator: 'livelox-bridge' });
  });

  it('writes well-formed GPX 1.1 with its namespace and UTC times', () => {
    const xml = writeGpx(POINTS, { name: 'Night sprint' });
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml).toContain('<gpx version="1.1" creator="livelox-bridge" xmlns="http://www.topografix.com/GPX/1/1"');
    expect(xml).toContain('<time>2022-05-14T09:30:00.250Z</time>');
    expect(xml).not.toMatch(/\de-\d/);
    expect(sniffGpsFormat(utf8(xml))).toBe('gpx');
  });

  it('escapes markup and keeps tabs and line breaks in the creator attribute', () => {
    const creator = 'A&B <"Team"> \'x\'\tline\nnext\r\nend';
    const name = '<Sprint> & "final"';
    const xml = writeGpx(POINTS, { creator, name });
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml).toContain('<name>&lt;Sprint&gt; &amp; "final"</name>');
    expect(parseTrack(utf8(xml)).creator).toBe(creator);
  });

  it('replaces characters XML 1.0 cannot carry', () => {
    const xml = writeGpx(POINTS, { creator: 'a\u0001b\uD800c' });
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(parseTrack(utf8(xml)).creator).toBe('a\uFFFDb\uFFFDc');
  });
});

describe('writeTcx', () => {
  it('round-trips points exactly through parseTrack', () => {
    expect(parseTrack(utf8(writeTcx(POINTS, { creator: 'Forerunner & co' })))).toEqual({
      format: 'tcx',
      points: POINTS,
      creator: 'Forerunner & co',
    });
  });

  it('writes a well-formed TCX v2 activity whose lap carries the elapsed time', () => {
    const xml = writeTcx(POINTS);
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml).toContain('<TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2"');
    expect(xml).toContain('<Lap StartTime="2022-05-14T09:30:00.250Z">');
    expect(xml).toContain('<TotalTimeSeconds>4.75</TotalTimeSeconds>');
    expect(sniffGpsFormat(utf8(xml))).toBe('tcx');
  });
});

/** Walks FIT messages with normal headers: enough to inspect what writeFit produced without using the decoder. */
function fitMessages(bytes: Uint8Array): { global: number; fields: Map<number, DataView> }[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerSize = bytes[0]!;
  const end = headerSize + view.getUint32(4, true);
  const definitions = new Map<number, { global: number; fields: [number, number][] }>();
  const messages: { global: number; fields: Map<number, DataView> }[] = [];
  let pos = headerSize;
  while (pos < end) {
    const header = bytes[pos]!;
    pos += 1;
    if (header & 0x40) {
      const fields: [number, number][] = [];
      for (let i = 0; i < bytes[pos + 4]!; i += 1) fields.push([bytes[pos + 5 + i * 3]!, bytes[pos + 6 + i * 3]!]);
      definitions.set(header & 0x0f, { global: view.getUint16(pos + 2, true), fields });
      pos += 5 + fields.length * 3;
    } else {
      const def = definitions.get(header & 0x0f)!;
      const fields = new Map<number, DataView>();
      for (const [number, size] of def.fields) {
        fields.set(number, new DataView(bytes.buffer, bytes.byteOffset + pos, size));
        pos += size;
      }
      messages.push({ global: def.global, fields });
    }
  }
  return messages;
}

function crc16Arc(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k += 1) crc = crc & 1 ? (crc >>> 1) ^ 0xa001 : crc >>> 1;
  }
  return crc;
}

describe('writeFit', () => {
  const FIT_EPOCH_MS = Date.UTC(1989, 11, 31);

  it('writes a 14-byte header with size, signature and both checksums', () => {
    const bytes = writeFit(POINTS);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    expect(bytes[0]).toBe(14);
    expect(new TextDecoder().decode(bytes.subarray(8, 12))).toBe('.FIT');
    expect(view.getUint32(4, true)).toBe(bytes.length - 14 - 2);
    expect(view.getUint16(12, true)).toBe(crc16Arc(bytes.subarray(0, 12)));
    expect(view.getUint16(bytes.length - 2, true)).toBe(crc16Arc(bytes.subarray(0, bytes.length - 2)));
    expect(sniffGpsFormat(bytes)).toBe('fit');
  });

  it('starts with a file_id for an activity by a development manufacturer, then one record per point', () => {
    const messages = fitMessages(writeFit(POINTS));
    const fileId = messages[0]!;
    expect(fileId.global).toBe(0);
    expect(fileId.fields.get(0)!.getUint8(0)).toBe(4);
    expect(fileId.fields.get(1)!.getUint16(0, true)).toBe(255);
    expect(fileId.fields.get(4)!.getUint32(0, true)).toBe(Math.round((POINTS[0]!.time - FIT_EPOCH_MS) / 1000));
    const records = messages.slice(1);
    expect(records.map((m) => m.global)).toEqual([20, 20, 20, 20]);
    expect(records.map((m) => [...m.fields.keys()])).toEqual(Array(4).fill([253, 0, 1, 78]));
  });

  it('round-trips through parseTrack to FIT resolution: whole seconds, semicircles, 0.2 m elevation', () => {
    const track = parseTrack(writeFit(POINTS));
    expect(track.format).toBe('fit');
    expect(track.points).toHaveLength(POINTS.length);
    track.points.forEach((point, i) => {
      const original = POINTS[i]!;
      expect(point.time).toBe(Math.round(original.time / 1000) * 1000);
      expect(Math.abs(point.lat - original.lat)).toBeLessThanOrEqual(90 / 2 ** 31);
      expect(Math.abs(point.lng - original.lng)).toBeLessThanOrEqual(90 / 2 ** 31);
      if (original.ele === undefined) expect(point.ele).toBeUndefined();
      else expect(Math.abs(point.ele! - original.ele)).toBeLessThanOrEqual(0.1 + 1e-9);
    });
  });

  it('reads back exactly what it wrote: writing the decoded points again gives the same bytes', () => {
    const first = writeFit(POINTS);
    expect(writeFit(parseTrack(first).points)).toEqual(first);
  });

  it('writes longitude +180 as the same meridian, -180', () => {
    const [point] = parseTrack(writeFit([{ time: Date.UTC(2020, 0, 1), lat: 10, lng: 180 }])).points;
    expect(point?.lng).toBe(-180);
  });

  it('writes an elevation FIT cannot hold (below -500 m) as absent', () => {
    const [point] = parseTrack(writeFit([{ time: Date.UTC(2020, 0, 1), lat: 45, lng: 22.5, ele: -600 }])).points;
    expect(point).toEqual({ time: Date.UTC(2020, 0, 1), lat: 45, lng: 22.5 });
  });

  it('refuses times FIT cannot store as a date', () => {
    const error = catchValidationError(() => writeFit([{ time: Date.UTC(1995, 0, 1), lat: 1, lng: 1 }]));
    expect(error.issues).toEqual([
      {
        path: 'points[0].time',
        code: 'range',
        message: 'must lie between 1998-07-04 and 2126 to be stored as a FIT date',
      },
    ]);
  });
});

describe('writer input checks', () => {
  it.each([
    ['writeGpx', (p: TrackPoint[]) => writeGpx(p)],
    ['writeTcx', (p: TrackPoint[]) => writeTcx(p)],
    ['writeFit', (p: TrackPoint[]) => writeFit(p)],
  ] as const)('%s refuses an empty list and names each bad field', (_name, write) => {
    expect(catchValidationError(() => write([])).issues[0]?.code).toBe('required');
    const error = catchValidationError(() =>
      write([
        { time: Date.UTC(2020, 0, 1), lat: 1, lng: 2 },
        { time: Number.NaN, lat: 91, lng: 2, ele: Number.POSITIVE_INFINITY },
      ]),
    );
    expect(error.issues.map((issue) => issue.path)).toEqual(['points[1].time', 'points[1].lat', 'points[1].ele']);
  });

  it('lists at most 20 problems and counts the rest', () => {
    const bad = Array.from({ length: 30 }, () => ({ time: 0, lat: 100, lng: 0 }));
    const error = catchValidationError(() => writeGpx(bad));
    expect(error.issues).toHaveLength(21);
    expect(error.issues[20]).toEqual({ path: 'points', code: 'more', message: '10 more problems not listed' });
  });
});

describe('writers against real data', () => {
  it('carries a real Garmin track through GPX, TCX and FIT without losing points', () => {
    const bytes = realdata('tcx/tcxparser_forerunner410_run.tcx');
    const { points } = parseTrack(bytes);
    expect(parseTrack(utf8(writeGpx(points))).points).toEqual(points);
    expect(parseTrack(utf8(writeTcx(points))).points).toEqual(points);
    const fit = parseTrack(writeFit(points)).points;
    expect(fit).toHaveLength(points.length);
    expect(fit.at(-1)?.time).toBe(points.at(-1)?.time);
  });
});
