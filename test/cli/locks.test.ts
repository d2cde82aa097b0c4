/**
 * Two processes on one state file. `sync`'s run lock is held by the operating system for the process that took it:
 * a live holder is refused and named (exit 4), and a holder killed with SIGKILL lets the next run in at once, also
 * when it ran as pid 1 in its own PID namespace (`unshare -p -f`, a container's init) or under another hostname
 * (`unshare -u`): the cases where a lock that records a pid and judges it could never be taken again. The holders are
 * real `sync` runs, held in the middle of their first request by the simulator's stall fault. Two `import` runs on one
 * journal at once finish with every route at the service once. The namespaces need root (CI runs as root); where
 * `unshare` is not permitted those tests are skipped and say why.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PortalEvent } from '../../src/ems/portal.js';
import { startSimulator, type Simulator } from '../../src/simulator/server.js';
import { BIN, ROOT, cleanEnv, runBin } from '../helpers/cli.js';
import { importArgs, importSimulator, writeRoutes } from '../helpers/import-cli.js';
import { portalDocument, serviceArgs } from '../helpers/sync-cli.js';
import { logicalState, portalEventOf } from '../helpers/sync.js';

const dir = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'lb-locks-'));
const env = cleanEnv(dir);
mkdirSync(join(dir, 'config'));
const UNSHARE = '/usr/bin/unshare';
const OTHER_HOST = 'lb-other-host';
let sim: Simulator;
let portalFile: string;
let n = 0;

/** Why `args` cannot run under unshare here, or undefined when it can. */
function unshareRefused(args: string[]): string | undefined {
  if (!existsSync(UNSHARE)) return `${UNSHARE} is not installed`;
  const r = spawnSync(UNSHARE, args, { encoding: 'utf8' });
  if (r.error) return `unshare cannot run: ${r.error.message}`;
  return r.status === 0 ? undefined : `unshare ${args.join(' ')} is not permitted: ${r.stderr.trim()}`;
}
const NO_PID_NS = unshareRefused(['-p', '-f', 'true']);
const NO_UTS_NS = unshareRefused(['-u', 'sh', '-c', `hostname ${OTHER_HOST}`]);
const skipped = (why: string | undefined) => (why === undefined ? '' : ` (skipped: ${why})`);

beforeAll(async () => {
  sim = await startSimulator({ port: 0, seed: 7, events: 200, faultStallMs: 60_000, faultKinds: ['stall'] });
  const events = [...sim.state.eventsById.values()].sort((a, b) => a.id - b.id);
  const portal: PortalEvent[] = events.filter((_, i) => i % 25 === 0).map((e) => portalEventOf(e));
  portalFile = join(dir, 'portal.json');
  writeFileSync(portalFile, portalDocument(portal));
});

