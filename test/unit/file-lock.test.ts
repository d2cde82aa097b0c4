/**
 * The lock the token file is changed under (src/core/file-lock.ts): held against other processes, released by the
 * operating system however its holder ends. Holders in other processes are real children running the built module
 * (`npm run build` first), killed with SIGKILL where the claim is about crashes.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockFile } from '../../src/core/file-lock.js';
import { ROOT } from '../helpers/cli.js';

const MODULE = pathToFileURL(join(ROOT, 'dist/core/file-lock.js')).href;

let dir: string;
let n = 0;
const lockPath = () => join(dir, `${n++}.lock`);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'livelox-lock-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface Holder {
  child: ChildProcessWithoutNullStreams;
  /** Resolves when the child printed `line`. */
  said(line: string): Promise<void>;
  exited: Promise<number | null>;
}

/**
 * A child process running `body` (an ES module text with `lockFile` and `path` in scope). It prints what it does, one
 * word a line, so that the test knows when it holds the lock.
 */
function child(path: string, body: string): Holder {
  const script = `import { lockFile } from ${JSON.stringify(MODULE)};\nconst path = process.argv[1];\n${body}`;
  const proc = spawn(process.execPath, ['--input-type=module', '-e', script, path]);
  let out = '';
  const listeners: Array<() => void> = [];
  proc.stdout.setEncoding('utf8').on('data', (d: string) => {
    out += d;
    for (const l of listeners) l();
  });
  let err = '';
  proc.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exited = new Promise<number | null>((resolve) => proc.on('close', (code) => resolve(code)));
  return {
    child: proc,
    exited,
    said: (line) =>
      new Promise<void>((resolve, reject) => {
        const look = () => {
          if (out.split('\n').includes(line)) resolve();
        };
        listeners.push(look);
        look();
        void exited.then(() => reject(new Error(`the child ended before saying ${line}: ${err}`)));
      }),
  };
}

/** Holds the lock until a line arrives on stdin. */
const HOLD = `const lock = await lockFile(path, { timeoutMs: 60_000 });
console.log('held');
process.stdin.once('data', () => { lock.release(); console.log('released'); process.exit(0); });`;

describe('lockFile', () => {
  it('makes another process wait while a live holder holds it, and lets it in when released', async () => {
    const path = lockPath();
    const holder = child(path, HOLD);
    await holder.said('held');
    // A live holder: refused after the wait, however long it holds.
    expect(await lockFile(path, { timeoutMs: 300 })).toBeUndefined();
    const waiting = lockFile(path, { timeoutMs: 10_000 });
    holder.child.stdin.write('go\n');
    const lock = await waiting;
    expect(lock).toBeDefined();
    lock!.release();
    expect(await holder.exited).toBe(0);
    // Empty and private: it only ever carries the lock.
    expect(await readFile(path, 'utf8')).toBe('');
  });

  it('is free at once after its holder is killed with SIGKILL, at any point of taking and releasing it', async () => {
    const path = lockPath();
    // The child takes and releases the lock in a loop; it is killed at a different moment each time.
    const loop = `console.log('looping');
      for (;;) { const lock = await lockFile(path, { timeoutMs: 60_000 }); lock.release(); }`;
    for (let i = 0; i < 12; i++) {
      const holder = child(path, loop);
      await holder.said('looping');
      await new Promise((resolve) => setTimeout(resolve, (i * 7) % 40));
      holder.child.kill('SIGKILL');
      await holder.exited;
      // No wait at all: the operating system has dropped the dead holder's lock.
      const lock = await lockFile(path, { timeoutMs: 0 });
      expect(lock, `kill ${i}`).toBeDefined();
      lock!.release();
    }
    // The same for a holder killed while it holds the lock, waiting for nothing.
    const holder = child(path, HOLD);
    await holder.said('held');
    holder.child.kill('SIGKILL');
    await holder.exited;
    const lock = await lockFile(path, { timeoutMs: 0 });
    expect(lock).toBeDefined();
    lock!.release();
  });

  it('lets holders in one process take turns, in the order they asked', async () => {
    const path = lockPath();
    const order: string[] = [];
    const first = await lockFile(path, { timeoutMs: 1000 });
    const second = lockFile(path, { timeoutMs: 5000 }).then((l) => {
      order.push('second');
      return l;
    });
    const third = lockFile(path, { timeoutMs: 5000 }).then((l) => {
      order.push('third');
      return l;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(order).toEqual([]);
    // Another process is kept out while this one holds it.
    const outsider = child(
      path,
      `const l = await lockFile(path, { timeoutMs: 0 }); console.log(l ? 'got' : 'refused');`,
    );
    await outsider.said('refused');
    first!.release();
    (await second)!.release();
    (await third)!.release();
    expect(order).toEqual(['second', 'third']);
  });

  it('gives up with the signal, and the holders after it still get their turn', async () => {
    const path = lockPath();
    const first = await lockFile(path, { timeoutMs: 1000 });
    const controller = new AbortController();
    const leaving = lockFile(path, { timeoutMs: 10_000, signal: controller.signal });
    const next = lockFile(path, { timeoutMs: 10_000 });
    controller.abort(new Error('stop waiting'));
    await expect(leaving).rejects.toThrow('stop waiting');
    first!.release();
    const lock = await next;
    expect(lock).toBeDefined();
    lock!.release();
  });

  it('refuses a lock path that is a symbolic link or holds something else, changing neither', async () => {
    const target = join(dir, 'target');
    await writeFile(target, 'keep me');
    const link = lockPath();
    await symlink(target, link);
    await expect(lockFile(link, { timeoutMs: 0 })).rejects.toThrow(/not a regular file/);
    expect(await readFile(target, 'utf8')).toBe('keep me');
    // A lock file someone wrote into is SQLite's to judge: this one it refuses, and it is left as it was.
    const foreign = lockPath();
    await writeFile(foreign, 'not a database');
    await expect(lockFile(foreign, { timeoutMs: 0 })).rejects.toMatchObject({ code: 'SQLITE_NOTADB' });
    expect(await readFile(foreign, 'utf8')).toBe('not a database');
    // Refused without leaving a holder queued behind it.
    const free = lockPath();
    const lock = await lockFile(free, { timeoutMs: 0 });
    expect(lock).toBeDefined();
    lock!.release();
  });
});
