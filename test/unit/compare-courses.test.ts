/** compareCourses: what differs between the organiser's race and the service's, as findings and notes. */
import { describe, expect, it } from 'vitest';
import { classKey } from '../../src/match/class-names.js';
import { destination } from '../../src/geo/distance.js';
import { getProjection } from '../../src/geo/projection.js';
import { compareCourses, type CourseFinding } from '../../src/iof/compare-courses/compare.js';
import { foldName } from '../../src/iof/compare-courses/courses.js';
import type { Control, RaceCourseData } from '../../src/iof/model.js';

const at = (lat: number, lng: number) => ({ lat, lng });

/** A small race on Cannock Chase (degrees): two courses, three classes. */
function race(): RaceCourseData {
  const controls: Control[] = [
    { id: 'S1', type: 'Start', position: at(52.7481, -1.9873) },
    { id: '31', type: 'Control', position: at(52.749717, -1.9827) },
    { id: '32', type: 'Control', position: at(52.751873, -1.977802) },
    { id: '33', type: 'Control', position: at(52.750795, -1.972757) },
    { id: '34', type: 'Control', position: at(52.747561, -1.969343) },
    { id: '99', type: 'Control', position: at(52.745, -1.975) }, // spare: no course visits it
    { id: 'F1', type: 'Finish', position: at(52.748459, -1.98641) },
  ];
  const seq = (ids: string[]) =>
    ids.map((controlId) => ({
      controlId,
      type: controlId.startsWith('S')
        ? ('Start' as const)
        : controlId.startsWith('F')
          ? ('Finish' as const)
          : ('Control' as const),
    }));
  return {
    maps: [],
    controls,
    courses: [
      { name: 'Long', length: 3000, climb: 60, controls: seq(['S1', '31', '32', '33', '34', 'F1']) },
      { name: 'Short', length: 900, climb: 20, controls: seq(['S1', '32', '34', 'F1']) },
    ],
    classAssignments: [
      { className: 'M21E', courseName: 'Long' },
      { className: 'W21E', courseName: 'Long' },
      { className: 'M12', courseName: 'Short' },
    ],
  };
}

function control(r: RaceCourseData, id: string): Control {
  const c = r.controls.find((x) => x.id === id);
  if (!c) throw new Error(`no control ${id}`);
  return c;
}

function kinds(findings: readonly CourseFinding[]): string[] {
  return findings.map((f) => f.kind);
}

