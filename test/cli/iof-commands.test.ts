/**
 * `inspect` and `validate` run as the built bin (`npm run build` first) on the shared IOF examples and real exports,
 * and on a few files written here (invalid, unreadable).
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, runBin, type CliRun } from '../helpers/cli.js';
import { fixturePath, iofExamplePath, realdataPath } from '../helpers/files.js';

let dir: string;
let childEnv: Record<string, string>;

function cli(...args: string[]): Promise<CliRun> {
  return runBin(args, childEnv);
}

const OCAD = realdataPath('iof3/rg2_ellenbrook_CourseData_OCAD11.xml');
const CONDES = realdataPath('iof3/rg2_heartwood_CourseData_Condes9_georef.xml');
const PURPLE_PEN = realdataPath('iof3/rg2_pwllddu_CourseData_PurplePen353.xml');
const RESULTS = realdataPath('iof3/sportorg_ResultList.xml');
const V2_COURSES = realdataPath('iof2/rg2_ellenbrook_CourseData_v203_latin1.xml');
const V2_RESULTS = realdataPath('iof2/liveresults_meos_ResultList_v203.xml');
const CP1252 = fixturePath('iof/CourseData_cp1252_smart_quotes.xml');
const INVALID_RESULTS = realdataPath('iof3/rg2_ResultList_empty_ClassResult_parseerror.xml');

let invalidCourses: string;
let unreadable: string;
let missing: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lb-iof-cli-'));
  childEnv = { ...cleanEnv(dir), NO_COLOR: '1' };
  // A Course without any CourseControl (IOF.xsd requires at least two): libxml2 reports it on line 6.
  invalidCourses = join(dir, 'invalid-courses.xml');
  writeFileSync(
    invalidCourses,
    [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<CourseData xmlns="http://www.orienteering.org/datastandard/3.0" iofVersion="3.0">',
      '  <Event><Name>Broken</Name></Event>',
      '  <RaceCourseData>',
      '    <Control><Id>31</Id><Position lng="18.0" lat="59.3"/></Control>',
      '    <Course>',
      '      <Name>A</Name>',
      '    </Course>',
      '  </RaceCourseData>',
      '</CourseData>',
      '',
    ].join('\n'),
  );
  unreadable = join(dir, 'secret.xml');
  writeFileSync(unreadable, '<CourseData/>');
  chmodSync(unreadable, 0o000);
  missing = join(dir, 'missing.xml');
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Running as root reads a file whatever its mode: the unreadable case then needs another kind of failure. */
const isRoot = process.getuid?.() === 0;

