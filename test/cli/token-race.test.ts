/**
 * One token file shared by several processes, as cron jobs and a `login` in another terminal share it: the built bin
 * (`npm run build` first) spawned against simulators in this process, over HTTP (and the library's strategy in this
 * process where it is the other party: a logout, the rotation itself). Logins are made through the real
 * flow (PKCE, the simulator's authorize page, the code exchange); the test writes them into the file as `login` would.
 * A child is caught while it renews (it holds the file's lock then: the simulator's latency keeps the request in
 * flight) to change the file under it.
 */
import { spawn } from 'node:child_process';
import { chmod, chown, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oauth } from '../../src/auth/oauth.js';
import { FileTokenStore, MemoryTokenStore, type OAuthTokens } from '../../src/auth/token-store.js';
import { LiveloxClient } from '../../src/client.js';
import { lockFile } from '../../src/core/file-lock.js';
import { startSimulator, type Simulator, type SimulatorOptions } from '../../src/simulator/server.js';
import { BIN, ROOT, cleanEnv, runBin, type CliRun } from '../helpers/cli.js';

const TOKEN = 'POST /auth/oauth2/token';
const ROOT_USER = process.platform !== 'win32' && process.getuid?.() === 0;

let home: string;
let n = 0;
/** A token file in a folder of its own. */
const tokenFile = async () => {
  const folder = join(home, `f${n++}`);
  await mkdir(folder, { mode: 0o700 });
  return join(folder, 'tokens.json');
};
/** Every output of every child, searched for tokens at the end. */
const outputs: string[] = [];
const secrets = new Set<string>();

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'livelox-token-race-'));
  // Another user (the test that runs the bin as nobody) may pass through it, not list or write it.
  await chmod(home, 0o711);
});
afterAll(async () => {
  for (const out of outputs) for (const secret of secrets) expect(out).not.toContain(secret);
  await rm(home, { recursive: true, force: true });
});

/** A login made through the simulator's real flow (the test is the browser). */
async function login(sim: Simulator): Promise<OAuthTokens> {
  const strategy = oauth({
    clientId: sim.info.clientId,
    scopes: ['routes.import'],
    tokenStore: new MemoryTokenStore(),
  });
  const client = new LiveloxClient({ auth: strategy, ...addresses(sim) });
  try {
    const req = strategy.authorizationRequest(client, 'http://127.0.0.1:9/callback');
    const page = await request(req.url);
    await page.body.dump();
    const tokens = await strategy.completeAuthorization(client, req, String(page.headers.location));
    secrets.add(tokens.accessToken);
    secrets.add(tokens.refreshToken!);
    return tokens;
  } finally {
    await client.close();
  }
}

function addresses(sim: Simulator) {
  return { baseUrl: sim.info.baseUrl, authUrl: sim.info.authUrl, viewerUrl: sim.info.viewerUrl };
}

/** Tokens whose access token this process's clock says has expired: the next command renews them first. */
const expired = (t: OAuthTokens): OAuthTokens => ({ ...t, expiresAt: 0 });

/** `whoami --json` on `file`: it renews the tokens when they have expired, as every command does. */
async function whoami(sim: Simulator, file: string): Promise<CliRun & { json: Record<string, unknown> }> {
  const run = await runBin(
    ['whoami', '--json', '--token-file', file, '--auth-url', sim.info.authUrl, '--base-url', sim.info.baseUrl],
    cleanEnv(home),
  );
  outputs.push(run.stdout, run.stderr);
  return { ...run, json: JSON.parse(run.stdout) as Record<string, unknown> };
}

/** Resolves once another process holds `file`'s lock (a child renewing its tokens). */
async function heldByAnother(file: string): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    const lock = await lockFile(`${file}.lock`, { timeoutMs: 0 });
    if (lock === undefined) return;
    lock.release();
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`nobody took the lock of ${file}`);
}

/** A writer that takes no lock (an older version, a copy by hand): a new file renamed over the old one. */
async function writeWithoutLock(file: string, tokens: OAuthTokens): Promise<void> {
  await writeFile(`${file}.new`, `${JSON.stringify({ version: 1, ...tokens })}\n`, { mode: 0o600 });
  await rename(`${file}.new`, file);
}

