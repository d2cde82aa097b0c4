/**
 * What every command that talks to the service shares: the global options (addresses, credentials, --simulator),
 * resolved in layers (flag > environment > default, STYLE.md #4), and a client built from them.
 */
import { existsSync } from 'node:fs';
import { stderr } from 'node:process';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { apiKey } from '../auth/api-key.js';
import { oauth, type OAuthStrategy } from '../auth/oauth.js';
import { FileTokenStore, MemoryTokenStore, issuerDifferences, type TokenIssuer } from '../auth/token-store.js';
import type { AuthStrategy } from '../auth/strategy.js';
import { LiveloxClient } from '../client.js';
import type { RetryNotice } from '../core/transport.js';
import { DEFAULT_AUTH_URL, DEFAULT_BASE_URL, DEFAULT_VIEWER_URL, ENV } from '../config.js';
import type { Simulator } from '../simulator/server.js';
import { UsageError, stringOption, type CommandContext, type OptionSpec, type OptionValues } from './command.js';

/** The OAuth client id livelox-bridge is registered under; override with --client-id or LIVELOX_CLIENT_ID. */
export const DEFAULT_CLIENT_ID = 'livelox-bridge';
/**
 * Scopes `login` asks for. `routes.import` is published; `courses.read` is observed, not published: the real service
 * names it when refusing the courses endpoint, so a login that wants courses asks for it.
 */
export const DEFAULT_SCOPES = ['routes.import', 'courses.read'];

export const SERVICE_OPTIONS: Record<string, OptionSpec> = {
  'base-url': {
    type: 'string',
    valueName: 'URL',
    description: `API address (env ${ENV.baseUrl}; default ${DEFAULT_BASE_URL})`,
  },
  'auth-url': {
    type: 'string',
    valueName: 'URL',
    description: `OAuth2 address (env ${ENV.authUrl}; default ${DEFAULT_AUTH_URL})`,
  },
  'viewer-url': {
    type: 'string',
    valueName: 'URL',
    description: `viewer pages address (env ${ENV.viewerUrl}; default ${DEFAULT_VIEWER_URL})`,
  },
  'api-key': {
    type: 'string',
    valueName: 'KEY',
    description: `API key (env ${ENV.apiKey}); without one, the login token is used`,
  },
  'token-file': {
    type: 'string',
    valueName: 'FILE',
    description:
      'where `login` keeps OAuth tokens (env LIVELOX_TOKEN_FILE; default ~/.config/livelox-bridge/tokens.json)',
  },
  'client-id': {
    type: 'string',
    valueName: 'ID',
    description: `OAuth client id (env ${ENV.clientId}; default ${DEFAULT_CLIENT_ID})`,
  },
  simulator: { type: 'boolean', description: 'run against an embedded simulator started for this command' },
};

export interface ServiceSession {
  client: LiveloxClient;
  /** Present with --simulator. */
  simulator: Simulator | undefined;
  /** The OAuth strategy when the session uses login tokens (login, logout, whoami need it). */
  oauth: OAuthStrategy | undefined;
  close(): Promise<void>;
}

export function tokenFilePath(values: OptionValues, env: CommandContext['env']): string {
  const explicit = stringOption(values, 'token-file') ?? env.LIVELOX_TOKEN_FILE;
  if (explicit) return explicit;
  const base = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config');
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
}

const ISSUER_FIELD_TEXT: Record<keyof TokenIssuer, string> = {
  clientId: 'client id',
  authUrl: 'OAuth address',
  baseUrl: 'API address',
  viewerUrl: 'viewer address',
};

/** The issuer a token file remembers; a file that cannot be read says so later, when its tokens are used. */
async function storedIssuer(tokenFile: string): Promise<TokenIssuer | undefined> {
  if (!existsSync(tokenFile)) return undefined;
  try {
    return (await new FileTokenStore(tokenFile).load())?.issuedFor;
  } catch {
    return undefined;
  }
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
    const userKey = stringOption(values, 'api-key') ?? env[ENV.apiKey];
    const key = simulator ? simulator.info.apiKey : userKey;
    const usesLogin = open.auth === 'oauth' || (open.auth === 'any' && !key);
    const tokenFile = usesLogin ? oauthTokenFile(values, env) : undefined;
    // The login remembers where it was made: without a flag or variable naming them, its addresses and client id are
    // used (a login against a simulator keeps talking to that simulator). `login` itself chooses afresh.
    const issuer =
      simulator || open.rememberIssuer === false || tokenFile === undefined ? undefined : await storedIssuer(tokenFile);
    const addresses = {
      baseUrl:
        simulator?.info.baseUrl ??
        stringOption(values, 'base-url') ??
        env[ENV.baseUrl] ??
        issuer?.baseUrl ??
        DEFAULT_BASE_URL,
      authUrl:
        simulator?.info.authUrl ??
        stringOption(values, 'auth-url') ??
        env[ENV.authUrl] ??
        stringOption(values, 'base-url') ??
        env[ENV.baseUrl] ??
        issuer?.authUrl ??
        DEFAULT_AUTH_URL,
      viewerUrl:
        simulator?.info.viewerUrl ??
        stringOption(values, 'viewer-url') ??
        env[ENV.viewerUrl] ??
        issuer?.viewerUrl ??
        DEFAULT_VIEWER_URL,
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
      if (open.auth === 'any' && (tokenFile === undefined || !existsSync(tokenFile))) {
        throw new UsageError(
          `no credentials: give an API key (--api-key or ${ENV.apiKey}), or run \`livelox-bridge login\` first`,
        );
      }
      const clientId =
        simulator?.info.clientId ??
        stringOption(values, 'client-id') ??
        env[ENV.clientId] ??
        issuer?.clientId ??
        DEFAULT_CLIENT_ID;
      for (const d of issuerDifferences(issuer, { clientId, ...addresses })) {
        ctx.io.err(
          `livelox-bridge: the login in ${tokenFile ?? ''} was made for ${ISSUER_FIELD_TEXT[d.field]} ${d.issued}, but this command uses ${d.now}; run \`livelox-bridge login\` again for it.`,
        );
      }
      oauthStrategy = oauth({
        clientId,
        scopes: DEFAULT_SCOPES,
        tokenStore: tokenFile === undefined ? new MemoryTokenStore() : new FileTokenStore(tokenFile),
      });
      auth = oauthStrategy;
    }
    const client = new LiveloxClient({
      auth,
      ...addresses,
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
  const flags = ['api-key', 'base-url', 'auth-url', 'viewer-url', 'client-id']
    .filter((name) => stringOption(values, name) !== undefined)
    .map((name) => `--${name}`);
  const variables = [ENV.apiKey, ENV.baseUrl, ENV.authUrl, ENV.viewerUrl, ENV.clientId].filter((name) => env[name]);
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
