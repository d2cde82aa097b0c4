import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseCourseData } from '../../src/iof/read-course-data.js';
import type { CourseData } from '../../src/iof/model.js';
import { formatNumber, writeCourseData } from '../../src/iof/write-course-data.js';
import { catchValidationError, fixturePath, realdataPath, IOF3_COURSE_FILES } from '../helpers/files.js';

const IOF3_FILES = IOF3_COURSE_FILES;
const IOF2_FILES = [
  realdataPath('iof2/rg2_ellenbrook_CourseData_v203_latin1.xml'),
  fixturePath('iof/CourseData_v203_classes_latin1.xml'),
];

const CREATED = new Date('2024-05-04T07:30:00Z');
const baseName = (path: string): string => path.slice(path.lastIndexOf('/') + 1);
const parseFile = (path: string): CourseData => parseCourseData(readFileSync(path), path);
const parseText = (xml: string): CourseData => parseCourseData(Buffer.from(xml, 'utf8'), 'written');
/** The header describes the file, not the courses: a rewritten file has its own creator and time. */
const withoutHeader = ({
  creator: _c,
  createTime: _t,
  ...rest
}: CourseData): Omit<CourseData, 'creator' | 'createTime'> => rest;

/** A stand-in projection to metres with 6-digit eastings (equirectangular around the data), enough to exercise the hook. */
const toGrid = (p: { lat: number; lng: number }): { lat: number; lng: number } => ({
  lng: 500000 + p.lng * 69000,
  lat: p.lat * 111200,
});

const SMALL: CourseData = {
  iofVersion: '3.0',
  event: { id: 'E1', name: 'Kväll & <natt>', start: '2024-05-04T18:00:00+02:00', organisers: ['OK "Ravinen"'] },
  races: [
    {
      raceNumber: 2,
      maps: [
        {
          id: 'm',
          scale: 4000,
          mapPositionTopLeft: { x: 0, y: 297, unit: 'mm' },
          mapPositionBottomRight: { x: 210, y: 0, unit: 'mm' },
        },
      ],
      controls: [
        { id: 'S1', type: 'Start', position: { lat: 59.123456789, lng: 18.000000012, alt: 12 } },
        { id: '031', type: 'Control', mapPosition: { x: 12.5, y: 0.0000001, unit: 'px' } },
        { id: 'F1', type: 'Finish' },
      ],
      courses: [
        {
          id: 'c1',
          name: 'A',
          courseFamily: 'Long',
          length: 2450.5,
          climb: 35,
          numberOfControls: 1,
          controls: [
            { controlId: 'S1', type: 'Start', legLength: 20 },
            { controlId: '031', type: 'Control', mapText: '1', legLength: 1e21, score: 20 },
            { controlId: 'F1', type: 'Finish', legLength: 90 },
          ],
        },
      ],
      classAssignments: [
        { classId: '7', className: 'H21', allowedOnLegs: [1, 3], courseName: 'A', courseFamily: 'Long' },
      ],
    },
  ],
};

