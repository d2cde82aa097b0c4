/**
 * `import` killed with SIGKILL (a power cut as far as the process can tell) at many points of a batch: before it has
 * read anything, while it posts, while it polls. Each killed run is followed by a run to completion on the same
 * journal, after which the simulator must hold every route exactly once, under the id an uninterrupted run gives it,
 * and the report must say what the uninterrupted run's said. The points are `--progress-lines` lines (one per route
 * settled), so the same step is hit on a slow machine as on a fast one, and times after spawn for the start.
 * Every kill point gets its own simulator (same seed, so the same events and import outcomes) and its own journal.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Limiter } from '../../src/core/limiter.js';
import type { Simulator } from '../../src/simulator/server.js';
import { cleanEnv, runBin } from '../helpers/cli.js';
import { finalRoutes, importArgs, importSimulator, writeRoutes, type FinalRoute } from '../helpers/import-cli.js';
import { runAndKill, type KillPlan } from '../helpers/sync-cli.js';

const ROUTES = 20;
const LATENCY_MS = 10;
/** Two kill points at a time (each a killed run and a run to the end): the machine has two cores. */
const two = new Limiter({ maxConcurrent: 2, ratePerSecond: 0 });
const TIMEOUT_MS = 120_000;

const dir = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'lb-import-crash-'));
const env = cleanEnv(dir);
const runs = join(dir, 'runs');
const sims: Simulator[] = [];
let n = 0;

interface Reference {
  code: number | null;
  routes: FinalRoute[];
  ids: string[];
}
let ref: Reference;

async function newCase() {
  const sim = await importSimulator({ latencyMs: LATENCY_MS });
  sims.push(sim);
  const caseDir = join(dir, `case-${++n}`);
  mkdirSync(caseDir, { recursive: true });
  const out = join(caseDir, 'report.json');
  const args = ['import', runs, '--wait', '--concurrency', '4', ...importArgs(sim, join(caseDir, 'journal.sqlite'))];
  return { sim, out, args };
}

function heldIds(sim: Simulator): string[] {
  return sim
    .routes()
    .map((r) => r.id as string)
    .sort();
}

beforeAll(async () => {
  mkdirSync(join(dir, 'config'), { recursive: true });
  const c = await newCase();
  writeRoutes(c.sim, runs, ROUTES);
  const r = await runBin([...c.args, '--out', c.out], env);
  expect(r.code, r.stderr).not.toBeNull();
  ref = { code: r.code, routes: finalRoutes(JSON.parse(readFileSync(c.out, 'utf8'))), ids: heldIds(c.sim) };
}, TIMEOUT_MS);

afterAll(async () => {
  for (const s of sims) await s.close();
  rmSync(dir, { recursive: true, force: true });
});

function afterLine(done: number, delayMs = 0): KillPlan {
  return {
    label: `${done}/${ROUTES} done +${delayMs}ms`,
    line: new RegExp(`^progress: ${done}/${ROUTES} done`),
    delayMs,
  };
}

const plans: KillPlan[] = [
  ...[0, 100, 200, 300, 400, 500, 700].map((ms) => ({ label: `spawn +${ms}ms`, delayMs: ms })),
  ...[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 14, 16, 18].map((done) => afterLine(done)),
  afterLine(2, 15),
  afterLine(6, 25),
  afterLine(11, 5),
];

describe('import killed with SIGKILL and run again', () => {
  it('has a reference run that imports every route once', () => {
    expect(ref.routes).toHaveLength(ROUTES);
    expect(ref.ids).toHaveLength(ROUTES);
    expect(new Set(ref.routes.map((r) => r.status))).toEqual(new Set(['imported']));
    expect(ref.code).toBe(0);
  });

  const killedAt = new Map<string, string>();

  it.each(plans.map((p) => [p.label, p] as const))(
    'ends as one uninterrupted run when killed at %s',
    async (_label, plan) => {
      await two.run(async () => {
        const c = await newCase();
        const killed = await runAndKill([...c.args, '--progress-lines'], env, plan);
        if (killed.killed) killedAt.set(plan.label, killed.lastLine);
        // Kills after a progress line must land: the line says the batch is under way and not over.
        if (plan.line) expect(killed.killed, `${plan.label}: ended before the kill\n${killed.stderr}`).toBe(true);
        const again = await runBin([...c.args, '--out', c.out], env);
        expect(again.code, again.stderr).toBe(ref.code);
        expect(finalRoutes(JSON.parse(readFileSync(c.out, 'utf8')))).toEqual(ref.routes);
        // Every route once, under the id the uninterrupted run gave it: none posted under two ids, none missing.
        expect(heldIds(c.sim)).toEqual(ref.ids);
      });
    },
    TIMEOUT_MS,
  );

  it('killed the runs at 20 points or more', () => {
    const lines = [...killedAt].map(([plan, line]) => `  ${plan}: after '${line}'`);
    console.log(`import killed at:\n${lines.join('\n')}`);
    expect(killedAt.size).toBeGreaterThanOrEqual(20);
  });
});
