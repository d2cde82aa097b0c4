import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseCourseData } from '../../src/iof/read-course-data.js';
import type { CourseData, RaceCourseData } from '../../src/iof/model.js';
import { catchInputError, fixturePath, iofExamplePath, realdataPath } from '../helpers/files.js';

// Expected values below were read from the files with grep and by eye.
const parse = (path: string): CourseData => parseCourseData(readFileSync(path), path);

function onlyRace(data: CourseData): RaceCourseData {
  expect(data.races).toHaveLength(1);
  return data.races[0]!;
}

describe('parseCourseData on the IOF 3.0 examples', () => {
  it('reads CourseData_Individual_Step2: event, 8 controls, two butterfly courses, 4 class assignments', () => {
    const data = parse(iofExamplePath('CourseData_Individual_Step2.xml'));
    expect(data).toMatchObject({
      iofVersion: '3.0',
      creator: 'Example Software',
      createTime: '2011-07-20T12:16:31+01:00',
    });
    expect(data.event).toEqual({ name: 'Example event', start: '2011-07-30T10:00:00+01:00', organisers: [] });
    const race = onlyRace(data);
    expect(race.maps).toEqual([]);
    expect(race.controls.map((c) => c.id)).toEqual(['S', '31', '32', '33', '34', '35', '100', 'F']);
    // No type attribute on the definitions: the schema default applies.
    expect(race.controls[0]).toEqual({
      id: 'S',
      type: 'Control',
      position: { lat: 59.760069, lng: 17.687623 },
      mapPosition: { x: 187, y: 58, unit: 'mm' },
    });
    expect(race.controls[4]?.position).toEqual({ lat: 59.7582, lng: 17.685711 });
    expect(race.courses.map((c) => [c.name, c.courseFamily, c.length, c.climb, c.controls.length])).toEqual([
      ['A', 'Open long', 2960, 95, 10],
      ['B', 'Open long', 2960, 95, 10],
    ]);
    const a = race.courses[0]!;
    expect(a.controls.map((c) => c.controlId)).toEqual(['S', '31', '32', '33', '31', '34', '35', '31', '100', 'F']);
    expect(a.numberOfControls).toBe(8);
    expect(a.controls[0]).toEqual({ controlId: 'S', type: 'Start', legLength: 50 });
    expect(a.controls[1]).toEqual({ controlId: '31', type: 'Control', legLength: 410, mapText: '1/4/7' });
    expect(a.controls[9]).toEqual({ controlId: 'F', type: 'Finish', legLength: 150 });
    expect(race.classAssignments).toEqual([
      { className: 'Men Open', courseName: 'A', courseFamily: 'Open long' },
      { className: 'Men Open', courseName: 'B', courseFamily: 'Open long' },
      { className: 'Women Open', courseName: 'A', courseFamily: 'Open long' },
      { className: 'Women Open', courseName: 'B', courseFamily: 'Open long' },
    ]);
  });

  it('reads CourseData_Individual_Step4 (BOM; person assignments, which the model does not carry)', () => {
    const race = onlyRace(parse(iofExamplePath('CourseData_Individual_Step4.xml')));
    expect(race.controls).toHaveLength(8);
    expect(race.courses.map((c) => c.name)).toEqual(['A', 'B']);
    expect(race.classAssignments).toEqual([]);
  });

  it('reads CourseData_Relay_Step2: three courses and family-only assignments with allowed legs', () => {
    const race = onlyRace(parse(iofExamplePath('CourseData_Relay_Step2.xml')));
    expect(race.controls.map((c) => c.id)).toEqual(['S', '31', '32', '33', '34', '100', 'F']);
    expect(race.courses.map((c) => [c.name, c.courseFamily, c.length, c.climb, c.numberOfControls])).toEqual([
      ['A', 'Open long', 1770, 45, 3],
      ['B', 'Open long', 1770, 45, 3],
      ['C', 'Open short', 1100, 45, 2],
    ]);
    expect(race.courses[1]?.controls.map((c) => c.controlId)).toEqual(['S', '31', '33', '100', 'F']);
    expect(race.classAssignments).toEqual([
      { className: 'Men Open', allowedOnLegs: [1, 3], courseName: '', courseFamily: 'Open long' },
      { className: 'Men Open', allowedOnLegs: [2], courseName: '', courseFamily: 'Open short' },
      { className: 'Women Open', allowedOnLegs: [1, 3], courseName: '', courseFamily: 'Open long' },
      { className: 'Women Open', allowedOnLegs: [2], courseName: '', courseFamily: 'Open short' },
    ]);
  });

  it('reads CourseData_Relay_Step4 (team assignments only)', () => {
    const race = onlyRace(parse(iofExamplePath('CourseData_Relay_Step4.xml')));
    expect(race.courses.map((c) => c.name)).toEqual(['A', 'B', 'C']);
    expect(race.controls).toHaveLength(7);
    expect(race.classAssignments).toEqual([]);
  });
});

