import { beforeAll, describe, expect, it } from 'vitest';

import { distanceM } from '../../src/geo/distance.js';
import type { RaceCourseData } from '../../src/iof/model.js';
import { DATASET_END_MS, DATASET_REFERENCE_MS, DATASET_START_MS } from '../../src/simulator/dataset/calendar.js';
import { generateDataset } from '../../src/simulator/dataset/generate.js';
import type { SimDataset, SimEvent } from '../../src/simulator/model.js';

const TIME_ZONES: Record<string, string> = {
  SWE: 'Europe/Stockholm',
  NOR: 'Europe/Oslo',
  FIN: 'Europe/Helsinki',
  CHE: 'Europe/Zurich',
  GBR: 'Europe/London',
  CZE: 'Europe/Prague',
  DNK: 'Europe/Copenhagen',
  EST: 'Europe/Tallinn',
  FRA: 'Europe/Paris',
};

/** Local wall-clock time and weekday, from the time-zone database (independent of the generator's own DST rule). */
function local(ms: number, country: string): { minutes: number; weekday: string; month: number } {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: TIME_ZONES[country],
    hour: '2-digit',
    minute: '2-digit',
    weekday: 'short',
    month: 'numeric',
    hourCycle: 'h23',
  }).formatToParts(new Date(ms));
  const get = (type: string): string => parts.find((p) => p.type === type)?.value ?? '';
  return {
    minutes: Number(get('hour')) * 60 + Number(get('minute')),
    weekday: get('weekday'),
    month: Number(get('month')),
  };
}

function prop(event: SimEvent, key: string): string | undefined {
  return event.properties.find((p) => p.key === key)?.value;
}

function courses(event: SimEvent): RaceCourseData {
  expect(event.courses).toBeDefined();
  return event.courses!;
}

let data: SimDataset;

beforeAll(() => {
  data = generateDataset();
});

describe('generateDataset: determinism', () => {
  it('gives deep-equal datasets, courses included, for the same seed', () => {
    const a = generateDataset({ seed: 42, events: 120 });
    const b = generateDataset({ seed: 42, events: 120 });
    expect(a).toEqual(b);
    expect(a.events.filter((e) => e.courses).length).toBeGreaterThan(90);
  });

  it('gives different datasets for different seeds', () => {
    const a = generateDataset({ seed: 1, events: 50 });
    const b = generateDataset({ seed: 2, events: 50 });
    expect(a.events.map((e) => e.name)).not.toEqual(b.events.map((e) => e.name));
  });

  it('defaults to seed 1 and 300 events', () => {
    expect(data.events).toHaveLength(300);
    expect(data).toEqual(generateDataset({ seed: 1, events: 300 }));
  });

  it('gives exactly the number of events asked for, counting each day of a multi-day event', () => {
    for (const n of [0, 1, 7, 25, 301]) expect(generateDataset({ seed: 3, events: n }).events).toHaveLength(n);
  });

  it('computes the same courses whatever order events are read in', () => {
    const forward = generateDataset({ seed: 5, events: 60 });
    const backward = generateDataset({ seed: 5, events: 60 });
    const f = forward.events.map((e) => e.courses);
    const b = [...backward.events]
      .reverse()
      .map((e) => e.courses)
      .reverse();
    expect(b).toEqual(f);
  });

  it('rejects a seed or count that is not a whole number', () => {
    expect(() => generateDataset({ seed: 1.5 })).toThrow(RangeError);
    expect(() => generateDataset({ events: -1 })).toThrow(RangeError);
  });
});

