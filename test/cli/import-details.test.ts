/**
 * `livelox-bridge import` as an operator meets it (issue 17): `--dry-run` (decisions, nothing sent, the journal byte
 * for byte, no `--out`), progress that shows posting apart from settling, a CSV report whose error column is empty for
 * imported routes, paths relative to where the command runs, `--rate` and `--concurrency`, an edited file reported,
 * and manifests read from their own folder, refused whole for a column they do not have.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../src/core/csv.js';
import { writeGpx } from '../../src/gps/write.js';
import { runBin } from '../helpers/cli.js';
import { importArgs, importCliCases, writeRoutes } from '../helpers/import-cli.js';
import { routableEvents, runCourse } from '../helpers/tracks.js';

const { env, freshSim, caseDir, importJson } = importCliCases('lb-import-details-');
const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

describe('import --dry-run', () => {
  it('says per route what a run would do, sends nothing, leaves the journal byte for byte and writes no --out', async () => {
    const sim = await freshSim();
    const d = caseDir();
    const runs = join(d, 'runs');
    const journal = join(d, 'journal.sqlite');
    writeRoutes(sim, runs, 3, { formats: ['gpx'] });
    expect((await importJson([runs, '--wait', ...importArgs(sim, journal)])).code).toBe(0);
    const [pendingFile] = writeRoutes(sim, runs, 1, { formats: ['gpx'], prefix: 'p', offset: 50 });
    expect((await importJson([pendingFile!, ...importArgs(sim, journal)])).code).toBe(0);
    writeRoutes(sim, runs, 1, { formats: ['fit'], prefix: 'q', offset: 60 });
    writeFileSync(join(runs, 'broken.gpx'), '<gpx><trk>');

    const before = sha256(journal);
    const listing = readdirSync(d).sort();
    sim.stats.reset();
    const out = join(d, 'report.csv');
    const dry = await importJson([runs, '--dry-run', '--wait', '--out', out, ...importArgs(sim, journal)]);
    expect(dry.code, dry.stderr).toBe(1);
    expect(dry.doc).toMatchObject({ ok: false, dryRun: true, interrupted: false });
    const decisions = dry.doc.routes.map((r: { file: string; decision?: string; status: string }) => [
      r.file.slice(runs.length + 1),
      r.decision ?? r.status,
    ]);
    expect(decisions).toEqual([
      ['broken.gpx', 'failed'],
      ['p000.gpx', 'poll'],
      ['q000.fit', 'post'],
      ['r000.gpx', 'skip'],
      ['r001.gpx', 'skip'],
      ['r002.gpx', 'skip'],
    ]);
    expect(sim.stats.snapshot().requests).toBe(0);
    expect(sha256(journal)).toBe(before);
    expect(readdirSync(d).sort()).toEqual(listing);
    expect(existsSync(out)).toBe(false);

    rmSync(join(runs, 'broken.gpx'));
    const table = await runBin(['import', runs, '--dry-run', '--out', out, ...importArgs(sim, journal)], env);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/decision\s+why/);
    expect(table.stdout).toMatch(/p000\.gpx\s+lb-\S+\s+poll\s+posted earlier, not settled/);
    expect(table.stdout).toMatch(/r000\.gpx\s+lb-\S+\s+skip\s+imported earlier: http/);
    expect(table.stdout).toMatch(
      /5 routes: 1 to post, 3 to skip, 1 to poll\. Dry run: nothing was sent, nothing written\./,
    );
    expect(table.stderr).toMatch(/a dry run writes no report: .*report\.csv was left as it is/);
    expect(sim.stats.snapshot().requests).toBe(0);
    expect(sha256(journal)).toBe(before);
    expect(existsSync(out)).toBe(false);
  }, 60_000);

  it('creates no journal where there was none', async () => {
    const sim = await freshSim();
    const d = caseDir();
    writeRoutes(sim, join(d, 'runs'), 2);
    const journal = join(d, 'data', 'journal.sqlite');
    const dry = await importJson([join(d, 'runs'), '--dry-run', ...importArgs(sim, journal)]);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.doc.routes.map((r: { decision: string }) => r.decision)).toEqual(['post', 'post']);
    expect(existsSync(join(d, 'data'))).toBe(false);
    expect(sim.stats.snapshot().requests).toBe(0);
  });
});

describe('import: what a batch shows and writes', () => {
  it('shows routes posted apart from routes settled, and writes no error for an imported route', async () => {
    const sim = await freshSim();
    const d = caseDir();
    writeRoutes(sim, join(d, 'runs'), 6, { formats: ['gpx'] });
    const out = join(d, 'report.csv');
    const args = [join(d, 'runs'), '--wait', '--progress-lines', '--out', out, ...importArgs(sim, join(d, 'j.sqlite'))];
    const r = await runBin(['import', ...args], env);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stderr.split('\n').filter((l) => l.startsWith('progress: '));
    // The first route is posted before any settles: done 0, posted 1, and it is pending.
    expect(lines[0]).toMatch(/^progress: 0\/6 done: posted 1\/6, imported 0, skipped 0, pending 1, failed 0;/);
    expect(lines.at(-1)).toMatch(/^progress: 6\/6 done: posted 6\/6, imported 6, skipped 0, pending 0, failed 0;/);
    const { header, rows } = parseCsv(readFileSync(out, 'utf8'));
    expect(header).toEqual(['file', 'id', 'status', 'event', 'class', 'viewerUrl', 'error', 'changed']);
    expect(rows).toHaveLength(6);
    for (const { cells } of rows) {
      expect(cells[2]).toBe('imported');
      expect(cells[5]).toMatch(/^http/);
      expect(cells.slice(6)).toEqual(['', '']);
    }
  }, 60_000);

  it('names paths relative to where it runs when they are below it, absolute otherwise', async () => {
    const sim = await freshSim();
    const d = caseDir();
    const elsewhere = caseDir();
    writeRoutes(sim, join(d, 'runs'), 1, { formats: ['gpx'] });
    writeRoutes(sim, join(d, 'more'), 1, { formats: ['gpx'], prefix: 'm', offset: 10 });
    const [outside] = writeRoutes(sim, elsewhere, 1, { formats: ['gpx'], prefix: 'o', offset: 20 });
    writeFileSync(join(d, 'runs', 'bad.gpx'), 'not a route');
    const args = ['runs', join(d, 'more'), outside!, join(d, 'missing.gpx'), ...importArgs(sim, join(d, 'j.sqlite'))];
    const r = await importJson(args, { cwd: d });
    expect(r.code).toBe(1);
    expect(r.doc.routes.map((x: { file: string }) => x.file)).toEqual([
      outside,
      'more/m000.gpx',
      'runs/bad.gpx',
      'runs/r000.gpx',
    ]);
    expect(r.doc.problems).toEqual([expect.objectContaining({ path: 'missing.gpx' })]);
    const failed = r.doc.routes.find((x: { file: string }) => x.file === 'runs/bad.gpx');
    expect(failed.errorMessage).toMatch(/^runs\/bad\.gpx: /);
    const text = await runBin(['import', 'runs', ...importArgs(sim, join(d, 'j.sqlite'))], env, { cwd: d });
    expect(text.stdout).toMatch(/^runs\/bad\.gpx\s/m);
    expect(text.stdout).toMatch(/^runs\/r000\.gpx\s/m);
  }, 60_000);

  it('reports a file edited since its import, beside the earlier route', async () => {
    const sim = await freshSim();
    const d = caseDir();
    const event = routableEvents(sim.state.dataset.events)[0]!;
    const points = runCourse(event, event.classes[0]!.id, event.startMs + 90_000);
    const file = join(d, 'anna.gpx');
    writeFileSync(file, writeGpx(points));
    const args = [file, '--wait', '--first-name', 'Anna', ...importArgs(sim, join(d, 'j.sqlite'))];
    const first = await importJson(args);
    expect(first.code, first.stderr).toBe(0);
    writeFileSync(file, writeGpx(points.slice(0, -2)));
    const out = join(d, 'report.csv');
    const edited = await runBin(['import', ...args, '--out', out], env);
    expect(edited.code, edited.stderr).toBe(0);
    const earlier = first.doc.routes[0].id as string;
    expect(edited.stderr).toContain(
      `anna.gpx was edited: imported earlier as ${earlier}; imported now as a new route.`,
    );
    expect(edited.stdout).toMatch(/1 route: 1 imported, 1 edited since an earlier import;/);
    expect(readFileSync(out, 'utf8')).toContain(`imported earlier as ${earlier}; imported now as a new route`);
    expect(sim.routes()).toHaveLength(2);
  }, 60_000);
});

describe('import --rate and --concurrency', () => {
  it('refuses values out of range with a usage error', async () => {
    const sim = await freshSim();
    const d = caseDir();
    const base = [d, ...importArgs(sim, join(d, 'j.sqlite'))];
    for (const [flag, value, words] of [
      ['--rate', '0', /--rate must be within 0\.1\.\.1000, got 0/],
      ['--rate', 'fast', /--rate takes a number, got 'fast'/],
      ['--rate', '5000', /--rate must be within 0\.1\.\.1000/],
      ['--concurrency', '0', /--concurrency must be within 1\.\.32, got 0/],
      ['--concurrency', '33', /--concurrency must be within 1\.\.32, got 33/],
    ] as const) {
      const r = await runBin(['import', ...base, flag, value], env);
      expect(r.code, `${flag} ${value}`).toBe(2);
      expect(r.stderr).toMatch(words);
    }
    expect(sim.stats.snapshot().requests).toBe(0);
  });

  it('sends at most --rate requests a second', async () => {
    const sim = await freshSim();
    const d = caseDir();
    writeRoutes(sim, join(d, 'runs'), 8, { formats: ['gpx'] });
    const r = await runBin(['import', join(d, 'runs'), '--rate', '4', ...importArgs(sim, join(d, 'j.sqlite'))], env);
    expect(r.code, r.stderr).toBe(0);
    // A burst of 4, then one every 250 ms: the 8th POST at least a second after the first.
    const received = [...sim.state.routes.values()].map((x) => x.receivedMs).sort((a, b) => a - b);
    expect(received).toHaveLength(8);
    expect(received.at(-1)! - received[0]!).toBeGreaterThanOrEqual(900);
  }, 60_000);

  it('keeps at most --concurrency requests in flight, and more when asked', async () => {
    const sim = await freshSim({ latencyMs: 100 });
    const d = caseDir();
    writeRoutes(sim, join(d, 'runs'), 12, { formats: ['gpx'] });
    const counted = async (concurrency: string, journal: string) => {
      const relay = await connectionCounter(Number(new URL(sim.info.baseUrl).port));
      const relayed = sim.info.baseUrl.replace(new URL(sim.info.baseUrl).origin, relay.url);
      const args = importArgs(sim, join(d, journal)).map((a) => (a === sim.info.baseUrl ? relayed : a));
      const r = await runBin(
        ['import', join(d, 'runs'), '--wait', '--rate', '1000', '--concurrency', concurrency, ...args],
        env,
      );
      await relay.close();
      expect(r.code, r.stderr).toBe(0);
      return relay.peak;
    };
    expect(await counted('2', 'two.sqlite')).toBeLessThanOrEqual(2);
    sim.state.routes.clear();
    expect(await counted('6', 'six.sqlite')).toBeGreaterThan(2);
  }, 60_000);
});

describe('import --manifest', () => {
  it('reads files relative to the manifest, wherever the command runs', async () => {
    const sim = await freshSim();
    const d = caseDir();
    const [route] = writeRoutes(sim, join(d, 'camp', 'h21'), 1, { formats: ['gpx'] });
    // A decoy where a path relative to the working directory would lead.
    mkdirSync(join(d, 'h21'));
    writeFileSync(join(d, 'h21', 'r000.gpx'), 'not the route');
    writeFileSync(join(d, 'camp', 'runners.csv'), 'file;firstName\nh21/r000.gpx;Anna\n');
    const r = await importJson(['--manifest', 'camp/runners.csv', ...importArgs(sim, join(d, 'j.sqlite'))], { cwd: d });
    expect(r.code, r.stderr).toBe(0);
    expect(r.doc.routes).toEqual([expect.objectContaining({ file: 'camp/h21/r000.gpx', status: 'pending' })]);
    expect(route).toBe(join(d, 'camp', 'h21', 'r000.gpx'));
  });

  it('refuses a manifest with a column it does not have, or a class id of 1e3, and sends nothing for it', async () => {
    const sim = await freshSim();
    const d = caseDir();
    writeRoutes(sim, join(d, 'runs'), 2, { formats: ['gpx'] });
    writeFileSync(join(d, 'runners.csv'), 'file;classId;firstname;club\nruns/r000.gpx;12;Anna;OK Linné\n');
    const typo = await runBin(
      ['import', 'runs', '--manifest', 'runners.csv', ...importArgs(sim, join(d, 'j.sqlite'))],
      env,
      { cwd: d },
    );
    expect(typo.code).toBe(1);
    expect(typo.stderr).toContain(
      "livelox-bridge import: runners.csv: column 'club' is not a manifest column; its columns are file, classId, firstName, lastName, deviceModel, id. Remove or rename it.",
    );
    expect(typo.stderr).toContain('the manifest cannot be used; nothing was sent.');
    expect(sim.stats.snapshot().requests).toBe(0);

    writeFileSync(join(d, 'runners.json'), '[{"file": "runs/r000.gpx", "classId": 1e3}]');
    const exponent = await importJson(['runs', '--manifest', 'runners.json', ...importArgs(sim, join(d, 'j.sqlite'))], {
      cwd: d,
    });
    expect(exponent.code).toBe(1);
    expect(exponent.doc.problems).toEqual([
      expect.objectContaining({
        message: 'runners.json [0], column classId: a number here is a whole number written in digits, got 1e3.',
      }),
    ]);
    // Its file is held back, not imported bare from the folder; the other file goes.
    expect(exponent.doc.routes.map((r: { file: string }) => r.file)).toEqual(['runs/r001.gpx']);
    expect(exponent.doc.skipped).toEqual([
      { path: 'runs/r000.gpx', reason: 'its manifest row is refused (runners.json [0])' },
    ]);
  });
});

/**
 * A TCP relay to the simulator on `port` that counts the connections open at once. undici's agent opens at most its
 * `connections` sockets to one origin (the client's in-flight limit) and reuses them, so the peak is that limit.
 */
async function connectionCounter(
  port: number,
): Promise<{ url: string; readonly peak: number; close(): Promise<void> }> {
  let open = 0;
  let peak = 0;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    open++;
    peak = Math.max(peak, open);
    const upstream = connect(port, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => {
      open--;
      upstream.destroy();
    });
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get peak() {
      return peak;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
