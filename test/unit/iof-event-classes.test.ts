import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { parseCourseData } from '../../src/iof/read-course-data.js';
import { readEventAndClasses } from '../../src/iof/event-classes/read.js';
import type { IofEventClasses } from '../../src/iof/model.js';
import { decodeXml } from '../../src/xml/decode.js';
import { fixture, fixturePath, iofExample, iofExamplePath, realdata, realdataPath, utf8 } from '../helpers/files.js';

// Expected values were read from the files with grep and by eye; the entry counts are also recounted below with plain
// regular expressions over the decoded text, independently of the streaming reader.

/** The generator the benchmarks use; plain JS, loaded by URL so the type checker leaves it alone. */
interface GeneratedResultList {
  bytes: Uint8Array;
  summary: {
    persons: number;
    classes: { id: string; name: string; shortName: string; entries: number; courseId: string; courseName: string }[];
  };
}
const generator = (await import(
  pathToFileURL(fileURLToPath(new URL('../../bench/generate-iof.mjs', import.meta.url))).href
)) as { generateResultListWithSummary: (o: { targetBytes: number; seed: number }) => GeneratedResultList };

async function rejection(promise: Promise<unknown>): Promise<InputError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof InputError) return error;
    throw error;
  }
  throw new Error('expected an InputError, but the promise resolved');
}

/** The bytes handed over in slices of `size`, as a stream would. */
async function* slices(bytes: Uint8Array, size: number): AsyncIterable<Uint8Array> {
  for (let i = 0; i < bytes.byteLength; i += size) yield bytes.subarray(i, i + size);
  await Promise.resolve();
}

function names(result: IofEventClasses): string[] {
  return result.classes.map((c) => c.name);
}

const NS = 'xmlns="http://www.orienteering.org/datastandard/3.0" iofVersion="3.0"';

