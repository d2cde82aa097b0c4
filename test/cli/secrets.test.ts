/**
 * Secrets never leave their header (STYLE.md #6): failing runs of every data command, human and --json, with the key
 * given as a flag or through the environment, must not print the key nor any key of the simulator. The `simulator`
 * command is left out: it prints its own test key by design.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeGpx } from '../../src/gps/write.js';
import { startSimulator, type Simulator } from '../../src/simulator/server.js';
import { runBin, type CliRun } from '../helpers/cli.js';
import { routableEvents, runCourse } from '../helpers/tracks.js';

/** Distinctive, long enough to be registered for redaction, and accepted by nobody. */
const WRONG_KEY = 'lbtest-SECRET-wrong-key-5f1c9a7e3b2d4680';
/** What the embedded simulator's random keys look like (`sim_...`, `sim_limited_...`). */
const SIM_KEY_SHAPE = /sim_(?:limited_)?[A-Za-z0-9_-]{16,}/;

type Run = CliRun;

let sim: Simulator;
let dir: string;
let childEnv: Record<string, string>;
let good: string;
let notGps: string;
let eventId: number;

function cli(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return runBin(args, { ...childEnv, ...env });
}

function addresses(): string[] {
  return ['--base-url', sim.info.baseUrl, '--auth-url', sim.info.authUrl, '--viewer-url', sim.info.viewerUrl];
}

/** Every run twice: human and --json. */
async function both(args: string[], env: Record<string, string> = {}): Promise<Run[]> {
  return Promise.all([cli(args, env), cli([...args, '--json'], env)]);
}

function assertNoSecret(runs: Run[], secrets: string[]): void {
  for (const r of runs) {
    const output = `${r.stdout}\n${r.stderr}`;
    for (const secret of secrets) {
      expect(output.includes(secret), `${JSON.stringify(r.args)} printed a key:\n${output}`).toBe(false);
    }
    expect(output, JSON.stringify(r.args)).not.toMatch(SIM_KEY_SHAPE);
  }
}

