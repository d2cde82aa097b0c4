// The nightly `sync` job against the simulator answering every request 50 ms late (issue 10), at 10,000 and 50,000
// service events (100,000 on request, see SIZES), every one of them inside the portal's window (the portal is every
// 10th event, as a multi-event EMS JSON document, so its dates span the whole dataset). Three nights on one state
// file: the first run (every page of the window and the country list), a night without change (the changes since the
// cursor, one request, and the light search of the days near the service's today, 3 back to 14 ahead, where portal
// events are linked: its pages), a night with 1 % churn (the simulator's own churn: changed, new and deleted events;
// a linked event deleted near today costs one more request, by id).
//
// The expected requests are counted from the simulator's own data in the same run: the events each query matches,
// in pages of 1000. Each run is a fresh process (the CLI's
// shape), so its peak RSS is its own; the simulator stays in this process, so the process must not be blocked while a
// run talks to it (async spawn).
//
// References, measured in this run: requests x 50 ms (the least the requests can take, one after another), the run's
// start-up (node, modules, reading the portal, opening the state), and the same first run against a simulator with no
// latency (what the run costs besides waiting: its own work and the simulator's).
//
//   npm run build && node bench/sync.mjs [events...]
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const LATENCY_MS = 50;
// 100,000 is left out of `npm run bench`: measured once on a 2-core machine, its first run took 138 s and an
// unchanged night 106 s (linking: the portal's events times the candidates per day, both 10x), ~9 min for all four
// runs. `node bench/sync.mjs 10000 100000` measures it.
const SIZES = [10_000, 50_000];
/** Every n-th service event is a portal event: 1,000 portal events at 10,000. */
const PORTAL_EVERY = 10;
const CHURN = 0.01;
/** MAX_PAGE_SIZE, the page size sync asks for. */
const PAGE = 1000;
const DAY_MS = 86_400_000;
const SEED = 1;
const MiB = 1024 * 1024;
const SELF = fileURLToPath(import.meta.url);
const run = promisify(execFile);

// ---------------------------------------------------------------------------------------------------------------
// The child: one sync run, as the CLI runs it, reporting its times, requests, peak RSS and the state file's size.

