import { describe, expect, it } from 'vitest';
import { identifyIof } from '../../src/iof/identify.js';
import type { IofIdentity } from '../../src/iof/model.js';
import { catchInputError, iofExample, realdata, utf8 } from '../helpers/files.js';

// Expected values were read from the files with grep (root element, iofVersion / IOFVersion, the declared encoding,
// the first three bytes for a BOM, xmlns), not computed by the code under test.
type Expected = [IofIdentity['version'], IofIdentity['messageType'], IofIdentity['encoding'], boolean, boolean];

const EXAMPLES: Record<string, Expected> = {
  'ClassList.xml': ['3.0', 'ClassList', 'utf-8', false, true],
  'ClassList_Individual_Step1.xml': ['3.0', 'ClassList', 'utf-8', false, true],
  'ClassList_Relay_Step1.xml': ['3.0', 'ClassList', 'utf-8', false, true],
  'CompetitorList.xml': ['3.0', 'CompetitorList', 'utf-8', false, true],
  'CourseData_Individual_Step2.xml': ['3.0', 'CourseData', 'utf-8', false, true],
  'CourseData_Individual_Step4.xml': ['3.0', 'CourseData', 'utf-8', true, true],
  'CourseData_Relay_Step2.xml': ['3.0', 'CourseData', 'utf-8', true, true],
  'CourseData_Relay_Step4.xml': ['3.0', 'CourseData', 'utf-8', true, true],
  'EntryList1.xml': ['3.0', 'EntryList', 'utf-8', false, true],
  'EntryList2.xml': ['3.0', 'EntryList', 'utf-8', false, true],
  'Event_name_and_start_time.xml': ['3.0', 'EventList', 'utf-8', false, true],
  'OrganisationList.xml': ['3.0', 'OrganisationList', 'utf-8', false, true],
  'ResultList1.xml': ['3.0', 'ResultList', 'utf-8', true, true],
  'ResultList2.xml': ['3.0', 'ResultList', 'utf-8', false, true],
  'ResultList3.xml': ['3.0', 'ResultList', 'utf-8', true, true],
  'ResultList4.xml': ['3.0', 'ResultList', 'utf-8', true, true],
  'StartList1.xml': ['3.0', 'StartList', 'utf-8', true, true],
  'StartList2.xml': ['3.0', 'StartList', 'utf-8', true, true],
  'StartList3.xml': ['3.0', 'StartList', 'utf-8', true, true],
  'StartList4.xml': ['3.0', 'StartList', 'utf-8', false, true],
  'StartList_Individual_Step3.xml': ['3.0', 'StartList', 'utf-8', true, true],
  'StartList_Relay_Step3.xml': ['3.0', 'StartList', 'utf-8', false, true],
};

const REAL: Record<string, Expected> = {
  'iof3/liveresults_helga_ResultList_relay_snapshot.xml': ['3.0', 'ResultList', 'utf-8', false, true],
  'iof3/liveresults_helga_StartList_BMInterclubs2017.xml': ['3.0', 'StartList', 'utf-8', false, true],
  'iof3/liveresults_oe2010_ResultList_SKIO2016_tenths_cp1252.xml': ['3.0', 'ResultList', 'windows-1252', false, true],
  'iof3/mapper_CourseData_export2.xml': ['3.0', 'CourseData', 'utf-8', false, true],
  'iof3/oribos_ResultList_VeNotte2020_BOM.xml': ['3.0', 'ResultList', 'utf-8', true, true],
  'iof3/rg2_ResultList_empty_ClassResult_parseerror.xml': ['3.0', 'ResultList', 'utf-8', false, true],
  'iof3/rg2_ellenbrook_CourseData_OCAD11.xml': ['3.0', 'CourseData', 'utf-8', false, true],
  'iof3/rg2_heartwood_CourseData_Condes9_georef.xml': ['3.0', 'CourseData', 'utf-8', false, true],
  'iof3/rg2_pwllddu_CourseData_PurplePen353.xml': ['3.0', 'CourseData', 'utf-8', false, true],
  'iof3/splittimes_sportident_center_ResultList_LesRuires2024.xml': ['3.0', 'ResultList', 'utf-8', false, true],
  'iof3/sportorg_EntryList.xml': ['3.0', 'EntryList', 'utf-8', false, true],
  'iof3/sportorg_ResultList.xml': ['3.0', 'ResultList', 'utf-8', false, true],
  'iof3/sportorg_StartList.xml': ['3.0', 'StartList', 'utf-8', false, true],
  'iof2/liveresults_meos_ResultList_v203.xml': ['2.0.3', 'ResultList', 'iso-8859-1', false, false],
  'iof2/rg2_ellenbrook_CourseData_v203_latin1.xml': ['2.0.3', 'CourseData', 'iso-8859-1', false, false],
  'iof2/splitsbrowserjava_winsplits_ResultList_v203_latin1.xml': ['2.0.3', 'ResultList', 'iso-8859-1', false, false],
};

