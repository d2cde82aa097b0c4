/**
 * The simulator as a shared server under slow clients and while it closes: uploads trickled a byte at a time hold
 * only what has arrived and are cut off once slower than the minimum rate, and `close()` lets the requests in flight
 * finish (up to its deadline) while refusing new ones. Slow clients are raw sockets (test/helpers/raw-http.ts).
 * Timing is real (bodies and drains run on this machine's clock, not the simulated one); the waits are generous and the
 * assertions are about order and outcome, never about how long something took.
 */
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { writeGpx } from '../../src/gps/write.js';
import { MAX_ROUTE_BODY_BYTES } from '../../src/resources/routes.js';
import type { Simulator, SimulatorOptions } from '../../src/simulator/server.js';
import { refused, routeUploadHead, Trickle, until } from '../helpers/raw-http.js';
import { http, startHarness } from '../helpers/simulator.js';

let sim: Simulator | undefined;
const trickles: Trickle[] = [];
afterEach(async () => {
  for (const t of trickles.splice(0)) t.stop();
  await sim?.close();
  sim = undefined;
});

async function start(options: SimulatorOptions): Promise<{ sim: Simulator; port: number }> {
  sim = (await startHarness({ events: 20, importDelayMs: 0, ...options })).sim;
  return { sim, port: Number(new URL(sim.info.baseUrl).port) };
}

function trickle(port: number, head: string, everyMs?: number): Trickle {
  const t = new Trickle(port, head, everyMs);
  trickles.push(t);
  return t;
}

/** A real GPX route of `n` points, as the client would post it. */
function routeBody(id: string, n: number): string {
  const start = Date.UTC(2024, 4, 1, 10);
  const points = Array.from({ length: n }, (_, i) => ({
    time: start + i * 1000,
    lat: 59.3 + i * 1e-6,
    lng: 18.0 + i * 1e-6,
  }));
  return JSON.stringify({ id, data: Buffer.from(writeGpx(points)).toString('base64') });
}

