/**
 * The CLI as people use it (issue 12): a reader that closes the pipe early, Ctrl-C, typos, an exported key beside
 * --simulator, retries shown on a terminal, several route ids, the one --json envelope and the simulator's export
 * block. Every run is the built bin in a child process, over real HTTP to a simulator.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/simulator/server.js';
import { BIN, ROOT, cleanEnv, runBin, type CliRun } from '../helpers/cli.js';

const EXPORT = 'fixtures/ems/stockholm-2-days-stage2.StartList.xml';

let sim: Simulator;
let home: string;
let env: Record<string, string>;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, importDelayMs: 100 });
  home = mkdtempSync(join(tmpdir(), 'lb-cli-behaviour-'));
  env = cleanEnv(home);
});
afterAll(async () => {
  await sim.close();
  rmSync(home, { recursive: true, force: true });
});

const at = (s: Simulator = sim) => [
  '--base-url',
  s.info.baseUrl,
  '--viewer-url',
  s.info.viewerUrl,
  '--api-key',
  s.info.apiKey,
];
const cli = (args: string[], extraEnv: Record<string, string> = {}): Promise<CliRun> =>
  runBin(args, { ...env, ...extraEnv });

/** Spawns the bin and lets `act` drive it; resolves with the exit code and both outputs. */
function drive(
  args: string[],
  act: (child: ReturnType<typeof spawn>, output: { stdout: string; stderr: string }) => void,
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env });
    const output = { stdout: '', stderr: '' };
    child.stdout.setEncoding('utf8').on('data', (d: string) => (output.stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (output.stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ args, code, ...output });
    });
    act(child, output);
  });
}

/** A shell command line, run without blocking this process (the simulator it talks to runs here). */
function shell(script: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { cwd: ROOT, env });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 40_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('a reader that stops reading', { timeout: 60_000 }, () => {
  it.each([
    [['countries', ...[]]],
    [['events', '--from', '2020-01-01', '--to', '2027-12-31', '--all', '--page-size', '20']],
  ])('%j | head -1 ends quietly with exit 0, no stack trace', async (args) => {
    const r = await drive([...args, ...at()], (child) => {
      // `head -1`: read the first chunk, then close the pipe while the bin is still writing.
      child.stdout!.once('data', () => child.stdout!.destroy());
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/EPIPE|Error|at .*\.js/);
  });

  it('a shell pipeline into head -1 exits 0 for the bin', async () => {
    const r = await shell(
      `set -o pipefail; "${process.execPath}" "${BIN}" events --from 2020-01-01 --to 2027-12-31 --all ${at().join(' ')} | head -1`,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n').filter(Boolean)).toHaveLength(1);
    expect(r.stderr).not.toMatch(/EPIPE|Error/);
  });
});

describe('Ctrl-C', { timeout: 60_000 }, () => {
  let slow: Simulator;
  beforeAll(async () => {
    // Every answer 300 ms late: a paged export is still running when the signal comes.
    slow = await startSimulator({ port: 0, latencyMs: 300 });
  });
  afterAll(() => slow.close());

  it.each([[false], [true]])('exits 130 saying "interrupted" (--json %s)', async (json) => {
    const args = ['events', '--from', '2020-01-01', '--to', '2027-12-31', '--all', '--page-size', '5', ...at(slow)];
    const r = await drive(json ? [...args, '--json'] : args, (child, output) => {
      // Once the first page is in, the command is busy with requests: interrupt it there.
      const timer = setInterval(() => {
        if (/fetched/.test(output.stderr)) {
          clearInterval(timer);
          child.kill('SIGINT');
        }
      }, 20);
    });
    expect(r.code).toBe(130);
    if (json) {
      expect(JSON.parse(r.stdout)).toEqual({
        ok: false,
        interrupted: true,
        error: { name: 'Interrupted', code: 'interrupted', message: 'interrupted' },
      });
    } else {
      expect(r.stderr).toMatch(/livelox-bridge events: interrupted\n$/);
    }
    expect(r.stdout + r.stderr).not.toMatch(/"failure"|AbortError|received SIGINT/);
  });

  it('SIGTERM ends the command as Ctrl-C does, with exit 143 (128 + 15) as shells report it', async () => {
    const args = ['events', '--from', '2020-01-01', '--to', '2027-12-31', '--all', '--page-size', '5', ...at(slow)];
    const r = await drive(args, (child, output) => {
      const timer = setInterval(() => {
        if (/fetched/.test(output.stderr)) {
          clearInterval(timer);
          child.kill('SIGTERM');
        }
      }, 20);
    });
    expect(r.code).toBe(143);
    expect(r.stderr).toMatch(/livelox-bridge events: interrupted\n$/);
  });
});

describe(
  'typos and other usage mistakes: exit 2 everywhere, with a guess when one is close',
  { timeout: 60_000 },
  () => {
    it('an unknown command names the closest one and points at --help', async () => {
      const r = await cli(['evnets']);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(
        "livelox-bridge unknown command 'evnets'. Did you mean 'events'?\nSee livelox-bridge --help.\n",
      );
    });

    it('a word far from every command gets the list instead of a guess', async () => {
      const r = await cli(['frobnicate']);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/unknown command 'frobnicate'\. Commands: link, sync, .*whoami, simulator, .*version\./);
    });

    it.each([
      [['link', EXPORT, '--fromat', 'csv'], '--fromat', '--format'],
      [['events', '--form', '2026-01-01'], '--form', '--from'],
      [['import', 'x.gpx', '--jounral', 'j.sqlite'], '--jounral', '--journal'],
      [['courses', '1', '--epgs', '3006'], '--epgs', '--epsg'],
      [['sync', 'dir', '--stat', 's.sqlite'], '--stat', '--state'],
      [['check-courses', 'a.xml', '--event-id', '1', '--tolerence-m', '5'], '--tolerence-m', '--tolerance-m'],
      [['status', 'id', '--wiat'], '--wiat', '--wait'],
      [['countries', '--jsno'], '--jsno', '--json'],
    ])('%j: says which option was meant', async (args, typed, meant) => {
      const r = await cli(args);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`unknown option '${typed}'. Did you mean ${meant}?`);
      expect(r.stderr).toContain(`See livelox-bridge ${args[0]} --help.`);
    });

    it('with --json, a usage mistake is the same envelope as any failure', async () => {
      const [command, option] = await Promise.all([cli(['evnets', '--json']), cli(['countries', '--jsno', '--json'])]);
      for (const r of [command, option]) {
        expect(r.code).toBe(2);
        expect(JSON.parse(r.stdout)).toMatchObject({ ok: false, error: { code: 'usage' } });
      }
      expect(JSON.parse(option.stdout).error.message).toContain('Did you mean --json?');
    });

    it('--json and --jsonl together are a usage mistake', async () => {
      const r = await cli(['events', '--from', '2026-01-01', '--json', '--jsonl', ...at()]);
      expect(r.code).toBe(2);
      expect(JSON.parse(r.stdout).error.message).toContain('--json and --jsonl exclude each other');
    });

    it('an unknown country is exit 2 in link as in events, and so is a bad --template', async () => {
      const [link, events, template] = await Promise.all([
        cli(['link', EXPORT, '--country', 'Atlantis', ...at()]),
        cli(['events', '--from', '2026-05-01', '--to', '2026-05-08', '--country', 'Atlantis', ...at()]),
        cli(['link', EXPORT, '--template', 'https://example.org/{nope}', ...at()]),
      ]);
      for (const r of [link, events]) {
        expect(r.code, r.stderr).toBe(2);
        expect(r.stderr).toMatch(/--country: .*Atlantis/);
      }
      expect(template.code, template.stderr).toBe(2);
      expect(template.stderr).toMatch(/--template: .*\{nope\}/);
    });
  },
);

