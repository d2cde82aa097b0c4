import { afterEach, describe, expect, it } from 'vitest';
import { joinUrl } from '../../src/config.js';
import type { FaultKind } from '../../src/simulator/faults.js';
import { http, startHarness, type SimHarness } from '../helpers/simulator.js';

let h: SimHarness | undefined;
afterEach(async () => {
  await h?.sim.close();
  h = undefined;
});

async function faulty(kinds: FaultKind[], rate = 1, extra = {}): Promise<SimHarness> {
  h = await startHarness({ events: 20, faultRate: rate, faultKinds: kinds, faultStallMs: 300, ...extra });
  return h;
}

const SEARCH = '/events?from=2024-01-01T00:00:00Z&paging=0:5';

describe('fault injection', () => {
  it('answers 429 with Retry-After', async () => {
    const s = await faulty(['429']);
    const res = await s.api(SEARCH);
    expect(res.status).toBe(429);
    expect(res.headers['retry-after']).toBe('1');
    expect(s.sim.stats.snapshot().faults).toEqual({ '429': 1 });
  });

  it.each([['500'], ['502'], ['503']] as const)('answers %s when drawn', async (kind) => {
    const s = await faulty([kind]);
    expect((await s.api(SEARCH)).status).toBe(Number(kind));
  });

  it('resets the connection', async () => {
    const s = await faulty(['reset']);
    await expect(s.api(SEARCH)).rejects.toMatchObject({ code: expect.stringMatching(/ECONNRESET|UND_ERR_SOCKET/) });
  });

  it('stalls without answering, then drops the connection', async () => {
    const s = await faulty(['stall']);
    await expect(s.api(SEARCH)).rejects.toMatchObject({ code: expect.stringMatching(/ECONNRESET|UND_ERR_SOCKET/) });
    expect(s.sim.stats.snapshot().faults).toEqual({ stall: 1 });
  });

  it('lets some POSTs take effect before their answer is lost, as a real outage does', async () => {
    const s = await faulty(['500']);
    for (let i = 0; i < 40; i++)
      expect((await s.post('/importableRoutes', { id: `r${i}`, data: 'AAAA' })).status).toBe(500);
    const stored = s.sim.routes().length;
    expect(stored).toBeGreaterThan(5);
    expect(stored).toBeLessThan(35);
  });

  it('fails about the configured share of API requests, deterministically for a seed', async () => {
    const counts: number[] = [];
    for (let run = 0; run < 2; run++) {
      const s = await faulty(['429', '500', '503'], 0.2, { seed: 5 });
      let failed = 0;
      for (let i = 0; i < 200; i++) if ((await s.api(SEARCH)).status !== 200) failed++;
      counts.push(failed);
      await s.sim.close();
      h = undefined;
    }
    expect(counts[0]).toBe(counts[1]);
    expect(counts[0]).toBeGreaterThan(20);
    expect(counts[0]).toBeLessThan(60);
  });

  it('never faults the OAuth, viewer and control endpoints, and can be switched off at run time', async () => {
    const s = await faulty(['500']);
    expect((await http('GET', s.sim.info.controlUrl)).status).toBe(200);
    expect(
      (
        await http('POST', joinUrl(s.sim.info.authUrl, '/oauth2/revoke'), {
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'token=x',
        })
      ).status,
    ).toBe(200);
    expect((await http('GET', `${s.sim.info.viewerUrl}/Viewer?classId=1`)).status).toBe(404);
    expect((await http('GET', `${s.sim.info.controlUrl}/faults`)).json()).toEqual({
      rate: 1,
      kinds: ['500'],
      stallMs: 300,
      script: null,
    });
    const off = await http('PUT', `${s.sim.info.controlUrl}/faults`, { body: JSON.stringify({ rate: 0 }) });
    expect(off.status).toBe(200);
    expect(off.json()).toEqual({ rate: 0, kinds: ['500'], stallMs: 300, script: null });
    expect((await s.api(SEARCH)).status).toBe(200);
  });
});

describe('latency and the clock', () => {
  it('adds the configured latency before answering', async () => {
    h = await startHarness({ events: 5, latencyMs: 150 });
    const t0 = performance.now();
    expect((await h.api('/countries')).status).toBe(200);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(145);
  });

  it('moves the simulated clock forward through the control endpoint and never back', async () => {
    h = await startHarness({ events: 5 });
    const before = Date.parse((await http('GET', `${h.sim.info.controlUrl}/clock`)).json().now);
    const after = (
      await http('POST', `${h.sim.info.controlUrl}/clock`, { body: JSON.stringify({ advanceMs: 86_400_000 }) })
    ).json();
    expect(Date.parse(after.now) - before).toBeGreaterThanOrEqual(86_400_000);
    expect(
      (await http('POST', `${h.sim.info.controlUrl}/clock`, { body: JSON.stringify({ advanceMs: -1 }) })).status,
    ).toBe(400);
  });

  it('counts requests per endpoint and status', async () => {
    h = await startHarness({ events: 5 });
    await h.api('/countries');
    await h.api('/countries', {});
    const stats = (await http('GET', `${h.sim.info.controlUrl}/stats`)).json();
    expect(stats.byEndpoint['GET /countries']).toEqual({ '200': 1, '403': 1 });
  });
});
