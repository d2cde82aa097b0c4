/**
 * `sync` killed with SIGKILL (kill -9, a power cut as far as the process can tell) at many points of its work: while
 * it pages through the service, while it links, while it commits and while it writes its outputs. Each killed run is
 * followed by a run to completion on the same state and output paths, which must leave exactly the state and the
 * files of one uninterrupted run; right after the kill, the state must be as before the run or as after it, never
 * between. The points are lines of `--progress`, so the same step is hit on a slow machine as on a fast one; the
 * simulator answers every request with a small latency, so a delay after a page line lands inside the next request.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Limiter } from '../../src/core/limiter.js';
import type { PortalEvent } from '../../src/ems/portal.js';
import { startSimulator, type Simulator } from '../../src/simulator/server.js';
import { openSqliteStore } from '../../src/store/sqlite.js';
import { cleanEnv, runBin } from '../helpers/cli.js';
import {
  copyState,
  freezeClock,
  outputsOf,
  portalDocument,
  runAndKill,
  runCount,
  serviceArgs,
  stateOrNone,
  type KillPlan,
  type Outputs,
} from '../helpers/sync-cli.js';
import { logicalState, portalEventOf } from '../helpers/sync.js';

const DAY_MS = 86_400_000;
const LATENCY_MS = 12;
const PAGE_SIZE = 25;
/** Two kill points at a time (each a killed run and a run to the end): the machine has two cores. */
const two = new Limiter({ maxConcurrent: 2, ratePerSecond: 0 });
/** A kill point's test starts the clock while it waits for its turn. */
const TIMEOUT_MS = 60_000;

let sim: Simulator;
// A kill -9 loses nothing the kernel holds, so memory-backed files prove the same as a disk, and without a disk's
// fsync (the state's FULL sync, one per fragment) the runs fit the suite's time.
const dir = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'lb-sync-crash-'));
const env = cleanEnv(dir);
const portalPath = join(dir, 'portal.json');
let n = 0;
/** Temporary files killed runs left beside their outputs (hidden names; the next run writing those outputs removes them). */
const leftTemps: string[] = [];

interface Case {
  dir: string;
  state: string;
  out: string;
  outDir: string;
  args: string[];
}

/** A fresh folder for one run: its state, --out file and --out-dir. */
function newCase(): Case {
  const caseDir = join(dir, `case-${++n}`);
  mkdirSync(join(caseDir, 'fragments'), { recursive: true });
  const c = {
    dir: caseDir,
    state: join(caseDir, 'state.sqlite'),
    out: join(caseDir, 'links.json'),
    outDir: join(caseDir, 'fragments'),
  };
  const args = ['sync', portalPath, '--state', c.state, '--page-size', String(PAGE_SIZE), '--progress'];
  return { ...c, args: [...args, '--out', c.out, '--out-dir', c.outDir, ...serviceArgs(sim)] };
}

interface Reference {
  state: Record<string, unknown>;
  outputs: Outputs;
  code: number | null;
  lines: string[];
}

async function reference(c: Case): Promise<Reference> {
  const r = await runBin(c.args, env);
  expect(r.code, r.stderr).not.toBeNull();
  expect(r.code!, r.stderr).toBeLessThanOrEqual(1);
  return {
    state: logicalState(c.state),
    outputs: outputsOf(c.out, c.outDir),
    code: r.code,
    lines: r.stderr.split('\n'),
  };
}

/** Where a kill came and what the state held right after it. */
interface Hit {
  /** The last progress line read before the kill ('' for none yet), or `outputs` for a kill while writing them. */
  at: string;
  committed: boolean;
}

/** The step of the work a kill came in. */
function stepOf(hit: Hit): string {
  if (hit.at === '') return 'start';
  if (/^service: (sweep|changes): page \d+/.test(hit.at)) return 'pages';
  return /^\w+/.exec(hit.at)![0];
}

/**
 * Kills a run at `plan`, checks the state is `before` or `ref`'s (never between), runs again to completion on the
 * same paths, and checks state and outputs against `ref`. Answers where the kill came: the last progress line read,
 * and the outputs in place for a kill while they were written.
 */
