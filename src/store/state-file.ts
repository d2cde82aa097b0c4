/**
 * The state file: one SQLite database (better-sqlite3), WAL mode with `synchronous = FULL`, so that a commit that
 * returned survives a power cut and a run killed before its commit leaves nothing behind. The file is checked before
 * anything is written to it: a file that is not SQLite, another program's database, one from a newer version or one
 * whose pages SQLite finds damaged is refused with a StateError and left exactly as it was.
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
import { startAnew, stateErrorOf, type StateFileRef } from './state-errors.js';

/** `PRAGMA application_id` of our files ('LLBX'): tells our database from any other SQLite file. */
export const APPLICATION_ID = 0x4c4c4258;
const SQLITE_MAGIC = 'SQLite format 3\u0000';

/**
 * Opens (creating when absent) the state file at `file.path`, checked and migrated to the current schema. The sync
 * store and the import journal both open their connection here, so a file is checked the same way whoever opens it.
 */
export function openStateDatabase(file: StateFileRef): Database.Database {
  const path = file.path;
  checkFileBeforeOpening(file);
  let db: Database.Database;
  try {
    db = new Database(path, { timeout: BUSY_WAIT_MS });
  } catch (err) {
    throw new StateError('unwritable', path, `cannot open the state file: ${(err as Error).message}`, { cause: err });
  }
  try {
    prepare(db, file);
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
}

/** A path that exists must be a regular file holding SQLite (or nothing, a file just created): checked unopened. */
function checkFileBeforeOpening(file: StateFileRef): 'absent' | 'empty' | 'sqlite' {
  const path = file.path;
  if (!existsSync(path)) {
    mkdirSync(dirname(path), { recursive: true });
    return 'absent';
  }
  const stat = statSync(path);
  if (!stat.isFile()) throw new StateError('foreign', path, 'is not a regular file; give the path of a state file.');
  if (stat.size === 0) return 'empty';
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
      'is not a livelox-bridge state file (not an SQLite database): another file, or one damaged at its start. It was left as it is.',
      { hint: startAnew(file.role) },
    );
  }
  return 'sqlite';
}

function prepare(db: Database.Database, file: StateFileRef): void {
  const path = file.path;
  try {
    // One snapshot for the three reads: another process may be creating this very file at the same moment.
    const { version } = db.transaction(() => checkedHeader(db, path))();
    checkPages(db, file);
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
    throw (
      stateErrorOf(file, err) ??
      new StateError('unwritable', path, `cannot be used: ${(err as Error).message}`, { cause: err })
    );
  }
}

/**
 * Every page read and checked (`integrity_check`: b-trees, free list, indexes against their tables) before a run
 * relies on the file: damage found now costs no request and changes nothing, where found at the commit it would cost
 * a night's work, and a damaged index could even make a commit write a row twice. It costs about what reading the
 * mirror costs, which a sync run does anyway.
 */
function checkPages(db: Database.Database, file: StateFileRef): void {
  const rows = (db.pragma('integrity_check(3)') as Array<{ integrity_check: string }>).map((r) => r.integrity_check);
  if (rows.length === 1 && rows[0] === 'ok') return;
  // A row may hold several lines, under a heading that names the schema ("*** in database main ***").
  const found = rows.flatMap((r) => r.split('\n')).filter((line) => line !== '' && !line.startsWith('***'));
  throw new StateError('corrupt', file.path, `is damaged: SQLite finds ${found.slice(0, 3).join('; ')}.`, {
    hint: startAnew(file.role),
  });
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
 * The state file as it is now, copied into memory and migrated there, for a dry run (sync's and import's) that must
 * leave the file (and its folder) exactly as they are: nothing is created, migrated or checkpointed on disk; no file reads as a new one. With
 * a `-wal` beside the file (a run in progress, or one killed before its checkpoint) the copy is taken through a
 * read-only connection, so that it holds those commits too; without one, the file alone holds everything.
 */
export function openStateSnapshot(file: StateFileRef): Database.Database {
  const path = file.path;
  let db: Database.Database | undefined;
  try {
    let bytes: Buffer = Buffer.alloc(0);
    if (existsSync(path)) {
      checkFileBeforeOpening(file);
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
    // Damage a run would find is found here too, so that a dry run ends as the run would.
    checkPages(db, file);
    for (const m of MIGRATIONS) if (m.version > version) db.exec(m.sql);
    return db;
  } catch (err) {
    db?.close();
    throw (
      stateErrorOf(file, err) ??
      new StateError('unwritable', path, `cannot be read: ${(err as Error).message}. It was left as it is.`, {
        cause: err,
      })
    );
  }
}
