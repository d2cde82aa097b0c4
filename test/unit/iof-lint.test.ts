import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { destination } from '../../src/geo/distance.js';
import { parseCourseData } from '../../src/iof/read-course-data.js';
import { LINT_SEVERITY, lintCourseData, type LintCode, type LintIssue } from '../../src/iof/lint.js';
import type { Control, CourseData, RaceCourseData } from '../../src/iof/model.js';
import { fixturePath, iofExamplePath, realdataPath } from '../helpers/files.js';

const parse = (path: string): CourseData => parseCourseData(readFileSync(path), path);
const codes = (issues: readonly LintIssue[]): string[] => [...new Set(issues.map((i) => i.code))].sort();
const only = (issues: readonly LintIssue[], code: LintCode): LintIssue[] => issues.filter((i) => i.code === code);

/**
 * What lint finds in every course-data file we have, checked by hand: the IOF examples carry made-up leg lengths (their
 * legs are not the distances between their positions), the real exports have the quirks the manifest names.
 */
const FILES: ReadonlyArray<[path: string, expected: LintCode[]]> = [
  [iofExamplePath('CourseData_Individual_Step2.xml'), ['leg_length_mismatch']],
  [iofExamplePath('CourseData_Individual_Step4.xml'), ['leg_length_mismatch']],
  [iofExamplePath('CourseData_Relay_Step2.xml'), ['leg_length_mismatch']],
  [iofExamplePath('CourseData_Relay_Step4.xml'), ['leg_length_mismatch']],
  [realdataPath('iof3/rg2_ellenbrook_CourseData_OCAD11.xml'), []],
  [realdataPath('iof3/mapper_CourseData_export2.xml'), ['time_without_offset']],
  [realdataPath('iof3/rg2_heartwood_CourseData_Condes9_georef.xml'), ['position_not_degrees', 'time_without_offset']],
  [realdataPath('iof3/rg2_pwllddu_CourseData_PurplePen353.xml'), ['no_positions']],
  [realdataPath('iof2/rg2_ellenbrook_CourseData_v203_latin1.xml'), ['no_positions', 'time_without_offset']],
  [fixturePath('iof/CourseData_cp1252_smart_quotes.xml'), ['course_length_mismatch', 'leg_length_mismatch']],
  [fixturePath('iof/CourseData_v203_classes_latin1.xml'), ['course_length_mismatch', 'position_not_degrees']],
  [fixturePath('datasets/cannock-chase.courses.xml'), []],
];

