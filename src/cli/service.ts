/**
 * What every command that talks to the service shares: the options of SERVICE_OPTIONS (shared-options.ts: addresses,
 * credentials, --simulator) resolved in layers (flag > environment > default, STYLE.md #4), and a client built from
 * them.
 */
import { existsSync } from 'node:fs';
import { stderr } from 'node:process';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { apiKey } from '../auth/api-key.js';
import { oauth, type OAuthStrategy } from '../auth/oauth.js';
import {
  FileTokenStore,
  MemoryTokenStore,
  issuerDifferences,
  type OAuthTokens,
  type TokenIssuer,
  type TokenStore,
} from '../auth/token-store.js';
import type { AuthStrategy } from '../auth/strategy.js';
import { LiveloxClient, type LiveloxClientOptions } from '../client.js';
import type { RetryNotice } from '../core/transport.js';
import { DEFAULT_AUTH_URL, DEFAULT_BASE_URL, DEFAULT_CLIENT_ID, DEFAULT_VIEWER_URL, ENV } from '../config.js';
import type { Simulator } from '../simulator/server.js';
import { UsageError, stringOption } from './command.js';
import { proxyFromEnvironment } from './proxy-env.js';
import type { SERVICE_OPTIONS } from './shared-options.js';
import type { CommandContext, Values } from './spec.js';

/** The service options of a command's parsed options (every such command spreads SERVICE_OPTIONS into its table). */
type OptionValues = Values<typeof SERVICE_OPTIONS>;

/**
 * Scopes `login` asks for. `routes.import` is published; `courses.read` is observed, not published: the real service
 * names it when refusing the courses endpoint, so a login that wants courses asks for it. `events.import` (observed,
 * not published: Purple Pen asks for it) is what `publish` needs; asked for at every login, so that one login serves
 * every command.
 */
export const DEFAULT_SCOPES = ['routes.import', 'courses.read', 'events.import'];

export interface ServiceSession {
  client: LiveloxClient;
  /** Present with --simulator. */
  simulator: Simulator | undefined;
  /** The OAuth strategy when the session uses login tokens (login, logout, whoami need it). */
  oauth: OAuthStrategy | undefined;
  close(): Promise<void>;
}

export function tokenFilePath(values: OptionValues, env: CommandContext['env']): string {
  const explicit = stringOption(values, 'token-file') ?? env[ENV.tokenFile];
  if (explicit) return explicit;
  const base = env[ENV.configHome] || join(env[ENV.home] || homedir(), '.config');
  return join(base, 'livelox-bridge', 'tokens.json');
}

/**
 * The token file an OAuth session uses, or undefined for tokens kept in memory. With --simulator the tokens belong to
 * an embedded simulator that dies with the command: only an explicit --token-file may receive them, so that the
 * user's real login (default path or LIVELOX_TOKEN_FILE) is never overwritten with tokens nobody will honour.
 */
export function oauthTokenFile(values: OptionValues, env: CommandContext['env']): string | undefined {
  if (values.simulator === true && stringOption(values, 'token-file') === undefined) return undefined;
  return tokenFilePath(values, env);
}

export interface OpenOptions {
  /** `apiKey`: an API key is required; `oauth`: login tokens (login/logout/whoami); `any`: a key, else tokens. */
  auth: 'apiKey' | 'oauth' | 'any';
  /** Simulator settings for --simulator (a short import delay keeps `import --wait` quick). */
  simulator?: { importDelayMs?: number };
  /** Use the addresses and client id the stored login was made for when none is given. Default true; `login` false. */
  rememberIssuer?: boolean;
  /** The client's request limits, for a command with flags for them (import's --rate, --concurrency). */
  limits?: Pick<LiveloxClientOptions, 'ratePerSecond' | 'maxConcurrent'>;
}

const ISSUER_FIELD_TEXT: Record<keyof TokenIssuer, string> = {
  clientId: 'client id',
  authUrl: 'OAuth address',
  baseUrl: 'API address',
  viewerUrl: 'viewer address',
};

