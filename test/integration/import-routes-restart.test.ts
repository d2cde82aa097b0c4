import { readFileSync } from 'node:fs';
import { request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { apiKey } from '../../src/auth/api-key.js';
import { oauth } from '../../src/auth/oauth.js';
import { MemoryTokenStore } from '../../src/auth/token-store.js';
import { AuthError, ConnectionError, ScopeError } from '../../src/errors.js';
import { importRoutesJob } from '../../src/jobs/import-routes/job.js';
import { routeId, sentContentHash } from '../../src/jobs/import-routes/route-id.js';
import { expectEachOnce, FAST, ImportBench, SETTLED } from '../helpers/import-routes.js';

const bench = new ImportBench();
afterAll(() => bench.close());

const POSTS = 'POST /importableRoutes';

describe('importRoutesJob: restart, refusals, abort', () => {
  it('on restart: imported is skipped, posted is polled, planned is asked first (200 resumes, 404 posts once)', async () => {
    const s = await bench.sim();
    const c = bench.client(s);
    const routes = bench.files(s, 'restart', 4);
    const j = bench.journal('restart');
    const ids = routes.map((r) => routeId(readFileSync(r.file), {}));
    const hash = (i: number) => sentContentHash(readFileSync(routes[i]!.file), {});
    const first = await importRoutesJob({ client: c, journal: j, routes: routes.slice(0, 3), wait: false, ...FAST });
    expect(first.routes.map((r) => r.status)).toEqual(['pending', 'pending', 'pending']);
    const settled = await importRoutesJob({ client: c, journal: j, routes: routes.slice(0, 1), ...FAST });
    expect(SETTLED).toContain(settled.routes[0]!.status);
    // Route 1: posted, its answer journaled. Route 2: a crash after its intent and its POST, before the answer was
    // journaled. Route 3: a crash after its intent, before its POST.
    j.record({ id: ids[2]!, file: routes[2]!.file, contentHash: hash(2), state: 'planned' });
    j.record({ id: ids[3]!, file: routes[3]!.file, contentHash: hash(3), state: 'planned' });
    s.stats.reset();
    const again = await importRoutesJob({ client: c, journal: j, routes, ...FAST });
    expect(again.routes[0]).toMatchObject({ status: 'skipped', fromJournal: true, id: ids[0] });
    for (const r of again.routes.slice(1)) expect(SETTLED).toContain(r.status);
    expect(s.stats.snapshot().byEndpoint[POSTS]).toEqual({ '200': 1 });
    // Sorted: the first run's POSTs go out concurrently, so the service stores them in whichever order they arrive.
    const byId = (a: [string, number], b: [string, number]) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);
    expect(
      s
        .routes()
        .map((r): [string, number] => [r.id as string, r.postCount as number])
        .sort(byId),
    ).toEqual(ids.map((id): [string, number] => [id, 1]).sort(byId));
    expect(j.all().filter((e) => !SETTLED.includes(e.state))).toEqual([]);
  }, 30_000);

  it('re-imports a route the service no longer has only with reimportDeleted', async () => {
    const s = await bench.sim();
    const c = bench.client(s);
    const routes = bench.files(s, 'deleted', 2);
    const j = bench.journal('deleted');
    await importRoutesJob({ client: c, journal: j, routes, ...FAST });
    s.state.routes.clear();
    const kept = await importRoutesJob({ client: c, journal: j, routes, ...FAST });
    expect(kept.routes.map((r) => r.status)).toEqual(['skipped', 'skipped']);
    expect(s.routes()).toEqual([]);
    const back = await importRoutesJob({ client: c, journal: j, routes, reimportDeleted: true, ...FAST });
    for (const r of back.routes) expect(SETTLED).toContain(r.status);
    expectEachOnce(s, 2);
  });

  it('stops the batch once when the service cannot be reached at all, the journal consistent', async () => {
    const s = await bench.sim();
    const routes = bench.files(s, 'unreachable', 30);
    // A port nobody listens on: every connection is refused.
    const closed = await bench.sim();
    const url = closed.info.baseUrl;
    await closed.close();
    const c = bench.client(s, { baseUrl: url, retry: { maxRetries: 2, baseDelayMs: 5, maxDelayMs: 10 } });
    const j = bench.journal('unreachable');
    const result = await importRoutesJob({ client: c, journal: j, routes, ...FAST });
    expect(result.stoppedBy).toBeInstanceOf(ConnectionError);
    // As with a refused key: every route counts as not sent, and the one intent written stays `planned` (the next
    // run asks about it before posting). Three attempts of one POST, then nothing more.
    expect(result.progress.notSent).toBe(30);
    expect(j.all().every((e) => e.state === 'planned')).toBe(true);
    expect(j.all().length).toBeLessThanOrEqual(1);
    expect(result.requests).toBe(3);
  });

  it('stops the batch after the first answer to a wrong key, the journal consistent', async () => {
    const s = await bench.sim();
    const c = bench.client(s, { auth: apiKey('sim_wrong_key') });
    const routes = bench.files(s, 'auth', 40);
    const j = bench.journal('auth');
    const result = await importRoutesJob({ client: c, journal: j, routes, concurrency: 4, ...FAST });
    expect(result.stoppedBy).toBeInstanceOf(AuthError);
    expect(result.progress.notSent).toBe(40);
    // The batch's first POST goes alone, so one answer stops it.
    expect(s.stats.snapshot().byEndpoint[POSTS]).toEqual({ '403': 1 });
    expect(s.routes()).toEqual([]);
    expect(j.all().every((e) => e.state === 'planned')).toBe(true);
    // The next run with the right key asks about those intents, then posts each route once.
    const fixed = await importRoutesJob({ client: bench.client(s), journal: j, routes, ...FAST });
    for (const r of fixed.routes) expect(SETTLED).toContain(r.status);
    expectEachOnce(s, 40);
  }, 30_000);

  it('stops the batch with a ScopeError for a token without routes.import', async () => {
    const s = await bench.sim();
    const strategy = oauth({ clientId: s.info.clientId, scopes: ['courses.read'], tokenStore: new MemoryTokenStore() });
    const c = bench.client(s, { auth: strategy });
    const login = strategy.authorizationRequest(c, 'http://127.0.0.1:53682/callback');
    const res = await request(login.url);
    await res.body.dump();
    await strategy.completeAuthorization(c, login, new URL(String(res.headers.location)));
    const routes = bench.files(s, 'scope', 20);
    const result = await importRoutesJob({
      client: c,
      journal: bench.journal('scope'),
      routes,
      concurrency: 2,
      ...FAST,
    });
    expect(result.stoppedBy).toBeInstanceOf(ScopeError);
    expect((result.stoppedBy as ScopeError).scope).toBe('routes.import');
    expect(result.progress.notSent).toBe(20);
    expect(s.stats.snapshot().byEndpoint[POSTS]).toEqual({ '403': 1 });
    expect(s.routes()).toEqual([]);
  });

  it('interrupted by abort: in-flight requests finish and are journaled, and a re-run completes exactly once', async () => {
    const s = await bench.sim();
    const c = bench.client(s);
    const routes = bench.files(s, 'abort', 60);
    const j = bench.journal('abort');
    const controller = new AbortController();
    let seen = 0;
    const result = await importRoutesJob({
      client: c,
      journal: j,
      routes,
      concurrency: 2,
      signal: controller.signal,
      onRoute: () => {
        if (++seen === 10) controller.abort();
      },
      ...FAST,
    });
    expect(result.interrupted).toBe(true);
    expect(result.progress.notSent).toBeGreaterThan(0);
    expect(result.progress.total).toBe(60);
    // Every route the service has is in the journal, at posted or later: nothing sent unrecorded.
    const journaled = new Map(j.all().map((e) => [e.id, e.state]));
    for (const r of s.routes()) expect(['posted', 'pending', ...SETTLED]).toContain(journaled.get(r.id as string));
    const rerun = await importRoutesJob({ client: c, journal: j, routes, ...FAST });
    expect(rerun.interrupted).toBe(false);
    for (const r of rerun.routes) expect([...SETTLED, 'skipped']).toContain(r.status);
    expectEachOnce(s, 60);
    expect(s.routes().every((r) => r.postCount === 1)).toBe(true);
  }, 30_000);
});
