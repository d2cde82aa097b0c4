// CLI start-up (issues 12 and 16), against a bare `node -e 0` measured in the same run.
//
// 1. Every `<command> --help` (and each subcommand's), `--version`, the main help, a mistyped command and a completion
//    script: read from the commands' specs alone (src/cli/spec.ts), so each should cost about what Node itself costs
//    (target: within 2x bare node).
// 2. Each command that talks to the service: the time from spawning it to its first request arriving at a loopback
//    server started here (answered 503, the command then killed), against bare node and against a bare node that
//    sends one request itself (what any Node program pays to get a request out).
//
//   npm run build && node bench/startup.mjs [runs]     (or: npm run bench startup)
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'dist/cli/main.js');
const TARGET = 2;

function median(times) {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Median wall time of `runs` spawns of `node args`: the time a user waits. */
function measure(args, runs, env = process.env) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, args, { stdio: 'ignore', env });
    times.push(performance.now() - t0);
    if (r.status === null) throw new Error(`${args.join(' ')} was killed`);
  }
  return median(times);
}

/** Every command line whose answer comes from the specs alone. */
async function specCases() {
  const { COMMANDS } = await import(join(ROOT, 'dist/cli/registry.js'));
  const cases = [
    ['--version', ['--version']],
    ['--help', ['--help']],
    ['evnets (typo, exit 2)', ['evnets']],
  ];
  const visit = (spec, path) => {
    cases.push([`${path.join(' ')} --help`, [...path, '--help']]);
    for (const sub of spec.subcommands ?? []) visit(sub, [...path, sub.name]);
  };
  for (const spec of COMMANDS) visit(spec, [spec.name]);
  cases.push(['completion bash', ['completion', 'bash']]);
  return { cases, commands: COMMANDS };
}

