// CLI start-up (issue 12): how long `livelox-bridge` takes to answer before any work, against a bare `node -e 0`
// measured in the same run. Each command's modules load only when it runs (src/cli/registry.ts), so `--version`,
// `--help` and a mistyped command should cost about what Node itself costs (target: within 2x), while `link --help`
// shows what loading one command's modules adds.
//
//   npm run build && node bench/startup.mjs [runs]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));

/** Median wall time of `runs` spawns: the time a user waits. */
function measure(args, runs, env = process.env) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, args, { stdio: 'ignore', env });
    times.push(performance.now() - t0);
    if (r.status === null) throw new Error(`${args.join(' ')} was killed`);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

export async function benchStartup(runs = 15) {
  const cases = [
    ['livelox-bridge --version', [BIN, '--version']],
    ['livelox-bridge --help', [BIN, '--help']],
    ['livelox-bridge evnets (typo, exit 2)', [BIN, 'evnets']],
    ['livelox-bridge link --help', [BIN, 'link', '--help']],
    ['livelox-bridge sync --help', [BIN, 'sync', '--help']],
  ];
  // Interleaved with the reference so that a busy moment of the machine falls on both.
  const bare = measure(['-e', '0'], runs);
  const lines = [
    `CLI start-up, median of ${runs} runs each`,
    `${'node -e 0 (reference)'.padEnd(40)} ${bare.toFixed(0).padStart(5)} ms`,
  ];
  for (const [name, args] of cases) {
    const ms = measure(args, runs);
    const ref = measure(['-e', '0'], runs);
    lines.push(
      `${name.padEnd(40)} ${ms.toFixed(0).padStart(5)} ms  ${(ms / ref).toFixed(2)}x bare node (target <= 2x for --version/--help)`,
    );
  }
  lines.push(...noSchema(runs));
  return lines.join('\n');
}

/**
 * Without IOF.xsd (IOF_XSD naming nothing, an empty cache), `validate` and `check-courses` must stop at once, before a
 * file is read, a worker started or the service asked (issue 16): their exit 1 against bare node.
 */
function noSchema(runs) {
  const dir = mkdtempSync(join(tmpdir(), 'lb-bench-no-schema-'));
  const env = { ...process.env, IOF_XSD: join(dir, 'missing.xsd'), XDG_CACHE_HOME: dir };
  const file = fileURLToPath(new URL('../fixtures/datasets/cannock-chase.courses.xml', import.meta.url));
  const cases = [
    ['validate, no schema (exit 1)', [BIN, 'validate', file]],
    ['check-courses, no schema (exit 1)', [BIN, 'check-courses', file, '--event-id', '1', '--api-key', 'x']],
  ];
  try {
    return cases.map(([name, args]) => {
      const ms = measure(args, runs, env);
      const ref = measure(['-e', '0'], runs);
      return `${name.padEnd(40)} ${ms.toFixed(0).padStart(5)} ms  ${(ms / ref).toFixed(2)}x bare node`;
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(await benchStartup(Number(process.argv[2] ?? 15)));
}