describe('slow uploads', () => {
  it("two uploads declaring the largest body and sending a byte every 2 s cannot stop a third client's upload", async () => {
    // Default budget (two of the largest bodies) and rate; a long grace, so that the slow two are certainly still
    // trickling while the third is answered, however loaded this machine is.
    const { sim, port } = await start({ slowBodyGraceMs: 120_000 });
    const slow = [0, 1].map(() => trickle(port, routeUploadHead(sim.info.apiKey, MAX_ROUTE_BODY_BYTES), 2000));
    await until(() => sim.requestsInFlight === 2, 'both slow uploads admitted');
    await until(() => slow.every((t) => t.sent >= 1), 'a byte of each sent');
    // 30,000 points: about 3 MB of body, more than the budget declared by the slow two leaves (nothing).
    const body = routeBody('normal', 30_000);
    expect(body.length).toBeGreaterThan(2 * 1024 * 1024);
    const res = await http('POST', `${sim.info.baseUrl}/importableRoutes`, {
      headers: { ApiKey: sim.info.apiKey, 'content-type': 'application/json' },
      body,
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json()).toMatchObject({ id: 'normal' });
    // Answered while the slow two are still being read: admitted, unanswered, their connections open.
    expect(slow.map((t) => t.answered)).toEqual([false, false]);
    await until(() => sim.requestsInFlight === 2, 'only the slow two left in flight');
    expect(slow.map((t) => t.answered)).toEqual([false, false]);
    // They hold what has arrived of their bodies, a few bytes, not what they declared.
    expect(sim.memory().bodyBytesInFlight).toBeLessThan(1000);
  });

  it('cuts a body arriving slower than minBodyBytesPerSecond with 408 after the grace period, closing the connection', async () => {
    // Node's own request timeout far away, so that the 408 can only come from the rate check.
    const { sim, port } = await start({ slowBodyGraceMs: 1000, requestTimeoutMs: 600_000 });
    const slow = trickle(port, routeUploadHead(sim.info.apiKey, 1000), 200);
    const answer = await slow.ended;
    expect(answer.status).toBe(408);
    expect(answer.head.toLowerCase()).toContain('connection: close');
    expect(answer.body).toContain('16384 bytes/s');
    expect(answer.body).toContain('minBodyBytesPerSecond');
    await until(() => sim.requestsInFlight === 0, 'the cut request gone');
    expect(sim.memory().bodyBytesInFlight).toBe(0);
    expect(sim.stats.snapshot().byEndpoint['POST /api/importableRoutes']).toEqual({ '408': 1 });
  });

  it('takes a body that arrives in pieces as long as it keeps the minimum rate on average', async () => {
    // 100 bytes every 100 ms is about 1000 bytes/s: twenty times the minimum asked here.
    const { sim, port } = await start({ slowBodyGraceMs: 300, minBodyBytesPerSecond: 50 });
    const body = routeBody('steady', 10).padEnd(1500);
    const upload = trickle(port, routeUploadHead(sim.info.apiKey, Buffer.byteLength(body)));
    for (let at = 0; at < body.length; at += 100) {
      await upload.send(body.slice(at, at + 100));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect((await upload.ended).status).toBe(200);
  });

  it('checks no rate when minBodyBytesPerSecond is 0 (Node’s request timeout still applies)', async () => {
    const { sim, port } = await start({ slowBodyGraceMs: 0, minBodyBytesPerSecond: 0, requestTimeoutMs: 1500 });
    const slow = trickle(port, routeUploadHead(sim.info.apiKey, 1000), 100);
    const answer = await slow.ended;
    // The request timeout's 408 (Node's, without the rate message), not the rate check's.
    expect(answer.status).toBe(408);
    expect(answer.body).not.toContain('minBodyBytesPerSecond');
  });
});

describe('close()', () => {
  it('finishes the requests in flight while refusing new connections, then resolves', async () => {
    const { sim, port } = await start({ latencyMs: 3000 });
    const search = () =>
      request(`${sim.info.baseUrl}/events?from=2024-01-01T00:00:00Z&paging=0:5`, {
        headers: { ApiKey: sim.info.apiKey },
      });
    let answered = 0;
    const inFlight = Array.from({ length: 8 }, () =>
      search().then(async (res) => {
        answered++;
        return { status: res.statusCode, connection: res.headers.connection, events: await res.body.json() };
      }),
    );
    await until(() => sim.requestsInFlight === 8, 'all eight requests in flight');
    const closed = sim.close();
    await until(() => refused(port), 'new connections refused');
    // Refused while the eight were still being answered (each waits 3 s of latency).
    expect(answered).toBe(0);
    for (const answer of await Promise.all(inFlight)) {
      expect(answer.status).toBe(200);
      expect(answer.events).toHaveLength(5);
      // No connection is kept for another request while closing.
      expect(answer.connection).toBe('close');
    }
    await closed;
    expect(await refused(port)).toBe(true);
  });

  it('answers 503 to a request whose headers complete while it closes, on a connection opened before', async () => {
    const { sim, port } = await start({ latencyMs: 3000 });
    const held = request(`${sim.info.baseUrl}/events?from=2024-01-01T00:00:00Z`, {
      headers: { ApiKey: sim.info.apiKey },
    });
    await until(() => sim.requestsInFlight === 1, 'a request in flight');
    // Half a request: its connection is not idle, so closing keeps it open.
    const late = trickle(port, `GET /api/countries HTTP/1.1\r\nHost: 127.0.0.1\r\nApiKey: ${sim.info.apiKey}\r\n`);
    // A request on another connection, answered after the half request's bytes were read (they were sent first).
    expect((await http('GET', `${sim.info.controlUrl}/memory`)).status).toBe(200);
    const closed = sim.close();
    await late.send('\r\n');
    const answer = await late.ended;
    expect(answer.status).toBe(503);
    expect(answer.body).toContain('shutting down');
    expect(answer.head.toLowerCase()).toContain('retry-after: 1');
    expect((await held).statusCode).toBe(200);
    await closed;
  });

  it('cuts what still runs at drainTimeoutMs', async () => {
    const { sim, port } = await start({ drainTimeoutMs: 500, slowBodyGraceMs: 600_000 });
    const slow = trickle(port, routeUploadHead(sim.info.apiKey, 100_000), 100);
    await until(() => sim.requestsInFlight === 1 && slow.sent > 0, 'the slow upload in flight');
    await sim.close();
    // Cut off without an answer: the deadline passed while its body still trickled.
    const answer = await slow.ended;
    expect(answer.status).toBeUndefined();
    expect(await refused(port)).toBe(true);
  });

  it('resets a request hanging in an injected stall at once instead of waiting for the stall or the deadline', async () => {
    const { sim } = await start({
      faultRate: 1,
      faultKinds: ['stall'],
      faultStallMs: 600_000,
      drainTimeoutMs: 600_000,
    });
    const stalled = request(`${sim.info.baseUrl}/countries`, { headers: { ApiKey: sim.info.apiKey } }).then(
      () => 'answered',
      (err: { code?: string }) => err.code,
    );
    await until(() => sim.stats.snapshot().faults.stall === 1, 'the request stalled');
    // Within the test's timeout: neither the 10-minute stall nor the 10-minute deadline is waited for.
    await sim.close();
    expect(await stalled).toBe('ECONNRESET');
  });
});

describe('simulator options', () => {
  it.each([
    [{ minBodyBytesPerSecond: -1 }, /minBodyBytesPerSecond: must be a non-negative integer/],
    [{ slowBodyGraceMs: 1.5 }, /slowBodyGraceMs: must be a non-negative integer/],
    [{ drainTimeoutMs: 2 ** 31 }, /drainTimeoutMs: must be at most 2147483647/],
  ])('refuses %j', async (options, message) => {
    await expect(startHarness(options)).rejects.toThrow(message);
  });
});