describe('parseCourseData on real IOF 3.0 course files', () => {
  it('reads OpenOrienteering Mapper: positions only, no map, no leg lengths', () => {
    const data = parse(realdataPath('iof3/mapper_CourseData_export2.xml'));
    expect(data).toMatchObject({ creator: 'OpenOrienteering Mapper 0.9.6', createTime: '2024-11-26T19:58:27' });
    expect(data.event).toEqual({ name: 'Test event', organisers: [] });
    const race = onlyRace(data);
    expect(race.maps).toEqual([]);
    expect(race.controls.map((c) => c.id)).toEqual(['S1', '31', '32', '33', '34', 'F1']);
    expect(race.controls[0]).toEqual({ id: 'S1', type: 'Control', position: { lat: 50.9955112, lng: 7.999643 } });
    expect(race.courses).toEqual([
      {
        name: 'Test course',
        numberOfControls: 4,
        controls: [
          { controlId: 'S1', type: 'Start' },
          { controlId: '31', type: 'Control' },
          { controlId: '32', type: 'Control' },
          { controlId: '33', type: 'Control' },
          { controlId: '34', type: 'Control' },
          { controlId: 'F1', type: 'Finish' },
        ],
      },
    ]);
  });

  it('reads OCAD 11: map extent, WGS84 positions plus map positions, two courses', () => {
    const race = onlyRace(parse(realdataPath('iof3/rg2_ellenbrook_CourseData_OCAD11.xml')));
    expect(race.maps).toEqual([
      {
        scale: 10000,
        mapPositionTopLeft: { x: 141.3, y: 178.4, unit: 'mm' },
        mapPositionBottomRight: { x: 293.4, y: -44.6, unit: 'mm' },
      },
    ]);
    expect(race.controls).toHaveLength(12);
    expect(race.controls.find((c) => c.id === '101')).toEqual({
      id: '101',
      type: 'Control',
      position: { lat: 51.761025, lng: -0.256845 },
      mapPosition: { x: 241.6, y: 23.8, unit: 'mm' },
    });
    expect(race.courses.map((c) => [c.name, c.length, c.climb, c.controls.length, c.numberOfControls])).toEqual([
      ['Orange', 1990, 0, 9, 7],
      ['Yellow', 1750, 0, 8, 6],
    ]);
    expect(race.courses[1]?.controls.at(-1)).toEqual({ controlId: 'F1', type: 'Finish', legLength: 78 });
  });

  it('reads OCAD 11 course data without the IOF namespace the same way', () => {
    const text = readFileSync(realdataPath('iof3/rg2_ellenbrook_CourseData_OCAD11.xml'), 'utf8');
    const withoutNamespace = text.replace(' xmlns="http://www.orienteering.org/datastandard/3.0"', '');
    expect(withoutNamespace).not.toContain('datastandard/3.0');
    expect(parseCourseData(Buffer.from(withoutNamespace))).toEqual(parseCourseData(Buffer.from(text)));
  });

  it('reads a namespace-prefixed document (iof:CourseData) the same way', () => {
    const text = readFileSync(realdataPath('iof3/mapper_CourseData_export2.xml'), 'utf8')
      .replace(
        'xmlns="http://www.orienteering.org/datastandard/3.0"',
        'xmlns:iof="http://www.orienteering.org/datastandard/3.0"',
      )
      .replace(/<(\/?)([A-Z]\w*)/g, '<$1iof:$2');
    expect(text).toContain('<iof:CourseControl type="Start">');
    expect(parseCourseData(Buffer.from(text))).toEqual(parse(realdataPath('iof3/mapper_CourseData_export2.xml')));
  });

  it('reads Condes 9 georeferenced positions as given: big projected numbers in lng/lat', () => {
    const data = parse(realdataPath('iof3/rg2_heartwood_CourseData_Condes9_georef.xml'));
    expect(data.event.name).toBe('Heartwood 6th Dec. 2014');
    const race = onlyRace(data);
    expect(race.maps).toEqual([
      {
        scale: 10000,
        mapPositionTopLeft: { x: -180.14, y: 226.2, unit: 'mm' },
        mapPositionBottomRight: { x: 35.61, y: 69.35, unit: 'mm' },
      },
    ]);
    expect(race.controls).toHaveLength(36);
    expect(race.controls[0]).toEqual({
      id: '170',
      type: 'Control',
      position: { lat: 212058.84, lng: 516218.97 },
      mapPosition: { x: -67.22, y: 209.69, unit: 'mm' },
    });
    expect(race.controls.filter((c) => c.type !== 'Control').map((c) => [c.id, c.type])).toEqual([
      ['F', 'Finish'],
      ['S', 'Start'],
      ['S2', 'Start'],
    ]);
    expect(race.courses.map((c) => [c.name, c.length, c.climb, c.controls.length])).toEqual([
      ['Lt Green', 3900, 60, 15],
      ['Lt Green +', 7125, 105, 24],
      ['Orange', 3350, 45, 13],
      ['Yellow', 2575, 35, 12],
    ]);
  });

  it('reads Purple Pen: map positions only, typed controls, class assignments, and -0 as 0', () => {
    const data = parse(realdataPath('iof3/rg2_pwllddu_CourseData_PurplePen353.xml'));
    expect(data.createTime).toBe('2025-06-17T13:59:23.9822012+01:00');
    const race = onlyRace(data);
    // The file writes y="-0"; deep equality would tell -0 from 0.
    expect(race.maps).toEqual([
      {
        scale: 15000,
        mapPositionTopLeft: { x: 0, y: 184.74, unit: 'mm' },
        mapPositionBottomRight: { x: 230.63, y: 0, unit: 'mm' },
      },
    ]);
    expect(Object.is(race.maps[0]?.mapPositionBottomRight?.y, 0)).toBe(true);
    expect(race.controls.every((c) => c.position === undefined && c.mapPosition !== undefined)).toBe(true);
    expect(race.controls[0]).toEqual({ id: 'STA1', type: 'Start', mapPosition: { x: 112.48, y: 50.09, unit: 'mm' } });
    expect(race.controls.at(-1)).toEqual({
      id: 'FIN1',
      type: 'Finish',
      mapPosition: { x: 108.37, y: 55.58, unit: 'mm' },
    });
    expect(race.courses.map((c) => [c.name, c.length, c.climb, c.controls.length])).toEqual([
      ['1', 3300, undefined, 7],
      ['2', 1900, undefined, 6],
      ['3', 1100, undefined, 5],
    ]);
    expect(race.courses[0]?.controls[1]).toEqual({ controlId: '101', type: 'Control', mapText: '1', legLength: 505 });
    expect(race.classAssignments).toEqual([
      { className: 'MO', courseName: '1' },
      { className: 'WSV', courseName: '2' },
      { className: 'MSV', courseName: '2' },
      { className: 'WUV', courseName: '3' },
      { className: 'MUV', courseName: '3' },
    ]);
  });

  it('reads accented names from a windows-1252 file, ids as strings, organisers, and character references', () => {
    const data = parse(fixturePath('iof/CourseData_cp1252_smart_quotes.xml'));
    expect(data.event).toEqual({
      id: '2024-\u00C5BO-1',
      name: '\u2018\u00C5bo Sprint\u2019 \u2013 \u201C\u00D8rienteering\u201D Cup',
      start: '2024-05-04T10:00:00+03:00',
      end: '2024-05-05',
      organisers: ['\u00D8rienteering Klubb \u00C5bo', 'Turun Suunnistajat'],
    });
    const race = onlyRace(data);
    expect(race.raceNumber).toBe(1);
    expect(race.controls.map((c) => c.id)).toEqual(['S1', '031', '032', 'F1']);
    expect(race.controls[0]?.position).toEqual({ lat: 60.4518, lng: 22.2666, alt: 12.5 });
    expect(race.courses[0]).toEqual({
      id: '7',
      name: 'Bana \u201CL\u00E5ng\u201D \u2013 A',
      courseFamily: 'L\u00E5ng',
      length: 2450.5,
      climb: 35,
      numberOfControls: 2,
      controls: [
        { controlId: 'S1', type: 'Start' },
        { controlId: '031', type: 'Control', mapText: '1 & 3', legLength: 410 },
        // No type attribute: it takes the type of control 032.
        { controlId: '032', type: 'Control', legLength: 275.5, score: 20 },
        { controlId: 'F1', type: 'Finish', legLength: 90 },
      ],
    });
    expect(race.classAssignments).toEqual([
      { classId: '12', className: 'H21 \u2018Elit\u2019 \u20AC', courseName: 'Bana \u201CL\u00E5ng\u201D \u2013 A' },
      { className: 'D\u00F6ttrar \u00C5', allowedOnLegs: [1, 3], courseName: '', courseFamily: 'L\u00E5ng' },
    ]);
  });
});

