/**
 * The sync state in the state file (opened and checked by state-file.ts): the mirror, portal events, links, pins and
 * cursor, committed in one transaction per run, and the run lock (run-lock.ts) that keeps two runs off one file.
 * Every read and write goes through `guarded`: a damaged file, a row that cannot be read or a full disk is a
 * StateError naming the file, wherever in a run it shows.
 */
import type Database from 'better-sqlite3';
import { StateError } from '../errors.js';
import type { LiveloxEvent } from '../resources/events.js';
import { takeRunLock, type RunLock } from './run-lock.js';
import { guarded, type StateFileRef } from './state-errors.js';
import { openStateDatabase, openStateSnapshot } from './state-file.js';
import { checkColumns, cursorOf, linkOf, mirrorEventOf, runSummaryOf } from './state-rows.js';
import type {
  LinkRecord,
  LockHolder,
  MirrorRecord,
  PortalRecord,
  RunLog,
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
  /** Opened with `readOnly`: a run on it can only be a dry run. */
  readonly readOnly: boolean;
  close(): void;
}

interface OpenStoreOptions {
  /**
   * Read the state and never write it, for a dry run: the file is not created when absent (the run starts from an
   * empty state), not migrated, not locked, and its bytes stay as they are. Default false.
   */
  readOnly?: boolean;
}

/** Opens (creating when absent) the state file at `path`, checked and migrated to the current schema. */
export function openSqliteStore(path: string, options: OpenStoreOptions = {}): SyncStateFile {
  return new SqliteStore(path, options);
}

/** The store behind a `SyncStateFile`: the one `openSqliteStore` made (the only kind of store there is). */
export function syncStoreOf(file: SyncStateFile): SyncStore {
  if (file instanceof SqliteStore) return file;
  throw new TypeError('the sync store must be one that openSqliteStore opened');
}

// Its constructor takes the path, not a database handle, so that its declaration names no better-sqlite3 type.
export class SqliteStore implements SyncStore, SyncStateFile {
  readonly kind = 'sync-state';
  /** For a read-only store, a copy in memory (state-file.ts `openStateSnapshot`): an absent file reads as empty. */
  readonly #db: Db;
  readonly readOnly: boolean;
  readonly #file: StateFileRef;
  readonly path: string;
  #lock: RunLock | undefined;

  constructor(path: string, options: OpenStoreOptions = {}) {
    this.#file = { path, role: 'sync' };
    this.readOnly = options.readOnly ?? false;
    this.#db = this.readOnly ? openStateSnapshot(this.#file) : openStateDatabase(this.#file);
    this.path = path;
  }

