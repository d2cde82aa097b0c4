/**
 * `livelox-bridge import` as a user runs it, against a simulator in this process: folders (with files that are not
 * routes, nested folders and a symlink loop), globs, manifests, re-runs that send nothing twice, a wrong key, hostile
 * files beside good ones, and Ctrl-C in the middle of a batch.
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, symlinkSync } from 'node:fs';
import { writeFileSync, writeSync, ftruncateSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFit } from '../../src/gps/fit-write.js';
import type { Simulator } from '../../src/simulator/server.js';
import { BIN, ROOT, runBin } from '../helpers/cli.js';
import { importArgs, importCliCases, writeRoutes } from '../helpers/import-cli.js';
import { routableEvents, runCourse } from '../helpers/tracks.js';

const { env, freshSim, caseDir, importJson } = importCliCases('lb-import-cli-');

function expectEachOnce(sim: Simulator, count: number): void {
  const ids = sim.routes().map((r) => r.id as string);
  expect(new Set(ids).size).toBe(ids.length);
  expect(ids.length).toBe(count);
}

describe('import: inputs', () => {
  it('reads a folder recursively by content, skips other files, survives a symlink loop, and a re-run sends nothing', async () => {
    const sim = await freshSim();
    const d = caseDir();
    const runs = join(d, 'runs');
    writeRoutes(sim, runs, 6);
    writeRoutes(sim, join(runs, 'nested', 'deeper'), 3, { formats: ['gpx', 'fit', 'tcx'], prefix: 'n', offset: 100 });
    writeFileSync(join(runs, 'README.txt'), 'Routes of the club night.\n');
    // A GPS file without a GPS name is imported for its content.
    const event = routableEvents(sim.state.dataset.events)[0]!;
    writeFileSync(
      join(runs, 'nested', 'track.dat'),
      writeFit(runCourse(event, event.classes[0]!.id, event.startMs + 999_000)),
    );
    symlinkSync('..', join(runs, 'nested', 'loop'));
    const journal = join(d, 'journal.sqlite');
    const first = await importJson([runs, '--wait', ...importArgs(sim, journal)]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.doc.ok).toBe(true);
    expect(first.doc.routes).toHaveLength(10);
    expect(first.doc.routes.map((r: { file: string }) => r.file)).toEqual(
      [...first.doc.routes.map((r: { file: string }) => r.file)].sort(),
    );
    expect(first.doc.routes.filter((r: { status: string }) => r.status !== 'imported')).toEqual([]);
    expect(first.doc.skipped).toEqual([
      { path: `${runs}/README.txt`, reason: expect.stringMatching(/not a GPS file/) },
    ]);
    expectEachOnce(sim, 10);

    const again = await importJson([runs, '--wait', ...importArgs(sim, journal)]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.doc.routes.every((r: { status: string }) => r.status === 'skipped')).toBe(true);
    expect(again.doc.progress.requests).toBe(0);
    expectEachOnce(sim, 10);
    expect(sim.routes().every((r) => r.postCount === 1)).toBe(true);
  }, 60_000);

  it('expands globs itself, takes a file given twice once, and says which glob matched nothing', async () => {
    const sim = await freshSim();
    const d = caseDir();
    const paths = writeRoutes(sim, join(d, 'a'), 4, { formats: ['gpx'] });
    writeRoutes(sim, join(d, 'b'), 2, { formats: ['fit'], prefix: 'f', offset: 100 });
    const args = [
      `${d}/*/*.gpx`,
      `${d}/b/*.fit`,
      paths[0]!,
      `${d}/none/*.gpx`,
      ...importArgs(sim, join(d, 'j.sqlite')),
    ];
    const r = await importJson(args);
    expect(r.code, r.stderr).toBe(1);
    expect(r.doc.routes).toHaveLength(6);
    expect(r.doc.routes.every((x: { status: string }) => x.status === 'pending')).toBe(true);
    expect(r.doc.skipped).toEqual([{ path: paths[0], reason: expect.stringMatching(/same file/) }]);
    expect(r.doc.problems).toEqual([expect.objectContaining({ path: `${d}/none/*.gpx`, code: 'no_match' })]);
    expectEachOnce(sim, 6);
  }, 60_000);

  it('takes a CSV manifest (class, runner, device, id) and a JSON one, and names the row and column of a bad row', async () => {
    const sim = await freshSim();
    const d = caseDir();
    const paths = writeRoutes(sim, join(d, 'm'), 3, { formats: ['gpx'] });
    const event = routableEvents(sim.state.dataset.events)[0]!;
    const classId = event.classes[1]!.id;
    writeFileSync(
      join(d, 'runners.csv'),
      [
        'file;classId;firstName;lastName;deviceModel;id',
        `m/r000.gpx;${classId};Anna;Berg;Forerunner 965;tc-anna`,
        'm/r001.gpx;;Bo;"Ek, Jr";;',
        'm/r002.gpx;twelve;;;;',
      ].join('\r\n'),
    );
    const csv = await importJson(['--manifest', join(d, 'runners.csv'), ...importArgs(sim, join(d, 'j1.sqlite'))]);
    expect(csv.code, csv.stderr).toBe(1);
    expect(csv.doc.problems).toEqual([
      expect.objectContaining({
        code: 'manifest',
        message: expect.stringMatching(/runners\.csv row 4, column classId/),
      }),
    ]);
    expect(csv.doc.routes).toHaveLength(2);
    const anna = sim.routes().find((r) => r.id === 'tc-anna')!;
    expect(anna).toMatchObject({
      classId,
      person: { firstName: 'Anna', lastName: 'Berg' },
      deviceModel: 'Forerunner 965',
    });
    expect(sim.routes().some((r) => (r.person as { lastName?: string } | undefined)?.lastName === 'Ek, Jr')).toBe(true);

    writeFileSync(
      join(d, 'runners.json'),
      JSON.stringify([
        { file: paths[2], person: { firstName: 'Cai' }, classId },
        { file: paths[1], colour: 'red' },
      ]),
    );
    const json = await importJson(['--manifest', join(d, 'runners.json'), ...importArgs(sim, join(d, 'j2.sqlite'))]);
    expect(json.code, json.stderr).toBe(1);
    expect(json.doc.problems).toEqual([
      expect.objectContaining({
        message: expect.stringMatching(/runners\.json \[1\], column colour: is not a manifest column/),
      }),
    ]);
    expect(json.doc.routes).toEqual([expect.objectContaining({ status: 'pending' })]);
  }, 60_000);
});

describe('import: failing well', () => {
  it('refuses an --out or --html it could not write before any route is posted (exit 2, nothing sent)', async () => {
    const sim = await freshSim();
    const d = caseDir();
    const runs = join(d, 'runs');
    writeRoutes(sim, runs, 2);
    const journal = join(d, 'journal.sqlite');
    const html = await runBin(
      ['import', runs, '--html', join(d, 'missing', 'r.html'), ...importArgs(sim, journal)],
      env,
    );
    expect(html.code, html.stderr).toBe(2);
    expect(html.stderr).toMatch(/--html .*missing\/r\.html: the folder .*missing does not exist/);
    const out = await runBin(['import', runs, '--out', join(d, 'runs.csv', 'x.csv'), ...importArgs(sim, journal)], env);
    expect(out.code, out.stderr).toBe(2);
    expect(sim.routes()).toHaveLength(0);
  });

  it('stops at a wrong key with one message, exit 1, and the journal lets the next run import everything', async () => {
    const sim = await freshSim();
    const d = caseDir();
    writeRoutes(sim, join(d, 'runs'), 12);
    const journal = join(d, 'j.sqlite');
    const args = importArgs(sim, journal);
    const wrong = args.map((a) => (a === sim.info.apiKey ? 'sim_wrong_key' : a));
    const r = await runBin(['import', join(d, 'runs'), '--wait', ...wrong], env);
    expect(r.code).toBe(1);
    const lines = r.stderr.split('\n').filter((l) => l.startsWith('livelox-bridge import:'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/API key/);
    expect(r.stdout).toMatch(/12 not sent/);
    expect(sim.routes()).toHaveLength(0);
    const ok = await importJson([join(d, 'runs'), '--wait', ...args]);
    expect(ok.code, ok.stderr).toBe(0);
    expectEachOnce(sim, 12);
  }, 60_000);

  it('reports each hostile file on its own line and imports the rest of the batch', async () => {
    const sim = await freshSim();
    const d = caseDir();
    const runs = join(d, 'runs');
    writeRoutes(sim, runs, 5);
    // 200 MB, sparse: nothing to write, everything to refuse.
    const big = openSync(join(runs, 'huge.gpx'), 'w');
    writeSync(big, '<?xml version="1.0"?><gpx version="1.1" creator="x"><trk><trkseg>');
    ftruncateSync(big, 200 * 1024 * 1024);
    closeSync(big);
    // 10^6 points, streamed to disk.
    const many = openSync(join(runs, 'million.gpx'), 'w');
    writeSync(many, '<?xml version="1.0"?><gpx version="1.1" creator="x"><trk><trkseg>\n');
    const point = '<trkpt lat="59.3" lon="18.0"><time>2024-05-01T10:00:00Z</time></trkpt>\n';
    for (let i = 0; i < 1000; i++) writeSync(many, point.repeat(1000));
    writeSync(many, '</trkseg></trk></gpx>\n');
    closeSync(many);
    const fit = Buffer.from(readFileSync(join(runs, 'r002.fit')));
    writeFileSync(join(runs, 'truncated.fit'), fit.subarray(0, Math.floor(fit.length / 2)));
    // A zip archive's first bytes (local file header) under a GPX name.
    writeFileSync(join(runs, 'archive.gpx'), Buffer.concat([Buffer.from('PK\u0003\u0004'), Buffer.alloc(200, 7)]));
    const r = await importJson([runs, '--wait', ...importArgs(sim, join(d, 'j.sqlite'))]);
    expect(r.code, r.stderr).toBe(1);
    const byFile = new Map(r.doc.routes.map((x: { file: string }) => [x.file.slice(runs.length + 1), x]));
    for (const name of ['huge.gpx', 'million.gpx', 'truncated.fit', 'archive.gpx']) {
      expect(byFile.get(name), name).toMatchObject({ status: 'failed', errorMessage: expect.any(String) });
    }
    expect((byFile.get('huge.gpx') as { error: { reason?: string } }).error).toMatchObject({ reason: 'too_large' });
    const imported = r.doc.routes.filter((x: { status: string }) => x.status === 'imported');
    expect(imported).toHaveLength(5);
    expectEachOnce(sim, 5);
  }, 60_000);

  it('stops on SIGINT: exit 130, what is done, pending and not sent; the next run completes', async () => {
    const sim = await freshSim({ latencyMs: 40 });
    const d = caseDir();
    writeRoutes(sim, join(d, 'runs'), 30, { formats: ['gpx'] });
    const journal = join(d, 'j.sqlite');
    const args = [
      'import',
      join(d, 'runs'),
      '--wait',
      '--concurrency',
      '1',
      '--progress-lines',
      ...importArgs(sim, journal),
    ];
    const stopped = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env });
      let stdout = '';
      let stderr = '';
      let sent = false;
      child.stdout.setEncoding('utf8').on('data', (t: string) => (stdout += t));
      child.stderr.setEncoding('utf8').on('data', (t: string) => {
        stderr += t;
        if (!sent && /progress: 3\/30/.test(stderr)) {
          sent = true;
          child.kill('SIGINT');
        }
      });
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
    expect(stopped.code, stopped.stderr).toBe(130);
    expect(stopped.stderr).toMatch(/stopped\. \d+ done, \d+ pending, \d+ not sent/);
    const notSent = Number(/(\d+) not sent;/.exec(stopped.stderr)![1]);
    expect(notSent).toBeGreaterThan(0);
    expect(stopped.stdout).toMatch(/not sent/);
    const again = await importJson([join(d, 'runs'), '--wait', ...importArgs(sim, journal)]);
    expect(again.code, again.stderr).toBe(0);
    expectEachOnce(sim, 30);
  }, 60_000);
});
