// Bulk route import (issue 11): 500 GPX routes against the simulator importing each in 5-15 s (drawn per route) and
// answering every request 5 ms late, importRoutesJob in this process with wait on and its defaults (concurrency 8,
// maxWaiting 16 x concurrency), the client as the CLI builds it (10 requests/s, retries on).
//
// What the issue asks, as ratios: requests per route (target <= 2.5; the least is 2, one POST and one status request
// once settled) and the wall time against routes / concurrency x the mean import time (10 s), the time a batch that
// held a slot through each import would need (target <= 1.3x). Because the job waits off the slots, that minimum is
// far above what it can do, so two references of its own design are printed too: the moment the last import was done
// at the simulator (no run can end before it), and requests / the client's rate limit (the polls and the POSTs share
// it, so a batch this size is bound by it, not by the import time).
//
// The routes run simulated events' courses at 4 m/s (as test/helpers/tracks.ts does, rebuilt here from dist so the
// bench imports no tests), each starting a second after the one before, so every file is distinct.
//
// Then the command line against the library (issue 17: the documented throughput must be reachable from the CLI):
// 400 routes against a fast simulator (imports 50-150 ms, the contract's times scaled down 100 times), once with the
// job in this process and the client unlimited (how docs/import.md measured "400 routes in about 3 s"), once as
// `livelox-bridge import --wait --rate 400 --concurrency 8` in a child process (its start-up included), the ratio
// printed. The CLI's default --rate 10 is given as its floor (requests / 10), not run: it would take minutes.
//
//   npm run build && node bench/import.mjs [routes]
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const ROUTES = 500;
const IMPORT_TIME = { minMs: 5000, maxMs: 15_000 };
const MEAN_IMPORT_MS = (IMPORT_TIME.minMs + IMPORT_TIME.maxMs) / 2;
const LATENCY_MS = 5;
/** The job's and the client's defaults, stated here to print the references; the job is not told them. */
const CONCURRENCY = 8;
const MAX_WAITING = 16 * CONCURRENCY;
const RATE_PER_SECOND = 10;
const SEED = 1;
const SELF = fileURLToPath(import.meta.url);
const BIN = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
/** The command-line comparison: routes, the fast simulator's import time, and the flags under test. */
const CLI_ROUTES = 400;
const FAST_IMPORT = { minMs: 50, maxMs: 150 };
const CLI_FLAGS = ['--rate', '400', '--concurrency', String(CONCURRENCY)];

// ---------------------------------------------------------------------------------------------------------------
// Routes: a run through every control of a class's course, a point every 5 s.

/** Events that can take routes: published, with courses, and a class whose course has positioned controls. */
const routable = (events) =>
  events.filter((e) => e.isPublished && e.hasValidMapAndCourses && e.courses && e.classes.length > 1 && e.position);

function runCourse(distanceM, event, classId, startMs) {
  const { controls, courses, classAssignments } = event.courses;
  const a = classAssignments.find((x) => x.classId === String(classId));
  const course = courses.find((c) => c.name === a.courseName);
  const byId = new Map(controls.map((c) => [c.id, c.position]));
  const stops = course.controls.map((cc) => byId.get(cc.controlId));
  const points = [];
  let t = startMs;
  for (let i = 0; i < stops.length - 1; i++) {
    const [p, q] = [stops[i], stops[i + 1]];
    const steps = Math.max(1, Math.ceil(distanceM(p, q) / 20));
    for (let s = 0; s < steps; s++) {
      points.push({ time: t, lat: p.lat + ((q.lat - p.lat) * s) / steps, lng: p.lng + ((q.lng - p.lng) * s) / steps });
      t += 5000;
    }
  }
  const last = stops[stops.length - 1];
  points.push({ time: t, lat: last.lat, lng: last.lng });
  return points;
}

async function writeRoutes(sim, folder, n) {
  const { writeGpx } = await import('../dist/index.js');
  const { distanceM } = await import('../dist/geo/distance.js');
  const events = routable(sim.state.dataset.events);
  mkdirSync(folder, { recursive: true });
  return Array.from({ length: n }, (_, i) => {
    const event = events[i % events.length];
    const file = join(folder, `r${i}.gpx`);
    writeFileSync(file, writeGpx(runCourse(distanceM, event, event.classes[0].id, event.startMs + i * 1000)));
    return { file };
  });
}

