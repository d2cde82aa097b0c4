/**
 * A file edited after its import (the same file, the same runner, the same start: a trimmed finish, a glitch fixed)
 * gets another content id. The service keeps the earlier route (it has no delete), so the job never makes that second
 * route silently: the report names the earlier id (`changed`), and under a manifest's own id the edit replaces it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeGpx } from '../../src/gps/write.js';
import type { TrackPoint } from '../../src/gps/types.js';
import { importRoutesJob, type RouteToImport } from '../../src/jobs/import-routes/job.js';
import { openImportJournal } from '../../src/store/import-journal.js';
import { FAST, ImportBench } from '../helpers/import-routes.js';
import { routableEvents, runCourse } from '../helpers/tracks.js';
import type { Simulator } from '../../src/simulator/server.js';

const bench = new ImportBench();
afterAll(() => bench.close());

const anna = { firstName: 'Anna', lastName: 'Berg' };

/** A run of the first routable event's first class, and a way to write it (or an edit of it) to `name`. */
function runOf(s: Simulator, offsetMs = 0): { points: TrackPoint[]; write: (name: string, p: TrackPoint[]) => string } {
  const event = routableEvents(s.state.dataset.events)[0]!;
  const points = runCourse(event, event.classes[0]!.id, event.startMs + 60_000 + offsetMs);
  return {
    points,
    write: (name, p) => {
      const file = join(bench.dir, name);
      writeFileSync(file, writeGpx(p));
      return file;
    },
  };
}

describe('importRoutesJob: a file edited after its import', () => {
  it('is imported as a new route and reported with the id it was imported under before', async () => {
    const s = await bench.sim();
    const c = bench.client(s);
    const journal = bench.journal('edited');
    const { points, write } = runOf(s);
    const route: RouteToImport = { file: write('anna.gpx', points), person: anna };
    const first = await importRoutesJob({ client: c, journal, routes: [route], ...FAST });
    expect(first.routes[0]!.changed).toBeUndefined();
    const earlierId = first.routes[0]!.id!;

    // The finish trimmed: same file, same runner, same start.
    write('anna.gpx', points.slice(0, -3));
    const second = await importRoutesJob({ client: c, journal, routes: [route], ...FAST });
    expect(second.routes[0]!.id).not.toBe(earlierId);
    expect(second.routes[0]!.changed).toEqual({ id: earlierId, imported: true, replaced: false });
    expect(s.routes()).toHaveLength(2);

    // Said once: the next run finds the new version imported and skips it quietly.
    const third = await importRoutesJob({ client: c, journal, routes: [route], ...FAST });
    expect(third.routes[0]).toMatchObject({ status: 'skipped', id: second.routes[0]!.id });
    expect(third.routes[0]!.changed).toBeUndefined();
    // A dry run says the same before anything is sent.
    write('anna.gpx', points.slice(0, -5));
    const dry = await importRoutesJob({ client: c, journal, routes: [route], dryRun: true, ...FAST });
    expect(dry.routes[0]).toMatchObject({
      decision: 'post',
      changed: { id: second.routes[0]!.id, imported: true, replaced: false },
    });
  });

  it('replaces the earlier version under a manifest id, and a changed class alone is no edit', async () => {
    const s = await bench.sim();
    const c = bench.client(s);
    const journal = bench.journal('manifest-id');
    const { points, write } = runOf(s, 1000);
    const route: RouteToImport = { file: write('bo.gpx', points), person: anna, id: 'tc-2025-0017' };
    await importRoutesJob({ client: c, journal, routes: [route], ...FAST });
    write('bo.gpx', points.slice(1));
    const edited = await importRoutesJob({ client: c, journal, routes: [route], ...FAST });
    expect(edited.routes[0]).toMatchObject({
      id: 'tc-2025-0017',
      changed: { id: 'tc-2025-0017', imported: true, replaced: true },
    });
    expect(s.routes()).toEqual([expect.objectContaining({ id: 'tc-2025-0017', postCount: 2 })]);

    const event = routableEvents(s.state.dataset.events)[0]!;
    const reclassed = await importRoutesJob({
      client: c,
      journal,
      routes: [{ ...route, classId: event.classes[1]!.id }],
      ...FAST,
    });
    expect(reclassed.routes[0]!.changed).toBeUndefined();
    expect(s.routes()).toEqual([expect.objectContaining({ id: 'tc-2025-0017', postCount: 3 })]);
  });

  it('tells runs apart by runner and start: another runner or another start is not an edit', async () => {
    const s = await bench.sim();
    const c = bench.client(s);
    const journal = bench.journal('other-runs');
    const { points, write } = runOf(s, 2000);
    const file = write('shared.gpx', points);
    await importRoutesJob({ client: c, journal, routes: [{ file, person: anna }], ...FAST });
    const berit = await importRoutesJob({
      client: c,
      journal,
      routes: [{ file, person: { firstName: 'Berit' } }],
      ...FAST,
    });
    expect(berit.routes[0]!.changed).toBeUndefined();
    // The same file name holding another day's run (every point an hour later).
    write(
      'shared.gpx',
      points.map((p) => ({ ...p, time: p.time + 3_600_000 })),
    );
    const later = await importRoutesJob({ client: c, journal, routes: [{ file, person: anna }], ...FAST });
    expect(later.routes[0]!.changed).toBeUndefined();
    expect(s.routes()).toHaveLength(3);
  });

  it('is reported by the run that resumes one killed after posting the edit', async () => {
    const s = await bench.sim();
    const c = bench.client(s);
    const path = join(bench.dir, 'resumed.sqlite');
    const { points, write } = runOf(s, 3000);
    const route: RouteToImport = { file: write('cai.gpx', points), person: anna };
    const j1 = openImportJournal(path);
    const first = await importRoutesJob({ client: c, journal: j1, routes: [route], ...FAST });
    write('cai.gpx', points.slice(0, -2));
    // Posted, not waited for: as a run killed before its polls would leave it.
    const posted = await importRoutesJob({ client: c, journal: j1, routes: [route], wait: false, ...FAST });
    expect(posted.routes[0]!.changed).toMatchObject({ id: first.routes[0]!.id });
    j1.close();
    const j2 = openImportJournal(path);
    const resumed = await importRoutesJob({ client: c, journal: j2, routes: [route], ...FAST });
    j2.close();
    expect(resumed.routes[0]).toMatchObject({
      status: expect.stringMatching(/^(imported|error)$/),
      changed: { id: first.routes[0]!.id, imported: true, replaced: false },
    });
  });
});
