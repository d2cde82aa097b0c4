/**
 * What `publish` keeps: the importable events it made, one row each, keyed by the course file's event and race, in
 * the state file (state-file.ts, the same file type as sync and import). Every call is its own short transaction on a
 * file run with `synchronous = FULL`: a row `record` returned with is on disk. The publish job records the create's
 * answer before it uploads anything, so that a publish killed after that and run again updates the same importable
 * event instead of making a second one.
 */
import type Database from 'better-sqlite3';
import { StateError } from '../errors.js';
import { takeRunLock, type RunLock } from './run-lock.js';
import { damagedRow, guarded, type StateFileRef } from './state-errors.js';
import { openStateDatabase, openStateSnapshot } from './state-file.js';
import { checkColumns } from './state-rows.js';
import type { LockHolder } from './sync-state.js';

/**
 * The state a publish last saw: `created` (the create answered, the files may not be uploaded), `invalid` (the
 * service's validation found errors), `waiting-for-browser-step` (uploaded and valid, not imported), `imported`.
 */
export const PUBLISH_STATES = ['created', 'invalid', 'waiting-for-browser-step', 'imported'] as const;
export type PublishState = (typeof PUBLISH_STATES)[number];

/** A row's state: a publish's, or `replaced` (it was gone from the service, and a new one was recorded for its key). */
type RecordedState = PublishState | 'replaced';
const RECORDED_STATES: readonly string[] = [...PUBLISH_STATES, 'replaced'];

/** The addresses the service gave (each may be absent: the link's URLs may be null). */
export interface PublishLinks {
  importUrl?: string;
  showUrl?: string;
  editUrl?: string;
}

export interface PublishedEvent {
  /** The course file's event and race (`publishKey`). */
  key: string;
  importableId: string;
  /** The course file as given, for `publish status`. */
  file: string;
  /** The importable event's name. */
  name: string;
  state: RecordedState;
  /** The service event it was imported as. */
  eventId?: number;
  links: PublishLinks;
  /** ISO times. */
  createdAt: string;
  updatedAt: string;
}

export type PublishedUpdate = Omit<PublishedEvent, 'createdAt' | 'updatedAt' | 'state'> & { state: PublishState };

/**
 * The publish state as a library user holds it: `openPublishState` opens it, `publishJob` records in it, `close()`
 * ends it. Its rows belong to the job and change with it, so they are not promised.
 */
export interface PublishStateFile {
  readonly kind: 'publish-state';
  readonly path: string;
  /** Opened with `readOnly`: only a dry run may use it. */
  readonly readOnly: boolean;
  close(): void;
}

/** The state behind a `PublishStateFile`: the one `openPublishState` made (the only kind there is). */
export function publishStateOf(file: PublishStateFile): SqlitePublishState {
  if (file instanceof SqlitePublishState) return file;
  throw new TypeError('the publish state must be one that openPublishState opened');
}

/** The state file of publish; `readOnly` for a dry run (a copy in memory). */
export class SqlitePublishState implements PublishStateFile {
  readonly kind = 'publish-state';
  readonly path: string;
  readonly readOnly: boolean;
  readonly #file: StateFileRef;
  readonly #db: Database.Database;
  readonly #latest: Database.Statement<[string], Row>;
  #lock: RunLock | undefined;

  constructor(path: string, options: { readOnly?: boolean } = {}) {
    this.path = path;
    this.readOnly = options.readOnly === true;
    this.#file = { path, role: 'publish' };
    const db = this.readOnly ? openStateSnapshot(this.#file) : openStateDatabase(this.#file);
    this.#db = db;
    try {
      this.#latest = guarded(this.#file, () =>
        db.prepare<[string], Row>('SELECT * FROM published_events WHERE key = ? ORDER BY seq DESC LIMIT 1'),
      );
    } catch (err) {
      db.close();
      throw err;
    }
  }

