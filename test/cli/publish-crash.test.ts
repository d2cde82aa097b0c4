/**
 * `publish` killed with SIGKILL (a power cut as far as the process can tell) at many points, then run again to the end
 * on the same state file: a first publish (before anything is read, while the create is in flight, after it was
 * recorded, during the upload and the validation) and an update of an event imported in the browser. The points are
 * the command's progress lines on stderr plus a delay (the simulator answers 20 ms late, so a delay lands inside a
 * request), and times after spawn for the start.
 *
 * What must hold, compared with an uninterrupted run: the state records one importable event, in the state the
 * uninterrupted run leaves it; the simulator holds it with the same files; and no second importable event was created
 * once the create's answer was recorded. The only allowed extra is the window docs/publish.md states: killed after the
 * create left and before its answer was recorded, one draft with no files, which the person never imports.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Limiter } from '../../src/core/limiter.js';
import { startSimulator, type Simulator } from '../../src/simulator/server.js';
import { openPublishState, publishStateOf, type PublishedEvent } from '../../src/store/publish-state.js';
import { cleanEnv, runBin } from '../helpers/cli.js';
import {
  PUBLISH_CASES,
  browserStep,
  heldImportableEvents,
  publishArgs,
  writeMapImages,
} from '../helpers/publish-cli.js';
import { runAndKill, type KillPlan } from '../helpers/sync-cli.js';

const LATENCY_MS = 20;
const TIMEOUT_MS = 120_000;
/** Two kill points at a time: the machine has two cores. */
const two = new Limiter({ maxConcurrent: 2, ratePerSecond: 0 });
const OCAD = PUBLISH_CASES[0]!;

const dir = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'lb-publish-crash-'));
const env = cleanEnv(dir);
const sims: Simulator[] = [];
let n = 0;

