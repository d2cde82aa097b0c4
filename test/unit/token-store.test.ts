import {
  chmod,
  chown,
  lchown,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  FileTokenStore,
  MemoryTokenStore,
  issuerDifferences,
  type OAuthTokens,
  type TokenIssuer,
} from '../../src/auth/token-store.js';
import { lockFile } from '../../src/core/file-lock.js';
import { InputError, ValidationError } from '../../src/errors.js';

const POSIX = process.platform !== 'win32';
const ROOT = POSIX && process.getuid?.() === 0;

const tokens: OAuthTokens = {
  accessToken: 'at_0123456789abcdef',
  refreshToken: 'rt_0123456789abcdef',
  expiresAt: 1_900_000_000_000,
  scopes: ['routes.import', 'courses.read'],
};

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'livelox-tokens-'));
});
afterEach(async () => {
  await chmod(dir, 0o700).catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
});

const mode = async (path: string) => (await stat(path)).mode & 0o777;

describe('FileTokenStore', () => {
  it('round-trips tokens, with and without a refresh token', async () => {
    const store = new FileTokenStore(join(dir, 'tokens.json'));
    expect(await store.load()).toBeUndefined();
    await store.save(tokens);
    expect(await store.load()).toEqual(tokens);
    const { refreshToken: _dropped, ...withoutRefresh } = tokens;
    await store.save(withoutRefresh);
    expect(await new FileTokenStore(join(dir, 'tokens.json')).load()).toEqual(withoutRefresh);
  });

  it.runIf(POSIX)('creates missing directories 0700 and the file 0600', async () => {
    const path = join(dir, 'a', 'b', 'tokens.json');
    await new FileTokenStore(path).save(tokens);
    expect(await mode(join(dir, 'a'))).toBe(0o700);
    expect(await mode(join(dir, 'a', 'b'))).toBe(0o700);
    expect(await mode(path)).toBe(0o600);
  });

  it.runIf(POSIX)('leaves the file 0600 when it existed before with wider permissions', async () => {
    const path = join(dir, 'tokens.json');
    await writeFile(path, '{}', { mode: 0o644 });
    await chmod(path, 0o644);
    expect(await mode(path)).toBe(0o644);
    await new FileTokenStore(path).save(tokens);
    expect(await mode(path)).toBe(0o600);
  });

  it('leaves no temporary file behind, only the empty lock file beside it', async () => {
    const store = new FileTokenStore(join(dir, 'tokens.json'));
    for (let i = 0; i < 5; i++) await store.save({ ...tokens, expiresAt: i });
    expect((await readdir(dir)).sort()).toEqual(['tokens.json', 'tokens.json.lock']);
    expect((await stat(join(dir, 'tokens.json.lock'))).size).toBe(0);
  });

  it.runIf(POSIX)('replaces the file by rename: a new inode, never the old one rewritten in place', async () => {
    const path = join(dir, 'tokens.json');
    const store = new FileTokenStore(path);
    await store.save(tokens);
    const before = (await stat(path)).ino;
    await store.save({ ...tokens, expiresAt: 1 });
    expect((await stat(path)).ino).not.toBe(before);
  });

  it('never shows a reader a partly written file', async () => {
    const path = join(dir, 'tokens.json');
    const store = new FileTokenStore(path);
    await store.save(tokens);
    // Large enough that a non-atomic write would be observed half done.
    const big = { ...tokens, scopes: Array.from({ length: 5000 }, (_, i) => `scope.${i}`) };
    let reads = 0;
    let writing = true;
    const reader = (async () => {
      while (writing) {
        const seen = await new FileTokenStore(path).load();
        expect(seen?.accessToken).toBe(tokens.accessToken);
        reads++;
      }
    })();
    for (let i = 0; i < 40; i++) await store.save(i % 2 ? tokens : big);
    writing = false;
    await reader;
    expect(reads).toBeGreaterThan(0);
  });

  it('keeps the old file and removes the temporary one when the final rename fails', async () => {
    // The target is a non-empty directory: open and write of the temporary file succeed, the rename cannot.
    const path = join(dir, 'tokens.json');
    await mkdir(path);
    await writeFile(join(path, 'keep'), 'old content');
    const err = await new FileTokenStore(path).save(tokens).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).message).toContain(path);
    expect((err as InputError).message).not.toContain(tokens.accessToken);
    expect(await readFile(join(path, 'keep'), 'utf8')).toBe('old content');
    expect((await readdir(dir)).sort()).toEqual(['tokens.json', 'tokens.json.lock']);
  });

  it.skipIf(!POSIX || ROOT)('keeps the old content when the directory is read-only', async () => {
    const path = join(dir, 'tokens.json');
    const store = new FileTokenStore(path);
    await store.save(tokens);
    await chmod(dir, 0o500);
    await expect(store.save({ ...tokens, accessToken: 'at_new_value_123' })).rejects.toBeInstanceOf(InputError);
    await chmod(dir, 0o700);
    expect(await store.load()).toEqual(tokens);
    expect(await readdir(dir)).toEqual(['tokens.json']);
  });

  it('refuses to save malformed tokens, leaving the file untouched', async () => {
    const path = join(dir, 'tokens.json');
    const store = new FileTokenStore(path);
    await store.save(tokens);
    await expect(store.save({ ...tokens, accessToken: '' })).rejects.toBeInstanceOf(ValidationError);
    expect(await store.load()).toEqual(tokens);
  });

  it.each([
    ['not JSON', 'this is { not json at_secret_value', /not JSON/],
    ['JSON of another program', JSON.stringify({ name: 'something else' }), /not a livelox-bridge token file/],
    ['a wrong field type', JSON.stringify({ ...tokens, version: 1, expiresAt: 'soon' }), /expiresAt/],
    ['another version', JSON.stringify({ ...tokens, version: 2 }), /version/],
  ])('refuses a corrupt or foreign file (%s) with an InputError naming the path', async (_what, text, detail) => {
    const path = join(dir, 'tokens.json');
    await writeFile(path, text);
    const err = await new FileTokenStore(path).load().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    const message = (err as InputError).message;
    expect(message).toContain(path);
    expect(message).toMatch(detail);
    expect((err as InputError).hint?.code).toBe('login');
    // What the file holds is never quoted: it may be a token.
    expect(message).not.toContain('at_secret_value');
    expect(message).not.toContain(tokens.accessToken);
    expect(JSON.stringify(err)).not.toContain(tokens.accessToken);
  });

  it('clears the file, and clearing an absent file is no error', async () => {
    const path = join(dir, 'tokens.json');
    const store = new FileTokenStore(path);
    await store.clear();
    expect(await readdir(dir)).toEqual([]);
    await store.save(tokens);
    await store.clear();
    // The lock file stays: removing it could let two processes hold "the" lock at once (core/file-lock.ts).
    expect(await readdir(dir)).toEqual(['tokens.json.lock']);
    expect(await store.load()).toBeUndefined();
    await store.clear();
  });
});

