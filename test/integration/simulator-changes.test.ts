/**
 * The world changes: events created, changed and deleted through the control endpoints and `sim.world`, stamped with
 * the simulated clock in whole seconds, and what a "modified since" search and the Date header then show.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors.js';
import { parseContractDatetime } from '../../src/resources/params.js';
import { makeDataset, makeEvent } from '../helpers/dataset.js';
import { http, startHarness, type HttpAnswer, type SimHarness } from '../helpers/simulator.js';

const OLD = Date.parse('2025-06-01T00:00:00Z');
const initial = makeDataset([
  makeEvent({ id: 2001, name: 'Vårsprinten', start: '2025-05-10T09:00:00Z', end: '2025-05-10T12:00:00Z' }),
  makeEvent({
    id: 2002,
    name: 'Sommarlång',
    start: '2025-07-12T08:00:00Z',
    end: '2025-07-12T14:00:00Z',
    isPublished: false,
    isSearchable: false,
    hasValidMapAndCourses: false,
  }),
  makeEvent({ id: 2003, name: 'Höstmedel', start: '2025-09-20T09:00:00Z', end: '2025-09-20T13:00:00Z' }),
  makeEvent({
    id: 2004,
    name: 'Julnatt',
    start: '2025-12-20T16:00:00Z',
    end: '2025-12-20T19:00:00Z',
    // Milliseconds in a stamp are not shown (modifiedTime has whole seconds), so they never make it "later".
    modifiedMs: OLD + 500,
  }),
]);

let h: SimHarness;
beforeAll(async () => {
  h = await startHarness({ dataset: initial });
});
afterAll(() => h.sim.close());

const control = (method: string, path: string, body?: unknown): Promise<HttpAnswer> =>
  http(method, `${h.sim.info.controlUrl}${path}`, {
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });

const NEW_EVENT = {
  name: 'Nattcupen 1',
  start: '2026-12-03T18:00:00Z',
  end: '2026-12-03T21:00:00Z',
  countryCode: 'swe',
  organisers: ['OK Linné'],
  position: { latitude: 59.85, longitude: 17.63 },
  classes: ['H21', 'D21', { name: 'Öppen 1', shortName: 'Ö1' }],
  properties: [{ key: 'eventorId', value: '45678' }],
};

async function ids(query: Record<string, string>): Promise<number[]> {
  const res = await h.events(query);
  expect(res.status, res.text).toBe(200);
  return (res.json() as Array<{ id: number }>).map((e) => e.id);
}

/** The simulated clock, read over HTTP, in whole seconds as modifiedTime shows it. */
async function clockSecond(): Promise<number> {
  const now = Date.parse((await control('GET', '/clock')).json().now);
  return Math.floor(now / 1000) * 1000;
}

/**
 * Runs `work` at the start of a fresh second of the simulated clock (moved there, no waiting), so that what it stamps
 * shares one second that nothing before it was stamped in.
 */
function inAFreshSecond<T>(work: () => Promise<T>): Promise<T> {
  const clock = h.sim.state.clock;
  clock.advance(2000 - (clock.now() % 1000));
  return work();
}

describe('POST /_simulator/events', () => {
  it('creates an event with fresh ids, stamped with the simulated clock, that the API serves', async () => {
    const before = await clockSecond();
    const res = await control('POST', '/events', NEW_EVENT);
    expect(res.status, res.text).toBe(201);
    const created = res.json();
    const after = await clockSecond();
    expect(created).toMatchObject({
      name: 'Nattcupen 1',
      timeInterval: { start: '2026-12-03T18:00:00Z', end: '2026-12-03T21:00:00Z' },
      country: { code: 'SWE' },
      organisers: [{ name: 'OK Linné' }],
      isPublished: false,
      isSearchable: false,
      hasValidMapAndCourses: false,
      participantCount: 0,
      properties: [{ key: 'eventorId', value: '45678' }],
    });
    expect(created.id).toBeGreaterThan(2004);
    const stamp = parseContractDatetime(created.modifiedTime)!;
    expect(stamp).toBeGreaterThanOrEqual(before);
    expect(stamp).toBeLessThanOrEqual(after);

    const known = new Set(initial.events.flatMap((e) => e.classes.map((c) => c.id)));
    const classIds = (created.classes as Array<{ id: number; name: string }>).map((c) => c.id);
    expect(new Set(classIds).size).toBe(3);
    for (const id of classIds) expect(known.has(id)).toBe(false);
    expect(created.classes.map((c: { name: string }) => c.name)).toEqual(['H21', 'D21', 'Öppen 1']);

    const served = await h.api(`/events/${created.id}`);
    expect(served.status).toBe(200);
    expect(served.json()).toEqual(created);
    expect(await ids({ q: 'Nattcupen', from: '2026-12-01T00:00:00Z' })).toEqual([created.id]);
    expect(h.sim.world.changes().at(-1)).toMatchObject({ eventId: created.id, kind: 'created', source: 'control' });
  });

  it('takes a chosen id that no event has, and never hands out an id twice', async () => {
    const chosen = await control('POST', '/events', { ...NEW_EVENT, id: 9100, name: 'Vald id' });
    expect(chosen.status, chosen.text).toBe(201);
    expect(chosen.json().id).toBe(9100);
    const next = await control('POST', '/events', { ...NEW_EVENT, name: 'Nästa' });
    expect(next.json().id).toBeGreaterThan(9100);
    const taken = await control('POST', '/events', { ...NEW_EVENT, id: 9100 });
    expect(taken.status).toBe(400);
    expect(taken.json().errors.id[0]).toMatch(/exists/);
  });
});

