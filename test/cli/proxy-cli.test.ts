/**
 * The proxy variables as a user behind a company proxy sets them: HTTP_PROXY / http_proxy, HTTPS_PROXY, NO_PROXY.
 * The service is named by a host only the loopback CONNECT proxy can reach (`livelox.test`).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/simulator/server.js';
import { BIN, ROOT, cleanEnv, runBin } from '../helpers/cli.js';
import { startConnectProxy, type ConnectProxy } from '../helpers/connect-proxy.js';

let sim: Simulator;
let proxy: ConnectProxy;
let home: string;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, events: 20 });
  proxy = await startConnectProxy({ credentials: 'ops:pa55' });
  home = mkdtempSync(join(tmpdir(), 'llb-proxy-'));
});
afterAll(async () => {
  await proxy.close();
  await sim.close();
  rmSync(home, { recursive: true, force: true });
});

function serviceArgs(): string[] {
  const hidden = (url: string) => url.replace('127.0.0.1', 'livelox.test');
  return ['--base-url', hidden(sim.info.baseUrl), '--viewer-url', hidden(sim.info.viewerUrl)];
}

const withCredentials = () => proxy.url.replace('//', '//ops:pa55@');

describe('the proxy variables', () => {
  it.each(['HTTP_PROXY', 'http_proxy'])('%s carries every request of a command through the proxy', async (name) => {
    const before = proxy.tunnels.length;
    const run = await runBin(['countries', '--json', ...serviceArgs()], {
      ...cleanEnv(home),
      LIVELOX_API_KEY: sim.info.apiKey,
      [name]: withCredentials(),
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).countries.length).toBeGreaterThan(10);
    expect(proxy.tunnels.slice(before).every((t) => t.opened && t.target.startsWith('livelox.test:'))).toBe(true);
  });

  it('NO_PROXY sends a host direct (here: a host nobody can resolve, so the command fails without a tunnel)', async () => {
    const before = proxy.tunnels.length;
    const run = await runBin(['countries', ...serviceArgs()], {
      ...cleanEnv(home),
      LIVELOX_API_KEY: sim.info.apiKey,
      HTTP_PROXY: withCredentials(),
      NO_PROXY: 'livelox.test',
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('livelox.test');
    expect(proxy.tunnels.length).toBe(before);
  });

  it('a proxy that refuses the credentials is said once, with what to do, and never with the password', async () => {
    const run = await runBin(['countries', ...serviceArgs()], {
      ...cleanEnv(home),
      LIVELOX_API_KEY: sim.info.apiKey,
      HTTPS_PROXY: 'http://nobody:guess@127.0.0.1:1',
      HTTP_PROXY: proxy.url.replace('//', '//ops:n0t-it@'),
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/proxy http:\/\/127.0.0.1:\d+ refused .*407/);
    expect(run.stderr).toContain('credentials');
    expect(run.stderr + run.stdout).not.toContain('n0t-it');
  });

  it('a proxy variable that is not an address is a usage error naming the variable, not its value', async () => {
    const run = await runBin(['countries', ...serviceArgs()], {
      ...cleanEnv(home),
      LIVELOX_API_KEY: sim.info.apiKey,
      https_proxy: 'proxy.corp:3128 with:secret',
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('https_proxy must be an http(s) address');
    expect(run.stderr).not.toContain('secret');
  });
});

describe('a proxy that accepts and never answers', () => {
  it('Ctrl-C ends the command at once (130), not when the tunnel times out', async () => {
    const sockets = new Set<Socket>();
    const silent = createNetServer((s) => {
      sockets.add(s);
      s.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const child = spawn(process.execPath, [BIN, 'countries', ...serviceArgs()], {
        cwd: ROOT,
        env: {
          ...cleanEnv(home),
          LIVELOX_API_KEY: 'k',
          HTTP_PROXY: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`,
        },
      });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
      // Once the command has reached the proxy: it is then waiting for the tunnel.
      while (sockets.size === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      const t0 = Date.now();
      child.kill('SIGINT');
      const code = await exited;
      expect(code).toBe(130);
      expect(stderr).toContain('interrupted');
      // A sanity bound only: without the fix it took the tunnel's 300 s headers timeout.
      expect(Date.now() - t0).toBeLessThan(10_000);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});
