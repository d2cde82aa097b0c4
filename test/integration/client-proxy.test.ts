/**
 * A company network's proxy: the client reaches the service through a CONNECT proxy on loopback. The service is
 * named by a host no resolver knows (`livelox.test`), so only the proxy can have carried a request that succeeds.
 */
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { apiKey } from '../../src/auth/api-key.js';
import { LiveloxClient } from '../../src/client.js';
import { ProxyRoutes } from '../../src/core/proxy.js';
import { ConnectionError, TimeoutError, ValidationError } from '../../src/errors.js';
import { startSimulator, type Simulator } from '../../src/simulator/server.js';
import { startConnectProxy, type ConnectProxy } from '../helpers/connect-proxy.js';

const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const o of opened.splice(0).reverse()) await o.close().catch(() => undefined);
});

async function setUp(proxyOptions: { credentials?: string } = {}): Promise<{ sim: Simulator; proxy: ConnectProxy }> {
  const sim = await startSimulator({ port: 0, events: 20 });
  opened.push(sim);
  const proxy = await startConnectProxy(proxyOptions);
  opened.push(proxy);
  return { sim, proxy };
}

/** The simulator's addresses with its host replaced by one only the proxy can reach. */
function behindProxy(sim: Simulator): { baseUrl: string; authUrl: string; viewerUrl: string } {
  const rename = (url: string) => url.replace('127.0.0.1', 'livelox.test');
  return {
    baseUrl: rename(sim.info.baseUrl),
    authUrl: rename(sim.info.authUrl),
    viewerUrl: rename(sim.info.viewerUrl),
  };
}

function client(sim: Simulator, options: Partial<ConstructorParameters<typeof LiveloxClient>[0]>): LiveloxClient {
  const c = new LiveloxClient({
    auth: apiKey(sim.info.apiKey),
    ...behindProxy(sim),
    ratePerSecond: 0,
    retry: { baseDelayMs: 10, maxDelayMs: 50, maxRetries: 2 },
    ...options,
  });
  opened.push(c);
  return c;
}

describe('the client through an HTTP proxy', () => {
  it('sends every request through a CONNECT tunnel to the service host', async () => {
    const { sim, proxy } = await setUp();
    const c = client(sim, { proxy: { httpProxy: proxy.url } });
    const countries = await c.countries.list();
    expect(countries.length).toBeGreaterThan(10);
    const port = new URL(sim.info.baseUrl).port;
    expect(proxy.tunnels.map((t) => t.target)).toContain(`livelox.test:${port}`);
  });

  it('takes the https proxy for http addresses only when no http proxy is given: undici and curl alike', async () => {
    const { sim, proxy } = await setUp();
    // httpsProxy alone does not carry an http: address; the host is unknown, so the request fails without a tunnel.
    const c = client(sim, { proxy: { httpsProxy: proxy.url }, retry: { maxRetries: 0 } });
    await expect(c.countries.list()).rejects.toBeInstanceOf(ConnectionError);
    expect(proxy.tunnels).toEqual([]);
  });

  it('goes direct to hosts NO_PROXY names, and to loopback always', async () => {
    const { sim, proxy } = await setUp();
    const direct = client(sim, {
      proxy: { httpProxy: proxy.url, noProxy: 'example.org, .livelox.test' },
      retry: { maxRetries: 0 },
    });
    await expect(direct.countries.list()).rejects.toBeInstanceOf(ConnectionError);
    const loopback = client(sim, {
      proxy: { httpProxy: proxy.url },
      baseUrl: sim.info.baseUrl,
      authUrl: sim.info.authUrl,
      viewerUrl: sim.info.viewerUrl,
    });
    expect((await loopback.countries.list()).length).toBeGreaterThan(10);
    expect(proxy.tunnels).toEqual([]);
  });

  it('sends the credentials of the proxy address, and a refusal (407) is said once, without the password', async () => {
    const { sim, proxy } = await setUp({ credentials: 'alice:s3cret pass' });
    const good = client(sim, { proxy: { httpProxy: proxy.url.replace('//', '//alice:s3cret%20pass@') } });
    expect((await good.countries.list()).length).toBeGreaterThan(10);
    expect(proxy.tunnels.at(-1)).toMatchObject({ credentials: 'alice:s3cret pass', opened: true });

    const before = proxy.tunnels.length;
    const bad = client(sim, { proxy: { httpProxy: proxy.url.replace('//', '//alice:wrong@') } });
    const err = await bad.countries.list().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectionError);
    const error = err as ConnectionError;
    expect(error.message).toMatch(/The proxy http:\/\/127.0.0.1:\d+ refused/);
    expect(error.message).toContain('407');
    expect(error.hint?.text).toContain('credentials');
    // A refusal is not retried: the proxy would answer the same.
    expect(proxy.tunnels.length - before).toBe(1);
    expect(error.attempts).toBe(1);
    expect(error.mayHaveTakenEffect).toBeFalsy();
    expect(JSON.stringify(error.toJSON())).not.toContain('wrong');
  });

  it('refuses a proxy address that is not an http(s) URL, without repeating it', () => {
    const sim = {
      info: {
        apiKey: 'k',
        baseUrl: 'http://127.0.0.1:1/api',
        authUrl: 'http://127.0.0.1:1/auth',
        viewerUrl: 'http://127.0.0.1:1/v',
      },
    } as Simulator;
    let err: unknown;
    try {
      client(sim, { proxy: { httpProxy: 'socks9://bob:hunter2@proxy' } });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).issues[0]).toMatchObject({ path: 'httpProxy', code: 'format' });
    expect(JSON.stringify((err as ValidationError).toJSON())).not.toContain('hunter2');
  });
});

