/**
 * What every job demo shares: an embedded simulator serving the default world (plus the demo event where a demo needs
 * it), a temporary folder for the state it writes, the job's own command run against the simulator as a user would
 * run it, and the end: the simulator stops with the command, or with `--keep` serves until Ctrl-C.
 *
 * The job runs as the real command in a child process (this package's own bin), not through a second copy of its
 * code: its report, its progress and its exit code are exactly what `livelox-bridge sync` (or `check-courses`,
 * `import`) shows, whatever those commands come to print.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join, relative } from 'node:path';
import { stderr } from 'node:process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { ENV } from '../../config.js';
import { generateDataset } from '../../simulator/dataset/generate.js';
import { loadDatasetFile } from '../../simulator/dataset/file.js';
import type { SimEvent } from '../../simulator/model.js';
import { startSimulator, type Simulator } from '../../simulator/server.js';
import { EXIT, type CommandContext } from '../spec.js';
import { terminal } from '../format.js';
import { printJson } from '../json-output.js';
import { shellWord } from '../shell-word.js';
import { serveUntilStopped, simulatorReadyLines } from '../simulator-info.js';

/** The fixtures the demos run on, shipped with the package (fixtures/demo/README.md says what each holds). */
const FIXTURES = fileURLToPath(new URL('../../../fixtures/demo/', import.meta.url));
/** This package's own bin: a demo runs the very command a user would. */
const BIN = fileURLToPath(new URL('../main.js', import.meta.url));

/** What `demo <job>` takes besides the job's name. */
export interface DemoOptions {
  /** Leave the simulator serving until Ctrl-C after the job. */
  keep: boolean;
}

/** A path into fixtures/demo, as a person in the current folder would type it. */
export function fixture(...parts: string[]): string {
  return shownPath(join(FIXTURES, ...parts));
}

function shownPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
}

/** The demo event (fixtures/demo/event.json): an event with courses that the course file and the routes are about. */
export async function demoEvent(): Promise<SimEvent> {
  const { events } = await loadDatasetFile(join(FIXTURES, 'event.json'));
  return events[0]!;
}

export interface DemoRun {
  sim: Simulator;
  /** A temporary folder for what the job writes (its state, its journal), removed when the demo ends. */
  dir: string;
  ctx: CommandContext;
}

/**
 * Runs `body` with a simulator serving the default world (seed 1, 300 events, as `livelox-bridge simulator` does),
 * with `extra` events beside it, and a temporary folder; both are gone when it returns, also on failure.
 */
export async function withDemoSimulator(
  ctx: CommandContext,
  setup: { extra?: readonly SimEvent[]; churn?: number; importDelayMs?: number },
  body: (run: DemoRun) => Promise<number>,
): Promise<number> {
  const world = generateDataset({ seed: 1, events: 300 });
  const sim = await startSimulator({
    port: 0,
    dataset: { ...world, events: [...world.events, ...(setup.extra ?? [])] },
    ...(setup.churn === undefined ? {} : { churn: setup.churn }),
    ...(setup.importDelayMs === undefined ? {} : { importDelayMs: setup.importDelayMs }),
  });
  let dir: string | undefined;
  try {
    dir = await mkdtemp(join(tmpdir(), 'livelox-bridge-demo-'));
    return await body({ sim, dir, ctx });
  } finally {
    await sim.close();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  }
}

/** What a job's command did: its exit code and, with --json, the one document it printed. */
interface CommandRun {
  code: number;
  document: unknown;
}

/**
 * Runs `livelox-bridge <args>` against the simulator, as a user in another shell would after pasting the simulator's
 * export block: its addresses and key in the environment (the user's own LIVELOX_* settings left out). Without
 * --json its output goes on as it comes, after the command line; with --json its one document is kept for the demo's.
 */