afterAll(async () => {
  await sim?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A state after a first night. */
async function newState(): Promise<string> {
  const state = join(dir, `state-${++n}.sqlite`);
  const r = await sync(state);
  expect(r.code, r.stderr).toBe(0);
  return state;
}

function sync(state: string, ...args: string[]) {
  return runBin(['sync', portalFile, '--state', state, ...serviceArgs(sim), ...args], env);
}

interface Holder {
  /** The process that holds the lock (the `node` running sync), by its pid here. */
  pid: number;
  /** The process spawned: `unshare`, or the holder itself. */
  spawned: ChildProcess;
  exited: Promise<void>;
}

/**
 * Starts `sync` under `prefix` (an unshare command line, or none) and answers once it holds the lock and waits in a
 * request the simulator stalls. Faults are on only until then: the runs that follow are answered.
 */
async function holdingRun(state: string, prefix: string[]): Promise<Holder> {
  const stalls = () => sim.stats.snapshot().faults.stall ?? 0;
  const before = stalls();
  sim.faults.settings.rate = 1;
  const args = [BIN, 'sync', portalFile, '--state', state, ...serviceArgs(sim)];
  const [command, ...rest] = prefix.length > 0 ? [...prefix, process.execPath, ...args] : [process.execPath, ...args];
  const spawned = spawn(command!, rest, { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  spawned.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  let ended = false;
  const exited = new Promise<void>((resolve) =>
    spawned.once('close', () => {
      ended = true;
      resolve();
    }),
  );
  try {
    // The lock is taken before the run's first request: a request stalled means a run holding the lock.
    while (stalls() === before) {
      if (ended) throw new Error(`the holder ended before it held the lock:\n${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    sim.faults.settings.rate = 0;
  }
  const pid = prefix.includes('-f') ? onlyChild(spawned.pid!) : spawned.pid!;
  return { pid, spawned, exited };
}

/** The one child of `pid` (unshare -f forks the command it runs). */
function onlyChild(pid: number): number {
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).map(Number);
  expect(children).toHaveLength(1);
  return children[0]!;
}

/** SIGKILL to the holder itself, as the OOM killer sends it; answers once it and what spawned it are gone. */
async function killHolder(holder: Holder): Promise<void> {
  process.kill(holder.pid, 'SIGKILL');
  await holder.exited;
}

describe('sync: the run lock', () => {
  it('refuses a run while a live run holds the state, naming it, and lets the next one in when it is killed', async () => {
    const state = await newState();
    const before = logicalState(state);
    const holder = await holdingRun(state, []);
    try {
      const refused = await sync(state);
      expect(refused.code, refused.stderr).toBe(4);
      expect(refused.stderr).toMatch(
        new RegExp(
          `^livelox-bridge sync: ${state}: another run holds this state \\(process ${holder.pid} on ${hostname()}, ` +
            'since \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z\\)\\. It is released when that run ends, however it ends\\. ' +
            'Wait for it to end, then run again\\. Nothing was committed',
        ),
      );
      const json = await sync(state, '--json');
      expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, committed: false, error: { reason: 'locked' } });
      expect(logicalState(state)).toEqual(before);
    } finally {
      await killHolder(holder);
    }
    const next = await sync(state);
    expect(next.code, next.stderr).toBe(0);
  });

  it(`lets the next run in at once after a holder that ran as pid 1 in its own PID namespace was killed${skipped(NO_PID_NS)}`, async (ctx) => {
    if (NO_PID_NS !== undefined) ctx.skip();
    const state = await newState();
    const holder = await holdingRun(state, [UNSHARE, '-p', '-f']);
    try {
      const refused = await sync(state);
      expect(refused.code).toBe(4);
      // It knows itself as pid 1: what a run in a container writes, and what a pid check would find alive.
      expect(refused.stderr).toContain(`another run holds this state (process 1 on ${hostname()}, since `);
    } finally {
      await killHolder(holder);
    }
    const next = await sync(state);
    expect(next.code, next.stderr).toBe(0);
  });

  it(`lets the next run in at once after a holder under another hostname was killed${skipped(NO_UTS_NS)}`, async (ctx) => {
    if (NO_UTS_NS !== undefined) ctx.skip();
    const state = await newState();
    // The shell names its host, then becomes the run (exec): the process spawned is the holder.
    const holder = await holdingRun(state, [UNSHARE, '-u', 'sh', '-c', `hostname ${OTHER_HOST} && exec "$0" "$@"`]);
    try {
      const refused = await sync(state);
      expect(refused.code).toBe(4);
      expect(refused.stderr).toContain(`another run holds this state (process ${holder.pid} on ${OTHER_HOST}, since `);
    } finally {
      await killHolder(holder);
    }
    const next = await sync(state);
    expect(next.code, next.stderr).toBe(0);
  });
});

describe('import: two runs on one journal at once', () => {
  it('both finish, and the service holds every route once', async () => {
    const isim = await importSimulator({ latencyMs: 5 });
    try {
      const runs = join(dir, 'runs');
      writeRoutes(isim, runs, 24);
      const journal = join(dir, 'journal.sqlite');
      const args = ['import', runs, '--wait', '--concurrency', '4', '--json', ...importArgs(isim, journal)];
      const [a, b] = await Promise.all([runBin(args, env), runBin(args, env)]);
      for (const r of [a, b]) expect(r.code, r.stderr).toBe(0);
      const ids = isim.routes().map((r) => r.id as string);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toHaveLength(24);
      // Each run reports every route done: imported by itself, or found imported by the other.
      for (const r of [a, b]) {
        const doc = JSON.parse(r.stdout) as { routes: Array<{ status: string }> };
        expect(doc.routes).toHaveLength(24);
        for (const route of doc.routes) expect(['imported', 'skipped']).toContain(route.status);
      }
      const again = JSON.parse((await runBin(args, env)).stdout) as { routes: Array<{ status: string }> };
      expect(new Set(again.routes.map((r) => r.status))).toEqual(new Set(['skipped']));
      expect(isim.routes()).toHaveLength(24);
    } finally {
      await isim.close();
    }
  });
});
