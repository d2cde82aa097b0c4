import { describe, expect, it } from 'vitest';
import type { EmsClass } from '../../src/ems/source.js';
import type { ClassMapping, ServiceClass } from '../../src/match/class-mapping.js';
import { matchClasses } from '../../src/match/classes.js';
import { SimilarityIndex, classSimilarity } from '../../src/match/class-similarity.js';
import { classKeyOf, parseClassName } from '../../src/match/class-names.js';
import type { ClassCourseAssignment, Course, RaceCourseData } from '../../src/iof/model.js';

/** Service classes with ids from 101 in the order given. */
function serviceClasses(...names: string[]): ServiceClass[] {
  return names.map((name, i) => ({ id: 101 + i, name, url: `https://www.livelox.com/Viewer?classId=${101 + i}` }));
}

const emsClasses = (...names: string[]): EmsClass[] => names.map((name) => ({ name }));

/** `{ 'H21': 'M21' }`: which service class each mapped EMS class got. */
function pairs(mapping: ClassMapping): Record<string, string> {
  return Object.fromEntries(mapping.matches.map((m) => [m.ems.name, m.service.name]));
}

/** A service course: start, the controls, finish, as course data writes them. */
function course(name: string, codes: string[], length?: number): Course {
  return {
    name,
    ...(length === undefined ? {} : { length }),
    controls: [
      { controlId: 'S1', type: 'Start' },
      ...codes.map((controlId) => ({ controlId, type: 'Control' as const })),
      { controlId: 'F1', type: 'Finish' },
    ],
  };
}

/** Course data with the service classes' courses: `{ 101: 'B' }` assigns course B to service class 101. */
function courseData(courses: Course[], assignments: Record<number, string | string[]>): RaceCourseData {
  const classAssignments: ClassCourseAssignment[] = [];
  for (const [classId, names] of Object.entries(assignments)) {
    for (const courseName of Array.isArray(names) ? names : [names]) classAssignments.push({ classId, courseName });
  }
  return { maps: [], controls: [], courses, classAssignments };
}

const B = ['31', '45', '52', '38', '61', '47', '100'];
const C = ['33', '41', '58', '100'];

describe('matchClasses: exact names', () => {
  it('maps names equal after trimming and case, with confidence 1', () => {
    const service = serviceClasses('H21', 'd21 ');
    const mapping = matchClasses(emsClasses(' H21', 'D21'), service);
    expect(pairs(mapping)).toEqual({ ' H21': 'H21', D21: 'd21 ' });
    expect(mapping.matches.map((m) => [m.method, m.confidence])).toEqual([
      ['exact', 1],
      ['exact', 1],
    ]);
    expect(mapping.matches[0]!.reason).toBe("named ' H21' here and 'H21' on the service");
  });

  it("maps the event system's short name against the service's class name", () => {
    const mapping = matchClasses([{ name: 'Tiomila', shortName: 'H10M' }], serviceClasses('H10M', 'D5M'));
    expect(pairs(mapping)).toEqual({ Tiomila: 'H10M' });
    expect(mapping.matches[0]).toMatchObject({
      method: 'exact',
      reason: "its short name 'H10M' is the service's class name",
    });
    expect(mapping.unmatchedService.map((s) => s.name)).toEqual(['D5M']);
  });

  it('prefers an exact name over a normalised one', () => {
    const mapping = matchClasses(emsClasses('H21 Elit'), serviceClasses('H21E', 'H21 Elit'));
    expect(mapping.matches[0]).toMatchObject({ method: 'exact', service: { name: 'H21 Elit' } });
    expect(mapping.unmatchedService.map((s) => s.name)).toEqual(['H21E']);
  });
});

