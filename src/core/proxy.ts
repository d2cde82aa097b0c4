/**
 * Requests through a company network's HTTP proxy, as `HTTP_PROXY`, `HTTPS_PROXY` and `NO_PROXY` describe one. The
 * settings are handed in (the CLI reads the variables; library code never reads the environment). This module decides
 * per address whether a request goes direct or through the proxy, so that the transport both routes it and words its
 * failures from the same decision ("the proxy at ... refused"); undici's `ProxyAgent` does the tunnelling (CONNECT,
 * for `http:` and `https:` addresses alike, credentials from the proxy address as Basic authentication).
 */
import { Agent, Pool, ProxyAgent, type Dispatcher } from 'undici';
import { ValidationError, type Issue } from '../errors.js';

export interface ProxySettings {
  /** The proxy for `http:` addresses (`http://proxy.example:3128`; credentials as `http://user:pass@host:port`). */
  httpProxy?: string;
  /** The proxy for `https:` addresses. Default: the `httpProxy` one (undici's rule). */
  httpsProxy?: string;
  /**
   * Hosts reached directly, comma- or space-separated, as `NO_PROXY` writes them: `example.org` (and its
   * subdomains), `.example.org` or `*.example.org` (the same), `host:port` (that port only), or `*` (every host).
   * Loopback (`localhost`, `127.0.0.1`, `[::1]`) is always reached directly: a simulator on this machine must not be
   * sent through a company proxy.
   */
  noProxy?: string;
}

/** Loopback is never proxied (Go's net/http does the same): a service on this machine is reached on this machine. */
const ALWAYS_DIRECT = ['localhost', '127.0.0.1', '[::1]'];
const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443 };

interface NoProxyEntry {
  host: string;
  /** 0: any port. */
  port: number;
}

/** Whether any proxy is set at all: without one the transport keeps its plain agent. */
export function proxyIsSet(settings: ProxySettings | undefined): settings is ProxySettings {
  return Boolean(settings?.httpProxy || settings?.httpsProxy);
}

/** What is wrong with the proxy addresses (each issue's `path` is the setting's name); empty when they are usable. */
export function proxySettingIssues(settings: ProxySettings): Issue[] {
  return (['httpProxy', 'httpsProxy'] as const).flatMap((name) => {
    const address = settings[name];
    if (!address || parseProxyAddress(address) !== undefined) return [];
    // The address may carry a password: the message says what is wrong without repeating it.
    return [
      {
        path: name,
        code: 'format',
        message:
          'must be an http(s) address such as http://proxy.example:3128 (a user and password may come before the host)',
      },
    ];
  });
}

function parseProxyAddress(address: string): URL | undefined {
  try {
    const url = new URL(address);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '' ? url : undefined;
  } catch {
    return undefined;
  }
}

function parseNoProxy(value: string): NoProxyEntry[] | '*' {
  const words = value.split(/[\s,]+/).filter(Boolean);
  if (words.includes('*')) return '*';
  return [...words, ...ALWAYS_DIRECT].map((word) => {
    const m = /^(.+):(\d+)$/.exec(word);
    const host = (m ? m[1]! : word).replace(/^\*?\./, '').toLowerCase();
    return { host, port: m ? Number(m[2]) : 0 };
  });
}

/** One request's way out: the dispatcher to use, and the proxy's origin (never its credentials) when it goes through one. */
export interface Route {
  dispatcher: Dispatcher;
  proxy?: string;
}

/**
 * The dispatchers for `settings`: one direct agent, and a proxy agent per proxy address. Throws `ValidationError` for
 * a proxy address that is not an http(s) URL.
 */
export class ProxyRoutes {
  readonly #direct: Agent;
  readonly #proxies = new Map<string, { agent: ProxyAgent; origin: string }>();
  readonly #byProtocol: Record<string, string | undefined>;
  readonly #noProxy: NoProxyEntry[] | '*';

  constructor(settings: ProxySettings, agentOptions: Agent.Options) {
    const issues = proxySettingIssues(settings);
    if (issues.length > 0) throw new ValidationError('Proxy settings', issues);
    this.#direct = new Agent(agentOptions);
    this.#byProtocol = {
      'http:': settings.httpProxy || undefined,
      'https:': settings.httpsProxy || settings.httpProxy || undefined,
    };
    for (const address of new Set(Object.values(this.#byProtocol))) {
      if (address === undefined) continue;
      const agent = new ProxyAgent({
        ...agentOptions,
        uri: address,
        // The tunnel's own request (CONNECT) goes through a client undici builds with its defaults (a 300 s headers
        // timeout): a proxy that accepts and never answers would hold a request, and close(), for minutes. It gets
        // the request's timeouts here, and the connection to the proxy the connect timeout.
        proxyTls: { timeout: connectTimeoutOf(agentOptions) },
        clientFactory: (origin, options) =>
          new Pool(origin, {
            ...options,
            headersTimeout: agentOptions.headersTimeout ?? 30_000,
            bodyTimeout: agentOptions.bodyTimeout ?? 60_000,
          }),
      });
      this.#proxies.set(address, { agent, origin: parseProxyAddress(address)!.origin });
    }
    this.#noProxy = parseNoProxy(settings.noProxy ?? '');
  }

  /** The way out for `url`: direct for loopback and the hosts `noProxy` names, else the proxy for its protocol. */
  for(url: URL): Route {
    const address = this.#byProtocol[url.protocol];
    const proxy = address === undefined || !this.#proxied(url) ? undefined : this.#proxies.get(address);
    return proxy === undefined ? { dispatcher: this.#direct } : { dispatcher: proxy.agent, proxy: proxy.origin };
  }

  #proxied(url: URL): boolean {
    if (this.#noProxy === '*') return false;
    const host = url.hostname.toLowerCase();
    const port = Number(url.port) || DEFAULT_PORTS[url.protocol] || 0;
    return !this.#noProxy.some(
      (entry) => (entry.port === 0 || entry.port === port) && (host === entry.host || host.endsWith(`.${entry.host}`)),
    );
  }

  async close(): Promise<void> {
    await Promise.all([this.#direct.close(), ...[...this.#proxies.values()].map((p) => p.agent.close())]);
  }

  /** Ends every connection now, a tunnel being opened included. */
  async destroy(): Promise<void> {
    await Promise.all([this.#direct.destroy(), ...[...this.#proxies.values()].map((p) => p.agent.destroy())]);
  }
}

function connectTimeoutOf(options: Agent.Options): number {
  const connect = options.connect;
  return connect !== undefined && typeof connect === 'object' && typeof connect.timeout === 'number'
    ? connect.timeout
    : 10_000;
}

/**
 * undici's words when the proxy answers CONNECT with anything but 200 ("Proxy response (407) !== 200 when HTTP
 * Tunneling"): the status, so that the transport can say the proxy refused, and not retry a refusal.
 */
export function proxyRefusalStatus(err: unknown): number | undefined {
  const message = err instanceof Error ? err.message : '';
  const m = /^Proxy response \((\d{3})\) !== 200/.exec(message);
  return m ? Number(m[1]) : undefined;
}
