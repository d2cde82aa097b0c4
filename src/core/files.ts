/**
 * Files on disk: reading the files users hand over (exports, datasets, GPS files, the token file) with one way of
 * saying why one cannot be read, and writing a file so that no reader ever sees half of it (output files, the token
 * file). Every read goes through here because a path may name anything: a named pipe blocks a reader until a writer
 * comes (for ever, if none does), `/dev/zero` never ends, and a file may grow while it is read. So a path is read
 * only when it is a regular file, opened without blocking, and never beyond a size limit.
 */
import { randomBytes } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { lstat, open, readdir, realpath, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { InputError, type LiveloxErrorOptions } from '../errors.js';

/**
 * The default size limit of a read. Below V8's longest string (about 512 M characters), so that the bytes of any file
 * read can still become text; callers with a known kind of file pass a tighter `maxBytes`.
 */
const DEFAULT_MAX_INPUT_BYTES = 256 * 1024 * 1024;

/** Bytes per read when a file is read in slices (chunks for a stream, or a file that grew since it was measured). */
const SLICE_BYTES = 64 * 1024;

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
  /** Largest file read, in bytes; a larger one is an `InputError` with reason `too_large`. Default 256 MiB. */
  maxBytes?: number;
  /**
   * Looks at the opened file's status (the file that will be read, not a path that may change meanwhile) and may throw
   * to refuse it: the token file's permissions are checked so.
   */
  checkStats?: (stats: Stats) => void;
}

type Described = Pick<ReadInputOptions, 'what' | 'hint'>;

function errorOptions(options: Described, cause?: unknown): LiveloxErrorOptions {
  return { ...(cause === undefined ? {} : { cause }), ...(options.hint === undefined ? {} : { hint: options.hint }) };
}

/** The `InputError` for a file that could not be read: a missing file said in words, other causes by their code. */
export function unreadableFile(path: string, err: unknown, options: Described = {}): InputError {
  const code = errnoCode(err);
  const why = code === 'ENOENT' ? ': it does not exist' : code ? ` (${code})` : '';
  return new InputError(
    path,
    'unreadable',
    `cannot read ${options.what ?? 'the file'}${why}.`,
    errorOptions(options, err),
  );
}

/** What a path that is not a regular file is, in words: `a directory`, `a named pipe (FIFO)`, `a character device`. */
function fileKind(s: Stats): string {
  if (s.isFile()) return 'a regular file';
  if (s.isDirectory()) return 'a directory';
  if (s.isFIFO()) return 'a named pipe (FIFO)';
  if (s.isCharacterDevice()) return 'a character device';
  if (s.isBlockDevice()) return 'a block device';
  if (s.isSocket()) return 'a socket';
  if (s.isSymbolicLink()) return 'a symbolic link';
  return 'not a regular file';
}

/** The `InputError` (reason `not_a_file`) for a path that is a directory, pipe, device or socket. */
export function notARegularFile(path: string, s: Stats, options: Described = {}): InputError {
  return new InputError(
    path,
    'not_a_file',
    `${options.what ?? 'the file'} is ${fileKind(s)}, not a regular file; it was not read.`,
    errorOptions({ hint: options.hint ?? 'Give the path of a regular file.' }),
  );
}

/** The `InputError` (reason `too_large`) for a file over a read's limit, the limit named. */
function fileTooLarge(path: string, maxBytes: number, options: Described = {}, size?: number): InputError {
  const has = size === undefined ? '' : `${size} bytes, `;
  const words = sizeText(maxBytes);
  const limit = words === `${maxBytes} bytes` ? words : `${words} (${maxBytes} bytes)`;
  return new InputError(
    path,
    'too_large',
    `${options.what ?? 'the file'} has ${has}more than the ${limit} accepted; it was not read.`,
    errorOptions(options),
  );
}

