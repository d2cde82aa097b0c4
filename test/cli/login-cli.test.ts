/**
 * `login`, `whoami` and `logout` as a user runs them: the built bin, spawned, against a simulator in this process.
 * The test is the browser. Spawns are asynchronous: a synchronous one would stall the simulator it talks to.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { personIdOf } from '../../src/simulator/oauth.js';
import { startSimulator, type Simulator } from '../../src/simulator/server.js';

const BIN = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const AUTHORIZE_URL = /(http:\/\/\S+\/oauth2\/authorize\?\S+)/;

let sim: Simulator;
let home: string;
/** stdout and stderr of every run, checked for tokens at the end. */
const outputs: string[] = [];
const tokensSeen = new Set<string>();

beforeAll(async () => {
  sim = await startSimulator({ port: 0, events: 5 });
  home = await mkdtemp(join(tmpdir(), 'livelox-login-cli-'));
});
afterAll(async () => {
  await sim.close();
  await rm(home, { recursive: true, force: true });
});
beforeEach(() => {
  sim.state.oauthDecision = 'approve';
});

interface Run {
  /** Resolves with the authorization address once the command printed it (stdout, or stderr with --json). */
  authorizeUrl: Promise<URL>;
  exited: Promise<{ code: number | null; stdout: string; stderr: string }>;
  kill(signal: NodeJS.Signals): void;
}

function start(args: string[]): Run {
  // A clean environment: no LIVELOX_* from the developer's shell, and a HOME whose default token file is watched.
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('LIVELOX_')) env[k] = v;
  Object.assign(env, { HOME: home, XDG_CONFIG_HOME: join(home, '.config') });
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env });
  let stdout = '';
  let stderr = '';
  let foundUrl: (url: URL) => void;
  const authorizeUrl = new Promise<URL>((resolve) => (foundUrl = resolve));
  const look = () => {
    const m = AUTHORIZE_URL.exec(stdout + stderr);
    if (m?.[1]) foundUrl(new URL(m[1]));
  };
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    stdout += d;
    look();
  });
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
    look();
  });
  const exited = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => {
      outputs.push(stdout, stderr);
      resolve({ code, stdout, stderr });
    }),
  );
  return { authorizeUrl, exited, kill: (signal) => child.kill(signal) };
}

function run(args: string[]) {
  return start(args).exited;
}

