/**
 * `X-Simulator-Scenario` over real HTTP, and the project's own client against each scenario: an integrator's client
 * adds the header to one request (here through an undici interceptor, as any client with a dispatcher can) and the
 * simulator answers that request as asked, leaving everyone else's alone.
 */
import { Agent, type Dispatcher } from 'undici';
import { describe, expect, it } from 'vitest';
import type { SimJournalEntry } from '../../src/simulator/journal.js';
import type { Simulator } from '../../src/simulator/server.js';
import { signedInClient } from '../helpers/oauth-login.js';
import { http, simulatorPerTest } from '../helpers/simulator.js';

const open = simulatorPerTest();

/** A dispatcher that sends `scenario` with the first API request (the path under /api) and nothing after. */
function scenarioOnce(scenario: string, agent: Agent.Options = {}): Dispatcher {
  let left = 1;
  return new Agent(agent).compose((dispatch) => (opts, handler) => {
    if (left === 0 || !opts.path.startsWith('/api/')) return dispatch(opts, handler);
    left--;
    const headers = opts.headers;
    const withScenario = Array.isArray(headers)
      ? [...headers, 'x-simulator-scenario', scenario]
      : { ...(headers as Record<string, string> | undefined), 'x-simulator-scenario': scenario };
    return dispatch({ ...opts, headers: withScenario }, handler);
  });
}

async function apiEntries(sim: Simulator): Promise<SimJournalEntry[]> {
  const res = await http('GET', `${sim.info.controlUrl}/journal?path=/api/`);
  return (res.json() as { entries: SimJournalEntry[] }).entries;
}

function gapMs(a: SimJournalEntry, b: SimJournalEntry): number {
  return Date.parse(b.startedAt) - Date.parse(a.startedAt);
}

describe('scenarios with the project client', () => {
  it('status=429; retry-after=2: the client waits the 2 s asked, then succeeds', async () => {
    const { sim, client } = await open(
      { events: 5 },
      { cache: false, dispatcher: scenarioOnce('status=429; retry-after=2') },
    );
    const countries = await client.countries.list();
    expect(countries.length).toBeGreaterThan(0);
    const [refused, ok] = await apiEntries(sim);
    expect(refused).toMatchObject({ status: 429, scenario: 'status=429; retry-after=2' });
    expect(refused!.responseHeaders['retry-after']).toBe('2');
    expect(ok).toMatchObject({ status: 200 });
    expect(gapMs(refused!, ok!)).toBeGreaterThanOrEqual(1990);
  });

  it('status=503: the client retries a GET and succeeds', async () => {
    const { sim, client } = await open({ events: 5 }, { cache: false, dispatcher: scenarioOnce('status=503') });
    await client.countries.list();
    expect((await apiEntries(sim)).map((e) => e.status)).toEqual([503, 200]);
  });

  it('expired-token: the OAuth client refreshes its token once and repeats the request', async () => {
    const { sim } = await open({ events: 5 });
    const { client, secrets } = await signedInClient(sim, { dispatcher: scenarioOnce('expired-token') });
    try {
      await client.countries.list();
    } finally {
      await client.close();
    }
    const all = (await http('GET', `${sim.info.controlUrl}/journal`)).json().entries as SimJournalEntry[];
    const after = all.slice(all.findIndex((e) => e.scenario === 'expired-token'));
    expect(after.map((e) => `${e.path} ${e.status}`)).toEqual([
      '/api/countries 401',
      '/auth/oauth2/token 200',
      '/api/countries 200',
    ]);
    expect(after[0]!.responseHeaders['www-authenticate']).toContain('invalid_token');
    expect(after[2]!.auth).toEqual({ kind: 'bearer', subject: 'user:sim-user-1' });
    for (const s of secrets) expect(JSON.stringify(all)).not.toContain(s);
  });

  it('stall=1500: the client gives up waiting for headers and its retry succeeds', async () => {
    const { sim, client } = await open(
      { events: 5 },
      // The client's own dispatcher carries the timeout (the client's headersTimeoutMs shapes only one it creates).
      { cache: false, dispatcher: scenarioOnce('stall=1500', { headersTimeout: 300 }) },
    );
    await client.countries.list();
    const [stalled, ok] = await apiEntries(sim);
    expect(stalled).toMatchObject({ status: 'stall', scenario: 'stall=1500' });
    expect(stalled!.durationMs).toBeGreaterThanOrEqual(250);
    // Cut by the client's timeout, not by the end of the stall.
    expect(stalled!.durationMs).toBeLessThan(1400);
    expect(ok!.status).toBe(200);
  });

  it('reset: the client retries a GET after the connection reset', async () => {
    const { sim, client } = await open({ events: 5 }, { cache: false, dispatcher: scenarioOnce('reset') });
    await client.countries.list();
    expect((await apiEntries(sim)).map((e) => e.status)).toEqual(['reset', 200]);
  });
});

describe('the header on its own', () => {
  it('stall=MS hangs that long, then resets the connection', async () => {
    const { sim } = await open({ events: 5 });
    const started = performance.now();
    const failed = await http('GET', `${sim.info.baseUrl}/countries`, {
      headers: { ApiKey: sim.info.apiKey, 'X-Simulator-Scenario': 'stall=300' },
    }).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(failed).toBeInstanceOf(Error);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('answers an unknown or malformed scenario 400 naming the known ones', async () => {
    const { sim } = await open({ events: 5 });
    for (const value of ['teapot', 'status=200', 'status=429; retry-after=soon', 'reset; stall=5', 'retry-after=2']) {
      const res = await http('GET', `${sim.info.baseUrl}/countries`, {
        headers: { ApiKey: sim.info.apiKey, 'X-Simulator-Scenario': value },
      });
      expect(res.status, value).toBe(400);
      const problem = res.json().errors['x-simulator-scenario'][0] as string;
      expect(problem).toContain('the scenarios are: status=NNN');
      expect(problem).toContain('expired-token');
    }
  });

  it('is ignored when scenarios are off', async () => {
    const { sim } = await open({ events: 5, scenarios: false });
    const res = await http('GET', `${sim.info.baseUrl}/countries`, {
      headers: { ApiKey: sim.info.apiKey, 'X-Simulator-Scenario': 'status=503' },
    });
    expect(res.status).toBe(200);
    expect((await http('GET', sim.info.controlUrl)).json().scenarios).toBe(false);
  });

  it('applies to the OAuth endpoints too, but expired-token only to the API', async () => {
    const { sim } = await open({ events: 5 });
    const token = `${sim.info.authUrl}/oauth2/token`;
    const busy = await http('POST', token, { headers: { 'X-Simulator-Scenario': 'status=503; retry-after=1' } });
    expect(busy.status).toBe(503);
    expect(busy.headers['retry-after']).toBe('1');
    const expired = await http('POST', token, { headers: { 'X-Simulator-Scenario': 'expired-token' } });
    expect(expired.status).toBe(400);
    expect(expired.text).toContain('expired-token applies to /api requests only');
  });
});
