/**
 * Reading the files named on the command line with core's reader (regular files only, under its size limit),
 * failures said in the CLI's words (`no such file`, not `ENOENT`): short, because the command's own line already names
 * the file.
 */
import { errnoCode, readInputFile } from '../core/files.js';
import { InputError } from '../errors.js';

/** A file's bytes, or an error that says which file and why in words. */
export async function readInput(file: string): Promise<Uint8Array> {
  try {
    return new Uint8Array(await readInputFile(file));
  } catch (err) {
    throw new Error(`cannot read ${file}: ${readErrorText(err)}`, { cause: err });
  }
}

/** Why a file could not be read, in words: for reports that go on with the other files (validate). */
export function readErrorText(err: unknown): string {
  if (err instanceof InputError && err.reason !== 'unreadable') {
    // Core refused the file itself (a FIFO, a device, too large): its words without the path the caller names.
    return err.detail.replace(/^the file /, 'it ').replace(/\.$/, '');
  }
  // Core's reader says it in its own words; the file system's error it wraps has the code said here.
  const cause = err instanceof InputError ? err.cause : err;
  const code = errnoCode(cause);
  switch (code) {
    case 'ENOENT':
      return 'no such file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'it is a directory';
    default:
      return code ?? (cause instanceof Error ? cause.message : String(cause));
  }
}
