/**
 * checkCourses over real HTTP: a simulator whose events take their courses from course files, and organiser files
 * that are those files, or copies edited here, so that every difference is one the test made.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveloxClient } from '../../src/client.js';
import { InputError, NotFoundError } from '../../src/errors.js';
import { unprojectCourseData } from '../../src/iof/course-projection.js';
import { parseCourseData } from '../../src/iof/read-course-data.js';
import { writeCourseData } from '../../src/iof/write-course-data.js';
import { checkCourses, type CheckCoursesOptions } from '../../src/jobs/check-courses.js';
import { parseDataset } from '../../src/simulator/dataset/file.js';
import { fixturePath, realdata } from '../helpers/files.js';
import { heartwoodDegrees, moveControls, regeoreference } from '../helpers/georeference.js';
import { clientFor, startHarness, type SimHarness } from '../helpers/simulator.js';

const CANNOCK = 162001;
const HEARTWOOD = 162002;
const CANNOCK_XML = readFileSync(fixturePath('datasets/cannock-chase.courses.xml'), 'utf8');
/** Heartwood 2014 as Condes wrote it: British National Grid metres in `Position`. */
const HEARTWOOD_GRID = realdata('iof3/rg2_heartwood_CourseData_Condes9_georef.xml');

let h: SimHarness;
let client: LiveloxClient;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lb-check-courses-'));
  // The service holds Heartwood in degrees, as it would after importing the georeferenced map.
  const degrees = unprojectCourseData(parseCourseData(HEARTWOOD_GRID, 'heartwood'), 27700);
  writeFileSync(join(dir, 'heartwood.xml'), writeCourseData(degrees));
  const event = (id: number, name: string, iofXml: string) => ({
    id,
    name,
    start: '2025-03-15T10:00:00Z',
    end: '2025-03-15T14:30:00Z',
    organisers: ['Walton Chasers'],
    country: 'GBR',
    courses: { iofXml },
  });
  const dataset = await parseDataset(
    {
      formatVersion: 1,
      events: [
        event(CANNOCK, 'WCH Spring Middle', fixturePath('datasets/cannock-chase.courses.xml')),
        event(HEARTWOOD, 'Heartwood', 'heartwood.xml'),
      ],
    },
    dir,
  );
  h = await startHarness({ dataset });
  client = clientFor(h.sim);
});
afterAll(async () => {
  await client.close();
  await h.sim.close();
  rmSync(dir, { recursive: true, force: true });
});

function organiser(name: string, text: string | Uint8Array): CheckCoursesOptions['organiser'] {
  const bytes = typeof text === 'string' ? new TextEncoder().encode(text) : text;
  // Written to disk too, like an organiser's export, so that a failing test leaves the file to look at.
  writeFileSync(join(dir, name), bytes);
  return { name, bytes };
}

/** `text` with `from` replaced by `to`; the edit must apply, or the test would silently compare the original. */
function edit(text: string, from: string | RegExp, to: string): string {
  const out = text.replace(from, to);
  if (out === text) throw new Error(`edit did not apply: ${String(from)}`);
  return out;
}

/** The cannock-chase courses with one of each difference the check knows (apart from an invalid file). */
function cannockEdited(): string {
  let xml = CANNOCK_XML;
  // 103 is 30 m further north (0.00026980° of latitude).
  xml = edit(xml, '<Position lng="-1.972757" lat="52.750795"/>', '<Position lng="-1.972757" lat="52.751065"/>');
  // Yellow is renamed: missing on the service, and the service's Yellow missing here.
  xml = edit(xml, '<Name>Yellow</Name>', '<Name>Yellow 2</Name>');
  // Green visits a new control 120 instead of 108.
  xml = edit(
    xml,
    '<Control type="Finish">',
    '<Control>\n      <Id>120</Id>\n      <Position lng="-1.975000" lat="52.745500"/>\n    </Control>\n    <Control type="Finish">',
  );
  xml = edit(xml, /(<Name>Green<\/Name>[\s\S]*?<Control>)108(<\/Control>)/, '$1120$2');
  xml = edit(xml, '<Length>4278</Length>', '<Length>4500</Length>');
  xml = edit(xml, /(<Name>Blue<\/Name>\s*<Length>\d+<\/Length>\s*)<Climb>60<\/Climb>/, '$1<Climb>70</Climb>');
  xml = edit(
    xml,
    '<ClassName>M45L</ClassName>\n      <CourseName>Blue</CourseName>',
    '<ClassName>M45L</ClassName>\n      <CourseName>Green</CourseName>',
  );
  xml = edit(
    xml,
    /\s*<ClassCourseAssignment>\s*<ClassName>W55L<\/ClassName>\s*<CourseName>Green<\/CourseName>\s*<\/ClassCourseAssignment>/,
    '',
  );
  xml = edit(
    xml,
    '</RaceCourseData>',
    '  <ClassCourseAssignment>\n      <ClassName>M70</ClassName>\n      <CourseName>Brown</CourseName>\n    </ClassCourseAssignment>\n  </RaceCourseData>',
  );
  return xml;
}