describe('generateDataset: lazy courses', () => {
  it('computes courses on first read and then returns the same object', () => {
    const event = generateDataset({ seed: 8, events: 20 }).events.find((e) => e.hasValidMapAndCourses)!;
    const first = event.courses;
    expect(first).toBeDefined();
    expect(event.courses).toBe(first);
  });

  it('shows courses as an ordinary property to spreading, cloning and JSON', () => {
    const event = generateDataset({ seed: 8, events: 20 }).events.find((e) => e.hasValidMapAndCourses)!;
    expect(Object.keys(event)).toContain('courses');
    expect({ ...event }.courses).toEqual(event.courses);
    expect(structuredClone(event).courses).toEqual(event.courses);
    expect(JSON.parse(JSON.stringify(event)).courses.courses.length).toBe(event.courses!.courses.length);
  });

  it('lets a caller replace or remove the courses', () => {
    const event = generateDataset({ seed: 8, events: 20 }).events.find((e) => e.hasValidMapAndCourses)!;
    const replacement: RaceCourseData = { maps: [], controls: [], courses: [], classAssignments: [] };
    event.courses = replacement;
    expect(event.courses).toBe(replacement);
    delete event.courses;
    expect('courses' in event).toBe(false);
  });

  it('generates 10,000 events with their courses deferred until read (speed: npm run bench simulator)', () => {
    const big = generateDataset({ seed: 11, events: 10_000 });
    expect(big.events).toHaveLength(10_000);
    // Courses are the costly part: each event holds a getter, not the courses, until someone reads them.
    const deferred = big.events.filter((e) => typeof Object.getOwnPropertyDescriptor(e, 'courses')?.get === 'function');
    expect(deferred.length).toBeGreaterThan(5000);
    expect(big.events.at(-1)!.id).toBeLessThan(1_000_000);
  });
});