describe('matchClasses: normalised names', () => {
  it('maps a Swedish event system to a British-style service', () => {
    const mapping = matchClasses(
      emsClasses('H21', 'D21', 'Öppen 1', 'H21E', 'D21K'),
      serviceClasses('M21', 'W21', 'Open 1', 'M21E', 'W21S'),
    );
    expect(pairs(mapping)).toEqual({ H21: 'M21', D21: 'W21', 'Öppen 1': 'Open 1', H21E: 'M21E', D21K: 'W21S' });
    expect(mapping.matches.every((m) => m.method === 'normalised' && m.confidence === 0.95)).toBe(true);
    expect(mapping.matches[3]!.reason).toBe("named 'H21E' here and 'M21E' on the service: both read as men 21 elite");
    expect(mapping.unmatchedEms).toEqual([]);
    expect(mapping.unmatchedService).toEqual([]);
    expect(mapping.issues).toEqual([]);
  });

  it('maps Swiss long names to the Swiss codes', () => {
    const mapping = matchClasses(
      emsClasses('Herren Elite', 'Damen Elite', 'Damen A lang', 'Herren A kurz', 'Offen kurz'),
      serviceClasses('HE', 'DE', 'HAL', 'HAK', 'DAL', 'Offen kurz'),
    );
    expect(pairs(mapping)).toEqual({
      'Herren Elite': 'HE',
      'Damen Elite': 'DE',
      'Damen A lang': 'DAL',
      'Herren A kurz': 'HAK',
      'Offen kurz': 'Offen kurz',
    });
    expect(mapping.unmatchedService.map((s) => s.name)).toEqual(['HAL']);
  });

  it('maps the Finnish N21 (naiset) to D21 and to W21', () => {
    expect(pairs(matchClasses(emsClasses('N21', 'M21'), serviceClasses('H21', 'D21')))).toEqual({
      N21: 'D21',
      M21: 'H21',
    });
    expect(pairs(matchClasses(emsClasses('N21'), serviceClasses('M21', 'W21')))).toEqual({ N21: 'W21' });
  });

  it("keeps Norway's N-åpen an open class: it finds N-åpen, never a women's class", () => {
    const mapping = matchClasses(emsClasses('N åpen', 'C-Åpen'), serviceClasses('N21', 'D21', 'N-åpen', 'C-åpen'));
    expect(pairs(mapping)).toEqual({ 'N åpen': 'N-åpen', 'C-Åpen': 'C-åpen' });

    const without = matchClasses(emsClasses('N-åpen'), serviceClasses('N21', 'D21', 'D10'));
    expect(without.matches).toEqual([]);
    expect(without.unmatchedEms[0]!.candidates).toEqual([]);
  });

  it('maps relay legs leg by leg, whatever the leg word', () => {
    const mapping = matchClasses(
      emsClasses('H21 Sträcka 1', 'H21 Sträcka 2', 'D21 Sträcka 1'),
      serviceClasses('H21 Leg 2', 'H21 Leg 1', 'D21 Leg 1'),
    );
    expect(pairs(mapping)).toEqual({
      'H21 Sträcka 1': 'H21 Leg 1',
      'H21 Sträcka 2': 'H21 Leg 2',
      'D21 Sträcka 1': 'D21 Leg 1',
    });
  });

  it('maps every leg of an event system that keeps one class per leg to the relay class the service keeps whole', () => {
    const mapping = matchClasses(
      emsClasses('H21 Sträcka 1', 'H21 Sträcka 2', 'H21 Sträcka 3', 'D21 Leg 1', 'H21E'),
      serviceClasses('Herrar 21', 'D21', 'H21E'),
    );
    expect(mapping.matches.map((m) => [m.ems.name, m.service.name])).toEqual([
      ['H21 Sträcka 1', 'Herrar 21'],
      ['H21 Sträcka 2', 'Herrar 21'],
      ['H21 Sträcka 3', 'Herrar 21'],
      ['D21 Leg 1', 'D21'],
      ['H21E', 'H21E'],
    ]);
    expect(mapping.matches[1]!.reason).toBe(
      "leg 2 of the relay class the service keeps as one, 'Herrar 21' (with 'H21 Sträcka 1')",
    );
    expect(mapping.unmatchedService).toEqual([]);
    // A leg still prefers a service class of its own leg when the service has one.
    const perLeg = matchClasses(emsClasses('H21 Sträcka 1', 'H21 Sträcka 2'), serviceClasses('H21', 'H21 Leg 2'));
    expect(pairs(perLeg)).toEqual({ 'H21 Sträcka 1': 'H21', 'H21 Sträcka 2': 'H21 Leg 2' });
  });

  it('maps a relay class named with a relay word to the plain class', () => {
    const mapping = matchClasses(emsClasses('H21 Stafett', 'Öppen stafett'), serviceClasses('H21', 'Åpen stafett'));
    expect(pairs(mapping)).toEqual({ 'H21 Stafett': 'H21', 'Öppen stafett': 'Åpen stafett' });
  });

  it('does not map two event system classes with one key, and says so', () => {
    const mapping = matchClasses(emsClasses('H21E', 'Herrar 21 Elit', 'D21'), serviceClasses('M21E', 'W21'));
    expect(pairs(mapping)).toEqual({ D21: 'W21' });
    expect(mapping.unmatchedEms.map((u) => [u.ems.name, u.candidates.map((c) => c.name)])).toEqual([
      ['H21E', ['M21E']],
      ['Herrar 21 Elit', ['M21E']],
    ]);
    expect(mapping.unmatchedEms[0]!.reason).toBe(
      "'H21E', 'Herrar 21 Elit' here all read as men 21 elite, like the service's 'M21E'",
    );
    expect(mapping.issues).toEqual([
      expect.objectContaining({ code: 'ambiguous_class_key', severity: 'warning', path: 'emsClasses[0]' }),
    ]);
    expect(mapping.unmatchedService.map((s) => s.name)).toEqual(['M21E']);
  });

  it('does not map by a key two service classes share', () => {
    const mapping = matchClasses(emsClasses('Herrar Elit'), serviceClasses('H21E', 'M21 Elite'));
    expect(mapping.matches).toEqual([]);
    expect(mapping.unmatchedEms[0]).toMatchObject({
      reason: "several service classes read as men 21 elite: 'H21E', 'M21 Elite'",
      candidates: [{ name: 'H21E' }, { name: 'M21 Elite' }],
    });
    expect(mapping.issues.map((i) => i.code)).toEqual(['ambiguous_class_key']);
  });

  it('lets an exact name settle a shared key: the other class then has no partner', () => {
    const mapping = matchClasses(emsClasses('H21E', 'H21 Elit'), serviceClasses('H21E'));
    expect(pairs(mapping)).toEqual({ H21E: 'H21E' });
    expect(mapping.unmatchedEms).toEqual([
      {
        ems: { name: 'H21 Elit' },
        reason: "service class 'H21E' already matched to EMS class 'H21E'",
        candidates: [expect.objectContaining({ name: 'H21E' })],
      },
    ]);
    expect(mapping.issues).toEqual([expect.objectContaining({ code: 'class_already_matched', path: 'emsClasses[1]' })]);
  });

  it('never gives one service class two event system classes with the same name', () => {
    const mapping = matchClasses(emsClasses('H21', 'H21'), serviceClasses('H21'));
    expect(mapping.matches).toHaveLength(1);
    expect(mapping.unmatchedEms[0]!.reason).toBe("service class 'H21' already matched to EMS class 'H21'");
    expect(mapping.issues.map((i) => i.code)).toEqual(['duplicate_ems_class_name', 'class_already_matched']);
  });

  it('reports a service with two classes of one name, and maps neither', () => {
    const mapping = matchClasses(emsClasses('H21'), serviceClasses('H21', 'H21'));
    expect(mapping.matches).toEqual([]);
    expect(mapping.unmatchedEms[0]).toMatchObject({ reason: "the service has 2 classes named 'H21'" });
    expect(mapping.unmatchedEms[0]!.candidates.map((c) => c.id)).toEqual([101, 102]);
    expect(mapping.issues.map((i) => i.code)).toContain('duplicate_service_class_name');
  });
});

