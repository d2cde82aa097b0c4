/**
 * `livelox-bridge demo sync|check-courses|import` as the built bin: each job end to end on the embedded simulator
 * with the files in fixtures/demo, its report as the job's own command prints it, its exit code, what it says of the
 * simulator (stops with the command, or `--keep` serves until Ctrl-C), and its --json document.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, ROOT, cleanEnv, runBin, type CliRun } from '../helpers/cli.js';
import { http } from '../helpers/simulator.js';

const home = mkdtempSync(join(tmpdir(), 'lb-demo-cli-'));
const env = cleanEnv(home);
afterAll(() => rmSync(home, { recursive: true, force: true }));

const STOPS =
  /^The events and links above are an embedded simulator's \(http:\/\/127\.0\.0\.1:\d+\), and the simulator stops with this command; run it again with --keep/m;

function demo(args: string[]): Promise<CliRun> {
  return runBin(['demo', ...args], env);
}

/** The temporary folders a demo named in its output: each must be gone when it has ended. */
function tempFolders(text: string): string[] {
  return [...new Set([...text.matchAll(/(\/\S*livelox-bridge-demo-[^/\s]+)/g)].map((m) => m[1]!))];
}

describe('demo sync', { timeout: 60_000 }, () => {
  it("runs sync over three simulated nights with churn, each night's report as sync prints it, and exits as sync", async () => {
    const r = await demo(['sync']);
    // The portal holds a club training the service does not have: every night needs a person, as sync says.
    expect(r.code, r.stderr).toBe(1);
    const out = r.stdout;
    expect(out.match(/^\$ livelox-bridge sync fixtures\/demo\/portal --state \S+portal\.sqlite$/gm)).toHaveLength(3);
    for (const night of [1, 2, 3])
      expect(out).toMatch(new RegExp(`^Night ${night} \\(simulated \\d{4}-\\d\\d-\\d\\d\\):$`, 'm'));
    expect(out.match(/^A simulated day passes: \d+ events? changed on the service/gm)).toHaveLength(2);
    expect(out).toMatch(/^11 portal events: 10 linked, 1 not; 2 requests to the service\.$/m);
    expect(out).toMatch(/^ {2}eventor:40437: linked to Linköpings OK:s vårtävling \(107504\)/m);
    expect(out.match(/^! calendar:2026-035: not found/gm)).toHaveLength(3);
    expect(out.match(/^\(sync exited 1: lines marked ! need a person\)$/gm)).toHaveLength(3);
    expect(out).toMatch(STOPS);
    const temps = tempFolders(out);
    expect(temps).toHaveLength(1);
    expect(existsSync(temps[0]!)).toBe(false);
  });

  it('prints one JSON document: each night with its churn, exit code and sync report, and the simulator stopped', async () => {
    const r = await demo(['sync', '--json', '--churn', '0.1']);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ ok: false, demo: 'sync', exitCode: 1, portal: 'fixtures/demo/portal', churn: 0.1 });
    expect(doc.simulator).toEqual({
      baseUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/api$/),
      authUrl: expect.any(String),
      viewerUrl: expect.any(String),
      controlUrl: expect.any(String),
      kept: false,
    });
    expect(doc.nights.map((n: any) => n.night)).toEqual([1, 2, 3]);
    expect(doc.nights[0].churn).toBeUndefined();
    for (const n of doc.nights) {
      expect(n).toMatchObject({ exitCode: 1, report: { ok: false, committed: true, attention: true } });
      expect(Date.parse(n.clock)).not.toBeNaN();
    }
    expect(Date.parse(doc.nights[2].clock) - Date.parse(doc.nights[0].clock)).toBeGreaterThanOrEqual(2 * 86_400_000);
    for (const n of doc.nights.slice(1)) expect(n.churn.changed).toBeGreaterThan(0);
    const first = doc.nights[0].report;
    expect(first.links.filter((l: any) => l.status === 'linked')).toHaveLength(10);
    // The world changed under the portal: later nights report more than the training still unmatched.
    const later = doc.nights.slice(1).flatMap((n: any) => n.report.changes);
    expect(later.filter((c: any) => c.kind !== 'still_unmatched').length).toBeGreaterThan(0);
  });
});

