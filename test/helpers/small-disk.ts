/**
 * A small disk, for real: a tmpfs mounted on a folder of the test's, and filled up to a few bytes, so that a write
 * fails with ENOSPC where the code under test writes. Mounting needs root (CI runs as root); elsewhere `mount` says
 * why not and the tests that need it are skipped with that reason.
 */
import { spawnSync } from 'node:child_process';
import { statfsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Mounts a tmpfs of `size` (`4m`) at `folder`; undefined when done, else why not. */
export function mountSmallDisk(folder: string, size: string): string | undefined {
  if (process.getuid?.() !== 0) return 'mounting a tmpfs needs root';
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', folder], { encoding: 'utf8' });
  if (r.error) return `mount cannot run: ${r.error.message}`;
  return r.status === 0 ? undefined : `mount refused: ${r.stderr.trim()}`;
}

export function unmountSmallDisk(folder: string): void {
  spawnSync('umount', [folder]);
}

/** Fills the disk at `folder` up to `leftBytes`; answers the filler's path, to remove for room again. */
export function fillDisk(folder: string, leftBytes: number, name: string): string {
  const { bavail, bsize } = statfsSync(folder);
  const filler = join(folder, name);
  writeFileSync(filler, Buffer.alloc(Math.max(0, bavail * bsize - leftBytes)));
  return filler;
}
