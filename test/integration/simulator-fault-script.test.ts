/**
 * Fault scripts over real HTTP: `PUT /_simulator/faults {"script": [...]}` sets a timeline of outcomes by method and
 * path, the project's own client meets it, and the journal shows what struck which request.
 */
import { describe, expect, it } from 'vitest';
import { writeGpx } from '../../src/gps/write.js';
import type { SimJournalEntry } from '../../src/simulator/journal.js';
import type { Simulator } from '../../src/simulator/server.js';
import { http, simulatorPerTest } from '../helpers/simulator.js';
import { wander } from '../helpers/tracks.js';

const open = simulatorPerTest();

async function putFaults(sim: Simulator, body: unknown) {
  return http('PUT', `${sim.info.controlUrl}/faults`, {
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

async function setScript(sim: Simulator, script: unknown[]): Promise<void> {
  const res = await putFaults(sim, { script });
  expect(res.status, res.text).toBe(200);
}

async function faults(sim: Simulator): Promise<any> {
  return (await http('GET', `${sim.info.controlUrl}/faults`)).json();
}

async function apiEntries(sim: Simulator): Promise<SimJournalEntry[]> {
  return (await http('GET', `${sim.info.controlUrl}/journal?path=/api/`)).json().entries as SimJournalEntry[];
}

function api(sim: Simulator, path: string, headers: Record<string, string> = {}) {
  return http('GET', `${sim.info.baseUrl}${path}`, { headers: { ApiKey: sim.info.apiKey, ...headers } });
}

/** An outcome of a request that may be dropped: its status, or the error's name. */
async function outcome(request: Promise<{ status: number }>): Promise<number | string> {
  return request.then(
    (r) => r.status,
    () => 'dropped',
  );
}

const gpx = (n: number) =>
  new TextEncoder().encode(writeGpx(wander({ lat: 10 + n, lng: 10 }, Date.parse('2024-01-01'))));
const ROUTES = '/api/importableRoutes';

describe('a fault script with the project client', () => {
  it('503 with retry-after for 2 route posts, then one cut short: the client retries through to the stored route', async () => {
    const { sim, client } = await open({ events: 5, importDelayMs: 50 });
    await setScript(sim, [
      {
        method: 'POST',
        path: ROUTES,
        outcome: { kind: 'status', status: 503, headers: { 'retry-after': '1' } },
        count: 2,
      },
      { method: 'POST', path: ROUTES, outcome: { kind: 'cut' }, count: 1 },
    ]);
    const started = performance.now();
    const { id } = await client.routes.import({ data: gpx(1) });
    // Two Retry-After waits of a second each.
    expect(performance.now() - started).toBeGreaterThanOrEqual(1990);
    const posts = (await apiEntries(sim)).filter((e) => e.method === 'POST');
    expect(posts.map((e) => [e.status, e.fault ?? null])).toEqual([
      [503, 'script[0]: 503'],
      [503, 'script[0]: 503'],
      [200, 'script[1]: cut'],
      [200, null],
    ]);
    expect(posts[0]!.responseHeaders['retry-after']).toBe('1');
    // The cut answer declared its whole length but sent half of it.
    const cut = posts[2]!;
    expect(Number(cut.responseHeaders['content-length'])).toBeGreaterThan(cut.responseBytes);
    expect(cut.responseBytes).toBe(Math.floor(Number(cut.responseHeaders['content-length']) / 2));
    // The cut answer's request had been handled: the retry overwrote the same route, one is stored.
    expect(sim.routes().filter((r) => r.id === id)).toMatchObject([{ postCount: 2 }]);
    const shown = await faults(sim);
    expect(shown.script).toMatchObject({ current: null, stepsDone: 2, finished: true });
    expect(shown.script.steps.map((s: any) => [s.state, s.matched])).toEqual([
      ['done', 2],
      ['done', 1],
    ]);
    expect(sim.stats.snapshot().faults).toEqual({ 'script[0]: 503': 2, 'script[1]: cut': 1 });
  });

  it('a GET cut short at a byte count is retried by the client and succeeds', async () => {
    const { sim, client } = await open({ events: 5 }, { cache: false });
    await setScript(sim, [{ path: '/api/countries', outcome: { kind: 'cut', bytes: 10 }, count: 1 }]);
    const countries = await client.countries.list();
    expect(countries.length).toBeGreaterThan(0);
    const entries = await apiEntries(sim);
    expect(entries.map((e) => [e.status, e.responseBytes === 10])).toEqual([
      [200, true],
      [200, false],
    ]);
  });
});

describe('steps', () => {
  it('a durationMs step ends by time, and the next one counts from then', async () => {
    const { sim } = await open({ events: 5 });
    await setScript(sim, [
      { path: '/api/countries', outcome: { kind: 'status', status: 503 }, durationMs: 1000 },
      { path: '/api/countries', outcome: { kind: 'status', status: 429 }, count: 1 },
    ]);
    expect((await api(sim, '/countries')).status).toBe(503);
    expect((await api(sim, '/countries')).status).toBe(503);
    const during = (await faults(sim)).script;
    expect(during).toMatchObject({ current: 0, stepsDone: 0, requestsLeft: null });
    expect(during.msLeft).toBeGreaterThan(0);
    expect(during.msLeft).toBeLessThanOrEqual(1000);
    await new Promise((r) => setTimeout(r, 1050));
    expect((await faults(sim)).script).toMatchObject({ current: 1, stepsDone: 1, requestsLeft: 1, msLeft: null });
    expect((await api(sim, '/countries')).status).toBe(429);
    expect((await api(sim, '/countries')).status).toBe(200);
  });

  it('requests that do not match the current step pass untouched, and do not use it up', async () => {
    const { sim } = await open({ events: 5 });
    const eventId = sim.state.dataset.events[0]!.id;
    await setScript(sim, [
      { method: 'GET', path: '/api/events/{id}', outcome: { kind: 'status', status: 500 }, count: 1 },
      { method: 'GET', path: '/api/countries', outcome: { kind: 'status', status: 502 }, count: 1 },
    ]);
    // Another path, another method, a segment more or less: none matches step 0.
    expect((await api(sim, '/countries')).status).toBe(200);
    expect((await api(sim, '/events?from=2024-01-01T00:00:00Z')).status).toBe(200);
    expect((await api(sim, `/events/${eventId}/x`)).status).toBe(404);
    expect((await faults(sim)).script).toMatchObject({ current: 0, requestsLeft: 1 });
    expect((await api(sim, `/events/${eventId}/?includeClasses=true`)).status).toBe(500);
    expect((await api(sim, '/countries')).status).toBe(502);
    expect((await api(sim, '/countries')).status).toBe(200);
    const faulted = (await apiEntries(sim)).filter((e) => e.fault).map((e) => `${e.path} ${e.fault}`);
    expect(faulted).toEqual([`/api/events/${eventId}/ script[0]: 500`, '/api/countries script[1]: 502']);
  });

  it('a pass step lets its matching requests through and counts them; phase after lets a POST take effect', async () => {
    const { sim } = await open({ events: 5 });
    await setScript(sim, [
      { method: 'POST', path: ROUTES, outcome: { kind: 'pass' }, count: 2 },
      { method: 'POST', path: ROUTES, outcome: { kind: 'status', status: 500, phase: 'after' }, count: 1 },
      { method: 'POST', path: ROUTES, outcome: { kind: 'reset', phase: 'before' } },
    ]);
    const post = (id: string) =>
      outcome(
        http('POST', `${sim.info.baseUrl}/importableRoutes`, {
          headers: { ApiKey: sim.info.apiKey, 'content-type': 'application/json' },
          body: JSON.stringify({ id, data: Buffer.from(gpx(2)).toString('base64') }),
        }),
      );
    expect([await post('a'), await post('b'), await post('c'), await post('d'), await post('e')]).toEqual([
      200,
      200,
      500,
      'dropped',
      'dropped',
    ]);
    // c was stored before its answer was replaced; d and e never reached the handler.
    expect(sim.routes().map((r) => r.id)).toEqual(['a', 'b', 'c']);
    const shown = (await faults(sim)).script;
    // The last step has neither count nor duration: it holds until the script is replaced.
    expect(shown).toMatchObject({ current: 2, stepsDone: 2, requestsLeft: null, msLeft: null, finished: false });
    expect(shown.steps[2].matched).toBe(2);
  });

  it('strikes OAuth requests when its path is under /auth, and a step without a path only /api ones', async () => {
    const { sim } = await open({ events: 5 });
    await setScript(sim, [
      { outcome: { kind: 'status', status: 503 }, count: 1 },
      { path: '/auth/oauth2/revoke', outcome: { kind: 'status', status: 502 }, count: 1 },
    ]);
    const revoke = () =>
      http('POST', `${sim.info.authUrl}/oauth2/revoke`, {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'token=x',
      });
    expect((await revoke()).status).toBe(200);
    expect((await api(sim, '/countries')).status).toBe(503);
    expect((await revoke()).status).toBe(502);
    expect((await revoke()).status).toBe(200);
  });

  it('gives the same outcomes to the same requests: two runs, identical journal statuses', async () => {
    const script = [
      { path: '/api/countries', outcome: { kind: 'status', status: 503, headers: { 'retry-after': '0' } }, count: 2 },
      { outcome: { kind: 'pass' }, count: 3 },
      { path: '/api/countries', outcome: { kind: 'reset' }, count: 1 },
      { outcome: { kind: 'cut', bytes: 5 }, count: 2 },
      { method: 'GET', outcome: { kind: 'status', status: 429, phase: 'before' }, count: 1 },
    ];
    const runs: Array<Array<[unknown, unknown]>> = [];
    for (let run = 0; run < 2; run++) {
      const { sim } = await open({ events: 5, seed: 3, faultRate: 0.3, faultKinds: ['500', '502'] });
      await setScript(sim, script);
      for (let i = 0; i < 14; i++)
        await outcome(api(sim, i % 3 === 0 ? '/events?from=2024-01-01T00:00:00Z' : '/countries'));
      runs.push((await apiEntries(sim)).map((e) => [e.status, e.fault ?? null]));
    }
    expect(runs[0]).toEqual(runs[1]);
    expect(runs[0]).toHaveLength(14);
    const faultsSeen = new Set(runs[0]!.map(([, f]) => f));
    // Script steps and random faults both struck.
    expect([...faultsSeen].some((f) => typeof f === 'string' && f.startsWith('script['))).toBe(true);
    expect([...faultsSeen].some((f) => typeof f === 'string' && /^50[02] \(/.test(f))).toBe(true);
  });

  it('the random rate still works beside a script: the step wins, the draw takes what the script passed', async () => {
    const { sim } = await open({ events: 5, faultRate: 1, faultKinds: ['500'] });
    await setScript(sim, [{ path: '/api/countries', outcome: { kind: 'status', status: 503 }, count: 2 }]);
    const statuses = [];
    for (const path of ['/countries', '/countries', '/countries', '/events?from=2024-01-01T00:00:00Z'])
      statuses.push((await api(sim, path)).status);
    expect(statuses).toEqual([503, 503, 500, 500]);
    expect(sim.stats.snapshot().faults).toEqual({ 'script[0]: 503': 2, '500': 2 });
    // The rate can be set without touching the script, and the script without touching the rate.
    expect((await putFaults(sim, { rate: 0 })).json()).toMatchObject({ rate: 0, script: { finished: true } });
    await setScript(sim, [{ outcome: { kind: 'status', status: 502 }, count: 1 }]);
    expect((await faults(sim)).rate).toBe(0);
  });

  it('a scenario header wins over the script, and the script does not count that request', async () => {
    const { sim } = await open({ events: 5 });
    await setScript(sim, [{ path: '/api/countries', outcome: { kind: 'status', status: 503 }, count: 1 }]);
    expect((await api(sim, '/countries', { 'X-Simulator-Scenario': 'status=418' })).status).toBe(418);
    expect((await api(sim, '/countries')).status).toBe(503);
  });
});

describe('the faults endpoint', () => {
  it('refuses a bad script with a 400 naming the step index and field, and keeps the script it had', async () => {
    const { sim } = await open({ events: 5 });
    const good = { path: '/api/countries', outcome: { kind: 'reset' }, count: 1 };
    await setScript(sim, [good]);
    const cases: Array<[unknown, string, RegExp]> = [
      [[good, { outcome: { kind: 'status', status: 200 }, count: 1 }], 'script[1].outcome.status', /400\.\.599/],
      [[good, { outcome: { kind: 'teapot' }, count: 1 }], 'script[1].outcome.kind', /status, expired-token/],
      [[good, { outcome: { kind: 'reset' }, count: 0 }], 'script[1].count', /must be 1\.\./],
      [[{ outcome: { kind: 'reset' } }, good], 'script[0].count', /never ends/],
      [[good, { path: 'api/countries', outcome: { kind: 'reset' } }], 'script[1].path', /under \/api\//],
      [[good, { method: 'get', outcome: { kind: 'reset' } }], 'script[1].method', /GET, HEAD/],
      [[good, { outcome: { kind: 'reset' }, times: 2 }], 'script[1]', /unknown: times/],
      [
        [{ outcome: { kind: 'status', status: 503, headers: { 'Content-Length': '5' } } }],
        'script[0].outcome.headers.Content-Length',
        /set by the simulator/,
      ],
      [[{ path: '/auth/oauth2/token', outcome: { kind: 'expired-token' } }], 'script[0].path', /\/api paths only/],
    ];
    for (const [script, field, said] of cases) {
      const res = await putFaults(sim, { script });
      expect(res.status, JSON.stringify(script)).toBe(400);
      const errors = res.json().errors as Record<string, string[]>;
      expect(Object.keys(errors), res.text).toContain(field);
      expect(errors[field]!.join(' ')).toMatch(said);
    }
    expect((await putFaults(sim, {})).status).toBe(400);
    expect((await putFaults(sim, { rate: 2 })).json().errors).toHaveProperty('rate');
    expect((await faults(sim)).script.steps).toHaveLength(1);
  });

  it('shows the script with progress; DELETE or an empty script clears it, the rate staying', async () => {
    const { sim } = await open({ events: 5, faultRate: 0.1 });
    expect(await faults(sim)).toMatchObject({ rate: 0.1, script: null });
    await setScript(sim, [
      { path: '/api/countries', outcome: { kind: 'status', status: 503 }, count: 3 },
      { outcome: { kind: 'stall', ms: 100 }, durationMs: 60_000 },
    ]);
    await putFaults(sim, { rate: 0 });
    await api(sim, '/countries');
    const shown = await faults(sim);
    expect(shown.script).toEqual({
      steps: [
        { path: '/api/countries', outcome: { kind: 'status', status: 503 }, count: 3, state: 'current', matched: 1 },
        { outcome: { kind: 'stall', ms: 100 }, durationMs: 60_000, state: 'waiting', matched: 0 },
      ],
      current: 0,
      stepsDone: 0,
      requestsLeft: 2,
      msLeft: null,
      finished: false,
    });
    expect((await http('DELETE', `${sim.info.controlUrl}/faults`)).json()).toMatchObject({ rate: 0, script: null });
    expect((await api(sim, '/countries')).status).toBe(200);
    await setScript(sim, [{ outcome: { kind: 'reset' } }]);
    await setScript(sim, []);
    expect(await faults(sim)).toMatchObject({ script: null });
  });
});

describe('the cut scenario', () => {
  it('X-Simulator-Scenario: cut sends the headers and part of the body, then closes the connection', async () => {
    const { sim } = await open({ events: 5 });
    expect(await outcome(api(sim, '/countries', { 'X-Simulator-Scenario': 'cut=20' }))).toBe('dropped');
    const [entry] = await apiEntries(sim);
    expect(entry).toMatchObject({ status: 200, scenario: 'cut=20', responseBytes: 20 });
    expect(Number(entry!.responseHeaders['content-length'])).toBeGreaterThan(20);
    const bad = await api(sim, '/countries', { 'X-Simulator-Scenario': 'cut=some' });
    expect(bad.json().errors['x-simulator-scenario'][0]).toMatch(/cut takes whole bytes/);
  });
});
