/**
 * The files of a folder the user hands over (a portal's exports for `sync`, GPS routes for `import`), found
 * recursively and in sorted order, so that a run reads the same files in the same order as the run before (which of
 * two files giving one event wins, or which id a route is listed under, must not change from run to run).
 * Symbolic links are followed, but every folder and file is taken once by its real path: a link back up the tree
 * (a loop) or a second link to the same place adds nothing and cannot make the walk endless.
 */
import type { Dirent, Stats } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { notARegularFile, unreadableFile } from './files.js';
import type { InputError } from '../errors.js';
import { codeUnitOrder as compare } from './order.js';

export interface FolderFile {
  /** The path to open: the folder given, joined with `relative`. */
  path: string;
  /** The path below the folder, with `/` between names whatever the platform. */
  relative: string;
  /** The real path (links resolved): what tells two names of one file apart from two files. */
  real: string;
}

/** What cannot be read as a file: a folder that cannot be listed, a broken link, a FIFO or device. */
export interface FolderProblem {
  path: string;
  error: InputError;
}

/**
 * The problem of a path that is neither a regular file nor a folder: reading a FIFO would wait for a writer forever.
 * Worded by core/files.ts, as every read of a path that is not a regular file.
 */
export function notAFile(path: string, s: Stats): InputError {
  return notARegularFile(path, s, { what: 'it' });
}

/**
 * Every file below `folder`, sorted by relative path, and what could not be listed. Names starting with `.` (`.git`,
 * `.DS_Store`, editors' swap files) are left out: they are never a portal's events nor a route.
 */
export async function listFolder(
  folder: string,
  options: { signal?: AbortSignal | undefined } = {},
): Promise<{ files: FolderFile[]; problems: FolderProblem[] }> {
  const files: FolderFile[] = [];
  const problems: FolderProblem[] = [];
  const seen = new Set<string>();
  const problem = (path: string, error: InputError): void => {
    problems.push({ path, error });
  };

  const walk = async (dir: string, relative: string): Promise<void> => {
    options.signal?.throwIfAborted();
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (err) {
      problem(dir, unreadableFile(dir, err, { what: 'the folder' }));
      return;
    }
    // Sorted, so that which of two links to one place is taken does not depend on the order the disk lists them in.
    entries.sort((a, b) => compare(a.name, b.name));
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const path = join(dir, entry.name);
      const rel = relative === '' ? entry.name : `${relative}/${entry.name}`;
      let isFile = entry.isFile();
      let isDirectory = entry.isDirectory();
      if (!isFile && !isDirectory) {
        // A link is judged by what it points to; a link that leads nowhere (or to itself) cannot be read.
        let target: Stats;
        try {
          target = await stat(path);
        } catch (err) {
          problem(path, unreadableFile(path, err));
          continue;
        }
        isFile = target.isFile();
        isDirectory = target.isDirectory();
        if (!isFile && !isDirectory) {
          problem(path, notAFile(path, target));
          continue;
        }
      }
      let real: string;
      try {
        real = await realpath(path);
      } catch (err) {
        problem(path, unreadableFile(path, err));
        continue;
      }
      if (seen.has(real)) continue;
      seen.add(real);
      if (isDirectory) await walk(path, rel);
      else files.push({ path, relative: rel, real });
    }
  };

  try {
    seen.add(await realpath(folder));
  } catch (err) {
    return { files, problems: [{ path: folder, error: unreadableFile(folder, err, { what: 'the folder' }) }] };
  }
  await walk(folder, '');
  files.sort((a, b) => compare(a.relative, b.relative));
  return { files, problems };
}