describe('writeCourseData', () => {
  it('writes elements in the schema order with namespace, iofVersion, a UTC createTime, escaped text and plain numbers', () => {
    expect(writeCourseData(SMALL, { createTime: CREATED, creator: 'Test "suite"' })).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<CourseData xmlns="http://www.orienteering.org/datastandard/3.0" iofVersion="3.0" createTime="2024-05-04T07:30:00Z" creator="Test &quot;suite&quot;">',
        '  <Event>',
        '    <Id>E1</Id>',
        '    <Name>Kväll &amp; &lt;natt&gt;</Name>',
        '    <StartTime>',
        '      <Date>2024-05-04</Date>',
        '      <Time>18:00:00+02:00</Time>',
        '    </StartTime>',
        '    <Organiser>',
        '      <Name>OK "Ravinen"</Name>',
        '    </Organiser>',
        '  </Event>',
        '  <RaceCourseData raceNumber="2">',
        '    <Map>',
        '      <Id>m</Id>',
        '      <Scale>4000</Scale>',
        '      <MapPositionTopLeft x="0" y="297" unit="mm"/>',
        '      <MapPositionBottomRight x="210" y="0" unit="mm"/>',
        '    </Map>',
        '    <Control type="Start">',
        '      <Id>S1</Id>',
        '      <Position lng="18" lat="59.1234568" alt="12"/>',
        '    </Control>',
        '    <Control type="Control">',
        '      <Id>031</Id>',
        '      <MapPosition x="12.5" y="0.0000001" unit="px"/>',
        '    </Control>',
        '    <Control type="Finish">',
        '      <Id>F1</Id>',
        '    </Control>',
        '    <Course>',
        '      <Id>c1</Id>',
        '      <Name>A</Name>',
        '      <CourseFamily>Long</CourseFamily>',
        '      <Length>2450.5</Length>',
        '      <Climb>35</Climb>',
        '      <CourseControl type="Start">',
        '        <Control>S1</Control>',
        '        <LegLength>20</LegLength>',
        '      </CourseControl>',
        '      <CourseControl type="Control">',
        '        <Control>031</Control>',
        '        <MapText>1</MapText>',
        '        <LegLength>1000000000000000000000</LegLength>',
        '        <Score>20</Score>',
        '      </CourseControl>',
        '      <CourseControl type="Finish">',
        '        <Control>F1</Control>',
        '        <LegLength>90</LegLength>',
        '      </CourseControl>',
        '    </Course>',
        '    <ClassCourseAssignment>',
        '      <ClassId>7</ClassId>',
        '      <ClassName>H21</ClassName>',
        '      <AllowedOnLeg>1</AllowedOnLeg>',
        '      <AllowedOnLeg>3</AllowedOnLeg>',
        '      <CourseName>A</CourseName>',
        '      <CourseFamily>Long</CourseFamily>',
        '    </ClassCourseAssignment>',
        '  </RaceCourseData>',
        '</CourseData>',
        '',
      ].join('\n'),
    );
  });

  it('formats numbers in plain decimal notation, never with an exponent', () => {
    expect(formatNumber(0.0000001)).toBe('0.0000001');
    expect(formatNumber(-1.5e-10)).toBe('-0.00000000015');
    expect(formatNumber(1e21)).toBe('1000000000000000000000');
    expect(formatNumber(1.2345e22)).toBe('12345000000000000000000');
    expect(formatNumber(-0)).toBe('0');
    expect(formatNumber(516218.97)).toBe('516218.97');
    expect(formatNumber(0.1 + 0.2)).toBe('0.30000000000000004');
  });

  it('keeps text that needs escaping or carriage returns intact through a round trip', () => {
    const data: CourseData = {
      ...SMALL,
      event: { name: 'a\r\nb & c <d> "e" \'f\' ]]> \u00C5\u{1F9ED}', organisers: ['tab\there'] },
    };
    const xml = writeCourseData(data, { creator: 'x\ty\nz', createTime: CREATED });
    expect(xml).toContain('creator="x&#9;y&#10;z"');
    const back = parseText(xml);
    expect(back.creator).toBe('x\ty\nz');
    // Values are trimmed on reading, so only inner whitespace survives; the \r does.
    expect(back.event.name).toBe('a\r\nb & c <d> "e" \'f\' ]]> \u00C5\u{1F9ED}');
    expect(back.event.organisers).toEqual(['tab\there']);
  });

  it.each(IOF3_FILES.map((f) => [baseName(f), f]))(
    'round-trips %s: parse(write(parse(file))) equals parse(file)',
    (_name, path) => {
      const data = parseFile(path);
      expect(withoutHeader(parseText(writeCourseData(data, { createTime: CREATED })))).toEqual(withoutHeader(data));
    },
  );

  it.each(IOF2_FILES.map((f) => [baseName(f), f]))(
    'converts IOF 2.0.3 %s to 3.0 losing only the one-corner map 3.0 cannot express',
    (_name, path) => {
      const data = parseFile(path);
      const back = parseText(writeCourseData(data, { createTime: CREATED }));
      expect(back.iofVersion).toBe('3.0');
      expect(back.races.map((r) => r.maps)).toEqual([[]]);
      expect(back.races.map(({ maps: _m, ...rest }) => rest)).toEqual(data.races.map(({ maps: _m, ...rest }) => rest));
      expect(back.event).toEqual(data.event);
    },
  );

  it('with includeControls false omits control definitions (positions) and keeps each course sequence of codes', () => {
    const data = parseFile(IOF3_FILES[0]!);
    const xml = writeCourseData(data, { includeControls: false, createTime: CREATED });
    expect(xml).not.toMatch(/<Control type=/);
    expect(xml).not.toContain('<Position');
    const back = onlyRace(parseText(xml));
    expect(back.controls).toEqual([]);
    expect(back.courses.map((c) => [c.name, c.courseFamily, c.length, c.climb])).toEqual([
      ['A', 'Open long', 2960, 95],
      ['B', 'Open long', 2960, 95],
    ]);
    expect(back.courses[0]?.controls).toEqual(onlyRace(data).courses[0]?.controls);
    expect(back.courses[0]?.controls[0]).toMatchObject({ controlId: 'S', type: 'Start' });
    expect(back.classAssignments).toHaveLength(4);
  });

  it('with includeClassAssignments false writes no ClassCourseAssignment', () => {
    const xml = writeCourseData(parseFile(IOF3_FILES[7]!), { includeClassAssignments: false, createTime: CREATED });
    expect(xml).not.toContain('ClassCourseAssignment');
    expect(onlyRace(parseText(xml)).courses).toHaveLength(3);
  });

  it('with includeClassNames false keeps ClassId and writes the required ClassName empty', () => {
    const xml = writeCourseData(parseFile(fixturePath('iof/CourseData_cp1252_smart_quotes.xml')), {
      includeClassNames: false,
      createTime: CREATED,
    });
    expect(xml).not.toContain('Elit');
    expect(xml).toContain('<ClassId>12</ClassId>\n      <ClassName/>');
    expect(onlyRace(parseText(xml)).classAssignments).toEqual([
      { classId: '12', courseName: 'Bana \u201CL\u00E5ng\u201D \u2013 A' },
      { allowedOnLegs: [1, 3], courseName: '', courseFamily: 'L\u00E5ng' },
    ]);
  });

  it('writes an event without races as one empty RaceCourseData, the schema minimum', () => {
    const xml = writeCourseData(
      { iofVersion: '3.0', event: { name: 'Nothing yet', organisers: [] }, races: [] },
      { createTime: CREATED },
    );
    expect(xml).toContain('  <RaceCourseData/>\n');
    expect(parseText(xml).races).toEqual([{ maps: [], controls: [], courses: [], classAssignments: [] }]);
  });

  it('passes positions through the position hook: projected 6-digit eastings come out in full', () => {
    const data = parseFile(IOF3_FILES[5]!);
    const xml = writeCourseData(data, { position: toGrid, createTime: CREATED });
    // Control 101 of the OCAD file is at lng -0.256845, lat 51.761025.
    expect(xml).toContain(
      `<Position lng="${formatNumber(Number(toGrid({ lat: 51.761025, lng: -0.256845 }).lng.toFixed(7)))}"`,
    );
    const positions = onlyRace(parseText(xml)).controls.map((c) => c.position!);
    expect(positions.every((p) => p.lng > 400000 && p.lng < 600000 && p.lat > 5_000_000)).toBe(true);
    expect(xml).not.toMatch(/e[+-]\d/);
  });

  it('refuses data it cannot write validly, listing every problem with its path', () => {
    const bad: CourseData = {
      iofVersion: '3.0',
      event: { name: 'bad\u0001name', start: '04/05/2024', organisers: [] },
      races: [
        {
          maps: [],
          controls: [{ id: 'S', type: 'Start', position: { lat: Number.NaN, lng: 18 } }],
          courses: [{ name: 'Short', length: Number.POSITIVE_INFINITY, controls: [{ controlId: 'S', type: 'Start' }] }],
          classAssignments: [{ className: 'H21', courseName: 'Short', allowedOnLegs: [1.5] }],
        },
      ],
    };
    const error = catchValidationError(() => writeCourseData(bad));
    expect(error.issues.map((i) => [i.path, i.code])).toEqual([
      ['event.name', 'xml_char'],
      ['event.start', 'format'],
      ['races[0].controls[0].position.lat', 'not_finite'],
      ['races[0].courses[0].controls', 'too_few_controls'],
      ['races[0].courses[0].length', 'not_finite'],
      ['races[0].classAssignments[0].allowedOnLegs[0]', 'not_integer'],
    ]);
  });
});

function onlyRace(data: CourseData): CourseData['races'][number] {
  expect(data.races).toHaveLength(1);
  return data.races[0]!;
}
