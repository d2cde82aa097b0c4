/**
 * The route import journal: what a bulk import intended and learned, one row per route id, in the state file
 * (state-file.ts, the same file type as sync). Every call is its own short transaction, and the file runs with
 * `synchronous = FULL`, so a state that `record` returned with is on disk: the import job writes `planned` before a
 * POST leaves, which is what lets a restarted run ask the service instead of guessing.
 */
import type Database from 'better-sqlite3';
import type { ImportRecord } from '../resources/routes.js';
import { damagedRow, guarded, type StateFileRef } from './state-errors.js';
import { openStateDatabase, openStateSnapshot } from './state-file.js';
import { checkColumns, importRecordOf } from './state-rows.js';

/**
 * `planned`: the POST may or may not have arrived. `posted`: the service accepted it. `pending`: a status request said
 * pending. `imported` and `error`: the service's final word. `failed`: the service or the client refused the route
 * (a 4xx answer), nothing is waiting at the service.
 */
const JOURNAL_STATES = ['planned', 'posted', 'pending', 'imported', 'error', 'failed'] as const;
export type JournalState = (typeof JOURNAL_STATES)[number];

export interface JournalEntry {
  /** The route id sent to the service. */
  id: string;
  file: string;
  /** SHA-256 (hex) of the file's bytes and what was sent with them: a route whose manifest entry changed goes again. */
  contentHash: string;
  /** SHA-256 (hex) of the file's bytes alone: tells an edited file from a changed manifest entry. */
  fileHash?: string;
  /**
   * Which run the route is (its file's real path, the runner, the track's start), hashed: a file edited after its
   * import keeps it while its id changes. Absent in entries written before schema 4.
   */
  runKey?: string;
  state: JournalState;
  /** The last import record the service gave. */
  record?: ImportRecord;
  /** The service's errorMessage, or the message of the error that failed the route. */
  error?: string;
  /** ISO times. */
  createdAt: string;
  updatedAt: string;
}

export type JournalUpdate = Omit<JournalEntry, 'createdAt' | 'updatedAt'>;

/**
 * Every method throws a StateError naming the journal when the file fails it: damaged (a row that cannot be read
 * included), on a full disk, or not writable. A `record` that throws wrote nothing.
 */
export interface ImportJournal {
  get(id: string): JournalEntry | undefined;
  /** The entry of run `runKey` written last under an id other than `id`, leaving out routes refused (`failed`). */
  otherOfRun(runKey: string, id: string): JournalEntry | undefined;
  /** Writes the entry's new state; durable when it returns. */
  record(update: JournalUpdate): void;
  all(): JournalEntry[];
  close(): void;
}

interface Row {
  id: string;
  file: string;
  content_hash: string;
  state: JournalState;
  record: string | null;
  error: string | null;
  file_hash: string | null;
  run_key: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * An import journal as a library user holds it: `openImportJournal` opens it, `importRoutesJob` records in it,
 * `close()` ends it. Its entries and states belong to the job and change with it, so they are not promised.
 */
export interface ImportJournalFile {
  readonly kind: 'import-journal';
  readonly path: string;
  /** Opened with `readOnly`: only a dry run may use it. */
  readonly readOnly: boolean;
  close(): void;
}

export interface OpenImportJournalOptions {
  /**
   * Read the journal as it is now and never write it: the file (absent or not, of an older schema or not) and its
   * folder are left exactly as they are, for a dry run. Default false.
   */
  readOnly?: boolean;
}

/** Opens (creating when absent) the journal in the state file at `path`, checked and migrated like sync's store. */
export function openImportJournal(path: string, options: OpenImportJournalOptions = {}): ImportJournalFile {
  return new SqliteImportJournal(path, options);
}

/** The journal behind an `ImportJournalFile`: the one `openImportJournal` made (the only kind there is). */
export function importJournalOf(file: ImportJournalFile): ImportJournal {
  if (file instanceof SqliteImportJournal) return file;
  throw new TypeError('the import journal must be one that openImportJournal opened');
}

// Its constructor takes the path, not a database handle, so that its declaration names no better-sqlite3 type.
export class SqliteImportJournal implements ImportJournal, ImportJournalFile {
  readonly kind = 'import-journal';
  readonly path: string;
  readonly readOnly: boolean;
  readonly #file: StateFileRef;
  readonly #db: Database.Database;
  readonly #get: Database.Statement<[string], Row>;
  readonly #otherOfRun: Database.Statement<[string, string], Row>;
  readonly #upsert: Database.Statement<unknown[]>;

