import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { InputError, ValidationError } from '../../src/errors.js';
import { distanceM } from '../../src/geo/distance.js';
import { GENERATED_CLASS_ID_BASE, loadDatasetFile, parseDataset } from '../../src/simulator/dataset/file.js';
import { fixturePath, realdataPath } from '../helpers/files.js';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '../..');
const fixtures = fixturePath('datasets');
const EXAMPLE = join(fixtures, 'example.json');
/** A real OCAD 11 course export. */
const ELLENBROOK = realdataPath('iof3/rg2_ellenbrook_CourseData_OCAD11.xml');

let tmp: string;
let example: Record<string, any>;

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'llb-dataset-'));
  example = JSON.parse(await readFile(EXAMPLE, 'utf8'));
});

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

/** A fresh copy of the example file's JSON to break in one place. */
function exampleJson(): Record<string, any> {
  return structuredClone(example);
}

/** The issues of the ValidationError that parsing `json` throws. */
async function issuesOf(
  json: unknown,
  baseDir = fixtures,
): Promise<{ path?: string; code: string; message: string }[]> {
  const err = await parseDataset(json, baseDir).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ValidationError);
  return (err as ValidationError).issues;
}

describe('loadDatasetFile: the example', () => {
  it('loads the example with its events, classes, courses and countries', async () => {
    const data = await loadDatasetFile(EXAMPLE);
    expect(data.countries.map((c) => c.code)).toEqual(['FIN', 'NOR', 'SWE']);
    expect(data.events.map((e) => e.id)).toEqual([151234, 151240]);
    const [linne, halden] = data.events;
    expect(linne).toMatchObject({
      name: 'OK Linnés vårtävling',
      startMs: Date.parse('2025-04-26T08:00:00Z'),
      endMs: Date.parse('2025-04-26T13:00:00Z'),
      organisers: [{ name: 'OK Linné' }, { name: 'Upsala IF' }],
      countryCode: 'SWE',
      position: { latitude: 59.7931, longitude: 17.6752 },
      participantCount: 412,
      isPublished: true,
      isSearchable: true,
      hasValidMapAndCourses: true,
      modifiedMs: Date.parse('2025-04-27T18:42:10Z'),
    });
    expect(linne!.properties).toContainEqual({ key: 'eventorId', value: '49812' });
    expect(linne!.courses!.maps).toEqual([{ scale: 10000 }]);
    expect(linne!.courses!.courses.map((c) => c.name)).toEqual(['Lång', 'Mellan', 'Kort', 'Inskolning']);
    expect(linne!.classes.find((c) => c.name === 'Öppen 3')).toMatchObject({ shortName: 'Ö3' });
    // The second event has no courses: not valid, so not searchable, by default.
    expect(halden).toMatchObject({
      hasValidMapAndCourses: false,
      isSearchable: false,
      isPublished: true,
      participantCount: 187,
    });
    expect('courses' in halden!).toBe(false);
    expect(halden!.modifiedMs).toBe(halden!.endMs);
  });

  it('keeps given class ids and generates unique ones above them for the rest', async () => {
    const data = await loadDatasetFile(EXAMPLE);
    const ids = data.events.flatMap((e) => e.classes.map((c) => c.id));
    expect(new Set(ids).size).toBe(ids.length);
    const linne = data.events[0]!;
    expect(linne.classes.find((c) => c.name === 'H21')!.id).toBe(812001);
    const generated = ids.filter((id) => id > GENERATED_CLASS_ID_BASE);
    expect(generated).toHaveLength(4 + 3);
  });

  it('assigns classes to their courses, and a class without courses to the course of its name', async () => {
    const linne = (await loadDatasetFile(EXAMPLE)).events[0]!;
    const courseOf = (name: string): string[] => {
      const id = String(linne.classes.find((c) => c.name === name)!.id);
      return linne.courses!.classAssignments.filter((a) => a.classId === id).map((a) => a.courseName);
    };
    expect(courseOf('H21')).toEqual(['Lång']);
    expect(courseOf('D16')).toEqual(['Kort']);
    expect(courseOf('Inskolning')).toEqual(['Inskolning']);
    expect(linne.courses!.classAssignments.every((a) => a.className !== undefined)).toBe(true);
  });

  it('computes leg lengths and course length from the control positions, and defaults control types', async () => {
    const race = (await loadDatasetFile(EXAMPLE)).events[0]!.courses!;
    const control = new Map(race.controls.map((c) => [c.id, c]));
    expect(control.get('S1')!.type).toBe('Start');
    expect(control.get('F1')!.type).toBe('Finish');
    expect(control.get('31')!.type).toBe('Control');
    for (const course of race.courses) {
      let sum = 0;
      course.controls.forEach((cc, i) => {
        if (i === 0) return;
        const a = control.get(course.controls[i - 1]!.controlId)!.position!;
        const b = control.get(cc.controlId)!.position!;
        expect(cc.legLength).toBe(Math.round(distanceM(a, b)));
        sum += cc.legLength!;
      });
      expect(course.length).toBe(sum);
      expect(course.numberOfControls).toBe(course.controls.length - 2);
    }
    expect(race.courses[0]!.climb).toBe(95);
  });

  it('defaults the position to the middle of the controls and the countries to all of ISO 3166-1', async () => {
    const json = exampleJson();
    delete json.events[0].position;
    delete json.countries;
    const data = await parseDataset(json, fixtures);
    expect(data.countries).toHaveLength(249);
    const p = data.events[0]!.position!;
    expect(p.latitude).toBeCloseTo(59.794, 2);
    expect(p.longitude).toBeCloseTo(17.679, 2);
  });

  it('accepts a lower-case country code and numeric control codes', async () => {
    const json = exampleJson();
    json.events[0].country = 'swe';
    json.events[0].courses.controls[1].id = 31;
    json.events[0].courses.courses[1].controls[1] = 31;
    const data = await parseDataset(json, fixtures);
    expect(data.events[0]!.countryCode).toBe('SWE');
    expect(data.events[0]!.courses!.courses[1]!.controls[1]!.controlId).toBe('31');
  });

  it('applies the documented defaults to a minimal event', async () => {
    const data = await parseDataset(
      {
        formatVersion: 1,
        events: [
          {
            id: 1,
            name: 'Minimal',
            start: '2025-06-01T08:00:00Z',
            end: '2025-06-01T12:00:00Z',
            organisers: [],
            country: 'FIN',
          },
        ],
      },
      tmp,
    );
    expect(data.events[0]).toEqual({
      id: 1,
      name: 'Minimal',
      startMs: Date.parse('2025-06-01T08:00:00Z'),
      endMs: Date.parse('2025-06-01T12:00:00Z'),
      organisers: [],
      countryCode: 'FIN',
      classes: [],
      properties: [],
      participantCount: 0,
      isSearchable: false,
      isPublished: true,
      hasValidMapAndCourses: false,
      modifiedMs: Date.parse('2025-06-01T12:00:00Z'),
    });
  });

  it('makes one class per course when inline courses come without classes', async () => {
    const json = exampleJson();
    delete json.events[0].classes;
    const linne = (await parseDataset(json, fixtures)).events[0]!;
    expect(linne.classes.map((c) => c.name)).toEqual(['Lång', 'Mellan', 'Kort', 'Inskolning']);
    expect(linne.courses!.classAssignments.map((a) => a.courseName)).toEqual(['Lång', 'Mellan', 'Kort', 'Inskolning']);
  });
});