function identity([version, messageType, encoding, bom, namespace]: Expected): IofIdentity {
  return { version, messageType, encoding, bom, namespace };
}

const NS = 'xmlns="http://www.orienteering.org/datastandard/3.0"';

describe('identifyIof on every IOF file of the shared corpus', () => {
  it.each(Object.entries(EXAMPLES))('identifies the IOF 3.0 example %s', (name, expected) => {
    expect(identifyIof(iofExample(name), name)).toEqual(identity(expected));
  });

  it.each(Object.entries(REAL))('identifies the real export %s', (path, expected) => {
    expect(identifyIof(realdata(path), path)).toEqual(identity(expected));
  });
});

describe('identifyIof tells the version from every cue IOF files carry', () => {
  it('takes 2.0.3 from an IOFVersion element when there is no DOCTYPE (MeOS)', () => {
    const doc = '<?xml version="1.0"?>\n\n<ResultList>\n<IOFVersion version="2.0.3"/>\n</ResultList>';
    expect(identifyIof(utf8(doc)).version).toBe('2.0.3');
  });

  it('takes 2.0.3 from an IOF DOCTYPE alone', () => {
    const doc =
      '<?xml version="1.0"?>\n<!DOCTYPE StartList SYSTEM "IOFdata.dtd">\n<StartList><ClassStart/></StartList>';
    expect(identifyIof(utf8(doc))).toMatchObject({ version: '2.0.3', messageType: 'StartList', namespace: false });
  });

  it('takes 3.0 from the namespace when iofVersion is missing', () => {
    expect(identifyIof(utf8(`<ResultList ${NS}><Event><Name>x</Name></Event></ResultList>`)).version).toBe('3.0');
  });

  it('takes the version from element names only one version has when nothing else tells', () => {
    expect(identifyIof(utf8('<ResultList><Event><EventId>1</EventId></Event></ResultList>')).version).toBe('2.0.3');
    expect(identifyIof(utf8('<ResultList><Event><Id>1</Id></Event></ResultList>')).version).toBe('3.0');
    expect(identifyIof(utf8('<ResultList iofVersion="3.0"/>'))).toEqual({
      version: '3.0',
      messageType: 'ResultList',
      encoding: 'utf-8',
      bom: false,
      namespace: false,
    });
  });

  it('reads a namespace prefix on the root (iof:CourseData)', () => {
    const doc = '<iof:CourseData xmlns:iof="http://www.orienteering.org/datastandard/3.0" iofVersion="3.0"/>';
    expect(identifyIof(utf8(doc))).toMatchObject({ messageType: 'CourseData', namespace: true });
  });

  it('maps 2.0.3 roots to the message types of 3.0 (ClassData is a ClassList, ClubList an OrganisationList)', () => {
    expect(identifyIof(utf8('<ClassData><IOFVersion version="2.0.3"/></ClassData>'))).toMatchObject({
      version: '2.0.3',
      messageType: 'ClassList',
    });
    expect(identifyIof(utf8('<ClubList/>'))).toMatchObject({ version: '2.0.3', messageType: 'OrganisationList' });
    expect(identifyIof(utf8('<RankList><IOFVersion version="2.0.3"/></RankList>')).messageType).toBe('RankList');
    expect(identifyIof(utf8('<ControlCardList iofVersion="3.0"/>')).messageType).toBe('ControlCardList');
  });

  it('refuses a version other than 3.0 and 2.0.3', () => {
    const error = catchInputError(() => identifyIof(utf8(`<ResultList ${NS} iofVersion="4.0"/>`), 'next.xml'));
    expect(error.reason).toBe('unsupported_version');
    expect(error.message).toContain('"4.0"');
  });

  it('reports UTF-16 with and without a byte order mark', () => {
    const doc = `<?xml version="1.0" encoding="UTF-16"?><StartList ${NS} iofVersion="3.0"/>`;
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(doc, 'utf16le')]);
    expect(identifyIof(le)).toMatchObject({ encoding: 'utf-16le', bom: true, messageType: 'StartList' });
    const be = Buffer.from(doc, 'utf16le').swap16();
    expect(identifyIof(be)).toMatchObject({ encoding: 'utf-16be', bom: false, messageType: 'StartList' });
  });

  it('looks only at the head: a 10 MB file cut short in the middle is still identified', () => {
    const head = `<?xml version="1.0"?>\n<ResultList ${NS} iofVersion="3.0"><Event><Name>Big</Name></Event>`;
    const body = '<ClassResult><Class><Name>H21</Name></Class>'.repeat(250_000);
    const bytes = utf8(head + body + '<Class');
    expect(bytes.byteLength).toBeGreaterThan(10_000_000);
    expect(identifyIof(bytes).messageType).toBe('ResultList');
  });
});