describe('lintCourseData on every course-data file', () => {
  it.each(FILES)('%s', (path, expected) => {
    const issues = lintCourseData(parse(path));
    expect(codes(issues)).toEqual([...expected].sort());
    for (const issue of issues) {
      // Every code has its grade; only a createTime without offset is graded down (to info).
      if (issue.path !== 'createTime') expect(issue.severity).toBe(LINT_SEVERITY[issue.code as LintCode]);
      expect(issue.path).not.toBe('');
      expect(issue.message.length).toBeGreaterThan(40);
    }
  });

  it('finds no errors in the IOF examples, only warnings about their made-up leg lengths', () => {
    for (const name of ['Individual_Step2', 'Individual_Step4', 'Relay_Step2', 'Relay_Step4']) {
      const issues = lintCourseData(parse(iofExamplePath(`CourseData_${name}.xml`)));
      expect(issues.filter((i) => i.severity === 'error')).toEqual([]);
    }
  });

  it('groups a course whose legs mostly disagree into one finding, and reports one or two legs singly', () => {
    const issues = lintCourseData(parse(iofExamplePath('CourseData_Relay_Step2.xml')));
    const legs = only(issues, 'leg_length_mismatch');
    // Course A: 3 of 4 legs off -> one finding on the course; B and C: two legs each -> one finding per leg.
    expect(legs.map((i) => i.path)).toEqual([
      'races[0].courses[0].controls',
      'races[0].courses[1].controls[3]',
      'races[0].courses[1].controls[4]',
      'races[0].courses[2].controls[2]',
      'races[0].courses[2].controls[3]',
    ]);
    expect(legs[0]!.message).toContain('3 of 4 leg lengths disagree');
    expect(legs[1]!.message).toMatch(/the leg 33 → 100 is given as 800 m, but the controls' positions are 169 m apart/);
  });

  it('says the Condes georef positions are British National Grid and suggests --epsg 27700', () => {
    const issues = lintCourseData(parse(realdataPath('iof3/rg2_heartwood_CourseData_Condes9_georef.xml')));
    const [finding] = only(issues, 'position_not_degrees');
    expect(finding).toMatchObject({ path: 'races[0].controls', severity: 'error' });
    expect(finding!.message).toContain('lat 212058.84, lng 516218.97');
    expect(finding!.message).toContain('OSGB36 / British National Grid (EPSG:27700)');
    expect(finding!.message).toContain('near 51.79°N 0.32°W');
    expect(finding!.hint).toMatchObject({ code: 'projection', values: [27700] });
    // The numbers also fit LV03 (Swiss), which is named as the less likely alternative.
    expect(finding!.message).toContain('It could also be CH1903 / LV03 (EPSG:21781)');
    // Distances between grid values mean nothing as degrees: no leg check ran.
    expect(only(issues, 'leg_length_mismatch')).toEqual([]);
  });

  it('names RT90 for the 2.0.3 fixture whose grid positions sit beside one in WGS-84', () => {
    const issues = lintCourseData(parse(fixturePath('iof/CourseData_v203_classes_latin1.xml')));
    const [finding] = only(issues, 'position_not_degrees');
    expect(finding!.message).toMatch(/^4 of 5 control positions are not in degrees \(S1, 101, 102, M1;/);
    expect(finding!.message).toContain('RT90 2.5 gon V (EPSG:3021)');
    expect(finding!.hint).toMatchObject({ code: 'projection', values: [3021] });
  });

  it('says Purple Pen course data without georeference cannot be placed', () => {
    const issues = lintCourseData(parse(realdataPath('iof3/rg2_pwllddu_CourseData_PurplePen353.xml')));
    expect(issues).toEqual([
      expect.objectContaining({ code: 'no_positions', path: 'races[0].controls', severity: 'warning' }),
    ]);
    expect(issues[0]!.message).toMatch(/no control has a geographic position.*Georeference the map/);
  });

  it('grades a missing createTime offset as info, and tells 2.0.3 files to move to 3.0', () => {
    const v2 = lintCourseData(parse(realdataPath('iof2/rg2_ellenbrook_CourseData_v203_latin1.xml')));
    expect(only(v2, 'time_without_offset')).toEqual([
      expect.objectContaining({ path: 'createTime', severity: 'info' }),
    ]);
    expect(only(v2, 'time_without_offset')[0]!.message).toContain('IOF 2.0.3 cannot carry an offset');
  });
});

/* ------------------------------------------------------------------------------------- hand-made course data */

const ORIGIN = { lat: 59.3, lng: 18.0 };

/** A point `m` metres east and `n` metres north of ORIGIN (spherical, as lint measures). */
function at(east: number, north: number): { lat: number; lng: number } {
  const p = destination(ORIGIN, 90, east);
  return destination(p, 0, north);
}

function control(id: string, type: Control['type'], east: number, north: number): Control {
  return { id, type, position: at(east, north), mapPosition: { x: east / 10, y: north / 10, unit: 'mm' } };
}

/** S -> 31 (300 m) -> 32 (400 m) -> F (300 m): 1000 m, legs as given. */
function clean(): CourseData {
  const race: RaceCourseData = {
    maps: [],
    controls: [
      control('S', 'Start', 0, 0),
      control('31', 'Control', 300, 0),
      control('32', 'Control', 300, 400),
      control('F', 'Finish', 0, 400),
    ],
    courses: [
      {
        name: 'A',
        length: 1000,
        climb: 10,
        numberOfControls: 2,
        controls: [
          { controlId: 'S', type: 'Start' },
          { controlId: '31', type: 'Control', legLength: 300 },
          { controlId: '32', type: 'Control', legLength: 400 },
          { controlId: 'F', type: 'Finish', legLength: 300 },
        ],
      },
    ],
    classAssignments: [{ className: 'H21', courseName: 'A' }],
  };
  return {
    iofVersion: '3.0',
    createTime: '2025-05-01T10:00:00Z',
    event: { name: 'Test', start: '2025-05-03T10:00:00+02:00', end: '2025-05-03', organisers: ['OK'] },
    races: [race],
  };
}

function race0(data: CourseData): RaceCourseData {
  return data.races[0]!;
}

describe('lintCourseData on hand-made course data', () => {
  it('finds nothing in clean course data', () => {
    expect(lintCourseData(clean())).toEqual([]);
  });

  it('position_not_degrees: |lat| > 90, naming SWEREF99 TM for Swedish grid numbers', () => {
    const data = clean();
    race0(data).controls.forEach((c, i) => {
      c.position = { lat: 6_580_000 + i * 100, lng: 674_000 + i * 100 };
    });
    const issues = lintCourseData(data);
    expect(codes(issues)).toEqual(['position_not_degrees']);
    expect(issues[0]).toMatchObject({ path: 'races[0].controls', severity: 'error' });
    expect(issues[0]!.message).toContain('SWEREF99 TM (EPSG:3006)');
    expect(issues[0]!.hint).toMatchObject({ code: 'projection', values: [3006] });
  });

  it('position_not_degrees: one bad control is reported on that control', () => {
    const data = clean();
    race0(data).controls[2]!.position = { lat: 59.3, lng: 181 };
    const issues = lintCourseData(data);
    expect(only(issues, 'position_not_degrees')).toEqual([expect.objectContaining({ path: 'races[0].controls[2]' })]);
    // Distance checks stop for the race: a wrong position would make every leg through it look wrong.
    expect(only(issues, 'leg_length_mismatch')).toEqual([]);
  });

  it('position_not_degrees: swapped latitude and longitude are named as such', () => {
    const data = clean();
    race0(data).controls.forEach((c) => {
      c.position = { lat: 151.2, lng: -33.9 };
    });
    expect(lintCourseData(data)[0]!.message).toContain('look swapped');
  });

  it('position_not_degrees: zone systems are named as a family, UTM numbers as undecidable', () => {
    const local = clean();
    race0(local).controls.forEach((c) => {
      c.position = { lat: 6_398_205, lng: 152_563 };
    });
    expect(lintCourseData(local)[0]!.message).toMatch(
      /SWEREF99 local zones \(EPSG:3007-3018\), though the numbers cannot tell which zone.*the map's zone \(one of 3007, 3008/,
    );
    expect(lintCourseData(local)[0]!.hint).toMatchObject({
      code: 'projection',
      values: [3007, 3008, 3009, 3010, 3015],
    });
    const utm = clean();
    race0(utm).controls.forEach((c) => {
      c.position = { lat: 5_814_754, lng: 381_128 }; // Berlin in ETRS89 / UTM 33N
    });
    expect(lintCourseData(utm)[0]!.message).toContain('could be a UTM zone');
  });

  it('undefined_control: a course code the race does not define, once per course', () => {
    const data = clean();
    const course = race0(data).courses[0]!;
    course.controls.splice(2, 0, { controlId: '99', type: 'Control' }, { controlId: '99', type: 'Control' });
    const issues = only(lintCourseData(data), 'undefined_control');
    expect(issues).toEqual([expect.objectContaining({ path: 'races[0].courses[0].controls[2]', severity: 'error' })]);
    expect(issues[0]!.message).toContain('control 99');
  });

  it('course_without_controls: only start and finish, and an empty course', () => {
    const data = clean();
    race0(data).courses.push(
      {
        name: 'B',
        controls: [
          { controlId: 'S', type: 'Start' },
          { controlId: 'F', type: 'Finish' },
        ],
      },
      { name: 'C', controls: [] },
    );
    race0(data).classAssignments.push({ className: 'x', courseName: 'B' }, { className: 'y', courseName: 'C' });
    const issues = only(lintCourseData(data), 'course_without_controls');
    expect(issues.map((i) => i.path)).toEqual(['races[0].courses[1].controls', 'races[0].courses[2].controls']);
    expect(issues[0]!.message).toContain('has only S (Start), F (Finish)');
    expect(issues[1]!.message).toContain('has no controls');
  });

  it('unknown_course: a class on a course or family the race does not have', () => {
    const data = clean();
    race0(data).classAssignments.push(
      { className: 'D21', courseName: 'Z' },
      { classId: '7', courseName: '', courseFamily: 'Long' },
    );
    const issues = only(lintCourseData(data), 'unknown_course');
    expect(issues.map((i) => i.path)).toEqual(['races[0].classAssignments[1]', 'races[0].classAssignments[2]']);
    expect(issues[0]!.message).toContain(
      'class "D21" is assigned to course "Z", which this race does not have (it has "A")',
    );
    expect(issues[1]!.message).toContain('class id 7 is assigned to course family "Long"');
  });

  it('leg_length_mismatch: a leg beyond 25 m + 10 %, and the tolerance is an option', () => {
    const data = clean();
    race0(data).courses[0]!.controls[2]!.legLength = 470; // 400 m apart: 70 m off, 65 m allowed
    race0(data).courses[0]!.length = 1070;
    const issues = lintCourseData(data);
    expect(only(issues, 'leg_length_mismatch')).toEqual([
      expect.objectContaining({ path: 'races[0].courses[0].controls[2]', severity: 'warning' }),
    ]);
    expect(issues[0]!.message).toContain(
      "the leg 31 → 32 is given as 470 m, but the controls' positions are 400 m apart",
    );
    expect(lintCourseData(data, { legToleranceM: 40 })).toEqual([]);
    race0(data).courses[0]!.controls[2]!.legLength = 460; // 60 m off: within
    expect(lintCourseData(data)).toEqual([]);
  });

  it('course_length_mismatch: Length against the legs (given or measured), looser than a leg', () => {
    const data = clean();
    const course = race0(data).courses[0]!;
    course.length = 1200; // legs add up to 1000: 200 m off, 50 m + 15 % = 200 m allowed
    expect(lintCourseData(data)).toEqual([]);
    course.length = 1300;
    const issues = lintCourseData(data);
    expect(issues).toEqual([
      expect.objectContaining({ code: 'course_length_mismatch', path: 'races[0].courses[0].length' }),
    ]);
    expect(issues[0]!.message).toContain('given as 1300 m long, but its legs add up to 1000 m');
    // Without leg lengths the positions are measured instead.
    for (const cc of course.controls) delete cc.legLength;
    expect(codes(lintCourseData(data))).toEqual(['course_length_mismatch']);
  });

  it('duplicate_control_id, duplicate_course_name, duplicate_class_assignment', () => {
    const data = clean();
    const race = race0(data);
    race.controls.push(control('31', 'Control', 310, 0));
    race.courses.push({ ...race.courses[0]!, controls: [...race.courses[0]!.controls] });
    race.classAssignments.push({ className: 'H21', courseName: 'A' });
    const issues = lintCourseData(data);
    expect(issues.map((i) => [i.code, i.path, i.severity])).toEqual([
      ['duplicate_control_id', 'races[0].controls[4]', 'error'],
      ['duplicate_course_name', 'races[0].courses[1]', 'error'],
      ['duplicate_class_assignment', 'races[0].classAssignments[1]', 'warning'],
    ]);
    expect(issues[0]!.message).toContain('also races[0].controls[1]');
  });

  it('time_without_offset: event times as warnings, createTime as info; dates alone are fine', () => {
    const data = clean();
    data.event.start = '2025-05-03T10:00:00';
    data.event.end = '2025-05-03';
    data.createTime = '2025-05-01T10:00:00';
    const issues = lintCourseData(data);
    expect(issues.map((i) => [i.code, i.path, i.severity])).toEqual([
      ['time_without_offset', 'event.start', 'warning'],
      ['time_without_offset', 'createTime', 'info'],
    ]);
    expect(issues[0]!.message).toContain('such as 2025-05-03T10:00:00+01:00');
  });

  it('no_positions: map positions only, 0°/0° only, some controls without position, no controls at all', () => {
    const none = clean();
    race0(none).controls.forEach((c) => delete c.position);
    expect(lintCourseData(none)).toEqual([
      expect.objectContaining({ code: 'no_positions', path: 'races[0].controls', severity: 'warning' }),
    ]);

    const zero = clean();
    race0(zero).controls.forEach((c) => {
      c.position = { lat: 0, lng: 0 };
    });
    const [z] = lintCourseData(zero);
    expect(z).toMatchObject({ code: 'no_positions', path: 'races[0].controls' });
    expect(z!.message).toContain('no control has a geographic position (only 0°, 0°)');

    const some = clean();
    delete race0(some).controls[1]!.position;
    const [one] = lintCourseData(some);
    expect(one).toMatchObject({ code: 'no_positions', path: 'races[0].controls[1]' });
    expect(one!.message).toContain('1 control has no geographic position (31)');

    const empty = clean();
    race0(empty).controls = [];
    const issues = lintCourseData(empty);
    // Without definitions every code would be "undefined": one finding says what is missing instead.
    expect(codes(issues)).toEqual(['no_positions']);
    expect(issues[0]!.message).toContain('defines no controls');
  });

  it('map_position_unit: pixels are a note', () => {
    const data = clean();
    race0(data).controls[0]!.mapPosition = { x: 10, y: 10, unit: 'px' };
    expect(lintCourseData(data)).toEqual([
      expect.objectContaining({ code: 'map_position_unit', path: 'races[0].controls[0]', severity: 'info' }),
    ]);
  });

  it('does not modify the data it lints', () => {
    const data = clean();
    race0(data).controls.forEach((c) => {
      c.position = { lat: 212_058, lng: 516_218 };
    });
    const before = structuredClone(data);
    lintCourseData(data);
    expect(data).toEqual(before);
  });
});