describe('readEventAndClasses on the IOF 3.0 examples', () => {
  it('reads ResultList1: event, classes with ids and the courses competitors ran, and what those courses agree on', async () => {
    const r = await readEventAndClasses(iofExample('ResultList1.xml'));
    expect(r).toMatchObject({ version: '3.0', messageType: 'ResultList', encoding: 'utf-8' });
    expect(r.event).toEqual({
      name: 'Example event',
      start: '2011-07-30T10:00:00+01:00',
      end: '2011-07-30T14:00:00+01:00',
      organisers: [],
    });
    expect(r.classes).toEqual([
      {
        id: '1',
        name: 'Men Elite',
        courseIds: ['1', '2'],
        courseNames: ['Men Elite-1', 'Men Elite-2'],
        // Two butterfly courses: only the length and climb they share; no controls from the one OK result's splits.
        course: { length: 4650, climb: 160 },
        entries: 2,
      },
      {
        id: '2',
        name: 'Open',
        courseIds: ['3'],
        courseNames: ['Open'],
        course: { id: '3', name: 'Open', length: 2990, climb: 120 },
        entries: 1,
      },
    ]);
    expect(r.counts).toEqual({ persons: 3, teams: 0 });
  });

  it('reads the relay ResultList2: 3 teams, 11 team members, 3 legs', async () => {
    const r = await readEventAndClasses(iofExample('ResultList2.xml'));
    expect(r.classes).toEqual([
      { id: '1', name: 'Open', courseIds: ['1', '3', '2'], courseNames: ['A', 'C', 'B'], entries: 3, legs: 3 },
    ]);
    expect(r.counts).toEqual({ persons: 11, teams: 3 });
  });

  it('reads the races of a multi-race ResultList3', async () => {
    const r = await readEventAndClasses(iofExample('ResultList3.xml'));
    expect(r.races).toEqual([
      { number: 1, name: 'Race 1', start: '2011-07-30T10:00:00+01:00' },
      { number: 2, name: 'Race 2', start: '2011-07-31T10:00:00+01:00' },
    ]);
  });

  it('gives no course for a class whose two races have different courses and split sequences (ResultList3)', async () => {
    // Course raceNumber="1" is 4650 m / 160 m and raceNumber="2" 8600 m / 280 m; the OK results' splits are
    // 31 32 31 33 31 in race 1 and 31 32 33 34 35 in race 2.
    const r = await readEventAndClasses(iofExample('ResultList3.xml'));
    expect(r.classes).toEqual([{ id: '1', name: 'Men Elite', entries: 2 }]);
  });

  it('reads StartList1: class-level courses, with and without an id', async () => {
    const r = await readEventAndClasses(iofExample('StartList1.xml'));
    expect(r.classes).toEqual([
      { id: '1', name: 'Men Elite', course: { length: 4650, climb: 160 }, entries: 2 },
      { id: '2', name: 'Open', courseIds: ['3'], course: { id: '3', length: 2990, climb: 120 }, entries: 1 },
    ]);
  });

  it('reads EntryList1 (classes of person entries) and EntryList2 (team entries with legs)', async () => {
    const one = await readEventAndClasses(iofExample('EntryList1.xml'));
    expect(one.classes).toEqual([
      { id: '1', name: 'Men Elite', entries: 2 },
      { id: '2', name: 'Open', entries: 1 },
    ]);
    expect(one.counts).toEqual({ persons: 3, teams: 0 });
    const two = await readEventAndClasses(iofExample('EntryList2.xml'));
    expect(two.classes).toEqual([{ id: '1', name: 'Open', entries: 2, legs: 3 }]);
    expect(two.counts).toEqual({ persons: 8, teams: 2 });
  });

  it('reads class lists with their relay legs', async () => {
    const r = await readEventAndClasses(iofExample('ClassList_Relay_Step1.xml'));
    expect(r).toMatchObject({ messageType: 'ClassList', races: [], counts: { persons: 0, teams: 0 } });
    expect(r.event).toBeUndefined();
    expect(r.classes).toEqual([
      { name: 'Men Open', entries: 0, legs: 3 },
      { name: 'Women Open', entries: 0, legs: 3 },
    ]);
  });

  it('reads the classes of course data from ClassCourseAssignment, with course and control counts', async () => {
    const r = await readEventAndClasses(iofExample('CourseData_Individual_Step2.xml'));
    expect(r.classes).toEqual([
      { name: 'Men Open', courseNames: ['A', 'B'], entries: 0 },
      { name: 'Women Open', courseNames: ['A', 'B'], entries: 0 },
    ]);
    expect(r.counts).toEqual({ persons: 0, teams: 0, courses: 2, controls: 8 });
  });

  it('gives the first event of an event list, and no classes for messages that have none', async () => {
    const events = await readEventAndClasses(iofExample('Event_name_and_start_time.xml'));
    expect(events.event).toEqual({ name: 'Example event', start: '2011-07-31T10:00:00+02:00', organisers: [] });
    const organisations = await readEventAndClasses(iofExample('OrganisationList.xml'));
    expect(organisations).toMatchObject({ messageType: 'OrganisationList', classes: [], races: [] });
  });
});