// ---------------------------------------------------------------------------------------------------------------
// The run and its report.

const s = (ms) => `${(ms / 1000).toFixed(1).padStart(6)} s`;
const x = (a, b) => `${(a / b).toFixed(2)}x`;

/** Imports `routes` generated routes and returns the report as text, then the command line's throughput. */
export async function benchImport(routes = ROUTES) {
  return `${await benchJobPace(routes)}\n${await benchCliThroughput()}`;
}

async function benchJobPace(routes) {
  const { apiKey, importRoutesJob, LiveloxClient, openImportJournal } = await import('../dist/index.js');
  const { startSimulator } = await import('../dist/simulator/index.js');
  const dir = mkdtempSync(join(tmpdir(), 'livelox-import-bench-'));
  const sim = await startSimulator({
    port: 0,
    events: 50,
    seed: SEED,
    importDelayMs: IMPORT_TIME,
    latencyMs: LATENCY_MS,
  });
  const client = new LiveloxClient({
    auth: apiKey(sim.info.apiKey),
    baseUrl: sim.info.baseUrl,
    authUrl: sim.info.authUrl,
    viewerUrl: sim.info.viewerUrl,
  });
  const journal = openImportJournal(join(dir, 'journal.sqlite'));
  try {
    const files = await writeRoutes(sim, join(dir, 'routes'), routes);
    const rssBefore = process.resourceUsage().maxRSS;
    const attemptsBefore = client.transport.attempts;
    const t0Date = Date.now();
    const t0 = performance.now();
    const result = await importRoutesJob({ client, journal, routes: files, wait: true, importTimeMs: IMPORT_TIME });
    const wall = performance.now() - t0;
    const attempts = client.transport.attempts - attemptsBefore;
    const peakMiB = process.resourceUsage().maxRSS / 1024;

    const stats = sim.stats.snapshot();
    const posts = sim.stats.count('POST /importableRoutes');
    const gets = sim.stats.count('GET /importableRoutes/{id}');
    const records = [...sim.state.routes.values()];
    const delays = records.map((r) => r.readyMs - r.receivedMs);
    const meanDelay = delays.reduce((a, b) => a + b, 0) / delays.length;
    const lastReady = Math.max(...records.map((r) => r.readyMs)) - t0Date;
    const lastPost = Math.max(...records.map((r) => r.receivedMs)) - t0Date;
    const reposts = records.reduce((n, r) => n + r.postCount - 1, 0);
    const p = result.progress;

    const perRoute = attempts / routes;
    const issueMin = (routes / CONCURRENCY) * MEAN_IMPORT_MS;
    const rateFloor = (attempts / RATE_PER_SECOND) * 1000;
    const statuses = Object.entries(stats.byEndpoint)
      .map(([k, v]) => `${k} ${JSON.stringify(v)}`)
      .join(', ');
    return [
      `Bulk import of ${routes} routes, simulator import time ${IMPORT_TIME.minMs / 1000}-${IMPORT_TIME.maxMs / 1000} s (drawn mean ${(meanDelay / 1000).toFixed(2)} s, slowest ${(Math.max(...delays) / 1000).toFixed(2)} s), ${LATENCY_MS} ms latency;`,
      `importRoutesJob with wait, default concurrency ${CONCURRENCY} and maxWaiting ${MAX_WAITING}, client at its default ${RATE_PER_SECOND} requests/s:`,
      `  routes                     ${routes}: ${p.imported} imported, ${p.errors} error, ${p.pending} pending, ${p.failed} failed, ${p.notSent} not sent, ${p.skipped} skipped`,
      `  requests (client attempts) ${attempts} (job counted ${result.requests}); simulator ${stats.requests}: ${posts} POST, ${gets} GET status, ${reposts} re-posts; ${statuses}`,
      `  requests per route         ${perRoute.toFixed(2)}  (target <= 2.5: ${x(perRoute, 2.5)} of it; least possible 2: ${x(perRoute, 2)})`,
      `  wall time                  ${s(wall)}`,
      `  issue's minimum            ${s(issueMin)}  (${routes} / ${CONCURRENCY} x ${MEAN_IMPORT_MS / 1000} s) -> ${x(wall, issueMin)} (target <= 1.3x)`,
      `  last import done           ${s(lastReady)}  (after the start; the last POST at ${s(lastPost).trim()}) -> ${x(wall, lastReady)}`,
      `  requests / rate limit      ${s(rateFloor)}  (${attempts} / ${RATE_PER_SECOND} per s) -> ${x(wall, rateFloor)}`,
      `  what bounds it             ${wall <= 1.1 * rateFloor ? `the client's ${RATE_PER_SECOND} requests/s, which POSTs and polls share (the wall is within 1.1x of requests / rate), not concurrency ${CONCURRENCY} or maxWaiting ${MAX_WAITING}` : `more than the rate limit explains: the ${CONCURRENCY} slots or the ${MAX_WAITING} waiting routes`}`,
      `  peak RSS                   ${peakMiB.toFixed(0)} MiB (${(rssBefore / 1024).toFixed(0)} MiB before the job; the simulator is in this process)`,
    ].join('\n');
  } finally {
    journal.close();
    await client.close();
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The same routes through the job in this process (unlimited client) and through the command line with CLI_FLAGS. */
async function benchCliThroughput(routes = CLI_ROUTES) {
  const { apiKey, importRoutesJob, LiveloxClient, openImportJournal } = await import('../dist/index.js');
  const { startSimulator } = await import('../dist/simulator/index.js');
  const dir = mkdtempSync(join(tmpdir(), 'livelox-import-cli-bench-'));
  const sims = [];
  const simulator = async () => {
    const sim = await startSimulator({ port: 0, events: 50, seed: SEED, importDelayMs: FAST_IMPORT });
    sims.push(sim);
    return sim;
  };
  try {
    const jobSim = await simulator();
    const files = await writeRoutes(jobSim, join(dir, 'routes'), routes);
    const { baseUrl, authUrl, viewerUrl } = jobSim.info;
    const client = new LiveloxClient({
      auth: apiKey(jobSim.info.apiKey),
      baseUrl,
      authUrl,
      viewerUrl,
      ratePerSecond: 0,
    });
    const journal = openImportJournal(join(dir, 'job.sqlite'));
    const t0 = performance.now();
    const job = await importRoutesJob({ client, journal, routes: files, wait: true, importTimeMs: FAST_IMPORT });
    const jobMs = performance.now() - t0;
    journal.close();
    await client.close();

    const cliSim = await simulator();
    const t1 = performance.now();
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        BIN,
        'import',
        join(dir, 'routes'),
        '--wait',
        '--json',
        '--import-time',
        `${FAST_IMPORT.minMs}ms-${FAST_IMPORT.maxMs}ms`,
        ...CLI_FLAGS,
        '--journal',
        join(dir, 'cli.sqlite'),
        '--base-url',
        cliSim.info.baseUrl,
        '--auth-url',
        cliSim.info.authUrl,
        '--viewer-url',
        cliSim.info.viewerUrl,
        '--api-key',
        cliSim.info.apiKey,
      ],
      { maxBuffer: 64 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1' } },
    );
    const cliMs = performance.now() - t1;
    const cli = JSON.parse(stdout).progress;
    const settled = (p) => `${p.imported} imported, ${p.errors} error, ${p.pending} pending, ${p.failed} failed`;
    return [
      `Through the command line: ${routes} routes, simulator imports ${FAST_IMPORT.minMs}-${FAST_IMPORT.maxMs} ms:`,
      `  importRoutesJob, client unlimited   ${s(jobMs)}  (${job.requests} requests, ${(job.requests / (jobMs / 1000)).toFixed(0)}/s; ${settled(job.progress)})`,
      `  import ${CLI_FLAGS.join(' ')} ${s(cliMs)}  (${cli.requests} requests, ${(cli.requests / (cliMs / 1000)).toFixed(0)}/s; ${settled(cli)}) -> ${x(cliMs, jobMs)} of the job's time, node's start-up included`,
      `  import at its default --rate ${RATE_PER_SECOND}     ${s((cli.requests / RATE_PER_SECOND) * 1000)}  (floor: ${cli.requests} requests / ${RATE_PER_SECOND} per s; not run)`,
    ].join('\n');
  } finally {
    for (const sim of sims) await sim.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === SELF) console.log(await benchImport(Number(process.argv[2] ?? ROUTES)));
