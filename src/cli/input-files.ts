/** Reading the files named on the command line, with failures said in words (`no such file`, not `ENOENT: ...`). */
import { readFile } from 'node:fs/promises';

/** A file's bytes, or an error that says which file and why in words. */
export async function readInput(file: string): Promise<Uint8Array> {
  try {
    return new Uint8Array(await readFile(file));
  } catch (err) {
    throw new Error(`cannot read ${file}: ${readErrorText(err)}`, { cause: err });
  }
}

/** Why a file could not be read, in words: for reports that go on with the other files (validate). */
export function readErrorText(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  switch (code) {
    case 'ENOENT':
      return 'no such file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'it is a directory';
    default:
      return code ?? (err instanceof Error ? err.message : String(err));
  }
}
