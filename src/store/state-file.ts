/**
 * The state file: one SQLite database (better-sqlite3), WAL mode with `synchronous = FULL`, so that a commit that
 * returned survives a power cut and a run killed before its commit leaves nothing behind. The file is checked before
 * anything is written to it: a file that is not SQLite, or another program's database, or one from a newer version is
 * refused with a StateError and left exactly as it was.
 */
import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  statSync,
} from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { StateError } from '../errors.js';
import { MIGRATIONS, SCHEMA_VERSION } from './migrations.js';

/** `PRAGMA application_id` of our files ('LLBX'): tells our database from any other SQLite file. */
export const APPLICATION_ID = 0x4c4c4258;
const SQLITE_MAGIC = 'SQLite format 3\u0000';

/**
 * Opens (creating when absent) the state file at `path`, checked and migrated to the current schema. The sync store
 * and the import journal both open their connection here, so a file is checked the same way whoever opens it.
 */
export function openStateDatabase(path: string): Database.Database {
  checkFileBeforeOpening(path);
  let db: Database.Database;
  try {
    db = new Database(path, { timeout: BUSY_WAIT_MS });
  } catch (err) {
    throw new StateError('unwritable', path, `cannot open the state file: ${(err as Error).message}`, { cause: err });
  }
  try {
    prepare(db, path);
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
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
  // Without blocking, and judged by the file opened: a path swapped for a named pipe since the check must not hang.
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    if (!fstatSync(fd).isFile()) {
      throw new StateError('foreign', path, 'is not a regular file; give the path of a state file.');
    }
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

function prepare(db: Database.Database, path: string): void {
  try {
    // One snapshot for the three reads: another process may be creating this very file at the same moment.
    const { version } = db.transaction(() => checkedHeader(db, path))();
    switchToWal(db);
    // FULL: a commit that returned is on disk, also after a power cut (NORMAL may lose the last commits in WAL mode).
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    for (const m of MIGRATIONS) {
      if (m.version <= version) continue;
      db.transaction(() => {
        // Checked again under the write lock: another process opening the same new file (two imports started at
        // once) may have applied this migration since the first look.
        if (checkedHeader(db, path).version >= m.version) return;
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

/** The file's application id and schema version, refused when they are another program's or a newer version's. */
function checkedHeader(db: Database.Database, path: string): { version: number } {
  const appId = db.pragma('application_id', { simple: true }) as number;
  const version = db.pragma('user_version', { simple: true }) as number;
  const tables = (db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'").get() as { n: number }).n;
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
  return { version };
}

/** How long opening waits for other processes switching the same new file to WAL (as the busy timeout below). */
const BUSY_WAIT_MS = 5_000;

/**
 * `journal_mode = WAL` needs the file to itself and, unlike other statements, answers SQLITE_BUSY at once rather than
 * waiting for the busy timeout: several processes opening one new file together would fail. It is retried here.
 */
function switchToWal(db: Database.Database): void {
  const deadline = Date.now() + BUSY_WAIT_MS;
  for (let attempt = 1; ; attempt++) {
    try {
      db.pragma('journal_mode = WAL');
      return;
    } catch (err) {
      if ((err as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() >= deadline) throw err;
      // Synchronous like the rest of opening: a short blocking wait, longer on each attempt.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Math.min(10 * attempt, 100));
    }
  }
}

/**
 * The state file as it is now, copied into memory and migrated there, for a dry run that must leave the file (and its
 * folder) exactly as they are: nothing is created, migrated or checkpointed on disk; no file reads as a new one. With
 * a `-wal` beside the file (a run in progress, or one killed before its checkpoint) the copy is taken through a
 * read-only connection, so that it holds those commits too; without one, the file alone holds everything.
 */
export function openStateSnapshot(path: string): Database.Database {
  let db: Database.Database | undefined;
  try {
    let bytes: Buffer = Buffer.alloc(0);
    if (existsSync(path)) {
      checkFileBeforeOpening(path);
      if (existsSync(`${path}-wal`)) {
        const reader = new Database(path, { readonly: true, fileMustExist: true, timeout: BUSY_WAIT_MS });
        try {
          bytes = reader.serialize();
        } finally {
          reader.close();
        }
      } else {
        bytes = readFileSync(path);
      }
    }
    // Bytes 18-19 say WAL (2): a database in memory cannot be one. This copy is never written back.
    if (bytes.length >= 20) bytes.fill(1, 18, 20);
    db = bytes.length === 0 ? new Database(':memory:') : new Database(bytes);
    const { version } = checkedHeader(db, path);
    for (const m of MIGRATIONS) if (m.version > version) db.exec(m.sql);
    return db;
  } catch (err) {
    db?.close();
    if (err instanceof StateError) throw err;
    const code = (err as { code?: string }).code ?? '';
    const reason = code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT' ? 'corrupt' : 'unwritable';
    throw new StateError(reason, path, `cannot be read: ${(err as Error).message}. It was left as it is.`, {
      cause: err,
    });
  }
}
