// Simulator throughput on loopback: event search over 10,000 generated events, against a bare node:http server
// answering a precomputed body of the same size (the cost of HTTP alone) measured in the same run.
import { createServer } from 'node:http';
import { startSimulator } from '../dist/simulator/index.js';
import { load, row } from './lib.mjs';

export async function benchSimulator({ total = 4000, concurrency = 10 } = {}) {
  const t0 = performance.now();
  const sim = await startSimulator({ port: 0, events: 10_000, seed: 1 });
  const startupMs = performance.now() - t0;
  const headers = { ApiKey: sim.info.apiKey };
  const origin = new URL(sim.info.baseUrl).origin;
  const countries = ['SWE', 'NOR', 'FIN', 'CHE', 'GBR', 'CZE'];
  const months = Array.from({ length: 60 }, (_, i) => new Date(Date.UTC(2022, i, 1)).toISOString().slice(0, 19) + 'Z');
  // A realistic mix: month windows per country, circle searches, text search, paging through a year.
  const queries = [];
  for (let i = 0; i < 200; i++) {
    const m = i % 59;
    switch (i % 4) {
      case 0:
        queries.push(`/api/events?from=${months[m]}&to=${months[m + 1]}&countryId=${countries[i % 6]}`);
        break;
      case 1:
        queries.push(
          `/api/events?latitude=59.3&longitude=18.0&radius=50000&from=${months[m]}&sorting=distance&paging=0:50`,
        );
        break;
      case 2:
        queries.push(`/api/events?q=cup&from=${months[m]}&paging=0:20&includeClasses=false`);
        break;
      default:
        queries.push(`/api/events?from=2024-01-01T00:00:00Z&to=2025-01-01T00:00:00Z&paging=${i % 20}:100`);
    }
  }
  // Warm up the JIT and the connection pool before measuring.
  await load(origin, { total: 400, concurrency, next: (i) => ({ path: queries[i % queries.length], headers }) });
  const simResult = await load(origin, {
    total,
    concurrency,
    next: (i) => ({ path: queries[i % queries.length], headers }),
  });

  // Reference: the very same answers served from memory by a bare server, so the ratio isolates what the simulator
  // adds (parameter checks, search, serialization) to the cost of moving those bytes over HTTP.
  const bodies = await Promise.all(
    queries.map((q) =>
      fetch(new URL(q, origin), { headers })
        .then((r) => r.arrayBuffer())
        .then((b) => Buffer.from(b)),
    ),
  );
  const ref = createServer((req, res) => {
    const body = bodies[Number(req.url.slice(1))];
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
    res.end(body);
  });
  await new Promise((r) => ref.listen(0, '127.0.0.1', r));
  const refOrigin = `http://127.0.0.1:${ref.address().port}`;
  const refNext = (i) => ({ path: `/${i % queries.length}`, headers: {} });
  await load(refOrigin, { total: 400, concurrency, next: refNext });
  const refResult = await load(refOrigin, { total, concurrency, next: refNext });
  await new Promise((r) => ref.close(r));
  await sim.close();

  const meanKiB = bodies.reduce((n, b) => n + b.length, 0) / bodies.length / 1024;
  return [
    `Simulator: event search over 10,000 events (${total} requests, concurrency ${concurrency}, mean body ${meanKiB.toFixed(0)} KiB); startup ${startupMs.toFixed(0)} ms`,
    row('reference: bare node:http, same bodies', refResult),
    row('simulator GET /events (query mix)', simResult, refResult),
  ].join('\n');
}