/** A simulator for the tests of one describe block, on a free port. */
function simulatorFor(options: SimulatorOptions): () => Simulator {
  let sim: Simulator | undefined;
  beforeAll(async () => {
    sim = await startSimulator({ port: 0, events: 3, ...options });
  });
  afterAll(() => sim?.close());
  return () => sim!;
}

const count = (sim: Simulator, status = 200) => sim.stats.snapshot().byEndpoint[TOKEN]?.[String(status)] ?? 0;

describe('a refresh refused while the file changes', () => {
  // The latency keeps each renewal in flight long enough to change the file under it.
  const sim = simulatorFor({ latencyMs: 400 });

  it('keeps a login written meanwhile, and says the session ended, not "check the API key"', async () => {
    const file = await tokenFile();
    const [first, second] = [await login(sim()), await login(sim())];
    await new FileTokenStore(file).save(expired(first));
    // The first login is revoked (account settings): its renewal will be refused.
    sim().state.revoke(first.refreshToken!);
    const child = whoami(sim(), file);
    await heldByAnother(file);
    // `login` in another terminal: it waits for the lock, so it lands after the child's verdict, never before it.
    await new FileTokenStore(file).save(second);
    const run = await child;
    expect(run.code).toBe(1);
    const error = run.json.error as Record<string, unknown>;
    expect(error).toMatchObject({ name: 'LoginRequiredError', reason: 'session_ended' });
    expect(error.message).toMatch(/The login has ended: the service refused to renew it/);
    expect(error.message).toMatch(/Run `livelox-bridge login` again\.$/);
    expect(error.message).not.toMatch(/API key/);
    // The second login survived the first one's end, and works.
    const kept = await new FileTokenStore(file).load();
    expect(kept).toMatchObject({ accessToken: second.accessToken, refreshToken: second.refreshToken });
    expect((await whoami(sim(), file)).code).toBe(0);
  });

  it('retries once with tokens a writer without the lock put there, and renews those', async () => {
    const file = await tokenFile();
    const [first, second] = [await login(sim()), await login(sim())];
    await new FileTokenStore(file).save(expired(first));
    sim().state.revoke(first.refreshToken!);
    const before = count(sim());
    const child = whoami(sim(), file);
    await heldByAnother(file);
    await writeWithoutLock(file, expired(second));
    const run = await child;
    expect(run.code, run.stderr).toBe(0);
    // One refusal (the first login), one renewal (the second): the file now holds the second, renewed.
    expect(count(sim(), 400)).toBeGreaterThanOrEqual(1);
    expect(count(sim()) - before).toBe(1);
    const now = await new FileTokenStore(file).load();
    expect(now?.refreshToken).toBe(second.refreshToken);
    expect(now?.accessToken).not.toBe(second.accessToken);
    expect(now!.expiresAt).toBeGreaterThan(Date.now());
  });

  it('says the session ended when an access token the service refuses cannot be renewed (a 403, then invalid_grant)', async () => {
    const file = await tokenFile();
    const tokens = await login(sim());
    // Not expired by the command's clock: the refusal comes from the service (revoked in account settings).
    await new FileTokenStore(file).save(tokens);
    sim().state.revoke(tokens.refreshToken!);
    const run = await whoami(sim(), file);
    expect(run.code).toBe(1);
    expect(run.json.error).toMatchObject({ name: 'LoginRequiredError', reason: 'session_ended' });
    expect(String((run.json.error as { message: string }).message)).not.toMatch(/API key/);
    // The file held exactly the dead tokens: it is gone, and the next command says "not logged in".
    expect(await new FileTokenStore(file).load()).toBeUndefined();
    const next = await whoami(sim(), file);
    expect(next.json.error).toMatchObject({ reason: 'not_logged_in' });
  });
});