describe('which addresses go through the proxy (NO_PROXY as curl reads it)', () => {
  const routes = new ProxyRoutes(
    { httpProxy: 'http://user:pw@proxy.corp:3128', noProxy: 'intranet.corp, .example.org,*.sub.test api.local:8443' },
    {},
  );
  afterAll(() => routes.close());
  it.each([
    ['https://api.livelox.com/events', 'http://proxy.corp:3128'],
    ['http://intranet.corp/x', undefined],
    ['http://wiki.intranet.corp/x', undefined],
    ['http://notintranet.corp/x', 'http://proxy.corp:3128'],
    ['https://example.org/', undefined],
    ['https://www.EXAMPLE.org/', undefined],
    ['https://a.sub.test/', undefined],
    ['https://api.local:8443/', undefined],
    ['https://api.local/', 'http://proxy.corp:3128'],
    ['http://localhost:4380/api', undefined],
    ['http://127.0.0.1:4380/api', undefined],
    ['http://[::1]:4380/api', undefined],
  ])('%s -> %s', (url, proxy) => {
    expect(routes.for(new URL(url)).proxy).toBe(proxy);
  });

  it('"*" sends every host direct', async () => {
    const all = new ProxyRoutes({ httpsProxy: 'http://proxy.corp:3128', noProxy: '*' }, {});
    expect(all.for(new URL('https://api.livelox.com/')).proxy).toBeUndefined();
    await all.close();
  });

  it('an unreachable proxy is named as the thing to check, not the service', async () => {
    const c = new LiveloxClient({
      auth: apiKey('k'),
      baseUrl: 'http://livelox.test:9/api',
      proxy: { httpProxy: 'http://user:pw@127.0.0.1:9' },
      retry: { maxRetries: 0 },
    });
    opened.push(c);
    const err = (await c.countries.list().catch((e: unknown) => e)) as ConnectionError;
    expect(err).toBeInstanceOf(ConnectionError);
    expect(err.hint?.text).toContain('the proxy http://127.0.0.1:9 is reachable');
    expect(JSON.stringify(err.toJSON())).not.toContain('pw');
  });
});

describe('a proxy that accepts connections and never answers', () => {
  async function silentProxy(): Promise<{ url: string; close(): Promise<void> }> {
    const sockets = new Set<Socket>();
    const server = createNetServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return {
      url: `http://127.0.0.1:${port}`,
      async close() {
        for (const s of sockets) s.destroy();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      },
    };
  }

  /** A client whose requests go through a proxy that accepts the tunnel and never answers. */
  async function throughSilentProxy(
    options: Omit<ConstructorParameters<typeof LiveloxClient>[0], 'auth' | 'baseUrl' | 'proxy'>,
  ): Promise<LiveloxClient> {
    const proxy = await silentProxy();
    opened.push(proxy);
    return new LiveloxClient({
      auth: apiKey('k'),
      baseUrl: 'http://livelox.test:9/api',
      proxy: { httpProxy: proxy.url },
      ...options,
    });
  }

  it('times out as a service that never answers does (the headers timeout holds for the tunnel too)', async () => {
    const c = await throughSilentProxy({ headersTimeoutMs: 300, retry: { maxRetries: 0 } });
    opened.push(c);
    const t0 = Date.now();
    const err = await c.countries.list().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TimeoutError);
    // A sanity bound only: undici's own default for the tunnel is 300 s.
    expect(Date.now() - t0).toBeLessThan(20_000);
    const closing = Date.now();
    await c.close();
    expect(Date.now() - closing).toBeLessThan(5_000);
  });

  it('stops at once when the caller gives up, and closes without waiting for the tunnel', async () => {
    const c = await throughSilentProxy({});
    const controller = new AbortController();
    const pending = c.countries.list({ signal: controller.signal }).catch((e: unknown) => e);
    setTimeout(() => controller.abort(new Error('stop')), 200);
    const t0 = Date.now();
    await pending;
    await c.close();
    expect(Date.now() - t0).toBeLessThan(5_000);
  });
});