async function child(args) {
  const { baseUrl, apiKey: key, viewerUrl, portalFile, statePath } = JSON.parse(args);
  const baseRss = process.resourceUsage().maxRSS;
  const { readPortal } = await import('../dist/ems/portal.js');
  const { openSqliteStore } = await import('../dist/store/sqlite.js');
  const { syncJob } = await import('../dist/jobs/sync/sync.js');
  const { LiveloxClient } = await import('../dist/client.js');
  const { apiKey } = await import('../dist/auth/api-key.js');
  const portal = await readPortal([portalFile]);
  const store = openSqliteStore(statePath);
  // The client as the CLI builds it: default limits (10 requests/s), retries on.
  const client = new LiveloxClient({ auth: apiKey(key), baseUrl, viewerUrl });
  // performance.now() counts from the process's start: node, modules, portal and state are all in it.
  const startup = performance.now();
  const phases = {};
  let step = 'start';
  let since = startup;
  const onProgress = (p) => {
    if (p.step === step) return;
    const t = performance.now();
    phases[step] = (phases[step] ?? 0) + (t - since);
    step = p.step;
    since = t;
  };
  const result = await syncJob({ client, store, portal, onProgress });
  const done = performance.now();
  phases[step] = (phases[step] ?? 0) + (done - since);
  delete phases.start;
  store.close();
  await client.close();
  const closed = performance.now();
  const size = (p) => (existsSync(p) ? statSync(p).size : 0);
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(statePath, { readonly: true });
  const mirror = db.prepare('SELECT count(*) AS n FROM mirror_events').get().n;
  db.close();
  const out = {
    startup,
    job: done - startup,
    close: closed - done,
    phases,
    requests: result.requests,
    portalEvents: portal.events.length,
    portalProblems: portal.problems.length,
    linked: result.links.filter((l) => l.status === 'linked').length,
    changes: result.changes.length,
    window: result.window,
    modifiedSince: result.cursor.modifiedSince,
    mirror,
    stateBytes: size(statePath),
    walBytes: size(`${statePath}-wal`),
    peakMiB: process.resourceUsage().maxRSS / 1024,
    baseMiB: baseRss / 1024,
  };
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

/** One sync run in a fresh process; the wall time is the process's, spawn to exit. */
async function syncRun(sim, portalFile, statePath) {
  const args = JSON.stringify({
    baseUrl: sim.info.baseUrl,
    apiKey: sim.info.apiKey,
    viewerUrl: sim.info.viewerUrl,
    portalFile,
    statePath,
  });
  const before = sim.stats.snapshot().requests;
  const t0 = performance.now();
  const { stdout } = await run(process.execPath, [SELF, '--child', args], { maxBuffer: 16 * MiB });
  const wall = performance.now() - t0;
  const r = JSON.parse(stdout.trim().split('\n').pop());
  return { ...r, wall, simRequests: sim.stats.snapshot().requests - before };
}

// ---------------------------------------------------------------------------------------------------------------
// The parent: the simulator, the portal, and the three nights per size.

const day = (ms) => new Date(ms).toISOString().slice(0, 10);

/** The portal's document: every PORTAL_EVERY-th service event as the portal writes it (docs/ems-json.md). */
function writePortal(sim, file) {
  const events = [...sim.state.eventsById.values()].sort((a, b) => a.id - b.id);
  const entries = events
    .filter((_, i) => i % PORTAL_EVERY === 0)
    .map((e) => ({
      key: `portal:${e.id}`,
      event: {
        name: e.name,
        start: day(e.startMs),
        end: day(e.endMs - 1),
        organisers: e.organisers.map((o) => o.name),
        country: e.countryCode,
        ...(e.position ? { position: e.position } : {}),
      },
      classes: e.classes.map((c) => ({ name: c.name })),
    }));
  writeFileSync(file, JSON.stringify({ formatVersion: 1, events: entries }));
  return new Set(events.filter((_, i) => i % PORTAL_EVERY === 0).map((e) => e.id));
}

/**
 * The near search of a night at the service's clock `nowMs`: the events in the near window (its pages), and whether
 * a run asks for it at all (a linked portal event lies there that the changes since `since` did not return).
 * `deleted` are events deleted during the day, by their last state: each linked one near today is asked for by id.
 */
async function nearOf(sim, nowMs, portalIds, since, deleted = []) {
  const { nearWindow, DEFAULT_NEAR_DAYS } = await import('../dist/jobs/sync/near.js');
  const { overlaps, wholeSeconds } = await import('../dist/simulator/search.js');
  const near = nearWindow(new Date(nowMs), DEFAULT_NEAR_DAYS);
  const from = near.from.getTime();
  const to = near.to.getTime();
  let all = 0;
  let linkedUnseen = 0;
  for (const e of sim.state.dataset.events) {
    if (!overlaps(e, from, to)) continue;
    all++;
    if (portalIds.has(e.id) && wholeSeconds(e.modifiedMs) <= Date.parse(since)) linkedUnseen++;
  }
  const confirmations = deleted.filter((e) => portalIds.has(e.id) && overlaps(e, from, to)).length;
  const asked = linkedUnseen + confirmations > 0;
  return { from: near.from, to: near.to, all, asked, pages: asked ? pagesFor(all) : 0, confirmations };
}

/** What the service holds in the window, and of it what a changes query from `since` returns. */
async function inWindow(sim, window, since) {
  const { overlaps, wholeSeconds } = await import('../dist/simulator/search.js');
  const from = Date.parse(window.from);
  const to = Date.parse(window.to);
  let all = 0;
  let changed = 0;
  for (const e of sim.state.dataset.events) {
    if (!overlaps(e, from, to)) continue;
    all++;
    if (since !== undefined && wholeSeconds(e.modifiedMs) > Date.parse(since)) changed++;
  }
  return { all, changed };
}

/** Pages a paged query of `n` results takes: sync stops at the first page shorter than a full one. */
const pagesFor = (n) => Math.floor(n / PAGE) + 1;

async function measureSize(events, dir) {
  const { startSimulator } = await import('../dist/simulator/server.js');
  const { Churn } = await import('../dist/simulator/churn.js');
  const portalFile = join(dir, `portal-${events}.json`);

  // The reference without latency: the same first run, the same data.
  let t0 = performance.now();
  let sim = await startSimulator({ port: 0, events, seed: SEED, latencyMs: 0 });
  const generateMs = performance.now() - t0;
  const portalIds = writePortal(sim, portalFile);
  const portalEvents = portalIds.size;
  const noLatency = await syncRun(sim, portalFile, join(dir, `state-${events}-0.sqlite`));
  await sim.close();
  sim = undefined;

  sim = await startSimulator({ port: 0, events, seed: SEED, latencyMs: LATENCY_MS });
  try {
    const state = join(dir, `state-${events}.sqlite`);
    const first = await syncRun(sim, portalFile, state);
    const firstWindow = await inWindow(sim, first.window);

    sim.state.clock.advance(DAY_MS);
    const quietNear = await nearOf(sim, sim.state.clock.now(), portalIds, subtractHour(first.modifiedSince));
    const quiet = await syncRun(sim, portalFile, state);
    const quietWindow = await inWindow(sim, quiet.window, subtractHour(first.modifiedSince));

    // The simulator's churn, switched on from here: a day of it changes 1 % of the events, adds 0.1 %, deletes 0.02 %.
    const churn = new Churn(sim.world, sim.state, { rate: CHURN, seed: SEED });
    sim.state.clock.onAdvance((move) => churn.advance(move));
    const logged = sim.world.changes().length;
    const lastSeen = new Map(sim.state.eventsById);
    sim.state.clock.advance(DAY_MS);
    const kinds = { created: 0, changed: 0, deleted: 0 };
    const deleted = [];
    for (const c of sim.world.changes().slice(logged)) {
      kinds[c.kind]++;
      if (c.kind === 'deleted' && lastSeen.has(c.eventId)) deleted.push(lastSeen.get(c.eventId));
    }
    const churnNear = await nearOf(sim, sim.state.clock.now(), portalIds, subtractHour(quiet.modifiedSince), deleted);
    const churned = await syncRun(sim, portalFile, state);
    const churnWindow = await inWindow(sim, churned.window, subtractHour(quiet.modifiedSince));
    return {
      events,
      generateMs,
      portalEvents,
      noLatency,
      first,
      firstWindow,
      quiet,
      quietWindow,
      quietNear,
      churned,
      churnWindow,
      churnNear,
      kinds,
    };
  } finally {
    await sim.close();
  }
}

/** The `modifiedSince` a run after one that left cursor `c` asks with (the default 1 h overlap). */
function subtractHour(c) {
  return c === undefined ? undefined : new Date(Date.parse(c) - 3_600_000).toISOString();
}

// ---------------------------------------------------------------------------------------------------------------
// The report.

const ms = (x) => `${x.toFixed(0).padStart(6)} ms`;
const mib = (bytes) => `${(bytes / MiB).toFixed(1)} MiB`;
const x = (a, b) => `${(a / b).toFixed(2)}x`;
const phaseLine = (p) =>
  Object.entries(p)
    .map(([k, v]) => `${k} ${v.toFixed(0)}`)
    .join(', ');

function report(m) {
  const { first, quiet, churned, noLatency } = m;
  const pages = pagesFor(m.firstWindow.all);
  const rest = m.firstWindow.all % PAGE;
  const lastPage = rest === 0 ? 'an empty last page ends the paging' : `a last page of ${rest}`;
  const floor = first.requests * LATENCY_MS;
  const nearText = (n) =>
    n.asked
      ? `the near window ${n.from.toISOString().slice(0, 10)}..${n.to.toISOString().slice(0, 10)}: ${n.all} events, ${n.pages} page${n.pages === 1 ? '' : 's'}${n.confirmations ? `; ${n.confirmations} linked event${n.confirmations === 1 ? '' : 's'} deleted there, asked for by id` : ''}`
      : 'no linked event near today: no near search';
  const quietExpected = pagesFor(m.quietWindow.changed) + m.quietNear.pages;
  const churnExpected = pagesFor(m.churnWindow.changed) + m.churnNear.pages + m.churnNear.confirmations;
  const night = (label, r, expected, why) => [
    `  ${label}`,
    `    requests                   ${String(r.requests).padStart(6)}     expected ${expected} (${why})`,
    `    sync job                   ${ms(r.job)}  (${phaseLine(r.phases)})`,
    `    requests x ${LATENCY_MS} ms            ${ms(r.requests * LATENCY_MS)}  -> ${x(r.job, r.requests * LATENCY_MS)}`,
    `    process wall               ${ms(r.wall)}  vs requests x ${LATENCY_MS} ms + start-up ${ms(r.requests * LATENCY_MS + r.startup)} -> ${x(r.wall, r.requests * LATENCY_MS + r.startup)}`,
    `    peak RSS ${r.peakMiB.toFixed(0).padStart(5)} MiB, state file ${mib(r.stateBytes)}${r.walBytes ? ` + WAL ${mib(r.walBytes)}` : ''} after close`,
  ];
  return [
    `${m.events.toLocaleString('en-US')} service events (generated in ${(m.generateMs / 1000).toFixed(1)} s), portal ${m.portalEvents} events, window ${first.window.from.slice(0, 10)}..${first.window.to.slice(0, 10)}: ${m.firstWindow.all} events in it, ${first.mirror} mirrored, ${first.linked} of ${first.portalEvents} linked${first.portalProblems ? `, ${first.portalProblems} portal problems` : ''}`,
    `  first run`,
    `    requests                   ${String(first.requests).padStart(6)}     expected ${pages + 1} (${pages} pages: ${Math.floor(m.firstWindow.all / PAGE)} of ${PAGE}, ${lastPage}; + the country list; the simulator counted ${first.simRequests})`,
    `    start-up                   ${ms(first.startup)}  (node, modules, reading the portal, opening the state)`,
    `    sync job                   ${ms(first.job)}  (${phaseLine(first.phases)})`,
    `    requests x ${LATENCY_MS} ms            ${ms(floor)}  -> ${x(first.job, floor)}`,
    `    same run, 0 ms latency     ${ms(noLatency.job)}  (${phaseLine(noLatency.phases)}) -> floor + this ${ms(floor + noLatency.job)}, ${x(first.job, floor + noLatency.job)}`,
    `    process wall               ${ms(first.wall)}  vs requests x ${LATENCY_MS} ms + start-up ${ms(floor + first.startup)} -> ${x(first.wall, floor + first.startup)} (target 1.2x)`,
    `    peak RSS ${first.peakMiB.toFixed(0).padStart(5)} MiB (node alone ${first.baseMiB.toFixed(0)} MiB), state file ${mib(first.stateBytes)}${first.walBytes ? ` + WAL ${mib(first.walBytes)}` : ''} after close`,
    ...night(
      'an unchanged night (clock +1 day, no churn)',
      quiet,
      quietExpected,
      `${pagesFor(m.quietWindow.changed)} for the ${m.quietWindow.changed} events modified within the 1 h overlap + ${nearText(m.quietNear)}`,
    ),
    ...night(
      `a night with ${CHURN * 100} % churn (clock +1 day: ${m.kinds.changed} changed, ${m.kinds.created} new, ${m.kinds.deleted} deleted)`,
      churned,
      churnExpected,
      `${m.churnWindow.changed} events to fetch, pages of ${PAGE}; + ${nearText(m.churnNear)}`,
    ),
  ].join('\n');
}

function growth(a, b) {
  const n = b.events / a.events;
  const line = (label, va, vb) =>
    `  ${label.padEnd(28)} ${String(va).padStart(9)} -> ${String(vb).padStart(9)}  ${x(vb, va).padStart(7)}`;
  const r = (v) => v.toFixed(0);
  return [
    `Growth from ${a.events.toLocaleString('en-US')} to ${b.events.toLocaleString('en-US')} events (linear = ${n.toFixed(2)}x, quadratic = ${(n * n).toFixed(2)}x):`,
    line('first run requests', a.first.requests, b.first.requests),
    line('first run sync job ms', r(a.first.job), r(b.first.job)),
    line('first run, 0 ms latency, ms', r(a.noLatency.job), r(b.noLatency.job)),
    line('first run peak RSS MiB', r(a.first.peakMiB), r(b.first.peakMiB)),
    line('  less node alone MiB', r(a.first.peakMiB - a.first.baseMiB), r(b.first.peakMiB - b.first.baseMiB)),
    line('state file KiB', r(a.first.stateBytes / 1024), r(b.first.stateBytes / 1024)),
    line('unchanged night requests', a.quiet.requests, b.quiet.requests),
    line('unchanged night sync job ms', r(a.quiet.job), r(b.quiet.job)),
    line('unchanged night peak RSS MiB', r(a.quiet.peakMiB), r(b.quiet.peakMiB)),
    line('churn night requests', a.churned.requests, b.churned.requests),
    line('churn night sync job ms', r(a.churned.job), r(b.churned.job)),
  ].join('\n');
}

/** Runs every size and returns the report as text. */
export async function benchSync(sizes = SIZES) {
  const dir = mkdtempSync(join(tmpdir(), 'livelox-sync-bench-'));
  try {
    const results = [];
    for (const events of sizes) results.push(await measureSize(events, dir));
    const parts = [`sync against the simulator with ${LATENCY_MS} ms latency, one measurement per size:`];
    for (const m of results) parts.push(report(m));
    for (let i = 1; i < results.length; i++) parts.push(growth(results[0], results[i]));
    return parts.join('\n\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--child') await child(process.argv[3]);
else if (process.argv[1] === SELF) {
  const sizes = process.argv.slice(2).map(Number);
  console.log(await benchSync(sizes.length > 0 ? sizes : SIZES));
}