describe('readEventAndClasses on real exports', () => {
  it('reads the Swedish WinSplits 2.0.3 result list (ISO-8859-1): classes by short name, organiser with accents', async () => {
    const r = await readEventAndClasses(realdataPath('iof2/splitsbrowserjava_winsplits_ResultList_v203_latin1.xml'));
    expect(r).toMatchObject({ version: '2.0.3', messageType: 'ResultList', encoding: 'iso-8859-1' });
    expect(r.event).toEqual({
      id: '3',
      // <EventId idManager="SWE" type="nat">3</EventId>; the organising club's <CountryId value="SWE">.
      externalIds: [{ type: 'SWE', id: '3' }],
      name: 'Kort-DM/ Torvaldsblotet',
      start: '2003-06-25',
      end: '2003-06-25',
      organisers: ['Skogslöparna'],
      countries: ['SWE'],
    });
    expect(r.races).toEqual([{ name: 'Etapp', start: '2003-06-25T16:00:00' }]);
    expect(r.classes.map((c) => [c.name, c.shortName, c.entries])).toEqual([
      ['H21', 'H21', 33],
      ['H20', 'H20', 5],
      ['H18', 'H18', 3],
      ['D21', 'D21', 18],
      ['D20', 'D20', 2],
      ['D18', 'D18', 5],
    ]);
    expect(r.counts).toEqual({ persons: 66, teams: 0 });
  });

  it('reads the MeOS 2.0.3 result list (version from IOFVersion, no DOCTYPE)', async () => {
    const r = await readEventAndClasses(realdata('iof2/liveresults_meos_ResultList_v203.xml'));
    expect(r).toMatchObject({ version: '2.0.3', encoding: 'iso-8859-1' });
    expect(r.event).toMatchObject({ id: '1626', name: 'Cleveland Dam/Capilano River', start: '2014-07-22T10:00:00' });
    expect(r.classes).toEqual([{ name: 'Easy/Intermediate', shortName: 'Easy/Intermediate', entries: 2 }]);
  });

  it('reads the Italian Oribos result list with its BOM: 8 classes with ids, 445 results', async () => {
    const r = await readEventAndClasses(realdataPath('iof3/oribos_ResultList_VeNotte2020_BOM.xml'));
    expect(r).toMatchObject({ version: '3.0', encoding: 'utf-8' });
    expect(r.event).toMatchObject({ name: 'VeNotte 2020', start: '2020-02-01T18:00:00', end: '2020-02-01T19:30:00' });
    expect(r.classes.map((c) => [c.id, c.name, c.entries])).toEqual([
      ['NERO', 'Nero', 96],
      ['SC4', 'SCUOLA 4', 28],
      ['ROSSO', 'Rosso', 105],
      ['SC3', 'SCUOLA 3', 65],
      ['GIALLO', 'Giallo', 58],
      ['SC2', 'SCUOLA 2', 53],
      ['BIANCO', 'Bianco', 17],
      ['SC1', 'SCUOLA 1', 23],
    ]);
    expect(r.counts).toEqual({ persons: 445, teams: 0 });
  });

  it('reads the HELGA relay snapshot: a class without id, 3 teams over 2 legs', async () => {
    const r = await readEventAndClasses(realdata('iof3/liveresults_helga_ResultList_relay_snapshot.xml'));
    expect(r.classes).toEqual([
      {
        name: 'H. Open',
        shortName: 'HOPEN',
        courseNames: ['A', 'B'],
        // Legs A and B are both 1610 m with climb 0; the names differ, and team members' splits say nothing.
        course: { length: 1610, climb: 0 },
        entries: 3,
        legs: 2,
      },
    ]);
    expect(r.counts).toEqual({ persons: 6, teams: 3 });
  });

  it('reads the HELGA start list: 41 classes, 414 starts', async () => {
    const r = await readEventAndClasses(realdata('iof3/liveresults_helga_StartList_BMInterclubs2017.xml'));
    expect(r.classes).toHaveLength(41);
    expect(names(r).slice(0, 8)).toEqual(['D10A', 'D10B', 'D-12', 'D-14', 'D-16', 'D-18', 'DE', 'D21']);
    expect(names(r).slice(-4)).toEqual(['SE', 'LE', 'SD', 'LD']);
    expect(r.classes.reduce((sum, c) => sum + c.entries, 0)).toBe(414);
    expect(r.counts).toEqual({ persons: 414, teams: 0 });
  });

  it('reads the windows-1252 OE2010 result list: two classes with their courses, not its radio-control splits', async () => {
    const r = await readEventAndClasses(realdata('iof3/liveresults_oe2010_ResultList_SKIO2016_tenths_cp1252.xml'));
    expect(r).toMatchObject({ encoding: 'windows-1252', event: { name: 'SKIO2016 Sprint  JWSOC - EYSOC' } });
    // Every result's splits are the four radio controls 69 49 100 999 (<!-- SplitTimeControls: 69,49,100,999 -->),
    // not the 12 and 9 controls of the courses: the sequence is not the course and is left out.
    expect(r.classes).toEqual([
      {
        id: '11',
        name: 'Men',
        shortName: 'Men',
        courseIds: ['4'],
        courseNames: ['JWSOC Men'],
        course: { id: '4', name: 'JWSOC Men', length: 2960, climb: 45, numberOfControls: 12 },
        entries: 46,
      },
      {
        id: '12',
        name: 'Women',
        shortName: 'Women',
        courseIds: ['3'],
        courseNames: ['JWSOC Women'],
        course: { id: '3', name: 'JWSOC Women', length: 2660, climb: 55, numberOfControls: 9 },
        entries: 36,
      },
    ]);
  });

  it('reads the SPORTident Center result list: accented names, classes with no results yet', async () => {
    const r = await readEventAndClasses(realdata('iof3/splittimes_sportident_center_ResultList_LesRuires2024.xml'));
    expect(r.event).toMatchObject({ id: '15060', name: 'Sprint - Les Ruires 2024-06-22' });
    expect(r.classes.map((c) => [c.name, c.courseNames, c.entries])).toEqual([
      ['Catégorie-1', ['Circuit-1'], 0],
      ['Catégorie-2', ['Circuit-2'], 0],
      ['Catégorie-3', ['Circuit-3'], 4],
      ['Catégorie-4', ['Circuit-4'], 2],
    ]);
  });

  it('reads the SportOrg entry, start and result lists (UUID ids stay strings)', async () => {
    const id = 'a1f1f92c-9f1b-46f1-bd94-30ed830154a6';
    for (const [file, entries] of [
      ['iof3/sportorg_EntryList.xml', 1],
      ['iof3/sportorg_StartList.xml', 1],
      ['iof3/sportorg_ResultList.xml', 2],
    ] as const) {
      const r = await readEventAndClasses(realdata(file));
      expect(r.classes).toMatchObject([{ id, name: 'Group1', shortName: 'G1', entries }]);
    }
  });

  it('counts the entries of a ClassResult that has no Class in counts only', async () => {
    const r = await readEventAndClasses(realdata('iof3/rg2_ResultList_empty_ClassResult_parseerror.xml'));
    expect(r).toMatchObject({ classes: [], counts: { persons: 0, teams: 0 }, event: { name: 'Milton Rigg' } });
  });

  it.each([
    'iof3/liveresults_helga_ResultList_relay_snapshot.xml',
    'iof3/liveresults_helga_StartList_BMInterclubs2017.xml',
    'iof3/liveresults_oe2010_ResultList_SKIO2016_tenths_cp1252.xml',
    'iof3/oribos_ResultList_VeNotte2020_BOM.xml',
    'iof3/splittimes_sportident_center_ResultList_LesRuires2024.xml',
    'iof3/sportorg_EntryList.xml',
    'iof3/sportorg_StartList.xml',
    'iof3/sportorg_ResultList.xml',
    'iof2/liveresults_meos_ResultList_v203.xml',
    'iof2/splitsbrowserjava_winsplits_ResultList_v203_latin1.xml',
  ])('counts the same persons and teams in %s as a plain grep does', async (path) => {
    const bytes = realdata(path);
    const { text } = decodeXml(bytes, path);
    const count = (pattern: RegExp): number => text.match(pattern)?.length ?? 0;
    const teams = count(/<(?:TeamResult|TeamStart|TeamEntry)[\s>]/g);
    // 3.0 team members have their own elements; 2.0.3 nests PersonResult/PersonStart in the team.
    const persons = count(
      /<(?:PersonResult|PersonStart|PersonEntry|TeamMemberResult|TeamMemberStart|TeamEntryPerson)[\s>]/g,
    );
    const r = await readEventAndClasses(bytes, { source: path });
    expect(r.counts).toEqual({ persons, teams });
    // Every individual entry and every team sits in exactly one class in these files.
    const individual = count(/<(?:PersonResult|PersonStart|PersonEntry)[\s>]/g);
    expect(r.classes.reduce((sum, c) => sum + c.entries, 0)).toBe(individual + teams);
  });

  it.each([
    'iof3/mapper_CourseData_export2.xml',
    'iof3/rg2_ellenbrook_CourseData_OCAD11.xml',
    'iof3/rg2_heartwood_CourseData_Condes9_georef.xml',
    'iof3/rg2_pwllddu_CourseData_PurplePen353.xml',
    'iof2/rg2_ellenbrook_CourseData_v203_latin1.xml',
  ])('agrees with the course data reader on %s (courses, controls, assigned classes)', async (path) => {
    const bytes = realdata(path);
    const model = parseCourseData(bytes, path);
    const r = await readEventAndClasses(bytes, { source: path });
    expect(r.messageType).toBe('CourseData');
    expect(r.version).toBe(model.iofVersion);
    expect(r.counts.courses).toBe(model.races.reduce((n, race) => n + race.courses.length, 0));
    expect(r.counts.controls).toBe(model.races.reduce((n, race) => n + race.controls.length, 0));
    const assigned = new Set(model.races.flatMap((race) => race.classAssignments.map((a) => a.className ?? a.classId)));
    expect(new Set(r.classes.map((c) => (c.name === '' ? c.id : c.name)))).toEqual(assigned);
  });

  it('reads PurplePen class assignments, two classes on one course', async () => {
    const r = await readEventAndClasses(realdata('iof3/rg2_pwllddu_CourseData_PurplePen353.xml'));
    expect(r.classes.slice(0, 3)).toEqual([
      { name: 'MO', courseNames: ['1'], entries: 0 },
      { name: 'WSV', courseNames: ['2'], entries: 0 },
      { name: 'MSV', courseNames: ['2'], entries: 0 },
    ]);
  });
});