describe('a logout while the file changes', () => {
  const sim = simulatorFor({});

  it('revokes the login it read and leaves a login written since in the file', async () => {
    const file = await tokenFile();
    const [first, second] = [await login(sim()), await login(sim())];
    await new FileTokenStore(file).save(first);
    const strategy = oauth({
      clientId: sim().info.clientId,
      scopes: ['routes.import'],
      tokenStore: new FileTokenStore(file),
    });
    const client = new LiveloxClient({ auth: strategy, ...addresses(sim()) });
    try {
      expect(await strategy.loggedIn()).toBe(true);
      // Another terminal logs in again after this process read the file.
      await new FileTokenStore(file).save(second);
      await strategy.revoke(client);
      expect(sim().state.tokens.get(first.refreshToken!)?.revoked).toBe(true);
      expect(sim().state.tokens.get(second.refreshToken!)?.revoked).toBe(false);
      expect(await new FileTokenStore(file).load()).toMatchObject({ accessToken: second.accessToken });
    } finally {
      await client.close();
    }
    // Without a second login, logging out removes the file, as before.
    const strategy2 = oauth({ clientId: sim().info.clientId, scopes: [], tokenStore: new FileTokenStore(file) });
    const client2 = new LiveloxClient({ auth: strategy2, ...addresses(sim()) });
    await strategy2.revoke(client2);
    await client2.close();
    expect(await new FileTokenStore(file).load()).toBeUndefined();
  });
});