  /**
   * Takes the run lock (`<state>.lock`, run-lock.ts, as sync does) or throws StateError `locked` naming its holder:
   * two publishes on one state at once would each find no row and each create an importable event.
   */
  lock(holder: LockHolder): void {
    if (this.#lock) throw new StateError('locked', this.path, 'this state holds the run lock already.');
    if (this.readOnly) throw new TypeError(`the publish state ${this.path} was opened read-only`);
    this.#lock = takeRunLock(this.#db, this.path, holder, 'publish');
  }

  unlock(): void {
    this.#lock?.release();
    this.#lock = undefined;
  }

  /** The importable event a publish of `key` updates: the newest one recorded for it. */
  latest(key: string): PublishedEvent | undefined {
    return guarded(this.#file, () => {
      const row = this.#latest.get(key);
      return row && eventOf(this.#file, row);
    });
  }

  /** Every importable event recorded, oldest first. */
  all(): PublishedEvent[] {
    return guarded(this.#file, () =>
      (this.#db.prepare('SELECT * FROM published_events ORDER BY seq').all() as Row[]).map((r) =>
        eventOf(this.#file, r),
      ),
    );
  }

  /**
   * Writes the row of `importableId` (new, or its new state); durable when it returns. `replaces`: the row of that
   * importable event (gone from the service) is marked `replaced` in the same transaction.
   */
  record(u: PublishedUpdate, options: { replaces?: string } = {}): void {
    if (this.readOnly) throw new TypeError(`the publish state ${this.path} was opened read-only`);
    const now = new Date().toISOString();
    const values = [u.file, u.name, u.state, u.eventId ?? null, JSON.stringify(u.links), now] as const;
    guarded(this.#file, () => this.#db.transaction(() => this.#write(u, values, now, options.replaces))());
  }

  #write(
    u: PublishedUpdate,
    values: readonly [string, string, string, number | null, string, string],
    now: string,
    replaces: string | undefined,
  ): void {
    if (replaces !== undefined) {
      this.#db
        .prepare(`UPDATE published_events SET state = 'replaced', updated_at = ? WHERE key = ? AND importable_id = ?`)
        .run(now, u.key, replaces);
    }
    const changed = this.#db
      .prepare(
        `UPDATE published_events SET file = ?, name = ?, state = ?, event_id = ?, links = ?, updated_at = ?
           WHERE key = ? AND importable_id = ?`,
      )
      .run(...values, u.key, u.importableId);
    if (changed.changes > 0) return;
    this.#db
      .prepare(
        `INSERT INTO published_events
             (key, importable_id, file, name, state, event_id, links, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(u.key, u.importableId, ...values.slice(0, 5), now, now);
  }

  close(): void {
    this.unlock();
    this.#db.close();
  }
}

/**
 * Opens (creating when absent) the publish state in the state file at `path`, checked and migrated like sync's store.
 * `readOnly`: read as it is now and never written (a dry run): the file is not created when absent.
 */
export function openPublishState(path: string, options: { readOnly?: boolean } = {}): PublishStateFile {
  return new SqlitePublishState(path, options);
}

interface Row {
  seq: number;
  key: string;
  importable_id: string;
  file: string;
  name: string;
  state: string;
  event_id: number | null;
  links: string;
  created_at: string;
  updated_at: string;
}

const ROW_COLUMNS = {
  key: 'string',
  importable_id: 'string',
  file: 'string',
  name: 'string',
  state: 'string',
  event_id: 'number?',
  links: 'string',
  created_at: 'string',
  updated_at: 'string',
};

function eventOf(file: StateFileRef, row: Row): PublishedEvent {
  const where = `importable event ${String(row.importable_id)} (published_events)`;
  checkColumns(file, where, row, ROW_COLUMNS);
  if (!RECORDED_STATES.includes(row.state)) {
    throw damagedRow(file, where, `its state is ${JSON.stringify(row.state)}`);
  }
  return {
    key: row.key,
    importableId: row.importable_id,
    file: row.file,
    name: row.name,
    state: row.state as RecordedState,
    ...(row.event_id === null ? {} : { eventId: row.event_id }),
    links: linksOf(file, where, row.links),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function linksOf(file: StateFileRef, where: string, json: string): PublishLinks {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw damagedRow(file, where, 'its links are not JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw damagedRow(file, where, 'its links are not an object');
  }
  const out: PublishLinks = {};
  for (const k of ['importUrl', 'showUrl', 'editUrl'] as const) {
    const v = (value as Record<string, unknown>)[k];
    if (typeof v === 'string') out[k] = v;
  }
  return out;
}
