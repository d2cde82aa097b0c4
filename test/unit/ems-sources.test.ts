import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError, ValidationError } from '../../src/errors.js';
import { iofEmsSource } from '../../src/ems/iof-source.js';
import { objectEmsSource, parseEmsJson } from '../../src/ems/json-source.js';
import { openEmsFile } from '../../src/ems/open.js';
import { realdataPath } from '../helpers/files.js';

const dir = mkdtempSync(join(tmpdir(), 'ems-sources-'));
const fixture = new URL('../../fixtures/ems/stockholm-2-days-stage2.StartList.xml', import.meta.url).pathname;

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('the EMS JSON format', () => {
  it('reads a complete file into the event and classes', () => {
    const ems = parseEmsJson(
      {
        formatVersion: 1,
        event: {
          name: 'Vårtävling',
          start: '2025-04-26',
          organisers: ['OK Linné'],
          country: 'SWE',
          position: { latitude: 59.8, longitude: 17.6 },
          externalIds: { eventor: '49812' },
        },
        classes: [
          { id: 7, name: 'H21', course: { name: 'A', length: 7300, controls: [31, '045'] } },
          { name: 'Öppen 1' },
        ],
      },
      'x.json',
    );
    expect(ems.event).toEqual({
      name: 'Vårtävling',
      start: '2025-04-26',
      organisers: ['OK Linné'],
      country: 'SWE',
      position: { latitude: 59.8, longitude: 17.6 },
      externalIds: { eventor: '49812' },
    });
    expect(ems.classes).toEqual([
      { id: '7', name: 'H21', course: { name: 'A', length: 7300, controls: ['31', '045'] } },
      { name: 'Öppen 1' },
    ]);
  });

  it('reports every problem at once, each with its path', () => {
    try {
      parseEmsJson(
        {
          formatVersion: 1,
          event: { name: 'E', start: '26/04/2025', organisers: [], colour: 'red' },
          classes: [{ name: 'H21' }, { name: 'h21' }, { name: '', course: { length: -1 } }],
        },
        'bad.json',
      );
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ValidationError);
      const paths = (err as ValidationError).issues.map((i) => `${i.path}:${i.code}`);
      expect(paths).toEqual(
        expect.arrayContaining([
          'event.start:invalid_format',
          'event.colour:unknown_field',
          'classes[2].name:too_small',
          'classes[2].course.length:too_small',
        ]),
      );
    }
  });

  it('refuses duplicate class names (ignoring case) after the shape is right', () => {
    expect(() =>
      parseEmsJson({ formatVersion: 1, event: { name: 'E' }, classes: [{ name: 'H21' }, { name: 'h21' }] }, 'dup.json'),
    ).toThrow(/classes\[1\]\.name.*also classes\[0\]/);
  });

  it('refuses a date that does not exist, and reads IOC country codes as ISO ones', () => {
    expect(() =>
      parseEmsJson({ formatVersion: 1, event: { name: 'E', start: '2025-02-30' }, classes: [] }, 'd.json'),
    ).toThrow(/event\.start: is not a calendar date/);
    const ems = parseEmsJson({ formatVersion: 1, event: { name: 'E', country: 'GER' }, classes: [] }, 'c.json');
    expect(ems.event.country).toBe('DEU');
    expect(
      parseEmsJson({ formatVersion: 1, event: { name: 'E', country: 'Norway' }, classes: [] }, 'n.json').event.country,
    ).toBe('Norway');
  });

  it('refuses a file without formatVersion 1', () => {
    expect(() => parseEmsJson({ event: { name: 'E' }, classes: [] }, 'v.json')).toThrow(/formatVersion/);
  });

  it('checks plain objects from code with the same rules, as a rejected read', async () => {
    const good = await objectEmsSource({ event: { name: 'E', organisers: [] }, classes: [{ name: 'D21' }] }).read();
    expect(good.classes).toEqual([{ name: 'D21' }]);
    await expect(
      objectEmsSource({ event: { name: 'E', organisers: [], start: 'tomorrow' }, classes: [] }, 'portal').read(),
    ).rejects.toThrow(/EMS data \(portal\).*event\.start/);
  });
});

describe('opening an export file', () => {
  it('tells JSON from IOF XML by content, whatever the name', async () => {
    const json = file('export.xml', '\uFEFF  {"formatVersion":1,"event":{"name":"E"},"classes":[]}');
    expect((await (await openEmsFile(json)).read()).format).toBe('EMS JSON');
    expect((await (await openEmsFile(fixture)).read()).format).toBe('IOF 3.0 StartList');
  });

  it('names a missing file and what to give instead', async () => {
    const err = await openEmsFile(join(dir, 'nope.xml')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).message).toMatch(/nope\.xml: cannot read the file: it does not exist/);
  });

  it('refuses an IOF message without classes, saying what to export', async () => {
    const path = file(
      'orgs.xml',
      '<?xml version="1.0"?><OrganisationList xmlns="http://www.orienteering.org/datastandard/3.0" iofVersion="3.0"/>',
    );
    await expect(iofEmsSource(path).read()).rejects.toThrow(/OrganisationList, which holds no event classes/);
  });
});

