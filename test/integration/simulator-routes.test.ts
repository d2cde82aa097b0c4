import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFit } from '../../src/gps/fit-write.js';
import { writeGpx, writeTcx } from '../../src/gps/write.js';
import { importRecordSchema } from '../../src/resources/routes.js';
import type { SimEvent } from '../../src/simulator/model.js';
import { http, startHarness, type SimHarness } from '../helpers/simulator.js';
import { courseOfClass, routableEvents, runCourse, wander } from '../helpers/tracks.js';

let h: SimHarness;
let event: SimEvent;
let other: SimEvent;
beforeAll(async () => {
  h = await startHarness({ seed: 11, events: 200, importDelayMs: 6000 });
  const candidates = routableEvents(h.sim.state.dataset.events);
  event = candidates[0]!;
  // A second event far away (another country) for the explicit-classId case.
  other = candidates.find((e) => e.countryCode !== event.countryCode)!;
});
afterAll(() => h.sim.close());

const b64 = (data: string | Uint8Array) => Buffer.from(data).toString('base64');
const settle = () => h.sim.state.clock.advance(6000);

async function status(id: string, headers = h.key) {
  const res = await h.api(`/importableRoutes/${encodeURIComponent(id)}`, headers);
  expect(res.status, res.text).toBe(200);
  return importRecordSchema.parse(res.json());
}

/** Classes that share the course of `classId`: the service may connect a route run on it to any of them. */
function namesSharingCourse(e: SimEvent, classId: number): string[] {
  const course = courseOfClass(e, classId).name;
  const ids = e.courses!.classAssignments.filter((a) => a.courseName === course).map((a) => Number(a.classId));
  return e.classes.filter((c) => ids.includes(c.id)).map((c) => c.name);
}

