/** Reading the files users hand over (exports, datasets), with one way of saying why one cannot be read. */
import { readFile, stat } from 'node:fs/promises';
import { InputError, type LiveloxErrorOptions } from '../errors.js';

export interface ReadInputOptions {
  /** How messages name the file. Default `the file`. */
  what?: string;
  /** What the user can do, appended to the message. */
  hint?: string;
  signal?: AbortSignal | undefined;
}

/** The `InputError` for a file that could not be read: a missing file said in words, other causes by their code. */
export function unreadableFile(path: string, err: unknown, options: Omit<ReadInputOptions, 'signal'> = {}): InputError {
  const code = (err as NodeJS.ErrnoException).code;
  const why = code === 'ENOENT' ? ': it does not exist' : code ? ` (${code})` : '';
  const extra: LiveloxErrorOptions = options.hint === undefined ? { cause: err } : { cause: err, hint: options.hint };
  return new InputError(path, 'unreadable', `cannot read ${options.what ?? 'the file'}${why}.`, extra);
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
