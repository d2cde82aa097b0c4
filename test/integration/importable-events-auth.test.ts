/**
 * client.importableEvents with OAuth and under faults, against the simulator over real HTTP: the `events.import`
 * scope, an expired token renewed once on 401 and on 403 (the recovery every endpoint shares, auth/strategy.ts),
 * another signed-in user refused, and a create never repeated once it may have reached the service.
 */
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { apiKey } from '../../src/auth/api-key.js';
import { oauth, type OAuthStrategy } from '../../src/auth/oauth.js';
import { MemoryTokenStore } from '../../src/auth/token-store.js';
import { LiveloxClient } from '../../src/client.js';
import { ConnectionError, NotEventAdministratorError, ServerError } from '../../src/errors.js';
import { IMPORTABLE_EVENTS_SCOPE } from '../../src/resources/importable-event-schemas.js';
import { MAY_HAVE_CREATED_EVENT } from '../../src/resources/importable-events.js';
import { startSimulator, type Simulator, type SimulatorOptions } from '../../src/simulator/server.js';
import { courseFile, importableEvent, uploads } from '../helpers/importable-events.js';
import { browserStep } from '../helpers/publish-cli.js';

const DAY_MS = 24 * 3600_000;
const CREATE = 'POST /importableEvents';
const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const o of opened.splice(0).reverse()) await o.close();
});

async function simulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const sim = await startSimulator({ port: 0, events: 5, seed: 19, ...options });
  opened.push(sim);
  return sim;
}

/** A client logged in through the simulator's OAuth flow (the test plays the browser), as the user signed in there. */
async function loggedIn(sim: Simulator, scopes = [IMPORTABLE_EVENTS_SCOPE]): Promise<LiveloxClient> {
  const strategy: OAuthStrategy = oauth({ clientId: sim.info.clientId, scopes, tokenStore: new MemoryTokenStore() });
  const client = new LiveloxClient({
    auth: strategy,
    baseUrl: sim.info.baseUrl,
    authUrl: sim.info.authUrl,
    viewerUrl: sim.info.viewerUrl,
    ratePerSecond: 0,
    retry: { baseDelayMs: 5, maxDelayMs: 20 },
  });
  opened.push(client);
  const req = strategy.authorizationRequest(client, 'http://127.0.0.1:53682/callback');
  const res = await request(req.url);
  await res.body.dump();
  await strategy.completeAuthorization(client, req, new URL(String(res.headers.location)));
  return client;
}

const byStatus = (sim: Simulator, endpoint: string) => sim.stats.snapshot().byEndpoint[endpoint] ?? {};

describe('OAuth', () => {
  it.each([401, 403] as const)(
    'renews an expired token once on %i and repeats the request, on every importable-event endpoint',
    async (expiredTokenStatus) => {
      const sim = await simulator({ expiredTokenStatus });
      const client = await loggedIn(sim);
      const xml = courseFile();
      sim.stats.reset();
      sim.state.clock.advance(DAY_MS);
      const link = await client.importableEvents.create(importableEvent(xml));
      expect(byStatus(sim, CREATE)).toEqual({ [expiredTokenStatus]: 1, 200: 1 });
      expect(sim.stats.count('POST /auth/oauth2/token')).toBe(1);

      // Each endpoint, with a token expired again in between.
      const calls: Array<[string, () => Promise<unknown>]> = [
        ['GET /importableEvents/{id}', () => client.importableEvents.get(link.id)],
        ['PUT /importableEvents/{id}', () => client.importableEvents.update(link.id, importableEvent(xml))],
        [
          'POST /importableEvents/{id}/files/{fileName}',
          () => client.importableEvents.uploadFiles(link.id, uploads(xml)),
        ],
        ['GET /importableEvents/{id}/validationErrors', () => client.importableEvents.validationErrors(link.id)],
      ];
      for (const [endpoint, call] of calls) {
        sim.state.clock.advance(DAY_MS);
        await call();
        expect(byStatus(sim, endpoint)).toEqual({ [expiredTokenStatus]: 1, 200: 1 });
      }
      // The re-import needs the person's first import, in the browser.
      await browserStep(sim, link.id);
      sim.state.clock.advance(DAY_MS);
      await client.importableEvents.import(link.id);
      expect(byStatus(sim, 'PUT /importableEvents/{id}/import')).toEqual({ [expiredTokenStatus]: 1, 200: 1 });
      expect(sim.stats.count('POST /auth/oauth2/token')).toBe(6);
      expect(sim.state.importableEvents.get(link.id)?.owner).toBe('user:sim-user-1');
    },
  );

  it("refuses another signed-in user's importable event: gone to them, and the update says they may not administer it", async () => {
    const sim = await simulator();
    const sigrid = await loggedIn(sim);
    const link = await sigrid.importableEvents.create(importableEvent(courseFile()));
    const switched = await request(`${sim.info.controlUrl}/oauth/user`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ userId: 'sim-user-2' }),
    });
    expect(switched.statusCode).toBe(200);
    await switched.body.dump();
    const anders = await loggedIn(sim);
    expect(await anders.importableEvents.state(link.id)).toEqual({ state: 'gone' });
    const err = await anders.importableEvents.update(link.id, importableEvent(courseFile())).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotEventAdministratorError);
    expect((await sigrid.importableEvents.state(link.id)).state).toBe('not-imported');
  });
});

describe('a create is never repeated once it may have reached the service', () => {
  it.each([
    ['a 500', '500', ServerError],
    ['a reset connection', 'reset', ConnectionError],
  ] as const)('after %s: one POST, and the error says the draft may exist', async (_what, kind, type) => {
    const sim = await simulator({ faultRate: 1, faultKinds: [kind] });
    const client = new LiveloxClient({
      auth: apiKey(sim.info.apiKey),
      baseUrl: sim.info.baseUrl,
      ratePerSecond: 0,
      retry: { baseDelayMs: 5, maxDelayMs: 20 },
    });
    opened.push(client);
    const err = await client.importableEvents.create(importableEvent(courseFile())).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(type);
    expect((err as ServerError).mayHaveTakenEffect).toBe(true);
    expect((err as Error).message).toContain(MAY_HAVE_CREATED_EVENT);
    expect(sim.stats.count(CREATE)).toBe(1);
  });

  it('after a 429 (a refusal at the door) it is sent again', async () => {
    const sim = await simulator({ faultRate: 1, faultKinds: ['429'], retryAfterS: 1 });
    const client = new LiveloxClient({ auth: apiKey(sim.info.apiKey), baseUrl: sim.info.baseUrl, ratePerSecond: 0 });
    opened.push(client);
    const creating = client.importableEvents.create(importableEvent(courseFile()));
    // Once the first attempt has been refused, the door opens: the retry after Retry-After goes through.
    await expect.poll(() => sim.stats.count(CREATE), { interval: 5, timeout: 5000 }).toBeGreaterThan(0);
    sim.faults.settings.rate = 0;
    const link = await creating;
    expect(link.id).toBeTruthy();
    expect(byStatus(sim, CREATE)['200']).toBe(1);
    expect(sim.stats.count(CREATE)).toBeGreaterThan(1);
  });
});