describe('FileTokenStore and its lock', () => {
  it('waits lockTimeoutMs for a holder of the lock, then gives up saying so, changing nothing', async () => {
    const path = join(dir, 'tokens.json');
    await new FileTokenStore(path).save(tokens);
    const held = await lockFile(`${path}.lock`, { timeoutMs: 0 });
    try {
      const store = new FileTokenStore(path, { lockTimeoutMs: 150 });
      const err = await store.save({ ...tokens, accessToken: 'at_not_written_0123' }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(InputError);
      expect(err).toMatchObject({ reason: 'locked' });
      expect((err as InputError).message).toContain(`${path}.lock`);
      await expect(store.clear()).rejects.toMatchObject({ reason: 'locked' });
      // Reading takes no lock: the file is replaced whole, never seen half written.
      expect(await store.load()).toEqual(tokens);
    } finally {
      held!.release();
    }
    await new FileTokenStore(path).save({ ...tokens, accessToken: 'at_written_now_0123' });
    expect((await new FileTokenStore(path).load())?.accessToken).toBe('at_written_now_0123');
  });

  it('refuses a lock file it cannot use, naming it and what to do', async () => {
    const path = join(dir, 'tokens.json');
    await writeFile(`${path}.lock`, 'not a database');
    const err = await new FileTokenStore(path).save(tokens).catch((e: unknown) => e);
    expect(err).toMatchObject({ reason: 'lock_failed' });
    expect((err as InputError).message).toContain(`${path}.lock`);
    expect((err as InputError).message).toMatch(/when no livelox-bridge process runs, the lock file may be removed/);
    expect(await readdir(dir)).toEqual(['tokens.json.lock']);
  });

  it('lets one process’s stores of one file take turns, each seeing what the one before wrote', async () => {
    const path = join(dir, 'tokens.json');
    await new FileTokenStore(path).save({ ...tokens, expiresAt: 0 });
    // Read, then write one more: without the lock, two of these at once would both read the same value.
    const bump = (store: FileTokenStore) =>
      store.exclusive(async (held) => {
        const now = (await held.load())!;
        await new Promise((resolve) => setTimeout(resolve, 5));
        await held.save({ ...now, expiresAt: now.expiresAt + 1 });
      });
    await Promise.all(Array.from({ length: 8 }, () => bump(new FileTokenStore(path))));
    expect((await new FileTokenStore(path).load())?.expiresAt).toBe(8);
  });
});

describe('MemoryTokenStore', () => {
  it('round-trips copies, so callers cannot change what is stored', async () => {
    const store = new MemoryTokenStore();
    expect(await store.load()).toBeUndefined();
    await store.save(tokens);
    const loaded = await store.load();
    expect(loaded).toEqual(tokens);
    loaded!.scopes.push('extra');
    expect((await store.load())?.scopes).toEqual(tokens.scopes);
    await store.clear();
    expect(await store.load()).toBeUndefined();
  });
});

describe('the issuer a token file remembers', () => {
  const issuer: TokenIssuer = {
    clientId: 'livelox-bridge',
    authUrl: 'http://127.0.0.1:4100/auth',
    baseUrl: 'http://127.0.0.1:4100/api',
    viewerUrl: 'http://127.0.0.1:4100/viewer',
  };

  it('loads a token file written before the issuer was kept, without one', async () => {
    const path = join(dir, 'tokens.json');
    // Exactly what earlier versions wrote: version 1, no issuedFor.
    await writeFile(path, `${JSON.stringify({ version: 1, ...tokens }, null, 2)}\n`, { mode: 0o600 });
    const loaded = await new FileTokenStore(path).load();
    expect(loaded).toEqual(tokens);
    expect(loaded).not.toHaveProperty('issuedFor');
  });

  it.runIf(POSIX)('saves the client id and addresses with the tokens, still 0600, and loads them back', async () => {
    const path = join(dir, 'tokens.json');
    await new FileTokenStore(path).save({ ...tokens, issuedFor: issuer });
    expect(await mode(path)).toBe(0o600);
    const onDisk = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
    expect(onDisk.version).toBe(1);
    expect(onDisk.issuedFor).toEqual(issuer);
    expect((await new FileTokenStore(path).load())?.issuedFor).toEqual(issuer);
    const { viewerUrl: _v, ...withoutViewer } = issuer;
    await new FileTokenStore(path).save({ ...tokens, issuedFor: withoutViewer });
    expect((await new FileTokenStore(path).load())?.issuedFor).toEqual(withoutViewer);
  });

  it('refuses to save an issuer without a client id', async () => {
    const store = new FileTokenStore(join(dir, 'tokens.json'));
    await expect(store.save({ ...tokens, issuedFor: { ...issuer, clientId: '' } })).rejects.toBeInstanceOf(
      ValidationError,
    );
  });

  it('keeps a copy in MemoryTokenStore, so changing the caller’s object changes nothing stored', async () => {
    const mine = { ...tokens, issuedFor: { ...issuer } };
    const store = new MemoryTokenStore(mine);
    mine.issuedFor.clientId = 'changed';
    expect((await store.load())?.issuedFor).toEqual(issuer);
  });

  it('lists the fields that differ, comparing addresses as URLs and ignoring a trailing slash', () => {
    expect(issuerDifferences(issuer, { ...issuer, authUrl: 'http://127.0.0.1:4100/auth/' })).toEqual([]);
    expect(issuerDifferences(issuer, { clientId: 'livelox-bridge-sim', baseUrl: 'http://127.0.0.1:5000/api' })).toEqual(
      [
        { field: 'clientId', issued: 'livelox-bridge', now: 'livelox-bridge-sim' },
        { field: 'baseUrl', issued: 'http://127.0.0.1:4100/api', now: 'http://127.0.0.1:5000/api' },
      ],
    );
    // Nothing to compare: a token file from before the issuer was kept, or fields the caller does not give.
    expect(issuerDifferences(undefined, { clientId: 'other' })).toEqual([]);
    expect(issuerDifferences(issuer, {})).toEqual([]);
  });
});

describe('FileTokenStore and other users', () => {
  // Needs root, to make files that belong to another user (uid 65534, nobody) as a local attacker would.
  it.skipIf(!ROOT)(
    'never writes tokens through a link into a file another user owns, nor reads their file',
    async () => {
      const theirs = join(dir, 'attacker.json');
      await writeFile(theirs, 'planted\n', { mode: 0o600 });
      await chown(theirs, 65534, 65534);
      const link = join(dir, 'tokens.json');
      await symlink(theirs, link);
      await lchown(link, 65534, 65534);
      const store = new FileTokenStore(link);
      const err = await store.save(tokens).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(InputError);
      expect((err as InputError).message).toMatch(/another user/);
      expect(await readFile(theirs, 'utf8')).toBe('planted\n');
      expect(JSON.stringify(err)).not.toContain(tokens.accessToken);

      // Their 0600 file with valid tokens in it: not used either.
      const planted = join(dir, 'planted.json');
      await new FileTokenStore(planted).save(tokens);
      await chown(planted, 65534, 65534);
      await expect(new FileTokenStore(planted).load()).rejects.toMatchObject({ reason: 'insecure_permissions' });
    },
  );
});

describe('a token file in a folder others may write (as ssh StrictModes)', () => {
  const inFolder = async (folder: string) => {
    await mkdir(folder, { recursive: true, mode: 0o700 });
    const path = join(folder, 'tokens.json');
    await writeFile(path, `${JSON.stringify({ version: 1, ...tokens })}\n`, { mode: 0o600 });
    return path;
  };
  const refusal = async (p: Promise<unknown>) => {
    const err = await p.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(InputError);
    expect(err).toMatchObject({ reason: 'insecure_permissions' });
    expect(JSON.stringify(err)).not.toContain(tokens.accessToken);
    return (err as InputError).message;
  };

  it.runIf(POSIX)('is refused when its folder is writable by group or others, naming it and the chmod', async () => {
    const folder = join(dir, 'shared');
    const path = await inFolder(folder);
    for (const mode of [0o777, 0o770, 0o702]) {
      await chmod(folder, mode);
      const said = await refusal(new FileTokenStore(path).load());
      expect(said).toContain(`in the folder ${folder}, whose permissions 0${mode.toString(8)}`);
      expect(said).toContain(`chmod go-w ${folder}`);
      // Nothing is written there either: not the tokens, not a lock file.
      await refusal(new FileTokenStore(path).save({ ...tokens, accessToken: 'at_replacement_value' }));
      expect(await readdir(folder)).toEqual(['tokens.json']);
    }
    // What the message says fixes it.
    await chmod(folder, 0o777);
    await chmod(folder, (await stat(folder)).mode & ~0o022);
    expect(await new FileTokenStore(path).load()).toEqual(tokens);
  });

  it.runIf(POSIX)('is refused when a folder further up may be written by others, unless it is sticky', async () => {
    const path = await inFolder(join(dir, 'up', 'mine'));
    await chmod(join(dir, 'up'), 0o777);
    expect(await refusal(new FileTokenStore(path).load())).toContain(`chmod go-w ${join(dir, 'up')}`);
    // The sticky bit (as /tmp): nobody else may rename or remove this user's folder in it.
    await chmod(join(dir, 'up'), 0o1777);
    expect(await new FileTokenStore(path).load()).toEqual(tokens);
    await new FileTokenStore(path).save(tokens);
    // ... but the token file's own folder gets no such leave: others could plant files beside it.
    const own = join(dir, 'up');
    const direct = join(own, 'tokens.json');
    await writeFile(direct, `${JSON.stringify({ version: 1, ...tokens })}\n`, { mode: 0o600 });
    const said = await refusal(new FileTokenStore(direct).load());
    expect(said).toContain(`in the folder ${own}, whose permissions 1777`);
    // A shared folder is meant to stay writable: the advice is a folder of one's own, not a chmod of it.
    expect(said).toContain('in a folder of your own');
    expect(said).not.toContain('chmod');
  });

  it.runIf(POSIX)('judges the folders of the file a symbolic link points to, where it is written', async () => {
    const real = await inFolder(join(dir, 'elsewhere'));
    const mine = join(dir, 'mine');
    await mkdir(mine, { mode: 0o700 });
    await symlink(real, join(mine, 'tokens.json'));
    await chmod(join(dir, 'elsewhere'), 0o777);
    expect(await refusal(new FileTokenStore(join(mine, 'tokens.json')).load())).toContain(
      `chmod go-w ${join(dir, 'elsewhere')}`,
    );
  });

  it.skipIf(!ROOT)('is refused when a folder belongs to another user, even one only they may write', async () => {
    const folder = join(dir, 'theirs');
    const path = await inFolder(folder);
    await chown(folder, 65534, 65534);
    const said = await refusal(new FileTokenStore(path).load());
    expect(said).toContain(`in the folder ${folder}, which belongs to another user (uid 65534)`);
    await refusal(new FileTokenStore(path).save(tokens));
    // Folders of root are trusted, as ssh trusts them: the same folder given back to root is fine.
    await chown(folder, 0, 0);
    expect(await new FileTokenStore(path).load()).toEqual(tokens);
  });
});
