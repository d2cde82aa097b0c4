/**
 * Every environment variable livelox-bridge reads, with its default and what it does: the one table that
 * `livelox-bridge help environment` prints (as text, `--markdown` or `--json`) and docs/environment.md shows (a test
 * keeps them in step). The names come from ENV (config.ts), and the table is a Record over its keys, so a variable
 * added there does not compile until it is described here. A start-up module: data only.
 */
import { DEFAULT_AUTH_URL, DEFAULT_BASE_URL, DEFAULT_CLIENT_ID, DEFAULT_VIEWER_URL, ENV } from '../config.js';

export interface EnvironmentVariable {
  name: string;
  /** Other spellings read as well (the lower-case proxy variables). */
  aliases: readonly string[];
  /** What holds without it. */
  default: string;
  /** What it does, and the option that wins over it. */
  description: string;
}

type Described = Omit<EnvironmentVariable, 'name' | 'aliases'> & { aliases?: readonly string[] };

/** Commands that talk to the service, as the proxy and address variables name them. */
const SERVICE_COMMANDS =
  'every command that talks to the service (link, sync, events, event, countries, courses, ' +
  'check-courses, import, status, login, logout, whoami)';

const DESCRIBED: Readonly<Record<keyof typeof ENV, Described>> = {
  apiKey: {
    default: 'none: the tokens of `livelox-bridge login` are used',
    description: 'the API key of every command that talks to the service (--api-key wins)',
  },
  baseUrl: {
    default: DEFAULT_BASE_URL,
    description: 'the API address (--base-url wins); `livelox-bridge simulator` prints the one to export',
  },
  authUrl: {
    default: `the API address given, else ${DEFAULT_AUTH_URL}`,
    description: 'the OAuth2 address, for login and token renewal (--auth-url wins)',
  },
  viewerUrl: {
    default: DEFAULT_VIEWER_URL,
    description: 'the address of the viewer pages that class links point at (--viewer-url wins)',
  },
  clientId: {
    default: `the id the login was made with, else ${DEFAULT_CLIENT_ID}`,
    description: 'the OAuth client id for login (--client-id wins)',
  },
  tokenFile: {
    default: `$${ENV.configHome}/livelox-bridge/tokens.json`,
    description: 'the file login keeps its tokens in, mode 0600 (--token-file wins)',
  },
  simulatorUrl: {
    default: 'http://127.0.0.1:4380/_simulator',
    description:
      "a running simulator's control address for `simulator clock|churn|faults` (--url wins); " +
      "`livelox-bridge simulator`'s export block sets it",
  },
  iofXsd: {
    default: `schemas/IOF.xsd in the package, then $${ENV.cacheHome}/livelox-bridge/IOF.xsd`,
    description:
      'the IOF XML 3.0 schema (IOF.xsd) that validate and check-courses check files against (--schema wins); ' +
      'installing from a checkout copies it into schemas/IOF.xsd',
  },
  iofDtd: {
    default: `schemas/IOFdata-2.0.3.dtd in the package, then $${ENV.cacheHome}/livelox-bridge/`,
    description: 'the IOF 2.0.3 DTD that IOF 2.0.3 files are checked against; without it they are NOT CHECKED',
  },
  configHome: {
    default: `$${ENV.home}/.config`,
    description: 'where livelox-bridge/tokens.json (the login) is kept',
  },
  dataHome: {
    default: `$${ENV.home}/.local/share`,
    description:
      "where livelox-bridge/sync.sqlite (sync's state, without --state) and livelox-bridge/imports.sqlite " +
      "(import's journal, without --journal) are kept",
  },
  cacheHome: {
    default: `$${ENV.home}/.cache`,
    description: 'where `livelox-bridge schema fetch` keeps the IOF schema it downloads (livelox-bridge/IOF.xsd)',
  },
  home: {
    default: "the user's home directory",
    description: `the base of the default folders above when ${ENV.configHome}, ${ENV.dataHome} or ${ENV.cacheHome} is not set`,
  },
  noColor: {
    default: 'not set: colours on a terminal',
    description: 'set (to anything): no colours, not even on a terminal (no-color.org)',
  },
  forceColor: {
    default: 'not set',
    description: `set (other than 0 or false): colours even when stdout is not a terminal, and over ${ENV.noColor}`,
  },
  term: {
    default: "the terminal's",
    description: 'dumb: no colours',
  },
  httpsProxy: {
    aliases: ['https_proxy'],
    default: 'not set: connect directly',
    description:
      `the proxy for https:// addresses, for ${SERVICE_COMMANDS} and schema fetch; the lower-case name wins when ` +
      'both are set; credentials go in the address (http://user:password@host:port)',
  },
  httpProxy: {
    aliases: ['http_proxy'],
    default: 'not set: connect directly',
    description: `the proxy for http:// addresses (and for https:// ones when ${ENV.httpsProxy} is not set), for the same commands`,
  },
  noProxy: {
    aliases: ['no_proxy'],
    default: 'not set',
    description:
      'hosts reached without the proxy: a comma-separated list of names, domains (.example.org), host:port and *; ' +
      'loopback (localhost, 127.0.0.1, [::1]) is always reached directly',
  },
};

/** The variables in the order `help environment` lists them (ENV's order). */
export const ENVIRONMENT: readonly EnvironmentVariable[] = (Object.keys(ENV) as Array<keyof typeof ENV>).map((key) => ({
  name: ENV[key],
  ...DESCRIBED[key],
  aliases: DESCRIBED[key].aliases ?? [],
}));

/** `HTTPS_PROXY, https_proxy`: a variable with the other spellings read. */
export function variableNames(v: EnvironmentVariable): string {
  return [v.name, ...v.aliases].join(', ');
}
