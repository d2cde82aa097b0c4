// Publishing (issue 19): the real OCAD course file and a generated map image, publishJob in this process against the
// simulator answering every request 50 ms late, the client as the CLI builds it. A first publish, the browser step
// (the simulator's control, not timed), then a publish of the same file again (the update path, imported: import
// again).
//
// What the issue asks, as ratios: the requests each publish made against the least its flow needs (a first publish:
// create + upload + validation = 3; an update: get + update + upload + import = 4: the update here also asks for the
// validation before it imports, so that a file the service finds wrong never replaces the imported courses: 5), and
// the wall time against requests x 50 ms (the least the requests can take, one after another). A third reference: the
// same first publish against a simulator without latency (what publishing costs besides waiting: reading and
// validating the course file, placing the map, the zip).
//
//   npm run build && node bench/publish.mjs
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pngImage } from './png.mjs';

const LATENCY_MS = 50;
const COURSE_FILE = fileURLToPath(
  new URL('../../shared/realdata/iof3/rg2_ellenbrook_CourseData_OCAD11.xml', import.meta.url),
);
/** The file's paper extent (152.1 x 223.0 mm) at 0.1 mm a pixel. */
const IMAGE = { width: 1521, height: 2230 };
const LEAST = { first: 3, update: 4 };
const RUNS = 5;

/** Requests the simulator answered on the Event Integration API since its stats were reset. */
function importableRequests(sim) {
  return Object.entries(sim.stats.snapshot().byEndpoint)
    .filter(([endpoint]) => / \/importableEvents/.test(endpoint))
    .reduce((n, [, statuses]) => n + Object.values(statuses).reduce((a, b) => a + b, 0), 0);
}

/** One first publish and one update on a fresh state, timed, with the requests each made. */
async function publishTwice(latencyMs, dir, round) {
  // The package's public entry points only: what a user of the library would import.
  const { apiKey, LiveloxClient, openPublishState, publishJob } = await import('../dist/index.js');
  const { startSimulator } = await import('../dist/simulator/index.js');
  const sim = await startSimulator({ port: 0, events: 20, seed: 1, latencyMs });
  const client = new LiveloxClient({
    auth: apiKey(sim.info.apiKey),
    baseUrl: sim.info.baseUrl,
    authUrl: sim.info.authUrl,
    viewerUrl: sim.info.viewerUrl,
  });
  const state = openPublishState(join(dir, `state-${latencyMs}-${round}.sqlite`));
  const options = { courseFile: COURSE_FILE, map: { image: join(dir, 'map.png') }, state };
  try {
    sim.stats.reset();
    let t0 = performance.now();
    const first = await publishJob(client, options);
    const firstMs = performance.now() - t0;
    const firstRequests = importableRequests(sim);
    const event = sim.state.importableEvents.get(first.importableId);
    await sim.importableEvents.importNow(event);
    sim.stats.reset();
    t0 = performance.now();
    const update = await publishJob(client, options);
    const updateMs = performance.now() - t0;
    if (update.action !== 'update' || update.state !== 'imported') throw new Error('the update did not import');
    return { firstMs, firstRequests, updateMs, updateRequests: importableRequests(sim) };
  } finally {
    state.close();
    await client.close();
    await sim.close();
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (v) => `${v.toFixed(0).padStart(5)} ms`;
const x = (a, b) => `${(a / b).toFixed(2)}x`;

export async function benchPublish() {
  const dir = mkdtempSync(join(tmpdir(), 'livelox-publish-bench-'));
  try {
    writeFileSync(join(dir, 'map.png'), pngImage(IMAGE.width, IMAGE.height));
    const slow = [];
    const fast = [];
    for (let i = 0; i < RUNS; i++) {
      slow.push(await publishTwice(LATENCY_MS, dir, i));
      fast.push(await publishTwice(0, dir, i));
    }
    const m = (runs, key) => median(runs.map((r) => r[key]));
    const firstRequests = m(slow, 'firstRequests');
    const updateRequests = m(slow, 'updateRequests');
    const lines = [
      `publish: the OCAD course file and a ${IMAGE.width} x ${IMAGE.height} map, ${LATENCY_MS} ms a request, median of ${RUNS}`,
      `  first publish   ${firstRequests} requests (least ${LEAST.first}: ${x(firstRequests, LEAST.first)})  ` +
        `${ms(m(slow, 'firstMs'))}  ${x(m(slow, 'firstMs'), firstRequests * LATENCY_MS)} requests x latency`,
      `  update          ${updateRequests} requests (least ${LEAST.update}: ${x(updateRequests, LEAST.update)}; ` +
        `the validation before the import)  ${ms(m(slow, 'updateMs'))}  ` +
        `${x(m(slow, 'updateMs'), updateRequests * LATENCY_MS)} requests x latency`,
      `  without latency: first ${ms(m(fast, 'firstMs'))}, update ${ms(m(fast, 'updateMs'))} ` +
        `(reading, validating, placing the map, the zip: the work besides waiting)`,
    ];
    return lines.join('\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(await benchPublish());
