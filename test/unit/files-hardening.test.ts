/**
 * Every path the tools read or write may name anything: a named pipe (which blocks a reader until a writer comes),
 * a device (`/dev/zero` never ends, `/dev/full` must not be replaced), a directory, a symbolic link, a file larger
 * than any real input. These tests make each of them for real in a temporary folder: `mkfifo` from coreutils, device
 * nodes with `mknod` (root only: skipped otherwise, since only root may create device nodes).
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import {
  chmod,
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  readlink,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileTokenStore } from '../../src/auth/token-store.js';
import { inputFileSize, readFileHead, readInputChunks, readInputFile, writeFileAtomic } from '../../src/core/files.js';
import { readJsonInput } from '../../src/core/json-input.js';
import { openEmsFile } from '../../src/ems/open.js';
import { InputError, ValidationError } from '../../src/errors.js';
import { loadDatasetFile } from '../../src/simulator/dataset/file.js';

const POSIX = process.platform !== 'win32';
const ROOT = POSIX && process.getuid?.() === 0;
const HAS_MKFIFO = POSIX && existsSync('/usr/bin/mkfifo');

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lb-files-hardening-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

let n = 0;
const fresh = (name: string): string => join(dir, `${n++}-${name}`);

function fifo(name = 'pipe'): string {
  const path = fresh(name);
  execFileSync('mkfifo', [path]);
  return path;
}

/** A character device node of `/dev/zero` (1,5) or `/dev/full` (1,7), made in the temporary folder. */
function device(major: number, minor: number, name: string): string {
  const path = fresh(name);
  execFileSync('mknod', [path, 'c', String(major), String(minor)]);
  return path;
}

async function rejection(p: Promise<unknown>): Promise<InputError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(InputError);
  return err as InputError;
}

const emsJson = (classes: unknown[]) => JSON.stringify({ formatVersion: 1, event: { name: 'Cup' }, classes });

describe('readInputFile and its siblings read regular files only', () => {
  it.runIf(HAS_MKFIFO)('refuses a named pipe without waiting for a writer, naming what it is', async () => {
    const path = fifo();
    for (const read of [
      () => readInputFile(path, { what: 'the export' }),
      () => readFileHead(path, 64),
      () => inputFileSize(path),
      async () => {
        for await (const _ of readInputChunks(path)) break;
      },
    ]) {
      const err = await rejection(read());
      expect(err.reason).toBe('not_a_file');
      expect(err.message).toContain(path);
      expect(err.message).toMatch(/named pipe \(FIFO\), not a regular file/);
      expect(err.message).toMatch(/Give the path of a regular file/);
    }
  });

  it('refuses a directory as not a regular file', async () => {
    const path = fresh('folder');
    await mkdir(path);
    const err = await rejection(readInputFile(path));
    expect(err.reason).toBe('not_a_file');
    expect(err.message).toMatch(/is a directory, not a regular file/);
  });

  it.runIf(ROOT)('refuses a character device (a /dev/zero node) instead of reading it for ever', async () => {
    const zero = device(1, 5, 'zero');
    const err = await rejection(readInputFile(zero));
    expect(err.reason).toBe('not_a_file');
    expect(err.message).toMatch(/character device/);
  });

  it.runIf(POSIX && !ROOT)(
    'refuses /dev/zero itself where a device node cannot be made (mknod needs root)',
    async () => {
      const err = await rejection(readInputFile('/dev/zero'));
      expect(err.message).toMatch(/character device/);
    },
  );

  it('refuses a file over maxBytes with too_large naming the limit, and reads one at the limit', async () => {
    const path = fresh('big.bin');
    await writeFile(path, Buffer.alloc(2048, 1));
    const err = await rejection(readInputFile(path, { maxBytes: 2047, what: 'the route file' }));
    expect(err.reason).toBe('too_large');
    expect(err.message).toMatch(/the route file has 2048 bytes, more than the 2047 bytes accepted/);
    expect((await readInputFile(path, { maxBytes: 2048 })).length).toBe(2048);
    const chunks: Uint8Array[] = [];
    for await (const c of readInputChunks(path, { maxBytes: 2048 })) chunks.push(c);
    expect(Buffer.concat(chunks).equals(Buffer.alloc(2048, 1))).toBe(true);
    const streamed = await rejection(
      (async () => {
        for await (const _ of readInputChunks(path, { maxBytes: 1024 })) continue;
      })(),
    );
    expect(streamed.reason).toBe('too_large');
    expect(streamed.message).toMatch(/1 KiB \(1024 bytes\)/);
  });

  it('says a missing file does not exist, as before', async () => {
    const err = await rejection(readInputFile(join(dir, 'absent.json')));
    expect(err.reason).toBe('unreadable');
    expect(err.message).toMatch(/does not exist/);
  });
});