beforeAll(() => {
  mkdirSync(join(dir, 'config'), { recursive: true });
  writeMapImages(dir);
});
afterAll(async () => {
  for (const s of sims) await s.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Case {
  sim: Simulator;
  state: string;
  args: string[];
}

async function newCase(): Promise<Case> {
  const sim = await startSimulator({ port: 0, latencyMs: LATENCY_MS, seed: 1 });
  sims.push(sim);
  const state = join(dir, `state-${++n}.sqlite`);
  return { sim, state, args: publishArgs(sim, OCAD, dir, state) };
}

function recorded(state: string): PublishedEvent[] {
  if (!existsSync(state)) return [];
  const file = openPublishState(state, { readOnly: true });
  try {
    return publishStateOf(file).all();
  } finally {
    file.close();
  }
}

/** What a finished state and simulator say, without the ids and times that differ from run to run. */
function outcome(c: Case) {
  const rows = recorded(c.state);
  const held = heldImportableEvents(c.sim);
  const mine = held.filter((e) => rows.some((r) => r.importableId === e.id));
  return {
    rows: rows.map((r) => ({ state: r.state, imported: r.eventId !== undefined, links: Object.keys(r.links).sort() })),
    held: mine.map((e) => ({ files: e.files, imported: e.eventId !== undefined })),
  };
}

function after(line: RegExp, label: string, delayMs: number): KillPlan {
  return { label: `${label} +${delayMs}ms`, line, delayMs };
}

const CHECKED = /^publish: checked; will create/;
const CREATED = /^publish: created importable event/;
const UPLOADED = /^publish: uploaded importable event/;
const VALIDATED = /^publish: validated importable event/;
const firstPlans: KillPlan[] = [
  ...[0, 150, 300, 450, 600].map((ms) => ({ label: `spawn +${ms}ms`, delayMs: ms })),
  ...[0, 5, 12, 25].map((ms) => after(CHECKED, 'checked', ms)),
  ...[0, 5, 15, 30].map((ms) => after(CREATED, 'created', ms)),
  ...[0, 10].map((ms) => after(UPLOADED, 'uploaded', ms)),
  after(VALIDATED, 'validated', 0),
];

const WILL_UPDATE = /^publish: checked; will update/;
const UPDATED = /^publish: updated importable event/;
const updatePlans: KillPlan[] = [
  ...[0, 15, 30].map((ms) => after(WILL_UPDATE, 'checked', ms)),
  ...[0, 15].map((ms) => after(UPDATED, 'updated', ms)),
  ...[0, 10].map((ms) => after(UPLOADED, 'uploaded', ms)),
  ...[0, 10].map((ms) => after(VALIDATED, 'validated', ms)),
];

let firstRef: ReturnType<typeof outcome>;
let updateRef: ReturnType<typeof outcome>;

/** A state whose event a person imported in the browser: the next publish is an update and an import. */
async function importedCase(): Promise<Case> {
  const c = await newCase();
  const first = await runBin(c.args, env);
  expect(first.code, first.stderr).toBe(0);
  await browserStep(c.sim, recorded(c.state)[0]!.importableId);
  return c;
}

beforeAll(async () => {
  const c = await newCase();
  const r = await runBin(c.args, env);
  expect(r.code, r.stderr).toBe(0);
  firstRef = outcome(c);
  const u = await importedCase();
  const again = await runBin(u.args, env);
  expect(again.code, again.stderr).toBe(0);
  updateRef = outcome(u);
}, TIMEOUT_MS);

const killedAt = new Map<string, string>();

describe('publish killed with SIGKILL and run again', () => {
  it('has reference runs: one importable event, waiting for the browser step; then imported', () => {
    expect(firstRef.rows).toEqual([{ state: 'waiting-for-browser-step', imported: false, links: ['importUrl'] }]);
    expect(firstRef.held).toEqual([
      { files: ['ellenbrook.png', 'rg2_ellenbrook_CourseData_OCAD11.xml'], imported: false },
    ]);
    expect(updateRef.rows).toEqual([{ state: 'imported', imported: true, links: ['editUrl', 'showUrl'] }]);
  });

  it.each(firstPlans.map((p) => [p.label, p] as const))(
    'a first publish killed at %s ends as the uninterrupted run',
    async (_label, plan) => {
      await two.run(async () => {
        const c = await newCase();
        const killed = await runAndKill(c.args, env, plan);
        if (killed.killed) killedAt.set(`first, ${plan.label}`, killed.lastLine);
        if (plan.line) expect(killed.killed, `${plan.label}: ended before the kill\n${killed.stderr}`).toBe(true);
        const recordedBefore = recorded(c.state).map((r) => r.importableId);
        const heldBefore = heldImportableEvents(c.sim).length;
        const again = await runBin(c.args, env);
        expect(again.code, again.stderr).toBe(0);
        expect(outcome(c)).toEqual(firstRef);
        const held = heldImportableEvents(c.sim);
        if (recordedBefore.length > 0) {
          // Recorded: the run again updated that one and created nothing.
          expect(recorded(c.state).map((r) => r.importableId)).toEqual(recordedBefore);
          expect(held).toHaveLength(heldBefore);
          expect(held).toHaveLength(1);
        } else {
          // Killed before the answer was recorded: at most one draft left behind, with no files.
          expect(held.length).toBeLessThanOrEqual(2);
          expect(held.filter((e) => e.files.length === 0).length).toBe(held.length - 1);
        }
      });
    },
    TIMEOUT_MS,
  );

  it.each(updatePlans.map((p) => [p.label, p] as const))(
    'an update of an imported event killed at %s ends as the uninterrupted run',
    async (_label, plan) => {
      await two.run(async () => {
        const c = await importedCase();
        const id = recorded(c.state)[0]!.importableId;
        const killed = await runAndKill(c.args, env, plan);
        if (killed.killed) killedAt.set(`update, ${plan.label}`, killed.lastLine);
        expect(killed.killed, `${plan.label}: ended before the kill\n${killed.stderr}`).toBe(true);
        const again = await runBin(c.args, env);
        expect(again.code, again.stderr).toBe(0);
        expect(outcome(c)).toEqual(updateRef);
        expect(heldImportableEvents(c.sim).map((e) => e.id)).toEqual([id]);
      });
    },
    TIMEOUT_MS,
  );

  it('killed the runs at 15 points or more', () => {
    const lines = [...killedAt].map(([plan, line]) => `  ${plan}: after '${line}'`);
    console.log(`publish killed at:\n${lines.join('\n')}`);
    expect(killedAt.size).toBeGreaterThanOrEqual(15);
  });
});