describe('loadDatasetFile: errors name their path in the file', () => {
  const cases: [string, (json: Record<string, any>) => void, string, string][] = [
    ['a wrong format version', (j) => (j.formatVersion = 2), 'formatVersion', 'invalid_value'],
    ['a missing event name', (j) => delete j.events[0].name, 'events[0].name', 'required'],
    [
      'a start with an offset instead of Z',
      (j) => (j.events[0].start = '2025-04-26T10:00:00+02:00'),
      'events[0].start',
      'invalid_format',
    ],
    ['an end before the start', (j) => (j.events[0].end = '2025-04-26T07:00:00Z'), 'events[0].end', 'end_before_start'],
    ['a duplicate event id', (j) => (j.events[1].id = 151234), 'events[1].id', 'duplicate_id'],
    ['an unknown country', (j) => (j.events[0].country = 'XYZ'), 'events[0].country', 'unknown_country'],
    ['a country code of the wrong shape', (j) => (j.events[0].country = 'SE'), 'events[0].country', 'invalid_format'],
    [
      "a country missing from the file's countries",
      (j) => (j.events[0].country = 'DNK'),
      'events[0].country',
      'country_not_listed',
    ],
    ['an unknown country in the countries list', (j) => (j.countries[1] = 'ZZZ'), 'countries[1]', 'unknown_country'],
    ['a duplicate class id', (j) => (j.events[0].classes[1].id = 812001), 'events[0].classes[1].id', 'duplicate_id'],
    [
      'a class id used in another event',
      (j) => (j.events[1].classes[0].id = 812003),
      'events[1].classes[0].id',
      'duplicate_id',
    ],
    [
      'a duplicate class name',
      (j) => (j.events[0].classes[1].name = 'H21'),
      'events[0].classes[1].name',
      'duplicate_name',
    ],
    [
      'a class on an unknown course',
      (j) => (j.events[0].classes[0].courses = ['Extra']),
      'events[0].classes[0].courses[0]',
      'unknown_course',
    ],
    [
      'a class with courses in an event without courses',
      (j) => (j.events[1].classes[0].courses = ['A']),
      'events[1].classes[0].courses',
      'no_courses',
    ],
    [
      'an unknown control in a course',
      (j) => (j.events[0].courses.courses[2].controls[1] = '99'),
      'events[0].courses.courses[2].controls[1]',
      'unknown_control',
    ],
    [
      'a duplicate control id',
      (j) => (j.events[0].courses.controls[2].id = '31'),
      'events[0].courses.controls[2].id',
      'duplicate_id',
    ],
    [
      'a duplicate course name',
      (j) => (j.events[0].courses.courses[1].name = 'Lång'),
      'events[0].courses.courses[1].name',
      'duplicate_name',
    ],
    [
      'a latitude out of range',
      (j) => (j.events[0].courses.controls[0].lat = 159.7),
      'events[0].courses.controls[0].lat',
      'too_big',
    ],
    [
      'an unknown control type',
      (j) => (j.events[0].courses.controls[0].type = 'Begin'),
      'events[0].courses.controls[0].type',
      'invalid_value',
    ],
    ['a misspelt field', (j) => (j.events[0].startTime = j.events[0].start), 'events[0].startTime', 'unknown_field'],
    [
      'both a course file and inline courses',
      (j) => (j.events[0].courses.iofXml = 'x.xml'),
      'events[0].courses',
      'custom',
    ],
    ['controls without courses', (j) => delete j.events[0].courses.courses, 'events[0].courses.courses', 'custom'],
    [
      'a course file that does not exist',
      (j) => (j.events[0].courses = { iofXml: 'missing.xml' }),
      'events[0].courses.iofXml',
      'unreadable_course_file',
    ],
    [
      'a searchable event without courses',
      (j) => (j.events[1].isSearchable = true),
      'events[1].isSearchable',
      'not_searchable',
    ],
    [
      'valid map and courses claimed without courses',
      (j) => (j.events[1].hasValidMapAndCourses = true),
      'events[1].hasValidMapAndCourses',
      'no_courses',
    ],
    [
      'a negative participant count',
      (j) => (j.events[0].participantCount = -1),
      'events[0].participantCount',
      'too_small',
    ],
    [
      'a property without a value',
      (j) => (j.events[0].properties[0] = { key: 'x' }),
      'events[0].properties[0].value',
      'required',
    ],
  ];

  it.each(cases)('reports %s', async (_what, breakIt, path, code) => {
    const json = exampleJson();
    breakIt(json);
    const issues = await issuesOf(json);
    expect(issues).toContainEqual(expect.objectContaining({ path, code }));
  });

  it('reports every problem at once, and names each path in the message', async () => {
    const json = exampleJson();
    json.events[0].end = '2025-04-26T07:00:00Z';
    json.events[1].id = 151234;
    const err = await parseDataset(json, fixtures).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).issues.map((i) => i.path)).toEqual(['events[0].end', 'events[1].id']);
    expect((err as ValidationError).message).toContain('events[0].end: must be after start');
    expect((err as ValidationError).message).toContain('events[1].id: event id 151234 is also used by events[0]');
  });

  it('rejects a file that is not an object', async () => {
    const issues = await issuesOf([1, 2]);
    expect(issues[0]!.path).toBeUndefined();
  });

  it('names the file in the error of loadDatasetFile', async () => {
    const path = join(tmp, 'broken.json');
    await writeFile(path, JSON.stringify({ formatVersion: 1, events: [{ id: 1 }] }));
    const err = await loadDatasetFile(path).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as Error).message).toContain(path);
    expect((err as ValidationError).issues.map((i) => i.path)).toContain('events[0].name');
  });

  it('reports a file that is not JSON or does not exist as an InputError', async () => {
    const path = join(tmp, 'not.json');
    await writeFile(path, '{ "formatVersion": 1, ');
    await expect(loadDatasetFile(path)).rejects.toMatchObject({ reason: 'not_json', source: path });
    await expect(loadDatasetFile(join(tmp, 'absent.json'))).rejects.toBeInstanceOf(InputError);
    await expect(loadDatasetFile(join(tmp, 'absent.json'))).rejects.toMatchObject({ reason: 'unreadable' });
  });

  it('reads a file that starts with a byte order mark', async () => {
    const path = join(tmp, 'bom.json');
    await writeFile(path, `\uFEFF${JSON.stringify(example)}`);
    expect((await loadDatasetFile(path)).events).toHaveLength(2);
  });
});

