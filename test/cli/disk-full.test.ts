/**
 * A full disk, for real: the state file and the import journal on a small tmpfs, filled up to a few pages before the
 * run. `sync` gets to its commit, which fails: exit 3, the state file named, nothing committed (the state is the last
 * night's), and once there is room the same run gives what it would have given. `import` fills its journal mid-batch:
 * exit 4, the journal named, the report of what was done, and the next run finishes with every route at the service
 * once. Mounting needs root (CI runs as root); elsewhere the tests are skipped and say why.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PortalEvent } from '../../src/ems/portal.js';
import { startSimulator, type Simulator } from '../../src/simulator/server.js';
import { cleanEnv, runBin } from '../helpers/cli.js';
import { fillDisk, mountSmallDisk, unmountSmallDisk } from '../helpers/small-disk.js';
import { importArgs, importSimulator, writeRoutes } from '../helpers/import-cli.js';
import { freezeClock, portalDocument, serviceArgs } from '../helpers/sync-cli.js';
import { logicalState, portalEventOf } from '../helpers/sync.js';

const dir = mkdtempSync(join(tmpdir(), 'lb-disk-full-'));
const env = cleanEnv(dir);
/** The small disk: mounted in beforeAll, when it can be. */
const disk = join(dir, 'disk');
mkdirSync(disk);
mkdirSync(join(dir, 'config'));

const SKIP = mountSmallDisk(disk, '4m');

/** Fills the disk up to `leftBytes`; answers the filler, to remove for room again. */
const fill = (leftBytes: number, name: string): string => fillDisk(disk, leftBytes, name);

afterAll(() => {
  if (SKIP === undefined) unmountSmallDisk(disk);
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(SKIP !== undefined)(`a full disk${SKIP === undefined ? '' : ` (skipped: ${SKIP})`}`, () => {
  let sim: Simulator;
  let nights: [string, string];
  beforeAll(async () => {
    sim = await startSimulator({ port: 0, seed: 7, events: 200 });
    freezeClock(sim);
    const events = [...sim.state.eventsById.values()].sort((a, b) => a.startMs - b.startMs);
    const write = (name: string, portal: PortalEvent[]) => {
      const file = join(dir, name);
      writeFileSync(file, portalDocument(portal));
      return file;
    };
    // The first night: two events a day apart, a small mirror. The second: the whole season, a large commit.
    nights = [
      write(
        'night-1.json',
        events.slice(0, 2).map((e) => portalEventOf(e)),
      ),
      write(
        'night-2.json',
        events.map((e) => portalEventOf(e)),
      ),
    ];
  });
  afterAll(async () => {
    await sim?.close();
  });

  const sync = (state: string, night: 0 | 1, ...args: string[]) =>
    runBin(['sync', nights[night], '--state', state, '--progress', ...serviceArgs(sim), ...args], env);

  it('sync: exit 3 at the commit with the state file named, nothing committed, and the same run once there is room', async () => {
    // What the two nights give on a disk with room.
    const roomy = join(dir, 'roomy.sqlite');
    expect((await sync(roomy, 0)).code).toBe(0);
    const reference = await sync(roomy, 1);
    expect(reference.code, reference.stderr).toBeLessThanOrEqual(1);

    const state = join(disk, 'state.sqlite');
    expect((await sync(state, 0)).code).toBe(0);
    const firstNight = logicalState(state);
    // Room to open the state and take the lock (its shared memory, a few WAL pages), not for the season's commit.
    const filler = fill(96 * 1024, 'filler');
    const full = await sync(state, 1);
    expect(full.code, full.stderr).toBe(3);
    const lines = full.stderr.trim().split('\n');
    expect(lines.at(-2)).toBe('commit: committing');
    expect(lines.at(-1)).toMatch(
      new RegExp(
        `^livelox-bridge sync: ${state}: cannot grow: the disk is full \\(database or disk is full \\(SQLITE_FULL\\)\\)\\. ` +
          'Free some space and run again\\. Nothing was committed: the state is as the last run left it\\.$',
      ),
    );
    expect(logicalState(state)).toEqual(firstNight);
    const json = await sync(state, 1, '--json');
    expect(json.code).toBe(3);
    expect(JSON.parse(json.stdout)).toMatchObject({
      ok: false,
      committed: false,
      error: { code: 'state', reason: 'full', path: state },
    });

    rmSync(filler);
    const again = await sync(state, 1);
    expect(again.code, again.stderr).toBe(reference.code);
    expect(logicalState(state)).toEqual(logicalState(roomy));
    // The disk's room back for the next test.
    for (const suffix of ['', '-wal', '-shm', '.lock']) rmSync(`${state}${suffix}`, { force: true });
  });

  it('import: exit 4 with the journal named and the report of what was done; the next run finishes, each route once', async () => {
    const isim = await importSimulator();
    try {
      const runs = join(dir, 'runs');
      const paths = writeRoutes(isim, runs, 20);
      const journal = join(disk, 'journal.sqlite');
      const args = ['import', runs, '--wait', '--concurrency', '4', '--json', ...importArgs(isim, journal)];
      // The journal exists (a first batch of another route), then the disk fills up to a few pages.
      const other = join(dir, 'other');
      writeRoutes(isim, other, 1, { offset: 500 });
      expect((await runBin(['import', other, ...importArgs(isim, journal)], env)).code).toBe(0);
      const filler = fill(300 * 1024, 'filler-import');

      const full = await runBin(args, env);
      expect(full.code, full.stderr).toBe(4);
      const doc = JSON.parse(full.stdout) as {
        ok: boolean;
        stoppedBy: Record<string, unknown>;
        routes: Array<{ file: string; status: string }>;
      };
      expect(doc.ok).toBe(false);
      expect(doc.stoppedBy).toMatchObject({ code: 'state', reason: 'full', path: journal });
      expect(doc.stoppedBy.message).toContain(`${journal}: cannot grow: the disk is full`);
      // The report says what became of every route: imported before the disk filled, posted and not settled, or not
      // sent (where the disk fills depends on the pace of the batch; never a route failed for it).
      expect(doc.routes.map((r) => r.file)).toEqual(paths);
      for (const r of doc.routes) expect(['imported', 'pending', 'not_sent']).toContain(r.status);
      const text = await runBin(
        args.filter((a) => a !== '--json'),
        env,
      );
      expect(text.code).toBe(4);
      expect(text.stdout).toMatch(/^20 routes: /m);
      expect(text.stderr).toContain(`livelox-bridge import: ${journal}: cannot grow: the disk is full`);

      rmSync(filler);
      const again = await runBin(args, env);
      expect(again.code, again.stderr).toBe(0);
      const done = JSON.parse(again.stdout) as { routes: Array<{ status: string }> };
      expect(new Set(done.routes.map((r) => r.status))).toEqual(new Set(['imported', 'skipped']));
      const ids = isim.routes().map((r) => r.id as string);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.length).toBe(21);
    } finally {
      await isim.close();
    }
  });
});

// Where the disk could not be mounted, say so in the run's output too, not only in a skipped test's name.
if (SKIP !== undefined && existsSync(disk)) console.log(`disk-full tests skipped: ${SKIP}`);
