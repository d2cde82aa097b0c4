/**
 * The simulator as a shared server in CI, probed as a careless or hostile client would: malformed requests get a 4xx
 * (never a 500) and leave it serving, bodies are refused before they are read, stored routes are capped, slow clients
 * are cut off. Requests go over raw sockets (test/helpers/raw-http.ts) so that what undici refuses to send can be sent
 * too. test/integration/simulator-slow-clients.test.ts has the clients that trickle their bodies.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ROUTE_BODY_BYTES } from '../../src/resources/routes.js';
import { raw, routeUploadHead, Trickle, until } from '../helpers/raw-http.js';
import { http, startHarness, type SimHarness } from '../helpers/simulator.js';

function request(
  method: string,
  target: string,
  headers: Record<string, string> = {},
  body?: string,
  host: string | null = '127.0.0.1',
): string {
  const lines = [`${method} ${target} HTTP/1.1`];
  if (host !== null) lines.push(`Host: ${host}`);
  for (const [k, v] of Object.entries(headers)) lines.push(`${k}: ${v}`);
  if (body !== undefined) lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
  lines.push('Connection: close', '', body ?? '');
  return lines.join('\r\n');
}

let h: SimHarness;
let port: number;
let key: Record<string, string>;
beforeAll(async () => {
  h = await startHarness({ events: 50, importDelayMs: 0 });
  port = Number(new URL(h.sim.info.baseUrl).port);
  key = { ApiKey: h.sim.info.apiKey };
});
afterAll(() => h.sim.close());

const json = { 'Content-Type': 'application/json' };
const SEARCH = '/api/events?from=2024-01-01T00:00:00Z';

function corpus(): Array<[string, string | Buffer]> {
  const k = { ...key };
  const kj = { ...key, ...json };
  const cases: Array<[string, string | Buffer]> = [];
  for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '__proto__[x]']) {
    cases.push([`query key ${name}`, request('GET', `${SEARCH}&${encodeURIComponent(name)}=1`, k)]);
    cases.push([`query key ${name} on countries`, request('GET', `/api/countries?${encodeURIComponent(name)}=1`, k)]);
  }
  for (const id of ['%E0%A4%A', '%ZZ', '%', '%C0%80']) {
    cases.push([`event id ${id}`, request('GET', `/api/events/${id}`, k)]);
    cases.push([`route id ${id}`, request('GET', `/api/importableRoutes/${id}`, k)]);
    cases.push([`control event id ${id}`, request('PATCH', `/_simulator/events/${id}`, json, '{}')]);
  }
  for (const host of ['[::1', '', 'a b', 'x:99999999', 'a/b', '[zz]']) {
    cases.push([`Host '${host}'`, request('GET', SEARCH, k, undefined, host)]);
  }
  cases.push(['no Host header', request('GET', SEARCH, k, undefined, null)]);
  for (const advanceMs of ['1e300', '8.64e15', '3155760000001', '-1', '"soon"', '1.5', 'null']) {
    cases.push([`advanceMs ${advanceMs}`, request('POST', '/_simulator/clock', json, `{"advanceMs": ${advanceMs}}`)]);
  }
  for (const paging of ['0:99999999999999999999', '-5:-1', 'abc', '0:1e400', '0:-0', ':']) {
    cases.push([`paging ${paging}`, request('GET', `${SEARCH}&paging=${encodeURIComponent(paging)}`, k)]);
  }
  cases.push(['from out of range', request('GET', '/api/events?from=9999-99-99T00:00:00Z', k)]);
  cases.push(['latitude 1e999', request('GET', `${SEARCH}&latitude=1e999&longitude=0&radius=1`, k)]);
  cases.push(['courses eventId -1', request('GET', '/api/orienteering/courses/iofxml?eventId=-1', k)]);
  cases.push([
    'EPSG code unknown',
    request('GET', '/api/orienteering/courses/iofxml?eventId=1&projectionEpsgCode=99999999', k),
  ]);
  cases.push(['event id too large', request('GET', '/api/events/99999999999999999999', k)]);
  const routes = '/api/importableRoutes';
  for (const body of [
    'not json',
    '[]',
    'null',
    '{"data": 5}',
    '{"data":"AAAA","__proto__":{"x":1}}',
    '{"data":"AAAA","constructor":1}',
    '['.repeat(100_000),
  ]) {
    cases.push([`route body ${body.slice(0, 30)}`, request('POST', routes, kj, body)]);
  }
  cases.push([
    'route as text/plain',
    request('POST', routes, { ...k, 'Content-Type': 'text/plain' }, '{"data":"AAAA"}'),
  ]);
  cases.push(['route without content type', request('POST', routes, k, '{"data":"AAAA"}')]);
  cases.push([
    'route as form',
    request('POST', routes, { ...k, 'Content-Type': 'application/x-www-form-urlencoded' }, 'data=AAAA'),
  ]);
  cases.push(['clock not JSON', request('POST', '/_simulator/clock', json, 'soon')]);
  cases.push(['faults rate 2', request('PUT', '/_simulator/faults', json, '{"rate": 2}')]);
  cases.push(['decision __proto__', request('PUT', '/_simulator/oauth/decision', json, '{"decision":"__proto__"}')]);
  cases.push(['event body __proto__', request('POST', '/_simulator/events', json, '{"__proto__":{"name":"x"}}')]);
  cases.push(['event body array', request('POST', '/_simulator/events', json, '[1,2]')]);
  cases.push(['API key __proto__', request('GET', SEARCH, { ApiKey: '__proto__' })]);
  cases.push(['bearer constructor', request('GET', SEARCH, { Authorization: 'Bearer constructor' })]);
  cases.push(['DELETE on a GET endpoint', request('DELETE', '/api/events', k)]);
  cases.push(['URL of 12,000 characters', request('GET', `${SEARCH}&x=${'a'.repeat(12_000)}`, k)]);
  cases.push(['URL of 100,000 characters', request('GET', `/api/events?x=${'a'.repeat(100_000)}`, k)]);
  cases.push(['Content-Length not a number', `POST ${routes} HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n`]);
  cases.push(['unknown method', request('BREW', '/api/events', k)]);
  cases.push([
    'token with __proto__ form keys',
    request(
      'POST',
      '/auth/oauth2/token',
      { 'Content-Type': 'application/x-www-form-urlencoded' },
      '__proto__=1&constructor=2',
    ),
  ]);
  cases.push(['authorize with __proto__', request('GET', '/auth/oauth2/authorize?__proto__=1&client_id=constructor')]);
  cases.push(['viewer class id toString', request('GET', '/viewer/Viewer?classId=toString')]);
  cases.push(['absolute-form target elsewhere', request('GET', 'http://[::1/api/events', k)]);
  return cases;
}

describe('a corpus of malformed requests', () => {
  it('answers every one with a 4xx, never a 500, and keeps serving with bounded memory', async () => {
    const before = process.memoryUsage().rss;
    const cases = corpus();
    expect(cases.length).toBeGreaterThanOrEqual(40);
    const answers: Array<[string, number | undefined, string]> = [];
    for (const [name, text] of cases) {
      const answer = await raw(port, text);
      answers.push([name, answer.status, answer.body.slice(0, 300)]);
    }
    const wrong = answers.filter(([, status]) => status === undefined || status < 400 || status >= 500);
    expect(wrong).toEqual([]);
    // And none counted as a 500 by the simulator itself (what integrators read from /_simulator/stats).
    const counted = Object.entries(h.sim.stats.snapshot().byEndpoint).filter(([, byStatus]) => '500' in byStatus);
    expect(counted).toEqual([]);
    // The simulator still serves, with its clock intact, after all of it.
    const after = await h.api('/events?from=2024-01-01T00:00:00Z&paging=0:5');
    expect(after.status).toBe(200);
    expect(Number.isNaN(h.sim.state.clock.now())).toBe(false);
    // Stated bound: the corpus (a few hundred kB of requests) grows this process by less than 100 MB.
    expect(process.memoryUsage().rss - before).toBeLessThan(100 * 1024 * 1024);
  });
});

describe('bodies are refused before they are read', () => {
  it('answers a Content-Length over the route-import limit with 413 at once and closes the connection', async () => {
    // Headers only: a server that waited for the body would never answer within the wait.
    const head = `POST /api/importableRoutes HTTP/1.1\r\nHost: 127.0.0.1\r\nApiKey: ${h.sim.info.apiKey}\r\nContent-Type: application/json\r\nContent-Length: ${MAX_ROUTE_BODY_BYTES + 1}\r\n\r\n`;
    const answer = await raw(port, head, 3000);
    expect(answer.status).toBe(413);
    expect(answer.head.toLowerCase()).toContain('connection: close');
    expect(answer.body).toContain(String(MAX_ROUTE_BODY_BYTES));
  });

  it('takes a route body at the limit: the client and the simulator share MAX_ROUTE_BODY_BYTES', async () => {
    const head = `POST /api/importableRoutes HTTP/1.1\r\nHost: 127.0.0.1\r\nApiKey: ${h.sim.info.apiKey}\r\nContent-Type: application/json\r\nContent-Length: ${MAX_ROUTE_BODY_BYTES}\r\n\r\n`;
    // The server waits for a body it accepts: no answer while none is sent.
    expect((await raw(port, head, 500)).status).toBeUndefined();
  });

  it('answers an unauthenticated upload with 403 before its body arrives', async () => {
    const head = `POST /api/importableRoutes HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${10 * 1024 * 1024}\r\n\r\n`;
    const answer = await raw(port, head, 3000);
    expect(answer.status).toBe(403);
    expect(answer.head.toLowerCase()).toContain('connection: close');
  });

  it('cuts a chunked body at the endpoint limit (1 MiB for the controls) with 413', async () => {
    const chunk = 'x'.repeat(256 * 1024);
    const chunks = Array.from({ length: 8 }, () => `${chunk.length.toString(16)}\r\n${chunk}\r\n`).join('');
    const text = `POST /_simulator/clock HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${chunks}`;
    const answer = await raw(port, text, 3000);
    expect(answer.status).toBe(413);
    expect(answer.body).toContain(String(1024 * 1024));
  });

  it('answers 414 to a request target over 8,192 characters, and 431 past the header limit', async () => {
    expect((await raw(port, request('GET', `${SEARCH}&x=${'a'.repeat(9000)}`, key))).status).toBe(414);
    expect((await raw(port, request('GET', `${SEARCH}&x=${'a'.repeat(20_000)}`, key))).status).toBe(431);
  });

  it('answers 415 to a route sent as another media type than JSON', async () => {
    const res = await h.post('/importableRoutes', '{"data":"AAAA"}', { ...h.key, 'content-type': 'text/plain' });
    expect(res.status).toBe(415);
  });
});

/** Body bytes the simulator charges to its budget now (GET /_simulator/memory has the same). */
function bodyBytes(): number {
  return s!.sim.memory().bodyBytesInFlight!;
}

