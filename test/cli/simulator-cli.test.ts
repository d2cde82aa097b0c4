import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { oauth } from '../../src/auth/oauth.js';
import { MemoryTokenStore } from '../../src/auth/token-store.js';
import { LiveloxClient } from '../../src/client.js';
import { http } from '../helpers/simulator.js';

const BIN = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function run(args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('livelox-bridge simulator', () => {
  it('prints one JSON line with the addresses and credentials when ready, serves, and stops cleanly on SIGTERM', async () => {
    const child = spawn(
      process.execPath,
      [BIN, 'simulator', '--port', '0', '--json', '--seed', '3', '--events', '40'],
      { cwd: ROOT },
    );
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const lines = createInterface({ input: child.stdout });
    const first = await new Promise<string>((resolve) => lines.once('line', resolve));
    const info = JSON.parse(first);
    expect(Object.keys(info).sort()).toEqual([
      'apiKey',
      'authUrl',
      'baseUrl',
      'clientId',
      'controlUrl',
      'limitedApiKey',
      'ok',
      'otherApiKey',
      'viewerUrl',
    ]);
    expect(info.ok).toBe(true);
    expect(info.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api$/);
    const res = await http('GET', `${info.baseUrl}/events?paging=0:100`, { headers: { ApiKey: info.apiKey } });
    expect(res.status).toBe(200);
    expect(res.json()).toHaveLength(40);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('keeps at most --max-routes routes, evicting the oldest, and reports it at /_simulator/memory', async () => {
    const child = spawn(process.execPath, [BIN, 'simulator', '--port', '0', '--json', '--max-routes', '2'], {
      cwd: ROOT,
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const info = JSON.parse(
      await new Promise<string>((resolve) => createInterface({ input: child.stdout }).once('line', resolve)),
    );
    const gpx = (n: number) =>
      `<?xml version="1.0"?><gpx version="1.1" creator="test"><trk><trkseg>` +
      `<trkpt lat="59.3${n}" lon="18.0${n}"><time>2026-05-0${n}T10:00:00Z</time></trkpt>` +
      `<trkpt lat="59.31${n}" lon="18.01${n}"><time>2026-05-0${n}T10:00:05Z</time></trkpt></trkseg></trk></gpx>`;
    for (const n of [1, 2, 3]) {
      const res = await http('POST', `${info.baseUrl}/importableRoutes`, {
        headers: { ApiKey: info.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ id: `route-${n}`, data: Buffer.from(gpx(n)).toString('base64') }),
      });
      expect(res.status, res.text).toBe(200);
    }
    const memory = (await http('GET', `${info.controlUrl}/memory`)).json();
    expect(memory).toMatchObject({ routes: 2, evictedRoutes: 1 });
    const oldest = await http('GET', `${info.baseUrl}/importableRoutes/route-1`, { headers: { ApiKey: info.apiKey } });
    expect(oldest.status).toBe(404);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('rotates refresh tokens with --refresh-token-rotation, and says so in its description', async () => {
    const child = spawn(process.execPath, [BIN, 'simulator', '--port', '0', '--json', '--refresh-token-rotation'], {
      cwd: ROOT,
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const info = JSON.parse(
      await new Promise<string>((resolve) => createInterface({ input: child.stdout }).once('line', resolve)),
    );
    expect((await http('GET', info.controlUrl)).json()).toMatchObject({ refreshTokenRotation: true });
    // A login through the real flow, then two renewals: each answers a new refresh token.
    const strategy = oauth({ clientId: info.clientId, scopes: ['routes.import'], tokenStore: new MemoryTokenStore() });
    const client = new LiveloxClient({ auth: strategy, baseUrl: info.baseUrl, authUrl: info.authUrl });
    const req = strategy.authorizationRequest(client, 'http://127.0.0.1:9/callback');
    const page = await http('GET', req.url.href);
    const login = await strategy.completeAuthorization(client, req, String(page.headers.location));
    const once = await strategy.refresh(client);
    const twice = await strategy.refresh(client);
    expect(new Set([login.refreshToken, once.refreshToken, twice.refreshToken]).size).toBe(3);
    await client.close();
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('serves the events of a dataset file given with --data', async () => {
    const child = spawn(
      process.execPath,
      [BIN, 'simulator', '--port', '0', '--json', '--data', 'fixtures/datasets/example.json'],
      { cwd: ROOT },
    );
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const first = await new Promise<string>((resolve) =>
      createInterface({ input: child.stdout }).once('line', resolve),
    );
    const info = JSON.parse(first);
    const list = (await http('GET', `${info.baseUrl}/events?paging=0:10`, { headers: { ApiKey: info.apiKey } })).json();
    expect(list.length).toBeGreaterThan(0);
    child.kill('SIGINT');
    expect(await exited).toBe(0);
  });

  it('exits 1 with a message naming the file when --data cannot be read', () => {
    const r = run(['simulator', '--port', '0', '--data', 'no/such/dataset.json']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('no/such/dataset.json');
  });

  it.each([
    [['simulator', '--port', 'abc'], /--port takes a whole number/],
    [['simulator', '--fault-rate', '2'], /--fault-rate must be within 0..1/],
    [['simulator', '--fault-kinds', 'meteor'], /unknown fault kind meteor/],
    [['simulator', '--bogus'], /unknown option '--bogus'/],
    [['simulator', '--data', 'x.json', '--events', '5'], /--data serves a dataset file/],
    [['no-such-command'], /unknown command 'no-such-command'/],
  ])('exits 2 with a usage message for %j', (args, message) => {
    const r = run(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });

  it('reports usage errors as JSON with --json', () => {
    const r = run(['simulator', '--port', 'abc', '--json']);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toMatchObject({
      ok: false,
      error: { code: 'usage', message: expect.stringContaining('--port') },
    });
  });
});

describe('help and the demo', () => {
  it.each(['simulator', 'demo'])('prints help with options and exit codes for %s', (name) => {
    const r = run([name, '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Usage: livelox-bridge ${name}`);
    expect(r.stdout).toContain('--json');
    expect(r.stdout).toMatch(/\nExit codes:\n {2}0 +\S.*\n {2}1 +\S/);
  });

  it('lists the commands with --help and exits 2 when no command is given', () => {
    expect(run(['--help']).stdout).toMatch(/Commands:[\s\S]*simulator/);
    expect(run([]).code).toBe(2);
    expect(run(['--version']).stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('runs the demo against the embedded simulator and prints events with class links', () => {
    const r = run(['demo']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Simulator started at http:\/\/127\.0\.0\.1:\d+\/api with 300 events/);
    expect(r.stdout).toMatch(/\/viewer\/Viewer\/.+\?classId=\d+/);
    const j = run(['demo', '--json']);
    expect(JSON.parse(j.stdout).events.length).toBeGreaterThan(0);
  });
});
