/**
 * `livelox-bridge simulator faults --script FILE|- / --clear` as the built bin, against a simulator spawned as its own
 * process (`livelox-bridge simulator --port 0 --json`): a script set from a file and from stdin, its progress shown
 * in text and --json as requests strike it, a bad script refused locally naming the step, and the script cleared.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimulatorInfo } from '../../src/simulator/server.js';
import { BIN, ROOT, cleanEnv, runBin, type CliRun } from '../helpers/cli.js';
import { http } from '../helpers/simulator.js';

let child: ChildProcess;
let info: SimulatorInfo;
let home: string;
let env: Record<string, string>;

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'lb-sim-faults-'));
  env = cleanEnv(home);
  child = spawn(process.execPath, [BIN, 'simulator', '--port', '0', '--json', '--events', '5'], { cwd: ROOT, env });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the simulator exited with ${code}`)));
  });
  info = JSON.parse(line) as SimulatorInfo;
}, 30_000);
afterAll(async () => {
  if (child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  rmSync(home, { recursive: true, force: true });
});

function faults(args: string[], input?: string): Promise<CliRun> {
  return runBin(['simulator', 'faults', ...args, '--url', info.controlUrl], env, input === undefined ? {} : { input });
}

function countries(): Promise<number> {
  return http('GET', `${info.baseUrl}/countries`, { headers: { ApiKey: info.apiKey } }).then((r) => r.status);
}

const SCRIPT = [
  { path: '/api/countries', outcome: { kind: 'status', status: 503, headers: { 'retry-after': '1' } }, count: 2 },
  { method: 'GET', path: '/api/events/{id}', outcome: { kind: 'stall', ms: 1500, phase: 'after' }, durationMs: 60_000 },
];

describe('simulator faults --script', { timeout: 60_000 }, () => {
  it('sets a script from a file, shows its progress as requests strike it, and clears it', async () => {
    const file = join(home, 'script.json');
    writeFileSync(file, JSON.stringify(SCRIPT, null, 2));
    const set = await faults(['--script', file]);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toContain('Faults: no random faults (rate 0).');
    expect(set.stdout).toContain('Fault script: at step [0] of 2, 0 done (2 requests left).');
    expect(set.stdout).toMatch(/\[0\] +current +any \/api\/countries +503 retry-after: 1 +0 of 2 requests/);
    expect(set.stdout).toMatch(
      /\[1\] +waiting +GET \/api\/events\/\{id\} +stall 1500 ms, then reset, after handling +for 1 min/,
    );

    expect(await countries()).toBe(503);
    const shown = await faults([]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('(1 request left)');
    expect(shown.stdout).toMatch(/\[0\] +current .* 1 of 2 requests/);

    expect(await countries()).toBe(503);
    expect(await countries()).toBe(200);
    const json = await faults(['--json']);
    expect(json.code, json.stderr).toBe(0);
    const doc = JSON.parse(json.stdout);
    expect(doc).toMatchObject({ ok: true, rate: 0, script: { current: 1, stepsDone: 1, requestsLeft: null } });
    expect(doc.script.msLeft).toBeGreaterThan(50_000);
    expect(doc.script.steps).toEqual([
      { ...SCRIPT[0], state: 'done', matched: 2 },
      { ...SCRIPT[1], state: 'current', matched: 0 },
    ]);

    const cleared = await faults(['--clear', '--json']);
    expect(cleared.code, cleared.stderr).toBe(0);
    expect(JSON.parse(cleared.stdout)).toMatchObject({ ok: true, rate: 0, script: null });
    expect((await faults([])).stdout).toBe(
      'Faults: no random faults (rate 0); every API request is answered.\nNo fault script.\n',
    );
  });

  it('reads a script from stdin, with a rate set in the same call', async () => {
    const steps = [{ outcome: { kind: 'reset' }, count: 1 }, { outcome: { kind: 'pass' } }];
    const set = await faults(['0.05', '--script', '-', '--json'], JSON.stringify(steps));
    expect(set.code, set.stderr).toBe(0);
    const doc = JSON.parse(set.stdout);
    expect(doc).toMatchObject({ ok: true, rate: 0.05, script: { current: 0, requestsLeft: 1, finished: false } });
    expect(doc.script.steps.map((s: { outcome: unknown }) => s.outcome)).toEqual(steps.map((s) => s.outcome));
    await expect(countries()).rejects.toThrow();
    expect((await faults(['0', '--clear', '--json'])).stdout).toMatch(/"rate":0,.*"script":null/);
  });

  it.each([
    [
      'a bad step, named by index and field',
      JSON.stringify([
        { outcome: { kind: 'reset' }, count: 1 },
        { outcome: { kind: 'status', status: 302 }, count: 1 },
      ]),
      /--script stdin is not a fault script the simulator takes: script\[1\]\.outcome\.status: must be a status within 400\.\.599/,
    ],
    [
      'a step that never ends before another',
      JSON.stringify([{ outcome: { kind: 'reset' } }, { outcome: { kind: 'pass' } }]),
      /script\[0\]\.count: count or durationMs is needed/,
    ],
    ['text that is not JSON', 'retry 3 times', /--script stdin is not JSON/],
    ['JSON that is not a script', '{"steps": []}', /must hold the steps, a JSON array/],
  ])('refuses %s with exit 2 before sending anything', async (_what, input, said) => {
    const before = await http('GET', `${info.controlUrl}/faults`);
    const r = await faults(['--script', '-'], input);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(said);
    expect((await http('GET', `${info.controlUrl}/faults`)).text).toBe(before.text);
  });

  it('refuses --clear with --script, a missing file and a file over 1 MiB with exit 2 naming --script', async () => {
    const both = await faults(['--clear', '--script', '-'], '[]');
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--clear removes the script and --script sets one/);
    const missing = await faults(['--script', join(home, 'nope.json')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--script .*nope\.json: cannot read it: no such file/);
    const big = join(home, 'big.json');
    writeFileSync(big, `[${' '.repeat(1024 * 1024)}]`);
    const before = await http('GET', `${info.controlUrl}/faults`);
    const large = await faults(['--script', big]);
    expect(large.code).toBe(2);
    expect(large.stderr).toMatch(/--script .*big\.json: cannot read it: .*more than the 1 MiB/);
    expect((await http('GET', `${info.controlUrl}/faults`)).text).toBe(before.text);
  });

  it('documents the script in --help with an example', async () => {
    const r = await runBin(['simulator', 'faults', '--help'], env);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('simulator faults [RATE] --script FILE|-');
    expect(r.stdout).toContain('--clear');
    expect(r.stdout).toMatch(/Example, .*\n.*"kind":"status","status":503/);
    expect(r.stdout).toMatch(/^ +2 +a RATE it cannot read; a --script that cannot be read \(missing, over 1 MiB\)/m);
  });

  it('lists every control of the simulator in simulator --help, the journal and the OpenAPI document among them', async () => {
    const r = await runBin(['simulator', '--help'], env);
    expect(r.code).toBe(0);
    for (const control of ['clock', 'fault scripts', 'journal and journal.har', 'openapi.json', 'stats', 'memory']) {
      expect(r.stdout.replace(/\s+/g, ' ')).toContain(control);
    }
  });
});