describe('matchClasses: courses', () => {
  it('finds a class by identical controls when the names have nothing in common', () => {
    const mapping = matchClasses(
      [{ name: 'Yellow', course: { name: 'Yellow', controls: C } }, { name: 'Orange' }],
      serviceClasses('Course 5', 'Course 7'),
      {
        serviceCourses: courseData([course('Course 5', C), course('Course 7', B)], {
          101: 'Course 5',
          102: 'Course 7',
        }),
      },
    );
    expect(pairs(mapping)).toEqual({ Yellow: 'Course 5' });
    expect(mapping.matches[0]).toMatchObject({ method: 'course', confidence: 0.9 });
    expect(mapping.matches[0]!.reason).toBe(
      "course 'Yellow' here and the service's course 'Course 5' of class 'Course 5' have the same controls " +
        '(33-41-58-100, 4 controls)',
    );
    expect(mapping.unmatchedEms.map((u) => u.ems.name)).toEqual(['Orange']);
    expect(mapping.unmatchedService.map((s) => s.name)).toEqual(['Course 7']);
  });

  it('uses the courses only for classes the names left', () => {
    const mapping = matchClasses(
      [
        { name: 'Course 5', course: { controls: C } },
        { name: 'Yellow', course: { controls: C } },
      ],
      serviceClasses('Course 5'),
      { serviceCourses: courseData([course('Course 5', C)], { 101: 'Course 5' }) },
    );
    expect(mapping.matches.map((m) => [m.ems.name, m.method])).toEqual([['Course 5', 'exact']]);
    expect(mapping.unmatchedEms.map((u) => u.ems.name)).toEqual(['Yellow']);
  });

  it('chooses among the service classes sharing a course by the name', () => {
    const mapping = matchClasses(
      [{ name: 'Herrar', course: { name: 'B', controls: B } }],
      serviceClasses('H21', 'D35', 'H35'),
      { serviceCourses: courseData([course('B', B), course('C', C)], { 101: 'B', 102: 'B', 103: 'C' }) },
    );
    expect(pairs(mapping)).toEqual({ Herrar: 'H21' });
    expect(mapping.matches[0]).toMatchObject({ method: 'course', confidence: 0.85 });
    expect(mapping.matches[0]!.reason).toContain(
      "of the service classes on that course ('H21', 'D35') the name fits 'H21' best",
    );
  });

  it('leaves a class unmatched, with the candidates, when the names cannot choose among classes on its course', () => {
    const mapping = matchClasses(
      [{ name: 'Yellow', course: { controls: C } }],
      serviceClasses('Course 5 men', 'Course 5 women', 'Course 7'),
      { serviceCourses: courseData([course('5', C), course('7', B)], { 101: '5', 102: '5', 103: '7' }) },
    );
    expect(mapping.matches).toEqual([]);
    expect(mapping.unmatchedEms[0]!.candidates.map((c) => c.name)).toEqual(['Course 5 men', 'Course 5 women']);
    expect(mapping.unmatchedEms[0]!.reason).toBe(
      "service classes 'Course 5 men', 'Course 5 women' share a course with the same controls (33-41-58-100, 4 controls); " +
        'the names do not tell which one this is',
    );
    expect(mapping.unmatchedService).toHaveLength(3);
  });

  it('chooses among event system classes sharing a course by the name', () => {
    const mapping = matchClasses(
      [
        { name: 'Herrar', course: { controls: B } },
        { name: 'Damer', course: { controls: B } },
      ],
      serviceClasses('D35'),
      { serviceCourses: courseData([course('B', B)], { 101: 'B' }) },
    );
    expect(pairs(mapping)).toEqual({ Damer: 'D35' });
    expect(mapping.unmatchedEms[0]).toMatchObject({ ems: { name: 'Herrar' }, candidates: [{ name: 'D35' }] });
    expect(mapping.unmatchedEms[0]!.reason).toBe(
      "the service's 'D35' has the same controls (31-45-52-…-47-100, 7 controls), but the names disagree on gender",
    );
  });

  it('does not take course evidence against names that disagree', () => {
    const mapping = matchClasses([{ name: 'D21', course: { controls: B } }], serviceClasses('H35'), {
      serviceCourses: courseData([course('B', B)], { 101: 'B' }),
    });
    expect(mapping.matches).toEqual([]);
    expect(mapping.unmatchedEms[0]!.reason).toContain('the names disagree on gender and age');
  });

  it('maps by course name and a length within 2 %, and not beyond', () => {
    const services = serviceClasses('Course 3');
    const data = courseData([course('3', [], 4250)], { 101: '3' });
    const near = matchClasses([{ name: 'Blue', course: { name: 'Bana 3', length: 4200 } }], services, {
      serviceCourses: data,
    });
    expect(near.matches[0]).toMatchObject({ method: 'course', confidence: 0.8 });
    expect(near.matches[0]!.reason).toContain('the same course name and length (4.2 km here, 4.25 km on the service)');

    const far = matchClasses([{ name: 'Blue', course: { name: '3', length: 4000 } }], services, {
      serviceCourses: data,
    });
    expect(far.matches).toEqual([]);
  });

  it('lets controls that differ outweigh a shared course name', () => {
    const mapping = matchClasses([{ name: 'Blue', course: { name: '3', controls: C } }], serviceClasses('Course 3'), {
      serviceCourses: courseData([course('3', B)], { 101: '3' }),
    });
    expect(mapping.matches).toEqual([]);
  });

  it('compares only controls: not start and finish listed as controls, not padded codes', () => {
    const sloppy: Course = {
      name: '5',
      controls: ['S1', '033', '041', '058', '100', 'F1'].map((controlId) => ({ controlId, type: 'Control' as const })),
    };
    const data: RaceCourseData = {
      ...courseData([sloppy], { 101: '5' }),
      controls: [
        { id: 'S1', type: 'Start' },
        { id: 'F1', type: 'Finish' },
      ],
    };
    const mapping = matchClasses([{ name: 'Yellow', course: { controls: C } }], serviceClasses('Course 5'), {
      serviceCourses: data,
    });
    expect(pairs(mapping)).toEqual({ Yellow: 'Course 5' });
  });

  it('reads an assignment without a class id by its class name', () => {
    const data: RaceCourseData = {
      maps: [],
      controls: [],
      courses: [course('5', C)],
      classAssignments: [{ className: 'Course 5', courseName: '5' }],
    };
    const mapping = matchClasses([{ name: 'Yellow', course: { controls: C } }], serviceClasses('Course 5'), {
      serviceCourses: data,
    });
    expect(pairs(mapping)).toEqual({ Yellow: 'Course 5' });
  });

  it('finds a relay class through any of its leg courses', () => {
    const mapping = matchClasses([{ name: 'Stafett 1', course: { controls: C } }], serviceClasses('H21', 'D21'), {
      serviceCourses: courseData([course('H21-1', B), course('H21-2', C), course('D21-1', ['70', '71'])], {
        101: ['H21-1', 'H21-2'],
        102: 'D21-1',
      }),
    });
    expect(pairs(mapping)).toEqual({ 'Stafett 1': 'H21' });
  });

  it('says when the course data assigns courses to none of the classes', () => {
    const mapping = matchClasses([{ name: 'Yellow', course: { controls: C } }], serviceClasses('Course 5'), {
      serviceCourses: courseData([course('5', C)], { 999: '5' }),
    });
    expect(mapping.matches).toEqual([]);
    expect(mapping.issues).toEqual([expect.objectContaining({ code: 'service_courses_unassigned', severity: 'info' })]);
  });
});

