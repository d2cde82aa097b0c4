/**
 * Files on disk: reading the files users hand over (exports, datasets) with one way of saying why one cannot be read,
 * and writing a file so that no reader ever sees half of it (output files, the token file).
 */
import { randomBytes } from 'node:crypto';
import { open, readdir, readFile, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { InputError, type LiveloxErrorOptions } from '../errors.js';

/** The code of a Node.js system error (`ENOENT`, `EACCES`), or undefined for any other error. */
export function errnoCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

export interface ReadInputOptions {
  /** How messages name the file. Default `the file`. */
  what?: string;
  /** What the user can do, appended to the message. */
  hint?: string;
  signal?: AbortSignal | undefined;
}

/** The `InputError` for a file that could not be read: a missing file said in words, other causes by their code. */
export function unreadableFile(path: string, err: unknown, options: Omit<ReadInputOptions, 'signal'> = {}): InputError {
  const code = errnoCode(err);
  const why = code === 'ENOENT' ? ': it does not exist' : code ? ` (${code})` : '';
  const extra: LiveloxErrorOptions = options.hint === undefined ? { cause: err } : { cause: err, hint: options.hint };
  return new InputError(path, 'unreadable', `cannot read ${options.what ?? 'the file'}${why}.`, extra);
}

/**
 * The first `bytes` bytes of a file (fewer when it is shorter): enough to tell what a file is by its content without
 * reading a large one whole. An InputError (`unreadable`) saying why when it cannot be read.
 */
export async function readFileHead(path: string, bytes: number): Promise<Buffer> {
  try {
    const handle = await open(path, 'r');
    try {
      const { buffer, bytesRead } = await handle.read(Buffer.alloc(bytes), 0, bytes, 0);
      return buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  } catch (err) {
    throw unreadableFile(path, err);
  }
}

/** The whole file, or an `InputError` with reason `unreadable`. */
export async function readInputFile(path: string, options: ReadInputOptions = {}): Promise<Buffer> {
  try {
    return await readFile(path, options.signal ? { signal: options.signal } : {});
  } catch (err) {
    if (options.signal?.aborted) throw err;
    throw unreadableFile(path, err, options);
  }
}

/** The file's size in bytes, or an `InputError` with reason `unreadable`. */
export async function inputFileSize(path: string, options: Omit<ReadInputOptions, 'signal'> = {}): Promise<number> {
  try {
    return (await stat(path)).size;
  } catch (err) {
    throw unreadableFile(path, err, options);
  }
}

export interface WriteFileAtomicOptions {
  /**
   * The new file's permissions, exactly: the umask does not narrow them (0o600 for a file only its owner may read).
   * Default: a new file's usual mode (0o666 narrowed by the umask).
   */
  mode?: number;
}

/**
 * Writes `data` (a string as UTF-8) to `file` so that readers see the old file or the whole new one, never half of
 * it, and a crash or a full disk leaves no torn file: a temporary file in the same directory (a rename across file
 * systems is not atomic), flushed to disk, then renamed over the target, and the directory flushed so that the rename
 * lasts too. The new file is a new inode: it has `mode` (or the default) whatever the old file had. Throws the file
 * system's error (see `errnoCode`); the temporary file is removed first. The directory must exist.
 */
export async function writeFileAtomic(
  file: string,
  data: Uint8Array | string,
  options: WriteFileAtomicOptions = {},
): Promise<void> {
  const target = resolve(file);
  const dir = dirname(target);
  await removeAbandonedTemps(dir, basename(target));
  const temp = join(dir, `.${basename(target)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  let handle: FileHandle | undefined;
  try {
    // 'wx' fails rather than follow a symlink or reuse a file planted at the temporary name.
    handle = await open(temp, 'wx', options.mode ?? 0o666);
    // The umask can only narrow the mode given to open(); chmod makes it exactly what was asked.
    if (options.mode !== undefined) await handle.chmod(options.mode);
    await handle.writeFile(data);
    await handle.sync();
    await handle.close();
    handle = undefined;
    await rename(temp, target);
  } catch (err) {
    await handle?.close().catch(() => undefined);
    await rm(temp, { force: true }).catch(() => undefined);
    throw err;
  }
  await syncDirectory(dir);
}

/**
 * Temporary files of earlier writes of `name` whose process is gone (killed between creating its temporary file and
 * renaming it): removed, so that a writer killed at the wrong moment leaves nothing behind for long. A temporary file
 * of a process still running is its own business and is left alone.
 */
async function removeAbandonedTemps(dir: string, name: string): Promise<void> {
  let entries: string[];
  try {
    entries = await readdir(dir);
  } catch {
    return;
  }
  const prefix = `.${name}.`;
  for (const entry of entries) {
    if (!entry.startsWith(prefix) || !entry.endsWith('.tmp')) continue;
    const m = /^(\d+)\.[0-9a-f]{12}\.tmp$/.exec(entry.slice(prefix.length));
    if (!m || isRunning(Number(m[1]))) continue;
    await rm(join(dir, entry), { force: true }).catch(() => undefined);
  }
}

/** Whether process `pid` is running on this machine (EPERM: it is, as another user). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return errnoCode(err) === 'EPERM';
  }
}

/** Makes a rename durable. Not every platform can open a directory (Windows cannot): best effort. */
async function syncDirectory(dir: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch {
    // The file is complete either way; only a crash in the next moments could bring back the old one.
  } finally {
    await handle?.close().catch(() => undefined);
  }
}