export async function runJob(run: DemoRun, args: readonly string[]): Promise<CommandRun> {
  const { sim, ctx } = run;
  if (!ctx.json) ctx.io.out(`$ livelox-bridge ${args.map(shellWord).join(' ')}`);
  const color = !ctx.json && terminal(ctx.env).color;
  // A terminal gets the command's own progress (a bar redrawn in place); a pipe or a log gets its lines through ours.
  const liveErr = !ctx.json && stderr.isTTY === true;
  const child = spawn(process.execPath, [BIN, ...args, ...(ctx.json ? ['--json'] : [])], {
    env: jobEnv(sim, ctx.env, color),
    stdio: ['ignore', 'pipe', liveErr ? 'inherit' : 'pipe'],
    // Its own process group: Ctrl-C reaches the demo only, which passes one SIGINT on, so that the command stops as
    // it would on its own Ctrl-C (a second one would make it stop at once, without its clean-up).
    detached: true,
  });
  const stop = (): void => void child.kill('SIGINT');
  ctx.signal.addEventListener('abort', stop, { once: true });
  if (ctx.signal.aborted) stop();
  let out = '';
  const lines = (stream: NodeJS.ReadableStream | null, each: (line: string) => void): void => {
    if (stream) createInterface({ input: stream }).on('line', each);
  };
  lines(child.stdout, (line) => (ctx.json ? (out += `${line}\n`) : ctx.io.out(line)));
  lines(child.stderr, (line) => ctx.io.err(line));
  const code = await new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (exit, signal) => resolve(exit ?? (signal === 'SIGINT' ? EXIT.interrupted : EXIT.failure)));
  });
  ctx.signal.removeEventListener('abort', stop);
  return { code, document: ctx.json ? parsedDocument(out, args[0] ?? '') : undefined };
}

function parsedDocument(text: string, command: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`the job (${command} --json) printed no JSON document: ${text.slice(0, 200) || '(nothing)'}`);
  }
}

/** The environment a job runs in: the simulator's addresses and key, nothing of the user's service settings. */
function jobEnv(sim: Simulator, env: CommandContext['env'], color: boolean): Record<string, string> {
  const kept = Object.entries(env).filter(
    (e): e is [string, string] => e[1] !== undefined && !e[0].startsWith('LIVELOX_'),
  );
  return {
    ...Object.fromEntries(kept),
    [ENV.baseUrl]: sim.info.baseUrl,
    [ENV.authUrl]: sim.info.authUrl,
    [ENV.viewerUrl]: sim.info.viewerUrl,
    [ENV.apiKey]: sim.info.apiKey,
    // Its stdout is our pipe: colour is asked for when ours would have it.
    ...(color ? { FORCE_COLOR: '1' } : {}),
  };
}

/** The lines before a job's output: what the demo runs and against what. */
export function introLines(what: string, run: DemoRun): string[] {
  return [
    what,
    `Every command below runs against an embedded simulator of the service (${String(run.sim.describe().events)} events), ` +
      `with ${ENV.baseUrl}, ${ENV.apiKey} and the other addresses pointing at it.`,
  ];
}

/**
 * The end of a demo: it says where its links point (a simulator that stops with the command, or one left serving
 * with --keep, with its addresses and export block as `livelox-bridge simulator` prints them), prints the --json
 * document, and serves until Ctrl-C with --keep. The exit code is the job's; with --keep, 0 once Ctrl-C has stopped
 * the simulator, as `livelox-bridge simulator` exits (the job's code is printed before, and in --json `exitCode`).
 */
export async function finishDemo(
  run: DemoRun,
  options: DemoOptions,
  result: { name: string; code: number; document: Record<string, unknown> },
): Promise<number> {
  const { sim, ctx } = run;
  // A job stopped by Ctrl-C ends the demo there: nothing is kept for a person who asked it to stop.
  const keep = options.keep && result.code !== EXIT.interrupted && !ctx.signal.aborted;
  if (ctx.json) {
    // Kept, its keys are what a script needs to use it; stopped, only where it was.
    const { baseUrl, authUrl, viewerUrl, controlUrl } = sim.info;
    const simulator = keep ? { ...sim.info, kept: true } : { baseUrl, authUrl, viewerUrl, controlUrl, kept: false };
    printJson(ctx, result.code === EXIT.ok, {
      demo: result.name,
      exitCode: result.code,
      ...result.document,
      simulator,
    });
  } else if (result.code === EXIT.interrupted) {
    ctx.io.err(`livelox-bridge demo: interrupted; ${result.name} was stopped and the simulator stops with it.`);
  } else if (keep) {
    ctx.io.out(
      [
        '',
        `The events and links above are this embedded simulator's, which keeps serving until Ctrl-C (and ${run.dir} ` +
          'stays until then):',
        ...simulatorReadyLines(sim),
        '',
        'Press Ctrl-C to stop.',
      ].join('\n'),
    );
  } else {
    ctx.io.out(
      [
        '',
        `The events and links above are an embedded simulator's (${sim.info.baseUrl.replace(/\/api$/, '')}), and the ` +
          'simulator stops with this command; run it again with --keep to leave it serving until Ctrl-C.',
      ].join('\n'),
    );
  }
  if (!keep) return result.code;
  await serveUntilStopped(sim, ctx);
  return EXIT.ok;
}