describe('compareCourses', () => {
  it('finds nothing between two identical races and says they are the same', () => {
    const result = compareCourses(race(), race());
    expect(result.same).toBe(true);
    expect(result.findings).toEqual([]);
    expect(result.notes).toEqual([]);
    expect(result.positionsCompared).toBe(true);
    expect(result.comparedIn).toBe('WGS 84');
  });

  it('takes padded control codes (031) and plain ones (31) as the same control', () => {
    const padded = race();
    for (const c of padded.controls) if (/^\d+$/.test(c.id)) c.id = `0${c.id}`;
    for (const course of padded.courses)
      for (const cc of course.controls) if (/^\d+$/.test(cc.controlId)) cc.controlId = `0${cc.controlId}`;
    expect(compareCourses(padded, race()).findings).toEqual([]);
    // A real change still shows through the padding.
    padded.courses[0]!.controls[2]!.controlId = '034';
    expect(kinds(compareCourses(padded, race()).findings)).toContain('sequence_changed');
  });

  it('reports a control moved 30 m with a tolerance of 10 m, with the distance, the tolerance and both positions', () => {
    const service = race();
    const moved = control(service, '33');
    moved.position = destination(control(race(), '33').position!, 90, 30);
    const result = compareCourses(race(), service, { toleranceM: 10 });
    expect(result.same).toBe(false);
    expect(kinds(result.findings)).toEqual(['control_moved']);
    const f = result.findings[0]!;
    expect(f.control).toBe('33');
    expect(f.distanceM).toBeCloseTo(30, 0);
    expect(f.toleranceM).toBe(10);
    expect(f.organiser).toEqual(control(race(), '33').position);
    expect(f.service).toEqual(moved.position);
    expect(f.message).toBe("Control 33 is 30 m from where the organiser's file puts it (tolerance 10 m).");
  });

  it('lets a 5 m move pass under a 10 m tolerance, and reports it under a 3 m one', () => {
    const service = race();
    control(service, '31').position = destination(control(race(), '31').position!, 200, 5);
    expect(compareCourses(race(), service, { toleranceM: 10 }).findings).toEqual([]);
    expect(kinds(compareCourses(race(), service, { toleranceM: 3 }).findings)).toEqual(['control_moved']);
  });

  it('reports a course missing on the service and one missing in the organiser file, matching names without case or spaces', () => {
    const service = race();
    service.courses[0]!.name = ' long '; // the same course
    service.courses[1]!.name = 'Short 2';
    service.classAssignments = [];
    const result = compareCourses(race(), service, { classKey: foldName });
    const courseFindings = result.findings.filter((f) => f.kind.startsWith('course_'));
    expect(courseFindings).toEqual([
      {
        kind: 'course_missing_on_service',
        course: 'Short',
        message: "Course Short is in the organiser's file but not on the service.",
      },
      {
        kind: 'course_missing_in_organiser',
        course: 'Short 2',
        message: "Course Short 2 is on the service but not in the organiser's file.",
      },
    ]);
  });

  it('reports a changed control sequence with the first place that differs and both sequences', () => {
    const service = race();
    const long = service.courses[0]!;
    [long.controls[2], long.controls[3]] = [long.controls[3]!, long.controls[2]!];
    const result = compareCourses(race(), service);
    expect(kinds(result.findings)).toEqual(['sequence_changed']);
    const f = result.findings[0]!;
    expect(f).toMatchObject({
      course: 'Long',
      position: 3,
      organiser: ['S1', '31', '32', '33', '34', 'F1'],
      service: ['S1', '31', '33', '32', '34', 'F1'],
    });
    expect(f.message).toContain('from the 3rd on');
    expect(f.message).toContain('Organiser: S1-31-32-33-34-F1; service: S1-31-33-32-34-F1');
  });

  it('reports a course that ends earlier on one side', () => {
    const service = race();
    service.courses[1]!.controls.splice(2, 1); // Short loses 34
    const f = compareCourses(race(), service).findings.find((x) => x.kind === 'sequence_changed')!;
    expect(f.position).toBe(3);
    expect(f.message).toContain('the service has F1');
  });

  it('reports lengths beyond max(10 m, 1 %) and climbs beyond 5 m, and nothing within them', () => {
    const within = race();
    within.courses[0]!.length = 3025; // 25 m on 3000 m: under 1 % (30 m)
    within.courses[1]!.length = 908; // 8 m on 900 m: under the 10 m floor
    within.courses[0]!.climb = 64;
    expect(compareCourses(race(), within).findings).toEqual([]);

    const beyond = race();
    beyond.courses[0]!.length = 3100;
    beyond.courses[1]!.length = 885; // 15 m: 1 % of 900 m is 9 m, so the 10 m floor applies, and 15 m is beyond it
    beyond.courses[0]!.climb = 70;
    const result = compareCourses(race(), beyond);
    expect(kinds(result.findings)).toEqual(['length_changed', 'length_changed', 'climb_changed']);
    expect(result.findings[0]).toMatchObject({ course: 'Long', organiser: 3000, service: 3100, toleranceM: 30 });
    expect(result.findings[0]!.message).toBe(
      "Course Long has a length of 3000 m in the organiser's file and 3100 m on the service (100 m more; tolerance 30 m).",
    );
    expect(result.findings[1]).toMatchObject({ course: 'Short', organiser: 900, service: 885, toleranceM: 10 });
    expect(result.findings[2]).toMatchObject({ course: 'Long', organiser: 60, service: 70, toleranceM: 5 });
  });

  it('takes length and climb tolerances from the options', () => {
    const service = race();
    service.courses[0]!.length = 3100;
    service.courses[0]!.climb = 70;
    expect(compareCourses(race(), service, { lengthToleranceRatio: 0.05, climbToleranceM: 10 }).findings).toEqual([]);
  });

  it('reports a length the service lost, but not one only the service has', () => {
    const lost = race();
    delete lost.courses[0]!.length;
    expect(compareCourses(race(), lost).findings).toMatchObject([
      { kind: 'length_changed', course: 'Long', organiser: 3000 },
    ]);
    const organiser = race();
    delete organiser.courses[0]!.length;
    expect(compareCourses(organiser, race()).findings).toEqual([]);
  });

  it('reports a class on another course, and classes with a course on one side only', () => {
    const service = race();
    service.classAssignments = [
      { className: 'M21E', courseName: 'Short' },
      { className: 'M12', courseName: 'Short' },
      { className: 'D10', courseName: 'Short' },
    ];
    const result = compareCourses(race(), service);
    expect(result.findings).toEqual([
      {
        kind: 'class_missing_on_service',
        class: 'W21E',
        message: "Class W21E runs Long in the organiser's file but has no course on the service.",
        organiser: ['Long'],
      },
      {
        kind: 'class_missing_in_organiser',
        class: 'D10',
        message: "Class D10 runs Short on the service but has no course in the organiser's file.",
        service: ['Short'],
      },
      {
        kind: 'class_course_changed',
        class: 'M21E',
        message: "Class M21E runs Long in the organiser's file but Short on the service.",
        organiser: ['Long'],
        service: ['Short'],
      },
    ]);
  });

  it('matches classes by the classKey given, by default ignoring case and spaces', () => {
    const service = race();
    service.classAssignments = [
      { className: 'h21e', courseName: 'Long' },
      { className: 'W 21 E', courseName: 'Long' },
      { className: 'M12', courseName: 'Short' },
    ];
    // By default H21E is not M21E.
    expect(kinds(compareCourses(race(), service).findings)).toEqual([
      'class_missing_on_service',
      'class_missing_in_organiser',
    ]);
    const convention = (name: string) => foldName(name).replace(/^h/, 'm').replace(/^d/, 'w');
    expect(compareCourses(race(), service, { classKey: convention }).findings).toEqual([]);
    // The naming-convention key check-courses uses reads them as one class too.
    expect(compareCourses(race(), service, { classKey }).findings).toEqual([]);
  });

  it('compares in the grid the service answered in: the organiser degrees are projected, distances are plane metres', () => {
    const bng = getProjection(27700);
    const service = race();
    for (const c of service.controls) {
      const { easting, northing } = bng.forward(c.position!);
      c.position = { lat: northing, lng: easting };
    }
    const same = compareCourses(race(), service, { serviceProjection: 27700 });
    expect(same.same).toBe(true);
    expect(same.positionsCompared).toBe(true);
    expect(same.comparedIn).toMatch(/^EPSG:27700 /);

    control(service, '32').position!.lng += 30; // 30 m east in the grid
    const moved = compareCourses(race(), service, { serviceProjection: 27700 });
    expect(kinds(moved.findings)).toEqual(['control_moved']);
    expect(moved.findings[0]!.distanceM).toBeCloseTo(30, 1);
    // The positions are reported as each side wrote them.
    expect(moved.findings[0]!.service).toEqual(control(service, '32').position);
  });

  it('reads organiser grid metres with organiserProjection, and says so (comparing nothing) without it', () => {
    const bng = getProjection(27700);
    const organiser = race();
    for (const c of organiser.controls) {
      const { easting, northing } = bng.forward(c.position!);
      c.position = { lat: northing, lng: easting };
    }
    const withGrid = compareCourses(organiser, race(), { organiserProjection: 27700 });
    expect(withGrid.same).toBe(true);
    expect(withGrid.positionsCompared).toBe(true);
    // Both sides in the same grid: no detour through degrees.
    const service = structuredClone(organiser);
    expect(compareCourses(organiser, service, { organiserProjection: 27700, serviceProjection: 27700 }).same).toBe(
      true,
    );

    const moved = race();
    moved.controls[1]!.position = destination(moved.controls[1]!.position!, 0, 40);
    const guessed = compareCourses(organiser, moved);
    expect(guessed.positionsCompared).toBe(false);
    expect(guessed.findings).toEqual([]);
    expect(guessed.notes).toHaveLength(1);
    expect(guessed.notes[0]!.code).toBe('positions_not_degrees');
    expect(guessed.notes[0]!.hint).toMatchObject({ code: 'organiser_projection', values: [27700] });
  });

  it('skips the moved-control check with a note when the organiser file has no positions, and compares the rest', () => {
    const organiser = race();
    for (const c of organiser.controls) {
      delete c.position;
      c.mapPosition = { x: 10, y: 20, unit: 'mm' };
    }
    const service = race();
    control(service, '31').position = destination(control(service, '31').position!, 0, 500);
    service.courses[0]!.climb = 90;
    const result = compareCourses(organiser, service);
    expect(result.positionsCompared).toBe(false);
    expect(result.notes.map((n) => n.code)).toEqual(['no_positions']);
    expect(kinds(result.findings)).toEqual(['climb_changed']);
  });

  it('names controls whose position one side lacks in a note, and compares the others', () => {
    const organiser = race();
    delete control(organiser, '31').position;
    const service = race();
    control(service, '32').position = destination(control(service, '32').position!, 0, 50);
    const result = compareCourses(organiser, service);
    expect(kinds(result.findings)).toEqual(['control_moved']);
    expect(result.notes).toEqual([
      {
        code: 'positions_not_compared',
        message: "The positions of 1 control were not compared: 31 (no position in the organiser's file).",
      },
    ]);
  });

  it('reports controls a course uses that one side lacks, but not a spare control no course visits', () => {
    const service = race();
    service.controls = service.controls.filter((c) => c.id !== '34' && c.id !== '99');
    service.controls.push({ id: '40', type: 'Control', position: at(52.746, -1.97) });
    service.courses[1]!.controls.splice(2, 0, { controlId: '40', type: 'Control' });
    const result = compareCourses(race(), service);
    expect(result.findings.filter((f) => f.kind.startsWith('control_'))).toEqual([
      {
        kind: 'control_missing_on_service',
        control: '34',
        message: "Control 34 is in the organiser's file (on Long and Short) but not on the service.",
      },
      {
        kind: 'control_missing_in_organiser',
        control: '40',
        message: "Control 40 is on the service (on Short) but not in the organiser's file.",
      },
    ]);
  });

  it('takes a start and a finish known by different codes as the same points, with notes, and still measures them', () => {
    const service = race();
    const rename = (from: string, to: string) => {
      control(service, from).id = to;
      for (const course of service.courses)
        for (const cc of course.controls) if (cc.controlId === from) cc.controlId = to;
    };
    rename('S1', 'S');
    rename('F1', 'F');
    expect(compareCourses(race(), service).findings).toEqual([]);
    expect(compareCourses(race(), service).notes.map((n) => n.code)).toEqual([
      'start_code_differs',
      'finish_code_differs',
    ]);

    control(service, 'S').position = destination(control(service, 'S').position!, 90, 25);
    const moved = compareCourses(race(), service).findings;
    expect(moved).toMatchObject([{ kind: 'control_moved', control: 'S1' }]);
    expect(moved[0]!.distanceM).toBeCloseTo(25, 0);
  });

  it('says when the service has no courses, and reports every organiser course as missing there', () => {
    const service: RaceCourseData = { maps: [], controls: [], courses: [], classAssignments: [] };
    const result = compareCourses(race(), service);
    expect(result.notes.map((n) => n.code)).toContain('service_has_no_courses');
    expect(kinds(result.findings)).toEqual([
      'course_missing_on_service',
      'course_missing_on_service',
      'class_missing_on_service',
      'class_missing_on_service',
      'class_missing_on_service',
    ]);
  });

  it('says class assignments were not compared when the organiser file has none', () => {
    const organiser = race();
    organiser.classAssignments = [];
    const result = compareCourses(organiser, race());
    expect(result.same).toBe(true);
    expect(result.notes.map((n) => n.code)).toEqual(['classes_not_compared']);
  });

  it('expands a course family assigned to a class into its courses', () => {
    const organiser = race();
    organiser.courses[0]!.courseFamily = 'Relay';
    organiser.courses[1]!.courseFamily = 'Relay';
    organiser.classAssignments = [{ className: 'M21E', courseName: '', courseFamily: 'Relay' }];
    const service = structuredClone(organiser);
    service.classAssignments = [
      { className: 'M21E', courseName: 'Long' },
      { className: 'M21E', courseName: 'Short' },
    ];
    expect(compareCourses(organiser, service).findings).toEqual([]);
  });
});

