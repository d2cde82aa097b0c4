import { describe, expect, it } from 'vitest';
import { parseTrack } from '../../src/gps/track.js';
import { catchInputError, realdata, utf8 } from '../helpers/files.js';

const gpx = (
  body: string,
  root = '<gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">',
): Uint8Array => utf8(`<?xml version="1.0" encoding="UTF-8"?>\n${root}\n${body}\n</gpx>\n`);

// Expected values below were read from the files with Python's xml.etree, not with this parser.
describe('parseTrack on real GPX files', () => {
  it('reads GPSBabel GPX 1.0, keeping only the 513 of 871 track points that have a time', () => {
    const track = parseTrack(realdata('gpx/gpxpy_korita-zbevnica_gpsbabel_gpx10.gpx'), 'korita.gpx');
    expect(track.format).toBe('gpx');
    expect(track.creator).toBe('GPSBabel - http://www.gpsbabel.org');
    expect(track.points).toHaveLength(513);
    expect(track.points[0]).toEqual({
      time: Date.UTC(2010, 9, 3, 9, 36, 30),
      lat: 45.452595614,
      lng: 14.018194014,
      ele: 753.330322,
    });
    expect(track.points.at(-1)).toEqual({
      time: Date.UTC(2010, 9, 3, 13, 19, 31),
      lat: 45.452453708,
      lng: 14.018215053,
      ele: 770.634033,
    });
  });

  it('reads Garmin Connect GPX 1.1 with extensions', () => {
    const track = parseTrack(realdata('gpx/rg2_ellenbrook_garminconnect.gpx'));
    expect(track.creator).toBe('Garmin Connect');
    expect(track.points).toHaveLength(3864);
    expect(track.points[0]).toEqual({
      time: Date.UTC(2014, 6, 26, 17, 49, 50),
      lat: 51.75731020979583,
      lng: -0.26766308583319187,
      ele: 85,
    });
    expect(track.points.at(-1)).toEqual({
      time: Date.UTC(2014, 6, 26, 18, 54, 14),
      lat: 51.75526091828942,
      lng: -0.26774799451231956,
      ele: 87,
    });
  });

  it('reads a file with BOM and no namespace or version, and says it holds only a waypoint', () => {
    const error = catchInputError(() => parseTrack(realdata('gpx/gpxpy_unicode_with_bom.gpx'), 'bom.gpx'));
    expect(error.reason).toBe('no_track_points');
    expect(error.message).toMatch(/^bom\.gpx: .*1 waypoint but no track/);
  });

  it('reports the stray element of a hand-damaged file as not well-formed, with line and column', () => {
    const error = catchInputError(() => parseTrack(realdata('gpx/rg2_invalid.gpx'), 'invalid.gpx'));
    expect(error.reason).toBe('not_well_formed');
    expect(error.line).toBe(2);
    // Column 14, where the '=' of the attribute GPX was expected, as xmllint points and as `inspect` says of this file:
    // route files are now read by the same tokenizer as IOF files (the tree parser before said 10).
    expect(error.column).toBe(14);
    expect(error.message).toMatch(/^invalid\.gpx:2:14: /);
  });
});