describe('matchClasses: similar names', () => {
  it('maps a misspelt name when nothing else comes close', () => {
    const mapping = matchClasses(emsClasses('Inskoling', 'H21'), serviceClasses('Inskolning', 'H21', 'Öppen 1'));
    expect(mapping.matches[0]).toMatchObject({ method: 'similar', service: { name: 'Inskolning' }, confidence: 0.85 });
    expect(mapping.matches[0]!.reason).toBe("named 'Inskoling' here and 'Inskolning' on the service, 1 alike");
  });

  it('does not map when two service classes are about equally alike', () => {
    const mapping = matchClasses(emsClasses('Lightgreen'), serviceClasses('Light Green', 'Light-Green'));
    expect(mapping.matches).toEqual([]);
    expect(mapping.unmatchedEms[0]!.reason).toMatch(/are about equally alike$/);
    expect(mapping.unmatchedEms[0]!.candidates.map((c) => c.name)).toEqual(['Light Green', 'Light-Green']);
  });

  it('does not map when the service class is as alike another class here', () => {
    const mapping = matchClasses(emsClasses('Inskoling', 'Inskolnin'), serviceClasses('Inskolning'));
    expect(mapping.matches).toEqual([]);
    expect(mapping.unmatchedEms[0]!.reason).toBe("the service's 'Inskolning' is at least as alike 'Inskolnin' here");
  });

  it('does not map H21 to H21E or H21 Lång by similarity alone', () => {
    const mapping = matchClasses(emsClasses('H21', 'D21'), serviceClasses('H21E', 'D21 Lång'));
    expect(mapping.matches).toEqual([]);
    expect(mapping.unmatchedEms.map((u) => u.candidates.map((c) => c.name))).toEqual([['H21E'], ['D21 Lång']]);
  });

  it('honours minSimilarity', () => {
    const services = serviceClasses('Light Green');
    expect(matchClasses(emsClasses('Lightgreen'), services).matches).toHaveLength(1);
    expect(matchClasses(emsClasses('Lightgreen'), services, { minSimilarity: 0.9 }).matches).toEqual([]);
  });
});

