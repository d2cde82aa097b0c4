/**
 * What the built bin does with the files it is pointed at: `--out` (courses, link) to a symbolic link, a named pipe, a
 * device node, a directory and a private file, and `whoami` with a token file that is a named pipe or that others may
 * read. Everything is made for real in a temporary folder; device nodes need root (`mknod`), so that case is skipped
 * otherwise. The runner kills a child after 30 s: a bin that hung on a pipe would fail here with exit code null.
 */
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/simulator/server.js';
import { cleanEnv, runBin, type CliRun } from '../helpers/cli.js';
import { routableEvents } from '../helpers/tracks.js';

const POSIX = process.platform !== 'win32';
const ROOT = POSIX && process.getuid?.() === 0;
const EXPORT = 'fixtures/ems/stockholm-2-days-stage2.StartList.xml';

let sim: Simulator;
let dir: string;
let env: Record<string, string>;
let n = 0;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, events: 5 });
  dir = mkdtempSync(join(tmpdir(), 'lb-files-cli-'));
  env = { ...cleanEnv(dir), NO_COLOR: '1' };
});
afterAll(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A fresh folder per case, so that "no temporary file left" is checked by listing it. */
function folder(): string {
  const d = join(dir, `case-${n++}`);
  mkdirSync(d);
  return d;
}

function courses(out: string): Promise<CliRun> {
  const e = routableEvents(sim.state.dataset.events)[0]!;
  return runBin(
    [
      'courses',
      String(e.id),
      '--out',
      out,
      '--base-url',
      sim.info.baseUrl,
      '--auth-url',
      sim.info.authUrl,
      '--api-key',
      sim.info.apiKey,
    ],
    env,
  );
}

function link(out: string): Promise<CliRun> {
  return runBin(['link', EXPORT, '--simulator', '--format', 'json', '--out', out], env);
}

const writers = [
  ['courses', courses],
  ['link', link],
] as const;

describe.each(writers)('%s --out', { timeout: 60_000 }, (_name, write) => {
  it.runIf(POSIX)('keeps a 0600 file 0600 when it replaces it', async () => {
    const out = join(folder(), 'private.out');
    writeFileSync(out, 'old');
    chmodSync(out, 0o600);
    const r = await write(out);
    expect(r.code, r.stderr).toBe(0);
    expect(statSync(out).mode & 0o777).toBe(0o600);
    expect(readFileSync(out, 'utf8')).not.toBe('old');
  });

  it.runIf(POSIX)('follows a symbolic link: the file it points to is replaced, the link stays', async () => {
    const d = folder();
    const target = join(d, 'target.out');
    writeFileSync(target, 'old');
    const out = join(d, 'link.out');
    symlinkSync(target, out);
    const r = await write(out);
    expect(r.code, r.stderr).toBe(0);
    expect(lstatSync(out).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, 'utf8')).not.toBe('old');
    expect(readdirSync(d).sort()).toEqual(['link.out', 'target.out']);
  });

  it.runIf(POSIX)('refuses a named pipe promptly, leaving it a pipe', async () => {
    const d = folder();
    const out = join(d, 'pipe.out');
    execFileSync('mkfifo', [out]);
    const r = await write(out);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`cannot write ${out}: it is a named pipe (FIFO), not a regular file`);
    expect(lstatSync(out).isFIFO()).toBe(true);
    expect(readdirSync(d)).toEqual(['pipe.out']);
  });

  it('refuses a directory, leaving what is in it', async () => {
    const out = folder();
    writeFileSync(join(out, 'keep'), 'k');
    const r = await write(out);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`cannot write ${out}: it is a directory, not a regular file`);
    expect(readdirSync(out)).toEqual(['keep']);
  });

  // Only root may create device nodes: as another user this case cannot be set up, and is skipped.
  it.runIf(ROOT)('refuses a device node (like /dev/full), leaving the device', async () => {
    const d = folder();
    const out = join(d, 'full');
    execFileSync('mknod', [out, 'c', '1', '7']);
    const r = await write(out);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`cannot write ${out}: it is a character device, not a regular file`);
    expect(lstatSync(out).isCharacterDevice()).toBe(true);
    expect(readdirSync(d)).toEqual(['full']);
  });
});

describe('whoami with a token file that must not be used', { timeout: 60_000 }, () => {
  const whoami = (tokenFile: string) =>
    runBin(['whoami', '--token-file', tokenFile, '--base-url', sim.info.baseUrl, '--auth-url', sim.info.authUrl], env);

  it.runIf(POSIX)('exits 1 at once, saying what it is, when the token file is a named pipe', async () => {
    const file = join(folder(), 'tokens.json');
    execFileSync('mkfifo', [file]);
    const r = await whoami(file);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${file}: the token file is a named pipe (FIFO), not a regular file`);
  });

  it.runIf(POSIX)('exits 1 saying `chmod 600 FILE` when group or others may read the token file', async () => {
    const file = join(folder(), 'tokens.json');
    const secret = 'at_files_cli_secret_0123456789';
    writeFileSync(
      file,
      JSON.stringify({ version: 1, accessToken: secret, expiresAt: Date.now() + 3_600_000, scopes: [] }),
    );
    chmodSync(file, 0o640);
    const r = await whoami(file);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`chmod 600 ${file}`);
    expect(r.stderr).toMatch(/permissions 0640 let other users read or change it/);
    expect(r.stdout + r.stderr).not.toContain(secret);
    // Nothing was sent with the refused tokens: the file is as it was, mode included.
    expect(statSync(file).mode & 0o777).toBe(0o640);
  });
});