describe('parseTrack on GPX edge cases', () => {
  it('keeps fractional seconds and applies time-zone offsets', () => {
    const track = parseTrack(
      gpx(`<trk><trkseg>
        <trkpt lat="1" lon="2"><time>2016-05-27T10:08:47.8Z</time></trkpt>
        <trkpt lat="1" lon="2"><time>2016-05-27T12:08:48.125+02:00</time></trkpt>
        <trkpt lat="1" lon="2"><time>2016-05-27T10:08:49</time></trkpt>
      </trkseg></trk>`),
    );
    expect(track.points.map((p) => new Date(p.time).toISOString())).toEqual([
      '2016-05-27T10:08:47.800Z',
      '2016-05-27T10:08:48.125Z',
      '2016-05-27T10:08:49.000Z',
    ]);
  });

  it('drops points without a usable time or position instead of guessing', () => {
    const track = parseTrack(
      gpx(`<trk><trkseg>
        <trkpt lat="1" lon="2"><ele>5</ele></trkpt>
        <trkpt lat="1" lon="2"><time>03-OCT-10 16:01:13</time></trkpt>
        <trkpt lat="1" lon="2"><time>2010-02-30T10:00:00Z</time></trkpt>
        <trkpt lat="" lon="2"><time>2010-10-03T10:00:00Z</time></trkpt>
        <trkpt lat="91" lon="2"><time>2010-10-03T10:00:00Z</time></trkpt>
        <trkpt lat="1" lon="abc"><time>2010-10-03T10:00:00Z</time></trkpt>
        <trkpt lat="-33.5" lon="-70.25"><ele> </ele><time>2010-10-03T10:00:01Z</time></trkpt>
      </trkseg></trk>`),
    );
    expect(track.points).toEqual([{ time: Date.UTC(2010, 9, 3, 10, 0, 1), lat: -33.5, lng: -70.25 }]);
  });

  it('joins all tracks and segments in file order', () => {
    const pt = (s: number): string => `<trkpt lat="1" lon="${s}"><time>2020-01-01T00:00:0${s}Z</time></trkpt>`;
    const track = parseTrack(
      gpx(`<trk><trkseg>${pt(1)}${pt(2)}</trkseg><trkseg>${pt(3)}</trkseg></trk><trk><trkseg>${pt(4)}</trkseg></trk>`),
    );
    expect(track.points.map((p) => p.lng)).toEqual([1, 2, 3, 4]);
  });

  it('accepts a route (rte/rtept) when its points have times', () => {
    const track = parseTrack(
      gpx(`<rte><rtept lat="60.1" lon="24.9"><time>2021-06-01T08:00:00Z</time></rtept>
           <rtept lat="60.2" lon="24.8"><time>2021-06-01T08:00:05Z</time></rtept></rte>`),
    );
    expect(track.points).toEqual([
      { time: Date.UTC(2021, 5, 1, 8, 0, 0), lat: 60.1, lng: 24.9 },
      { time: Date.UTC(2021, 5, 1, 8, 0, 5), lat: 60.2, lng: 24.8 },
    ]);
  });

  it('prefers the recorded track over a timed route in the same file', () => {
    const track = parseTrack(
      gpx(`<rte><rtept lat="9" lon="9"><time>2021-06-01T08:00:00Z</time></rtept></rte>
           <trk><trkseg><trkpt lat="1" lon="1"><time>2021-06-01T08:00:00Z</time></trkpt></trkseg></trk>`),
    );
    expect(track.points).toEqual([{ time: Date.UTC(2021, 5, 1, 8), lat: 1, lng: 1 }]);
  });

  it('refuses a planned route without times, saying so', () => {
    const error = catchInputError(() => parseTrack(gpx('<rte><rtept lat="1" lon="2"/><rtept lat="1" lon="3"/></rte>')));
    expect(error.reason).toBe('no_track_points');
    expect(error.message).toContain('route of 2 points without times');
  });

  it('refuses track points that all lack times, saying how many there were', () => {
    const error = catchInputError(() => parseTrack(gpx('<trk><trkseg><trkpt lat="1" lon="2"/></trkseg></trk>')));
    expect(error.reason).toBe('no_track_points');
    expect(error.message).toContain('1 track points, but none with both a time and a valid position');
  });

  it('reads namespace-prefixed elements', () => {
    const track = parseTrack(
      utf8(`<g:gpx xmlns:g="http://www.topografix.com/GPX/1/0" version="1.0" creator="pref">
        <g:trk><g:trkseg><g:trkpt lat="1.5" lon="2.5"><g:ele>3</g:ele><g:time>2001-01-01T00:00:00Z</g:time></g:trkpt>
        </g:trkseg></g:trk></g:gpx>`),
    );
    expect(track).toEqual({
      format: 'gpx',
      creator: 'pref',
      points: [{ time: Date.UTC(2001, 0, 1), lat: 1.5, lng: 2.5, ele: 3 }],
    });
  });

  it('decodes the predefined entities and character references in the creator', () => {
    const track = parseTrack(
      gpx(
        '<trk><trkseg><trkpt lat="1" lon="2"><time>2001-01-01T00:00:00Z</time></trkpt></trkseg></trk>',
        '<gpx version="1.1" creator="S&amp;P &lt;&#229;&#x2603;&gt; &unknown;">',
      ),
    );
    expect(track.creator).toBe('S&P <å☃> &unknown;');
  });

  it('decodes ISO-8859-1 and windows-1252 files by their declaration', () => {
    const latin = (encoding: string, byte: number): Uint8Array => {
      const head = utf8(`<?xml version="1.0" encoding="${encoding}"?>\n<gpx creator="G`);
      const tail = utf8(
        '"><trk><trkseg><trkpt lat="1" lon="2"><time>2001-01-01T00:00:00Z</time></trkpt></trkseg></trk></gpx>',
      );
      return new Uint8Array([...head, byte, ...tail]);
    };
    expect(parseTrack(latin('ISO-8859-1', 0xe5)).creator).toBe('Gå');
    expect(parseTrack(latin('windows-1252', 0x80)).creator).toBe('G€');
  });

  it('reads a UTF-16 file marked by its BOM', () => {
    const text =
      '<?xml version="1.0" encoding="UTF-16"?>\n<gpx creator="Ålesund">' +
      '<trk><trkseg><trkpt lat="62.47" lon="6.15"><time>2001-01-01T00:00:00Z</time></trkpt></trkseg></trk></gpx>';
    const bytes = new Uint8Array(2 + text.length * 2);
    bytes.set([0xff, 0xfe]);
    const view = new DataView(bytes.buffer);
    for (let i = 0; i < text.length; i += 1) view.setUint16(2 + i * 2, text.charCodeAt(i), true);
    expect(parseTrack(bytes)).toEqual({
      format: 'gpx',
      creator: 'Ålesund',
      points: [{ time: Date.UTC(2001, 0, 1), lat: 62.47, lng: 6.15 }],
    });
  });

  it('reports line numbers of the original file when whitespace precedes the declaration', () => {
    const error = catchInputError(() =>
      parseTrack(utf8('\n\n\n<?xml version="1.0"?>\n<gpx>\n<trk></trkseg>\n</gpx>'), 'lead.gpx'),
    );
    expect(error.reason).toBe('not_well_formed');
    expect(error.line).toBe(6);
  });

  it('refuses a DOCTYPE that declares entities, without expanding them', () => {
    const laughs =
      '<?xml version="1.0"?>\n<!DOCTYPE gpx [\n  <!ENTITY lol "lol">\n  <!ENTITY lol2 "&lol;&lol;&lol;&lol;">\n]>\n' +
      '<gpx creator="&lol2;"><trk><trkseg><trkpt lat="1" lon="2"><time>2001-01-01T00:00:00Z</time></trkpt></trkseg></trk></gpx>';
    const error = catchInputError(() => parseTrack(utf8(laughs), 'laughs.gpx'));
    expect(error.reason).toBe('not_well_formed');
    expect(error.message).toContain('entity declarations are not allowed');
    expect(error.line).toBe(3);
    expect(error.column).toBe(3);
  });

  it('accepts a DOCTYPE without entity declarations', () => {
    const xml =
      '<?xml version="1.0"?>\n<!DOCTYPE gpx SYSTEM "http://example.invalid/gpx.dtd">\n' +
      '<gpx><trk><trkseg><trkpt lat="1" lon="2"><time>2001-01-01T00:00:00Z</time></trkpt></trkseg></trk></gpx>';
    expect(parseTrack(utf8(xml)).points).toHaveLength(1);
  });

  it('refuses XML that the lenient parser alone would accept (mismatched tags)', () => {
    const error = catchInputError(() => parseTrack(gpx('<trk><trkseg><trkpt lat="1" lon="2"></trkseg></trk>')));
    expect(error.reason).toBe('not_well_formed');
    expect(error.line).toBe(3);
  });

  it('refuses two root elements', () => {
    const error = catchInputError(() => parseTrack(utf8('<gpx></gpx><gpx></gpx>')));
    expect(error.reason).toBe('not_well_formed');
  });

  // Until the GPS reader shared the IOF decoder, such bytes became U+FFFD; now they are refused as in IOF files.
  it('refuses bytes that are invalid in the declared encoding with bad_encoding and the line', () => {
    const head = utf8('<?xml version="1.0" encoding="UTF-8"?>\n<gpx creator="G');
    const tail = utf8(
      '"><trk><trkseg><trkpt lat="1" lon="2"><time>2001-01-01T00:00:00Z</time></trkpt></trkseg></trk></gpx>',
    );
    const error = catchInputError(() => parseTrack(new Uint8Array([...head, 0xe5, ...tail]), 'latin.gpx'));
    expect(error.reason).toBe('bad_encoding');
    expect(error.line).toBe(2);
  });

  it('refuses an encoding it does not decode with unsupported_encoding', () => {
    const xml = '<?xml version="1.0" encoding="KOI8-R"?>\n<gpx></gpx>';
    expect(catchInputError(() => parseTrack(utf8(xml))).reason).toBe('unsupported_encoding');
  });

  it('refuses a billion-laughs GPX quickly, before any expansion', () => {
    const levels = Array.from({ length: 9 }, (_, i) => `<!ENTITY l${i + 1} "${`&l${i};`.repeat(10)}">`).join('');
    const text = `<?xml version="1.0"?>\n<!DOCTYPE gpx [<!ENTITY l0 "lol">${levels}]>\n<gpx creator="&l9;"></gpx>`;
    const started = performance.now();
    const error = catchInputError(() => parseTrack(utf8(text), 'lolz.gpx'));
    expect(performance.now() - started).toBeLessThan(50);
    expect(error).toMatchObject({ reason: 'not_well_formed', line: 2, column: 16 });
  });

  it('refuses XML nested too deeply to be a route file as too_large', () => {
    const xml = `<gpx>${'<e>'.repeat(1000)}${'</e>'.repeat(1000)}</gpx>`;
    expect(catchInputError(() => parseTrack(utf8(xml))).reason).toBe('too_large');
  });
});

