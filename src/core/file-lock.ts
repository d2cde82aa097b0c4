/**
 * A lock that processes sharing a file take before they read, compare and replace it, and that the operating system
 * releases the moment its holder dies (SIGKILL, an OOM kill, a power cut of a container): nobody ever has to find out
 * whether a holder is still alive, so there is no pid to check, no age after which a lock is taken to be stale.
 *
 * How: the lock is a write transaction (`BEGIN IMMEDIATE`) on an SQLite database that is only ever an empty lock file
 * beside the file it guards (`tokens.json.lock`). SQLite takes it with the platform's own byte-range locks (fcntl on
 * POSIX, LockFileEx on Windows), which the kernel drops when the holder's descriptors close, however the process ends.
 * Node has no flock of its own; better-sqlite3 is a dependency already (the sync state), and SQLite's locking is the
 * most tested there is. The transaction never writes, so the file stays empty and no journal is made.
 *
 * Why not the alternatives:
 * - A lock file created with O_EXCL is not released on a crash: it needs stale detection, by pid (wrong in a
 *   container, where the pid is 1 again, or after pid reuse) or by age (a SIGKILLed holder blocks everyone until the
 *   age passes, and a slow holder that lives past it shares its lock with the next comer).
 * - Linux's abstract Unix sockets are released on death too, but they are Linux-only and per network namespace (two
 *   containers sharing the file would not see each other's lock).
 *
 * Failure modes, said where the lock is used:
 * - A live holder that is stopped (SIGSTOP, a debugger) keeps the lock: a waiter gives up after `timeoutMs` and says
 *   so; nothing is changed.
 * - Network file systems: fcntl locks over NFS are only as good as its lock daemon (SQLite's own warning), and SMB
 *   varies. Sharing a locked file between machines that way is not promised.
 * - Deleting the lock file while a holder holds it lets the next comer lock a new file: remove it only when nothing
 *   runs. The lock file is therefore never removed by this module (a lock file that comes and goes cannot be locked
 *   safely: a waiter may hold the old inode while a newcomer creates the next one).
 * - POSIX locks belong to a process, and closing any descriptor of the file drops all of them: so this process never
 *   opens the lock file twice at once. Holders in one process queue here first (`inProcess`), and only the head of
 *   the queue opens the file.
 */
import type Database from 'better-sqlite3';
import { constants } from 'node:fs';
import { lstat, open } from 'node:fs/promises';
import { errnoCode } from './files.js';
import { abortReason, sleep } from './sleep.js';

export interface FileLockOptions {
  signal?: AbortSignal | undefined;
  /** How long to wait for another holder before giving up (the answer is then undefined). */
  timeoutMs: number;
}

export interface FileLock {
  /** Ends the transaction and closes the lock file; the next waiter gets the lock. Safe to call twice. */
  release(): void;
}

/** The holders of this process, per lock file: each waits for the one before it (see "POSIX locks" above). */
const inProcess = new Map<string, Promise<void>>();

/** Waits between attempts, growing to this: a refresh holding the lock takes tens to hundreds of ms. */
const MAX_POLL_MS = 100;

/**
 * Takes the lock of `lockPath` (created empty, mode 0600, when absent), waiting while another process or another
 * holder in this one has it. Undefined when `timeoutMs` passed first; rejects when `signal` aborts, or when the lock
 * file cannot be used (not a regular file, not an SQLite database, unreadable).
 */
export async function lockFile(lockPath: string, options: FileLockOptions): Promise<FileLock | undefined> {
  const deadline = Date.now() + options.timeoutMs;
  const before = inProcess.get(lockPath);
  let leave!: () => void;
  const mine = new Promise<void>((resolve) => (leave = resolve));
  // The next holder of this process waits for this one, and so for every one before it.
  const queue = (before ?? Promise.resolve()).then(() => mine);
  inProcess.set(lockPath, queue);
  const done = (): void => {
    leave();
    if (inProcess.get(lockPath) === queue) inProcess.delete(lockPath);
  };
  try {
    if (options.signal?.aborted) throw abortReason(options.signal);
    if (before !== undefined && !(await waitFor(before, deadline, options.signal))) {
      done();
      return undefined;
    }
    const db = await takeOsLock(lockPath, deadline, options.signal);
    if (db === undefined) {
      done();
      return undefined;
    }
    let held = true;
    return {
      release() {
        if (!held) return;
        held = false;
        try {
          db.exec('ROLLBACK');
        } finally {
          db.close();
          done();
        }
      },
    };
  } catch (err) {
    done();
    throw err;
  }
}

/** Whether `promise` settled before `deadline`; rejects when `signal` aborts first. */
async function waitFor(promise: Promise<void>, deadline: number, signal: AbortSignal | undefined): Promise<boolean> {
  const stop = new AbortController();
  const onAbort = () => stop.abort(abortReason(signal!));
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const timedOut = sleep(Math.max(0, deadline - Date.now()), stop.signal).then(() => true);
    return !(await Promise.race([promise.then(() => false), timedOut]));
  } finally {
    signal?.removeEventListener('abort', onAbort);
    // Ends the pending sleep (its rejection is nobody's business).
    stop.abort();
  }
}

async function takeOsLock(
  lockPath: string,
  deadline: number,
  signal: AbortSignal | undefined,
): Promise<Database.Database | undefined> {
  await createLockFile(lockPath);
  // Loaded here: a caller that never locks a file (tokens in memory, an API key) never loads the native module.
  // A CommonJS module (`export =`): its import() has it as `default`, which its types do not say.
  const Sqlite = ((await import('better-sqlite3')) as unknown as { default: typeof Database }).default;
  // No busy timeout: SQLite would wait inside a synchronous call and stop this process's event loop meanwhile.
  const db = new Sqlite(lockPath, { timeout: 0 });
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        db.exec('BEGIN IMMEDIATE');
        return db;
      } catch (err) {
        if (errnoCode(err) !== 'SQLITE_BUSY') throw err;
      }
      const left = deadline - Date.now();
      if (left <= 0) {
        db.close();
        return undefined;
      }
      await sleep(Math.min(left, MAX_POLL_MS, 5 * 2 ** attempt), signal);
    }
  } catch (err) {
    db.close();
    throw err;
  }
}

/**
 * Creates the lock file when absent, empty and private. Never follows a symbolic link there, and never opens an
 * existing lock file itself (that descriptor's close would drop a lock this process holds through SQLite).
 */
async function createLockFile(lockPath: string): Promise<void> {
  try {
    const s = await lstat(lockPath);
    if (s.isFile()) return;
    // A link is never followed (it could point anywhere), a folder or device never locked: said, not guessed.
    throw new Error('it is not a regular file');
  } catch (err) {
    if (errnoCode(err) !== 'ENOENT') throw err;
  }
  try {
    const handle = await open(
      lockPath,
      constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | (constants.O_NOFOLLOW ?? 0),
      0o600,
    );
    await handle.close();
  } catch (err) {
    // Another process made it meanwhile: theirs is as good.
    if (errnoCode(err) !== 'EEXIST') throw err;
  }
}