describe('PATCH /_simulator/events/{id}', () => {
  it('renames, moves, edits classes, publishes and validates, and stamps modifiedTime', async () => {
    const event = h.sim.state.eventsById.get(2002)!;
    const [h21, d21] = event.classes;
    const before = await clockSecond();
    const res = await control('PATCH', '/events/2002', {
      name: 'Sommarlången',
      start: '2025-07-13T08:00:00Z',
      removeClasses: [d21!.id],
      renameClasses: [{ id: h21!.id, name: 'H 21' }],
      addClasses: ['Inskolning'],
      isPublished: true,
      hasValidMapAndCourses: true,
      isSearchable: true,
      properties: [{ key: 'eventorId', value: '123' }],
    });
    expect(res.status, res.text).toBe(200);
    const changed = res.json();
    expect(changed).toMatchObject({
      id: 2002,
      name: 'Sommarlången',
      // Only start given: the event keeps its length.
      timeInterval: { start: '2025-07-13T08:00:00Z', end: '2025-07-13T14:00:00Z' },
      isPublished: true,
      isSearchable: true,
      hasValidMapAndCourses: true,
      properties: [{ key: 'eventorId', value: '123' }],
    });
    expect(changed.classes.map((c: { id: number; name: string }) => [c.id === h21!.id, c.name])).toEqual([
      [true, 'H 21'],
      [false, 'Inskolning'],
    ]);
    expect(parseContractDatetime(changed.modifiedTime)!).toBeGreaterThanOrEqual(before);
    expect((await h.api('/events/2002')).json()).toEqual(changed);
    // The removed class has no viewer page any more; the renamed one has, under its new name.
    expect((await http('GET', `${h.sim.info.viewerUrl}/Viewer/x/y?classId=${d21!.id}`)).status).toBe(404);
    expect((await http('GET', changed.classes[0].url)).status).toBe(200);
    expect(h.sim.world.changes().at(-1)).toMatchObject({
      eventId: 2002,
      kind: 'changed',
      fields: ['name', 'dates', 'classes', 'isPublished', 'isSearchable', 'hasValidMapAndCourses', 'properties'],
    });
  });

  it('takes an empty change as a touch: only modifiedTime moves', async () => {
    const old = (await h.api('/events/2001')).json();
    h.sim.state.clock.advance(3_600_000);
    const before = await clockSecond();
    const res = await control('PATCH', '/events/2001', {});
    expect(res.status).toBe(200);
    const touched = res.json();
    expect(parseContractDatetime(touched.modifiedTime)!).toBeGreaterThanOrEqual(before);
    expect({ ...touched, modifiedTime: old.modifiedTime }).toEqual(old);
    expect(h.sim.world.changes().at(-1)).toMatchObject({ eventId: 2001, kind: 'changed', fields: [] });
  });

  it('makes an event unsearchable when its map and courses become invalid', async () => {
    await control('PATCH', '/events/2003', { hasValidMapAndCourses: true, isSearchable: true });
    const res = await control('PATCH', '/events/2003', { hasValidMapAndCourses: false });
    expect(res.json()).toMatchObject({ hasValidMapAndCourses: false, isSearchable: false });
  });

  it('answers 404 for an unknown event and 405 for other methods', async () => {
    expect((await control('PATCH', '/events/424242', { name: 'x' })).status).toBe(404);
    expect((await control('DELETE', '/events/424242')).status).toBe(404);
    const get = await control('GET', '/events/2001');
    expect(get.status).toBe(405);
    expect(get.headers.allow).toBe('PATCH, DELETE');
  });
});