describe('two processes renewing one file against a server that rotates refresh tokens', () => {
  const sim = simulatorFor({ latencyMs: 150, refreshTokenRotation: true });

  it('never loses the login: both end logged in, one renewal a round, the file holding a live refresh token', async () => {
    const file = await tokenFile();
    await new FileTokenStore(file).save(expired(await login(sim())));
    for (let round = 0; round < 5; round++) {
      const before = count(sim());
      const refusedBefore = count(sim(), 400);
      const [a, b] = await Promise.all([whoami(sim(), file), whoami(sim(), file)]);
      expect(a.code, `round ${round}: ${a.stderr}`).toBe(0);
      expect(b.code, `round ${round}: ${b.stderr}`).toBe(0);
      // They took turns: the second found the tokens the first had renewed, and renewed nothing.
      expect(count(sim()) - before).toBe(1);
      expect(count(sim(), 400) - refusedBefore).toBe(0);
      const stored = (await new FileTokenStore(file).load())!;
      secrets.add(stored.accessToken);
      secrets.add(stored.refreshToken!);
      const record = sim().state.tokens.get(stored.refreshToken!);
      expect(record).toMatchObject({ kind: 'refresh', revoked: false });
      expect(record?.rotated).toBeUndefined();
      // Expired again for the next round, so that both renew at once again.
      await new FileTokenStore(file).save(expired(stored));
    }
  });

  it('answers each refresh with a new refresh token and refuses the old one from then on', async () => {
    const tokens = await login(sim());
    const store = new MemoryTokenStore(tokens);
    const strategy = oauth({ clientId: sim().info.clientId, scopes: ['routes.import'], tokenStore: store });
    const client = new LiveloxClient({ auth: strategy, ...addresses(sim()) });
    try {
      const renewed = await strategy.refresh(client);
      secrets.add(renewed.refreshToken!);
      expect(renewed.refreshToken).not.toBe(tokens.refreshToken);
      const old = await request(`${sim().info.authUrl}/oauth2/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: tokens.refreshToken!,
          client_id: sim().info.clientId,
        }).toString(),
      });
      expect(old.statusCode).toBe(400);
      expect(await old.body.json()).toMatchObject({ error: 'invalid_grant', error_description: /rotation/ });
      // The access token issued before the rotation still works until it expires: rotation is not a logout.
      const api = await request(`${sim().info.baseUrl}/countries`, {
        headers: { authorization: `Bearer ${tokens.accessToken}` },
      });
      await api.body.dump();
      expect(api.statusCode).toBe(200);
    } finally {
      await client.close();
    }
  });
});

describe('a renewing process killed at any point', () => {
  const sim = simulatorFor({ latencyMs: 100 });

  it('leaves the file as it was or renewed, the lock free, and the next command logged in', async () => {
    const file = await tokenFile();
    const first = await login(sim());
    await new FileTokenStore(file).save(expired(first));
    // The uninterrupted run: renews and ends logged in.
    expect((await whoami(sim(), file)).code).toBe(0);
    for (let i = 0; i < 10; i++) {
      await new FileTokenStore(file).save(expired((await new FileTokenStore(file).load())!));
      const child = spawn(
        process.execPath,
        [BIN, 'whoami', '--token-file', file, '--auth-url', sim().info.authUrl, '--base-url', sim().info.baseUrl],
        { cwd: ROOT, env: cleanEnv(home), stdio: 'ignore' },
      );
      const exited = new Promise((resolve) => child.on('close', resolve));
      // From before the child has read the file to after it has saved the renewal (start-up ~300 ms, then 2 x 100 ms).
      await new Promise((resolve) => setTimeout(resolve, 150 + i * 60));
      child.kill('SIGKILL');
      await exited;
      const after = await new FileTokenStore(file).load();
      expect(after?.refreshToken, `kill ${i}`).toBe(first.refreshToken);
      secrets.add(after!.accessToken);
      const lock = await lockFile(`${file}.lock`, { timeoutMs: 0 });
      expect(lock, `kill ${i}: the lock is free`).toBeDefined();
      lock!.release();
    }
    expect((await whoami(sim(), file)).code).toBe(0);
  });
});

describe('the folder of the token file, as another user', () => {
  const sim = simulatorFor({});

  it('refuses a token file in a folder others may write, naming the folder and the chmod', async () => {
    const file = await tokenFile();
    await new FileTokenStore(file).save(await login(sim()));
    const folder = join(file, '..');
    await chmod(folder, 0o777);
    const run = await whoami(sim(), file);
    expect(run.code).toBe(1);
    expect(run.json.error).toMatchObject({ reason: 'insecure_permissions' });
    expect(String((run.json.error as { message: string }).message)).toContain(`chmod go-w ${folder}`);
    await chmod(folder, 0o755);
    expect((await whoami(sim(), file)).code).toBe(0);
  });

  // A user who is not root (nobody, 65534) running the bin: root may switch to them, nobody else may.
  it.runIf(ROOT_USER)('judges folders by the user running the command, not by root', async () => {
    const theirs = join(home, `nobody-${n++}`);
    await mkdir(theirs, { mode: 0o700 });
    await chown(theirs, 65534, 65534);
    const file = join(theirs, 'tokens.json');
    await writeFile(file, `${JSON.stringify({ version: 1, ...(await login(sim())) })}\n`, { mode: 0o600 });
    await chown(file, 65534, 65534);
    const asNobody = () =>
      new Promise<{ code: number | null; stdout: string }>((resolve, reject) => {
        const child = spawn(
          process.execPath,
          [
            BIN,
            'whoami',
            '--json',
            '--token-file',
            file,
            '--auth-url',
            sim().info.authUrl,
            '--base-url',
            sim().info.baseUrl,
          ],
          { cwd: ROOT, env: { ...cleanEnv(theirs), HOME: theirs }, uid: 65534, gid: 65534 },
        );
        let stdout = '';
        child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
        child.stderr.setEncoding('utf8').on('data', (d: string) => outputs.push(d));
        child.on('error', reject);
        child.on('close', (code) => {
          outputs.push(stdout);
          resolve({ code, stdout });
        });
      });
    // Their own private folder (under root's sticky /tmp and root's mkdtemp folder): used, and renewed in place.
    const ok = await asNobody();
    expect(ok.code, ok.stdout).toBe(0);
    // Writable by their group: refused, as ssh refuses it.
    await chmod(theirs, 0o770);
    const refused = await asNobody();
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout)).toMatchObject({ error: { reason: 'insecure_permissions' } });
    expect(refused.stdout).toContain(`chmod go-w ${theirs}`);
    // A folder of root's that they may not write is trusted; one of another user (not root, not them) is not.
    await chmod(theirs, 0o700);
    const other = join(home, `other-${n++}`);
    await mkdir(other, { mode: 0o755 });
    await chown(other, 12345, 12345);
    await rename(theirs, join(other, 'nested'));
    const nested = join(other, 'nested', 'tokens.json');
    const content = await readFile(nested, 'utf8');
    const child = spawn(process.execPath, [BIN, 'whoami', '--json', '--token-file', nested], {
      cwd: ROOT,
      env: { ...cleanEnv(theirs), HOME: theirs },
      uid: 65534,
      gid: 65534,
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code).toBe(1);
    expect(out).toContain(`in the folder ${other}, which belongs to another user (uid 12345)`);
    expect(await readFile(nested, 'utf8')).toBe(content);
  });
});
