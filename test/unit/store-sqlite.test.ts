/**
 * The state file refuses what it must not touch (a damaged file, another program's database, a newer schema, a run
 * already holding it) and leaves such files byte for byte as they were; its run lock dies with its holder.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/store/migrations.js';
import { lockPathOf } from '../../src/store/run-lock.js';
import { openSqliteStore, SqliteStore, syncStoreOf } from '../../src/store/sqlite.js';
import { APPLICATION_ID } from '../../src/store/state-file.js';
import type { SyncCommit } from '../../src/store/sync-state.js';
import { ROOT } from '../helpers/cli.js';
import { thrownStateError } from '../helpers/sync.js';

const dir = mkdtempSync(join(tmpdir(), 'lb-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const path = () => join(dir, `state-${++n}.sqlite`);

const emptyCommit = (): SyncCommit => ({
  cursor: { modifiedSince: '2025-05-01T10:00:00Z' },
  mirrorUpserts: [
    {
      id: 7,
      hash: 'h7',
      startMs: Date.parse('2025-05-03T08:00:00Z'),
      endMs: Date.parse('2025-05-03T16:00:00Z'),
      misses: 0,
      event: { id: 7, name: 'Seven', timeInterval: { start: '2025-05-03T08:00:00Z', end: '2025-05-03T16:00:00Z' } },
    },
  ],
  mirrorDeletes: [],
  portalUpserts: [{ key: 'k1', hash: 'p1', origin: 'a.xml', name: 'Seven', start: '2025-05-03' }],
  portalDeletes: [],
  linkUpserts: [
    {
      key: 'k1',
      status: 'linked',
      reason: 'test',
      eventId: 7,
      classes: [],
      unmatchedPortalClasses: [],
      unmatchedServiceClasses: [],
      candidates: [],
    },
  ],
  linkDeletes: [],
  pins: new Map([['k2', 9]]),
  history: [{ key: 'k1', change: 'newly_linked', detail: { eventId: 7 } }],
  run: { startedAt: '2025-05-01T10:00:00.000Z', requests: 2, summary: { portalEvents: 1 } },
});

/** A state file holding one committed run, closed. */
function committedState(): string {
  const file = path();
  const store = new SqliteStore(file);
  store.commit(emptyCommit());
  store.close();
  return file;
}

