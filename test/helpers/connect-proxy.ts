/**
 * A CONNECT proxy on loopback, as a company network runs one: it tunnels every CONNECT to the same port on
 * 127.0.0.1 whatever host is named (so a test can use a host name no resolver knows, and only the proxy can reach),
 * records each tunnel asked for, and can require Basic credentials (407 without them).
 */
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

export interface TunnelRecord {
  /** `host:port` as the CONNECT line named it. */
  target: string;
  /** The Proxy-Authorization header, decoded (`user:password`), when one came. */
  credentials?: string;
  /** Whether the tunnel was opened (false: refused with 407). */
  opened: boolean;
}

export interface ConnectProxy {
  url: string;
  port: number;
  tunnels: TunnelRecord[];
  close(): Promise<void>;
}

export async function startConnectProxy(options: { credentials?: string } = {}): Promise<ConnectProxy> {
  const tunnels: TunnelRecord[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((_req, res) => {
    // Only tunnels: a plain request to the proxy is not what the client should send.
    res.writeHead(405).end();
  });
  server.on('connect', (req, client: Socket) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => undefined);
    const header = req.headers['proxy-authorization'];
    const credentials =
      typeof header === 'string' && header.startsWith('Basic ')
        ? Buffer.from(header.slice(6), 'base64').toString('utf8')
        : undefined;
    const target = req.url ?? '';
    const allowed = options.credentials === undefined || credentials === options.credentials;
    tunnels.push({ target, ...(credentials === undefined ? {} : { credentials }), opened: allowed });
    if (!allowed) {
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test"\r\n\r\n');
      return;
    }
    const port = Number(/:(\d+)$/.exec(target)?.[1] ?? 0);
    const upstream = connect(port, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    tunnels,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
