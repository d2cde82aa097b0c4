/** Writing `--out FILE` (courses, link): a reader of the file never sees half of it. */
import { randomBytes } from 'node:crypto';
import { open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';

/**
 * Writes `bytes` to `file` so that readers see the old file or the whole new one, never half of it: a temporary file
 * in the same directory (a rename across file systems is not atomic), flushed to disk, then renamed over the target.
 */
export async function writeFileAtomic(file: string, bytes: Uint8Array): Promise<void> {
  const target = resolve(file);
  const temp = join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  let handle;
  try {
    handle = await open(temp, 'wx');
    await handle.writeFile(bytes);
    await handle.sync();
    await handle.close();
    handle = undefined;
    await rename(temp, target);
  } catch (err) {
    await handle?.close().catch(() => undefined);
    await unlink(temp).catch(() => undefined);
    const code = (err as NodeJS.ErrnoException).code;
    throw new Error(`cannot write ${file}: ${code ?? (err instanceof Error ? err.message : String(err))}`, {
      cause: err,
    });
  }
}