describe('malformed control bodies', () => {
  it.each<[string, string, string, unknown]>([
    ['body', 'POST', '/events', 'not json'],
    ['colour', 'POST', '/events', { ...NEW_EVENT, colour: 'red' }],
    ['name', 'POST', '/events', { ...NEW_EVENT, name: undefined }],
    ['name', 'POST', '/events', { ...NEW_EVENT, name: '  ' }],
    ['start', 'POST', '/events', { ...NEW_EVENT, start: '2026-12-03 18:00' }],
    ['start', 'POST', '/events', { ...NEW_EVENT, start: '2026-12-03T18:00:00.000Z' }],
    ['end', 'POST', '/events', { ...NEW_EVENT, end: '2026-12-03T17:00:00Z' }],
    ['countryCode', 'POST', '/events', { ...NEW_EVENT, countryCode: 'XXX' }],
    ['organisers', 'POST', '/events', { ...NEW_EVENT, organisers: [] }],
    ['position.latitude', 'POST', '/events', { ...NEW_EVENT, position: { latitude: 91, longitude: 0 } }],
    ['classes', 'POST', '/events', { ...NEW_EVENT, classes: ['H21', 'H21'] }],
    ['isSearchable', 'POST', '/events', { ...NEW_EVENT, isSearchable: true }],
    ['properties[0].value', 'POST', '/events', { ...NEW_EVENT, properties: [{ key: 'a' }] }],
    ['body', 'POST', '/events', []],
    ['removeClasses[0]', 'PATCH', '/events/2001', { removeClasses: [1] }],
    ['renameClasses[0].id', 'PATCH', '/events/2001', { renameClasses: [{ id: 1, name: 'X' }] }],
    ['addClasses', 'PATCH', '/events/2001', { addClasses: ['H21'] }],
    ['end', 'PATCH', '/events/2001', { end: '2020-01-01T00:00:00Z' }],
    ['isPublished', 'PATCH', '/events/2001', { isPublished: 'yes' }],
    ['isSearchable', 'PATCH', '/events/2001', { isSearchable: true, hasValidMapAndCourses: false }],
    ['body', 'PATCH', '/events/2001', '{'],
    ['eventId', 'PATCH', '/events/abc', {}],
    ['advanceMs', 'POST', '/clock', { advanceMs: -1 }],
  ])('answers 400 naming %s for %s %s (case %#)', async (field, method, path, body) => {
    const before = h.sim.world.changes().length;
    const res = await control(method, path, body);
    expect(res.status, res.text).toBe(400);
    const answer = res.json();
    expect(answer.title).toBe('One or more validation errors occurred.');
    expect(Object.keys(answer.errors)).toContain(field);
    // A refused request changes nothing.
    expect(h.sim.world.changes().length).toBe(before);
  });

  it('refuses the same input in the library with a ValidationError listing the issues', () => {
    const bad = { ...NEW_EVENT, countryCode: 'XXX', end: '2026-12-03T17:00:00Z' };
    let error: unknown;
    try {
      h.sim.world.createEvent(bad);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((i) => i.path).sort()).toEqual(['countryCode', 'end']);
    expect(h.sim.world.changeEvent(424242, { name: 'x' })).toBeUndefined();
    expect(h.sim.world.deleteEvent(424242)).toBe(false);
  });
});

describe('DELETE /_simulator/events/{id}', () => {
  it('removes the event from details, every search, courses and viewer pages', async () => {
    const { id } = (await control('POST', '/events', { ...NEW_EVENT, name: 'Snart borta' })).json();
    const cls = h.sim.state.eventsById.get(id)!.classes[0]!;
    const since = '2020-01-01T00:00:00Z';
    expect(await ids({ modifiedSince: since })).toContain(id);
    const res = await control('DELETE', `/events/${id}`);
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ id, deleted: true });
    expect((await h.api(`/events/${id}`)).status).toBe(404);
    expect(await ids({ modifiedSince: since })).not.toContain(id);
    expect(await ids({ from: since })).not.toContain(id);
    expect(await ids({ q: 'Snart borta', paging: '0:100' })).toEqual([]);
    expect(await ids({ latitude: '59.85', longitude: '17.63', radius: '1000' })).not.toContain(id);
    expect((await h.api(`/orienteering/courses/iofxml?eventId=${id}`)).status).toBe(404);
    expect((await http('GET', `${h.sim.info.viewerUrl}/Viewer/x/y?classId=${cls.id}`)).status).toBe(404);
    expect((await control('DELETE', `/events/${id}`)).status).toBe(404);
    const log = (await control('GET', '/changes')).json();
    expect(log.changes.at(-1)).toMatchObject({ eventId: id, kind: 'deleted', source: 'control' });
  });
});