function visited(r: RaceCourseData): number {
  return new Set(r.courses.flatMap((c) => c.controls.map((cc) => cc.controlId))).size;
}

describe('compareCourses verdict: no finding is not "the same" when positions were not compared', () => {
  it('says same, with every shared control measured, for two identical races', () => {
    const result = compareCourses(race(), race());
    expect(result.verdict).toBe('same');
    // Every control some course visits; the race's spare control is not compared (see compare.ts).
    expect(result.positions).toEqual({ status: 'compared', controls: visited(race()) });
  });

  it('says not_compared (not same) when the organiser file has only map positions, with the note as the reason', () => {
    const organiser = race();
    for (const c of organiser.controls) {
      delete c.position;
      c.mapPosition = { x: 10, y: 20, unit: 'mm' };
    }
    const result = compareCourses(organiser, race());
    expect(result.findings).toEqual([]);
    expect(result.same).toBe(false);
    expect(result.verdict).toBe('not_compared');
    expect(result.positions).toMatchObject({ status: 'not_compared', controls: 0, reason: 'no_positions' });
    expect(result.positions.status !== 'compared' && result.positions.message).toBe(result.notes[0]!.message);
  });

  it('says not_compared for grid metres compared without their grid', () => {
    const organiser = race();
    for (const c of organiser.controls) {
      const { easting, northing } = getProjection(27700).forward(c.position!);
      c.position = { lat: northing, lng: easting };
    }
    const result = compareCourses(organiser, race());
    expect(result.verdict).toBe('not_compared');
    expect(result.positions).toMatchObject({ status: 'not_compared', reason: 'positions_not_degrees' });
    // Given the grid, the same file is the same.
    expect(compareCourses(organiser, race(), { organiserProjection: 27700 }).verdict).toBe('same');
  });

  it('says partly_compared, and not same, when one control lacks a position on one side', () => {
    const organiser = race();
    delete control(organiser, '31').position;
    const result = compareCourses(organiser, race());
    expect(result.findings).toEqual([]);
    expect(result.verdict).toBe('not_compared');
    expect(result.positions).toMatchObject({
      status: 'partly_compared',
      controls: visited(race()) - 1,
      reason: 'positions_not_compared',
    });
    expect(result.positions.status !== 'compared' && result.positions.message).toContain('31');
  });

  it('says different whenever there is a finding, positions compared or not', () => {
    const organiser = race();
    for (const c of organiser.controls) delete c.position;
    const service = race();
    service.courses[0]!.climb = 90;
    const result = compareCourses(organiser, service);
    expect(result.positions.status).toBe('not_compared');
    expect(result.verdict).toBe('different');
  });
});