beforeAll(async () => {
  sim = await startSimulator({ port: 0, importDelayMs: 200 });
  dir = mkdtempSync(join(tmpdir(), 'lb-secrets-cli-'));
  childEnv = Object.fromEntries(
    Object.entries(process.env).filter(
      (e): e is [string, string] => e[1] !== undefined && !e[0].startsWith('LIVELOX_'),
    ),
  );
  Object.assign(childEnv, { HOME: dir, XDG_CONFIG_HOME: join(dir, 'config') });
  const event = routableEvents(sim.state.dataset.events)[0]!;
  eventId = event.id;
  good = join(dir, 'run.gpx');
  notGps = join(dir, 'notes.txt');
  writeFileSync(good, writeGpx(runCourse(event, event.classes[0]!.id, event.startMs + 3600_000)));
  writeFileSync(notGps, 'no route here\n');
});
afterAll(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

const allKeys = () => [WRONG_KEY, sim.info.apiKey, sim.info.limitedApiKey];

/** A failing invocation of each data command (the key comes from the caller). */
function failingCommands(): string[][] {
  return [
    ['events', '--from', '2026-05-01', '--to', '2026-06-01'],
    ['events', '--from', '2026-05-01', '--country', 'SWE', '--all'],
    ['event', String(eventId)],
    ['countries'],
    ['courses', String(eventId)],
    ['import', good, notGps, '--wait', '--timeout-s', '5'],
    ['status', 'some-route-id'],
    ['link', 'fixtures/ems/stockholm-2-days-stage2.StartList.xml'],
    ['check-courses', 'fixtures/datasets/cannock-chase.courses.xml', '--event-id', String(eventId)],
  ];
}

describe('no key is ever printed', { timeout: 60_000 }, () => {
  it('with a wrong key given as a flag (403 on every command)', async () => {
    const runs = (
      await Promise.all(failingCommands().map((c) => both([...c, ...addresses(), '--api-key', WRONG_KEY])))
    ).flat();
    for (const r of runs) expect(r.code, `${JSON.stringify(r.args)}\n${r.stderr}`).toBe(1);
    // The failure is reported, as a 403 and not as something vaguer.
    const vague = runs.filter((r) => !/403/.test(r.stdout + r.stderr));
    expect(vague.map((r) => `${JSON.stringify(r.args)}\n${r.stdout}${r.stderr}`)).toEqual([]);
    assertNoSecret(runs, allKeys());
  });

  it('with a wrong key from LIVELOX_API_KEY', async () => {
    const env = { LIVELOX_API_KEY: WRONG_KEY, LIVELOX_BASE_URL: sim.info.baseUrl };
    const runs = (await Promise.all(failingCommands().map((c) => both(c, env)))).flat();
    for (const r of runs) expect(r.code, r.stderr).toBe(1);
    assertNoSecret(runs, allKeys());
  });

  it('with a key without course access, an unknown event, unknown routes and bad files', async () => {
    const key = ['--api-key', sim.info.apiKey];
    const limited = ['--api-key', sim.info.limitedApiKey];
    const runs = (
      await Promise.all([
        both(['courses', String(eventId), ...addresses(), ...limited]),
        both(['courses', String(eventId), '--epsg', '999999', ...addresses(), ...key]),
        both(['event', '999999999', ...addresses(), ...key]),
        both(['courses', '999999999', ...addresses(), ...key]),
        both(['status', 'no-such-route', ...addresses(), ...key]),
        both(['import', notGps, join(dir, 'missing.gpx'), dir, ...addresses(), ...key]),
        both(['import', good, '--wait', '--timeout-s', '5', ...addresses(), ...limited]),
        both(['events', '--from', '2026-05-01', '--country', 'Atlantis', ...addresses(), ...key]),
        both(['events', '--near', '1,2', ...addresses(), ...key]),
      ])
    ).flat();
    for (const r of runs.slice(0, 12)) expect(r.code, `${JSON.stringify(r.args)}\n${r.stderr}`).toBe(1);
    assertNoSecret(runs, allKeys());
  });

  it('with a wrong base URL (connection refused) and a malformed one', async () => {
    const runs = (
      await Promise.all([
        both(['countries', '--base-url', 'http://127.0.0.1:9/api', '--api-key', WRONG_KEY]),
        both(['event', '1', '--base-url', 'ftp://example.org', '--api-key', WRONG_KEY]),
      ])
    ).flat();
    for (const r of runs) expect(r.code).not.toBe(0);
    assertNoSecret(runs, allKeys());
  });

  it('with --simulator runs, failing and succeeding', async () => {
    const runs = (
      await Promise.all([
        both(['event', '999999999', '--simulator']),
        both(['courses', '999999999', '--simulator']),
        both(['status', 'no-such-route', '--simulator']),
        both(['import', notGps, '--simulator']),
        both(['events', '--from', '2026-05-01', '--to', '2026-05-08', '--simulator']),
        both(['countries', '--only-having-events', '--simulator']),
        both(['courses', String(eventId), '--simulator', '--api-key', WRONG_KEY]),
      ])
    ).flat();
    for (const r of runs.slice(0, 8)) expect(r.code, `${JSON.stringify(r.args)}\n${r.stderr}`).toBe(1);
    for (const r of runs.slice(8)) expect(r.code, `${JSON.stringify(r.args)}\n${r.stderr}`).toBe(0);
    // The embedded simulator uses its own key: a user's key is ignored, and the user is told so (by name, not value).
    for (const r of runs.slice(12)) expect(r.stderr).toMatch(/simulator's own key and addresses; ignoring --api-key/);
    assertNoSecret(runs, allKeys());
  });

  it('in link and check-courses runs on the embedded simulator, failing and succeeding', async () => {
    const runs = (
      await Promise.all([
        both(['link', 'fixtures/ems/stockholm-2-days-stage2.StartList.xml', '--simulator']),
        both(['link', 'fixtures/ems/stockholm-2-days-stage2.StartList.xml', '--simulator', '--event-id', '999999999']),
        both([
          'check-courses',
          'fixtures/datasets/cannock-chase.courses.xml',
          '--event-id',
          '999999999',
          '--simulator',
        ]),
      ])
    ).flat();
    expect(runs.map((r) => r.code)).toEqual([0, 0, 1, 1, 1, 1]);
    assertNoSecret(runs, allKeys());
  });

  it('in help texts', async () => {
    const runs = await Promise.all(
      ['events', 'event', 'countries', 'courses', 'import', 'status', 'link', 'check-courses'].map((c) =>
        cli([c, '--help'], { LIVELOX_API_KEY: WRONG_KEY }),
      ),
    );
    assertNoSecret(runs, allKeys());
  });
});