/** Each user setting of the service and the variable that gives it when its flag is not given (flag > variable). */
const SETTING_VARIABLES = {
  'api-key': ENV.apiKey,
  'base-url': ENV.baseUrl,
  'auth-url': ENV.authUrl,
  'viewer-url': ENV.viewerUrl,
  'client-id': ENV.clientId,
} as const;
type Setting = keyof typeof SETTING_VARIABLES;

function givenSetting(values: OptionValues, env: CommandContext['env'], name: Setting): string | undefined {
  return stringOption(values, name) ?? env[SETTING_VARIABLES[name]];
}

/**
 * The stored login, read once: its issuer chooses the addresses, and the OAuth strategy starts from these tokens
 * instead of reading the file again. A file that cannot be read gives undefined here and says why later, when the
 * strategy reads it itself.
 */
async function storedLogin(store: TokenStore): Promise<OAuthTokens | undefined> {
  try {
    return await store.load();
  } catch {
    return undefined;
  }
}

/** `store`, whose first load answers with `tokens` (just read from it) instead of reading the file a second time. */
function startingWith(store: FileTokenStore, tokens: OAuthTokens): TokenStore {
  let first: OAuthTokens | undefined = tokens;
  const fromFile = () => {
    first = undefined;
    return store;
  };
  return {
    load() {
      const t = first;
      first = undefined;
      return t === undefined ? store.load() : Promise.resolve(t);
    },
    save: (saved) => fromFile().save(saved),
    clear: () => fromFile().clear(),
    // Under the lock the file is read afresh: what it holds now is the point of taking it.
    exclusive: (work, options) => fromFile().exclusive(work, options),
  };
}

/** Builds the client for a command; with --simulator, starts an in-process simulator and points everything at it. */
export async function openService(
  values: OptionValues,
  ctx: CommandContext,
  open: OpenOptions,
): Promise<ServiceSession> {
  const env = ctx.env;
  let simulator: Simulator | undefined;
  if (values.simulator === true) {
    // Loaded only here: most runs never start a simulator, and it is a large part of the code.
    const { startSimulator } = await import('../simulator/server.js');
    simulator = await startSimulator({ port: 0, importDelayMs: open.simulator?.importDelayMs ?? 1500 });
    const ignored = settingsIgnoredBySimulator(values, env);
    if (ignored.length > 0) {
      ctx.io.err(
        `livelox-bridge: --simulator uses the embedded simulator's own key and addresses; ignoring ${ignored.join(', ')}.`,
      );
    }
  }
  try {
    const given = (name: Setting) => givenSetting(values, env, name);
    const key = simulator ? simulator.info.apiKey : given('api-key');
    const usesLogin = open.auth === 'oauth' || (open.auth === 'any' && !key);
    const tokenFile = usesLogin ? oauthTokenFile(values, env) : undefined;
    const fileStore = tokenFile === undefined ? undefined : new FileTokenStore(tokenFile);
    // The login remembers where it was made: without a flag or variable naming them, its addresses and client id are
    // used (a login against a simulator keeps talking to that simulator). `login` itself chooses afresh.
    const stored =
      simulator || open.rememberIssuer === false || fileStore === undefined ? undefined : await storedLogin(fileStore);
    const issuer = stored?.issuedFor;
    const addresses = {
      baseUrl: simulator?.info.baseUrl ?? given('base-url') ?? issuer?.baseUrl ?? DEFAULT_BASE_URL,
      // Without its own flag or variable, the OAuth address is the API address given (one server, as by default).
      authUrl: simulator?.info.authUrl ?? given('auth-url') ?? given('base-url') ?? issuer?.authUrl ?? DEFAULT_AUTH_URL,
      viewerUrl: simulator?.info.viewerUrl ?? given('viewer-url') ?? issuer?.viewerUrl ?? DEFAULT_VIEWER_URL,
    };
    for (const [name, url] of Object.entries(addresses)) {
      if (!/^https?:\/\/[^/\s]+/.test(url))
        throw new UsageError(`--${name.replace('Url', '-url')} must be an http(s) URL, got '${url}'`);
    }
    let auth: AuthStrategy;
    let oauthStrategy: OAuthStrategy | undefined;
    if (!usesLogin && key) {
      auth = apiKey(key);
    } else if (open.auth === 'apiKey') {
      throw new UsageError(`this command needs an API key: --api-key or ${ENV.apiKey}`);
    } else {
      // Tokens read above prove the file is there; otherwise look (an unreadable file is there, and says why later).
      if (open.auth === 'any' && stored === undefined && (tokenFile === undefined || !existsSync(tokenFile))) {
        throw new UsageError(
          `no credentials: give an API key (--api-key or ${ENV.apiKey}), or run \`livelox-bridge login\` first`,
        );
      }
      const clientId = simulator?.info.clientId ?? given('client-id') ?? issuer?.clientId ?? DEFAULT_CLIENT_ID;
      for (const d of issuerDifferences(issuer, { clientId, ...addresses })) {
        ctx.io.err(
          `livelox-bridge: the login in ${tokenFile ?? ''} was made for ${ISSUER_FIELD_TEXT[d.field]} ${d.issued}, but this command uses ${d.now}; run \`livelox-bridge login\` again for it.`,
        );
      }
      oauthStrategy = oauth({
        clientId,
        scopes: DEFAULT_SCOPES,
        tokenStore:
          fileStore === undefined
            ? new MemoryTokenStore()
            : stored === undefined
              ? fileStore
              : startingWith(fileStore, stored),
      });
      auth = oauthStrategy;
    }
    const proxy = proxyFromEnvironment(env);
    const client = new LiveloxClient({
      auth,
      ...addresses,
      ...(proxy === undefined ? {} : { proxy }),
      ...open.limits,
      ...(stderr.isTTY === true ? { onRetry: (notice: RetryNotice) => ctx.io.err(retryText(notice)) } : {}),
    });
    return {
      client,
      simulator,
      oauth: oauthStrategy,
      async close() {
        await client.close();
        await simulator?.close();
      },
    };
  } catch (err) {
    await simulator?.close();
    throw err;
  }
}

