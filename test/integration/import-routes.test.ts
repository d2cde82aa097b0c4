import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importRoutesJob } from '../../src/jobs/import-routes/job.js';
import { FAULT_KINDS } from '../../src/simulator/faults.js';
import { realdataPath } from '../helpers/files.js';
import { expectEachOnce, FAST, ImportBench, SETTLED } from '../helpers/import-routes.js';

const REALDATA = [
  'fit/fitparse_activity-small-fenix2-run.fit',
  'fit/fitparse_activity-unexpected-eof_truncated.fit',
  'fit/sportslib_run_2067489619.fit',
  'gpx/gpxpy_korita-zbevnica_gpsbabel_gpx10.gpx',
  'gpx/gpxpy_unicode_with_bom.gpx',
  'gpx/rg2_ellenbrook_garminconnect.gpx',
  'gpx/rg2_invalid.gpx',
  'tcx/rg2_ellenbrook_garminconnect.tcx',
  'tcx/tcxparser_forerunner410_run.tcx',
];

const bench = new ImportBench();
afterAll(() => bench.close());

describe('importRoutesJob: exactly once, pace, hostile files', () => {
  it('imports 1,000 routes exactly once with 20 % faults of every kind', async () => {
    const s = await bench.sim({ faultRate: 0.2, faultStallMs: 200, retryAfterS: 0 });
    const c = bench.client(s, { retry: { baseDelayMs: 5, maxDelayMs: 50, maxRetries: 6 }, headersTimeoutMs: 2000 });
    // Real files from other software (Garmin, gpsbabel, Strava-era FIT and TCX; one of them truncated, one invalid) and
    // generated ones running the simulator's events: 1,000 in all.
    const real = REALDATA.map((path) => ({ file: realdataPath(path) }));
    const routes = [...real, ...bench.files(s, 'faults', 1000 - real.length)];
    const journal = bench.journal('faults');
    const result = await importRoutesJob({ client: c, journal, routes, ...FAST });
    expect(result.interrupted).toBe(false);
    expect(result.routes).toHaveLength(1000);
    expect(result.routes.map((r) => r.file)).toEqual(routes.map((r) => r.file));
    // A file no GPS reader accepts fails on our side and is never sent; every other route ends as the service says.
    const unreadable = result.routes.filter((r) => r.status === 'failed');
    expect(unreadable.map((r) => r.error?.code)).toEqual(unreadable.map(() => 'invalid_input'));
    expect(unreadable.every((r) => real.some((x) => x.file === r.file))).toBe(true);
    for (const r of result.routes.filter((x) => x.status !== 'failed')) expect(SETTLED).toContain(r.status);
    expectEachOnce(s, 1000 - unreadable.length);
    const faults = s.stats.snapshot().faults;
    for (const kind of FAULT_KINDS) expect(faults[kind] ?? 0).toBeGreaterThan(0);
    // Answers lost after the work was done: the retry overwrote the same id instead of adding a route.
    expect(s.routes().some((r) => (r.postCount as number) > 1)).toBe(true);
    expect(
      journal
        .all()
        .map((e) => e.state)
        .filter((st) => !SETTLED.includes(st)),
    ).toEqual([]);
  }, 120_000);

  it('costs at most 2.5 requests per route, in under 1.3x routes / concurrency x import time', async () => {
    // The contract's 5-15 s scaled down 25 times: long enough that the bound measures waiting, not this machine's CPU.
    const importTimeMs = { minMs: 200, maxMs: 600 };
    const s = await bench.sim({ importDelayMs: importTimeMs });
    const c = bench.client(s);
    const routes = bench.files(s, 'pace', 200);
    const started = performance.now();
    const journal = bench.journal('pace');
    const result = await importRoutesJob({ client: c, journal, routes, concurrency: 8, importTimeMs });
    const wallMs = performance.now() - started;
    expect(result.progress.imported + result.progress.errors).toBe(200);
    expect(result.requests / 200).toBeLessThanOrEqual(2.5);
    const meanImportMs = (importTimeMs.minMs + importTimeMs.maxMs) / 2;
    expect(wallMs).toBeLessThan(1.3 * (200 / 8) * meanImportMs);
  }, 60_000);

  it('fails a file that is not GPS, truncated or missing on its own, with its typed error', async () => {
    const s = await bench.sim();
    const c = bench.client(s);
    const routes = bench.files(s, 'hostile', 3);
    const notGps = join(bench.dir, 'hostile', 'not-gps.gpx');
    writeFileSync(notGps, 'hello, not a route');
    const truncated = join(bench.dir, 'hostile', 'cut.gpx');
    writeFileSync(truncated, '<?xml version="1.0"?><gpx><trk><trkseg><trkpt lat="1"');
    const all = [...routes, { file: notGps }, { file: truncated }, { file: join(bench.dir, 'nope.gpx') }];
    const result = await importRoutesJob({ client: c, journal: bench.journal('hostile'), routes: all, ...FAST });
    expect(result.routes.slice(3).map((r) => [r.status, r.error?.code])).toEqual([
      ['failed', 'invalid_input'],
      ['failed', 'invalid_input'],
      ['failed', 'invalid_input'],
    ]);
    for (const r of result.routes.slice(0, 3)) expect(SETTLED).toContain(r.status);
    expectEachOnce(s, 3);
  });

  it('reports an import that ended in error with the service reason, and does not post it again', async () => {
    const s = await bench.sim();
    const c = bench.client(s);
    const [route] = bench.files(s, 'error', 1);
    // A class of another event: the service refuses to connect the route.
    const journal = bench.journal('error');
    const first = await importRoutesJob({ client: c, journal, routes: [{ ...route!, classId: 999_999_999 }], ...FAST });
    expect(first.routes[0]).toMatchObject({ status: 'error', errorMessage: expect.any(String) });
    const again = await importRoutesJob({ client: c, journal, routes: [{ ...route!, classId: 999_999_999 }], ...FAST });
    expect(again.routes[0]).toMatchObject({ status: 'error', fromJournal: true });
    expect(s.routes()[0]!.postCount).toBe(1);
    const retried = await importRoutesJob({
      client: c,
      journal,
      routes: [{ ...route!, classId: 999_999_999 }],
      retryErrors: true,
      ...FAST,
    });
    expect(retried.routes[0]!.status).toBe('error');
    expect(s.routes()[0]!.postCount).toBe(2);
  });
});