  /** The database, for a run that writes: a read-only store refuses here, before anything is written. */
  #writable(): Db {
    if (this.readOnly) throw new TypeError(`${this.path} was opened read-only: only a dry run reads it`);
    return this.#db;
  }

  lock(holder: LockHolder): void {
    if (this.#lock) throw new StateError('locked', this.path, 'this store holds the run lock already.');
    this.#lock = takeRunLock(this.#writable(), this.path, holder);
  }

  unlock(): void {
    this.#lock?.release();
    this.#lock = undefined;
  }

  load(): SyncSnapshot {
    const db = this.#db;
    // One read transaction: a snapshot of one commit, also for a dry run beside a run that is committing.
    return guarded(this.#file, () => db.transaction(() => this.#read(db))());
  }

  #read(db: Db): SyncSnapshot {
    const file = this.#file;
    const meta = new Map(
      (db.prepare('SELECT key, value FROM meta').all() as Array<{ key: string; value: string }>).map((r) => [
        r.key,
        r.value,
      ]),
    );
    const cursorJson = meta.get('cursor');
    const cursor: SyncCursor = cursorJson === undefined ? {} : cursorOf(file, cursorJson);
    const mirror = new Map<number, MirrorRecord>();
    for (const r of db
      .prepare('SELECT id, hash, start_ms, end_ms, misses, json FROM mirror_events')
      .iterate() as Iterable<MirrorRow>) {
      // Checked by hand, not with a schema: the mirror is the largest table, read whole every night.
      if (
        typeof r.hash !== 'string' ||
        typeof r.start_ms !== 'number' ||
        typeof r.end_ms !== 'number' ||
        typeof r.misses !== 'number' ||
        typeof r.json !== 'string'
      ) {
        checkColumns(file, `service event ${r.id} (mirror_events)`, r, MIRROR_COLUMNS);
      }
      mirror.set(r.id, lazyRecord(file, r));
    }
    const portal = new Map<string, PortalRecord>();
    for (const r of db.prepare('SELECT key, hash, origin, name, start FROM portal_events').all() as Array<{
      key: string;
      hash: string;
      origin: string;
      name: string;
      start: string | null;
    }>) {
      checkColumns(file, `portal event ${JSON.stringify(r.key)} (portal_events)`, r, PORTAL_COLUMNS);
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
      checkColumns(file, `the link of ${JSON.stringify(r.key)} (links)`, r, { key: 'string', json: 'string' });
      links.set(r.key, linkOf(file, r.key, r.json));
    }
    const pins = new Map<string, number>();
    for (const r of db.prepare('SELECT key, event_id FROM pins').all() as Array<{ key: string; event_id: number }>) {
      checkColumns(file, `the pin of ${JSON.stringify(r.key)} (pins)`, r, { key: 'string', event_id: 'number' });
      pins.set(r.key, r.event_id);
    }
    const runs = (db.prepare('SELECT count(*) AS n FROM runs').get() as { n: number }).n;
    return { cursor, mirror, portal, links, pins, runs };
  }

  commit(c: SyncCommit): void {
    guarded(this.#file, () => this.#write(c));
  }

  #write(c: SyncCommit): void {
    const db = this.#writable();
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
    const insertRun = db.prepare(
      'INSERT INTO runs (started_at, finished_at, service_time, requests, summary) VALUES (?, ?, ?, ?, ?)',
    );
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
        c.run.finishedAt ?? null,
        c.run.serviceTime ?? null,
        c.run.requests,
        JSON.stringify(c.run.summary),
      ).lastInsertRowid;
      for (const h of c.history) insertHistory.run(runId, h.key, h.change, JSON.stringify(h.detail));
    }).immediate();
  }

  recentRuns(limit: number): RunLog[] {
    const db = this.#db;
    return guarded(this.#file, () => {
      const rows = db
        .prepare(
          'SELECT id, started_at, finished_at, service_time, requests, summary FROM runs ORDER BY id DESC LIMIT ?',
        )
        .all(limit) as RunRow[];
      return rows.map((r) => runOf(this.#file, r));
    });
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
function lazyRecord(file: StateFileRef, row: MirrorRow): MirrorRecord {
  let event: LiveloxEvent | undefined;
  const { id, hash, json } = row;
  const record = { id, hash, startMs: row.start_ms, endMs: row.end_ms, misses: row.misses } as MirrorRecord;
  Object.defineProperty(record, 'event', {
    enumerable: true,
    // A row damaged in its JSON shows when it is first read, which may be at any step of a run: a StateError then.
    get: () => (event ??= mirrorEventOf(file, id, json)),
  });
  return record;
}

interface MirrorRow {
  id: number;
  hash: string;
  start_ms: number;
  end_ms: number;
  misses: number;
  json: string;
}

const MIRROR_COLUMNS = {
  id: 'number',
  hash: 'string',
  start_ms: 'number',
  end_ms: 'number',
  misses: 'number',
  json: 'string',
};
const PORTAL_COLUMNS = { key: 'string', hash: 'string', origin: 'string', name: 'string', start: 'string?' };

interface RunRow {
  id: number;
  started_at: string;
  finished_at: string | null;
  service_time: string | null;
  requests: number;
  summary: string;
}

const RUN_COLUMNS = {
  started_at: 'string',
  finished_at: 'string?',
  service_time: 'string?',
  requests: 'number',
  summary: 'string',
};

function runOf(file: StateFileRef, r: RunRow): RunLog {
  const where = `run ${r.id} (runs)`;
  checkColumns(file, where, r, RUN_COLUMNS);
  return {
    startedAt: r.started_at,
    ...(r.finished_at === null ? {} : { finishedAt: r.finished_at }),
    ...(r.service_time === null ? {} : { serviceTime: r.service_time }),
    requests: r.requests,
    summary: runSummaryOf(file, where, r.summary),
  };
}