/** The browser: open the authorization address, follow the simulator's redirect to the command's loopback server. */
async function browse(url: URL): Promise<{ status: number; html: string; callback: URL }> {
  const auth = await request(url);
  await auth.body.dump();
  expect(auth.statusCode).toBe(302);
  const callback = new URL(String(auth.headers.location));
  expect(callback.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  const res = await request(callback);
  return { status: res.statusCode, html: await res.body.text(), callback };
}

function service(tokenFile: string): string[] {
  return [
    '--base-url',
    sim.info.baseUrl,
    '--auth-url',
    sim.info.authUrl,
    '--client-id',
    sim.info.clientId,
    '--token-file',
    tokenFile,
  ];
}

const defaultTokenFile = () => join(home, '.config', 'livelox-bridge', 'tokens.json');

describe('a login remembers where it was made', () => {
  it('logs in to the simulator without --client-id, and later commands need no address, warning when one differs', async () => {
    const tokenFile = join(home, 'remembered', 'tokens.json');
    // No --client-id: the simulator also registers the CLI's default client id.
    const login = start([
      'login',
      '--base-url',
      sim.info.baseUrl,
      '--auth-url',
      sim.info.authUrl,
      '--token-file',
      tokenFile,
    ]);
    const url = await login.authorizeUrl;
    expect(url.searchParams.get('client_id')).toBe('livelox-bridge');
    expect((await browse(url)).status).toBe(200);
    const done = await login.exited;
    expect(done.code, done.stderr).toBe(0);
    const saved = JSON.parse(await readFile(tokenFile, 'utf8'));
    expect(saved.issuedFor).toMatchObject({
      clientId: 'livelox-bridge',
      authUrl: sim.info.authUrl,
      baseUrl: sim.info.baseUrl,
    });

    // Only the token file: the simulator's addresses and the client id come from it.
    const who = await run(['whoami', '--token-file', tokenFile, '--json']);
    expect(who.code, who.stderr).toBe(0);
    expect(JSON.parse(who.stdout)).toMatchObject({ ok: true, user: { name: 'Sigrid Simulatorsson' } });
    expect(who.stderr).toBe('');

    // An address given that is not the login's: said, with what to do.
    const elsewhere = await run([
      'whoami',
      '--token-file',
      tokenFile,
      '--base-url',
      'http://127.0.0.1:9/api',
      '--json',
    ]);
    expect(elsewhere.stderr).toContain(
      `the login in ${tokenFile} was made for API address ${sim.info.baseUrl}, but this command uses http://127.0.0.1:9/api`,
    );
  });
});

describe('login, whoami, logout', () => {
  it('logs in through the browser, saves 0600 tokens, and whoami/logout use them', async () => {
    const tokenFile = join(home, 'cycle', 'tokens.json');
    const login = start(['login', ...service(tokenFile), '--json']);
    const url = await login.authorizeUrl;
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    const redirect = new URL(url.searchParams.get('redirect_uri')!);
    expect(redirect.hostname).toBe('127.0.0.1');
    expect(redirect.pathname).toBe('/callback');

    // A stray callback (stale tab, forged request) is refused and the login keeps waiting for the real one.
    const stray = await request(`${redirect.href}?state=not-this-one&code=whatever`);
    expect(stray.statusCode).toBe(400);
    expect(await stray.body.text()).toMatch(/does not belong/);

    const page = await browse(url);
    expect(page.status).toBe(200);
    expect(page.html).toMatch(/Logged in/);
    expect(page.html).toMatch(/You can close this window/);
    const done = await login.exited;
    expect(done.code, done.stderr).toBe(0);
    expect(JSON.parse(done.stdout)).toEqual({
      ok: true,
      user: expect.objectContaining({ sub: 'sim-user-1', name: 'Sigrid Simulatorsson' }),
      scopes: ['routes.import', 'courses.read', 'events.import'],
      tokenFile,
    });
    // The address went to stderr: stdout holds the one JSON document.
    expect(done.stderr).toMatch(AUTHORIZE_URL);
    if (process.platform !== 'win32') {
      expect((await stat(tokenFile)).mode & 0o777).toBe(0o600);
      expect((await stat(join(home, 'cycle'))).mode & 0o777).toBe(0o700);
    }
    const saved = JSON.parse(await readFile(tokenFile, 'utf8'));
    tokensSeen.add(saved.accessToken);
    tokensSeen.add(saved.refreshToken);
    expect(saved.accessToken.length).toBeGreaterThan(20);

    const who = await run(['whoami', ...service(tokenFile)]);
    expect(who.code, who.stderr).toBe(0);
    expect(who.stdout).toContain('Sigrid Simulatorsson');
    // The person id, as the service answers (observed: personId, firstName, lastName).
    expect(who.stdout).toMatch(new RegExp(`^person\\s+${personIdOf('sim-user-1')}$`, 'm'));
    expect(who.stdout).toContain('sigrid@example.org');
    expect(who.stdout).toContain('routes.import courses.read events.import');
    expect(who.stdout).toMatch(/expires \d{4}-\d\d-\d\dT/);

    const whoJson = await run(['whoami', ...service(tokenFile), '--json']);
    expect(JSON.parse(whoJson.stdout)).toMatchObject({
      ok: true,
      user: { sub: 'sim-user-1' },
      scopes: ['routes.import', 'courses.read', 'events.import'],
      refreshable: true,
      tokenFile,
    });

    const revokesBefore = sim.stats.count('POST /auth/oauth2/revoke');
    const out = await run(['logout', ...service(tokenFile)]);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toMatch(/^Logged out/);
    expect(existsSync(tokenFile)).toBe(false);
    expect(sim.stats.count('POST /auth/oauth2/revoke') - revokesBefore).toBe(2);
    // Revoked at the service, not only forgotten here.
    const old = await request(`${sim.info.baseUrl}/countries`, {
      headers: { authorization: `Bearer ${saved.accessToken}` },
    });
    await old.body.dump();
    expect(old.statusCode).toBe(403);

    const after = await run(['whoami', ...service(tokenFile)]);
    expect(after.code).toBe(1);
    expect(after.stderr).toMatch(/Not logged in/);
    expect(after.stderr).toMatch(/livelox-bridge login/);

    const again = await run(['logout', ...service(tokenFile)]);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/Not logged in/);
  });

  it('login --simulator completes on its own and never touches the default token file', async () => {
    const r = await run(['login', '--simulator', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      ok: true,
      user: { sub: 'sim-user-1' },
      scopes: ['routes.import', 'courses.read', 'events.import'],
      tokenFile: null,
    });
    expect(existsSync(defaultTokenFile())).toBe(false);

    const text = await run(['login', '--simulator']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/Logged in as Sigrid Simulatorsson \(routes\.import, courses\.read, events\.import\)/);
    expect(existsSync(defaultTokenFile())).toBe(false);
  });

  it('login --simulator writes an explicitly given --token-file', async () => {
    const tokenFile = join(home, 'sim-explicit.json');
    const r = await run(['login', '--simulator', '--token-file', tokenFile, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).tokenFile).toBe(tokenFile);
    const saved = JSON.parse(await readFile(tokenFile, 'utf8'));
    tokensSeen.add(saved.accessToken);
    tokensSeen.add(saved.refreshToken);
  });

  it('exits 1 when the user refuses, and tells the browser why', async () => {
    sim.state.oauthDecision = 'deny';
    const tokenFile = join(home, 'denied.json');
    const login = start(['login', ...service(tokenFile)]);
    const page = await browse(await login.authorizeUrl);
    expect(page.status).toBe(400);
    expect(page.html).toMatch(/Login failed/);
    expect(page.html).toMatch(/refused access/);
    const done = await login.exited;
    expect(done.code).toBe(1);
    expect(done.stderr).toMatch(/refused access/);
    // Without --json the address is for the person at the terminal: stdout.
    expect(done.stdout).toMatch(AUTHORIZE_URL);
    expect(existsSync(tokenFile)).toBe(false);
  });

  it('escapes the user name in the browser page', async () => {
    const user = sim.state.users.get('sim-user-1')!;
    const firstName = user.firstName;
    user.firstName = '<script>alert(1)</script>';
    try {
      const login = start(['login', ...service(join(home, 'escaped.json'))]);
      const page = await browse(await login.authorizeUrl);
      expect(page.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
      expect(page.html).not.toContain('<script>');
      expect((await login.exited).code).toBe(0);
      const saved = JSON.parse(await readFile(join(home, 'escaped.json'), 'utf8'));
      tokensSeen.add(saved.accessToken);
      tokensSeen.add(saved.refreshToken);
    } finally {
      user.firstName = firstName;
    }
  });

  it('exits 1 with a clear message when the browser does not come back in time', async () => {
    const tokenFile = join(home, 'timeout.json');
    const r = await run(['login', ...service(tokenFile), '--timeout-s', '1']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/No answer from the browser within 1 s/);
    expect(existsSync(tokenFile)).toBe(false);
  });

  it('exits 130 on Ctrl-C, saying the login was cancelled, with its loopback server closed', async () => {
    const login = start(['login', ...service(join(home, 'cancelled.json'))]);
    const url = await login.authorizeUrl;
    const redirect = new URL(url.searchParams.get('redirect_uri')!);
    login.kill('SIGINT');
    const done = await login.exited;
    expect(done.code).toBe(130);
    expect(done.stderr).toMatch(/cancelled/i);
    await expect(request(redirect)).rejects.toThrow();
  });

  it('refuses bad options with exit 2', async () => {
    const r = await run(['login', '--timeout-s', 'soon']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--timeout-s takes a whole number/);
  });

  it('prints no token in any output', () => {
    expect(tokensSeen.size).toBeGreaterThanOrEqual(6);
    expect(outputs.length).toBeGreaterThan(10);
    for (const text of outputs) for (const token of tokensSeen) expect(text).not.toContain(token);
  });
});