describe('inspect', { timeout: 60_000 }, () => {
  it('summarises course data: encoding, version, event, courses, controls, no issues', async () => {
    const r = await cli('inspect', OCAD);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^File {6}.*rg2_ellenbrook_CourseData_OCAD11\.xml \(4\.5 KiB\)$/m);
    expect(r.stdout).toMatch(/^Encoding {2}UTF-8$/m);
    expect(r.stdout).toMatch(/^IOF {7}3\.0 CourseData$/m);
    expect(r.stdout).toMatch(/^Creator {3}OCAD 11\.5\.8\.2095\nCreated {3}2015-02-21T16:40:56\.281Z$/m);
    expect(r.stdout).toMatch(/^Contents {2}1 race, 0 classes, 2 courses, 12 controls$/m);
    expect(r.stdout).toMatch(/^ {2}Name {2}Event$/m);
    expect(r.stdout).toMatch(/^Courses \(2\)$/m);
    expect(r.stdout).toMatch(/^ {2}name {4}family {2}length {2}climb {2}controls {2}sequence$/m);
    expect(r.stdout).toMatch(/^ {2}Orange {10}1990 m {4}0 m {9}7 {2}S1 107 103 108 105 109 106 110 F1$/m);
    expect(r.stdout).toMatch(/^Controls \(12\)$/m);
    expect(r.stdout).toMatch(/^ {2}S1 {3}Control {2}51\.761915 {2}-0\.253866 {2}262\.5, 33\.1 mm$/m);
    expect(r.stdout).toMatch(/^Issues \(none\)\n {2}No problems found\.$/m);
  });

  it('reports grid positions, names the grid, and converts them with --epsg', async () => {
    const r = await cli('inspect', CONDES);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Controls \(36\) — positions are not degrees \(see the issues\)$/m);
    expect(r.stdout).toMatch(/^ {2}170 {2}Control {2}212058\.84 {2}516218\.97/m);
    // 36 controls: the first 20 and a count of the rest.
    expect(r.stdout).toContain('  … and 16 more (--all shows every row)');
    expect(r.stdout).toMatch(/^Issues \(1 error, 1 info\)$/m);
    expect(r.stdout).toMatch(
      /^ {2}error {4}position_not_degrees {2}races\[0\]\.controls: no control position is in degrees/m,
    );
    expect(r.stdout).toContain('--epsg 27700');

    const converted = await cli('inspect', CONDES, '--epsg', '27700', '--all');
    expect(converted.code, converted.stderr).toBe(0);
    expect(converted.stdout).toMatch(/^Controls \(36\) — positions converted to degrees from EPSG:27700$/m);
    expect(converted.stdout).toMatch(/^ {2}id {3}type {11}lat {8}lng {4}easting {3}northing {2}map x, y$/m);
    expect(converted.stdout).toMatch(/^ {2}170 {2}Control {2}51\.795115 {2}-0\.316172 {2}516218\.97 {2}212058\.84/m);
    expect(converted.stdout).not.toContain('more (--all');
    expect(converted.stdout).not.toContain('position_not_degrees');
    expect(converted.stdout).toMatch(/^Issues \(1 info\)$/m);
  });

  it('shows accented names of a windows-1252 file right', async () => {
    const r = await cli('inspect', CP1252);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Encoding {2}windows-1252$/m);
    expect(r.stdout).toMatch(/^ {2}Name {8}‘Åbo Sprint’ – “Ørienteering” Cup$/m);
    expect(r.stdout).toMatch(/^ {2}Organisers {2}Ørienteering Klubb Åbo, Turun Suunnistajat$/m);
    expect(r.stdout).toMatch(/^ {2}name {10}course {11}legs$/m);
    expect(r.stdout).toMatch(/^ {2}H21 ‘Elit’ € {2}Bana “Lång” – A$/m);
    expect(r.stdout).toMatch(/^ {2}Döttrar Å {5}Lång \(family\) {7}3$/m);
  });

  it('reads IOF 2.0.3 course data (ISO-8859-1) into the same summary', async () => {
    const r = await cli('inspect', V2_COURSES);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Encoding {2}ISO-8859-1$/m);
    expect(r.stdout).toMatch(/^IOF {7}2\.0\.3 CourseData$/m);
    expect(r.stdout).toMatch(/^Courses \(4\)$/m);
    expect(r.stdout).toMatch(/^ {2}Light Green {10}4125 m {15}12 {2}S 186 189/m);
    expect(r.stdout).toMatch(
      /^ {2}warning {2}no_positions {9}races\[0\]\.controls: no control has a geographic position/m,
    );
  });

  it('reads event and classes of other message types: result lists (3.0, relay, 2.0.3), a start list', async () => {
    const results = await cli(
      'inspect',
      realdataPath('iof3/splittimes_sportident_center_ResultList_LesRuires2024.xml'),
    );
    expect(results.code, results.stderr).toBe(0);
    expect(results.stdout).toMatch(/^IOF {7}3\.0 ResultList$/m);
    expect(results.stdout).toMatch(/^Contents {2}4 classes, 6 persons$/m);
    expect(results.stdout).toMatch(/^ {2}Name {3}Sprint - Les Ruires 2024-06-22$/m);
    expect(results.stdout).toMatch(/^ {2}name {9}course {5}entries$/m);
    expect(results.stdout).toMatch(/^ {2}Catégorie-3 {2}Circuit-3 {8}4$/m);
    // Result lists have no courses of their own to lint.
    expect(results.stdout).not.toContain('Issues');

    const relay = await cli('inspect', realdataPath('iof3/liveresults_helga_ResultList_relay_snapshot.xml'));
    expect(relay.stdout).toMatch(/^Contents {2}1 class, 6 persons, 3 teams$/m);
    expect(relay.stdout).toMatch(/^ {2}H\. Open {2}HOPEN {2}A, B {7}2 {8}3$/m);

    const v2 = await cli('inspect', realdataPath('iof2/splitsbrowserjava_winsplits_ResultList_v203_latin1.xml'));
    expect(v2.code, v2.stderr).toBe(0);
    expect(v2.stdout).toMatch(/^Encoding {2}ISO-8859-1$/m);
    expect(v2.stdout).toMatch(/^IOF {7}2\.0\.3 ResultList$/m);
    expect(v2.stdout).toMatch(/^ {2}Organisers {2}Skogslöparna$/m);
    expect(v2.stdout).toMatch(/^Races \(1\)$/m);
    expect(v2.stdout).toMatch(/^ {2}H21 {3}H21 {4}- {12}33$/m);

    const starts = await cli('inspect', realdataPath('iof3/liveresults_helga_StartList_BMInterclubs2017.xml'));
    expect(starts.stdout).toMatch(/^Contents {2}41 classes, 414 persons$/m);
    expect(starts.stdout).toContain('  … and 21 more (--all shows every row)');
  });

  it('reads the classes of a windows-1252 result list with their course names', async () => {
    const r = await cli('inspect', realdataPath('iof3/liveresults_oe2010_ResultList_SKIO2016_tenths_cp1252.xml'));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Encoding {2}windows-1252$/m);
    expect(r.stdout).toMatch(/^ {2}Men {4}Men {4}JWSOC Men {9}46$/m);
  });

  it('prints the whole summary as JSON with --json', async () => {
    const r = await cli('inspect', CONDES, '--json', '--epsg', '27700');
    expect(r.code, r.stderr).toBe(0);
    const body = JSON.parse(r.stdout);
    expect(body).toMatchObject({
      ok: true,
      source: CONDES,
      bytes: 14734,
      encoding: 'utf-8',
      bom: false,
      version: '3.0',
      messageType: 'CourseData',
      namespace: true,
      races: [],
      creator: 'Condes version 9.0.17',
      event: { name: 'Heartwood 6th Dec. 2014', organisers: [] },
      classes: [],
      projection: { epsg: 27700, name: 'OSGB36 / British National Grid' },
      positions: 'converted',
      counts: { races: 1, classes: 0, courses: 4, controls: 36 },
      issues: [expect.objectContaining({ code: 'time_without_offset', path: 'createTime', severity: 'info' })],
    });
    // Every row, not the first 20.
    expect(body.controls).toHaveLength(36);
    expect(body.controls[0]).toMatchObject({ race: 0, id: '170', type: 'Control' });
    expect(body.controls[0].position.lat).toBeCloseTo(51.795115, 5);
    expect(body.controls[0].projected.easting).toBeCloseTo(516218.97, 2);
    expect(body.controls[0].mapPosition).toEqual({ x: -67.22, y: 209.69, unit: 'mm' });
    expect(body.courses[0]).toMatchObject({ race: 0, name: 'Lt Green', length: 3900, climb: 60, controls: 13 });
    expect(body.courses[0].sequence[0]).toBe('S');
    expect(body.issues).toHaveLength(1);

    const list = JSON.parse((await cli('inspect', RESULTS, '--json')).stdout);
    expect(list).toMatchObject({ ok: true, messageType: 'ResultList', courses: [], controls: [], issues: [] });
    expect(list.classes).toEqual([
      {
        id: 'a1f1f92c-9f1b-46f1-bd94-30ed830154a6',
        name: 'Group1',
        shortName: 'G1',
        courses: ['D1'],
        entries: 2,
      },
    ]);
    expect(list.counts).toEqual({ races: 0, classes: 1, persons: 2, teams: 0 });
  });

  it('refuses a file that is not IOF XML with exit 1 and says what it is', async () => {
    const gpx = await cli('inspect', realdataPath('gpx/gpxpy_unicode_with_bom.gpx'));
    expect(gpx.code).toBe(1);
    expect(gpx.stdout).toBe('');
    expect(gpx.stderr).toContain('not an IOF XML file: the root element is <gpx>, a GPX route file.');
    const fit = await cli('inspect', realdataPath('fit/sportslib_run_2067489619.fit'));
    expect(fit.code).toBe(1);
    expect(fit.stderr).toContain('not an IOF XML file: it is a FIT activity file (binary).');
    // Not well-formed before its root is even read: said with line and column.
    const broken = await cli('inspect', realdataPath('gpx/rg2_invalid.gpx'), '--json');
    expect(broken.code).toBe(1);
    expect(JSON.parse(broken.stdout)).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', reason: 'not_well_formed', line: 2, column: 14 },
    });
  });

  it('says which file cannot be read, and refuses an unknown --epsg as a usage error', async () => {
    const r = await cli('inspect', missing);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`cannot read ${missing}: no such file`);
    const epsg = await cli('inspect', OCAD, '--epsg', '99999');
    expect(epsg.code).toBe(2);
    expect(epsg.stderr).toContain('--epsg: EPSG:99999 is not a built-in projection');
    const none = await cli('inspect');
    expect(none.code).toBe(2);
  });
});

