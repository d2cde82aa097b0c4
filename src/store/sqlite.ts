/**
 * The state file: one SQLite database (better-sqlite3), WAL mode with `synchronous = FULL`, so that a commit that
 * returned survives a power cut and a run killed before its commit leaves nothing behind. The file is checked before
 * anything is written to it: a file that is not SQLite, or another program's database, or one from a newer version is
 * refused with a StateError and left exactly as it was.
 */
import { existsSync, mkdirSync, openSync, readSync, closeSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { isRunning } from '../core/files.js';
import { StateError } from '../errors.js';
import type { LiveloxEvent } from '../resources/events.js';
import { MIGRATIONS, SCHEMA_VERSION } from './migrations.js';
import type {
  LinkRecord,
  LockHolder,
  MirrorRecord,
  PortalRecord,
  SyncCommit,
  SyncCursor,
  SyncSnapshot,
  SyncStore,
} from './sync-state.js';

/** `PRAGMA application_id` of our files ('LLBX'): tells our database from any other SQLite file. */
export const APPLICATION_ID = 0x4c4c4258;
const SQLITE_MAGIC = 'SQLite format 3\u0000';

type Db = Database.Database;

/** Opens (creating when absent) the state file at `path`, checked and migrated to the current schema. */
export function openSqliteStore(path: string): SqliteStore {
  checkFileBeforeOpening(path);
  let db: Db;
  try {
    db = new Database(path, { timeout: 5_000 });
  } catch (err) {
    throw new StateError('unwritable', path, `cannot open the state file: ${(err as Error).message}`, { cause: err });
  }
  try {
    prepare(db, path);
  } catch (err) {
    db.close();
    throw err;
  }
  return new SqliteStore(db, path);
}

/** A path that exists must be a regular file holding SQLite (or nothing, a file just created): checked unopened. */
function checkFileBeforeOpening(path: string): void {
  if (!existsSync(path)) {
    mkdirSync(dirname(path), { recursive: true });
    return;
  }
  const stat = statSync(path);
  if (!stat.isFile()) throw new StateError('foreign', path, 'is not a regular file; give the path of a state file.');
  if (stat.size === 0) return;
  const head = Buffer.alloc(16);
  const fd = openSync(path, 'r');
  try {
    readSync(fd, head, 0, 16, 0);
  } finally {
    closeSync(fd);
  }
  if (head.toString('latin1') !== SQLITE_MAGIC) {
    throw new StateError(
      'corrupt',
      path,
      'is not a livelox-bridge state file (not an SQLite database). It was left as it is; give another --state file, or restore this one from a backup.',
    );
  }
}

function prepare(db: Db, path: string): void {
  try {
    const appId = db.pragma('application_id', { simple: true }) as number;
    const version = db.pragma('user_version', { simple: true }) as number;
    const tables = (db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'").get() as { n: number })
      .n;
    if (appId !== APPLICATION_ID && (appId !== 0 || tables > 0)) {
      throw new StateError(
        'foreign',
        path,
        "is another program's SQLite database, not a livelox-bridge state file. It was left as it is; give another --state file.",
      );
    }
    if (version > SCHEMA_VERSION) {
      throw new StateError(
        'newer',
        path,
        `was written by a newer livelox-bridge (state schema ${version}; this version knows up to ${SCHEMA_VERSION}). It was left as it is: upgrade livelox-bridge, or give another --state file.`,
      );
    }
    db.pragma('journal_mode = WAL');
    // FULL: a commit that returned is on disk, also after a power cut (NORMAL may lose the last commits in WAL mode).
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    for (const m of MIGRATIONS) {
      if (m.version <= version) continue;
      db.transaction(() => {
        db.exec(m.sql);
        db.pragma(`application_id = ${APPLICATION_ID}`);
        db.pragma(`user_version = ${m.version}`);
      }).immediate();
    }
  } catch (err) {
    if (err instanceof StateError) throw err;
    const code = (err as { code?: string }).code ?? '';
    if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') {
      throw new StateError('corrupt', path, 'is damaged (SQLite cannot read it). It was left as it is.', {
        cause: err,
      });
    }
    throw new StateError('unwritable', path, `cannot be used: ${(err as Error).message}`, { cause: err });
  }
}

export class SqliteStore implements SyncStore {
  readonly #db: Db;
  readonly path: string;
  #holder: LockHolder | undefined;

  constructor(db: Db, path: string) {
    this.#db = db;
    this.path = path;
  }

  lock(holder: LockHolder): void {
    const take = this.#db.transaction(() => {
      const row = this.#db.prepare('SELECT pid, host, since FROM run_lock WHERE id = 1').get() as
        LockHolder | undefined;
      if (row && !(row.host === holder.host && !isRunning(row.pid))) {
        throw new StateError(
          'locked',
          this.path,
          `another run holds this state (process ${row.pid} on ${row.host}, since ${row.since}). Wait for it to end; if that process is gone for good, it was on another machine: remove the lock with sqlite3 ("DELETE FROM run_lock").`,
        );
      }
      this.#db
        .prepare('INSERT OR REPLACE INTO run_lock (id, pid, host, since) VALUES (1, ?, ?, ?)')
        .run(holder.pid, holder.host, holder.since);
    });
    take.immediate();
    this.#holder = holder;
  }

  unlock(): void {
    if (!this.#holder) return;
    this.#db
      .prepare('DELETE FROM run_lock WHERE id = 1 AND pid = ? AND host = ?')
      .run(this.#holder.pid, this.#holder.host);
    this.#holder = undefined;
  }

  load(): SyncSnapshot {
    const db = this.#db;
    const meta = new Map(
      (db.prepare('SELECT key, value FROM meta').all() as Array<{ key: string; value: string }>).map((r) => [
        r.key,
        r.value,
      ]),
    );
    const cursor = meta.has('cursor') ? (JSON.parse(meta.get('cursor')!) as SyncCursor) : {};
    const mirror = new Map<number, MirrorRecord>();
    for (const r of db
      .prepare('SELECT id, hash, start_ms, end_ms, misses, json FROM mirror_events')
      .iterate() as Iterable<{
      id: number;
      hash: string;
      start_ms: number;
      end_ms: number;
      misses: number;
      json: string;
    }>) {
      mirror.set(r.id, lazyRecord(r.id, r.hash, r.start_ms, r.end_ms, r.misses, r.json));
    }
    const portal = new Map<string, PortalRecord>();
    for (const r of db.prepare('SELECT key, hash, origin, name, start FROM portal_events').all() as Array<{
      key: string;
      hash: string;
      origin: string;
      name: string;
      start: string | null;
    }>) {
      portal.set(r.key, {
        key: r.key,
        hash: r.hash,
        origin: r.origin,
        name: r.name,
        ...(r.start === null ? {} : { start: r.start }),
      });
    }
    const links = new Map<string, LinkRecord>();
    for (const r of db.prepare('SELECT key, json FROM links').all() as Array<{ key: string; json: string }>) {
      links.set(r.key, JSON.parse(r.json) as LinkRecord);
    }
    const pins = new Map(
      (db.prepare('SELECT key, event_id FROM pins').all() as Array<{ key: string; event_id: number }>).map((r) => [
        r.key,
        r.event_id,
      ]),
    );
    const runs = (db.prepare('SELECT count(*) AS n FROM runs').get() as { n: number }).n;
    return { cursor, mirror, portal, links, pins, runs };
  }

  commit(c: SyncCommit): void {
    const db = this.#db;
    const upsertMirror = db.prepare(
      'INSERT OR REPLACE INTO mirror_events (id, hash, start_ms, end_ms, misses, json) VALUES (?, ?, ?, ?, ?, ?)',
    );
    const deleteMirror = db.prepare('DELETE FROM mirror_events WHERE id = ?');
    const upsertPortal = db.prepare(
      'INSERT OR REPLACE INTO portal_events (key, hash, origin, name, start) VALUES (?, ?, ?, ?, ?)',
    );
    const deletePortal = db.prepare('DELETE FROM portal_events WHERE key = ?');
    const upsertLink = db.prepare('INSERT OR REPLACE INTO links (key, status, event_id, json) VALUES (?, ?, ?, ?)');
    const deleteLink = db.prepare('DELETE FROM links WHERE key = ?');
    const insertPin = db.prepare('INSERT INTO pins (key, event_id) VALUES (?, ?)');
    const insertRun = db.prepare('INSERT INTO runs (started_at, service_time, requests, summary) VALUES (?, ?, ?, ?)');
    const insertHistory = db.prepare('INSERT INTO link_history (run_id, key, change, detail) VALUES (?, ?, ?, ?)');
    db.transaction(() => {
      for (const m of c.mirrorUpserts) {
        upsertMirror.run(m.id, m.hash, m.startMs, m.endMs, m.misses, JSON.stringify(m.event));
      }
      for (const id of c.mirrorDeletes) deleteMirror.run(id);
      for (const p of c.portalUpserts) upsertPortal.run(p.key, p.hash, p.origin, p.name, p.start ?? null);
      for (const key of c.portalDeletes) deletePortal.run(key);
      for (const l of c.linkUpserts) upsertLink.run(l.key, l.status, l.eventId ?? null, JSON.stringify(l));
      for (const key of c.linkDeletes) deleteLink.run(key);
      db.prepare('DELETE FROM pins').run();
      for (const [key, id] of c.pins) insertPin.run(key, id);
      db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run('cursor', JSON.stringify(c.cursor));
      const runId = insertRun.run(
        c.run.startedAt,
        c.run.serviceTime ?? null,
        c.run.requests,
        JSON.stringify(c.run.summary),
      ).lastInsertRowid;
      for (const h of c.history) insertHistory.run(runId, h.key, h.change, JSON.stringify(h.detail));
    }).immediate();
  }

  close(): void {
    this.unlock();
    this.#db.close();
  }
}

/**
 * A mirror record whose event is parsed from its JSON on first use: a night links few portal events again, and most
 * of the mirror (its ids, hashes and intervals) is all it needs of the rest.
 */
function lazyRecord(
  id: number,
  hash: string,
  startMs: number,
  endMs: number,
  misses: number,
  json: string,
): MirrorRecord {
  let event: LiveloxEvent | undefined;
  const record = { id, hash, startMs, endMs, misses } as MirrorRecord;
  Object.defineProperty(record, 'event', {
    enumerable: true,
    get: () => (event ??= JSON.parse(json) as LiveloxEvent),
  });
  return record;
}