describe('loadDatasetFile: courses from IOF XML', () => {
  /** The issues of a one-event dataset in the temporary folder whose courses come from `iofXml` there. */
  const courseFileIssues = (iofXml: string): ReturnType<typeof issuesOf> =>
    issuesOf(
      {
        formatVersion: 1,
        events: [
          {
            id: 1,
            name: 'X',
            start: '2025-06-01T08:00:00Z',
            end: '2025-06-01T12:00:00Z',
            organisers: [],
            country: 'GBR',
            courses: { iofXml },
          },
        ],
      },
      tmp,
    );

  it('loads the course file next to the dataset and makes classes from its class assignments', async () => {
    const data = await loadDatasetFile(join(fixtures, 'cannock-chase.json'));
    const event = data.events[0]!;
    expect(event.classes.map((c) => c.name)).toEqual([
      'M21E',
      'M20E',
      'W21E',
      'M45L',
      'M16A',
      'W16A',
      'W55L',
      'M12A',
      'W12A',
    ]);
    expect(event.hasValidMapAndCourses).toBe(true);
    expect(event.isSearchable).toBe(true);
    const race = event.courses!;
    expect(race.courses.map((c) => c.name)).toEqual(['Brown', 'Blue', 'Green', 'Yellow']);
    expect(race.maps[0]!.scale).toBe(10000);
    const w21e = event.classes.find((c) => c.name === 'W21E')!;
    expect(race.classAssignments.filter((a) => a.classId === String(w21e.id))).toEqual([
      { classId: String(w21e.id), className: 'W21E', courseName: 'Blue' },
    ]);
    // The position defaults to the middle of the file's controls (Cannock Chase).
    expect(event.position!.latitude).toBeCloseTo(52.748, 2);
    expect(event.position!.longitude).toBeCloseTo(-1.982, 2);
  });

  it("matches the file's assignments to the dataset's classes by name, ignoring case, and keeps their ids", async () => {
    const json = JSON.parse(await readFile(join(fixtures, 'cannock-chase.json'), 'utf8'));
    json.events[0].classes = [
      { id: 5, name: 'm21e' },
      { id: 6, name: 'W16A' },
      { id: 7, name: 'Yellow' },
      { id: 8, name: 'Unplaced' },
    ];
    const event = (await parseDataset(json, fixtures)).events[0]!;
    expect(event.courses!.classAssignments).toEqual([
      { classId: '5', className: 'm21e', courseName: 'Brown' },
      { classId: '6', className: 'W16A', courseName: 'Green' },
      { classId: '7', className: 'Yellow', courseName: 'Yellow' },
    ]);
    expect(event.classes.map((c) => c.id)).toEqual([5, 6, 7, 8]);
  });

  it('reads one course file once for several events, and gives each event its own copy', async () => {
    const json = JSON.parse(await readFile(join(fixtures, 'cannock-chase.json'), 'utf8'));
    json.events.push({ ...json.events[0], id: 162002, name: 'WCH Spring Middle, repeat' });
    const [a, b] = (await parseDataset(json, fixtures)).events;
    expect(a!.courses!.courses).toEqual(b!.courses!.courses);
    expect(a!.courses!.controls).not.toBe(b!.courses!.controls);
    // Same class names, different generated ids, so each event's assignments name its own classes.
    expect(a!.classes.map((c) => c.name)).toEqual(b!.classes.map((c) => c.name));
    expect(a!.classes[0]!.id).not.toBe(b!.classes[0]!.id);
    expect(b!.courses!.classAssignments[0]!.classId).toBe(String(b!.classes[0]!.id));
  });

  it('reports a course file that is not course data at its iofXml path', async () => {
    const path = join(tmp, 'not-courses.xml');
    await writeFile(path, '<?xml version="1.0"?><ResultList xmlns="http://www.orienteering.org/datastandard/3.0"/>');
    const issues = await courseFileIssues('not-courses.xml');
    expect(issues).toEqual([
      expect.objectContaining({ path: 'events[0].courses.iofXml', code: 'unreadable_course_file' }),
    ]);
    expect(issues[0]!.message).toContain('ResultList');
  });

  it('refuses a course file whose controls have no geographic position', async () => {
    const xml = (await readFile(join(fixtures, 'cannock-chase.courses.xml'), 'utf8')).replace(
      /<Position [^>]*\/>/g,
      '',
    );
    await writeFile(join(tmp, 'no-positions.xml'), xml);
    const issues = await courseFileIssues('no-positions.xml');
    expect(issues).toEqual([
      expect.objectContaining({ path: 'events[0].courses.iofXml', code: 'no_geographic_position' }),
    ]);
  });

  it('reports a race number the course file does not have', async () => {
    const json = JSON.parse(await readFile(join(fixtures, 'cannock-chase.json'), 'utf8'));
    json.events[0].courses.raceNumber = 2;
    const issues = await issuesOf(json);
    expect(issues).toEqual([expect.objectContaining({ path: 'events[0].courses.raceNumber', code: 'no_such_race' })]);
  });

  it.skipIf(!existsSync(ELLENBROOK))('loads a real OCAD 11 export by a path relative to the dataset file', async () => {
    const datasetPath = join(tmp, 'ellenbrook.json');
    await writeFile(
      datasetPath,
      JSON.stringify({
        formatVersion: 1,
        events: [
          {
            id: 170001,
            name: 'Ellenbrook Fields',
            start: '2015-02-22T10:00:00Z',
            end: '2015-02-22T13:00:00Z',
            organisers: ['Happy Herts Orienteers'],
            country: 'GBR',
            courses: { iofXml: relative(tmp, ELLENBROOK) },
          },
        ],
      }),
    );
    const event = (await loadDatasetFile(datasetPath)).events[0]!;
    const race = event.courses!;
    expect(race.courses.length).toBeGreaterThan(0);
    expect(race.maps[0]!.scale).toBe(10000);
    // The file assigns no classes: one class per course, named after it.
    expect(event.classes.map((c) => c.name)).toEqual(race.courses.map((c) => c.name));
    expect(event.hasValidMapAndCourses).toBe(true);
    expect(race.controls.find((c) => c.id === 'S1')!.position).toEqual({ lat: 51.761915, lng: -0.253866 });
    expect(event.position!.latitude).toBeCloseTo(51.76, 1);
  });
});

describe('docs/simulator-dataset.md', () => {
  it('has a complete example that loads as documented', async () => {
    const doc = await readFile(join(repo, 'docs/simulator-dataset.md'), 'utf8');
    const block = /```json\n([\s\S]*?)\n```/.exec(doc);
    expect(block).not.toBeNull();
    const data = await parseDataset(JSON.parse(block![1]!), fixtures);
    const [linne, halden] = data.events;
    expect(linne!.hasValidMapAndCourses).toBe(true);
    expect(linne!.isSearchable).toBe(true);
    const inskolning = String(linne!.classes.find((c) => c.name === 'Inskolning')!.id);
    expect(linne!.courses!.classAssignments.find((a) => a.classId === inskolning)!.courseName).toBe('Inskolning');
    expect(halden!.isSearchable).toBe(false);
    expect(halden!.classes.every((c) => c.id > GENERATED_CLASS_ID_BASE)).toBe(true);
  });
});