describe('matchClasses: what is left', () => {
  it('reports unmatched classes on both sides, in their own order', () => {
    const mapping = matchClasses(
      emsClasses('Inskolning', 'H21', 'Direkt', 'D21'),
      serviceClasses('U1', 'M21', 'Familien', 'W21'),
    );
    expect(pairs(mapping)).toEqual({ H21: 'M21', D21: 'W21' });
    expect(mapping.unmatchedEms.map((u) => u.ems.name)).toEqual(['Inskolning', 'Direkt']);
    expect(mapping.unmatchedEms[0]).toMatchObject({
      reason: 'no service class has this name or a similar one',
      candidates: [],
    });
    expect(mapping.unmatchedService.map((s) => s.name)).toEqual(['U1', 'Familien']);
    expect(mapping.unmatchedService[0]).toEqual({
      id: 101,
      name: 'U1',
      url: 'https://www.livelox.com/Viewer?classId=101',
    });
  });

  it('keeps the matches in the event system order, whatever step found them', () => {
    const mapping = matchClasses(
      [{ name: 'Yellow', course: { controls: C } }, { name: 'Inskoling' }, { name: 'H21E' }, { name: 'D21' }],
      serviceClasses('D21', 'M21E', 'Inskolning', 'Course 5'),
      { serviceCourses: courseData([course('5', C)], { 104: '5' }) },
    );
    expect(mapping.matches.map((m) => [m.ems.name, m.method])).toEqual([
      ['Yellow', 'course'],
      ['Inskoling', 'similar'],
      ['H21E', 'normalised'],
      ['D21', 'exact'],
    ]);
  });

  it('offers near classes as candidates, best first', () => {
    const mapping = matchClasses(emsClasses('H21'), serviceClasses('D21', 'H21 Lång', 'H21E', 'Öppen 1'));
    expect(mapping.unmatchedEms[0]!.candidates.map((c) => c.name)).toEqual(['H21 Lång', 'H21E']);
    expect(mapping.unmatchedEms[0]!.reason).toBe(
      "no service class is clearly it: the nearest, 'H21 Lång', is only 0.7 alike",
    );
  });

  it('says when the service has no classes, or none left', () => {
    expect(matchClasses(emsClasses('H21'), []).unmatchedEms[0]!.reason).toBe(
      'the service has no classes in this event',
    );
    expect(matchClasses(emsClasses('H21', 'Inskolning'), serviceClasses('H21')).unmatchedEms[0]!.reason).toBe(
      'every service class is already matched to another class',
    );
  });

  it('maps nothing from nothing', () => {
    expect(matchClasses([], [])).toEqual({ matches: [], unmatchedEms: [], unmatchedService: [], issues: [] });
    expect(matchClasses([], serviceClasses('H21')).unmatchedService).toHaveLength(1);
  });

  it('never maps a class with an empty name by its key', () => {
    const mapping = matchClasses(emsClasses(''), serviceClasses('-'));
    expect(mapping.matches).toEqual([]);
  });
});