describe('writeFileAtomic writes regular files only', () => {
  it.runIf(POSIX)('keeps an existing file’s permissions: a 0600 file stays 0600', async () => {
    const path = fresh('private.xml');
    await writeFile(path, 'old');
    await chmod(path, 0o600);
    await writeFileAtomic(path, 'new');
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await readFile(path, 'utf8')).toBe('new');
    await chmod(path, 0o640);
    await writeFileAtomic(path, 'newer');
    expect((await stat(path)).mode & 0o777).toBe(0o640);
  });

  it.runIf(POSIX)('follows a symbolic link and replaces the file it points to; the link stays a link', async () => {
    const target = fresh('real.xml');
    await writeFile(target, 'old');
    await chmod(target, 0o600);
    const link = fresh('link.xml');
    await symlink(target, link);
    await writeFileAtomic(link, 'new');
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(await readlink(link)).toBe(target);
    expect(await readFile(target, 'utf8')).toBe('new');
    expect((await stat(target)).mode & 0o777).toBe(0o600);
  });

  it.runIf(POSIX)('refuses a symbolic link to nothing, creating nothing', async () => {
    const link = fresh('dangling.xml');
    const missing = join(dir, 'missing-target.xml');
    await symlink(missing, link);
    const err = await rejection(writeFileAtomic(link, 'x'));
    expect(err.reason).toBe('not_a_file');
    expect(err.message).toMatch(/symbolic link to a file that does not exist/);
    expect(existsSync(missing)).toBe(false);
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
  });

  it.runIf(HAS_MKFIFO)('refuses a named pipe and leaves it a named pipe, with no temporary file', async () => {
    const sub = fresh('fifo-dir');
    await mkdir(sub);
    const path = join(sub, 'out.xml');
    execFileSync('mkfifo', [path]);
    const err = await rejection(writeFileAtomic(path, 'x'));
    expect(err.reason).toBe('not_a_file');
    expect(err.message).toMatch(/named pipe \(FIFO\), not a regular file; it was not written/);
    expect((await lstat(path)).isFIFO()).toBe(true);
    expect(await readdir(sub)).toEqual(['out.xml']);
  });

  it('refuses a directory and leaves its content', async () => {
    const path = fresh('out-dir');
    await mkdir(path);
    await writeFile(join(path, 'keep'), 'k');
    const err = await rejection(writeFileAtomic(path, 'x'));
    expect(err.message).toMatch(/is a directory/);
    expect(await readFile(join(path, 'keep'), 'utf8')).toBe('k');
  });

  it.runIf(ROOT)('refuses a device node (a /dev/full node made with mknod) and leaves the device', async () => {
    const full = device(1, 7, 'full');
    const err = await rejection(writeFileAtomic(full, 'x'));
    expect(err.message).toMatch(/character device/);
    expect((await lstat(full)).isCharacterDevice()).toBe(true);
    // And through a symbolic link to it.
    const link = fresh('to-full');
    await symlink(full, link);
    expect((await rejection(writeFileAtomic(link, 'x'))).message).toMatch(/symbolic link to a character device/);
    expect((await lstat(full)).isCharacterDevice()).toBe(true);
  });
});

