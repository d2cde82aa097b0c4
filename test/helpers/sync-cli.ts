/**
 * Spawning `livelox-bridge sync` against a simulator that runs in the test process: the portal written as one
 * multi-event EMS JSON file, the service options, a run killed with SIGKILL at a chosen line of its `--progress`
 * output (or a time after spawn), what it wrote read back, and state files read or copied whole. Kept apart from
 * cli.ts because killing a child mid-run needs its stderr line by line, which `runBin` collects only at the end.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { copyFileSync, existsSync, readdirSync, readFileSync, watch } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import type { PortalEvent } from '../../src/ems/portal.js';
import type { SimEvent } from '../../src/simulator/model.js';
import type { Simulator } from '../../src/simulator/server.js';
import { BIN, ROOT } from './cli.js';
import { logicalState } from './sync.js';

/** The portal's events as the multi-event EMS JSON document (docs/ems-json.md) a portal would write. */
export function portalDocument(events: readonly PortalEvent[]): string {
  return JSON.stringify({
    formatVersion: 1,
    events: events.map((p) => ({
      key: p.key,
      ...(p.serviceEventId === undefined ? {} : { serviceEventId: p.serviceEventId }),
      event: p.export.event,
      classes: p.export.classes,
    })),
  });
}

/** The command-line options that point a child at `sim` with its API key. */
export function serviceArgs(sim: Simulator): string[] {
  const { baseUrl, authUrl, viewerUrl, apiKey } = sim.info;
  return ['--base-url', baseUrl, '--auth-url', authUrl, '--viewer-url', viewerUrl, '--api-key', apiKey];
}

/**
 * Stops the simulator's clock: from now on it moves only when a test advances it. The service's `Date` goes into the
 * state (when the country list was fetched), so two runs seconds apart differ there; with the clock stopped a run killed
 * and run again must give exactly what one uninterrupted run gave.
 */
export function freezeClock(sim: Simulator): void {
  const clock = sim.state.clock;
  const at = clock.now() - clock.offsetMs;
  clock.now = () => at + clock.offsetMs;
}

/**
 * When to kill, `delayMs` after one of: the first stderr line matching `line`; the `nth` file matching `file.name`
 * renamed into place in `file.dir` (a folder that exists: an output written whole); else the spawn.
 */
export interface KillPlan {
  label: string;
  line?: RegExp;
  file?: { dir: string; name: RegExp; nth: number };
  delayMs: number;
}

export interface KilledRun {
  /** The child died of the SIGKILL; false when it ended on its own before the kill point. */
  killed: boolean;
  /** The last whole stderr line the test had read when it sent SIGKILL ('' for none). */
  lastLine: string;
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the bin and sends it SIGKILL at `plan`'s point. */
export function runAndKill(args: string[], env: Record<string, string>, plan: KillPlan): Promise<KilledRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env });
    let stdout = '';
    let stderr = '';
    let pending = '';
    let lastLine = '';
    let killedAt: string | undefined;
    let scheduled = false;
    const kill = (): void => {
      if (killedAt !== undefined || child.exitCode !== null) return;
      killedAt = lastLine;
      child.kill('SIGKILL');
    };
    const schedule = (): void => {
      scheduled = true;
      if (plan.delayMs === 0) kill();
      else setTimeout(kill, plan.delayMs);
    };
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
      pending += d;
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const line of lines) {
        lastLine = line;
        if (!scheduled && plan.line?.test(line)) schedule();
      }
    });
    // inotify tells each rename into the folder by the new name: one event per output put in place.
    let renamed = 0;
    const watcher = plan.file && watch(plan.file.dir);
    watcher?.on('change', (type, name) => {
      if (type === 'rename' && !scheduled && plan.file!.name.test(String(name)) && ++renamed === plan.file!.nth) {
        schedule();
      }
    });
    if (plan.line === undefined && plan.file === undefined) schedule();
    const guard = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      watcher?.close();
      clearTimeout(guard);
      // A child that had just ended on its own when the signal went out exits with a code, not by the signal.
      const killed = killedAt !== undefined && signal === 'SIGKILL';
      resolve({ killed, lastLine: killedAt ?? lastLine, code, stdout, stderr });
    });
  });
}

/** Whether `path` holds a state yet: a run killed early leaves no file, or one with no tables. */
function hasState(path: string): boolean {
  if (!existsSync(path)) return false;
  const db = new Database(path, { readonly: true });
  try {
    return (db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'runs'").get() as { n: number }).n > 0;
  } finally {
    db.close();
  }
}

/** The state's logical content (`logicalState`), or undefined when there is no state yet. */
export function stateOrNone(path: string): Record<string, unknown> | undefined {
  return hasState(path) ? logicalState(path) : undefined;
}

/** Runs committed in a state (0 without one). */
export function runCount(path: string): number {
  if (!hasState(path)) return 0;
  const db = new Database(path, { readonly: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM runs').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

/** Copies a state file whole: its WAL folded into the file first, so that the copy alone holds every commit. */
export function copyState(from: string, to: string): void {
  const db = new Database(from);
  try {
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
  copyFileSync(from, to);
}

export interface Outputs {
  /** The `--out` file's text, undefined when it was not written. */
  out: string | undefined;
  /** Every fragment in `--out-dir` by file name (hidden files left out). */
  fragments: Record<string, string>;
  /** Hidden files in `--out-dir` and beside `--out`: temporary files a killed run left behind. */
  temps: string[];
}

/** What a run wrote to `out` and `outDir`. */
export function outputsOf(out: string, outDir: string): Outputs {
  const fragments: Record<string, string> = {};
  const temps: string[] = [];
  if (existsSync(outDir)) {
    for (const name of readdirSync(outDir).sort()) {
      if (name.startsWith('.')) temps.push(name);
      else fragments[name] = readFileSync(join(outDir, name), 'utf8');
    }
  }
  for (const name of readdirSync(dirname(out))) if (name.startsWith(`.${basename(out)}.`)) temps.push(name);
  return { out: existsSync(out) ? readFileSync(out, 'utf8') : undefined, fragments, temps };
}

/** A published Swedish event of one club, `daysAhead` days after the service's clock (on the hour), four hours long. */
export function createEventAhead(
  sim: Simulator,
  name: string,
  club: string,
  daysAhead: number,
  classes: string[],
): SimEvent {
  const hourMs = 3_600_000;
  const start = Math.floor(sim.state.clock.now() / hourMs) * hourMs + daysAhead * 86_400_000;
  return sim.world.createEvent({
    name,
    start: new Date(start),
    end: new Date(start + 4 * hourMs),
    countryCode: 'SWE',
    organisers: [club],
    classes,
    isPublished: true,
  });
}

/** A loopback port nothing listens on (one just closed): connecting is refused at once. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