/** A session that uses login tokens (login, logout, whoami): its OAuth strategy is always there. */
export async function openOAuthSession(
  values: OptionValues,
  ctx: CommandContext,
  options: { rememberIssuer?: boolean } = {},
): Promise<ServiceSession & { oauth: OAuthStrategy }> {
  const session = await openService(values, ctx, { auth: 'oauth', ...options });
  const strategy = session.oauth;
  if (strategy) return { ...session, oauth: strategy };
  await session.close();
  // openService builds an OAuth strategy whenever auth is 'oauth': reaching this is a bug, not a user error.
  throw new Error('internal: an OAuth session was opened without an OAuth strategy');
}

/**
 * The user's own settings that an embedded simulator overrides (its key, its addresses, its client id), named so the
 * user learns why an exported LIVELOX_API_KEY or a --base-url had no effect. Names only: never a value.
 */
function settingsIgnoredBySimulator(values: OptionValues, env: CommandContext['env']): string[] {
  const flags = (Object.keys(SETTING_VARIABLES) as Setting[])
    .filter((name) => stringOption(values, name) !== undefined)
    .map((name) => `--${name}`);
  const variables = Object.values(SETTING_VARIABLES).filter((name) => env[name]);
  return [...flags, ...variables];
}

/**
 * "service answered 503, retrying in 2 s (attempt 2 of 5)": shown on a terminal only, where a person would otherwise
 * watch up to 16 silent seconds of backoff; scripts read the outcome, not the attempts.
 */
export function retryText(notice: RetryNotice): string {
  const what =
    notice.status !== undefined
      ? `service answered ${notice.status}`
      : `no answer (${notice.failure ?? 'network error'})`;
  const seconds =
    notice.delayMs < 1000 ? (notice.delayMs / 1000).toFixed(1) : String(Math.round(notice.delayMs / 1000));
  return `livelox-bridge: ${notice.request.method} ${notice.request.path.split('?')[0]}: ${what}, retrying in ${seconds} s (attempt ${notice.nextAttempt} of ${notice.maxAttempts})`;
}