describe('JSON inputs', () => {
  const doc = { formatVersion: 1, name: 'Göteborg' };

  it('reads UTF-16 with a byte order mark, in either byte order, and without one', async () => {
    const text = JSON.stringify(doc);
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const be = Buffer.from(le);
    be.swap16();
    for (const bytes of [
      le,
      be,
      Buffer.from(text, 'utf16le'),
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]),
    ]) {
      const path = fresh('doc.json');
      await writeFile(path, bytes);
      expect(await readJsonInput(path)).toEqual(doc);
    }
  });

  it('refuses invalid UTF-8 and UTF-32 as bad_encoding, saying to save as UTF-8', async () => {
    const latin1 = fresh('latin1.json');
    await writeFile(latin1, Buffer.from(JSON.stringify(doc), 'latin1'));
    const a = await rejection(readJsonInput(latin1));
    expect(a.reason).toBe('bad_encoding');
    expect(a.message).toMatch(/not valid UTF-8 text\. Save it as UTF-8/);
    const utf32 = fresh('utf32.json');
    await writeFile(utf32, Buffer.from([0xff, 0xfe, 0, 0, 0x7b, 0, 0, 0, 0x7d, 0, 0, 0]));
    expect((await rejection(readJsonInput(utf32))).message).toMatch(/UTF-32/);
  });

  it('refuses a JSON file over the cap with a typed too_large before making a string of it', async () => {
    const path = fresh('big.json');
    await writeFile(path, `[${'0,'.repeat(600_000)}0]`);
    const err = await rejection(readJsonInput(path, { maxBytes: 1024 * 1024 }));
    expect(err.reason).toBe('too_large');
    expect(err.message).toMatch(/1 MiB/);
  });

  it('opens a UTF-16 EMS JSON file as JSON, never as "not an IOF XML file"', async () => {
    const path = fresh('utf16-export.txt');
    const json = emsJson([{ name: 'H21' }]);
    await writeFile(path, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(json, 'utf16le')]));
    const ems = await (await openEmsFile(path)).read();
    expect(ems.format).toBe('EMS JSON');
    expect(ems.classes.map((c) => c.name)).toEqual(['H21']);
  });

  it('reports a value of the wrong type as such, not as missing', async () => {
    const path = fresh('types.json');
    await writeFile(path, emsJson([{ name: 'H21' }, { name: 'D21' }, { name: 5 }, {}]));
    const err = await (await openEmsFile(path)).read().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    const issues = (err as ValidationError).issues;
    expect(issues).toContainEqual(
      expect.objectContaining({
        path: 'classes[2].name',
        code: 'invalid_type',
        message: 'expected a string, got a number',
      }),
    );
    expect(issues).toContainEqual(expect.objectContaining({ path: 'classes[3].name', code: 'required' }));
  });

  it.runIf(HAS_MKFIFO)('refuses a named pipe given as an EMS export or a dataset', async () => {
    expect((await rejection(openEmsFile(fifo('export.xml')))).reason).toBe('not_a_file');
    expect((await rejection(loadDatasetFile(fifo('dataset.json')))).reason).toBe('not_a_file');
  });
});

describe('a dataset’s course file', () => {
  const dataset = (iofXml: string) =>
    JSON.stringify({
      formatVersion: 1,
      events: [
        {
          id: 1,
          name: 'X',
          start: '2025-06-01T08:00:00Z',
          end: '2025-06-01T12:00:00Z',
          organisers: [],
          country: 'GBR',
          courses: { iofXml },
        },
      ],
    });

  it.runIf(POSIX)('is refused when it is /dev/zero, as an issue at its iofXml path', async () => {
    const path = fresh('zero-dataset.json');
    await writeFile(path, dataset('/dev/zero'));
    const err = await loadDatasetFile(path).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).issues).toContainEqual(
      expect.objectContaining({
        path: 'events[0].courses.iofXml',
        code: 'unreadable_course_file',
        message: expect.stringMatching(/\/dev\/zero: the course file is a character device, not a regular file/),
      }),
    );
  });
});

describe('the token file', () => {
  const valid = JSON.stringify({ version: 1, accessToken: 'at_secret_0123', expiresAt: 1, scopes: [] });

  it.runIf(HAS_MKFIFO)('is refused promptly when it is a named pipe', async () => {
    const err = await rejection(new FileTokenStore(fifo('tokens.json')).load());
    expect(err.reason).toBe('not_a_file');
  });

  it.runIf(POSIX)('is refused when group or others may read or write it, saying chmod 600', async () => {
    for (const mode of [0o640, 0o604, 0o620, 0o666]) {
      const path = fresh('tokens.json');
      await writeFile(path, valid);
      await chmod(path, mode);
      const err = await rejection(new FileTokenStore(path).load());
      expect(err.reason).toBe('insecure_permissions');
      expect(err.message).toContain(`chmod 600 ${path}`);
      expect(err.message).toContain(`0${mode.toString(8)}`);
      expect(err.message).not.toContain('at_secret_0123');
    }
    const path = fresh('tokens.json');
    await writeFile(path, valid);
    await chmod(path, 0o600);
    expect((await new FileTokenStore(path).load())?.accessToken).toBe('at_secret_0123');
  });

  it('over 1 MiB is refused as too_large', async () => {
    const path = fresh('tokens.json');
    await writeFile(path, Buffer.alloc(1024 * 1024 + 1, 0x20), { mode: 0o600 });
    expect((await rejection(new FileTokenStore(path).load())).reason).toBe('too_large');
  });
});