describe('matchClasses: reasons', () => {
  it('names the next nearest class when a similar name is taken', () => {
    const mapping = matchClasses(emsClasses('Lightgreen'), serviceClasses('Green', 'Light Green'));
    expect(mapping.matches[0]!.reason).toMatch(
      /^named 'Lightgreen' here and 'Light Green' on the service, 0\.\d+ alike; the next nearest, 'Green', is 0\.\d+$/,
    );
  });

  it('says the course was compared too when it was', () => {
    const mapping = matchClasses([{ name: 'Yellow', course: { controls: C } }], serviceClasses('Course 7'), {
      serviceCourses: courseData([course('7', B)], { 101: '7' }),
    });
    expect(mapping.unmatchedEms[0]!.reason).toBe('no service class has this name or a similar one, or its course');
  });

  it('trusts exact names most, then normalised names, courses and similar names', () => {
    const mapping = matchClasses(
      [{ name: 'D21' }, { name: 'H21E' }, { name: 'Yellow', course: { controls: C } }, { name: 'Inskoling' }],
      serviceClasses('D21', 'M21E', 'Course 5', 'Inskolning'),
      { serviceCourses: courseData([course('5', C)], { 103: '5' }) },
    );
    const confidences = mapping.matches.map((m) => m.confidence);
    expect(mapping.matches.map((m) => m.method)).toEqual(['exact', 'normalised', 'course', 'similar']);
    expect([...confidences].sort((a, b) => b - a)).toEqual(confidences);
  });
});

