import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getProjection } from '../../src/geo/projection.js';
import { parseCourseData } from '../../src/iof/read-course-data.js';
import { validateIofXml } from '../../src/iof/validate/validate.js';
import { countryListSchema } from '../../src/resources/countries.js';
import type { SimEvent } from '../../src/simulator/model.js';
import { startHarness, type SimHarness } from '../helpers/simulator.js';

let h: SimHarness;
beforeAll(async () => {
  // The default dataset: what `livelox-bridge simulator` serves without options.
  h = await startHarness();
});
afterAll(() => h.sim.close());

const events = () => h.sim.state.dataset.events;
const withCourses = () =>
  events().find((e) => e.isPublished && e.hasValidMapAndCourses && e.countryCode === 'SWE' && e.courses)!;
const coursesXml = async (query: string) => {
  const res = await h.api(`/orienteering/courses/iofxml?${query}`);
  expect(res.status, res.text).toBe(200);
  expect(String(res.headers['content-type'])).toMatch(/^application\/xml/);
  return res.text;
};
const parse = (xml: string) => parseCourseData(Buffer.from(xml), 'service courses');

describe('GET /orienteering/courses/iofxml', () => {
  it('answers IOF XML 3.0 CourseData that validates against IOF.xsd for every event of the default dataset', async () => {
    const docs = await Promise.all(
      events().map(async (e) => ({ name: String(e.id), bytes: Buffer.from(await coursesXml(`eventId=${e.id}`)) })),
    );
    expect(docs.length).toBe(300);
    const verdicts = await validateIofXml(docs);
    const invalid = verdicts.filter((v) => !v.valid);
    expect(invalid, JSON.stringify(invalid.slice(0, 3))).toEqual([]);
  }, 60_000);

  it('returns the controls, courses and class assignments of a published event', async () => {
    const e = withCourses();
    const race = parse(await coursesXml(`eventId=${e.id}`)).races[0]!;
    expect(race.courses.map((c) => c.name)).toEqual(e.courses!.courses.map((c) => c.name));
    expect(race.controls.length).toBe(e.courses!.controls.length);
    expect(race.courses[0]!.controls.map((c) => c.controlId)).toEqual(
      e.courses!.courses[0]!.controls.map((c) => c.controlId),
    );
    const a = race.classAssignments[0]!;
    const cls = e.classes.find((c) => String(c.id) === a.classId)!;
    expect(a.className).toBe(cls.name);
  });

  it('shows nothing of an unpublished event or one without valid map and courses', async () => {
    const unpublished = events().find((e) => !e.isPublished && e.courses)!;
    const noCourses = events().find((e) => !e.hasValidMapAndCourses)!;
    for (const e of [unpublished, noCourses]) {
      const data = parse(await coursesXml(`eventId=${e.id}`));
      expect(data.event.name).toBe(e.name);
      expect(data.races[0]!.courses).toEqual([]);
      expect(data.races[0]!.controls).toEqual([]);
    }
  });

  it('leaves out controls, class connections and class names as the include flags say', async () => {
    const e = withCourses();
    const noControls = parse(await coursesXml(`eventId=${e.id}&includeControls=false`)).races[0]!;
    expect(noControls.controls).toEqual([]);
    // IOF.xsd requires each course's sequence, so the codes stay while the positions go.
    expect(noControls.courses.map((c) => c.controls.map((cc) => cc.controlId))).toEqual(
      e.courses!.courses.map((c) => c.controls.map((cc) => cc.controlId)),
    );
    const noClasses = parse(await coursesXml(`eventId=${e.id}&includeClassConnections=false&includeClasses=false`))
      .races[0]!;
    expect(noClasses.classAssignments).toEqual([]);
    const idsOnly = parse(await coursesXml(`eventId=${e.id}&includeClassConnections=true&includeClasses=false`))
      .races[0]!;
    expect(idsOnly.classAssignments[0]!.classId).toBeDefined();
    expect(idsOnly.classAssignments[0]!.className ?? '').toBe('');
  });

  it('writes projected coordinates with easting in lng and northing in lat when projectionEpsgCode is given', async () => {
    const e = withCourses();
    const projected = parse(await coursesXml(`eventId=${e.id}&projectionEpsgCode=3006`)).races[0]!;
    const sweref = getProjection(3006);
    for (const control of projected.controls) {
      const original = e.courses!.controls.find((c) => c.id === control.id)!.position!;
      expect(control.position!.lng).toBeGreaterThan(200_000);
      expect(control.position!.lat).toBeGreaterThan(6_000_000);
      const back = sweref.inverse({ easting: control.position!.lng, northing: control.position!.lat });
      expect(back.lat).toBeCloseTo(original.lat, 5);
      expect(back.lng).toBeCloseTo(original.lng, 5);
    }
  });

  it.each([
    ['', 'eventId'],
    ['eventId=abc', 'eventId'],
    ['eventId=1&projectionEpsgCode=abc', 'projectionEpsgCode'],
    ['eventId=1&includeControls=perhaps', 'includeControls'],
  ])('answers 400 naming the parameter for %s', async (query, name) => {
    const res = await h.api(`/orienteering/courses/iofxml?${query}`);
    expect(res.status).toBe(400);
    expect(Object.keys(res.json().errors)).toContain(name);
  });

  it('answers 400 for a projection it cannot make and 404 for an unknown event', async () => {
    const e = withCourses();
    const res = await h.api(`/orienteering/courses/iofxml?eventId=${e.id}&projectionEpsgCode=999999`);
    expect(res.status).toBe(400);
    expect(res.json().errors.projectionEpsgCode[0]).toMatch(/999999/);
    expect((await h.api('/orienteering/courses/iofxml?eventId=1')).status).toBe(404);
  });
});

describe('GET /countries', () => {
  it('lists every ISO 3166 country with internal id, alpha-3 code and English name by default', async () => {
    const list = countryListSchema.parse((await h.api('/countries')).json());
    expect(list.length).toBeGreaterThanOrEqual(249);
    expect(new Set(list.map((c) => c.code)).size).toBe(list.length);
    expect(new Set(list.map((c) => c.id)).size).toBe(list.length);
    expect(list.every((c) => /^[A-Z]{3}$/.test(c.code))).toBe(true);
    expect(list.find((c) => c.code === 'SWE')!.name).toBe('Sweden');
    expect(list.find((c) => c.code === 'CHE')!.name).toBe('Switzerland');
  });

  it('names countries in Swedish for sv-SE, sorted in that language', async () => {
    const list = (await h.api('/countries?cultureCode=sv-SE')).json() as Array<{ code: string; name: string }>;
    expect(list.find((c) => c.code === 'SWE')!.name).toBe('Sverige');
    expect(list.find((c) => c.code === 'DEU')!.name).toBe('Tyskland');
    const names = list.map((c) => c.name);
    expect(names).toEqual([...names].sort(new Intl.Collator('sv-SE').compare));
  });

  it('lists only the countries that have events with onlyHavingEvents=true', async () => {
    const list = (await h.api('/countries?onlyHavingEvents=true')).json() as Array<{ code: string }>;
    const expected = new Set(events().map((e: SimEvent) => e.countryCode));
    expect(new Set(list.map((c) => c.code))).toEqual(expected);
    for (const code of ['SWE', 'NOR', 'FIN', 'CHE', 'GBR', 'CZE']) expect(expected.has(code)).toBe(true);
  });

  it('answers 400 for a bad flag or an unknown parameter', async () => {
    expect((await h.api('/countries?onlyHavingEvents=1')).status).toBe(400);
    expect((await h.api('/countries?culture=sv-SE')).status).toBe(400);
  });
});