describe('generateDataset: events', () => {
  it('has events in every orienteering country of the profiles', () => {
    const byCountry = new Map<string, number>();
    for (const e of data.events) byCountry.set(e.countryCode, (byCountry.get(e.countryCode) ?? 0) + 1);
    for (const code of ['SWE', 'NOR', 'FIN', 'CHE', 'GBR', 'CZE'])
      expect(byCountry.get(code) ?? 0).toBeGreaterThanOrEqual(10);
    for (const code of ['DNK', 'EST', 'FRA']) expect(byCountry.get(code) ?? 0).toBeGreaterThanOrEqual(1);
    expect(byCountry.get('SWE')).toBeGreaterThan(byCountry.get('DNK')!);
  });

  it('gives every event a unique 6-digit id from about 100000, ascending with gaps', () => {
    const ids = data.events.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(ids[0]).toBeGreaterThanOrEqual(100_000);
    expect(ids[0]).toBeLessThan(101_000);
    expect(ids.at(-1)).toBeLessThan(1_000_000);
    expect(ids.at(-1)! - ids[0]!).toBeGreaterThan(ids.length * 2);
  });

  it('gives every class an id unique across the dataset', () => {
    const ids = data.events.flatMap((e) => e.classes.map((c) => c.id));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('keeps events inside 2022-01-01..2027-12-31 with 3-8 hour days, except relays that run through the night', () => {
    for (const e of data.events) {
      expect(e.startMs).toBeGreaterThanOrEqual(DATASET_START_MS);
      expect(e.endMs).toBeLessThanOrEqual(DATASET_END_MS + 24 * 3_600_000);
      const hours = (e.endMs - e.startMs) / 3_600_000;
      if (prop(e, 'discipline') === 'Relay') {
        expect(hours).toBeGreaterThanOrEqual(3);
        expect(hours).toBeLessThanOrEqual(24);
      } else {
        expect(hours).toBeGreaterThanOrEqual(3);
        expect(hours).toBeLessThanOrEqual(8);
      }
    }
    const years = new Set(data.events.map((e) => new Date(e.startMs).getUTCFullYear()));
    expect([...years].sort()).toEqual([2022, 2023, 2024, 2025, 2026, 2027]);
  });

  it('starts day events at 09:00-11:00 local time (summer time included) and night events in the evening', () => {
    for (const e of data.events) {
      const { minutes } = local(e.startMs, e.countryCode);
      const discipline = prop(e, 'discipline');
      if (discipline === 'Night') {
        expect(minutes).toBeGreaterThanOrEqual(18 * 60);
        expect(minutes).toBeLessThanOrEqual(21 * 60 + 30);
      } else if (discipline !== 'Relay') {
        expect(minutes).toBeGreaterThanOrEqual(9 * 60);
        expect(minutes).toBeLessThanOrEqual(11 * 60);
      }
    }
  });

  it('holds most events at weekends and most in spring to autumn', () => {
    const singles = data.events.filter((e) => prop(e, 'stage') === undefined);
    const weekend = singles.filter((e) => ['Sat', 'Sun'].includes(local(e.startMs, e.countryCode).weekday));
    expect(weekend.length / singles.length).toBeGreaterThan(0.75);
    const season = data.events.filter((e) => {
      const m = local(e.startMs, e.countryCode).month;
      return m >= 4 && m <= 10;
    });
    expect(season.length / data.events.length).toBeGreaterThan(0.65);
    // Nordic nights are bright in summer: no night orienteering there in May-August.
    for (const e of data.events) {
      if (prop(e, 'discipline') === 'Night' && ['SWE', 'NOR', 'FIN'].includes(e.countryCode)) {
        expect([5, 6, 7, 8]).not.toContain(local(e.startMs, e.countryCode).month);
      }
    }
  });

  it('has multi-day events: one event per day, consecutive days and ids, same organisers, numbered stage names', () => {
    const firstDays = data.events.filter((e) => /^1\/\d+$/.test(prop(e, 'stage') ?? ''));
    expect(firstDays.length).toBeGreaterThanOrEqual(5);
    for (const first of firstDays) {
      const days = Number(prop(first, 'stage')!.split('/')[1]);
      const index = data.events.indexOf(first);
      const stages = data.events.slice(index, index + days);
      const base = first.name.slice(0, first.name.lastIndexOf(', '));
      stages.forEach((stage, k) => {
        expect(stage.id).toBe(first.id + k);
        expect(prop(stage, 'stage')).toBe(`${k + 1}/${days}`);
        expect(stage.organisers).toEqual(first.organisers);
        expect(stage.name.startsWith(`${base}, `)).toBe(true);
        expect(stage.name).toMatch(new RegExp(`(?:\\b${k + 1}\\b)`));
        const dayGap = Math.round((stage.startMs - first.startMs) / 86_400_000);
        expect(dayGap).toBe(k);
        expect(stage.classes.map((c) => c.name)).toEqual(first.classes.map((c) => c.name));
      });
    }
    const names = firstDays.map((e) => e.name);
    expect(names.some((n) => /, etapp 1$/.test(n))).toBe(true);
    expect(names.some((n) => /, Day 1$/.test(n))).toBe(true);
  });

  it('has relays whose classes get one course per leg', () => {
    const relays = data.events.filter((e) => prop(e, 'discipline') === 'Relay');
    expect(relays.length).toBeGreaterThanOrEqual(5);
    for (const e of relays.filter((r) => r.hasValidMapAndCourses)) {
      const race = courses(e);
      for (const cls of e.classes) {
        const legs = race.classAssignments.filter((a) => a.classId === String(cls.id));
        expect(legs.length).toBeGreaterThanOrEqual(3);
        expect(legs.map((a) => a.allowedOnLegs)).toEqual(legs.map((_, i) => [i + 1]));
      }
    }
  });

  it('leaves about 10 % of events without a valid map and courses, and those have no courses', () => {
    const without = data.events.filter((e) => !e.hasValidMapAndCourses);
    expect(without.length / data.events.length).toBeGreaterThan(0.05);
    expect(without.length / data.events.length).toBeLessThan(0.18);
    for (const e of without) {
      expect('courses' in e).toBe(false);
      expect(e.isSearchable).toBe(false);
    }
    for (const e of data.events.filter((x) => x.hasValidMapAndCourses))
      expect(courses(e).courses.length).toBeGreaterThan(0);
  });

  it('keeps future events (after 2026-11-01) mostly unpublished and without participants, and a few past ones unpublished', () => {
    const future = data.events.filter((e) => e.startMs >= DATASET_REFERENCE_MS);
    const past = data.events.filter((e) => e.startMs < DATASET_REFERENCE_MS);
    expect(future.length).toBeGreaterThan(20);
    expect(future.filter((e) => !e.isPublished).length / future.length).toBeGreaterThan(0.75);
    for (const e of future) expect(e.participantCount).toBe(0);
    const pastUnpublished = past.filter((e) => !e.isPublished).length;
    expect(pastUnpublished).toBeGreaterThan(0);
    expect(pastUnpublished / past.length).toBeLessThan(0.1);
    for (const e of past) {
      expect(e.participantCount).toBeGreaterThanOrEqual(30);
      expect(e.participantCount).toBeLessThanOrEqual(3000);
    }
  });

  it('marks events searchable only when they have a valid map and courses, and mostly when published', () => {
    for (const e of data.events) if (e.isSearchable) expect(e.hasValidMapAndCourses).toBe(true);
    const published = data.events.filter((e) => e.isPublished && e.hasValidMapAndCourses);
    expect(published.filter((e) => e.isSearchable).length / published.length).toBeGreaterThan(0.85);
  });

  it('gives events properties, organisers, a position and a modification time after the event', () => {
    for (const e of data.events) {
      expect(['Long', 'Middle', 'Sprint', 'Night', 'Relay']).toContain(prop(e, 'discipline'));
      expect(prop(e, 'classification')).toBeDefined();
      expect(e.organisers.length).toBeGreaterThanOrEqual(1);
      expect(e.organisers.length).toBeLessThanOrEqual(2);
      expect(e.position).toBeDefined();
      if (e.startMs < DATASET_REFERENCE_MS) expect(e.modifiedMs).toBeGreaterThan(e.endMs);
    }
    expect(data.events.some((e) => e.organisers.length === 2)).toBe(true);
    expect(data.events.some((e) => e.modifiedMs - e.endMs > 30 * 86_400_000)).toBe(true);
    expect(
      data.events.filter((e) => e.countryCode === 'SWE').every((e) => /^\d+$/.test(prop(e, 'eventorId') ?? '')),
    ).toBe(true);
    expect(data.events.some((e) => prop(e, 'homepage')?.startsWith('https://www.'))).toBe(true);
  });

  it('names events and organisers in the language of the country, accents included', () => {
    const names = data.events.map((e) => e.name).join('\n');
    expect(names).toMatch(/[åäöÅÄÖ]/);
    expect(
      data.events.some((e) => e.countryCode === 'CZE' && /[ěščřžýáíéůú]/i.test(e.name + e.organisers[0]!.name)),
    ).toBe(true);
    const organisers = new Set(data.events.flatMap((e) => e.organisers.map((o) => o.name)));
    expect(organisers.size).toBeGreaterThan(40);
  });

  it('includes every ISO country in the dataset', () => {
    expect(data.countries).toHaveLength(249);
  });
});

describe('generateDataset: class naming by country', () => {
  /** Age classes look like `H21`, `D16`, `M45L`, `N21`: a letter and two or three digits. */
  const AGE_CLASS = /^([A-Z])\d{2,3}/;

  function ageClassLetters(code: string): Set<string> {
    const letters = new Set<string>();
    for (const e of data.events.filter((x) => x.countryCode === code)) {
      for (const c of e.classes) {
        const m = AGE_CLASS.exec(c.name);
        if (m) letters.add(m[1]!);
      }
    }
    return letters;
  }

  it('uses H and D in Sweden, Norway, Finland, Switzerland, Czechia, Denmark and France', () => {
    for (const code of ['SWE', 'NOR', 'FIN', 'CHE', 'CZE', 'DNK', 'FRA']) {
      expect([...ageClassLetters(code)].sort(), code).toEqual(['D', 'H']);
    }
  });

  it('uses M and W in Great Britain, with colour courses at local events', () => {
    expect([...ageClassLetters('GBR')].sort()).toEqual(['M', 'W']);
    const gbr = data.events.filter((e) => e.countryCode === 'GBR').flatMap((e) => e.classes.map((c) => c.name));
    expect(gbr).toContain('Brown');
    expect(gbr).toContain('M21E');
  });

  it('uses M and N in Estonia', () => {
    expect([...ageClassLetters('EST')].sort()).toEqual(['M', 'N']);
  });

  it("uses each country's own open, elite and level classes", () => {
    const all = (code: string): string[] =>
      data.events.filter((e) => e.countryCode === code).flatMap((e) => e.classes.map((c) => c.name));
    expect(all('SWE').some((n) => /^Öppen \d$/.test(n))).toBe(true);
    expect(all('SWE')).toContain('Inskolning');
    expect(all('CHE')).toEqual(expect.arrayContaining(['HE', 'DE', 'HAL', 'DAM']));
    expect(all('CZE')).toEqual(expect.arrayContaining(['H21A', 'D21C', 'HDR']));
    expect(all('FIN')).toEqual(expect.arrayContaining(['H21A', 'RR']));
  });
});

describe('generateDataset: courses', () => {
  const withCourses = (): SimEvent[] => data.events.filter((e) => e.hasValidMapAndCourses);

  it('assigns every class to courses that exist, and every assignment names a class of the event', () => {
    for (const e of withCourses()) {
      const race = courses(e);
      const courseNames = new Set(race.courses.map((c) => c.name));
      const classIds = new Set(e.classes.map((c) => String(c.id)));
      for (const cls of e.classes) {
        const assigned = race.classAssignments.filter((a) => a.classId === String(cls.id));
        expect(assigned.length, `${e.name} ${cls.name}`).toBeGreaterThan(0);
        for (const a of assigned) {
          expect(courseNames.has(a.courseName)).toBe(true);
          expect(a.className).toBe(cls.name);
        }
      }
      for (const a of race.classAssignments) expect(classIds.has(a.classId!)).toBe(true);
    }
  });

  it('has 4-12 courses for individual events, with shared courses and unique names', () => {
    let shared = 0;
    for (const e of withCourses().filter((x) => prop(x, 'discipline') !== 'Relay')) {
      const race = courses(e);
      expect(race.courses.length).toBeGreaterThanOrEqual(4);
      expect(race.courses.length).toBeLessThanOrEqual(12);
      expect(new Set(race.courses.map((c) => c.name)).size).toBe(race.courses.length);
      if (race.classAssignments.length > race.courses.length) shared++;
    }
    expect(shared).toBeGreaterThan(0);
  });

  it('runs every course from start S1 through 6-25 controls coded 31-250 to finish F1, all defined', () => {
    for (const e of withCourses()) {
      const race = courses(e);
      const defined = new Map(race.controls.map((c) => [c.id, c]));
      expect(defined.size).toBe(race.controls.length);
      for (const course of race.courses) {
        const ids = course.controls.map((c) => c.controlId);
        expect(ids[0]).toBe('S1');
        expect(ids.at(-1)).toBe('F1');
        const middle = course.controls.slice(1, -1);
        expect(middle.length).toBeGreaterThanOrEqual(6);
        expect(middle.length).toBeLessThanOrEqual(25);
        expect(course.numberOfControls).toBe(middle.length);
        expect(new Set(middle.map((c) => c.controlId)).size).toBe(middle.length);
        for (const cc of course.controls) {
          const control = defined.get(cc.controlId);
          expect(control, `${e.name} ${course.name} ${cc.controlId}`).toBeDefined();
          expect(cc.type).toBe(control!.type);
        }
        for (const cc of middle) {
          expect(Number(cc.controlId)).toBeGreaterThanOrEqual(31);
          expect(Number(cc.controlId)).toBeLessThanOrEqual(250);
        }
      }
      expect(race.controls[0]).toMatchObject({ id: 'S1', type: 'Start' });
      expect(race.controls.at(-1)).toMatchObject({ id: 'F1', type: 'Finish' });
    }
  });

  it('computes leg lengths from control positions and course length as their sum', () => {
    for (const e of withCourses()) {
      const race = courses(e);
      const position = new Map(race.controls.map((c) => [c.id, c.position!]));
      for (const course of race.courses) {
        let sum = 0;
        course.controls.forEach((cc, i) => {
          if (i === 0) {
            expect(cc.legLength).toBeUndefined();
            return;
          }
          const previous = course.controls[i - 1]!;
          const expected = Math.round(distanceM(position.get(previous.controlId)!, position.get(cc.controlId)!));
          expect(cc.legLength).toBe(expected);
          sum += expected;
        });
        expect(course.length).toBe(sum);
        expect(course.climb).toBeGreaterThanOrEqual(0);
        expect(course.climb!).toBeLessThan(course.length! * 0.06);
      }
    }
  });

  it('places controls within about 3 km of the event and sizes courses by discipline', () => {
    for (const e of withCourses()) {
      const race = courses(e);
      const centre = { lat: e.position!.latitude, lng: e.position!.longitude };
      for (const c of race.controls) expect(distanceM(centre, c.position!)).toBeLessThan(3500);
      const longest = Math.max(...race.courses.map((c) => c.length!));
      const discipline = prop(e, 'discipline');
      if (discipline === 'Sprint') {
        expect(race.maps[0]?.scale).toBe(4000);
        expect(longest).toBeLessThan(7000);
      } else {
        expect([10_000, 15_000]).toContain(race.maps[0]?.scale);
      }
      if (discipline === 'Long') expect(longest).toBeGreaterThan(5000);
    }
  });
});