describe('parseCourseData on IOF 2.0.3', () => {
  it('reads the real ISO-8859-1 2.0.3 export: start, 31 controls, 2 crossing points, finish, 4 courses', () => {
    const data = parse(realdataPath('iof2/rg2_ellenbrook_CourseData_v203_latin1.xml'));
    expect(data.iofVersion).toBe('2.0.3');
    expect(data.createTime).toBe('2014-09-08T20:03:30');
    expect(data.event).toEqual({ name: '', organisers: [] });
    const race = onlyRace(data);
    expect(race.maps).toEqual([{ scale: 10000, mapPositionTopLeft: { x: 19708554, y: 19823724, unit: 'mm' } }]);
    expect(race.controls).toHaveLength(35);
    expect(race.controls[0]).toEqual({ id: 'S', type: 'Start', mapPosition: { x: 168.16, y: -21.42, unit: 'mm' } });
    expect(race.controls.filter((c) => c.type === 'Control')).toHaveLength(31);
    expect(race.controls.filter((c) => c.type === 'CrossingPoint').map((c) => c.id)).toEqual(['C1', 'C2']);
    expect(race.controls.at(-1)).toEqual({ id: 'F', type: 'Finish', mapPosition: { x: 166.12, y: 0.12, unit: 'mm' } });
    expect(race.courses.map((c) => [c.name, c.length, c.numberOfControls, c.controls.length])).toEqual([
      ['Extension', 7000, 21, 23],
      ['Light Green', 4125, 12, 14],
      ['Orange', 3225, 12, 14],
      ['Yellow', 2100, 11, 13],
    ]);
    const extension = race.courses[0]!;
    expect(extension.controls.slice(0, 2)).toEqual([
      { controlId: 'S', type: 'Start' },
      { controlId: '186', type: 'Control', legLength: 362 },
    ]);
    // DistanceToFinish is the last leg.
    expect(extension.controls.at(-1)).toEqual({ controlId: 'F', type: 'Finish', legLength: 357 });
    expect(race.classAssignments).toEqual([]);
  });

  it('reads 2.0.3 terrain positions with units, class short names and ids, and relay variations as a family', () => {
    const race = onlyRace(parse(fixturePath('iof/CourseData_v203_classes_latin1.xml')));
    expect(race.controls).toEqual([
      {
        id: 'S1',
        type: 'Start',
        position: { lat: 6637200.25, lng: 1617400.5 },
        mapPosition: { x: 12.5, y: 40, unit: 'mm' },
      },
      {
        id: '101',
        type: 'Control',
        position: { lat: 6637480, lng: 1617650 },
        mapPosition: { x: 37.5, y: 68, unit: 'mm' },
      },
      { id: '102', type: 'Control', position: { lat: 6637610, lng: 1617.9 } },
      { id: '103', type: 'Control', position: { lat: 59.8475, lng: 18.0712 } },
      { id: 'M1', type: 'Finish', position: { lat: 6637190, lng: 1617420 } },
    ]);
    expect(race.courses).toEqual([
      {
        id: '11',
        name: '\u00D6ppen 1',
        length: 3200,
        climb: 45,
        numberOfControls: 3,
        controls: [
          { controlId: 'S1', type: 'Start' },
          { controlId: '101', type: 'Control', legLength: 380 },
          { controlId: '102', type: 'Control', legLength: 410 },
          { controlId: '103', type: 'Control', legLength: 520 },
          { controlId: 'M1', type: 'Finish', legLength: 120 },
        ],
      },
      {
        name: 'Stafett AB',
        courseFamily: 'Stafett',
        length: 2100,
        numberOfControls: 2,
        controls: [
          { controlId: 'S1', type: 'Start' },
          { controlId: '101', type: 'Control' },
          { controlId: '102', type: 'Control' },
          { controlId: 'M1', type: 'Finish' },
        ],
      },
      {
        name: 'Stafett 2',
        courseFamily: 'Stafett',
        length: 2050,
        numberOfControls: 2,
        controls: [
          { controlId: 'S1', type: 'Start' },
          { controlId: '102', type: 'Control' },
          { controlId: '101', type: 'Control' },
          { controlId: 'M1', type: 'Finish' },
        ],
      },
    ]);
    expect(race.classAssignments).toEqual([
      { className: '\u00D6ppen 1', courseName: '\u00D6ppen 1' },
      { className: 'Damer \u00C4ldre', courseName: '\u00D6ppen 1' },
      { classId: '21', courseName: '', courseFamily: 'Stafett' },
    ]);
    expect(race.maps).toEqual([{ scale: 10000, mapPositionTopLeft: { x: -120.5, y: 210, unit: 'mm' } }]);
  });
});