describe('matchClasses at the documented maximum sizes', () => {
  /** Names of every kind the parser reads: gender, age, level, length, open, course, leg, relay, plain words. */
  const corpus = (): string[] => {
    const out: string[] = [];
    const words = ['Skog', 'Sprint', 'Inskolning', 'Lightgreen', 'Light Green', 'Green', 'Motion', 'Natt'];
    for (const g of ['H', 'D', '']) {
      for (const age of ['21', '16', '13-16', '']) {
        for (const level of ['', 'E', 'K', 'B']) {
          out.push(`${g}${age}${level}`.trim(), `${g}${age}${level} ${words[out.length % words.length]}`.trim());
        }
      }
    }
    out.push('Öppen 1', 'Öppen 3', 'Bana 5', 'Course 6', 'H21 Leg 2', 'H21-2', 'H21 Stafett', 'T3', 'T5', ...words);
    return [...new Set(out.filter((n) => n !== ''))];
  };

  it('finds through the index every pair alike enough to decide anything, and skips only pairs below the floor', () => {
    const names = corpus();
    const entries = names.map((name) => {
      const parsed = parseClassName(name);
      return { name, parsed, key: classKeyOf(parsed, name) };
    });
    for (const floor of [0.5, 0.64]) {
      const index = new SimilarityIndex(entries, floor);
      let reached = 0;
      for (const a of entries) {
        const found = new Set(index.candidates(a));
        for (const b of entries) {
          const similarity = classSimilarity(a.parsed, b.parsed);
          if (similarity >= floor) {
            reached++;
            expect(found.has(b), `${a.name} / ${b.name}: ${similarity}`).toBe(true);
          }
        }
        expect(found.size).toBeLessThan(entries.length);
      }
      expect(reached).toBeGreaterThan(entries.length);
    }
  });

  it('maps misspelled names among thousands of classes to their own class or leaves them, never to another', () => {
    const words = ['Skog', 'Sprint', 'Natt', 'Motion'];
    const names: string[] = [];
    for (let i = 0; names.length < 3000; i++) {
      names.push(
        `${i % 2 ? 'H' : 'D'}${10 + 5 * (Math.floor(i / 2) % 18)} ${words[Math.floor(i / 36) % 4]} ${Math.floor(i / 144) + 1}`,
      );
    }
    // Every tenth name misspelled on the service: 300 x 300 open pairs, far above what is compared pair by pair.
    const service = names.map((name, i) => ({
      id: i + 1,
      name: i % 10 === 0 ? name.replace(/(\w+) (\d+)$/, (_, w: string, n: string) => `${w.slice(0, -1)}x ${n}`) : name,
    }));
    const mapping = matchClasses(emsClasses(...names), service);
    for (const match of mapping.matches) {
      expect(match.service.id, match.ems.name).toBe(names.indexOf(match.ems.name) + 1);
    }
    // Left unmapped only where the misspelling makes the name too unlike (`Motion`/`Motiox`, 0.7): never another class.
    for (const unmatched of mapping.unmatchedEms) expect(names.indexOf(unmatched.ems.name) % 10).toBe(0);
    expect(mapping.matches.filter((m) => m.method === 'similar').length).toBeGreaterThan(200);
  });
});

