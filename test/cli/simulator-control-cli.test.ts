/**
 * `livelox-bridge simulator clock|churn|faults [VALUE]` as the built bin, against a simulator running in this process
 * (by --url, or by the LIVELOX_SIMULATOR_URL its export block prints): each reads and changes what the control API
 * holds, and says clearly when no simulator answers, a value is wrong, or the simulator refuses it.
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/simulator/server.js';
import { BIN, ROOT, cleanEnv, runBin, type CliRun } from '../helpers/cli.js';
import { http } from '../helpers/simulator.js';

const DAY = 86_400_000;
let sim: Simulator;
let home: string;
let env: Record<string, string>;
/** A port nothing listens on: a server opened and closed again. */
let deadUrl: string;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, events: 20, faultKinds: ['500', '503'] });
  home = mkdtempSync(join(tmpdir(), 'lb-sim-control-'));
  env = cleanEnv(home);
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  deadUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/_simulator`;
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
afterAll(async () => {
  await sim.close();
  rmSync(home, { recursive: true, force: true });
});
beforeEach(() => {
  sim.faults.settings.rate = 0;
  sim.setChurn(0);
});

function control(args: string[], extraEnv: Record<string, string> = {}): Promise<CliRun> {
  return runBin(['simulator', ...args, '--url', sim.info.controlUrl], { ...env, ...extraEnv });
}

/** The simulated time the simulator's own answers carry in their Date header. */
async function dateHeader(): Promise<number> {
  const res = await http('GET', `${sim.info.controlUrl}/clock`);
  return Date.parse(String(res.headers.date));
}

describe('simulator clock', { timeout: 60_000 }, () => {
  it('reads the simulated time, then moves it forward by a duration', async () => {
    const read = await control(['clock']);
    expect(read.code, read.stderr).toBe(0);
    expect(read.stdout).toMatch(/^Simulated clock: \d{4}-\d\d-\d\dT[\d:.]+Z, /m);

    const offset = sim.state.clock.offsetMs;
    const moved = await control(['clock', '+1d']);
    expect(moved.code, moved.stderr).toBe(0);
    expect(moved.stdout).toMatch(/^Moved the simulated clock 1 d forward: it is now \S+Z, \S.* ahead of real time\.$/m);
    expect(sim.state.clock.offsetMs - offset).toBe(DAY);
    expect(await dateHeader()).toBeGreaterThan(Date.now() + DAY - 60_000);
  });

  it('takes combined units and prints one JSON document with the answer and the advance', async () => {
    const offset = sim.state.clock.offsetMs;
    const r = await control(['clock', '+1d12h', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc).toEqual({ ok: true, now: expect.any(String), offsetMs: offset + 1.5 * DAY, advancedMs: 1.5 * DAY });
    expect((await http('GET', `${sim.info.controlUrl}/clock`)).json().offsetMs).toBe(offset + 1.5 * DAY);
  });

  it('moves to an absolute time, found from LIVELOX_SIMULATOR_URL without --url', async () => {
    const target = new Date(sim.state.clock.now() + 10 * DAY);
    const day = target.toISOString().slice(0, 10);
    const r = await runBin(['simulator', 'clock', day], { ...env, LIVELOX_SIMULATOR_URL: sim.info.controlUrl });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`it is now ${day}T00:00:00\\.\\d{3}Z`));
    expect(new Date(sim.state.clock.now()).toISOString().slice(0, 10)).toBe(day);
  });

  it('refuses a time in the past, a value it cannot read, and an advance the simulator refuses, with exit 2', async () => {
    const offset = sim.state.clock.offsetMs;
    const past = await control(['clock', '2020-01-01T00:00:00Z']);
    expect(past.code).toBe(2);
    expect(past.stderr).toMatch(
      /the simulated clock only moves forward: it is already \S+, after 2020-01-01T00:00:00\.000Z/,
    );
    const bad = await control(['clock', 'tomorrow']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/simulator clock: takes an advance such as \+1d.*got 'tomorrow'/);
    const refused = await control(['clock', '+40000d']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/the simulator refused it: advanceMs: /);
    expect(sim.state.clock.offsetMs).toBe(offset);
  });
});

describe('simulator churn and faults', { timeout: 60_000 }, () => {
  it('sets and reads the churn rate, as a share or a percentage', async () => {
    const set = await control(['churn', '0.05']);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toMatch(/^Churn: 0\.05; that share of the events changes per simulated day/m);
    expect(sim.churn).toBe(0.05);
    expect((await control(['churn', '10%'])).code).toBe(0);
    expect(sim.churn).toBe(0.1);
    const read = await control(['churn', '--json']);
    expect(JSON.parse(read.stdout)).toEqual({ ok: true, rate: 0.1 });
  });

  it('sets and reads the fault rate, with the kinds the simulator draws', async () => {
    const set = await control(['faults', '0.2']);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toMatch(/^Faults: 0\.2 of API requests fail \(drawn from 500, 503; a stall hangs 10 s\)\.$/m);
    expect(sim.faults.settings.rate).toBe(0.2);
    const read = await control(['faults', '--json']);
    expect(JSON.parse(read.stdout)).toEqual({
      ok: true,
      rate: 0.2,
      kinds: ['500', '503'],
      stallMs: 10_000,
      script: null,
    });
  });

  it.each([
    [['churn', '2'], /simulator churn: takes the share of events that change per simulated day, 0\.\.1 .*got '2'/],
    [['faults', 'many'], /simulator faults: takes the share of API requests that fail, 0\.\.1 .*got 'many'/],
    [['churn', '0.1', '0.2'], /simulator churn: takes at most one value, got 2/],
    [['clok'], /unknown subcommand 'clok'\. Did you mean 'clock'\?/],
    [['clock', '--port', '5000'], /unknown option '--port': it is an option of `simulator`/],
  ])('refuses simulator %j with exit 2, changing nothing', async (args, message) => {
    const r = await control(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(sim.churn).toBe(0);
    expect(sim.faults.settings.rate).toBe(0);
  });
});

describe('simulator control errors', { timeout: 60_000 }, () => {
  it('says that no simulator answers at a dead address, how to start one, and exits 1', async () => {
    const r = await runBin(['simulator', 'faults', '0.2', '--url', deadUrl], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`No simulator answers at ${deadUrl} (connection refused).`);
    expect(r.stderr).toMatch(/Start one with `livelox-bridge simulator`.*--url or LIVELOX_SIMULATOR_URL/);
    const json = await runBin(['simulator', 'clock', '--url', deadUrl, '--json'], env);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({
      ok: false,
      error: { name: 'ConnectionError', code: 'connection' },
    });
  });

  it('names the address when it is not a control address, and refuses the API address given for it', async () => {
    const origin = sim.info.controlUrl.replace(/\/_simulator$/, '');
    const wrong = await runBin(['simulator', 'churn', '--url', `${origin}/somewhere`], env);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/answered 404: .*Is \S+\/somewhere a simulator's control address/);
    const api = await runBin(['simulator', 'churn', '--url', sim.info.baseUrl], env);
    expect(api.code).toBe(2);
    expect(api.stderr).toContain(`give its control address instead: ${sim.info.controlUrl}`);
    // The bare origin is taken as the simulator's control address.
    expect((await runBin(['simulator', 'churn', '--url', origin], env)).code).toBe(0);
  });
});

describe('simulator (serving)', { timeout: 60_000 }, () => {
  it('prints LIVELOX_SIMULATOR_URL in its export block, and --url only goes with a subcommand', async () => {
    const child = spawn(process.execPath, [BIN, 'simulator', '--port', '0', '--events', '5'], { cwd: ROOT, env });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const lines: string[] = [];
    await new Promise<void>((resolve) =>
      createInterface({ input: child.stdout }).on('line', (line) => {
        lines.push(line);
        if (line === 'Press Ctrl-C to stop.') resolve();
      }),
    );
    const control = lines
      .find((l) => l.includes('Controls'))!
      .trim()
      .split(/\s+/)
      .pop();
    expect(lines).toContain(`  export LIVELOX_SIMULATOR_URL='${control}'`);
    child.kill('SIGINT');
    expect(await exited).toBe(0);

    const r = await runBin(['simulator', '--url', sim.info.controlUrl], env);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /unknown option '--url': it is an option of `simulator clock`, `simulator churn` or `simulator faults`/,
    );
  });
});