let s: SimHarness | undefined;
describe('limits that bound what the simulator holds', () => {
  const trickles: Trickle[] = [];
  afterEach(async () => {
    for (const t of trickles.splice(0)) t.stop();
    await s?.sim.close();
    s = undefined;
  });

  /** A simulator with the smallest budget allowed (one largest route body): its port and API key. */
  async function smallBudget(): Promise<{ p: number; key: string }> {
    s = await startHarness({ events: 5, maxBodyBytesInFlight: MAX_ROUTE_BODY_BYTES });
    return { p: Number(new URL(s.sim.info.baseUrl).port), key: s.sim.info.apiKey };
  }

  /** An upload declaring `size` bytes, stopped after the test; `sendMiB` MiB of it sent (past 1 MiB: `size` reserved). */
  async function upload(p: number, key: string, size: number, sendMiB = 0): Promise<Trickle> {
    const t = new Trickle(p, routeUploadHead(key, size));
    trickles.push(t);
    if (sendMiB > 0) {
      await t.send(Buffer.alloc(sendMiB * 1024 * 1024, 0x20));
      await until(() => bodyBytes() >= size, `${size} bytes reserved`);
    }
    return t;
  }

  it('answers 503 with Retry-After before the body when its declared size does not fit beside what others hold', async () => {
    const { p, key } = await smallBudget();
    // Past its first MiB, an upload has its declared size reserved: here all but 500 bytes of the budget.
    const first = await upload(p, key, MAX_ROUTE_BODY_BYTES - 500, 2);
    expect(bodyBytes()).toBe(MAX_ROUTE_BODY_BYTES - 500);
    const second = await raw(p, routeUploadHead(key, 800), 3000);
    expect(second.status).toBe(503);
    expect(second.head.toLowerCase()).toContain('retry-after: 1');
    // What the rest of the budget takes is still admitted.
    const body = JSON.stringify({ id: 'beside', data: 'QUFB' });
    expect((await raw(p, routeUploadHead(key, Buffer.byteLength(body)) + body, 3000)).status).toBe(200);
    first.stop();
    await until(() => bodyBytes() === 0, 'body bytes in flight: 0');
    const large = JSON.stringify({ id: 'after', data: 'QUFB'.repeat(1000) });
    expect((await raw(p, routeUploadHead(key, Buffer.byteLength(large)) + large, 3000)).status).toBe(200);
  });

  it('answers 503 mid-body to the upload whose arriving bytes would pass the budget, and closes its connection', async () => {
    const { p, key } = await smallBudget();
    await upload(p, key, MAX_ROUTE_BODY_BYTES - 1000, 2);
    // Two uploads of 900 bytes are both admitted (each fits while nothing of the other has arrived), but not both.
    const a = await upload(p, key, 900);
    const b = await upload(p, key, 900);
    await until(() => s!.sim.requestsInFlight === 3, 'requests in flight');
    await a.send(Buffer.alloc(899, 0x20));
    await until(
      () => bodyBytes() === MAX_ROUTE_BODY_BYTES - 1000 + 899,
      'body bytes in flight: MAX_ROUTE_BODY_BYTES - 1000 + 899',
    );
    await b.send(Buffer.alloc(900, 0x20));
    const refused = await b.ended;
    expect(refused.status).toBe(503);
    expect(refused.head.toLowerCase()).toContain('connection: close');
    expect(refused.body).toContain('maxBodyBytesInFlight');
    // Its bytes were given back at once; the others' are still held.
    expect(bodyBytes()).toBe(MAX_ROUTE_BODY_BYTES - 1000 + 899);
  });

  it("reserves an upload's declared size once its first MiB is in, refusing one that no longer fits then", async () => {
    const { p, key } = await smallBudget();
    const size = 40 * 1024 * 1024;
    // Both admitted: nothing of either has arrived, and each alone fits.
    const first = await upload(p, key, size);
    const second = await upload(p, key, size);
    await until(() => s!.sim.requestsInFlight === 2, 'requests in flight');
    await first.send(Buffer.alloc(2 * 1024 * 1024, 0x20));
    await until(() => bodyBytes() === size, 'its size reserved');
    await second.send(Buffer.alloc(2 * 1024 * 1024, 0x20));
    const refused = await second.ended;
    expect(refused.status).toBe(503);
    expect(refused.body).toContain('maxBodyBytesInFlight');
    expect(bodyBytes()).toBe(size);
    expect(first.answered).toBe(false);
  });

  it('keeps at most maxRoutes routes, evicting the oldest, whose status then says so', async () => {
    s = await startHarness({ events: 5, maxRoutes: 3, importDelayMs: 0 });
    for (const id of ['r1', 'r2', 'r3', 'r4', 'r5'])
      expect((await s.post('/importableRoutes', { id, data: 'QUFB' })).status).toBe(200);
    // A re-post makes r3 the newest: r4 goes next.
    expect((await s.post('/importableRoutes', { id: 'r3', data: 'QUFB' })).status).toBe(200);
    expect((await s.post('/importableRoutes', { id: 'r6', data: 'QUFB' })).status).toBe(200);
    expect(s.sim.routes().map((r) => r.id)).toEqual(['r5', 'r3', 'r6']);
    const gone = await s.api('/importableRoutes/r1');
    expect(gone.status).toBe(404);
    expect(gone.json().message).toContain('evicted');
    expect((await s.api('/importableRoutes/r6')).status).toBe(200);
  });

  it('evicts the oldest routes once their data passes maxRouteBytes, never the newest', async () => {
    s = await startHarness({ events: 5, maxRouteBytes: 10_000 });
    const state = s.sim.state;
    // Stored directly: over HTTP the parser drops each route's base64 right after its POST, before the next arrives.
    const store = (id: string, chars: number) =>
      state.storeRoute(state.routeKey('app:t', id), {
        id,
        identity: 'app:t',
        routeNumber: state.nextRouteNumber(),
        receivedMs: 0,
        readyMs: 0,
        data: 'A'.repeat(chars),
        postCount: 1,
      });
    for (const id of ['a', 'b', 'c']) store(id, 4000);
    expect([...state.routes.values()].map((r) => r.id)).toEqual(['b', 'c']);
    expect(state.routeBytes).toBe(8000);
    // One route larger than the whole budget is kept alone rather than refused after it was accepted.
    store('huge', 20_000);
    expect([...state.routes.values()].map((r) => r.id)).toEqual(['huge']);
    const memory = (await http('GET', `${s.sim.info.controlUrl}/memory`)).json();
    expect(memory).toMatchObject({ routes: 1, routeBytes: 20_000, evictedRoutes: 3 });
  });

  it('cuts off a client whose body does not arrive within requestTimeoutMs with 408', async () => {
    s = await startHarness({ events: 5, requestTimeoutMs: 300 });
    const p = Number(new URL(s.sim.info.baseUrl).port);
    const head = `POST /_simulator/clock HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"adv`;
    const started = Date.now();
    const answer = await raw(p, head, 10_000);
    expect(answer.status).toBe(408);
    // Cut off by the timeout, not by the test's own 10 s wait.
    expect(Date.now() - started).toBeLessThan(9000);
    // A client gone mid-body is not the simulator's failure: no 500 is counted for it.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const counted = Object.entries(s.sim.stats.snapshot().byEndpoint).filter(([, byStatus]) => '500' in byStatus);
    expect(counted).toEqual([]);
  });
});