describe('POST /importableRoutes and the asynchronous import', () => {
  it('answers the id as a string, pending until the import delay has passed, then imported to the class run', async () => {
    const cls = event.classes[0]!;
    const points = runCourse(event, cls.id, event.startMs + 3600_000);
    const res = await h.post('/importableRoutes', {
      id: 4711,
      data: b64(writeGpx(points)),
      deviceModel: 'Garmin Forerunner 955',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json()).toEqual({ id: '4711' });
    expect(await status('4711')).toEqual({ status: 'pending' });
    settle();
    const record = await status('4711');
    expect(record.status).toBe('imported');
    expect(record.eventName).toBe(event.name);
    expect(namesSharingCourse(event, cls.id)).toContain(record.className);
    for (const url of [record.viewerUrl, record.showRouteUrl, record.editRouteUrl]) {
      expect(url!.startsWith(`${h.sim.info.viewerUrl}/`)).toBe(true);
      expect((await http('GET', url!)).status).toBe(200);
    }
    expect(record).not.toHaveProperty('errorMessage');
  });

  it('imports TCX and FIT files as well as GPX', async () => {
    const cls = event.classes[1]!;
    const points = runCourse(event, cls.id, event.startMs + 7200_000);
    await h.post('/importableRoutes', { id: 'tcx-1', data: b64(writeTcx(points)) });
    await h.post('/importableRoutes', { id: 'fit-1', data: b64(writeFit(points)) });
    settle();
    for (const id of ['tcx-1', 'fit-1']) {
      const r = await status(id);
      expect(r.status, JSON.stringify(r)).toBe('imported');
      expect(namesSharingCourse(event, cls.id)).toContain(r.className);
    }
  });

  it('connects a route to the class given by classId', async () => {
    const target = other.classes[0]!;
    const points = wander({ lat: other.position!.latitude, lng: other.position!.longitude }, other.startMs);
    await h.post('/importableRoutes', { id: 'by-class', data: b64(writeGpx(points)), classId: target.id });
    settle();
    expect(await status('by-class')).toMatchObject({
      status: 'imported',
      eventName: other.name,
      className: target.name,
    });
  });

  it('generates a unique string id when none is given', async () => {
    const data = b64(writeGpx(wander({ lat: 0, lng: 0 }, 0)));
    const a = (await h.post('/importableRoutes', { data })).json().id as string;
    const b = (await h.post('/importableRoutes', { data })).json().id as string;
    expect(typeof a).toBe('string');
    expect(a).not.toBe(b);
    expect((await status(a)).status).toBe('pending');
  });

  it('overwrites the earlier route when an id is posted again', async () => {
    const data = b64(writeGpx(runCourse(event, event.classes[0]!.id, event.startMs)));
    await h.post('/importableRoutes', { id: 'again', data: 'bm90IGEgcm91dGU=' });
    settle();
    expect((await status('again')).status).toBe('error');
    await h.post('/importableRoutes', { id: 'again', data });
    expect((await status('again')).status).toBe('pending');
    settle();
    expect((await status('again')).status).toBe('imported');
    const mine = h.sim.routes().filter((r) => r.id === 'again');
    expect(mine).toHaveLength(1);
    expect(mine[0]!.postCount).toBe(2);
  });

  it('keeps ids per posting identity: another key does not see or overwrite them', async () => {
    const data = b64(writeGpx(wander({ lat: 1, lng: 1 }, 0)));
    await h.post('/importableRoutes', { id: 'shared-id', data });
    expect((await h.api('/importableRoutes/shared-id', { ApiKey: h.sim.info.limitedApiKey })).status).toBe(404);
    await h.post('/importableRoutes', { id: 'shared-id', data }, { ApiKey: h.sim.info.limitedApiKey });
    expect(h.sim.routes().filter((r) => r.id === 'shared-id')).toHaveLength(2);
  });

  it('keeps the person of an API-key post and shows it on the route page', async () => {
    const points = runCourse(event, event.classes[0]!.id, event.startMs);
    await h.post('/importableRoutes', {
      id: 'person',
      data: b64(writeGpx(points)),
      person: { firstName: 'Tove', lastName: 'Alexandersson' },
    });
    settle();
    const page = await http('GET', (await status('person')).showRouteUrl!);
    expect(page.text).toContain('<dd data-field="person">Tove Alexandersson</dd>');
  });
});

describe('failed imports are import records, never HTTP errors', () => {
  it.each([
    ['data that is not base64', '%%% not base64 %%%', /not valid base64/],
    ['a file that is no GPS file', b64('\x89PNG\r\n\x1a\n0000000000'), /not a GPX, TCX or FIT file/],
    [
      'a GPX without timed track points',
      b64(
        '<?xml version="1.0"?><gpx version="1.1" creator="x" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg><trkpt lat="1" lon="2"/></trkseg></trk></gpx>',
      ),
      /no track points/,
    ],
  ])('settles %s as error with a message', async (_what, data, pattern) => {
    const id = `bad-${Math.random().toString(36).slice(2)}`;
    expect((await h.post('/importableRoutes', { id, data })).status).toBe(200);
    settle();
    const r = await status(id);
    expect(r.status).toBe('error');
    expect(r.errorMessage).toMatch(pattern);
    expect(r).not.toHaveProperty('viewerUrl');
  });

  it('settles a route with no event at its time and place as error', async () => {
    const points = runCourse(event, event.classes[0]!.id, event.startMs - 30 * 86_400_000);
    await h.post('/importableRoutes', { id: 'wrong-day', data: b64(writeGpx(points)) });
    settle();
    expect(await status('wrong-day')).toMatchObject({
      status: 'error',
      errorMessage: expect.stringMatching(/No event matching/),
    });
  });

  it('settles a route naming an unknown class as error', async () => {
    await h.post('/importableRoutes', {
      id: 'no-class',
      data: b64(writeGpx(wander({ lat: 0, lng: 0 }, 0))),
      classId: 99_999_999,
    });
    settle();
    expect(await status('no-class')).toMatchObject({ status: 'error', errorMessage: 'No class has the id 99999999.' });
  });
});

describe('request rules of the route endpoints', () => {
  it('accepts a 48-character id and refuses a 49-character one with 400', async () => {
    const data = b64(writeGpx(wander({ lat: 0, lng: 0 }, 0)));
    expect((await h.post('/importableRoutes', { id: 'x'.repeat(48), data })).status).toBe(200);
    const res = await h.post('/importableRoutes', { id: 'x'.repeat(49), data });
    expect(res.status).toBe(400);
    expect(res.json().errors.id[0]).toMatch(/longer than 48/);
  });

  it.each([
    ['a body that is not JSON', 'not json', 'body'],
    ['a missing data field', { id: 'a' }, 'data'],
    ['a fractional numeric id', { id: 1.5, data: 'AAAA' }, 'id'],
    ['an unknown field', { data: 'AAAA', colour: 'red' }, 'parameters'],
    ['a classId that is a string', { data: 'AAAA', classId: '12' }, 'classId'],
  ])('answers 400 for %s', async (_what, body, key) => {
    const res = await h.post('/importableRoutes', body);
    expect(res.status, res.text).toBe(400);
    expect(Object.keys(res.json().errors)).toContain(key);
  });

  it('answers 404 for an unknown id and 403 without or with bad credentials', async () => {
    expect((await h.api('/importableRoutes/never-posted')).status).toBe(404);
    expect((await h.api('/importableRoutes/4711', {})).status).toBe(403);
    expect((await h.post('/importableRoutes', { data: 'AAAA' }, {})).status).toBe(403);
    expect((await h.post('/importableRoutes', { data: 'AAAA' }, { ApiKey: 'stolen' })).status).toBe(403);
  });
});

describe('default import delay', () => {
  it("settles within the contract's typical 5 to 15 seconds of simulated time", async () => {
    const sim = await startHarness({ seed: 11, events: 50 });
    try {
      const data = b64(writeGpx(wander({ lat: 0, lng: 0 }, 0)));
      const ids = await Promise.all(
        [1, 2, 3, 4, 5].map(async (i) => (await sim.post('/importableRoutes', { id: i, data })).json().id as string),
      );
      sim.sim.state.clock.advance(4900);
      for (const id of ids) expect((await sim.api(`/importableRoutes/${id}`)).json().status).toBe('pending');
      sim.sim.state.clock.advance(10_200);
      for (const id of ids) expect((await sim.api(`/importableRoutes/${id}`)).json().status).not.toBe('pending');
    } finally {
      await sim.sim.close();
    }
  });
});
