/**
 * Spawning `livelox-bridge import` against a simulator in the test process: route files of every format that run
 * the simulator's courses (so that imports find an event), the command line that points the child at the simulator
 * with a fast polling pace, and a report reduced to what must be the same between a run killed and resumed and one
 * uninterrupted run (viewer urls carry the service's route numbers, which follow the order posts arrive in).
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { writeFit } from '../../src/gps/fit-write.js';
import { writeGpx, writeTcx } from '../../src/gps/write.js';
import { startSimulator, type Simulator, type SimulatorOptions } from '../../src/simulator/server.js';
import { cleanEnv, runBin } from './cli.js';
import { serviceArgs } from './sync-cli.js';
import { routableEvents, runCourse } from './tracks.js';

/** Imports take 30-80 ms here; the CLI is told so with --import-time, so that it polls at that pace. */
export const IMPORT_DELAY = { minMs: 30, maxMs: 80 };

export function importSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  return startSimulator({ port: 0, events: 20, seed: 3, importDelayMs: IMPORT_DELAY, ...options });
}

/**
 * A test file's cases of `import` runs: a temporary home (in memory where the machine has /dev/shm), a clean
 * environment, a simulator and a folder per case, all removed after the file. Call at the top of a test file.
 */
export function importCliCases(prefix: string) {
  const dir = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), prefix));
  const env = cleanEnv(dir);
  const sims: Simulator[] = [];
  let n = 0;
  beforeAll(() => mkdirSync(join(dir, 'config'), { recursive: true }));
  afterAll(async () => {
    for (const s of sims) await s.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    dir,
    env,
    freshSim: async (options: SimulatorOptions = {}): Promise<Simulator> => {
      const sim = await importSimulator(options);
      sims.push(sim);
      return sim;
    },
    caseDir: (): string => {
      const d = join(dir, `case-${++n}`);
      mkdirSync(d, { recursive: true });
      return d;
    },
    /** `import ... --json`, its document parsed. */
    importJson: async (args: string[], options: { cwd?: string } = {}) => {
      const r = await runBin(['import', ...args, '--json'], env, options);
      return { ...r, doc: r.stdout.trim() === '' ? undefined : JSON.parse(r.stdout) };
    },
  };
}

/** The options every import run gets: the simulator, its key, the journal and the fast pace. */
export function importArgs(sim: Simulator, journal: string): string[] {
  return [
    '--journal',
    journal,
    '--import-time',
    `${IMPORT_DELAY.minMs}ms-${IMPORT_DELAY.maxMs}ms`,
    ...serviceArgs(sim),
  ];
}

export type RouteFormat = 'gpx' | 'tcx' | 'fit';

/**
 * Writes `n` route files into `folder` (created), cycling through `formats`, each a run of a simulated event's course
 * (distinct start times make distinct files: give calls for one simulator different `offset`s). Answers the paths.
 */
export function writeRoutes(
  sim: Simulator,
  folder: string,
  n: number,
  options: { formats?: readonly RouteFormat[]; prefix?: string; offset?: number } = {},
): string[] {
  const { formats = ['gpx', 'tcx', 'fit'], prefix = 'r', offset = 0 } = options;
  mkdirSync(folder, { recursive: true });
  const events = routableEvents(sim.state.dataset.events);
  const paths: string[] = [];
  for (let i = 0; i < n; i++) {
    const event = events[i % events.length]!;
    const points = runCourse(event, event.classes[0]!.id, event.startMs + (i + offset + 1) * 7000);
    const format = formats[i % formats.length]!;
    const path = join(folder, `${prefix}${String(i).padStart(3, '0')}.${format}`);
    const body = format === 'gpx' ? writeGpx(points) : format === 'tcx' ? writeTcx(points) : writeFit(points);
    writeFileSync(path, body);
    paths.push(path);
  }
  return paths;
}

/** A report's route as it must come out of any sequence of runs: a route skipped from the journal was imported. */
export interface FinalRoute {
  file: string;
  id: string | undefined;
  status: string;
  eventName: string | undefined;
  className: string | undefined;
  hasViewerUrl: boolean;
  errorMessage: string | undefined;
}

export function finalRoutes(document: { routes: Array<Record<string, unknown>> }): FinalRoute[] {
  return document.routes.map((r) => ({
    file: r.file as string,
    id: r.id as string | undefined,
    status: r.status === 'skipped' && r.fromJournal === true ? 'imported' : (r.status as string),
    eventName: r.eventName as string | undefined,
    className: r.className as string | undefined,
    hasViewerUrl: typeof r.viewerUrl === 'string',
    errorMessage: r.errorMessage as string | undefined,
  }));
}