describe('readEventAndClasses on the project fixtures', () => {
  it('decodes windows-1252 smart quotes and the euro sign, and character references, in class names', async () => {
    const r = await readEventAndClasses(fixturePath('iof/CourseData_cp1252_smart_quotes.xml'));
    expect(r.encoding).toBe('windows-1252');
    expect(r.event?.name).toBe('‘Åbo Sprint’ – “Ørienteering” Cup');
    expect(r.event?.organisers).toEqual(['Ørienteering Klubb Åbo', 'Turun Suunnistajat']);
    expect(r.classes).toEqual([
      { id: '12', name: 'H21 ‘Elit’ €', courseNames: ['Bana “Lång” – A'], entries: 0 },
      // Assigned a course family only, on legs 1 and 3.
      { name: 'Döttrar Å', entries: 0, legs: 3 },
    ]);
  });

  it('reads 2.0.3 course data classes by ClassShortName and ClassId, with their course (Latin-1)', async () => {
    const bytes = fixture('iof/CourseData_v203_classes_latin1.xml');
    const model = parseCourseData(bytes);
    const r = await readEventAndClasses(bytes);
    expect(r).toMatchObject({ version: '2.0.3', encoding: 'iso-8859-1' });
    expect(r.counts.courses).toBe(model.races[0]!.courses.length);
    expect(r.counts.controls).toBe(model.races[0]!.controls.length);
    const assigned = model.races[0]!.classAssignments.map((a) => a.className ?? a.classId);
    expect(r.classes.map((c) => c.shortName ?? c.id)).toEqual([...new Set(assigned)]);
    expect(r.classes.find((c) => c.id === '21')?.courseNames).toEqual(['Stafett']);
  });
});