describe('parseCourseData errors', () => {
  it('rejects a ResultList as wrong_message_type, naming the root it found', () => {
    const error = catchInputError(() => parse(iofExamplePath('ResultList1.xml')));
    expect(error.reason).toBe('wrong_message_type');
    expect(error.message).toContain('ResultList');
  });

  it('rejects a number that is not a number with invalid_value and the element path', () => {
    const text = readFileSync(iofExamplePath('CourseData_Individual_Step2.xml'), 'utf8').replace(
      '<Length>2960</Length>\n      <!-- course climb in meters -->\n      <Climb>95</Climb>',
      '<Length>2960</Length>\n      <Climb>9,5</Climb>',
    );
    expect(text).toContain('<Climb>9,5</Climb>');
    const error = catchInputError(() => parseCourseData(Buffer.from(text), 'climb.xml'));
    expect(error.reason).toBe('invalid_value');
    expect(error.message).toContain('/CourseData/RaceCourseData[1]/Course[1]/Climb: "9,5" is not a number');
  });

  it('rejects a coordinate that is not a number with the attribute path', () => {
    const text = readFileSync(realdataPath('iof3/mapper_CourseData_export2.xml'), 'utf8').replace(
      'lat="50.9970149"',
      'lat="50,9970149"',
    );
    const error = catchInputError(() => parseCourseData(Buffer.from(text)));
    expect(error.reason).toBe('invalid_value');
    expect(error.message).toContain('/CourseData/RaceCourseData[1]/Control[2]/Position/@lat');
  });

  it('rejects an unknown control type', () => {
    const text = readFileSync(realdataPath('iof3/rg2_pwllddu_CourseData_PurplePen353.xml'), 'utf8').replace(
      'type="Start"',
      'type="Begin"',
    );
    const error = catchInputError(() => parseCourseData(Buffer.from(text)));
    expect(error.reason).toBe('invalid_value');
    expect(error.message).toContain('/CourseData/RaceCourseData[1]/Control[1]/@type: "Begin" is not a control type');
  });

  it('reports malformed course data as not_well_formed with line and column', () => {
    const text = '<?xml version="1.0"?>\n<CourseData iofVersion="3.0">\n  <Event><Name>x</Nme></Event>\n</CourseData>';
    const error = catchInputError(() => parseCourseData(Buffer.from(text), 'broken.xml'));
    expect(error).toMatchObject({ reason: 'not_well_formed', line: 3, column: 17 });
  });

  it('rejects entity declarations in course data (billion laughs)', () => {
    const levels = Array.from({ length: 9 }, (_, i) => `<!ENTITY l${i + 1} "${`&l${i};`.repeat(10)}">`).join('');
    const text = `<?xml version="1.0"?><!DOCTYPE CourseData [<!ENTITY l0 "lol">${levels}]><CourseData iofVersion="3.0"><Event><Name>&l9;</Name></Event><RaceCourseData/></CourseData>`;
    expect(catchInputError(() => parseCourseData(Buffer.from(text))).reason).toBe('entity_declaration');
  });

  it('rejects an external entity in course data and never reads the file', () => {
    const text =
      '<?xml version="1.0"?><!DOCTYPE CourseData [<!ENTITY x SYSTEM "file:///etc/passwd">]><CourseData iofVersion="3.0"><Event><Name>&x;</Name></Event><RaceCourseData/></CourseData>';
    const error = catchInputError(() => parseCourseData(Buffer.from(text)));
    expect(error.reason).toBe('entity_declaration');
    expect(error.message).not.toContain('root:');
  });
});
