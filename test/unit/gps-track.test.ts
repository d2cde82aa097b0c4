import { describe, expect, it } from 'vitest';
import { parseTrack } from '../../src/gps/track.js';
import { catchInputError, realdata, utf8 } from '../helpers/files.js';

describe('parseTrack input checks', () => {
  it('refuses empty input, naming the default source "route file"', () => {
    const error = catchInputError(() => parseTrack(new Uint8Array()));
    expect(error.reason).toBe('empty');
    expect(error.code).toBe('invalid_input');
    expect(error.message).toMatch(/^route file: the file is empty/);
  });

  it('refuses input holding only a BOM and whitespace as empty', () => {
    expect(catchInputError(() => parseTrack(new Uint8Array([0xef, 0xbb, 0xbf, 0x20, 0x0a]))).reason).toBe('empty');
  });

  it('refuses input over 64 MiB before looking at it', () => {
    const error = catchInputError(() => parseTrack(new Uint8Array(64 * 1024 * 1024 + 1), 'huge.gpx'));
    expect(error.reason).toBe('too_large');
    expect(error.message).toMatch(/^huge\.gpx: the file is 64\.0 MiB/);
  });

  it('refuses IOF XML, naming its root element', () => {
    const error = catchInputError(() => parseTrack(realdata('iof3/sportorg_ResultList.xml'), 'results.gpx'));
    expect(error.reason).toBe('unknown_format');
    expect(error.message).toMatch(/^results\.gpx: the file is XML with root element <ResultList>/);
  });

  it.each([
    ['JSON', utf8('{"points":[]}')],
    ['a PNG header', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48])],
    ['plain text', utf8('lat,lon,time\n1,2,2020-01-01T00:00:00Z\n')],
  ])('refuses %s as unknown_format', (_what, bytes) => {
    expect(catchInputError(() => parseTrack(bytes)).reason).toBe('unknown_format');
  });

  it('finds a GPX root that the sniffer gives up on because a long comment comes first', () => {
    const xml = `<!--${'x'.repeat(10_000)}-->\n<gpx><trk><trkseg><trkpt lat="1" lon="2"><time>2020-01-01T00:00:00Z</time></trkpt></trkseg></trk></gpx>`;
    expect(parseTrack(utf8(xml)).points).toHaveLength(1);
  });

  it('reports broken XML as not well-formed rather than as an unknown format', () => {
    const error = catchInputError(() =>
      parseTrack(utf8('<?xml version="1.0"?>\n<ResultList>\n<Event>\n</ResultList>')),
    );
    expect(error.reason).toBe('not_well_formed');
    expect(error.line).toBe(4);
  });

  it('serialises its reason, line and column for programs', () => {
    const error = catchInputError(() => parseTrack(realdata('gpx/rg2_invalid.gpx'), 'invalid.gpx'));
    expect(error.toJSON()).toMatchObject({
      code: 'invalid_input',
      source: 'invalid.gpx',
      reason: 'not_well_formed',
      line: 2,
    });
  });
});

describe('parseTrack size limit', () => {
  const gpxOf = (points: number): Uint8Array =>
    utf8(
      `<gpx><trk><trkseg>${Array.from(
        { length: points },
        (_, i) =>
          `<trkpt lat="1" lon="${(i % 100_000) / 1000}"><ele>123.4</ele><time>${new Date(Date.UTC(2020, 0, 1) + i * 1000).toISOString()}</time></trkpt>`,
      ).join('\n')}</trkseg></trk></gpx>`,
    );

  it('refuses a file over the maxBytes the caller gives, naming that limit', () => {
    const bytes = gpxOf(20_000);
    const error = catchInputError(() => parseTrack(bytes, 'long.gpx', { maxBytes: 1024 * 1024 }));
    expect(error.reason).toBe('too_large');
    expect(error.message).toMatch(/^long\.gpx: the file is 1\.\d MiB; route files larger than 1 MiB are refused/);
  });

  it('reads a file over 64 MiB when the caller raises maxBytes', () => {
    // 800,000 points of about 90 bytes: over the default limit, read point for point.
    const bytes = gpxOf(800_000);
    expect(bytes.length).toBeGreaterThan(64 * 1024 * 1024);
    expect(catchInputError(() => parseTrack(bytes)).reason).toBe('too_large');
    const track = parseTrack(bytes, 'long.gpx', { maxBytes: 128 * 1024 * 1024 });
    expect(track.points).toHaveLength(800_000);
    expect(track.points.at(-1)).toEqual({ time: Date.UTC(2020, 0, 1) + 799_999_000, lat: 1, lng: 99.999, ele: 123.4 });
  });
});
