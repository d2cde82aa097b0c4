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
    if (errnoCode(err) !== 'ENOENT') throw new UsageError(`${option} ${file}: ${writeErrorText(err)}`);
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