describe('IOF exports as EMS sources', () => {
  it('reads the shipped start list: event, country, external id and class courses', async () => {
    const ems = await iofEmsSource(fixture).read();
    expect(ems.event).toMatchObject({
      name: 'Stockholms 2-dagars 2022, etapp 2',
      country: 'SWE',
      organisers: ['Bromma-Vällingby SOK'],
      externalIds: { eventor: '39887' },
    });
    expect(ems.event.start?.slice(0, 10)).toBe('2022-11-20');
    expect(ems.classes).toHaveLength(52);
    expect(ems.classes[0]).toMatchObject({
      name: 'M10',
      course: { name: 'K', length: 1582, climb: 25, numberOfControls: 6 },
    });
  });

  it('reads course data classes with their courses from the Purple Pen export', async () => {
    const ems = await iofEmsSource(realdataPath('iof3/rg2_pwllddu_CourseData_PurplePen353.xml')).read();
    expect(ems.format).toBe('IOF 3.0 CourseData');
    expect(ems.classes.map((c) => c.name)).toEqual(['MO', 'WSV', 'MSV', 'WUV', 'MUV']);
    // grep: WSV and MSV run course 2 (106-107-108-105, 1.9 km).
    for (const name of ['WSV', 'MSV']) {
      expect(ems.classes.find((c) => c.name === name)!.course).toEqual({
        name: '2',
        length: 1900,
        numberOfControls: 4,
        controls: ['106', '107', '108', '105'],
      });
    }
  });

  it('takes one race of a multi-race export, and names the races when asked for one it lacks', async () => {
    const path = file(
      'two-days.xml',
      `<?xml version="1.0"?><StartList xmlns="http://www.orienteering.org/datastandard/3.0" iofVersion="3.0"><Event><Name>Tvådagars</Name>
<Race><RaceNumber>1</RaceNumber><Name>Etapp 1</Name><StartTime><Date>2024-05-11</Date></StartTime></Race>
<Race><RaceNumber>2</RaceNumber><Name>Etapp 2</Name><StartTime><Date>2024-05-12</Date></StartTime></Race></Event>
<ClassStart><Class><Name>H21</Name></Class></ClassStart></StartList>`,
    );
    const whole = await iofEmsSource(path).read();
    expect(whole.event.name).toBe('Tvådagars');
    const second = await iofEmsSource(path, { race: 2 }).read();
    expect(second.event).toMatchObject({ name: 'Tvådagars, Etapp 2', start: '2024-05-12', end: '2024-05-12' });
    await expect(iofEmsSource(path, { race: 3 }).read()).rejects.toThrow(/2 race\(s\): 1 \(Etapp 1\), 2 \(Etapp 2\)/);
  });

  it('finds races by their number, never by place when the file numbers them', async () => {
    const path = file(
      'days-3-4.xml',
      `<?xml version="1.0"?><StartList xmlns="http://www.orienteering.org/datastandard/3.0" iofVersion="3.0"><Event><Name>Femdagars</Name>
<Race><RaceNumber>3</RaceNumber><Name>Etapp 3</Name><StartTime><Date>2024-07-03</Date></StartTime></Race>
<Race><RaceNumber>4</RaceNumber><Name>Etapp 4</Name><StartTime><Date>2024-07-04</Date></StartTime></Race></Event>
<ClassStart><Class><Name>H21</Name></Class></ClassStart></StartList>`,
    );
    expect((await iofEmsSource(path, { race: 4 }).read()).event.start).toBe('2024-07-04');
    await expect(iofEmsSource(path, { race: 1 }).read()).rejects.toThrow(
      /race 1 was asked for.*3 \(Etapp 3\), 4 \(Etapp 4\)/,
    );
  });

  it('leaves start and finish out of course data classes even when a course lists them as plain controls', async () => {
    const path = file(
      'start-as-control.xml',
      `<?xml version="1.0"?><CourseData xmlns="http://www.orienteering.org/datastandard/3.0" iofVersion="3.0"><Event><Name>E</Name></Event><RaceCourseData>
<Control type="Start"><Id>S1</Id></Control><Control><Id>31</Id></Control><Control><Id>032</Id></Control><Control type="Finish"><Id>F1</Id></Control>
<Course><Name>A</Name><Length>2100</Length><CourseControl type="Control"><Control>S1</Control></CourseControl><CourseControl><Control>31</Control></CourseControl>
<CourseControl><Control>032</Control></CourseControl><CourseControl type="Control"><Control>F1</Control></CourseControl></Course>
<ClassCourseAssignment><ClassName>H21</ClassName><CourseName>A</CourseName></ClassCourseAssignment></RaceCourseData></CourseData>`,
    );
    const ems = await iofEmsSource(path).read();
    expect(ems.classes).toEqual([
      { name: 'H21', entries: 0, course: { name: 'A', length: 2100, numberOfControls: 2, controls: ['31', '32'] } },
    ]);
  });
});

describe('IOF country codes', () => {
  it('turns the IOC codes IOF files use into the ISO codes the service knows, and leaves ISO codes alone', async () => {
    const { isoCountryCode } = await import('../../src/ems/ioc-codes.js');
    expect(['GER', 'SUI', 'ned', 'DEN', 'SWE', 'NOR', 'CZE'].map(isoCountryCode)).toEqual([
      'DEU',
      'CHE',
      'NLD',
      'DNK',
      'SWE',
      'NOR',
      'CZE',
    ]);
    const path = file(
      'swiss.xml',
      `<?xml version="1.0"?><ClassList xmlns="http://www.orienteering.org/datastandard/3.0" iofVersion="3.0"><Event><Name>Nationaler OL</Name>
<Organiser><Name>OLG Thun</Name><Country code="SUI">Switzerland</Country></Organiser></Event><Class><Name>HE</Name></Class></ClassList>`,
    );
    expect((await iofEmsSource(path).read()).event.country).toBe('CHE');
  });
});
