/**
 * Writing `--out FILE` (courses, link, sync, import) with core's atomic write: a reader of the file never sees half of
 * it, an existing file keeps its permissions (a 0600 file stays 0600), a symbolic link is followed and the file it
 * points to replaced (the link stays), and a directory, named pipe, device or socket is refused untouched. A failure
 * is said as the CLI says it: `cannot write FILE: why`.
 */
import { errnoCode, writeFileAtomic as writeAtomically } from '../core/files.js';
import { InputError } from '../errors.js';

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