describe('checkCourses', { timeout: 30_000 }, () => {
  it("finds the service's courses the same as the course file they came from, both files valid", async () => {
    const result = await checkCourses(client, {
      eventId: CANNOCK,
      organiser: organiser('same.xml', CANNOCK_XML),
    });
    expect(result.findings).toEqual([]);
    expect(result.same).toBe(true);
    expect(result.verdict).toBe('same');
    expect(result.positions.status).toBe('compared');
    expect(result.positionsCompared).toBe(true);
    expect(result.comparedIn).toBe('WGS 84');
    expect(result.organiser).toMatchObject({
      valid: true,
      checked: 'xsd',
      iofVersion: '3.0',
      courses: 4,
      controls: 13,
    });
    expect(result.organiser.classes).toBe(9);
    expect(result.service).toMatchObject({ valid: true, checked: 'xsd', courses: 4, controls: 13, classes: 9 });
    expect(result.notes).toEqual([]);
  });

  it('reports each difference made in an edited copy, and only those', async () => {
    const result = await checkCourses(client, {
      eventId: CANNOCK,
      organiser: organiser('edited.xml', cannockEdited()),
    });
    expect(result.same).toBe(false);
    expect(result.organiser.valid).toBe(true);
    const brief = result.findings.map((f) => [f.kind, f.course ?? f.control ?? f.class]);
    expect(brief).toEqual([
      ['course_missing_on_service', 'Yellow 2'],
      ['course_missing_in_organiser', 'Yellow'],
      ['control_missing_on_service', '120'],
      ['control_moved', '103'],
      ['sequence_changed', 'Green'],
      ['length_changed', 'Brown'],
      ['climb_changed', 'Blue'],
      ['class_missing_on_service', 'M70'],
      ['class_missing_in_organiser', 'W55L'],
      ['class_course_changed', 'M45L'],
    ]);
    const moved = result.findings.find((f) => f.kind === 'control_moved')!;
    expect(moved.distanceM).toBeCloseTo(30, 0);
    expect(moved.toleranceM).toBe(10);
    expect(result.findings.find((f) => f.kind === 'sequence_changed')).toMatchObject({
      position: 4,
      organiser: ['S1', '111', '107', '120', '109', '110', 'F1'],
      service: ['S1', '111', '107', '108', '109', '110', 'F1'],
    });
    expect(result.findings.find((f) => f.kind === 'length_changed')).toMatchObject({ organiser: 4500, service: 4278 });
    expect(result.findings.find((f) => f.kind === 'class_course_changed')).toMatchObject({
      organiser: ['Green'],
      service: ['Blue'],
    });
  });

  it('uses a wider tolerance when asked: the 30 m move passes at 40 m', async () => {
    const result = await checkCourses(client, {
      eventId: CANNOCK,
      organiser: organiser('edited-40.xml', cannockEdited()),
      toleranceM: 40,
    });
    expect(result.findings.some((f) => f.kind === 'control_moved')).toBe(false);
    expect(result.tolerances.controlM).toBe(40);
  });

  it('reports a file that is not valid with its schema errors and lines, and still compares it', async () => {
    const xml = edit(
      edit(CANNOCK_XML, '<Climb>85</Climb>', '<Climb>85</Climb>\n      <Colour>brown</Colour>'),
      '52.750795',
      '52.751065',
    );
    const line = xml.split('\n').findIndex((l) => l.includes('<Colour>')) + 1;
    const result = await checkCourses(client, { eventId: CANNOCK, organiser: organiser('invalid.xml', xml) });
    expect(result.organiser.valid).toBe(false);
    expect(result.organiser.issues).toHaveLength(1);
    expect(result.organiser.issues[0]).toMatchObject({ line, code: 'schema' });
    expect(result.organiser.issues[0]!.message).toMatch(/Colour/);
    expect(result.service.valid).toBe(true);
    expect(result.findings.map((f) => f.kind)).toEqual(['invalid_file', 'control_moved']);
    expect(result.findings[0]).toMatchObject({ file: 'organiser' });
  });

  it('reads an IOF 2.0.3 organiser file, validated against the 2.0.3 DTD', async () => {
    const bytes = readFileSync(fixturePath('check-courses/cannock-chase.courses-v203.xml'));
    const result = await checkCourses(client, {
      eventId: CANNOCK,
      organiser: organiser('v203.xml', new Uint8Array(bytes)),
    });
    expect(result.organiser).toMatchObject({ iofVersion: '2.0.3', valid: true, checked: 'dtd', classes: 9 });
    expect(result.findings).toEqual([]);
    expect(result.positionsCompared).toBe(true);
  });

  it('asks the service for British National Grid with projectionEpsgCode 27700 and compares in it', async () => {
    const same = await checkCourses(client, {
      eventId: CANNOCK,
      organiser: organiser('same-bng.xml', CANNOCK_XML),
      projectionEpsgCode: 27700,
    });
    expect(same.findings).toEqual([]);
    expect(same.comparedIn).toMatch(/^EPSG:27700 /);
    expect(same.service.projectionEpsgCode).toBe(27700);

    const moved = await checkCourses(client, {
      eventId: CANNOCK,
      organiser: organiser('moved-bng.xml', edit(CANNOCK_XML, '52.750795', '52.751065')),
      projectionEpsgCode: 27700,
    });
    expect(moved.findings.map((f) => f.kind)).toEqual(['control_moved']);
    const f = moved.findings[0]!;
    expect(f.distanceM).toBeCloseTo(30, 0);
    // The service's position is grid metres (easting in lng), as it answered.
    expect((f.service as { lng: number }).lng).toBeGreaterThan(100_000);
  });

  it('reads grid metres in the organiser file with organiserProjection, and says why nothing was placed without it', async () => {
    const withGrid = await checkCourses(client, {
      eventId: HEARTWOOD,
      organiser: organiser('heartwood-grid.xml', HEARTWOOD_GRID),
      organiserProjection: 27700,
    });
    expect(withGrid.findings).toEqual([]);
    expect(withGrid.positionsCompared).toBe(true);

    const bothGrid = await checkCourses(client, {
      eventId: HEARTWOOD,
      organiser: organiser('heartwood-grid-2.xml', HEARTWOOD_GRID),
      organiserProjection: 27700,
      projectionEpsgCode: 27700,
    });
    expect(bothGrid.findings).toEqual([]);
    expect(bothGrid.positionsCompared).toBe(true);

    const without = await checkCourses(client, {
      eventId: HEARTWOOD,
      organiser: organiser('heartwood-grid-3.xml', HEARTWOOD_GRID),
    });
    expect(without.positionsCompared).toBe(false);
    const note = without.notes.find((n) => n.code === 'positions_not_degrees');
    expect(note?.hint).toMatchObject({ code: 'organiser_projection', values: [27700] });
  });

  it('does not call a grid file given only the service grid (--epsg) the same: verdict not_compared, with why', async () => {
    const result = await checkCourses(client, {
      eventId: HEARTWOOD,
      organiser: organiser('heartwood-own-grid.xml', HEARTWOOD_GRID),
      projectionEpsgCode: 27700,
    });
    expect(result.findings).toEqual([]);
    expect(result.same).toBe(false);
    expect(result.verdict).toBe('not_compared');
    expect(result.positions).toMatchObject({ status: 'not_compared', controls: 0, reason: 'positions_not_degrees' });
    const note = result.notes.find((n) => n.code === 'positions_not_degrees');
    expect(result.positions.status !== 'compared' && result.positions.message).toBe(note?.message);

    // The same file with its grid named is compared, and is the same.
    const named = await checkCourses(client, {
      eventId: HEARTWOOD,
      organiser: organiser('heartwood-own-grid-2.xml', HEARTWOOD_GRID),
      projectionEpsgCode: 27700,
      organiserProjection: 27700,
    });
    expect(named.verdict).toBe('same');
    expect(named.same).toBe(true);
    expect(named.positions.status).toBe('compared');
  });

  it('says not_compared when the organiser file has no geographic positions at all', async () => {
    const data = parseCourseData(new TextEncoder().encode(CANNOCK_XML), 'cannock');
    for (const c of data.races[0]!.controls) delete c.position;
    const result = await checkCourses(client, {
      eventId: CANNOCK,
      organiser: organiser('no-positions.xml', writeCourseData(data)),
    });
    expect(result.findings).toEqual([]);
    expect(result.verdict).toBe('not_compared');
    expect(result.positions).toMatchObject({ status: 'not_compared', reason: 'no_positions' });
  });

  it('compares the race asked for in a multi-race organiser file, and refuses a race the file does not have', async () => {
    const data = parseCourseData(new TextEncoder().encode(CANNOCK_XML), 'cannock');
    const day1 = structuredClone(data.races[0]!);
    day1.courses = day1.courses.slice(1);
    data.races = [
      { ...day1, raceNumber: 1 },
      { ...data.races[0]!, raceNumber: 2 },
    ];
    const file = organiser('two-days.xml', writeCourseData(data));

    const first = await checkCourses(client, { eventId: CANNOCK, organiser: file });
    expect(first.organiser.race).toEqual({ index: 1, raceNumber: 1 });
    expect(first.findings.map((f) => f.kind)).toContain('course_missing_in_organiser');
    expect(first.notes.map((n) => n.code)).toContain('race_chosen');

    const second = await checkCourses(client, { eventId: CANNOCK, organiser: file, race: 2 });
    expect(second.organiser).toMatchObject({ races: 2, race: { index: 2, raceNumber: 2 } });
    expect(second.findings).toEqual([]);

    const err = await checkCourses(client, { eventId: CANNOCK, organiser: file, race: 3 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).reason).toBe('no_such_race');
  });

  it('refuses a file that is not course data before asking the service, naming the file and what to give', async () => {
    const before = h.sim.stats.snapshot().requests;
    const refused = async (name: string, bytes: Uint8Array) => {
      const err = await checkCourses(client, { eventId: CANNOCK, organiser: organiser(name, bytes) }).catch(
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(InputError);
      return (err as InputError).message;
    };
    expect(await refused('results.xml', realdata('iof3/sportorg_ResultList.xml'))).toMatch(
      /^results\.xml: expected an IOF CourseData document but the root element is ResultList\. .*course-setting/,
    );
    expect(await refused('notes.xml', new TextEncoder().encode('hello, not XML\n'))).toMatch(
      /^notes\.xml:1:1: not well-formed XML.* Give the course file as the course-setting program .* exports it: IOF XML CourseData/,
    );
    expect(h.sim.stats.snapshot().requests).toBe(before);
  });

  it('says not_compared, never same, when the schema check could not run, with why and the ways out', async () => {
    const result = await checkCourses(client, {
      eventId: CANNOCK,
      organiser: organiser('no-schema.xml', CANNOCK_XML),
      validation: { schemaPath: join(dir, 'missing', 'IOF.xsd') },
    });
    expect(result.findings).toEqual([]);
    expect(result.positions.status).toBe('compared');
    expect(result).toMatchObject({ same: false, verdict: 'not_compared', notCompared: ['schema'] });
    expect(result.schema).toMatchObject({
      status: 'not_checked',
      reason: 'schema_missing',
      hint: { code: 'schema' },
      message: expect.stringMatching(/^Neither file was checked against the IOF schema: .*IOF_XSD/),
    });
    expect(result.organiser).toMatchObject({ valid: null, checked: 'not-checked' });

    // A schema that is there but does not compile: the same verdict, and why.
    writeFileSync(join(dir, 'not-a-schema.xsd'), CANNOCK_XML);
    const broken = await checkCourses(client, {
      eventId: CANNOCK,
      organiser: organiser('broken-schema.xml', CANNOCK_XML),
      validation: { schemaPath: join(dir, 'not-a-schema.xsd') },
    });
    expect(broken).toMatchObject({
      verdict: 'not_compared',
      schema: { status: 'not_checked', reason: 'schema_invalid' },
    });

    // Positions and the schema both left out: both said.
    const neither = await checkCourses(client, {
      eventId: CANNOCK,
      organiser: organiser('no-positions-no-schema.xml', CANNOCK_XML.replace(/<Position [^>]*\/>/g, '')),
      validation: { schemaPath: join(dir, 'missing', 'IOF.xsd') },
    });
    expect(neither).toMatchObject({ verdict: 'not_compared', notCompared: ['positions', 'schema'] });
  });

  it('says not_published, not every course missing, when the service shows no courses for the event yet', async () => {
    const secret = h.sim.world.createEvent({
      name: 'WCH Autumn Middle',
      start: '2025-10-04T10:00:00Z',
      end: '2025-10-04T14:00:00Z',
      countryCode: 'GBR',
      organisers: ['Walton Chasers'],
      classes: ['M21L', 'W21L'],
      isPublished: false,
    });
    const result = await checkCourses(client, { eventId: secret.id, organiser: organiser('autumn.xml', CANNOCK_XML) });
    expect(result).toMatchObject({ same: false, verdict: 'not_published', notCompared: [], findings: [] });
    expect(result.service.courses).toBe(0);
    expect(result.publication).toEqual({
      eventName: 'WCH Autumn Middle',
      start: '2025-10-04T10:00:00Z',
      end: '2025-10-04T14:00:00Z',
      isPublished: false,
      hasValidMapAndCourses: false,
      message: expect.stringMatching(
        new RegExp(
          `^The service shows no courses for event ${secret.id} yet: the event is not published .*, and the service has no valid map and courses for it\\. The event runs from 2025-10-04T10:00:00Z to 2025-10-04T14:00:00Z on the service\\. They are shown once`,
        ),
      ),
    });
    expect(result.notes.map((n) => n.code)).not.toContain('service_has_no_courses');

    // Published, but no valid map and courses yet: said as that.
    const mapless = h.sim.world.createEvent({
      name: 'WCH Winter Middle',
      start: '2025-12-06T10:00:00Z',
      end: '2025-12-06T14:00:00Z',
      countryCode: 'GBR',
      organisers: ['Walton Chasers'],
      isPublished: true,
    });
    const published = await checkCourses(client, {
      eventId: mapless.id,
      organiser: organiser('winter.xml', CANNOCK_XML),
    });
    expect(published.verdict).toBe('not_published');
    expect(published.publication).toMatchObject({ isPublished: true, hasValidMapAndCourses: false });
    expect(published.publication?.message).toMatch(/yet: the service has no valid map and courses for it\./);
  });

  it('throws NotFoundError for an event the service does not have', async () => {
    const err = await checkCourses(client, {
      eventId: 999_999,
      organiser: organiser('unknown-event.xml', CANNOCK_XML),
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotFoundError);
  });

  it('tells a georeferencing difference from moved controls: one finding, and the fit in the result', async () => {
    // The organiser's map is the one georeferenced 40 m to the north-east and 0.3° clockwise of the service's.
    const data = heartwoodDegrees();
    const shifted = regeoreference(data.races[0]!, {
      eastM: 40 * Math.SQRT1_2,
      northM: 40 * Math.SQRT1_2,
      rotationDeg: 0.3,
      noiseM: 1,
    });
    const xml = writeCourseData({ ...data, races: [moveControls(shifted, { '177': [60, 200] })] });
    const result = await checkCourses(client, {
      eventId: HEARTWOOD,
      organiser: organiser('heartwood-shifted.xml', xml),
    });
    expect(result.verdict).toBe('different');
    expect(result.findings.map((f) => f.kind)).toEqual(['georeference_differs', 'control_moved']);
    const g = result.georeference!;
    expect(g).toMatchObject({ explains: true, controls: 35, within: 34 });
    // Organiser to service: back to the south-west, and anticlockwise.
    expect(Math.abs(g.shiftM - 40)).toBeLessThan(0.5);
    expect(Math.abs(g.shiftBearingDeg - 225)).toBeLessThan(1);
    expect(Math.abs(g.rotationDeg + 0.3)).toBeLessThan(0.03);
    expect(g.residuals.map((r) => r.control)).toEqual(['177']);
    expect(result.findings[0]!.message).toMatch(
      /^The whole map is shifted 40 m to the south-west and rotated 0\.3° anticlockwise: a georeferencing difference, not 34 moved controls; apart from it, control 177 is \d+ m off\.$/,
    );
  });
});