describe('readEventAndClasses on a generated 10 MB result list', () => {
  it('finds every class of the generator with its entries and course', async () => {
    const { bytes, summary } = generator.generateResultListWithSummary({ targetBytes: 10_000_000, seed: 7 });
    expect(bytes.byteLength).toBeGreaterThanOrEqual(10_000_000);
    const r = await readEventAndClasses(bytes);
    // The course of each class block recounted with plain regular expressions: its Course element, and the control
    // codes of its OK results, which the generator gives the whole course.
    const text = new TextDecoder().decode(bytes);
    const courses = text
      .split('<ClassResult>')
      .slice(1)
      .map((block) => {
        const number = (tag: string): number => Number(new RegExp(`<${tag}>([^<]*)</${tag}>`).exec(block)?.[1]);
        const sequences = new Set(
          [...block.matchAll(/<Result>([\s\S]*?)<\/Result>/g)]
            .filter((m) => m[1]!.includes('<Status>OK</Status>'))
            .map((m) => [...m[1]!.matchAll(/<ControlCode>([^<]*)<\/ControlCode>/g)].map((c) => c[1]!).join(' ')),
        );
        expect(sequences.size).toBe(1);
        return { length: number('Length'), climb: number('Climb'), controls: [...sequences][0]!.split(' ') };
      });
    expect(r.classes).toEqual(
      summary.classes.map((c, i) => ({
        id: c.id,
        name: c.name,
        shortName: c.shortName,
        courseIds: [c.courseId],
        courseNames: [c.courseName],
        course: {
          id: c.courseId,
          name: c.courseName,
          length: courses[i]!.length,
          climb: courses[i]!.climb,
          numberOfControls: courses[i]!.controls.length,
          controls: courses[i]!.controls,
        },
        entries: c.entries,
      })),
    );
    expect(r.counts).toEqual({ persons: summary.persons, teams: 0 });
    expect(r.event).toMatchObject({
      name: 'O-Ringen Smålandskusten 2024, etapp 1',
      organisers: ['Järla Orientering', 'OK Linné'],
    });
  });
});

