/**
 * `importRoutesJob` with `dryRun`: every route read and checked, each given the decision a run would make from the
 * journal (post, skip, poll, ask, post again), and nothing sent or written: no request reaches the simulator, and a
 * journal opened read-only stays byte for byte as it was. Also how a run shows posting and settling apart.
 */
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importRoutesJob, type ImportProgress } from '../../src/jobs/import-routes/job.js';
import { routeId, sentContentHash } from '../../src/jobs/import-routes/route-id.js';
import { openImportJournal, SqliteImportJournal } from '../../src/store/import-journal.js';
import { FAST, ImportBench } from '../helpers/import-routes.js';

const bench = new ImportBench();
afterAll(() => bench.close());

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

describe('importRoutesJob: dry run', () => {
  it('decides post, skip, poll, ask and post again from the journal, and sends and writes nothing', async () => {
    const s = await bench.sim();
    const c = bench.client(s);
    const routes = bench.files(s, 'dry', 7);
    const path = join(bench.dir, 'dry.sqlite');
    const j = new SqliteImportJournal(path);
    // Routes 0 and 1 imported; route 2 posted without waiting (pending at the service).
    await importRoutesJob({ client: c, journal: j, routes: routes.slice(0, 2), ...FAST });
    await importRoutesJob({ client: c, journal: j, routes: routes.slice(2, 3), wait: false, ...FAST });
    // Route 3: a run killed after its intent, before the answer. Route 4: a class changed in the manifest since.
    const bytes = (i: number) => readFileSync(routes[i]!.file);
    const id3 = routeId(bytes(3));
    j.record({ id: id3, file: routes[3]!.file, contentHash: sentContentHash(bytes(3), {}), state: 'planned' });
    await importRoutesJob({ client: c, journal: j, routes: routes.slice(4, 5), wait: false, ...FAST });
    j.close();
    const changedClass = { ...routes[4]!, classId: 4242 };
    // Route 5 is new; route 6 cannot be read as GPS.
    writeFileSync(routes[6]!.file, 'not a route');
    const planned = [routes[0]!, routes[1]!, routes[2]!, routes[3]!, changedClass, routes[5]!, routes[6]!];

    const before = sha256(path);
    const files = readdirSync(bench.dir).sort();
    s.stats.reset();
    const readOnly = openImportJournal(path, { readOnly: true });
    const attempts = c.transport.attempts;
    const dry = await importRoutesJob({ client: c, journal: readOnly, routes: planned, dryRun: true, ...FAST });
    readOnly.close();

    expect(dry.routes.map((r) => [r.decision, r.status])).toEqual([
      ['skip', 'skipped'],
      ['skip', 'skipped'],
      ['poll', 'not_sent'],
      ['ask', 'not_sent'],
      ['post_again', 'not_sent'],
      ['post', 'not_sent'],
      [undefined, 'failed'],
    ]);
    expect(dry.routes[0]).toMatchObject({ fromJournal: true, viewerUrl: expect.any(String) });
    expect(dry.routes[3]!.id).toBe(id3);
    expect(dry.routes.slice(0, 6).every((r) => typeof r.id === 'string')).toBe(true);
    expect(c.transport.attempts).toBe(attempts);
    expect(s.stats.snapshot().requests).toBe(0);
    expect(sha256(path)).toBe(before);
    expect(readdirSync(bench.dir).sort()).toEqual(files);
    // What it said is what a run does: three POSTs (route 3 asked first: never arrived), route 2 polled.
    const real = await importRoutesJob({ client: c, journal: new SqliteImportJournal(path), routes: planned, ...FAST });
    expect(s.stats.snapshot().byEndpoint['POST /importableRoutes']).toEqual({ '200': 3 });
    expect(s.stats.count('GET /importableRoutes/{id}')).toBeGreaterThan(0);
    expect(real.routes.map((r) => (r.status === 'error' ? 'imported' : r.status))).toEqual([
      'skipped',
      'skipped',
      'imported',
      'imported',
      'imported',
      'imported',
      'failed',
    ]);
  }, 30_000);

  it('reads no journal file into being, and a read-only journal refuses a run that would send', async () => {
    const s = await bench.sim();
    const c = bench.client(s);
    const routes = bench.files(s, 'absent', 2);
    const path = join(bench.dir, 'not', 'there', 'journal.sqlite');
    const journal = openImportJournal(path, { readOnly: true });
    const dry = await importRoutesJob({ client: c, journal, routes, dryRun: true });
    expect(dry.routes.map((r) => r.decision)).toEqual(['post', 'post']);
    expect(readdirSync(bench.dir)).not.toContain('not');
    await expect(importRoutesJob({ client: c, journal, routes })).rejects.toThrow(
      new TypeError('a journal opened read-only is for a dry run only'),
    );
    journal.close();
    expect(s.stats.snapshot().requests).toBe(0);
  });
});

describe('importRoutesJob: progress', () => {
  it('counts routes posted apart from routes settled, and pending while they are waited for', async () => {
    const s = await bench.sim({ importDelayMs: { minMs: 300, maxMs: 400 } });
    const c = bench.client(s);
    const routes = bench.files(s, 'progress', 6);
    const seen: ImportProgress[] = [];
    const result = await importRoutesJob({
      client: c,
      journal: bench.journal('progress'),
      routes,
      importTimeMs: { minMs: 300, maxMs: 400 },
      onProgress: (p) => seen.push(p),
    });
    // Every route posted before the first import settled: the count of routes done says 0 while six are posted.
    const allPosted = seen.find((p) => p.posted === 6)!;
    expect(allPosted).toMatchObject({ imported: 0, errors: 0, pending: 6, waiting: 6 });
    expect(seen.map((p) => p.posted)).toEqual([...seen.map((p) => p.posted)].sort((a, b) => a - b));
    expect(result.progress).toMatchObject({ posted: 6, pending: 0, waiting: 0 });
    expect(result.progress.imported + result.progress.errors).toBe(6);
  });
});
