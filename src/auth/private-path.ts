/**
 * The folders a token file is in, judged as ssh judges those of `authorized_keys` (its StrictModes): each must belong
 * to root or to this user, and none may be writable by group or others. Whoever may write a folder may rename the
 * token file away and put their own in its place (the next refresh then renews their login for this user), or plant
 * a link that receives the next login's tokens. A private file in a folder others may write is therefore not private.
 *
 * One difference from ssh, which refuses /tmp itself: a folder above the token file's own folder may be writable by
 * others when it has the sticky bit (/tmp, mode 1777) and belongs to root or this user, because then nobody else may
 * rename or remove what this user made in it. The token file's own folder gets no such leave: others could still
 * create files beside the token file (its lock, for one).
 */
import { realpath, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { errnoCode } from '../core/files.js';
import { InputError } from '../errors.js';

const STICKY = 0o1000;
const GROUP_OR_OTHERS_WRITE = 0o022;

/**
 * Where a write of `path` lands: the file a symbolic link points to (the file that is replaced, as writeFileAtomic
 * does), or the path in its real folder when there is no file yet. ENOENT when the folder does not exist either.
 */
export async function realFilePath(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch (err) {
    if (errnoCode(err) !== 'ENOENT') throw err;
    return join(await realpath(dirname(resolve(path))), basename(path));
  }
}

/**
 * Throws `InputError` (reason `insecure_permissions`, naming `shownPath`) when a folder `realPath` is in belongs to
 * another user, or may be written by group or others (see above). Not checked on Windows, whose modes say nothing
 * of this.
 */
export async function checkPrivateFolders(shownPath: string, realPath: string, what: string): Promise<void> {
  const uid = process.getuid?.();
  if (process.platform === 'win32' || uid === undefined) return;
  let dir = dirname(realPath);
  for (let own = true; ; own = false) {
    const s = await stat(dir);
    if (s.uid !== 0 && s.uid !== uid) {
      throw new InputError(
        shownPath,
        'insecure_permissions',
        `${what} is in the folder ${dir}, which belongs to another user (uid ${s.uid}): they could replace the file; it is not used.`,
        { hint: 'Keep it in a folder of your own (your home directory).' },
      );
    }
    if ((s.mode & GROUP_OR_OTHERS_WRITE) !== 0 && (own || (s.mode & STICKY) === 0)) {
      const mode = (s.mode & 0o7777).toString(8).padStart(4, '0');
      throw new InputError(
        shownPath,
        'insecure_permissions',
        `${what} is in the folder ${dir}, whose permissions ${mode} let other users replace the file; it is not used.`,
        {
          // A shared folder such as /tmp is meant to stay writable: the file belongs in a folder of its own.
          hint:
            (s.mode & STICKY) === 0
              ? `Make the folder writable by its owner only with: chmod go-w ${dir}`
              : 'Keep it in a folder of your own, not directly in a shared one.',
        },
      );
    }
    const parent = dirname(dir);
    if (parent === dir) return;
    dir = parent;
  }
}
