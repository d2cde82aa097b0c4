import { describe, expect, it } from 'vitest';
import { sniffGpsFormat } from '../../src/gps/sniff.js';
import { realdata, utf8 } from '../helpers/files.js';

describe('sniffGpsFormat on real files', () => {
  it.each([
    ['gpx/gpxpy_korita-zbevnica_gpsbabel_gpx10.gpx', 'gpx'],
    ['gpx/gpxpy_unicode_with_bom.gpx', 'gpx'],
    ['gpx/rg2_ellenbrook_garminconnect.gpx', 'gpx'],
    ['tcx/rg2_ellenbrook_garminconnect.tcx', 'tcx'],
    ['tcx/tcxparser_forerunner410_run.tcx', 'tcx'],
    ['fit/fitparse_activity-small-fenix2-run.fit', 'fit'],
    ['fit/sportslib_run_2067489619.fit', 'fit'],
    // Truncation is found when parsing; the header alone still says FIT.
    ['fit/fitparse_activity-unexpected-eof_truncated.fit', 'fit'],
  ] as const)('recognises %s as %s', (path, format) => {
    expect(sniffGpsFormat(realdata(path))).toBe(format);
  });

  it('does not call a file GPX when a stray element comes before <gpx> (parseTrack then reports the damage)', () => {
    expect(sniffGpsFormat(realdata('gpx/rg2_invalid.gpx'))).toBeNull();
  });

  it.each([
    'iof3/sportorg_ResultList.xml',
    'iof3/oribos_ResultList_VeNotte2020_BOM.xml',
    'iof3/liveresults_helga_StartList_BMInterclubs2017.xml',
    'iof2/splitsbrowserjava_winsplits_ResultList_v203_latin1.xml',
    'iof2/rg2_ellenbrook_CourseData_v203_latin1.xml',
  ])('refuses IOF XML %s', (path) => {
    expect(sniffGpsFormat(realdata(path))).toBeNull();
  });
});

describe('sniffGpsFormat on XML prologs', () => {
  it('skips whitespace before the XML declaration', () => {
    expect(sniffGpsFormat(utf8('\n\n  <?xml version="1.0"?>\n<TrainingCenterDatabase/>'))).toBe('tcx');
  });

  it('skips a UTF-8 BOM', () => {
    expect(sniffGpsFormat(new Uint8Array([0xef, 0xbb, 0xbf, ...utf8('<gpx/>')]))).toBe('gpx');
  });

  it('reads UTF-16 files marked by their BOM', () => {
    const text = '<?xml version="1.0" encoding="UTF-16"?><gpx version="1.1"/>';
    const le = new Uint8Array(2 + text.length * 2);
    le.set([0xff, 0xfe]);
    for (let i = 0; i < text.length; i += 1) le[2 + i * 2] = text.charCodeAt(i);
    const be = new Uint8Array(le.length);
    be.set([0xfe, 0xff]);
    for (let i = 0; i < text.length; i += 1) be[3 + i * 2] = text.charCodeAt(i);
    expect(sniffGpsFormat(le)).toBe('gpx');
    expect(sniffGpsFormat(be)).toBe('gpx');
  });

  it('skips comments, processing instructions and a DOCTYPE with an internal subset before the root', () => {
    const xml =
      '<?xml version="1.0"?>\n<!-- exported <gpx> -->\n<?xml-stylesheet href="a.xsl"?>\n' +
      '<!DOCTYPE TrainingCenterDatabase [ <!ELEMENT x ANY> <!-- ] > --> ]>\n<TrainingCenterDatabase/>';
    expect(sniffGpsFormat(utf8(xml))).toBe('tcx');
  });

  it('accepts a namespace prefix on the root element', () => {
    expect(sniffGpsFormat(utf8('<g:gpx xmlns:g="http://www.topografix.com/GPX/1/1"/>'))).toBe('gpx');
  });

  it('compares root names exactly, as XML does', () => {
    expect(sniffGpsFormat(utf8('<GPX/>'))).toBeNull();
    expect(sniffGpsFormat(utf8('<gpxdata/>'))).toBeNull();
  });

  it('looks only at the first 8 KiB for the root', () => {
    const comment = `<!--${'x'.repeat(10_000)}-->`;
    expect(sniffGpsFormat(utf8(`${comment}<gpx/>`))).toBeNull();
    expect(sniffGpsFormat(utf8(`<!-- short --><gpx/>${'<!-- -->'.repeat(2000)}`))).toBe('gpx');
  });

  it('reads the root whatever the declared encoding, and through a character cut at the end of the window', () => {
    expect(sniffGpsFormat(utf8('<?xml version="1.0" encoding="KOI8-R"?><gpx/>'))).toBe('gpx');
    const cut = utf8(`<gpx><!--${'\u00E5'.repeat(5000)}-->`);
    expect(cut.length).toBeGreaterThan(8192);
    expect(sniffGpsFormat(cut)).toBe('gpx');
  });

  it('ignores the file name entirely: text before the root makes it not GPX', () => {
    expect(sniffGpsFormat(utf8('track.gpx <gpx/>'))).toBeNull();
  });
});

describe('sniffGpsFormat on non-GPS bytes', () => {
  it('refuses empty input', () => {
    expect(sniffGpsFormat(new Uint8Array())).toBeNull();
  });

  it('refuses JSON', () => {
    expect(sniffGpsFormat(utf8('{"type":"FeatureCollection","features":[]}'))).toBeNull();
  });

  it('refuses a PNG header', () => {
    expect(sniffGpsFormat(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]))).toBeNull();
  });

  it('refuses pseudo-random bytes', () => {
    let seed = 12345;
    const bytes = new Uint8Array(4096).map(() => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed >> 16;
    });
    expect(sniffGpsFormat(bytes)).toBeNull();
  });

  it('needs header size 12 or 14 as well as the .FIT signature', () => {
    const header = (size: number): Uint8Array =>
      new Uint8Array([size, 0x10, 0, 0, 0, 0, 0, 0, 0x2e, 0x46, 0x49, 0x54, 0, 0]);
    expect(sniffGpsFormat(header(12))).toBe('fit');
    expect(sniffGpsFormat(header(14))).toBe('fit');
    expect(sniffGpsFormat(header(13))).toBeNull();
    expect(sniffGpsFormat(header(14).subarray(0, 11))).toBeNull();
  });
});