  constructor(path: string, options: OpenImportJournalOptions = {}) {
    this.readOnly = options.readOnly === true;
    this.#file = { path, role: 'import' };
    // Read-only: a copy in memory (empty when there is no file), so that nothing can reach the file.
    const db = this.readOnly ? openStateSnapshot(this.#file) : openStateDatabase(this.#file);
    this.path = path;
    this.#db = db;
    try {
      // A schema edited by hand (a column gone) fails here, as damage naming the journal.
      [this.#get, this.#otherOfRun, this.#upsert] = guarded(this.#file, () => [
        db.prepare<[string], Row>('SELECT * FROM route_imports WHERE id = ?'),
        db.prepare<[string, string], Row>(
          `SELECT * FROM route_imports WHERE run_key = ? AND id <> ? AND state <> 'failed'
           ORDER BY updated_at DESC, created_at DESC LIMIT 1`,
        ),
        // created_at survives a state change: it says when the route was first planned.
        db.prepare(
          `INSERT INTO route_imports
             (id, file, content_hash, state, record, error, file_hash, run_key, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (id) DO UPDATE SET file = excluded.file, content_hash = excluded.content_hash,
             state = excluded.state, record = excluded.record, error = excluded.error,
             file_hash = coalesce(excluded.file_hash, file_hash), run_key = coalesce(excluded.run_key, run_key),
             updated_at = excluded.updated_at`,
        ),
      ]);
    } catch (err) {
      db.close();
      throw err;
    }
  }

  get(id: string): JournalEntry | undefined {
    return guarded(this.#file, () => {
      const row = this.#get.get(id);
      return row && entryOf(this.#file, row);
    });
  }

  otherOfRun(runKey: string, id: string): JournalEntry | undefined {
    return guarded(this.#file, () => {
      const row = this.#otherOfRun.get(runKey, id);
      return row && entryOf(this.#file, row);
    });
  }

  record(u: JournalUpdate): void {
    if (this.readOnly) throw new TypeError(`the import journal ${this.path} was opened read-only`);
    const now = new Date().toISOString();
    guarded(this.#file, () =>
      this.#upsert.run(
        u.id,
        u.file,
        u.contentHash,
        u.state,
        u.record === undefined ? null : JSON.stringify(u.record),
        u.error ?? null,
        u.fileHash ?? null,
        u.runKey ?? null,
        now,
        now,
      ),
    );
  }

  all(): JournalEntry[] {
    return guarded(this.#file, () =>
      (this.#db.prepare('SELECT * FROM route_imports ORDER BY created_at, id').all() as Row[]).map((row) =>
        entryOf(this.#file, row),
      ),
    );
  }

  close(): void {
    this.#db.close();
  }
}

const ROW_COLUMNS = {
  id: 'string',
  file: 'string',
  content_hash: 'string',
  state: 'string',
  record: 'string?',
  error: 'string?',
  file_hash: 'string?',
  run_key: 'string?',
  created_at: 'string',
  updated_at: 'string',
};

function entryOf(file: StateFileRef, row: Row): JournalEntry {
  const where = `route ${String(row.id)} (route_imports)`;
  checkColumns(file, where, row, ROW_COLUMNS);
  if (!(JOURNAL_STATES as readonly string[]).includes(row.state)) {
    throw damagedRow(file, where, `its state is ${JSON.stringify(row.state)}`);
  }
  return {
    id: row.id,
    file: row.file,
    contentHash: row.content_hash,
    state: row.state,
    ...(row.record === null ? {} : { record: importRecordOf(file, row.id, row.record) }),
    ...(row.error === null ? {} : { error: row.error }),
    ...(row.file_hash === null ? {} : { fileHash: row.file_hash }),
    ...(row.run_key === null ? {} : { runKey: row.run_key }),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
