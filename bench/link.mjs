// The main job: one `link` run (read the export, find the event, map classes) against the simulator answering every
// request 50 ms late, beside the least it could take (its requests x 50 ms, and the same number of bare requests
// measured in the same run). Then the export side: reading the classes of a 50 MB ResultList through the EMS source,
// beside a plain read of the same bytes from disk. Last the class mapper at the documented maximum, 100,000 classes,
// beside 10,000 in the same run: near-linear mapping takes about 10x as long for 10x the classes, quadratic 100x. And
// `link --event-id` with an export of 100,000 classes, the whole job, beside 10,000. First, the accuracy: the confusion
// table of every scenario the tests hold (fixtures/link/scenarios.json).
//
//   npm run build && node bench/link.mjs
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { generateResultList } from './generate-iof.mjs';
import { confusionTable, readScenarios, runScenarios } from './link-scenarios.mjs';

const FIXTURE = fileURLToPath(new URL('../fixtures/ems/stockholm-2-days-stage2.StartList.xml', import.meta.url));
const LATENCY_MS = 50;
const RUNS = 5;
const MiB = 1024 * 1024;
const SELF = fileURLToPath(import.meta.url);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function benchLinkRun() {
  const { startSimulator } = await import('../dist/simulator/server.js');
  const { LiveloxClient } = await import('../dist/client.js');
  const { apiKey } = await import('../dist/auth/api-key.js');
  const { iofEmsSource } = await import('../dist/ems/iof-source.js');
  const { linkJob } = await import('../dist/jobs/link.js');
  const sim = await startSimulator({ port: 0, latencyMs: LATENCY_MS });
  try {
    const runs = [];
    for (let i = 0; i < RUNS; i++) {
      // A fresh client each run: no cached country list, as a nightly job or a one-off command starts.
      const client = new LiveloxClient({
        auth: apiKey(sim.info.apiKey),
        baseUrl: sim.info.baseUrl,
        viewerUrl: sim.info.viewerUrl,
      });
      const t0 = performance.now();
      const result = await linkJob({ client, source: iofEmsSource(FIXTURE) });
      runs.push({ ms: performance.now() - t0, requests: result.requests, links: result.links.length });
      await client.close?.();
      if (result.status !== 'linked') throw new Error(`link did not find the event: ${result.event.reason}`);
    }
    const requests = runs[0].requests;
    // The floor measured here: the same number of sequential requests the simulator answers fastest (countries).
    const bare = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      for (let r = 0; r < requests; r++) {
        const res = await request(new URL(`${sim.info.baseUrl}/countries`), { headers: { ApiKey: sim.info.apiKey } });
        await res.body.arrayBuffer();
      }
      bare.push(performance.now() - t0);
    }
    const wall = median(runs.map((r) => r.ms));
    const floor = median(bare);
    return [
      `link (fixtures/ems, ${runs[0].links} classes linked) against the simulator with ${LATENCY_MS} ms latency, median of ${RUNS} cold runs:`,
      `  requests                 ${requests}`,
      `  wall time                ${wall.toFixed(0).padStart(5)} ms`,
      `  minimum (requests x ${LATENCY_MS} ms) ${String(requests * LATENCY_MS).padStart(3)} ms  -> ${(wall / (requests * LATENCY_MS)).toFixed(2)}x`,
      `  ${requests} bare requests        ${floor.toFixed(0).padStart(5)} ms  -> ${(wall / floor).toFixed(2)}x (reference measured in this run)`,
    ].join('\n');
  } finally {
    await sim.close();
  }
}

/** One read in a fresh process, so that its peak memory is its own: `kind` is `ems` or `bytes`. Prints one JSON line. */
async function child(kind, file) {
  const before = process.resourceUsage().maxRSS;
  const t0 = performance.now();
  let classes = 0;
  if (kind === 'ems') {
    const { iofEmsSource } = await import('../dist/ems/iof-source.js');
    classes = (await iofEmsSource(file).read()).classes.length;
  } else {
    readFileSync(file);
  }
  const ms = performance.now() - t0;
  const peakMiB = (process.resourceUsage().maxRSS - before) / 1024;
  process.stdout.write(`${JSON.stringify({ ms, peakMiB, classes })}\n`);
}

