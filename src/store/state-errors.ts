/**
 * SQLite's failures as StateErrors. Every read and write of a state file (sync's state, the import journal, the run
 * lock) goes through `guarded`, so that a damaged file, a full disk or a file that cannot be written is one typed error
 * naming the file and what to do, wherever in a run it surfaces: opening, reading, a record read late, the commit.
 */
import Database from 'better-sqlite3';
import { StateError, type StateFailure } from '../errors.js';

/** What a state file is to the job that uses it: what its errors advise depends on it. */
export type StateRole = 'sync' | 'import' | 'publish' | 'lock';

/** A state file as its errors name it. */
export interface StateFileRef {
  readonly path: string;
  readonly role: StateRole;
}

/** What to do about a damaged file: restore it, or start anew, and what starting anew costs. */
const START_ANEW: Readonly<Record<StateRole, string>> = {
  sync:
    'Restore it from a backup, or move it away (with its -wal and -shm files, if any) to start a new state: the next ' +
    "run then mirrors the service's window again and links every portal event anew (pins must be given again).",
  import:
    'Restore it from a backup, or move it away (with its -wal and -shm files, if any) to start a new journal: the ' +
    'next run then posts every route again under the same id, which replaces the route at the service rather than ' +
    'adding a second one.',
  publish:
    'Restore it from a backup, or move it away (with its -wal and -shm files, if any) to start a new state: the ' +
    'next publish of each course file then creates a new importable event, and the drafts already made stay on the ' +
    'service.',
  lock: 'It holds only who runs: delete it while no run is under way, and the next run makes a new one.',
};

/** The advice for a damaged file of `role`. */
export function startAnew(role: StateRole): string {
  return START_ANEW[role];
}

/** The StateFailure an SQLite result code stands for; undefined for codes that say nothing about the file. */
function failureOf(err: InstanceType<typeof Database.SqliteError>): StateFailure | undefined {
  const code = err.code;
  if (/^SQLITE_(CORRUPT|NOTADB|FORMAT)/.test(code)) return 'corrupt';
  // SHMSIZE: the shared-memory file beside a WAL database could not grow, which on a full disk is what opening fails
  // with before anything is written.
  if (code === 'SQLITE_FULL' || code === 'SQLITE_IOERR_SHMSIZE') return 'full';
  if (/^SQLITE_(IOERR|CANTOPEN|READONLY|PERM|AUTH)/.test(code)) return 'unwritable';
  if (/^SQLITE_(BUSY|LOCKED)/.test(code)) return 'locked';
  // A table or column the file's schema version promises is missing: the schema was edited by hand.
  if (code === 'SQLITE_ERROR' && /^no such (table|column)/.test(err.message)) return 'corrupt';
  return undefined;
}

/** `err` as the StateError it stands for, or undefined when it is not an SQLite failure of the file. */
export function stateErrorOf(file: StateFileRef, err: unknown): StateError | undefined {
  if (err instanceof StateError) return err;
  if (!(err instanceof Database.SqliteError)) return undefined;
  const reason = failureOf(err);
  if (reason === undefined) return undefined;
  const said = `${err.message} (${err.code})`;
  const options = { cause: err };
  switch (reason) {
    case 'corrupt':
      return new StateError(reason, file.path, `is damaged: SQLite cannot read it (${said}).`, {
        ...options,
        hint: startAnew(file.role),
      });
    case 'full':
      return new StateError(reason, file.path, `cannot grow: the disk is full (${said}).`, {
        ...options,
        hint: 'Free some space and run again.',
      });
    case 'locked':
      return new StateError(reason, file.path, `is kept busy by another process (${said}).`, {
        ...options,
        hint: 'Run again when it is done.',
      });
    default:
      return new StateError(reason, file.path, `cannot be read or written (${said}).`, {
        ...options,
        hint: 'Check the disk and the permissions of the file and its folder.',
      });
  }
}

/** Runs `fn` on the file, turning SQLite's failures of the file into StateErrors; other errors pass unchanged. */
export function guarded<T>(file: StateFileRef, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    throw stateErrorOf(file, err) ?? err;
  }
}

/** A row SQLite reads but we cannot: its JSON does not parse, or a value has the wrong type. */
export function damagedRow(file: StateFileRef, where: string, detail: string): StateError {
  return new StateError('corrupt', file.path, `is damaged: ${where} cannot be read (${detail}).`, {
    hint: startAnew(file.role),
  });
}
