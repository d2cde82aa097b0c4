/**
 * The journal's JSON-lines file. Opened when the simulator starts, so that a path that cannot be written is refused
 * then, not found out at the first request; opened without blocking, so that a named pipe with no reader can never
 * hang the start (only a regular file is taken). Each line is written at once and whole, synchronously: an entry is a
 * few KiB, and a stream would buffer without bound when the disk is slower than the traffic. A write that fails (a
 * full disk) stops the file, never the simulator: memory still has the entries, and the status says why. A file
 * removed or replaced while the simulator runs (a log rotated) is opened again at its path, as log writers do.
 */
import { closeSync, constants, fchmodSync, fstatSync, ftruncateSync, openSync, statSync, writeSync } from 'node:fs';
import { ValidationError } from '../errors.js';

/** The journal file, as `GET /_simulator/journal` reports it. */
export interface SimJournalFileStatus {
  path: string;
  /** Lines written whole to the file (across reopenings). */
  lines: number;
  /** Times the file was found removed or replaced at its path and opened again. */
  reopened: number;
  /** Why appending stopped (`ENOSPC`, say); the simulator and the journal in memory carry on. */
  stoppedBy?: string;
}

export class JournalFile {
  readonly #status: SimJournalFileStatus;
  #fd: number | undefined;
  #ino = 0;
  /** The file's size after the last whole line: where a line cut short by a failed write is cut back to. */
  #size = 0;

  constructor(path: string) {
    this.#status = { path, lines: 0, reopened: 0 };
    try {
      this.#open();
    } catch (err) {
      throw new ValidationError('Invalid simulator options', [
        {
          path: 'journalFile',
          code: 'invalid_option',
          message: `cannot be opened for appending (${why(err)}): ${path}`,
        },
      ]);
    }
  }

  get status(): SimJournalFileStatus {
    return { ...this.#status };
  }

  append(line: string): void {
    if (this.#fd === undefined) return;
    try {
      if (!this.#stillAtPath()) {
        this.#close();
        this.#open();
        this.#status.reopened++;
      }
      const bytes = Buffer.from(line, 'utf8');
      for (let at = 0; at < bytes.length;) at += writeSync(this.#fd, bytes, at, bytes.length - at);
      this.#size += bytes.length;
      this.#status.lines++;
    } catch (err) {
      this.#status.stoppedBy = why(err);
      // Part of the line may be on the disk: cut back to the last whole line, so that JSON-lines readers read it all.
      try {
        if (this.#fd !== undefined) ftruncateSync(this.#fd, this.#size);
      } catch {
        // The file keeps a cut last line; the status says why it stopped.
      }
      this.#close();
    }
  }

  close(): void {
    this.#close();
  }

  #open(): void {
    const path = this.#status.path;
    const fd = openSync(
      path,
      constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NONBLOCK,
      0o600,
    );
    try {
      const stat = fstatSync(fd);
      if (!stat.isFile()) throw Object.assign(new Error('not a regular file'), { code: 'not a regular file' });
      // A journal is a user's traffic: kept from other users even when the file was there before (made 0600).
      if ((stat.mode & 0o077) !== 0) tightenMode(fd);
      this.#ino = stat.ino;
      this.#size = stat.size;
    } catch (err) {
      closeSync(fd);
      throw err;
    }
    this.#fd = fd;
  }

  /** Whether the file this process writes is still the one at the path (not removed, not replaced). */
  #stillAtPath(): boolean {
    const stat = statSync(this.#status.path, { throwIfNoEntry: false });
    return stat !== undefined && stat.ino === this.#ino;
  }

  #close(): void {
    if (this.#fd === undefined) return;
    const fd = this.#fd;
    this.#fd = undefined;
    try {
      closeSync(fd);
    } catch {
      // Closing after a failed write may fail again; the status already says why the file stopped.
    }
  }
}

/** Best effort: a file another user owns keeps its mode (its owner chose it), and is still written. */
function tightenMode(fd: number): void {
  try {
    fchmodSync(fd, 0o600);
  } catch {
    // EPERM: not ours to change.
  }
}

function why(err: unknown): string {
  return err instanceof Error && 'code' in err ? String(err.code) : err instanceof Error ? err.message : String(err);
}