describe('modifiedSince', () => {
  it('is strictly later, at whole seconds, with events sharing one stamp', async () => {
    const [a, b] = await inAFreshSecond(async () => [
      (await control('PATCH', '/events/2001', { name: 'Vårsprinten A' })).json(),
      (await control('PATCH', '/events/2002', { name: 'Sommarlång B' })).json(),
    ]);
    expect(a.modifiedTime).toBe(b.modifiedTime);
    const stamp = parseContractDatetime(a.modifiedTime)!;
    const at = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
    expect(await ids({ modifiedSince: at(stamp) })).toEqual([]);
    expect((await ids({ modifiedSince: at(stamp - 1000) })).sort()).toEqual([2001, 2002]);
    // 2004 was stamped OLD + 500 ms, shown as OLD: not later than OLD.
    expect(await ids({ modifiedSince: at(OLD), to: '2025-12-31T00:00:00Z' })).not.toContain(2004);
    expect(await ids({ modifiedSince: at(OLD - 1000), to: '2025-12-31T00:00:00Z' })).toContain(2004);
  });

  it('misses a change made in the same second as the Date of an answer when that Date is the cursor', async () => {
    const { res, changed } = await inAFreshSecond(async () => {
      const res = await h.events({ from: '2020-01-01T00:00:00Z' });
      const changed = (await control('PATCH', '/events/2001', { name: 'Vårsprinten C' })).json();
      return { res, changed };
    });
    const cursor = new Date(String(res.headers.date));
    expect(Date.parse(changed.modifiedTime)).toBe(cursor.getTime());
    const since = cursor.toISOString().replace('.000Z', 'Z');
    // What a sync job must allow for: ask with an overlap and de-duplicate.
    expect(await ids({ modifiedSince: since })).not.toContain(2001);
    const overlap = new Date(cursor.getTime() - 1000).toISOString().replace('.000Z', 'Z');
    expect(await ids({ modifiedSince: overlap })).toContain(2001);
  });

  it('combines with from/to, sorting and paging, and pages of a fixed query never repeat or skip', async () => {
    const created: number[] = [];
    await inAFreshSecond(async () => {
      for (let i = 0; i < 7; i++) {
        const day = String(10 + (i % 3)).padStart(2, '0');
        const e = h.sim.world.createEvent({
          ...NEW_EVENT,
          name: `Same second ${i}`,
          start: `2027-03-${day}T10:00:00Z`,
          end: `2027-03-${day}T12:00:00Z`,
        });
        created.push(e.id);
      }
    });
    const stamps = new Set(created.map((id) => h.sim.state.eventsById.get(id)!.modifiedMs));
    expect(stamps.size).toBe(1);
    const since = new Date([...stamps][0]! - 1000).toISOString().replace('.000Z', 'Z');
    const query = { modifiedSince: since, from: '2027-03-01T00:00:00Z', to: '2027-03-12T00:00:00Z' };
    for (const sorting of ['time', 'time:descending', 'participantcount', 'duration:descending']) {
      const all = await ids({ ...query, sorting });
      const inWindow = created.filter((id) => h.sim.state.eventsById.get(id)!.startMs < Date.parse(query.to));
      expect([...all].sort()).toEqual([...inWindow].sort());
      const paged: number[] = [];
      for (let index = 0; ; index++) {
        const page = await ids({ ...query, sorting, paging: `${index}:2` });
        paged.push(...page);
        if (page.length < 2) break;
      }
      expect(paged).toEqual(all);
    }
  });
});

describe('the Date header', () => {
  it('follows the simulated clock in every area, not the machine clock', async () => {
    h.sim.state.clock.advance(10 * 86_400_000);
    const answers = [
      await h.api('/events/2001'),
      await h.api('/no-such-endpoint'),
      await control('GET', '/clock'),
      await http('GET', `${h.sim.info.authUrl}/oauth2/userinfo`),
      await http('GET', `${h.sim.info.viewerUrl}/nothing`),
    ];
    for (const res of answers) {
      const date = Date.parse(String(res.headers.date));
      expect(Math.abs(date - h.sim.state.clock.now())).toBeLessThan(5000);
      expect(date - Date.now()).toBeGreaterThan(9 * 86_400_000);
    }
  });
});
