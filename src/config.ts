/**
 * The three addresses of the service and where their defaults come from. Everything else reads them from here, so a
 * deployment (or the simulator) can move any of them.
 */
export const DEFAULT_BASE_URL = 'https://api.livelox.com';
/** The OAuth2 endpoints live under this address (`/oauth2/authorize`, `/oauth2/token`, ...). */
export const DEFAULT_AUTH_URL = 'https://api.livelox.com';
/** The service's viewer pages (class links, route pages). */
export const DEFAULT_VIEWER_URL = 'https://www.livelox.com';

/**
 * The OAuth client id livelox-bridge is registered under (the CLI's default; override with --client-id or
 * LIVELOX_CLIENT_ID). Here, not in the CLI, because the simulator registers the same id for `login` to work against it.
 */
export const DEFAULT_CLIENT_ID = 'livelox-bridge';

/** The port `livelox-bridge simulator` listens on by default, and so where its control commands look. */
export const DEFAULT_SIMULATOR_PORT = 4380;

/**
 * Every environment variable the CLI reads, by the name code uses for it (library code never reads `process.env`, with
 * one documented exception: the IOF schema lookup reads `IOF_XSD`, `IOF_DTD` and the cache directory's variables when
 * its caller gives no `env`, as iof/schema-path.ts says why; the CLI reads `env[ENV.x]`). `livelox-bridge help environment` describes each one (src/cli/environment.ts, which must
 * cover every key here), and a test checks that the CLI reads no variable missing from this list.
 */
export const ENV = {
  apiKey: 'LIVELOX_API_KEY',
  baseUrl: 'LIVELOX_BASE_URL',
  authUrl: 'LIVELOX_AUTH_URL',
  viewerUrl: 'LIVELOX_VIEWER_URL',
  clientId: 'LIVELOX_CLIENT_ID',
  tokenFile: 'LIVELOX_TOKEN_FILE',
  /** The control address of a running simulator (`/_simulator`), for `livelox-bridge simulator clock|churn|faults`. */
  simulatorUrl: 'LIVELOX_SIMULATOR_URL',
  iofXsd: 'IOF_XSD',
  iofDtd: 'IOF_DTD',
  configHome: 'XDG_CONFIG_HOME',
  dataHome: 'XDG_DATA_HOME',
  cacheHome: 'XDG_CACHE_HOME',
  home: 'HOME',
  noColor: 'NO_COLOR',
  forceColor: 'FORCE_COLOR',
  term: 'TERM',
  httpsProxy: 'HTTPS_PROXY',
  httpProxy: 'HTTP_PROXY',
  noProxy: 'NO_PROXY',
} as const;

export interface ServiceAddresses {
  baseUrl: string;
  authUrl: string;
  viewerUrl: string;
}

/** An address without trailing slashes: `https://x/` and `https://x` are one address, and paths join on without `//`. */
export function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/**
 * Joins a path onto a base address that may itself carry a path (`http://127.0.0.1:4000/api` + `/events`), which
 * `new URL(path, base)` would silently drop.
 */
export function joinUrl(base: string, path: string): URL {
  const url = new URL(base);
  const basePath = url.pathname.endsWith('/') ? url.pathname.slice(0, -1) : url.pathname;
  const [pathname, query] = path.split('?', 2) as [string, string | undefined];
  url.pathname = basePath + (pathname.startsWith('/') ? pathname : `/${pathname}`);
  url.search = query ? `?${query}` : '';
  return url;
}