async function killAndRecover(
  c: Case,
  plan: KillPlan,
  before: Record<string, unknown>,
  ref: Reference,
  runsBefore: number,
): Promise<Hit> {
  const file = plan.file && { ...plan.file, dir: join(c.dir, plan.file.dir) };
  const killed = await runAndKill(c.args, env, { ...plan, ...(file ? { file } : {}) });
  expect(killed.killed, `${plan.label}: the run ended before the kill point\n${killed.stderr}`).toBe(true);
  // No file, or one with no tables yet: nothing committed, as a state just created holds nothing.
  const runs = runCount(c.state);
  expect([runsBefore, runsBefore + 1]).toContain(runs);
  const now = stateOrNone(c.state) ?? (runsBefore === 0 ? before : undefined);
  expect(now, `${plan.label} (after '${killed.lastLine}')`).toEqual(runs > runsBefore ? ref.state : before);
  const left = outputsOf(c.out, c.outDir);
  if (left.temps.length > 0) leftTemps.push(...left.temps);

  const again = await runBin(c.args, env);
  expect(again.code, again.stderr).toBe(ref.code);
  expect(logicalState(c.state)).toEqual(ref.state);
  const outputs = outputsOf(c.out, c.outDir);
  expect(outputs.out).toBe(ref.outputs.out);
  expect(outputs.fragments).toEqual(ref.outputs.fragments);
  // The run to the end leaves no temporary file: neither its own nor one the killed run left (a dead writer's temporary
  // file of a target it writes is removed).
  expect(outputs.temps).toEqual([]);
  return { at: plan.file ? 'outputs' : killed.lastLine, committed: runs > runsBefore };
}

/** Where each kill came, printed with the test's output: what the suite proves depends on where they land. */
function report(what: string, hits: ReadonlyMap<string, Hit>): void {
  const lines = [...hits].map(([plan, h]) => `  ${plan}: after '${h.at}', ${h.committed ? 'committed' : 'nothing'}`);
  const temps = leftTemps.length > 0 ? `\n  temporary files left by kills: ${leftTemps.join(', ')}` : '';
  console.log(`sync killed during its ${what}:\n${lines.join('\n')}${temps}`);
}

function after(line: RegExp, delayMs = 0, label = `${line.source} +${delayMs}ms`): KillPlan {
  return { label, line, delayMs };
}

/** When the `nth` output (links.json or a fragment, by `name`) is in place in `dir` (below the case's folder). */
function written(dir: string, name: RegExp, nth: number, delayMs = 0): KillPlan {
  return { label: `${dir}/${name.source} #${nth} +${delayMs}ms`, file: { dir, name, nth }, delayMs };
}

function page(kind: 'sweep' | 'changes', n: number, delayMs = 0): KillPlan {
  return after(new RegExp(`^service: ${kind}: page ${n},`), delayMs, `${kind} page ${n} +${delayMs}ms`);
}

/** A case that starts from `from`'s committed night: its state (checkpointed) and outputs copied in. */
function copyOf(from: Case): Case {
  const c = newCase();
  copyState(from.state, c.state);
  cpSync(from.out, c.out);
  cpSync(from.outDir, c.outDir, { recursive: true });
  return c;
}

/**
 * One test per kill point: a case `make` gives, killed there and run again to the end, checked against what `expected`
 * gives once the describe's beforeAll ran (the state before the run, the reference), where it landed kept in `hits`.
 */
function killAtEach(
  plans: readonly KillPlan[],
  make: () => Case,
  expected: () => { before: Record<string, unknown>; ref: Reference; runsBefore: number },
  hits: Map<string, Hit>,
): void {
  for (const plan of plans) {
    it.concurrent(
      `comes back from a kill at ${plan.label}`,
      () =>
        two.run(async () => {
          const { before, ref, runsBefore } = expected();
          hits.set(plan.label, await killAndRecover(make(), plan, before, ref, runsBefore));
        }),
      TIMEOUT_MS,
    );
  }
}

beforeAll(async () => {
  sim = await startSimulator({ port: 0, seed: 7, events: 300, latencyMs: LATENCY_MS });
  freezeClock(sim);
  // Every other service event, and one the service does not have: a portal of 151 events over the whole season.
  const events = [...sim.state.eventsById.values()].sort((a, b) => a.id - b.id);
  const portal: PortalEvent[] = events.filter((_, i) => i % 2 === 0).map((e) => portalEventOf(e));
  portal.push(portalEventOf({ ...events[1]!, name: 'Nowhere Night Cup', countryCode: 'ISL' }, 'portal:nowhere'));
  writeFileSync(portalPath, portalDocument(portal));
});