function measure(kind, file) {
  const out = execFileSync(process.execPath, [SELF, '--child', kind, file], { encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').pop());
}

async function benchResultList() {
  const dir = mkdtempSync(join(tmpdir(), 'livelox-link-bench-'));
  try {
    const file = join(dir, 'ResultList-50MB.xml');
    const bytes = generateResultList({ targetBytes: 50_000_000, seed: 1 });
    writeFileSync(file, bytes);
    const mib = bytes.byteLength / MiB;
    const reads = [0, 1, 2].map(() => measure('ems', file));
    const refs = [0, 1, 2].map(() => measure('bytes', file));
    const read = median(reads.map((r) => r.ms));
    const ref = median(refs.map((r) => r.ms));
    return [
      `Classes of a ${mib.toFixed(0)} MiB ResultList through the EMS source (${reads[0].classes} classes), fresh process each, median of 3:`,
      `  EMS source read          ${read.toFixed(0).padStart(5)} ms  (${(mib / (read / 1000)).toFixed(0)} MiB/s, peak RSS +${median(reads.map((r) => r.peakMiB)).toFixed(0)} MiB)`,
      `  reading the bytes only   ${ref.toFixed(0).padStart(5)} ms  (peak RSS +${median(refs.map((r) => r.peakMiB)).toFixed(0)} MiB) -> ${(read / ref).toFixed(1)}x the time (reference)`,
    ].join('\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Event system and service class lists of `n` classes each: 90 % of the names equal, 5 % written differently (case and
 * spacing), 3 % misspelled, 2 % only on one side; so every step of the mapper (exact, normalised, similar, unmatched)
 * has its share at any size.
 */
function generateClasses(n) {
  let seed = 1;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const words = [
    'Skog',
    'Sprint',
    'Natt',
    'Lång',
    'Mellan',
    'Kort',
    'Motion',
    'Inskolning',
    'Grön',
    'Gul',
    'Vit',
    'Blå',
  ];
  const levels = ['', 'E', 'A', 'B', 'K', 'N', 'L'];
  const ems = [];
  const service = [];
  for (let i = 0; i < n; i++) {
    const word = words[Math.floor(i / 252) % words.length];
    const name = `${i % 2 ? 'H' : 'D'}${10 + 5 * (Math.floor(i / 2) % 18)}${levels[Math.floor(i / 36) % levels.length]} ${word} ${Math.floor(i / 3024) + 1}`;
    const r = random();
    ems.push({ name });
    if (r < 0.9) service.push({ id: i + 1, name });
    else if (r < 0.95) service.push({ id: i + 1, name: name.toLowerCase().replace(' ', '  ') });
    else if (r < 0.98) service.push({ id: i + 1, name: name.replace(word, `${word.slice(0, -1)}x`) });
    else service.push({ id: i + 1, name: `Extra ${i}` });
  }
  return { ems, service };
}

async function benchClassMapping() {
  const { matchClasses } = await import('../dist/match/classes.js');
  const time = (n) => {
    const { ems, service } = generateClasses(n);
    const runs = [0, 1, 2].map(() => {
      const t0 = performance.now();
      const mapping = matchClasses(ems, service);
      return { ms: performance.now() - t0, mapped: mapping.matches.length };
    });
    return { ms: median(runs.map((r) => r.ms)), mapped: runs[0].mapped };
  };
  time(2_000); // warm-up: the comparison is of the mapper's growth, not of the JIT
  const small = time(10_000);
  const large = time(100_000);
  return [
    'matchClasses (exact, normalised, similar and unmatched names mixed), median of 3:',
    `  10,000 classes (reference)     ${small.ms.toFixed(0).padStart(6)} ms  (${small.mapped} mapped)`,
    `  100,000 classes (the maximum)  ${large.ms.toFixed(0).padStart(6)} ms  (${large.mapped} mapped)  -> ${(large.ms / small.ms).toFixed(1)}x the time for 10x the classes (linear 10x, quadratic 100x)`,
  ].join('\n');
}

/**
 * `link export.json --event-id N` as the CLI runs it, with an EMS JSON export of 100,000 classes (the format's maximum)
 * against a service event with its usual few dozen classes, beside the same with 10,000 classes in the same run.
 */
async function benchLinkManyClasses() {
  const { startSimulator } = await import('../dist/simulator/server.js');
  const { LiveloxClient } = await import('../dist/client.js');
  const { apiKey } = await import('../dist/auth/api-key.js');
  const { openEmsFile } = await import('../dist/ems/open.js');
  const { linkJob } = await import('../dist/jobs/link.js');
  const sim = await startSimulator({ port: 0 });
  const dir = mkdtempSync(join(tmpdir(), 'lb-bench-link-many-'));
  try {
    const event = sim.state.dataset.events.find((e) => e.classes.length >= 20);
    const time = async (n) => {
      // The event's own classes, then generated ones up to n: a few map, the rest are left over on the export's side.
      const own = event.classes.map((c) => ({ name: c.name }));
      const { ems } = generateClasses(n - own.length);
      const file = join(dir, `export-${n}.json`);
      writeFileSync(file, JSON.stringify({ formatVersion: 1, event: { name: event.name }, classes: [...own, ...ems] }));
      const runs = [];
      for (let i = 0; i < 3; i++) {
        const client = new LiveloxClient({
          auth: apiKey(sim.info.apiKey),
          baseUrl: sim.info.baseUrl,
          viewerUrl: sim.info.viewerUrl,
          ratePerSecond: 0,
        });
        const t0 = performance.now();
        const result = await linkJob({ client, source: await openEmsFile(file), eventId: event.id, useCourses: false });
        runs.push({ ms: performance.now() - t0, links: result.links.length });
        await client.close();
      }
      return { ms: median(runs.map((r) => r.ms)), links: runs[0].links };
    };
    await time(2_000); // warm-up
    const small = await time(10_000);
    const large = await time(100_000);
    return [
      `link export.json --event-id ${event.id} (${event.classes.length} service classes), read + map + links, median of 3:`,
      `  10,000 classes in the export (reference)  ${small.ms.toFixed(0).padStart(6)} ms  (${small.links} linked)`,
      `  100,000 classes (the maximum)             ${large.ms.toFixed(0).padStart(6)} ms  (${large.links} linked)  -> ${(large.ms / small.ms).toFixed(1)}x the time for 10x the classes`,
    ].join('\n');
  } finally {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Every link scenario through the built matching: events right, wrong, refused, missed; classes right, wrong, missed. */
async function benchLinkScenarios() {
  const { iofEmsSource } = await import('../dist/ems/iof-source.js');
  const { isRelayEvent, matchClasses } = await import('../dist/match/classes.js');
  const { chooseEvent, scoreEvents } = await import('../dist/match/event.js');
  const realdata = fileURLToPath(new URL('../../shared/realdata/', import.meta.url));
  const run = await runScenarios(readScenarios(), {
    readFile: (path) => iofEmsSource(join(realdata, path)).read(),
    scoreEvents,
    chooseEvent,
    matchClasses,
    isRelayEvent,
  });
  return confusionTable(run);
}

/** Runs the parts and returns the report as text. */
export async function benchLink() {
  return [
    await benchLinkScenarios(),
    await benchLinkRun(),
    await benchResultList(),
    await benchClassMapping(),
    await benchLinkManyClasses(),
  ].join('\n\n');
}

if (process.argv[2] === '--child') await child(process.argv[3], process.argv[4]);
else if (process.argv[1] === SELF) console.log(await benchLink());
