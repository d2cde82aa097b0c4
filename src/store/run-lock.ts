/**
 * The run lock: two runs never work on one state at once, and a run that dies (kill -9, the OOM killer, a container
 * stopped) lets the next one in at once, whatever its pid or host was. The lock is a write transaction held on a small
 * SQLite file beside the state (`<state>.lock`) for the whole run: its lock is the operating system's (a POSIX record
 * lock), which the system drops with the process that held it. No pid is ever checked. Who holds it (pid, host, since)
 * is written in that file for the refusal's message only.
 *
 * Writing who holds it and taking the lock are two steps: they happen inside a write transaction on the state file
 * (the gate, nothing written there), so that a run refused reads the holder's own entry, never one a rival wrote a
 * moment before it was refused. The gate is held for milliseconds; the lock for the run.
 */
import { lstatSync } from 'node:fs';
import Database from 'better-sqlite3';
import { StateError } from '../errors.js';
import { guarded, stateErrorOf, type StateFileRef } from './state-errors.js';
import type { LockHolder } from './sync-state.js';

/** The lock file of the state at `statePath`. */
export function lockPathOf(statePath: string): string {
  return `${statePath}.lock`;
}

/** A lock taken: `release` ends it (so does the process's end, however it ends). */
export interface RunLock {
  release(): void;
}

/**
 * Takes the run lock of the state open as `state` at `statePath`, or throws a StateError: `locked` naming the holder
 * when a live run holds it, or what keeps the lock file from being used.
 */
export function takeRunLock(
  state: Database.Database,
  statePath: string,
  holder: LockHolder,
  role: StateFileRef['role'] = 'sync',
): RunLock {
  const stateFile: StateFileRef = { path: statePath, role };
  const lockFile: StateFileRef = { path: lockPathOf(statePath), role: 'lock' };
  checkLockPath(lockFile.path);
  guarded(stateFile, () => state.exec('BEGIN IMMEDIATE'));
  let db: Database.Database | undefined;
  try {
    // No busy wait: a lock held is an answer, not something to wait for.
    db = guarded(lockFile, () => new Database(lockFile.path, { timeout: 0 }));
    announce(db, lockFile, statePath, holder);
    guarded(lockFile, () => db!.exec('BEGIN IMMEDIATE'));
  } catch (err) {
    db?.close();
    throw err;
  } finally {
    state.exec('ROLLBACK');
  }
  const held = db;
  return { release: () => held.close() };
}

/**
 * The lock file, when there is one, must be a regular file: a link is never followed (the entry would be written
 * wherever it points), a folder or device never locked. Looked at without opening it: closing a descriptor of a file
 * drops every POSIX lock this process holds on it, its SQLite locks included.
 */
function checkLockPath(path: string): void {
  let stat;
  try {
    stat = lstatSync(path);
  } catch {
    return; // Absent (made by the first run), or it will fail to open and say why.
  }
  if (!stat.isFile()) {
    throw new StateError(
      'foreign',
      path,
      'is not a regular file, so it cannot be the run lock of the state beside it.',
      {
        hint: 'Move it away; the next run makes its lock file there.',
      },
    );
  }
}

/** Writes who is about to hold the lock; a lock held by a live run refuses the write, and its holder is named. */
function announce(db: Database.Database, file: StateFileRef, statePath: string, holder: LockHolder): void {
  try {
    db.exec(
      'CREATE TABLE IF NOT EXISTS holder (id INTEGER PRIMARY KEY CHECK (id = 1), pid INTEGER, host TEXT, since TEXT)',
    );
    db.prepare('INSERT OR REPLACE INTO holder (id, pid, host, since) VALUES (1, ?, ?, ?)').run(
      holder.pid,
      holder.host,
      holder.since,
    );
  } catch (err) {
    const failure = stateErrorOf(file, err);
    if (failure?.reason !== 'locked') throw failure ?? err;
    throw new StateError(
      'locked',
      statePath,
      `another run holds this state (${describe(db)}). It is released when that run ends, however it ends.`,
      { cause: err, hint: 'Wait for it to end, then run again.' },
    );
  }
}

/** The holder as its entry says (read while it holds the lock: readers are not kept out). */
function describe(db: Database.Database): string {
  try {
    const row = db.prepare('SELECT pid, host, since FROM holder WHERE id = 1').get() as
      { pid: unknown; host: unknown; since: unknown } | undefined;
    if (row) return `process ${String(row.pid)} on ${String(row.host)}, since ${String(row.since)}`;
  } catch {
    // The entry cannot be read: the refusal stands without a name.
  }
  return 'its holder did not say who it is';
}
