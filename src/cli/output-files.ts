/**
 * Writing `--out FILE` (courses, link, sync, import) with core's atomic write: a reader of the file never sees half of
 * it, an existing file keeps its permissions (a 0600 file stays 0600), a symbolic link is followed and the file it
 * points to replaced (the link stays), and a directory, named pipe, device or socket is refused untouched. A failure
 * is said as the CLI says it: `cannot write FILE: why`.
 */
import { accessSync, constants, statSync, type Stats } from 'node:fs';
import { dirname, resolve } from 'node:path';

import { errnoCode, writeFileAtomic as writeAtomically } from '../core/files.js';
import { InputError } from '../errors.js';
import { UsageError } from './command.js';

export async function writeFileAtomic(file: string, bytes: Uint8Array): Promise<void> {
  try {
    await writeAtomically(file, bytes);
  } catch (err) {
    throw new Error(`cannot write ${file}: ${writeErrorText(err)}`, { cause: err });
  }
}

function writeErrorText(err: unknown): string {
  // Core's refusal (`it is a named pipe (FIFO), not a regular file; ...`), without the path said already.
  if (err instanceof InputError) return `it ${err.detail}${err.hint ? ` ${err.hint.text}` : ''}`;
  return errnoCode(err) ?? (err instanceof Error ? err.message : String(err));
}

/**
 * Whether `file` can be written, asked before a run whose output it is, so that a run that commits is never followed
 * by a failure only a wrong path caused: the path must not be a directory (or other non-file), and its folder must
 * exist and be writable. Throws `UsageError` naming `option`. The write itself can still fail (a full disk).
 */
export function checkOutputPath(file: string, option: string): void {
  let stat: Stats | undefined;
  try {
    stat = statSync(file);
  } catch (err) {
    const code = errnoCode(err);
    if (code === 'ENOTDIR') throw new UsageError(`${option} ${file}: a part of its path is a file, not a folder`);
    if (code !== 'ENOENT') throw new UsageError(`${option} ${file}: ${writeErrorText(err)}`);
  }
  if (stat !== undefined && !stat.isFile()) {
    throw new UsageError(
      `${option} ${file}: it is ${stat.isDirectory() ? 'a folder' : 'not a regular file'}; give a file name`,
    );
  }
  const folder = dirname(resolve(file));
  try {
    accessSync(folder, constants.W_OK);
  } catch (err) {
    const why = errnoCode(err) === 'ENOENT' ? 'does not exist' : 'cannot be written to';
    throw new UsageError(`${option} ${file}: the folder ${folder} ${why}`);
  }
}

/**
 * Whether files can be written in `dir` (created with its parents when missing), asked before a run for the same
 * reason as `checkOutputPath`: it must be a folder if it exists, and the nearest folder that exists on its path must be
 * writable. Throws `UsageError` naming `option`.
 */
export function checkOutputFolder(dir: string, option: string): void {
  let path = resolve(dir);
  for (;;) {
    let stat: Stats;
    try {
      stat = statSync(path);
    } catch (err) {
      // ENOTDIR: a file on the path; walking up finds it and says so.
      const code = errnoCode(err);
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw new UsageError(`${option} ${dir}: ${writeErrorText(err)}`);
      const parent = dirname(path);
      if (parent === path) throw new UsageError(`${option} ${dir}: no folder on its path exists`);
      path = parent;
      continue;
    }
    if (!stat.isDirectory()) {
      const what = path === resolve(dir) ? 'it is a file, not a folder' : `${path} is a file, not a folder`;
      throw new UsageError(`${option} ${dir}: ${what}; give a folder`);
    }
    try {
      accessSync(path, constants.W_OK);
    } catch {
      throw new UsageError(`${option} ${dir}: the folder ${path} cannot be written to`);
    }
    return;
  }
}