describe('matchClasses: rules of issue 20, and where they stop', () => {
  it('maps a class by its short name read as a code (D11-12 with short name D-12 is D12), but not two to one', () => {
    const ems: EmsClass[] = [
      { name: 'D11-12', shortName: 'D-12' },
      { name: 'H11-12', shortName: 'H-12' },
    ];
    expect(pairs(matchClasses(ems, serviceClasses('D12', 'H12')))).toEqual({ 'D11-12': 'D12', 'H11-12': 'H12' });
    // Two classes whose short names read alike: which one is the service's is not clear.
    const two: EmsClass[] = [
      { name: 'D11-12', shortName: 'D-12' },
      { name: 'D12 Kort', shortName: 'D12' },
    ];
    expect(pairs(matchClasses(two, serviceClasses('W12 Lång')))).toEqual({});
  });

  it("maps a championship's bare Men and Women to the one elite class of each gender, and only then", () => {
    expect(pairs(matchClasses(emsClasses('Men', 'Women'), serviceClasses('M21E', 'W21E')))).toEqual({
      Men: 'M21E',
      Women: 'W21E',
    });
    // Two elite classes of a gender, another class of that gender in the export, or a bare class on the service: no.
    expect(pairs(matchClasses(emsClasses('Men'), serviceClasses('M21E', 'M20E')))).toEqual({});
    expect(pairs(matchClasses(emsClasses('Men', 'M35'), serviceClasses('M21E', 'M40')))).toEqual({});
    expect(pairs(matchClasses(emsClasses('Women'), serviceClasses('W21E', 'Women')))).toEqual({ Women: 'Women' });
  });

  it('maps French circuits by their colour and the gender glued to Open', () => {
    expect(
      pairs(
        matchClasses(
          emsClasses('Circuit Violet', 'Circuit Jaune', 'MOpen'),
          serviceClasses('Open Jaune', 'Open Violet', 'Men Open'),
        ),
      ),
    ).toEqual({ 'Circuit Violet': 'Open Violet', 'Circuit Jaune': 'Open Jaune', MOpen: 'Men Open' });
  });

  it('takes legs glued by a hyphen in a relay event, never numbered classes written with a space or outside a relay', () => {
    const legs = emsClasses('A - Trophy-1', 'A - Trophy-2', 'A - Trophy-3');
    expect(pairs(matchClasses(legs, serviceClasses('A - Trophy'), { relayEvent: true }))).toEqual({
      'A - Trophy-1': 'A - Trophy',
      'A - Trophy-2': 'A - Trophy',
      'A - Trophy-3': 'A - Trophy',
    });
    expect(pairs(matchClasses(legs, serviceClasses('A - Trophy')))).toEqual({});
    const open = emsClasses('Öppen 1', 'Öppen 2', 'Öppen 3');
    expect(pairs(matchClasses(open, serviceClasses('Öppen'), { relayEvent: true }))).toEqual({});
  });
});