describe('validate', { timeout: 60_000 }, () => {
  it('gives one verdict per file in one batch, errors as file:line: message, exit 1 on any invalid', async () => {
    const files = [
      iofExamplePath('CourseData_Individual_Step2.xml'),
      INVALID_RESULTS,
      invalidCourses,
      V2_RESULTS,
      missing,
    ];
    const r = await cli('validate', ...files);
    expect(r.code).toBe(1);
    const lines = r.stdout.split('\n');
    expect(lines).toContain(`VALID        ${files[0]}  (IOF 3.0)`);
    expect(lines).toContain(`INVALID      ${INVALID_RESULTS}  (IOF 3.0)`);
    expect(lines).toContain(
      `  ${INVALID_RESULTS}:9: Element 'ClassResult': Missing child element(s). Expected is ( Class ).`,
    );
    expect(lines).toContain(`INVALID      ${invalidCourses}  (IOF 3.0)`);
    expect(r.stdout).toMatch(
      new RegExp(`^  ${escape(invalidCourses)}\\:6: Element 'Course': Missing child element`, 'm'),
    );
    // IOF 2.0.3 files are checked against the 2.0.3 DTD installed beside the schema (native xmllint --dtdvalid agrees).
    expect(lines).toContain(`INVALID      ${V2_RESULTS}  (IOF 2.0.3)`);
    expect(lines).toContain(
      `  ${V2_RESULTS}:19: Element 'PersonId': This element is not expected. Expected is ( PersonName ).`,
    );
    expect(lines).toContain(`UNREADABLE   ${missing}`);
    expect(lines).toContain(`  ${missing}: cannot read: no such file`);
    expect(lastLine(r.stdout)).toBe('5 files: 1 valid, 3 invalid, 1 unreadable.');
  });

  it('exits 0 when every file is valid, IOF 3.0 and 2.0.3 alike', async () => {
    const r = await cli(
      'validate',
      OCAD,
      PURPLE_PEN,
      realdataPath('iof2/splitsbrowserjava_winsplits_ResultList_v203_latin1.xml'),
      realdataPath('iof3/oribos_ResultList_VeNotte2020_BOM.xml'),
    );
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(lastLine(r.stdout)).toBe('4 files: 4 valid, 0 invalid.');
  });

  it('still checks the other files when one cannot be read', async () => {
    const r = await cli('validate', isRoot ? missing : unreadable, OCAD);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`VALID        ${OCAD}`);
    expect(r.stdout).toMatch(isRoot ? /cannot read: no such file/ : /cannot read: permission denied/);
  });

  it('cuts long error lists unless --all; --json lists everything', async () => {
    const cp1252 = realdataPath('iof3/liveresults_oe2010_ResultList_SKIO2016_tenths_cp1252.xml');
    const r = await cli('validate', cp1252);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      `  ${cp1252}:52: Element 'Time': '978,3' is not a valid value of the atomic type 'xs:double'.`,
    );
    expect(r.stdout).toMatch(/^ {2}… and \d+ more errors \(--all shows every one\)$/m);
    const all = await cli('validate', cp1252, '--all');
    expect(all.stdout).not.toContain('--all shows every one');

    const json = await cli('validate', cp1252, missing, OCAD, '--json');
    expect(json.code).toBe(1);
    const body = JSON.parse(json.stdout);
    expect(body.ok).toBe(false);
    expect(body.files.map((f: { file: string; status: string }) => [f.file, f.status])).toEqual([
      [cp1252, 'invalid'],
      [missing, 'unreadable'],
      [OCAD, 'valid'],
    ]);
    expect(body.files[0].errors.length).toBeGreaterThan(10);
    expect(body.files[0].errors[0]).toMatchObject({ line: 52, code: 'schema' });
    expect(body.files[2]).toEqual({ file: OCAD, status: 'valid', version: '3.0', errors: [] });
  });

  it('--lint adds lint findings for course data; a lint error fails the run', async () => {
    const clean = await cli('validate', '--lint', OCAD, PURPLE_PEN, RESULTS);
    expect(clean.code, clean.stdout).toBe(0);
    expect(clean.stdout).toMatch(
      /^ {2}warning {2}no_positions {2}races\[0\]\.controls: no control has a geographic position/m,
    );
    expect(lastLine(clean.stdout)).toBe('3 files: 3 valid, 0 invalid, 0 lint errors.');

    const condes = await cli('validate', '--lint', CONDES);
    expect(condes.code).toBe(1);
    expect(condes.stdout).toContain(`VALID        ${CONDES}  (IOF 3.0)`);
    expect(condes.stdout).toMatch(/^ {2}error {4}position_not_degrees {2}races\[0\]\.controls: .*--epsg 27700/m);
    expect(lastLine(condes.stdout)).toBe('1 file: 1 valid, 0 invalid, 1 lint error.');

    const json = await cli('validate', '--lint', '--json', CONDES, RESULTS);
    const body = JSON.parse(json.stdout);
    expect(body.ok).toBe(false);
    expect(body.files[0].lint.map((i: { code: string }) => i.code)).toEqual([
      'time_without_offset',
      'position_not_degrees',
    ]);
    expect(body.files[1].lint).toBeUndefined();

    // Without --lint the same file passes: the schema has nothing against grid values in Position.
    expect((await cli('validate', CONDES)).code).toBe(0);
  });

  it('needs at least one file', async () => {
    const r = await cli('validate');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('livelox-bridge validate: needs at least one file');
  });
});

function lastLine(stdout: string): string | undefined {
  return stdout.trimEnd().split('\n').at(-1);
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