describe('the simulated clock', () => {
  it('refuses advances past its bound with 400 and keeps valid dates', async () => {
    const s = await startHarness({ events: 5 });
    try {
      const clock = `${s.sim.info.controlUrl}/clock`;
      const advance = (ms: number) =>
        raw(Number(new URL(clock).port), request('POST', '/_simulator/clock', json, JSON.stringify({ advanceMs: ms })));
      const century = 100 * 365.25 * 24 * 3600_000;
      for (let i = 0; i < 10; i++) expect((await advance(century)).status).toBe(200);
      const refused = await advance(century);
      expect(refused.status).toBe(400);
      expect(refused.body).toContain('advanceMs');
      expect(new Date(s.sim.state.clock.now()).toISOString()).toMatch(/^\+?\d+-\d\d-\d\dT/);
      expect((await s.api('/events?from=2024-01-01T00:00:00Z&paging=0:1')).status).toBe(200);
    } finally {
      await s.sim.close();
    }
  });
});

describe('simulator options', () => {
  it('refuses a body budget smaller than one largest route body, which would answer such uploads 503 for ever', async () => {
    await expect(startHarness({ maxBodyBytesInFlight: MAX_ROUTE_BODY_BYTES - 1 })).rejects.toThrow(
      /maxBodyBytesInFlight: must be at least/,
    );
  });
});
