/**
 * Writing `--out FILE` (courses, link, sync) with core's atomic write (a reader of the file never sees half of it),
 * and a failure said as the CLI says it: `cannot write FILE: CODE`.
 */
import { errnoCode, writeFileAtomic as writeAtomically } from '../core/files.js';

export async function writeFileAtomic(file: string, bytes: Uint8Array): Promise<void> {
  try {
    await writeAtomically(file, bytes);
  } catch (err) {
    throw new Error(`cannot write ${file}: ${errnoCode(err) ?? (err instanceof Error ? err.message : String(err))}`, {
      cause: err,
    });
  }
}