describe('demo check-courses', { timeout: 60_000 }, () => {
  it("compares the organiser's course file with the demo event's courses and exits 1 for the known differences", async () => {
    const r = await demo(['check-courses']);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(
      /^\$ livelox-bridge check-courses fixtures\/demo\/check-courses\/CourseData\.xml --event-id 190001$/m,
    );
    expect(r.stdout).toMatch(/^Courses of event 190001 against fixtures\/demo\/check-courses\/CourseData\.xml$/m);
    expect(r.stdout).toMatch(/^ {2}Control 35 is \d+ m from where the organiser's file puts it/m);
    expect(r.stdout).toMatch(/^DIFFERENT: 6 differences/m);
    expect(r.stdout).toMatch(/^\(check-courses exited 1: the courses differ\)$/m);
    expect(r.stdout).toMatch(STOPS);
  });

  it('prints the check-courses document with exactly the differences the fixture was made with', async () => {
    const r = await demo(['check-courses', '--json']);
    expect(r.code, r.stderr).toBe(1);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ ok: false, demo: 'check-courses', exitCode: 1, eventId: 190001 });
    expect(doc.report.verdict).toBe('different');
    expect(doc.report.organiser.valid).toBe(true);
    const found = doc.report.findings.map((f: any) => `${f.kind} ${f.course ?? f.control ?? f.class ?? ''}`.trim());
    expect(found.sort()).toEqual(
      [
        'class_course_changed D50',
        'class_missing_on_service Motion',
        'control_moved 35',
        'course_missing_on_service Motion',
        'length_changed Mellan',
        'sequence_changed Mellan',
      ].sort(),
    );
  });
});

describe('demo import', { timeout: 60_000 }, () => {
  it('imports the folder of routes with progress, reports each route as import does, and exits 0', async () => {
    const r = await demo(['import']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^\$ livelox-bridge import fixtures\/demo\/routes --journal \S+imports\.sqlite --wait /m);
    // Not a terminal: a progress line per route posted and settled on stderr, as import --progress-lines writes them.
    expect(r.stderr).toMatch(/^progress: 5\/5 done: posted 5\/5, imported 5,/m);
    expect(r.stdout).toMatch(
      /^fixtures\/demo\/routes\/sara-berg\.tcx +lb-\S+ +imported +Upsala IF:s höstmedel +D21 +http/m,
    );
    expect(r.stdout).toMatch(/^5 routes: 5 imported; \d+ requests to the service\.$/m);
    expect(r.stdout).toMatch(STOPS);
    for (const dir of tempFolders(r.stdout)) expect(existsSync(dir)).toBe(false);
  });

  it("matches every route, GPX, TCX and FIT, to its runner's class (--json)", async () => {
    const r = await demo(['import', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ ok: true, demo: 'import', exitCode: 0, folder: 'fixtures/demo/routes' });
    const byFile = Object.fromEntries(
      doc.report.routes.map((route: any) => [route.file.split('/').pop(), `${route.status} ${route.className}`]),
    );
    expect(byFile).toEqual({
      'erik-holm.gpx': 'imported H21',
      'johan-strand.fit': 'imported H21',
      'sara-berg.tcx': 'imported D21',
      'karin-ek.fit': 'imported D50',
      'olle-nilsson.gpx': 'imported Inskolning',
    });
  });
});

