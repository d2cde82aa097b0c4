/**
 * `sync` and `import` on a damaged state file or journal, as the built bin: exit 4, the file named with what to do
 * (restore it, or move it away and start anew), nothing committed, and no request sent when the damage shows before
 * the run starts. The damage: a page of garbage in the middle, a file cut short, bytes overwritten inside a row so
 * that its JSON no longer parses, a JSON value of the wrong type, and a row that only a step late in the run reads.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PortalEvent } from '../../src/ems/portal.js';
import type { SimEvent } from '../../src/simulator/model.js';
import { startSimulator, type Simulator } from '../../src/simulator/server.js';
import { cleanEnv, runBin, type CliRun } from '../helpers/cli.js';
import { importArgs, importSimulator, writeRoutes } from '../helpers/import-cli.js';
import { copyState, portalDocument, serviceArgs } from '../helpers/sync-cli.js';
import { logicalState, portalEventOf } from '../helpers/sync.js';

const dir = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'lb-damage-cli-'));
const env = cleanEnv(dir);
const RESTORE = 'Restore it from a backup, or move it away (with its -wal and -shm files, if any) to start a new';
let sim: Simulator;
let events: SimEvent[];
/** The state after a first night, checkpointed: each case damages a copy. */
let first: string;
let portal: PortalEvent[];
let n = 0;

function copyOfFirst(): string {
  const state = join(dir, `state-${++n}.sqlite`);
  copyState(first, state);
  return state;
}

function writePortal(events: readonly PortalEvent[]): string {
  const file = join(dir, `portal-${++n}.json`);
  writeFileSync(file, portalDocument(events));
  return file;
}

async function sync(state: string, portalFile: string, ...args: string[]): Promise<CliRun & { requests: number }> {
  const before = sim.stats.snapshot().requests;
  const r = await runBin(['sync', portalFile, '--state', state, ...serviceArgs(sim), ...args], env);
  return { ...r, requests: sim.stats.snapshot().requests - before };
}

/** Every occurrence of `from` in the file's bytes becomes `to` (same length): bytes overwritten inside rows. */
function overwrite(file: string, from: string, to: string): void {
  const bytes = readFileSync(file);
  let found = 0;
  for (let at = bytes.indexOf(from); at >= 0; at = bytes.indexOf(from, at + 1), found++)
    Buffer.from(to).copy(bytes, at);
  expect(found, from).toBeGreaterThan(0);
  writeFileSync(file, bytes);
}

beforeAll(async () => {
  mkdirSync(join(dir, 'config'), { recursive: true });
  sim = await startSimulator({ port: 0, seed: 7, events: 200 });
  events = [...sim.state.eventsById.values()].sort((a, b) => a.startMs - b.startMs);
  // Every 20th event by date: the window between them holds service events the portal does not have.
  portal = events.filter((_, i) => i % 20 === 0).map((e) => portalEventOf(e));
  first = join(dir, 'first.sqlite');
  const r = await sync(first, writePortal(portal));
  expect(r.code, r.stderr).toBe(0);
});