describe('parseTrack on GPX that real apps write but strict XML refuses', () => {
  it('keeps a stray & and an unknown entity in the creator as text', () => {
    const track = parseTrack(
      gpx(
        '<trk><trkseg><trkpt lat="1" lon="2"><time>2001-01-01T00:00:00Z</time></trkpt></trkseg></trk>',
        '<gpx version="1.1" creator="Run & Walk &nbsp;">',
      ),
    );
    expect(track.creator).toBe('Run & Walk &nbsp;');
  });

  it('reads prefixed names whose namespace is not declared (xsi:schemaLocation, gpxtpx: extensions)', () => {
    const track = parseTrack(
      gpx(
        '<trk><trkseg><trkpt lat="1" lon="2"><time>2001-01-01T00:00:00Z</time>' +
          '<extensions><gpxtpx:hr>120</gpxtpx:hr></extensions></trkpt></trkseg></trk>',
        '<gpx version="1.1" creator="app" xsi:schemaLocation="http://www.topografix.com/GPX/1/1">',
      ),
    );
    expect(track.points).toEqual([{ time: Date.UTC(2001, 0, 1), lat: 1, lng: 2 }]);
  });

  it('still refuses a malformed character reference', () => {
    const error = catchInputError(() =>
      parseTrack(gpx('<trk><trkseg><trkpt lat="1" lon="2"><time>&#xZZ;</time></trkpt></trkseg></trk>')),
    );
    expect(error.reason).toBe('not_well_formed');
    expect(error.line).toBe(3);
  });

  it('takes only the first time of a point, and a time written as CDATA', () => {
    const track = parseTrack(
      gpx(`<trk><trkseg>
        <trkpt lat="1" lon="2"><time>2001-01-01T00:00:00Z</time><time>2002-01-01T00:00:00Z</time></trkpt>
        <trkpt lat="1" lon="3"><time><![CDATA[2001-01-01T00:00:01Z]]></time></trkpt>
      </trkseg></trk>`),
    );
    expect(track.points.map((p) => p.time)).toEqual([Date.UTC(2001, 0, 1), Date.UTC(2001, 0, 1, 0, 0, 1)]);
  });
});