/** A loopback server that records when each request arrives and answers 503; `next()` waits for the next one. */
async function firstRequestServer() {
  let waiting;
  const server = createServer((req, res) => {
    const at = performance.now();
    req.resume();
    res.writeHead(503, { 'retry-after': '60', connection: 'close' }).end('{"message":"bench"}');
    waiting?.(at);
    waiting = undefined;
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${server.address().port}`;
  return {
    url,
    next: () => new Promise((resolve) => (waiting = resolve)),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** Spawns `node args` and resolves with the ms until the server saw its first request; the child is then killed. */
async function timeToFirstRequest(server, args, env) {
  const arrived = server.next();
  const t0 = performance.now();
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'], env, cwd: ROOT });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const outcome = await Promise.race([arrived, exited.then(() => 'exited')]);
  child.kill('SIGKILL');
  await exited;
  if (outcome === 'exited') throw new Error(`${args.slice(1).join(' ')} ended before any request: ${stderr}`);
  return outcome - t0;
}

/** What each service command is given to reach its first request, in `dir` (files it reads, state it writes). */
function serviceCases(dir, url) {
  const gpx = join(dir, 'run.gpx');
  const points = Array.from({ length: 20 }, (_, i) => {
    const t = new Date(Date.UTC(2026, 4, 10, 10, 0, i * 10)).toISOString();
    return `<trkpt lat="${(59.3 + i * 0.0002).toFixed(4)}" lon="18.06"><time>${t}</time></trkpt>`;
  });
  writeFileSync(
    gpx,
    `<?xml version="1.0"?><gpx version="1.1" creator="bench" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>${points.join('')}</trkseg></trk></gpx>`,
  );
  const tokens = join(dir, 'tokens.json');
  const issuedFor = { clientId: 'livelox-bridge', authUrl: url, baseUrl: url };
  writeFileSync(
    tokens,
    JSON.stringify({
      version: 1,
      accessToken: 'bench-access',
      expiresAt: Date.now() + 3600_000,
      scopes: [],
      issuedFor,
    }),
    { mode: 0o600 },
  );
  const key = ['--base-url', url, '--api-key', 'bench-key'];
  return {
    link: ['link', 'fixtures/ems/stockholm-2-days-stage2.StartList.xml', ...key],
    sync: ['sync', 'fixtures/portal/folder', '--state', join(dir, 'sync.sqlite'), ...key],
    events: ['events', '--from', '2026-05-01', ...key],
    event: ['event', '1', ...key],
    countries: ['countries', ...key],
    courses: ['courses', '1', ...key],
    'check-courses': ['check-courses', 'fixtures/datasets/cannock-chase.courses.xml', '--event-id', '1', ...key],
    import: ['import', gpx, '--journal', join(dir, 'imports.sqlite'), ...key],
    status: ['status', 'bench-route', ...key],
    whoami: ['whoami', '--token-file', tokens],
    logout: ['logout', '--token-file', tokens],
  };
}

export async function benchStartup(runs = 15) {
  const { cases, commands } = await specCases();
  const lines = [`CLI start-up, median of ${runs} runs each`];
  const bare = measure(['-e', '0'], runs);
  lines.push(`${'node -e 0 (reference)'.padEnd(44)} ${bare.toFixed(0).padStart(5)} ms`);
  let worst = 0;
  for (const [name, args] of cases) {
    const ms = measure([BIN, ...args], runs);
    // Interleaved with the reference so that a busy moment of the machine falls on both.
    const ratio = ms / measure(['-e', '0'], runs);
    worst = Math.max(worst, ratio);
    lines.push(
      `${`livelox-bridge ${name}`.padEnd(44)} ${ms.toFixed(0).padStart(5)} ms  ${ratio.toFixed(2)}x bare node`,
    );
  }
  lines.push(
    `Worst of the above: ${worst.toFixed(2)}x bare node (target <= ${TARGET}x): ${worst <= TARGET ? 'met' : 'NOT met'}.`,
  );

  const server = await firstRequestServer();
  const dir = mkdtempSync(join(tmpdir(), 'lb-bench-startup-'));
  const home = join(dir, 'home');
  mkdirSync(home);
  // No colours, no proxy, no user's key or login: the child sees only what the bench gives it.
  const env = { PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_HOME: join(home, 'config') };
  try {
    const runsEach = Math.max(3, Math.ceil(runs / 2));
    const nodeRequest = `require('node:http').get(${JSON.stringify(server.url)}).on('error', () => {})`;
    const reference = [];
    for (let i = 0; i < runsEach; i++) reference.push(await timeToFirstRequest(server, ['-e', nodeRequest], env));
    const refMs = median(reference);
    lines.push(
      '',
      `Time to the first request at a loopback server, median of ${runsEach} runs each`,
      `${'node -e "http.get(...)" (reference)'.padEnd(44)} ${refMs.toFixed(0).padStart(5)} ms  ${(refMs / bare).toFixed(2)}x bare node`,
    );
    const args = serviceCases(dir, server.url);
    const measured = commands.filter((c) => c.options?.['base-url'] !== undefined);
    for (const spec of measured) {
      const given = args[spec.name];
      if (given === undefined) {
        lines.push(`${`livelox-bridge ${spec.name}`.padEnd(44)}     -     (asks nothing before a browser answers)`);
        continue;
      }
      const times = [];
      for (let i = 0; i < runsEach; i++) {
        rmSync(join(dir, 'sync.sqlite'), { force: true });
        rmSync(join(dir, 'imports.sqlite'), { force: true });
        times.push(await timeToFirstRequest(server, [BIN, ...given], env));
      }
      const ms = median(times);
      lines.push(
        `${`livelox-bridge ${spec.name}`.padEnd(44)} ${ms.toFixed(0).padStart(5)} ms  ${(ms / bare).toFixed(2)}x bare node, ${(ms / refMs).toFixed(2)}x node sending one request`,
      );
    }
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
  lines.push('', ...noSchema(runs, bare));
  return lines.join('\n');
}

/**
 * Without IOF.xsd (IOF_XSD naming nothing, an empty cache), `validate` and `check-courses` must stop at once, before a
 * file is read, a worker started or the service asked (issue 16): their exit 1 against bare node.
 */
function noSchema(runs, bare) {
  const dir = mkdtempSync(join(tmpdir(), 'lb-bench-no-schema-'));
  const env = { ...process.env, IOF_XSD: join(dir, 'missing.xsd'), XDG_CACHE_HOME: dir };
  const file = join(ROOT, 'fixtures/datasets/cannock-chase.courses.xml');
  const cases = [
    ['validate, no schema (exit 1)', [BIN, 'validate', file]],
    ['check-courses, no schema (exit 1)', [BIN, 'check-courses', file, '--event-id', '1', '--api-key', 'x']],
  ];
  try {
    return [
      `Without a schema, median of ${runs} runs each`,
      ...cases.map(([name, args]) => {
        const ms = measure(args, runs, env);
        return `${`livelox-bridge ${name}`.padEnd(44)} ${ms.toFixed(0).padStart(5)} ms  ${(ms / bare).toFixed(2)}x bare node`;
      }),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(await benchStartup(Number(process.argv[2] ?? 15)));
}