describe('readEventAndClasses reads chunk by chunk', () => {
  it.each([1, 7, 64 * 1024])(
    'gives the same result for the WinSplits Latin-1 file fed in %i-byte slices',
    async (size) => {
      const bytes = realdata('iof2/splitsbrowserjava_winsplits_ResultList_v203_latin1.xml');
      const whole = await readEventAndClasses(bytes);
      expect(await readEventAndClasses(slices(bytes, size))).toEqual(whole);
    },
  );

  it.each([1, 7, 64 * 1024])('gives the same result for the cp1252 fixture fed in %i-byte slices', async (size) => {
    const bytes = fixture('iof/CourseData_cp1252_smart_quotes.xml');
    expect(await readEventAndClasses(slices(bytes, size))).toEqual(await readEventAndClasses(bytes));
  });

  it.each([7, 64 * 1024])(
    'gives the same result for the Oribos UTF-8 file (BOM) fed in %i-byte slices',
    async (size) => {
      const bytes = realdata('iof3/oribos_ResultList_VeNotte2020_BOM.xml');
      expect(await readEventAndClasses(slices(bytes, size))).toEqual(await readEventAndClasses(bytes));
    },
  );

  it('gives the same result from a path, a byte array and a stream', async () => {
    const path = realdataPath('iof3/liveresults_helga_StartList_BMInterclubs2017.xml');
    const fromPath = await readEventAndClasses(path);
    expect(await readEventAndClasses(readFileSync(path))).toEqual(fromPath);
    expect(await readEventAndClasses(slices(readFileSync(path), 4096))).toEqual(fromPath);
  });

  it('decodes a character split across chunks, in every place a split can fall', async () => {
    // å (2 bytes), € (3 bytes) and an emoji (4 bytes) in a class name, cut at every byte in turn.
    const doc = utf8(`<ClassList ${NS}><Class><Id>1</Id><Name>Åsa €uro 🦊 klass</Name></Class></ClassList>`);
    const nameAt = doc.indexOf(0xc3);
    for (let cut = nameAt; cut < nameAt + 16; cut++) {
      async function* two(): AsyncIterable<Uint8Array> {
        yield doc.subarray(0, cut);
        yield doc.subarray(cut);
        await Promise.resolve();
      }
      const r = await readEventAndClasses(two());
      expect(r.classes[0]?.name).toBe('Åsa €uro 🦊 klass');
    }
  });

  it('decodes UTF-16 (both byte orders, surrogate pairs split) fed one byte at a time', async () => {
    const doc = `<?xml version="1.0" encoding="UTF-16"?><ClassList ${NS}><Class><Name>Öppen 🦊</Name></Class></ClassList>`;
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(doc, 'utf16le')]);
    const be = Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(doc, 'utf16le').swap16()]);
    for (const [bytes, encoding] of [
      [le, 'utf-16le'],
      [be, 'utf-16be'],
    ] as const) {
      const r = await readEventAndClasses(slices(bytes, 1));
      expect(r.encoding).toBe(encoding);
      expect(names(r)).toEqual(['Öppen 🦊']);
    }
  });

  it('decodes entities and character references, also when split across chunks', async () => {
    const doc = utf8(
      `<ClassList ${NS}><Class><Name>H21 &amp; D21 &#214;&#x0308;ppen &lt;Elit&gt;</Name></Class></ClassList>`,
    );
    for (const size of [1, 3, 5]) {
      expect(names(await readEventAndClasses(slices(doc, size)))).toEqual(['H21 & D21 Ö̈ppen <Elit>']);
    }
  });

  it('reads CDATA text and skips comments and processing instructions', async () => {
    const doc = `<?xml version="1.0"?>\n<!-- exported -->\n<ClassList ${NS}><?app x?><Class><!-- c --><Name><![CDATA[Öppen <1>]]></Name></Class></ClassList>\n<!-- end -->`;
    expect(names(await readEventAndClasses(utf8(doc)))).toEqual(['Öppen <1>']);
  });
});