afterAll(async () => {
  await sim?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('sync on a damaged state: exit 4, nothing committed', () => {
  /** Refused before any request, the file untouched, in words and in --json. */
  async function refusedAtOnce(state: string, expected: RegExp): Promise<void> {
    const bytes = readFileSync(state);
    const portalFile = writePortal(portal);
    const r = await sync(state, portalFile);
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).toMatch(expected);
    expect(r.stderr).toContain(`livelox-bridge sync: ${state}: `);
    expect(r.stderr).toContain(RESTORE);
    expect(r.stderr).toContain('Nothing was committed');
    expect(r.requests).toBe(0);
    expect(readFileSync(state).equals(bytes)).toBe(true);
    const json = await sync(state, portalFile, '--json');
    expect(json.code).toBe(4);
    expect(JSON.parse(json.stdout)).toMatchObject({
      ok: false,
      committed: false,
      error: { code: 'state', reason: 'corrupt', path: state },
    });
  }

  it('refuses a page of garbage in the middle of the file', async () => {
    const state = copyOfFirst();
    const bytes = readFileSync(state);
    const middle = Math.floor(bytes.length / 4096 / 2) * 4096;
    expect(middle).toBeGreaterThan(4096);
    bytes.fill(0xa5, middle, middle + 4096);
    writeFileSync(state, bytes);
    await refusedAtOnce(state, /is damaged: SQLite (finds|cannot read it)/);
  });

  it('refuses a file cut short', async () => {
    const state = copyOfFirst();
    truncateSync(state, Math.floor(readFileSync(state).length / 3));
    await refusedAtOnce(state, /is damaged: SQLite/);
  });

  it('refuses a link whose JSON no longer parses, and a cursor holding a value of the wrong type', async () => {
    const key = portal[2]!.key;
    const broken = copyOfFirst();
    overwrite(broken, `{"key":"${key}"`, `{"key":"${key}#`);
    await refusedAtOnce(
      broken,
      new RegExp(`the link of "${key}" \\(links\\) cannot be read \\(its JSON does not parse`),
    );
    const typed = copyOfFirst();
    const db = new Database(typed);
    db.prepare("UPDATE meta SET value = json_set(value, '$.windowFrom', json('[1]')) WHERE key = 'cursor'").run();
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    await refusedAtOnce(typed, /the cursor \(meta 'cursor'\) cannot be read \(.*windowFrom/);
  });

  it('refuses a mirror row that only linking reads, after asking the service, committing nothing', async () => {
    const state = copyOfFirst();
    const db = new Database(state, { readonly: true });
    const mirrored = new Set(
      (db.prepare('SELECT id FROM mirror_events').all() as Array<{ id: number }>).map((r) => r.id),
    );
    db.close();
    const linked = new Set(portal.map((p) => p.key));
    // A service event in the mirror that the portal did not have: tonight the portal adds it, and linking reads it.
    const added = events.find((e) => mirrored.has(e.id) && !linked.has(`portal:${e.id}`))!;
    const start = `{"id":${added.id},"name":${JSON.stringify(added.name)}`;
    overwrite(state, start, start.replace('{"id"', '{"iX"'));
    const before = logicalState(state);
    const r = await sync(state, writePortal([...portal, portalEventOf(added)]));
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).toContain(`${state}: is damaged: service event ${added.id} (mirror_events) cannot be read`);
    expect(r.stderr).toContain(RESTORE);
    expect(r.requests).toBeGreaterThan(0);
    expect(logicalState(state)).toEqual(before);
  });

  it('starts anew from a state moved away, as the message says', async () => {
    const state = copyOfFirst();
    truncateSync(state, 5000);
    expect((await sync(state, writePortal(portal))).code).toBe(4);
    renameSync(state, `${state}.damaged`);
    const r = await sync(state, writePortal(portal), '--json');
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { runs: number; links: Array<{ status: string }> };
    expect(doc.runs).toBe(1);
    expect(doc.links.every((l) => l.status === 'linked')).toBe(true);
  });
});

describe('import on a damaged journal: exit 4', () => {
  let isim: Simulator;
  beforeAll(async () => {
    isim = await importSimulator();
  });
  afterAll(async () => {
    await isim?.close();
  });

  async function importJson(args: string[]) {
    const r = await runBin(['import', ...args, '--json'], env);
    return { ...r, doc: JSON.parse(r.stdout) as Record<string, unknown> };
  }

  it('refuses a journal with a page of garbage before sending anything', async () => {
    const runs = join(dir, 'import-a');
    writeRoutes(isim, runs, 4);
    const journal = join(dir, 'journal-a.sqlite');
    expect((await importJson([runs, '--wait', ...importArgs(isim, journal)])).code).toBe(0);
    const bytes = readFileSync(journal);
    bytes.fill(0x5a, bytes.length - 4096, bytes.length);
    writeFileSync(journal, bytes);
    const posts = isim.routes().length;
    const r = await runBin(['import', runs, '--wait', ...importArgs(isim, journal)], env);
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).toContain(`livelox-bridge import: ${journal}: is damaged`);
    expect(r.stderr).toContain(`${RESTORE} journal`);
    expect(r.stderr).toContain('Nothing was sent.');
    expect(isim.routes().length).toBe(posts);
    expect(readFileSync(journal).equals(bytes)).toBe(true);
  });

  it('stops the batch at a journal row it cannot read, reports what was done, and exits 4', async () => {
    const runs = join(dir, 'import-b');
    writeRoutes(isim, runs, 6, { offset: 50 });
    const journal = join(dir, 'journal-b.sqlite');
    expect((await importJson([runs, '--wait', ...importArgs(isim, journal)])).code).toBe(0);
    const db = new Database(journal);
    const damaged = (db.prepare('SELECT id FROM route_imports ORDER BY file LIMIT 1 OFFSET 3').get() as { id: string })
      .id;
    db.prepare('UPDATE route_imports SET record = \'{"status": 7}\' WHERE id = ?').run(damaged);
    db.close();
    const r = await importJson([runs, '--wait', '--concurrency', '1', ...importArgs(isim, journal)]);
    expect(r.code, r.stderr).toBe(4);
    expect(r.doc).toMatchObject({
      ok: false,
      stoppedBy: { code: 'state', reason: 'corrupt', path: journal },
    });
    const routes = r.doc.routes as Array<{ id?: string; status: string }>;
    // One at a time in file order: three skipped from the journal, then the damaged row stops the batch.
    expect(routes.map((x) => x.status)).toEqual(['skipped', 'skipped', 'skipped', 'not_sent', 'not_sent', 'not_sent']);
    expect(routes[3]!.id).toBe(damaged);
    const text = await runBin(['import', runs, '--wait', ...importArgs(isim, journal)], env);
    expect(text.code).toBe(4);
    expect(text.stderr).toContain(`route ${damaged} (route_imports) cannot be read`);
    expect(text.stderr).toContain('The batch was stopped: nothing more was sent.');
  });
});
