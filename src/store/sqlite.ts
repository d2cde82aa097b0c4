/**
 * The sync state in the state file (opened and checked by state-file.ts): the mirror, portal events, links, pins and
 * cursor, committed in one transaction per run, and the lock that keeps two runs off one file.
 */
import type Database from 'better-sqlite3';
import { isRunning } from '../core/files.js';
import { StateError } from '../errors.js';
import type { LiveloxEvent } from '../resources/events.js';
import { openStateDatabase } from './state-file.js';
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

type Db = Database.Database;

/**
 * A sync state file as a library user holds it: `openSqliteStore` opens it, `syncJob` runs on it, `close()` ends it.
 * What a run does with it (lock, load, commit) belongs to the job and changes with it, so it is not promised.
 */
export interface SyncStateFile {
  readonly kind: 'sync-state';
  readonly path: string;
  close(): void;
}

/** Opens (creating when absent) the state file at `path`, checked and migrated to the current schema. */
export function openSqliteStore(path: string): SyncStateFile {
  return new SqliteStore(path);
}

/** The store behind a `SyncStateFile`: the one `openSqliteStore` made (the only kind of store there is). */
export function syncStoreOf(file: SyncStateFile): SyncStore {
  if (file instanceof SqliteStore) return file;
  throw new TypeError('the sync store must be one that openSqliteStore opened');
}

// Its constructor takes the path, not a database handle, so that its declaration names no better-sqlite3 type.
export class SqliteStore implements SyncStore, SyncStateFile {
  readonly kind = 'sync-state';
  readonly #db: Db;
  readonly path: string;
  #holder: LockHolder | undefined;

  constructor(path: string) {
    this.#db = openStateDatabase(path);
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