describe('identifyIof refuses what is not IOF XML and says what it is', () => {
  it.each([
    'gpx/gpxpy_korita-zbevnica_gpsbabel_gpx10.gpx',
    'gpx/gpxpy_unicode_with_bom.gpx',
    'gpx/rg2_ellenbrook_garminconnect.gpx',
  ])('names the GPX root of %s', (path) => {
    const error = catchInputError(() => identifyIof(realdata(path), path));
    expect(error.reason).toBe('not_iof');
    expect(error.message).toContain('<gpx>');
    expect(error.message).toContain('GPX');
  });

  it.each(['tcx/rg2_ellenbrook_garminconnect.tcx', 'tcx/tcxparser_forerunner410_run.tcx'])(
    'names the TCX root of %s (whitespace before the declaration tolerated)',
    (path) => {
      const error = catchInputError(() => identifyIof(realdata(path), path));
      expect(error.reason).toBe('not_iof');
      expect(error.message).toContain('<TrainingCenterDatabase>');
    },
  );

  it.each([
    'fit/fitparse_activity-small-fenix2-run.fit',
    'fit/fitparse_activity-unexpected-eof_truncated.fit',
    'fit/sportslib_run_2067489619.fit',
  ])('recognises the FIT file %s', (path) => {
    const error = catchInputError(() => identifyIof(realdata(path), path));
    expect(error.reason).toBe('not_iof');
    expect(error.message).toContain('FIT');
  });

  it('reports the broken GPX (a stray tag before the root) as not well-formed, at line 2', () => {
    const error = catchInputError(() => identifyIof(realdata('gpx/rg2_invalid.gpx'), 'rg2_invalid.gpx'));
    expect(error.reason).toBe('not_well_formed');
    expect(error.line).toBe(2);
    expect(error.message).toContain('GPX');
  });

  it('names an HTML page, JSON, plain text and binary data', () => {
    const html = catchInputError(() => identifyIof(utf8('<!DOCTYPE html>\n<html><body>Results</body></html>')));
    expect(html.reason).toBe('not_iof');
    expect(html.message).toContain('HTML page');
    const json = catchInputError(() => identifyIof(utf8('  {"events": []}')));
    expect(json).toMatchObject({ reason: 'not_iof' });
    expect(json.message).toContain('JSON');
    const text = catchInputError(() => identifyIof(utf8('Name;Class;Time\nAnna;D21;31:02\n')));
    expect(text.message).toContain('plain text');
    const png = catchInputError(() =>
      identifyIof(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0])),
    );
    expect(png.message).toContain('binary');
  });

  it('calls empty and blank input empty', () => {
    expect(catchInputError(() => identifyIof(new Uint8Array(0))).reason).toBe('empty');
    expect(catchInputError(() => identifyIof(utf8(' \n\t\n'))).reason).toBe('empty');
  });

  it('refuses an IOF root name in another namespace', () => {
    const error = catchInputError(() => identifyIof(utf8('<ResultList xmlns="urn:example:results"/>')));
    expect(error.reason).toBe('not_iof');
    expect(error.message).toContain('urn:example:results');
  });

  it('reports a broken head with line and column', () => {
    const error = catchInputError(() =>
      identifyIof(utf8('<?xml version="1.0"?>\n<ResultList iofVersion=3.0>\n</ResultList>'), 'bad.xml'),
    );
    expect(error).toMatchObject({ reason: 'not_well_formed', line: 2, column: 24 });
    expect(error.message).toContain('not quoted');
  });

  it('refuses entity declarations in the DOCTYPE, with their line', () => {
    const doc = '<?xml version="1.0"?>\n<!DOCTYPE ResultList [\n  <!ENTITY a "aaaa">\n]>\n<ResultList>&a;</ResultList>';
    const error = catchInputError(() => identifyIof(utf8(doc)));
    expect(error).toMatchObject({ reason: 'entity_declaration', line: 3 });
  });

  it('refuses an encoding it cannot decode', () => {
    const error = catchInputError(() => identifyIof(utf8('<?xml version="1.0" encoding="EBCDIC-US"?><a/>')));
    expect(error.reason).toBe('unsupported_encoding');
  });
});