describe('--simulator', { timeout: 60_000 }, () => {
  it("uses the embedded simulator's own key and addresses, and says which of the user's it ignored", async () => {
    const r = await cli(['link', EXPORT, '--simulator', '--base-url', 'http://127.0.0.1:9/api'], {
      LIVELOX_API_KEY: 'lbtest-users-real-key-0123456789abcdef',
      LIVELOX_VIEWER_URL: 'https://www.example.org',
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      "--simulator uses the embedded simulator's own key and addresses; ignoring --base-url, LIVELOX_API_KEY, LIVELOX_VIEWER_URL.",
    );
    expect(r.stdout + r.stderr).not.toContain('lbtest-users-real-key');
    expect(r.stdout).not.toContain('example.org');
  });

  it('says nothing when the user set nothing it overrides', async () => {
    const r = await cli(['countries', '--simulator']);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain('ignoring');
  });
});

describe('retries on a terminal', { timeout: 60_000 }, () => {
  let flaky: Simulator;
  beforeAll(async () => {
    flaky = await startSimulator({ port: 0, faultRate: 1, faultKinds: ['503'] });
  });
  afterAll(() => flaky.close());

  const hasScript = spawnSync('script', ['--version']).status === 0;

  it.skipIf(!hasScript)('say what the service answered, the wait and the attempt (a real pty via script)', async () => {
    const command = [process.execPath, BIN, 'countries', ...at(flaky)].map((a) => `'${a}'`).join(' ');
    // script(1) gives the bin a terminal for stdout and stderr, as an interactive shell would.
    const r = await shell(`script -qec "${command}" /dev/null`);
    expect(r.stdout).toMatch(/GET \/countries: service answered 503, retrying in [\d.]+ s \(attempt 2 of 5\)/);
    expect(r.stdout).toMatch(/attempt 5 of 5/);
    expect(r.code).toBe(1);
  });

  it('stay silent when stderr is not a terminal (scripts read the outcome)', async () => {
    const r = await cli(['countries', ...at(flaky)]);
    expect(r.code).toBe(1);
    expect(r.stderr).not.toContain('retrying');
    expect(r.stderr).toMatch(/503/);
  });
});

describe('the one --json envelope', { timeout: 90_000 }, () => {
  it.each([
    [['countries'], 'countries'],
    [['events', '--from', '2026-05-01', '--to', '2026-06-01'], 'events'],
    [['link', EXPORT], 'links'],
  ])('%j answers {"ok": true, ...} with its list under %s', async (args, key) => {
    const r = await cli([...args, ...at(), '--json']);
    expect(r.code, r.stderr).toBe(0);
    const body = JSON.parse(r.stdout);
    expect(body.ok).toBe(true);
    expect(Array.isArray(body[key])).toBe(true);
  });

  it('a single record is spread beside ok (event)', async () => {
    const id = sim.state.dataset.events[0]!.id;
    const r = await cli(['event', String(id), ...at(), '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: true, id });
  });
});

describe('status of several routes', { timeout: 60_000 }, () => {
  it('looks each id up in turn; an unknown one is a line of the answer and exit 1', async () => {
    const r = await cli(['status', 'no-such-route-a', 'no-such-route-b', ...at(), '--json']);
    expect(r.code).toBe(1);
    const body = JSON.parse(r.stdout);
    expect(body.ok).toBe(false);
    expect(body.routes.map((x: { id: string }) => x.id)).toEqual(['no-such-route-a', 'no-such-route-b']);
    expect(body.routes[0].error.code).toBe('not_found');
  });
});

describe('the simulator command', { timeout: 60_000 }, () => {
  it('prints an export block that points other commands at it in one paste', async () => {
    let used: CliRun | undefined;
    let names: string[] = [];
    const r = await drive(['simulator', '--events', '30'], (child, output) => {
      const timer = setInterval(() => {
        if (!/Press Ctrl-C/.test(output.stdout)) return;
        clearInterval(timer);
        const lines = output.stdout.split('\n').filter((l) => l.trim().startsWith('export '));
        names = lines.map((l) => l.trim().split(/[ =]/)[1]!);
        // The block is shell: pasted before a command, that command needs no flag at all (the simulator's own control
        // commands included).
        const node = `"${process.execPath}" "${BIN}"`;
        const script = `${lines.join('\n')}\n${node} simulator clock >&2 && ${node} countries --only-having-events --json`;
        const shell = spawn('bash', ['-c', script], { cwd: ROOT, env: cleanEnv(home) });
        let stdout = '';
        shell.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
        shell.on('close', (code) => {
          used = { args: ['countries'], code, stdout, stderr: '' };
          child.kill('SIGINT');
        });
      }, 20);
    });
    expect(r.code).toBe(0);
    expect(names).toEqual([
      'LIVELOX_BASE_URL',
      'LIVELOX_AUTH_URL',
      'LIVELOX_VIEWER_URL',
      'LIVELOX_API_KEY',
      'LIVELOX_CLIENT_ID',
      'LIVELOX_SIMULATOR_URL',
    ]);
    expect(used?.code).toBe(0);
    const body = JSON.parse(used!.stdout);
    expect(body.ok).toBe(true);
    expect(body.countries.length).toBeGreaterThan(0);
  });
});

describe('courses in a national grid', { timeout: 60_000 }, () => {
  const LAMBERT_93 =
    '+proj=lcc +lat_0=46.5 +lon_0=3 +lat_1=49 +lat_2=44 +x_0=700000 +y_0=6600000 +ellps=GRS80 +units=m +no_defs';
  const positions = (xml: string) =>
    [...xml.matchAll(/<Position\s+lng="([-\d.]+)"\s+lat="([-\d.]+)"/g)].map((m) => [Number(m[1]), Number(m[2])]);

  it('France: --epsg 2154 (projected by the service) and --proj4 Lambert-93 (projected here) agree', async () => {
    const event = sim.state.dataset.events.find((e) => e.countryCode === 'FRA' && e.courses !== undefined);
    expect(event, 'the simulator holds a French event with courses').toBeDefined();
    const [byCode, byDefinition, both] = await Promise.all([
      cli(['courses', String(event!.id), '--epsg', '2154', ...at()]),
      cli(['courses', String(event!.id), '--proj4', LAMBERT_93, ...at()]),
      cli(['courses', String(event!.id), '--epsg', '2154', '--proj4', LAMBERT_93, ...at()]),
    ]);
    expect(byCode.code, byCode.stderr).toBe(0);
    expect(byDefinition.code, byDefinition.stderr).toBe(0);
    const a = positions(byCode.stdout);
    const b = positions(byDefinition.stdout);
    expect(a.length).toBeGreaterThan(3);
    expect(b).toHaveLength(a.length);
    // Lambert-93 metres: mainland France lies within these bounds.
    for (const [x, y] of a) {
      expect(x).toBeGreaterThan(100_000);
      expect(x).toBeLessThan(1_300_000);
      expect(y).toBeGreaterThan(6_000_000);
      expect(y).toBeLessThan(7_200_000);
    }
    a.forEach(([x, y], i) => expect(Math.hypot(x! - b[i]![0]!, y! - b[i]![1]!)).toBeLessThan(0.5));
    expect(both.code).toBe(2);
  });

  it('refuses a proj4 definition it cannot use before asking the service (exit 2)', async () => {
    const r = await cli(['courses', '1', '--proj4', '+proj=nonsense', ...at()]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--proj4: /);
  });
});