describe('the SQLite state file', () => {
  it('creates a new file, commits a run and reads it back', () => {
    const file = committedState();
    const again = new SqliteStore(file);
    const state = again.load();
    again.close();
    expect(state.cursor).toEqual({ modifiedSince: '2025-05-01T10:00:00Z' });
    expect([...state.mirror.keys()]).toEqual([7]);
    expect(state.links.get('k1')?.eventId).toBe(7);
    expect(state.pins.get('k2')).toBe(9);
    expect(state.runs).toBe(1);
    const db = new Database(file, { readonly: true });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('application_id', { simple: true })).toBe(APPLICATION_ID);
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    db.close();
  });

  it('is handed to a run as the store it is, and nothing else passes for one', () => {
    const file = path();
    const opened = openSqliteStore(file);
    expect(opened).toMatchObject({ kind: 'sync-state', path: file });
    expect(syncStoreOf(opened)).toBe(opened);
    opened.close();
    const lookalike = { kind: 'sync-state' as const, path: file, readOnly: false, close: () => undefined };
    expect(() => syncStoreOf(lookalike)).toThrow(
      new TypeError('the sync store must be one that openSqliteStore opened'),
    );
  });

  it('refuses a file that is not SQLite and leaves it unchanged', () => {
    const file = path();
    writeFileSync(file, 'portal links, version 1\n'.repeat(100));
    const before = readFileSync(file);
    const err = thrownStateError(() => openSqliteStore(file));
    expect(err.reason).toBe('corrupt');
    expect(err.message).toContain('left as it is');
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  it("refuses another program's SQLite database and leaves it unchanged", () => {
    const file = path();
    const db = new Database(file);
    db.exec('CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)');
    db.close();
    const before = readFileSync(file);
    const err = thrownStateError(() => openSqliteStore(file));
    expect(err.reason).toBe('foreign');
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  it('refuses a state written by a newer version instead of migrating it down', () => {
    const file = path();
    openSqliteStore(file).close();
    const db = new Database(file);
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    const err = thrownStateError(() => openSqliteStore(file));
    expect(err.reason).toBe('newer');
    expect(err.message).toContain(`state schema ${SCHEMA_VERSION + 1}`);
    const check = new Database(file, { readonly: true });
    expect(check.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION + 1);
    check.close();
  });

  it('refuses a damaged database without changing it', () => {
    const file = committedState();
    const bytes = readFileSync(file);
    // Keep the header (so it still looks like SQLite) and wreck every page after the first.
    const wrecked = Buffer.concat([bytes.subarray(0, 100), Buffer.alloc(bytes.length - 100, 0xa5)]);
    writeFileSync(file, wrecked);
    rmSync(`${file}-wal`, { force: true });
    rmSync(`${file}-shm`, { force: true });
    const err = thrownStateError(() => {
      const s = new SqliteStore(file);
      try {
        s.load();
      } finally {
        s.close();
      }
    });
    expect(['corrupt', 'unwritable']).toContain(err.reason);
    expect(readFileSync(file).equals(wrecked)).toBe(true);
  });

  it('lets one run at a time hold the state, naming the holder to the second, until it lets go', () => {
    const file = path();
    const first = new SqliteStore(file);
    first.lock({ pid: 4242, host: 'nightly-1', since: '2025-05-01T03:10:00Z' });
    const second = new SqliteStore(file);
    const err = thrownStateError(() => second.lock({ pid: process.pid, host: hostname(), since: 'now' }));
    expect(err.reason).toBe('locked');
    expect(err.path).toBe(file);
    expect(err.message).toContain(
      'another run holds this state (process 4242 on nightly-1, since 2025-05-01T03:10:00Z)',
    );
    // Refused again while it holds, however often: the refusal changes nothing.
    expect(thrownStateError(() => second.lock({ pid: process.pid, host: hostname(), since: 'now' })).reason).toBe(
      'locked',
    );
    first.unlock();
    second.lock({ pid: process.pid, host: hostname(), since: 'now' });
    expect(thrownStateError(() => first.lock({ pid: 4242, host: 'nightly-1', since: 'later' })).message).toContain(
      `process ${process.pid} on ${hostname()}`,
    );
    second.close();
    first.close();
  });

  it('is let go when its holder dies, whatever pid and host the holder wrote', async () => {
    const file = path();
    openSqliteStore(file).close();
    const module = pathToFileURL(join(ROOT, 'dist/store/sqlite.js')).href;
    // A holder that says it is pid 1 on another host (a container's run), then waits to be killed.
    const script = `const { openSqliteStore, syncStoreOf } = await import(${JSON.stringify(module)});
      syncStoreOf(openSqliteStore(${JSON.stringify(file)})).lock({ pid: 1, host: 'container-7', since: 'then' });
      process.stdout.write('locked\\n');
      setInterval(() => {}, 60000);`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    await new Promise<void>((resolve, reject) => {
      child.stdout.once('data', () => resolve());
      child.once('exit', () => reject(new Error('the holder ended before it held the lock')));
    });
    const store = new SqliteStore(file);
    const err = thrownStateError(() => store.lock({ pid: process.pid, host: hostname(), since: 'now' }));
    expect(err.message).toContain('process 1 on container-7, since then');
    child.kill('SIGKILL');
    await exited;
    store.lock({ pid: process.pid, host: hostname(), since: 'now' });
    store.close();
  });

  it('takes and lets go of the lock without writing a byte of the state', () => {
    const file = committedState();
    const again = new SqliteStore(file);
    const files = () => [file, `${file}-wal`].map((f) => (existsSync(f) ? readFileSync(f) : undefined));
    const before = files();
    again.lock({ pid: process.pid, host: hostname(), since: 'now' });
    again.unlock();
    expect(files()).toEqual(before);
    expect(existsSync(lockPathOf(file))).toBe(true);
    again.close();
  });

  it('names a damaged lock file and says it may be deleted, leaving the state alone', () => {
    const file = path();
    openSqliteStore(file).close();
    writeFileSync(lockPathOf(file), 'not a lock at all, but long enough to be read as a database header\n'.repeat(80));
    const store = new SqliteStore(file);
    const err = thrownStateError(() => store.lock({ pid: process.pid, host: hostname(), since: 'now' }));
    expect(err.reason).toBe('corrupt');
    expect(err.path).toBe(lockPathOf(file));
    expect(err.message).toContain('It holds only who runs: delete it while no run is under way');
    // The state itself is usable: its reads and commits do not need the lock file.
    expect(store.load().runs).toBe(0);
    store.close();
  });

  it('never follows a link where its lock file should be', () => {
    const file = path();
    openSqliteStore(file).close();
    const elsewhere = path();
    openSqliteStore(elsewhere).close();
    const before = readFileSync(elsewhere);
    symlinkSync(elsewhere, lockPathOf(file));
    const store = new SqliteStore(file);
    const err = thrownStateError(() => store.lock({ pid: process.pid, host: hostname(), since: 'now' }));
    expect(err).toMatchObject({ reason: 'foreign', path: lockPathOf(file) });
    expect(readFileSync(elsewhere).equals(before)).toBe(true);
    store.close();
  });

  it('ignores the lock row a version before left behind (a dead holder), and drops its table', () => {
    const file = path();
    const db = new Database(file);
    for (const m of MIGRATIONS.filter((m) => m.version <= 2)) db.exec(m.sql);
    db.pragma(`application_id = ${APPLICATION_ID}`);
    db.pragma('user_version = 2');
    // pid 1 on this host: alive to any pid check, as it is in every container.
    db.prepare('INSERT INTO run_lock (id, pid, host, since) VALUES (1, 1, ?, ?)').run(hostname(), 'last night');
    db.close();
    const store = new SqliteStore(file);
    store.lock({ pid: process.pid, host: hostname(), since: 'now' });
    store.close();
    const check = new Database(file, { readonly: true });
    expect(check.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    const tables = check.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{
      name: string;
    }>;
    expect(tables.map((t) => t.name)).not.toContain('run_lock');
    check.close();
  });

  it('is created and migrated once when several processes open the same new file at the same moment', async () => {
    const file = path();
    const module = pathToFileURL(join(ROOT, 'dist/store/state-file.js')).href;
    // Every child waits for the same instant, then opens the file: the migrations race for its write lock.
    const at = Date.now() + 1_500;
    const script = `const { openStateDatabase } = await import(${JSON.stringify(module)});
      while (Date.now() < ${at}) {}
      openStateDatabase({ path: ${JSON.stringify(file)}, role: 'sync' }).close();`;
    const runs = await Promise.all(
      Array.from({ length: 6 }, () => {
        const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
          stdio: ['ignore', 'ignore', 'pipe'],
        });
        let stderr = '';
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        return new Promise<{ code: number | null; stderr: string }>((resolve) =>
          child.once('exit', (code) => resolve({ code, stderr })),
        );
      }),
    );
    expect(runs).toEqual(runs.map(() => ({ code: 0, stderr: '' })));
    const db = new Database(file, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    db.close();
  });
});