describe('readEventAndClasses refuses broken and hostile input with the right place', () => {
  const read = (doc: string): Promise<InputError> => rejection(readEventAndClasses(utf8(doc), { source: 'doc.xml' }));

  it('reports a mismatched end tag with its line and column', async () => {
    const error = await read(`<?xml version="1.0"?>\n<ResultList ${NS}>\n  <Event>\n    <Name>x</Nam>\n</ResultList>`);
    expect(error).toMatchObject({ reason: 'not_well_formed', line: 4, column: 12 });
    expect(error.message).toContain('</Nam>');
  });

  it('reports a mismatch deep in a 1 MB document at its line, whatever the chunking', async () => {
    const body = `<ClassResult><Class><Name>H21</Name></Class></ClassResult>\n`.repeat(20_000);
    const doc = utf8(`<ResultList ${NS}>\n${body}<ClassResult></ClassStart>\n</ResultList>`);
    for (const size of [7, 64 * 1024]) {
      const error = await rejection(readEventAndClasses(slices(doc, size)));
      expect(error).toMatchObject({ reason: 'not_well_formed', line: 20_002, column: 14 });
    }
  });

  it('reports where a malformed end tag goes wrong, as libxml2 does', async () => {
    const error = await read(`<ClassList ${NS}>\n<Class><Name>A</Name></Class\nx>\n</ClassList>`);
    expect(error).toMatchObject({ reason: 'not_well_formed', line: 3, column: 1 });
    expect(error.message).toContain("expected '>'");
  });

  it('reports a namespace prefix that is not declared', async () => {
    const error = await read(`<ClassList ${NS}>\n<Class xsi:type="x"><Name>A</Name></Class></ClassList>`);
    expect(error).toMatchObject({ reason: 'not_well_formed', line: 2 });
    expect(error.message).toContain('prefix xsi');
    const declared = `<ClassList ${NS} xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><Class xsi:type="x"><Name>A</Name></Class></ClassList>`;
    expect(names(await readEventAndClasses(utf8(declared)))).toEqual(['A']);
  });

  it('reports a document that ends too early', async () => {
    const error = await read(`<ResultList ${NS}>\n<ClassResult>\n`);
    expect(error).toMatchObject({ reason: 'not_well_formed', line: 3 });
    expect(error.message).toContain('<ClassResult>');
  });

  it.each([
    ['an undefined entity', `<ClassList ${NS}>\n<Class><Name>a&nbsp;b</Name></Class></ClassList>`, 2, '&nbsp;'],
    ['a bare ampersand', `<ClassList ${NS}>\n<Class><Name>A & B</Name></Class></ClassList>`, 2, "'&'"],
    ['an unquoted attribute', `<ClassList ${NS}>\n<Class sex=M><Name>A</Name></Class></ClassList>`, 2, 'not quoted'],
    ['a repeated attribute', `<ClassList ${NS}>\n\n<Class sex="M" sex="F"/></ClassList>`, 3, 'twice'],
    ["'<' in an attribute", `<ClassList ${NS}>\n<Class a="<"/></ClassList>`, 2, "'<'"],
    ['text after the root', `<ClassList ${NS}/>\ntrailing`, 2, 'after the root'],
    ['a second root', `<ClassList ${NS}/>\n<ClassList/>`, 2, 'second root'],
    ["']]>' in text", `<ClassList ${NS}>\n<Class><Name>a]]>b</Name></Class></ClassList>`, 2, "']]>'"],
    ["'--' in a comment", `<ClassList ${NS}>\n<!-- a -- b --></ClassList>`, 2, "'--'"],
    ['a control character', `<ClassList ${NS}>\n<Class><Name>a\u0001</Name></Class></ClassList>`, 2, 'U+0001'],
    ['a late XML declaration', `\n<?xml version="1.0"?><ClassList ${NS}/>`, 2, 'XML declaration'],
    ['a forbidden character reference', `<ClassList ${NS}>\n<Class><Name>&#0;</Name></Class></ClassList>`, 2, '&#0;'],
  ])('reports %s', async (_what, doc, line, words) => {
    const error = await read(doc);
    expect(error.reason).toBe('not_well_formed');
    expect(error.line).toBe(line);
    expect(error.message).toContain(words);
  });

  it('reports bytes invalid in UTF-8 with their line', async () => {
    const bytes = Buffer.concat([
      utf8(`<ClassList ${NS}>\n<Class><Name>`),
      Buffer.from([0xc3, 0x28]),
      utf8('</Name></Class></ClassList>'),
    ]);
    const error = await rejection(readEventAndClasses(bytes));
    expect(error).toMatchObject({ reason: 'bad_encoding', line: 2 });
    expect(error.message).toContain('invalid UTF-8');
  });

  it('refuses entity declarations (billion laughs, external entities) before reading on', async () => {
    const laughs =
      '<?xml version="1.0"?>\n<!DOCTYPE ResultList [\n <!ENTITY lol "lol">\n <!ENTITY lol2 "&lol;&lol;&lol;">\n]>\n<ResultList>&lol2;</ResultList>';
    expect(await read(laughs)).toMatchObject({ reason: 'entity_declaration', line: 3, column: 2 });
    const external = '<!DOCTYPE ResultList [<!ENTITY x SYSTEM "file:///etc/passwd">]><ResultList>&x;</ResultList>';
    expect(await read(external)).toMatchObject({ reason: 'entity_declaration', line: 1 });
  });

  it('accepts a DOCTYPE without entities (IOF 2.0.3) and never reads its DTD', async () => {
    const doc =
      '<!DOCTYPE ClassData SYSTEM "file:///nonexistent/IOFdata.dtd">\n<ClassData><Class><ClassId>1</ClassId><ClassShortName>H21</ClassShortName></Class></ClassData>';
    const r = await readEventAndClasses(utf8(doc));
    expect(r).toMatchObject({
      version: '2.0.3',
      messageType: 'ClassList',
      classes: [{ id: '1', name: 'H21', shortName: 'H21' }],
    });
  });

  it('refuses nesting deeper than 256 elements', async () => {
    const doc = `<ResultList ${NS}>${'<a>'.repeat(300)}${'</a>'.repeat(300)}</ResultList>`;
    expect((await read(doc)).reason).toBe('too_deep');
  });

  it('refuses a single tag longer than 1 MiB (a huge attribute) quickly', async () => {
    const doc = `<ResultList ${NS}><Event x="${'a'.repeat(2 * 1024 * 1024)}"/></ResultList>`;
    const t0 = performance.now();
    expect((await read(doc)).reason).toBe('too_large');
    expect(performance.now() - t0).toBeLessThan(1000);
  });

  it('streams through a long comment and long text without holding them', async () => {
    const doc = `<ResultList ${NS}><!--${'x'.repeat(3_000_000)}--><Event><Name>e</Name><Information>${'t'.repeat(3_000_000)}</Information></Event></ResultList>`;
    expect((await readEventAndClasses(utf8(doc))).event?.name).toBe('e');
  });

  it('refuses a document over maxBytes', async () => {
    const error = await rejection(readEventAndClasses(iofExample('ResultList1.xml'), { maxBytes: 1000 }));
    expect(error.reason).toBe('too_large');
  });

  it('refuses what is not IOF: a GPX file, a FIT file, JSON, empty input', async () => {
    const gpx = await rejection(readEventAndClasses(realdataPath('gpx/rg2_ellenbrook_garminconnect.gpx')));
    expect(gpx.reason).toBe('not_iof');
    expect(gpx.message).toContain('<gpx>');
    const fit = await rejection(readEventAndClasses(realdataPath('fit/sportslib_run_2067489619.fit')));
    expect(fit).toMatchObject({ reason: 'not_iof' });
    expect(fit.message).toContain('FIT');
    expect((await rejection(readEventAndClasses(utf8('{"a": 1}')))).reason).toBe('not_iof');
    expect((await rejection(readEventAndClasses(new Uint8Array(0)))).reason).toBe('empty');
    expect((await rejection(readEventAndClasses(utf8('  \n\n  ')))).reason).toBe('empty');
    expect((await rejection(readEventAndClasses(utf8('<?xml version="1.0"?>\n')))).reason).toBe('not_well_formed');
  });

  it('says when a file cannot be read', async () => {
    const error = await rejection(readEventAndClasses(join(tmpdir(), 'no-such-dir-livelox', 'results.xml')));
    expect(error.reason).toBe('unreadable');
    expect(error.message).toContain('ENOENT');
  });

  it('stops when the signal aborts, with the signal reason', async () => {
    const controller = new AbortController();
    const reason = new Error('stop');
    async function* endless(): AsyncIterable<Uint8Array> {
      yield utf8(`<ResultList ${NS}><Event><Name>x</Name></Event>`);
      for (;;) {
        yield utf8('<ClassResult><Class><Name>H21</Name></Class></ClassResult>');
        controller.abort(reason);
        await Promise.resolve();
      }
    }
    await expect(readEventAndClasses(endless(), { signal: controller.signal })).rejects.toBe(reason);
  });
});

describe('readEventAndClasses reads files from disk', () => {
  const dir = mkdtempSync(join(tmpdir(), 'livelox-event-classes-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads a path with a stream and gives the same as the IOF example bytes', async () => {
    const path = join(dir, 'StartList2.xml');
    writeFileSync(path, iofExample('StartList2.xml'));
    expect(await readEventAndClasses(path)).toEqual(
      await readEventAndClasses(readFileSync(iofExamplePath('StartList2.xml'))),
    );
  });
});