/** `64 MiB`, `1 MiB`, `512 KiB`, or bytes. */
function sizeText(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

/**
 * Opens `path` for reading when it is a regular file. The path is looked at first (a stat has no side effects, where
 * opening some devices does), then opened with O_NONBLOCK (a named pipe put there in between must not block the open)
 * and looked at again through the handle: what is read is what was checked.
 */
async function openRegularFile(
  path: string,
  options: Described & Pick<ReadInputOptions, 'checkStats'>,
): Promise<{ handle: FileHandle; size: number }> {
  let handle: FileHandle | undefined;
  try {
    const before = await stat(path);
    if (!before.isFile()) throw notARegularFile(path, before, options);
    // O_NONBLOCK changes nothing for a regular file; Windows has no such flag and no named pipes on disk.
    handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    const now = await handle.stat();
    if (!now.isFile()) throw notARegularFile(path, now, options);
    options.checkStats?.(now);
    return { handle, size: now.size };
  } catch (err) {
    await handle?.close().catch(() => undefined);
    if (err instanceof InputError) throw err;
    throw unreadableFile(path, err, options);
  }
}

/**
 * The first `bytes` bytes of a file (fewer when it is shorter): enough to tell what a file is by its content without
 * reading a large one whole. An InputError saying why when it cannot be read (`unreadable`) or is not a regular file
 * (`not_a_file`).
 */
export async function readFileHead(path: string, bytes: number, options: Described = {}): Promise<Buffer> {
  const { handle } = await openRegularFile(path, options);
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(bytes), 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } catch (err) {
    throw unreadableFile(path, err, options);
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/**
 * The whole file, when it is a regular file of at most `maxBytes` bytes (default `DEFAULT_MAX_INPUT_BYTES`). Throws
 * `InputError` with reason `unreadable`, `not_a_file` or `too_large`; the size is checked before reading and again by
 * reading at most one byte more than the limit, so a file that grows while it is read is refused too. Throws the
 * signal's reason when it aborts.
 */
export async function readInputFile(path: string, options: ReadInputOptions = {}): Promise<Buffer> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_INPUT_BYTES;
  options.signal?.throwIfAborted();
  const { handle, size } = await openRegularFile(path, options);
  try {
    if (size > maxBytes) throw fileTooLarge(path, maxBytes, options, size);
    // The measured size into a buffer of its own (its `.buffer` is exactly the file, as `fs.readFile` gives), then
    // one byte more to see the end: a file that grew since it was measured is read on in slices, up to the limit.
    const first = Buffer.allocUnsafeSlow(size);
    let total = 0;
    while (total < size) {
      options.signal?.throwIfAborted();
      const { bytesRead } = await handle.read(first, total, size - total, total);
      if (bytesRead === 0) break;
      total += bytesRead;
    }
    if (total < size) return first.subarray(0, total);
    const slices: Buffer[] = [first];
    for (;;) {
      options.signal?.throwIfAborted();
      // One byte to see the end (the usual case), slices when the file did grow.
      const want = Math.min(slices.length === 1 ? 1 : SLICE_BYTES, maxBytes + 1 - total);
      const buffer = Buffer.allocUnsafe(want);
      const { bytesRead } = await handle.read(buffer, 0, want, total);
      if (bytesRead === 0) break;
      slices.push(buffer.subarray(0, bytesRead));
      total += bytesRead;
      if (total > maxBytes) throw fileTooLarge(path, maxBytes, options);
    }
    options.signal?.throwIfAborted();
    return slices.length === 1 ? first : Buffer.concat(slices, total);
  } catch (err) {
    if (err instanceof InputError || options.signal?.aborted) throw err;
    throw unreadableFile(path, err, options);
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/**
 * The file in slices of 64 KiB, for a reader that streams it (a large IOF export), with the checks of
 * `readInputFile`: the file is opened (and refused) when iteration starts, and closed when it ends or is abandoned.
 */
export async function* readInputChunks(path: string, options: ReadInputOptions = {}): AsyncGenerator<Uint8Array> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_INPUT_BYTES;
  options.signal?.throwIfAborted();
  const { handle, size } = await openRegularFile(path, options);
  try {
    if (size > maxBytes) throw fileTooLarge(path, maxBytes, options, size);
    let total = 0;
    for (;;) {
      options.signal?.throwIfAborted();
      const want = Math.min(SLICE_BYTES, maxBytes + 1 - total);
      let bytesRead: number;
      const buffer = Buffer.allocUnsafe(want);
      try {
        ({ bytesRead } = await handle.read(buffer, 0, want, total));
      } catch (err) {
        throw unreadableFile(path, err, options);
      }
      if (bytesRead === 0) return;
      total += bytesRead;
      if (total > maxBytes) throw fileTooLarge(path, maxBytes, options);
      yield buffer.subarray(0, bytesRead);
    }
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/**
 * Opens a regular file of at most `maxBytes` bytes (default `DEFAULT_MAX_INPUT_BYTES`) and hands `use` positioned reads
 * of it and its size, for a reader that needs a few bytes here and there (an image header) and never the whole file.
 * Refused before any read as `readInputFile` refuses (`unreadable`, `not_a_file`, `too_large`); closed when `use` ends.
 */
export async function withInputFile<T>(
  path: string,
  options: ReadInputOptions,
  use: (readAt: (offset: number, length: number) => Promise<Uint8Array>, size: number) => Promise<T>,
): Promise<T> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_INPUT_BYTES;
  options.signal?.throwIfAborted();
  const { handle, size } = await openRegularFile(path, options);
  try {
    if (size > maxBytes) throw fileTooLarge(path, maxBytes, options, size);
    return await use(async (offset, length) => {
      options.signal?.throwIfAborted();
      const want = Math.max(0, Math.min(length, size - offset));
      try {
        const { buffer, bytesRead } = await handle.read(Buffer.alloc(want), 0, want, offset);
        return buffer.subarray(0, bytesRead);
      } catch (err) {
        throw unreadableFile(path, err, options);
      }
    }, size);
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** The size in bytes of a regular file, or an `InputError` with reason `unreadable` or `not_a_file`. */
export async function inputFileSize(path: string, options: Described = {}): Promise<number> {
  let s: Stats;
  try {
    s = await stat(path);
  } catch (err) {
    throw unreadableFile(path, err, options);
  }
  if (!s.isFile()) throw notARegularFile(path, s, options);
  return s.size;
}

export interface WriteFileAtomicOptions {
  /**
   * The new file's permissions, exactly: the umask does not narrow them (0o600 for a file only its owner may read).
   * Default: an existing file's permissions (a 0600 file stays 0600), else a new file's usual mode (0o666 narrowed by
   * the umask).
   */
  mode?: number;
}

/**
 * What a write replaces: the path itself, or, when the path is a symbolic link, the file it points to (the link is
 * kept, as a shell's `>` keeps it). Refuses with an `InputError` (reason `not_a_file`), touching nothing, a path that
 * is (or links to) a directory, named pipe, device or socket: a rename would put a file where the device or pipe was,
 * and a directory is never what a user meant to overwrite. A link to nothing is refused too: where it points may be a
 * folder that does not exist, and guessing is worse than saying so.
 */
async function writeTarget(file: string): Promise<{ path: string; existing?: Stats }> {
  const path = resolve(file);
  let found: Stats;
  try {
    found = await lstat(path);
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') return { path };
    throw err;
  }
  if (!found.isSymbolicLink()) {
    if (!found.isFile()) throw notWritable(file, found);
    return { path, existing: found };
  }
  let real: string;
  try {
    real = await realpath(path);
  } catch (err) {
    if (errnoCode(err) !== 'ENOENT') throw err;
    throw new InputError(file, 'not_a_file', 'is a symbolic link to a file that does not exist; it was not written.', {
      hint: 'Give the path of a regular file, or point the link at an existing one.',
    });
  }
  const target = await stat(real);
  if (!target.isFile()) throw notWritable(file, target, real);
  return { path: real, existing: target };
}

function notWritable(file: string, s: Stats, via?: string): InputError {
  const is = via === undefined ? `is ${fileKind(s)}` : `is a symbolic link to ${fileKind(s)} (${via})`;
  return new InputError(file, 'not_a_file', `${is}, not a regular file; it was not written.`, {
    hint: 'Give the path of a regular file (or of one to create).',
  });
}

/**
 * Writes `data` (a string as UTF-8) to `file` so that readers see the old file or the whole new one, never half of
 * it, and a crash or a full disk leaves no torn file: a temporary file in the same directory (a rename across file
 * systems is not atomic), flushed to disk, then renamed over the target, and the directory flushed so that the rename
 * lasts too. Only regular files are replaced: a symbolic link is followed and the file it points to replaced (the link
 * stays a link); a directory, named pipe, device or socket is refused with an `InputError` (reason `not_a_file`) and
 * left as it was. The new file keeps the old one's permissions (and, when this process may, its owner) unless `mode`
 * says otherwise. Throws the file system's error otherwise (see `errnoCode`); the temporary file is removed first. The
 * directory must exist.
 */
export async function writeFileAtomic(
  file: string,
  data: Uint8Array | string,
  options: WriteFileAtomicOptions = {},
): Promise<void> {
  const { path: target, existing } = await writeTarget(file);
  const dir = dirname(target);
  await removeAbandonedTemps(dir, basename(target));
  const temp = join(dir, `.${basename(target)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  // Permission bits only: set-user-id and the like are not carried over to content this process wrote.
  const mode = options.mode ?? (existing === undefined ? undefined : existing.mode & 0o777);
  let handle: FileHandle | undefined;
  try {
    // 'wx' fails rather than follow a symlink or reuse a file planted at the temporary name.
    handle = await open(temp, 'wx', mode === undefined ? 0o666 : 0o600);
    const othersFile =
      existing !== undefined && (existing.uid !== process.getuid?.() || existing.gid !== process.getgid?.());
    // Root replacing a user's report gives it back to the user (anyone else may not, and the file becomes theirs).
    // Never for a file written with an explicit mode (a secret: the token file): handing it to the owner of a file a
    // symlink pointed at would hand the secret to whoever planted the link.
    if (othersFile && options.mode === undefined) await handle.chown(existing.uid, existing.gid).catch(() => undefined);
    // The umask can only narrow the mode given to open(); chmod makes it exactly what was asked.
    if (mode !== undefined) await handle.chmod(mode);
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
