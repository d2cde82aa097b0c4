// The client against the simulator with 20 ms injected latency:
// - searchAll over 10,000 events, against a bare undici loop fetching the very same pages (the reference);
// - requests per route for import + waitForImport, against the minimum of two (one POST, one GET once settled).
import { request } from 'undici';
import { apiKey, LiveloxClient, writeGpx } from '../dist/index.js';

import { startSimulator } from '../dist/simulator/index.js';

const LATENCY_MS = 20;

export async function benchClient({ routes = 20 } = {}) {
  const lines = [`Client against the simulator with ${LATENCY_MS} ms latency`];
  const sim = await startSimulator({ port: 0, events: 10_000, seed: 1, latencyMs: LATENCY_MS });
  const client = new LiveloxClient({
    auth: apiKey(sim.info.apiKey),
    baseUrl: sim.info.baseUrl,
    authUrl: sim.info.authUrl,
    viewerUrl: sim.info.viewerUrl,
    ratePerSecond: 0,
  });
  const params = { from: new Date('2020-01-01T00:00:00Z'), to: new Date('2030-01-01T00:00:00Z') };
  const pageSize = 500;

  // Warm-up (JIT, connections, the simulator's record cache) for both sides.
  for await (const _ of client.events.searchAll(params, { pageSize })) void _;

  const before = sim.stats.count('GET /events');
  let t0 = performance.now();
  let count = 0;
  for await (const _ of client.events.searchAll(params, { pageSize })) count++;
  const clientMs = performance.now() - t0;
  const pages = sim.stats.count('GET /events') - before;

  t0 = performance.now();
  let refCount = 0;
  for (let index = 0; ; index++) {
    const url = `${sim.info.baseUrl}/events?from=2020-01-01T00:00:00Z&to=2030-01-01T00:00:00Z&includeUrls=true&paging=${index}:${pageSize}`;
    const res = await request(url, { headers: { ApiKey: sim.info.apiKey } });
    const page = await res.body.json();
    refCount += page.length;
    if (page.length < pageSize) break;
  }
  const refMs = performance.now() - t0;
  lines.push(
    `searchAll, ${count} events in ${pages} pages of ${pageSize}:`,
    `  reference: bare undici loop   ${(pages / (refMs / 1000)).toFixed(1).padStart(6)} req/s  ${refMs.toFixed(0).padStart(6)} ms (${refCount} events)`,
    `  client.events.searchAll       ${(pages / (clientMs / 1000)).toFixed(1).padStart(6)} req/s  ${clientMs.toFixed(0).padStart(6)} ms  ${(refMs / clientMs).toFixed(2)}x reference throughput`,
    `  floor (pages x latency)                     ${(pages * LATENCY_MS).toFixed(0).padStart(6)} ms`,
  );

  // Route imports with the service's own 5-15 s import time and the client's default polling.
  const candidates = sim.state.dataset.events.filter((e) => e.isPublished && e.hasValidMapAndCourses && e.position);
  const files = Array.from({ length: routes }, (_, i) => {
    const e = candidates[i];
    const p = { lat: e.position.latitude, lng: e.position.longitude };
    const points = Array.from({ length: 200 }, (_, k) => ({
      lat: p.lat + k * 1e-5,
      lng: p.lng + k * 1e-5,
      time: e.startMs + 3600_000 + k * 5000,
    }));
    return new TextEncoder().encode(writeGpx(points));
  });
  sim.stats.reset();
  t0 = performance.now();
  const settled = await Promise.all(
    files.map(async (data) => {
      const { id } = await client.routes.import({ data });
      return client.routes.waitForImport(id);
    }),
  );
  const importMs = performance.now() - t0;
  const posts = sim.stats.count('POST /importableRoutes');
  const polls = sim.stats.count('GET /importableRoutes/{id}');
  const perRoute = (posts + polls) / routes;
  lines.push(
    `import + waitForImport, ${routes} routes (import time 5-15 s, default polling), ${settled.filter((r) => r.status !== 'pending').length} settled in ${(importMs / 1000).toFixed(1)} s:`,
    `  requests per route: ${perRoute.toFixed(2)} (${posts} POST + ${polls} GET); reference minimum 2.00; ${(perRoute / 2).toFixed(2)}x the minimum`,
  );
  await client.close();
  await sim.close();
  return lines.join('\n');
}
