import { describe, expect, it } from 'vitest';
import { ConnectionError, RateLimitError, ServerError, TimeoutError } from '../../src/errors.js';
import { writeGpx } from '../../src/gps/write.js';
import type { FaultKind } from '../../src/simulator/faults.js';
import type { SimulatorOptions } from '../../src/simulator/server.js';
import { simulatorPerTest } from '../helpers/simulator.js';
import { routableEvents, runCourse } from '../helpers/tracks.js';

const open = simulatorPerTest();

async function setup(kinds: FaultKind[], rate: number, options: SimulatorOptions = {}, clientOptions = {}) {
  return open(
    { events: 30, faultRate: rate, faultKinds: kinds, faultStallMs: 2000, ...options },
    { headersTimeoutMs: 300, ...clientOptions },
  );
}

const SEARCH = { from: new Date('2024-01-01T00:00:00Z'), paging: { index: 0, size: 5 } };

describe('retries', () => {
  it('retries 5xx answers and raises ServerError after the last retry, one attempt per retry', async () => {
    const { sim, client } = await setup(['503'], 1, { retryAfterS: 0 }, { retry: { maxRetries: 3, baseDelayMs: 5 } });
    const err = await client.events.search(SEARCH).catch((x: unknown) => x);
    expect(err).toBeInstanceOf(ServerError);
    expect(sim.stats.snapshot().faults['503']).toBe(4);
  });

  it('waits what Retry-After asks before retrying a 429, and raises RateLimitError when it never ends', async () => {
    const { client } = await setup(['429'], 1, {}, { retry: { maxRetries: 1 } });
    const t0 = performance.now();
    const err = await client.events.search(SEARCH).catch((x: unknown) => x);
    expect(err).toBeInstanceOf(RateLimitError);
    expect((err as RateLimitError).retryAfterMs).toBe(1000);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(950);
  });

  it('turns a reset connection into ConnectionError and a stall into TimeoutError', async () => {
    const { sim, client } = await setup(['reset'], 1, {}, { retry: { maxRetries: 1, baseDelayMs: 5 } });
    await expect(client.events.search(SEARCH)).rejects.toBeInstanceOf(ConnectionError);
    await client.close();
    await sim.close();
    const stalled = await setup(['stall'], 1, {}, { retry: { maxRetries: 0 } });
    await expect(stalled.client.events.search(SEARCH)).rejects.toBeInstanceOf(TimeoutError);
  });

  it('does not repeat a POST whose id the service makes up', async () => {
    const { sim, client } = await setup(['500'], 1, {}, { retry: { maxRetries: 3, baseDelayMs: 5 } });
    const e = routableEvents(sim.state.dataset.events)[0]!;
    const data = new TextEncoder().encode(writeGpx(runCourse(e, e.classes[0]!.id, e.startMs)));
    await expect(client.routes.import({ data, serviceGeneratedId: true })).rejects.toBeInstanceOf(ServerError);
    expect(sim.stats.count('POST /importableRoutes')).toBe(1);
  });

  it('stops at once when the caller aborts', async () => {
    const { client } = await setup(['stall'], 1, {}, { headersTimeoutMs: 30_000 });
    const controller = new AbortController();
    const pending = client.events.search(SEARCH, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('user cancelled')), 50);
    await expect(pending).rejects.toThrow('user cancelled');
  });
});

describe('acceptance: a service failing one request in five', () => {
  it('completes 200 searches and 200 route imports, each route imported exactly once', async () => {
    const { sim, client } = await setup(
      ['429', '500', '502', '503', 'reset', 'stall'],
      0.2,
      {
        seed: 21,
        events: 200,
        importDelayMs: 100,
        faultStallMs: 1000,
        retryAfterS: 1,
      },
      { retry: { maxRetries: 8, baseDelayMs: 20, maxDelayMs: 200 }, maxConcurrent: 8 },
    );
    const searches = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        client.events.search({ from: new Date(Date.UTC(2022, i % 48, 1)), paging: { index: 0, size: 10 } }),
      ),
    );
    expect(searches).toHaveLength(200);

    const events = routableEvents(sim.state.dataset.events);
    const files = Array.from({ length: 200 }, (_, i) => {
      const e = events[i % events.length]!;
      // A different start minute per file: 200 distinct files, so 200 distinct content-derived ids.
      return new TextEncoder().encode(writeGpx(runCourse(e, e.classes[0]!.id, e.startMs + 3600_000 + i * 60_000)));
    });
    const submitted = await Promise.all(files.map((data) => client.routes.import({ data })));
    const records = await Promise.all(
      submitted.map((s) =>
        client.routes.waitForImport(s.id, { initialDelayMs: 150, pollIntervalMs: 100, timeoutMs: 60_000 }),
      ),
    );
    expect(records.every((r) => r.status === 'imported')).toBe(true);
    const stored = sim.routes();
    expect(stored).toHaveLength(200);
    expect(new Set(stored.map((r) => r.id)).size).toBe(200);
    const faults = sim.stats.snapshot().faults;
    expect(Object.values(faults).reduce((a, b) => a + b, 0)).toBeGreaterThan(50);
  }, 120_000);
});
