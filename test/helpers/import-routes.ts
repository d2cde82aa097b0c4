/** A simulator with quick imports, a journal in a temporary folder and GPX files on disk, for import-routes tests. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { LiveloxClient } from '../../src/client.js';
import { writeGpx } from '../../src/gps/write.js';
import type { RouteToImport } from '../../src/jobs/import-routes/job.js';
import { startSimulator, type Simulator, type SimulatorOptions } from '../../src/simulator/server.js';
import { SqliteImportJournal } from '../../src/store/import-journal.js';
import { clientFor } from './simulator.js';
import { routableEvents, runCourse } from './tracks.js';

/** The contract's 5-15 s import time, scaled down 100 times; the job is told the same range. */
const IMPORT_TIME = { minMs: 50, maxMs: 150 };
export const FAST = { importTimeMs: IMPORT_TIME, waitTimeoutMs: 20_000 };

export class ImportBench {
  readonly dir = mkdtempSync(join(tmpdir(), 'lb-import-'));
  readonly #open: Array<{ close(): unknown }> = [];

  async sim(options: SimulatorOptions = {}): Promise<Simulator> {
    const s = await startSimulator({ port: 0, events: 20, seed: 3, importDelayMs: IMPORT_TIME, ...options });
    this.#open.push(s);
    return s;
  }

  client(s: Simulator, extra: Parameters<typeof clientFor>[1] = {}): LiveloxClient {
    const c = clientFor(s, extra);
    this.#open.push(c);
    return c;
  }

  journal(name: string): SqliteImportJournal {
    const j = new SqliteImportJournal(join(this.dir, `${name}.sqlite`));
    this.#open.push(j);
    return j;
  }

  /** `n` distinct GPX files running simulated events' courses, written under `name`/. */
  files(s: Simulator, name: string, n: number): RouteToImport[] {
    const events = routableEvents(s.state.dataset.events);
    const folder = join(this.dir, name);
    mkdirSync(folder, { recursive: true });
    return Array.from({ length: n }, (_, i) => {
      const event = events[i % events.length]!;
      const file = join(folder, `r${i}.gpx`);
      writeFileSync(file, writeGpx(runCourse(event, event.classes[0]!.id, event.startMs + i * 1000)));
      return { file };
    });
  }

  async close(): Promise<void> {
    for (const o of this.#open.splice(0).reverse()) await o.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** The simulator holds `count` routes, each id once. */
export function expectEachOnce(s: Simulator, count: number): void {
  const ids = s.routes().map((r) => r.id);
  expect(new Set(ids).size).toBe(ids.length);
  expect(ids.length).toBe(count);
}

/** Final statuses of a run that ran to its end. */
export const SETTLED = ['imported', 'error'];