/** Spawns the bin and resolves with the lines it printed up to the first that matches `until`. */
function spawnUntil(args: string[], until: RegExp) {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const lines: string[] = [];
  const ready = new Promise<string[]>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no line matching ${until} in:\n${lines.join('\n')}`)), 30_000);
    createInterface({ input: child.stdout }).on('line', (line) => {
      lines.push(line);
      if (until.test(line)) {
        clearTimeout(timer);
        resolve(lines);
      }
    });
  });
  return { child, exited, ready, stderr: () => stderr };
}

describe('demo --keep', { timeout: 60_000 }, () => {
  it('leaves the simulator serving with its addresses and export block until Ctrl-C, then exits 0', async () => {
    const run = spawnUntil(['demo', 'check-courses', '--keep'], /^Press Ctrl-C to stop\.$/);
    const lines = await run.ready;
    const text = lines.join('\n');
    expect(text).toMatch(
      /^The events and links above are this embedded simulator's, which keeps serving until Ctrl-C/m,
    );
    const exported = Object.fromEntries(
      [...text.matchAll(/^ {2}export (\w+)='([^']*)'$/gm)].map((m) => [m[1]!, m[2]!]),
    );
    // The block `simulator` prints, down to the control address for `simulator clock` in another shell.
    expect(Object.keys(exported)).toEqual(
      expect.arrayContaining(['LIVELOX_BASE_URL', 'LIVELOX_API_KEY', 'LIVELOX_SIMULATOR_URL']),
    );
    // Still serving after the job: the demo event, with the key of the export block.
    const event = await http('GET', `${exported.LIVELOX_BASE_URL}/events/190001`, {
      headers: { ApiKey: exported.LIVELOX_API_KEY! },
    });
    expect(event.status).toBe(200);
    expect(event.json().name).toBe('Upsala IF:s höstmedel');
    const temps = tempFolders(text);
    expect(temps).toHaveLength(1);
    expect(existsSync(temps[0]!)).toBe(true);

    run.child.kill('SIGINT');
    expect(await run.exited).toBe(0);
    expect(run.stderr()).toMatch(/^Simulator stopped\.$/m);
    await expect(http('GET', `${exported.LIVELOX_BASE_URL}/countries`)).rejects.toThrow();
    for (const dir of temps) expect(existsSync(dir)).toBe(false);
  });

  it('with --json prints the document with the kept simulator and its key at once, and exits 0 on SIGTERM', async () => {
    const run = spawnUntil(['demo', 'import', '--keep', '--json'], /^\{/);
    const doc = JSON.parse((await run.ready).at(-1)!);
    expect(doc).toMatchObject({ ok: true, demo: 'import', exitCode: 0 });
    expect(doc.simulator).toMatchObject({ kept: true, apiKey: expect.stringMatching(/^sim_/) });
    const route = doc.report.routes[0];
    expect((await http('GET', route.viewerUrl)).status).toBe(200);
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
  });
});

describe('demo: interruptions and mistakes', { timeout: 60_000 }, () => {
  it('stops at Ctrl-C during a night with exit 130, the job stopped as its own Ctrl-C stops it', async () => {
    const run = spawnUntil(['demo', 'sync'], /^\$ livelox-bridge sync /);
    const lines = await run.ready;
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(130);
    expect(run.stderr()).toMatch(/interrupted/);
    const temps = tempFolders(lines.join('\n'));
    expect(temps).toHaveLength(1);
    expect(existsSync(temps[0]!)).toBe(false);
  });

  it.each([
    [['synk'], /unknown subcommand 'synk'\. Did you mean 'sync'\?/],
    [['check-courses', '--churn', '0.1'], /unknown option '--churn': it is an option of `demo sync`/],
    [['sync', '--churn', '2'], /--churn must be within 0\.\.1/],
    [['sync', '--seed', '2'], /unknown option '--seed': it is an option of `demo`/],
    [['sync', 'import'], /takes no arguments, got 'import'/],
    [['--keep'], /unknown option '--keep': it is an option of `demo sync`, `demo check-courses` or `demo import`/],
  ])('refuses demo %j with exit 2', async (args, message) => {
    const r = await demo(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });
});
