// Shared benchmark helpers: a closed-loop load generator over undici and summary statistics.
import { Pool } from 'undici';

/** Runs `total` requests from `concurrency` workers against `origin`; `next(i)` gives each request's path and headers. */
export async function load(origin, { total, concurrency, next }) {
  const pool = new Pool(origin, { connections: concurrency, pipelining: 1 });
  const latencies = new Float64Array(total);
  let issued = 0;
  let failures = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (issued < total) {
        const i = issued++;
        const { path, headers } = next(i);
        const start = performance.now();
        const res = await pool.request({ method: 'GET', path, headers });
        await res.body.arrayBuffer();
        latencies[i] = performance.now() - start;
        if (res.statusCode !== 200) failures++;
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  await pool.close();
  const sorted = Array.from(latencies).sort((a, b) => a - b);
  const pct = (p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
  return { total, failures, seconds, rps: total / seconds, p50: pct(50), p99: pct(99) };
}

export function row(name, r, ref) {
  const ratio = ref ? `  ${(r.rps / ref.rps).toFixed(2)}x reference throughput` : '';
  return `${name.padEnd(34)} ${r.rps.toFixed(0).padStart(7)} req/s  p50 ${r.p50.toFixed(2).padStart(6)} ms  p99 ${r.p99.toFixed(2).padStart(7)} ms${r.failures ? `  (${r.failures} non-200)` : ''}${ratio}`;
}