afterAll(async () => {
  await sim?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('sync killed during its first run', () => {
  let ref: Reference;
  let nothing: Record<string, unknown>;
  const hits = new Map<string, Hit>();

  beforeAll(async () => {
    ref = await reference(newCase());
    // What a state holds before any run committed: what the first open creates.
    const empty = newCase();
    openSqliteStore(empty.state).close();
    nothing = logicalState(empty.state);
  });

  it('has a reference run with many pages, a link for every portal event and the outputs written', () => {
    expect(ref.lines.filter((l) => /^service: sweep: page/.test(l)).length).toBeGreaterThanOrEqual(10);
    expect(ref.lines).toContain('commit: committed');
    expect((ref.state.links as unknown[]).length).toBe(151);
    expect(Object.keys(ref.outputs.fragments).filter((f) => f.endsWith('.html'))).toHaveLength(151);
    expect(Object.keys(ref.outputs.fragments)).toContain('livelox-manifest.json');
    expect(JSON.parse(ref.outputs.out!).events).toHaveLength(151);
    expect(ref.code).toBe(1);
  });

  const plans: KillPlan[] = [
    { label: 'spawn +0ms', delayMs: 0 },
    { label: 'spawn +20ms', delayMs: 20 },
    after(/^state:/),
    after(/^service: asking/, LATENCY_MS / 2),
    page('sweep', 1),
    page('sweep', 1, LATENCY_MS / 2),
    page('sweep', 2, 3),
    page('sweep', 4),
    page('sweep', 5, LATENCY_MS - 2),
    page('sweep', 7),
    page('sweep', 9, LATENCY_MS / 2),
    page('sweep', 10),
    after(/^countries:/),
    after(/^linking:/),
    after(/^linking:/, 2),
    after(/^commit: committing/),
    after(/^commit: committed/),
    after(/^commit: committed/, 5),
    written('.', /^links\.json$/, 1),
    written('fragments', /\.html$/, 1),
    written('fragments', /\.html$/, 60),
    written('fragments', /\.html$/, 100),
  ];

  killAtEach(plans, newCase, () => ({ before: nothing, ref, runsBefore: 0 }), hits);

  it('was killed at 20 or more points, in every step of the work, before and after the commit', () => {
    expect(hits.size).toBe(plans.length);
    expect(hits.size).toBeGreaterThanOrEqual(20);
    // A delayed kill may land after a later line; a kill without delay lands right after its own.
    const steps = new Set([...hits.values()].map(stepOf));
    for (const step of ['start', 'state', 'pages', 'countries', 'linking', 'commit', 'outputs']) {
      expect([...steps]).toContain(step);
    }
    expect(new Set([...hits.values()].map((h) => h.at)).size).toBeGreaterThanOrEqual(12);
    expect(new Set([...hits.values()].map((h) => h.committed))).toEqual(new Set([false, true]));
    report('first run', hits);
  });
});

describe('sync killed during an incremental night', () => {
  let first: Case;
  let firstState: Record<string, unknown>;
  let ref: Reference;
  const hits = new Map<string, Hit>();

  /** A case that starts from the committed first night: its state (checkpointed) and outputs copied in. */
  function fromFirstNight(): Case {
    return copyOf(first);
  }

  beforeAll(async () => {
    first = newCase();
    const r = await runBin(first.args, env);
    expect(r.code, r.stderr).toBe(1);
    firstState = logicalState(first.state);
    // A day later: a class renamed, one added, an event published, one moved by a day, and the missing event created.
    sim.state.clock.advance(DAY_MS);
    const all = [...sim.state.eventsById.values()].sort((x, y) => x.id - y.id);
    const linked = all.filter((_, i) => i % 2 === 0);
    const [a, b, c] = [linked[3]!, linked[10]!, linked[20]!];
    // The event moved is alone in its country within a few days, so that a day's move keeps it linked.
    const d = linked.find(
      (e, i) =>
        i > 30 &&
        !all.some((o) => o !== e && o.countryCode === e.countryCode && Math.abs(o.startMs - e.startMs) < 4 * DAY_MS),
    )!;
    sim.world.changeEvent(a.id, { renameClasses: [{ id: a.classes[0]!.id, name: `${a.classes[0]!.name} Elite` }] });
    sim.world.changeEvent(b.id, { addClasses: ['Öppen 9'] });
    sim.world.changeEvent(c.id, { isPublished: !c.isPublished });
    sim.world.changeEvent(d.id, { start: new Date(d.startMs + DAY_MS) });
    const model = all[1]!;
    sim.world.createEvent({
      name: 'Nowhere Night Cup',
      start: new Date(model.startMs),
      end: new Date(model.endMs),
      countryCode: 'ISL',
      organisers: model.organisers.map((o) => o.name),
      classes: model.classes.map((k) => k.name),
    });
    ref = await reference(fromFirstNight());
  });

  it('has a reference night that asks only for changes and changes the state', () => {
    expect(ref.lines.some((l) => /^service: changes: page 1,/.test(l))).toBe(true);
    expect(ref.lines.some((l) => /^service: sweep/.test(l))).toBe(false);
    expect(ref.state).not.toEqual(firstState);
    // The history of this night: what follows the first night's.
    const history = ref.state.history as Array<{ key: string; change: string }>;
    const tonight = history.slice((firstState.history as unknown[]).length);
    const changes = tonight.map((h) => h.change);
    for (const kind of ['service_classes_changed', 'date_moved']) expect(changes).toContain(kind);
    expect(changes.filter((k) => k === 'published' || k === 'unpublished')).toHaveLength(1);
    expect(tonight).toContainEqual(expect.objectContaining({ key: 'portal:nowhere', change: 'newly_linked' }));
  });

  const plans: KillPlan[] = [
    after(/^service: asking/, LATENCY_MS / 2),
    page('changes', 1),
    after(/^linking:/),
    after(/^commit: committing/),
    after(/^commit: committed/),
    // Only the fragments whose links changed are written (about three), between the manifest's two writings. (A kill
    // when index.json is in place would race the little work left after it: the removals below come right after it.)
    written('fragments', /^livelox-manifest\.json$/, 1),
    written('fragments', /\.html$/, 1),
    written('fragments', /\.html$/, 2),
  ];

  killAtEach(plans, fromFirstNight, () => ({ before: firstState, ref, runsBefore: 1 }), hits);

  it('was killed at 5 or more points, in every step of the night, before and after the commit', () => {
    expect(hits.size).toBe(plans.length);
    expect(hits.size).toBeGreaterThanOrEqual(5);
    const steps = new Set([...hits.values()].map(stepOf));
    for (const step of ['pages', 'linking', 'commit', 'outputs']) expect([...steps]).toContain(step);
    expect(new Set([...hits.values()].map((h) => h.committed))).toEqual(new Set([false, true]));
    report('incremental night', hits);
  });
});

describe('sync killed while it removes the fragments of events that left the portal', () => {
  let first: Case;
  let firstState: Record<string, unknown>;
  let ref: Reference;
  const hits = new Map<string, Hit>();
  const smallerPortal = join(dir, 'portal-smaller.json');

  /** A case from the committed first night, a person's page in its folder, run with 30 events fewer in the portal. */
  function fromFirstNight(): Case {
    const c = copyOf(first);
    writeFileSync(join(c.outDir, 'welcome.html'), '<p>Our links</p>');
    return { ...c, args: c.args.map((a) => (a === portalPath ? smallerPortal : a)) };
  }

  beforeAll(async () => {
    first = newCase();
    const r = await runBin(first.args, env);
    expect(r.code, r.stderr).toBeLessThanOrEqual(1);
    firstState = logicalState(first.state);
    const portal = (JSON.parse(readFileSync(portalPath, 'utf8')) as { events: unknown[] }).events;
    writeFileSync(smallerPortal, JSON.stringify({ formatVersion: 1, events: portal.slice(30) }));
    ref = await reference(fromFirstNight());
  });

  it("has a reference night that removes 30 fragments and keeps the person's page", () => {
    const html = Object.keys(ref.outputs.fragments).filter((f) => f.endsWith('.html'));
    expect(html).toHaveLength(151 - 30 + 1);
    expect(ref.outputs.fragments['welcome.html']).toBe('<p>Our links</p>');
  });

  const plans: KillPlan[] = [
    written('fragments', /^livelox-manifest\.json$/, 1),
    // Every fragment left is unchanged: the .html events are the removals, the first right after index.json.
    written('fragments', /\.html$/, 1),
    written('fragments', /\.html$/, 15),
    written('fragments', /\.html$/, 30),
  ];

  killAtEach(plans, fromFirstNight, () => ({ before: firstState, ref, runsBefore: 1 }), hits);

  it('was killed at every step of writing the folder', () => {
    expect(hits.size).toBe(plans.length);
    report('removals', hits);
  });
});
