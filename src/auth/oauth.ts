/**
 * User delegation with OAuth 2.0: authorization code with PKCE (contract section 5.2), token refresh before and after
 * expiry, revocation and user info. The strategy owns the tokens; the client only asks it for headers and, after a
 * 401/403 that is not about a scope, whether a retry may help. This file is the flow and the tokens' lifecycle (when to
 * renew, what to keep, one refresh at a time); the requests themselves and the reading of their answers are in
 * `oauth-wire.ts`. It sees an `AuthContextSource`, never the client. A little over 400 lines: the flow and the
 * lifecycle of its tokens (including the issuer they remember) are one job, and splitting them would expose the
 * tokens' internals between files.
 */
import { joinUrl } from '../config.js';
import type { Redactor } from '../core/redact.js';
import { SingleFlight } from '../core/single-flight.js';
import {
  ConnectionError,
  LoginRequiredError,
  RateLimitError,
  ServerError,
  TimeoutError,
  ValidationError,
  type Issue,
} from '../errors.js';
import { callbackCode, oauthErrorOf, requestToken, requestUserInfo, revokeToken, type UserInfo } from './oauth-wire.js';
import { createPkce, randomState } from './pkce.js';
import type { AuthContext, AuthContextSource, AuthFailure, AuthStrategy } from './strategy.js';
import {
  copyIssuer,
  type LockedTokenStore,
  type OAuthTokens,
  type TokenIssuer,
  type TokenStore,
} from './token-store.js';

/** Default margin before expiry at which tokens are renewed: long enough for a slow request to still carry a valid one. */
export const DEFAULT_REFRESH_SKEW_MS = 5 * 60_000;
/** The contract's access token lifetime (section 5.2), used when a token answer leaves out `expires_in`. */
const CONTRACT_ACCESS_TOKEN_LIFETIME_S = 24 * 3600;

export interface OAuthOptions {
  /** The application's registered client id. */
  clientId: string;
  /** Scopes to ask for, such as `routes.import`. */
  scopes: string[];
  /** Where tokens are kept between runs. */
  tokenStore: TokenStore;
  /** Refresh this long before expiry. Default 5 minutes. */
  refreshSkewMs?: number;
  /** Clock for expiry decisions (tests tie it to the simulator's clock). Default Date.now. */
  now?: () => number;
}

export interface AuthorizationRequest {
  /** Where to send the user's browser. */
  url: URL;
  /** Must come back unchanged in the callback. */
  state: string;
  /** The PKCE secret: keep it in this process, never log it. */
  codeVerifier: string;
  redirectUri: string;
}

/** What is known about the stored login, without its secrets (for `whoami`). */
export interface TokenInfo {
  expiresAt: number;
  scopes: string[];
  /** A refresh token is held: the login outlives the access token. */
  refreshable: boolean;
  /** The client id and addresses the tokens were issued for; absent for a token file written before they were kept. */
  issuedFor?: TokenIssuer;
}

/** Every async method takes an optional signal (STYLE.md #8). */
export interface OAuthCallOptions {
  signal?: AbortSignal | undefined;
}

export interface OAuthStrategy extends AuthStrategy {
  readonly kind: 'oauth';
  /**
   * A fresh PKCE pair and state, and the address of `{authUrl}/oauth2/authorize` to open in the user's browser. The
   * service redirects the browser to `redirectUri` with a code (or an error) and the state.
   */
  authorizationRequest(source: AuthContextSource, redirectUri: string): AuthorizationRequest;
  /** Checks the callback (state, error) and exchanges its code for tokens, which are saved in the store. */
  completeAuthorization(
    source: AuthContextSource,
    request: AuthorizationRequest,
    callbackUrl: string | URL,
    options?: OAuthCallOptions,
  ): Promise<OAuthTokens>;
  /** Renews the access token now with the refresh token; concurrent callers share one request. */
  refresh(source: AuthContextSource, options?: OAuthCallOptions): Promise<OAuthTokens>;
  /** Revokes the refresh and access tokens at the service, then clears the store (also when revocation fails). */
  revoke(source: AuthContextSource, options?: OAuthCallOptions): Promise<void>;
  /** `{authUrl}/oauth2/userinfo` for the logged-in user, refreshing an expired token as API requests do. */
  userinfo(source: AuthContextSource, options?: OAuthCallOptions): Promise<UserInfo>;
  /** True when tokens are stored (whether the service still honours them is only known by asking it). */
  loggedIn(): Promise<boolean>;
  /** Expiry and scopes of the stored tokens, without the tokens; undefined when not logged in. */
  tokenInfo(): Promise<TokenInfo | undefined>;
}

export function oauth(options: OAuthOptions): OAuthStrategy {
  const issues: Issue[] = [];
  if (typeof options.clientId !== 'string' || options.clientId.trim() === '') {
    issues.push({ path: 'clientId', code: 'required', message: 'give the OAuth client id' });
  }
  if (
    !Array.isArray(options.scopes) ||
    options.scopes.some((s) => typeof s !== 'string' || !/^[\x21-\x7e]+$/.test(s))
  ) {
    issues.push({ path: 'scopes', code: 'format', message: 'scopes are non-empty strings without spaces' });
  }
  const skew = options.refreshSkewMs ?? DEFAULT_REFRESH_SKEW_MS;
  if (!Number.isFinite(skew) || skew < 0) {
    issues.push({ path: 'refreshSkewMs', code: 'range', message: 'must be a non-negative number of ms' });
  }
  if (issues.length > 0) throw new ValidationError('OAuth options', issues);
  return new OAuthFlow(options, skew);
}

class OAuthFlow implements OAuthStrategy {
  readonly kind = 'oauth' as const;
  // A route posted with a user token is the user's own; the contract honours `person` only with an API key.
  readonly honoursPerson = false;
  readonly #clientId: string;
  readonly #scopes: readonly string[];
  readonly #store: TokenStore;
  readonly #skewMs: number;
  readonly #now: () => number;
  /** Every redactor of a client this strategy has served, and every secret it has held, so that late comers learn all. */
  readonly #redactors = new Set<Redactor>();
  readonly #secrets = new Set<string>();
  #tokens: OAuthTokens | undefined;
  #loaded = false;
  #loading: Promise<OAuthTokens | undefined> | undefined;
  readonly #refreshes = new SingleFlight<OAuthTokens>();

  constructor(options: OAuthOptions, skewMs: number) {
    this.#clientId = options.clientId.trim();
    this.#scopes = [...options.scopes];
    this.#store = options.tokenStore;
    this.#skewMs = skewMs;
    this.#now = options.now ?? Date.now;
  }

  attach(ctx: AuthContext): void {
    this.#see(ctx);
  }

  async headers(ctx: AuthContext): Promise<Record<string, string>> {
    this.#see(ctx);
    const tokens = await this.#current();
    if (!tokens) throw notLoggedIn();
    let use = tokens;
    if (this.#expiring(tokens) && tokens.refreshToken !== undefined) {
      try {
        use = await this.#sharedRefresh(ctx);
      } catch (err) {
        // The skew is a margin, not the expiry: when renewal fails for a passing reason (network, 5xx) and the token
        // has not expired yet, the request goes out with it rather than failing.
        if (!(isTransient(err) && this.#now() < tokens.expiresAt)) throw err;
      }
    }
    // Without a refresh token an expiring token is sent anyway: the service decides, and a 401 says "log in".
    return { Authorization: `Bearer ${use.accessToken}` };
  }

  async recover(ctx: AuthContext, failure: AuthFailure): Promise<boolean> {
    const { status } = failure;
    // Observed, not published: the real service answers an expired access token with 401 or with 403 (the contract
    // does not say), so both may mean "renew". The client has already ruled out a missing scope, which no refresh
    // cures. A 403 for a revoked token ends in invalid_grant below and a cleared store: that is the right outcome too.
    if (status !== 401 && status !== 403) return false;
    this.#see(ctx);
    const tokens = await this.#current();
    if (tokens?.refreshToken === undefined) return false;
    // A request sent with a token that has since been replaced (another caller refreshed while it was in flight) is
    // simply sent again with the current one: no second refresh.
    const sent = /^Bearer\s+(\S+)$/i.exec(failure.sentHeaders.Authorization ?? '')?.[1];
    if (!this.#refreshes.active && sent !== undefined && sent !== tokens.accessToken) return true;
    // A refused renewal throws its LoginRequiredError ("the login has ended"): the 401 it follows would only say
    // "not authorized", and point at an API key this caller does not use.
    await this.#sharedRefresh(ctx);
    return true;
  }

  authorizationRequest(source: AuthContextSource, redirectUri: string): AuthorizationRequest {
    const ctx = source.authContext();
    this.#see(ctx);
    let redirect: URL;
    try {
      redirect = new URL(redirectUri);
    } catch {
      throw new ValidationError('Authorization request', [
        {
          path: 'redirectUri',
          code: 'format',
          message: 'must be an absolute URL, such as http://127.0.0.1:PORT/callback',
        },
      ]);
    }
    if (redirect.hash) {
      throw new ValidationError('Authorization request', [
        { path: 'redirectUri', code: 'format', message: 'must not have a fragment (RFC 6749 3.1.2)' },
      ]);
    }
    const pkce = createPkce();
    const state = randomState();
    this.#secret(pkce.verifier);
    const url = joinUrl(ctx.addresses.authUrl, '/oauth2/authorize');
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: this.#clientId,
      // Verbatim: the token request must repeat exactly this string.
      redirect_uri: redirectUri,
      scope: this.#scopes.join(' '),
      state,
      code_challenge: pkce.challenge,
      code_challenge_method: pkce.method,
    }).toString();
    return { url, state, codeVerifier: pkce.verifier, redirectUri };
  }

  async completeAuthorization(
    source: AuthContextSource,
    request: AuthorizationRequest,
    callbackUrl: string | URL,
    options: OAuthCallOptions = {},
  ): Promise<OAuthTokens> {
    const ctx = source.authContext(options.signal);
    this.#see(ctx);
    this.#secret(request.codeVerifier);
    const code = callbackCode(request.state, callbackUrl, ctx.redactor, (secret) => this.#secret(secret));
    const tokens = await this.#tokenRequest(
      ctx,
      {
        grant_type: 'authorization_code',
        code,
        redirect_uri: request.redirectUri,
        client_id: this.#clientId,
        code_verifier: request.codeVerifier,
      },
      // A code is single-use: a retried exchange would be refused, and the server may revoke what the first gave.
      { noRetry: true, signal: options.signal, requestedScopes: this.#scopes },
    );
    this.#setTokens(tokens);
    await this.#store.save(tokens);
    return { ...tokens, scopes: [...tokens.scopes] };
  }

  async refresh(source: AuthContextSource, options: OAuthCallOptions = {}): Promise<OAuthTokens> {
    const tokens = await this.#sharedRefresh(source.authContext(options.signal), { force: true });
    return { ...tokens, scopes: [...tokens.scopes] };
  }

  async revoke(source: AuthContextSource, options: OAuthCallOptions = {}): Promise<void> {
    const ctx = source.authContext(options.signal);
    this.#see(ctx);
    const tokens = await this.#current();
    try {
      // The refresh token first: it is the long-lived one, and revoking it ends its access tokens on most servers.
      const refreshToken = tokens?.refreshToken;
      if (refreshToken !== undefined) await revokeToken(ctx, this.#clientId, refreshToken, 'refresh_token');
      if (tokens) await revokeToken(ctx, this.#clientId, tokens.accessToken, 'access_token');
    } finally {
      // Logging out locally must not depend on the service answering; a login written since (another process) stays.
      if (tokens) await this.#forget(tokens, options.signal);
    }
  }

  async userinfo(source: AuthContextSource, options: OAuthCallOptions = {}): Promise<UserInfo> {
    const ctx = source.authContext(options.signal);
    this.#see(ctx);
    // The same rule as the client's pipeline: one retry after a renewal, never for a missing scope.
    return requestUserInfo(ctx, this, options.signal);
  }

  async loggedIn(): Promise<boolean> {
    return (await this.#current()) !== undefined;
  }

  async tokenInfo(): Promise<TokenInfo | undefined> {
    const t = await this.#current();
    if (!t) return undefined;
    const info: TokenInfo = {
      expiresAt: t.expiresAt,
      scopes: [...t.scopes],
      refreshable: t.refreshToken !== undefined,
    };
    if (t.issuedFor !== undefined) info.issuedFor = copyIssuer(t.issuedFor);
    return info;
  }

  // ---- internals

  /** The tokens, loaded from the store once and then kept in memory (the store is read again only after a failure). */
  async #current(): Promise<OAuthTokens | undefined> {
    if (this.#loaded) return this.#tokens;
    this.#loading ??= this.#store
      .load()
      .then((loaded) => {
        // A login completed while the store was being read wins over what was read.
        if (!this.#loaded) this.#setTokens(loaded);
        return this.#tokens;
      })
      .finally(() => {
        this.#loading = undefined;
      });
    return this.#loading;
  }

  #setTokens(tokens: OAuthTokens | undefined): void {
    this.#tokens = tokens;
    this.#loaded = true;
    this.#secret(tokens?.accessToken);
    this.#secret(tokens?.refreshToken);
  }

  /**
   * Forgets `dead` in memory and removes it from the store, only if the store still holds it: tokens another process
   * wrote meanwhile (a new login, a renewal) are someone's live login and stay.
   */
  async #forget(dead: OAuthTokens, signal: AbortSignal | undefined): Promise<void> {
    if (sameLogin(this.#tokens, dead)) this.#setTokens(undefined);
    await this.#exclusive(signal, async (store) => {
      if (sameLogin(await loadOrUndefined(store), dead)) await store.clear();
    });
  }

  /** `work` under the store's lock, when it has one (`TokenStore.exclusive`); otherwise simply run. */
  #exclusive<T>(signal: AbortSignal | undefined, work: (store: LockedTokenStore) => Promise<T>): Promise<T> {
    const store = this.#store;
    return store.exclusive ? store.exclusive(work, { signal }) : work(store);
  }

  #see(ctx: AuthContext): void {
    if (this.#redactors.has(ctx.redactor)) return;
    this.#redactors.add(ctx.redactor);
    for (const s of this.#secrets) ctx.redactor.add(s);
  }

  /** Registers a secret the moment it is held, before anything could quote it. */
  #secret(value: string | undefined): void {
    if (!value) return;
    this.#secrets.add(value);
    for (const r of this.#redactors) r.add(value);
  }

  #sharedRefresh(ctx: AuthContext, options: { force?: boolean } = {}): Promise<OAuthTokens> {
    this.#see(ctx);
    return this.#refreshes.run((signal) => this.#refreshNow(ctx, signal, options.force ?? false), ctx.signal);
  }

  /**
   * Renews the tokens under the store's lock, so that processes sharing a token file take turns: each reads the file
   * first, and one that finds tokens another has renewed meanwhile uses them instead of renewing the same refresh
   * token again (a server that rotates refresh tokens would refuse that, and may end the login for both). `force`
   * (an explicit `refresh()`) renews even then.
   */
  async #refreshNow(ctx: AuthContext, signal: AbortSignal, force: boolean): Promise<OAuthTokens> {
    const read = await this.#current();
    if (!read) throw notLoggedIn();
    return this.#exclusive(signal, async (store) => {
      const current = await this.#adoptStored(store, read);
      if (current !== read && !force && !this.#expiring(current)) return current;
      try {
        return await this.#renew(ctx, signal, store, current);
      } catch (err) {
        if (oauthErrorOf(err) !== 'invalid_grant') throw err;
        // Refused: revoked, or replaced by a process or tool that wrote the file without taking the lock (an older
        // version, a copy). The tokens now stored are tried once when they differ from the ones sent.
        const now = await this.#adoptStored(store, current, err);
        if (now === current) throw await this.#sessionEnded(store, current, err);
        if (!this.#expiring(now)) return now;
        try {
          return await this.#renew(ctx, signal, store, now);
        } catch (again) {
          if (oauthErrorOf(again) !== 'invalid_grant') throw again;
          throw await this.#sessionEnded(store, now, again);
        }
      }
    });
  }

  /**
   * The tokens stored now, taken as this process's own when they differ from `read` (another process renewed them, or
   * logged in again); `read` itself when they do not. Stored tokens removed meanwhile (a logout elsewhere) end the
   * login here too.
   */
  async #adoptStored(store: LockedTokenStore, read: OAuthTokens, cause?: unknown): Promise<OAuthTokens> {
    const stored = await store.load();
    if (sameLogin(stored, read)) return read;
    if (stored === undefined) {
      if (sameLogin(this.#tokens, read)) this.#setTokens(undefined);
      throw new LoginRequiredError(
        'session_ended',
        'The login has ended: its tokens were removed meanwhile (a logout in another process).',
        cause === undefined ? {} : { cause },
      );
    }
    this.#setTokens(stored);
    return stored;
  }

  /** A refresh grant for `current`, the answer saved over `current` (and only over it) and kept. */
  async #renew(
    ctx: AuthContext,
    signal: AbortSignal,
    store: LockedTokenStore,
    current: OAuthTokens,
  ): Promise<OAuthTokens> {
    if (current.refreshToken === undefined) {
      throw new LoginRequiredError(
        'not_refreshable',
        'The access token cannot be renewed: no refresh token is stored.',
      );
    }
    const fresh = await this.#tokenRequest(
      ctx,
      { grant_type: 'refresh_token', refresh_token: current.refreshToken, client_id: this.#clientId },
      // Renewing twice is harmless, so network failures are retried.
      { idempotent: true, signal, previous: current },
    );
    this.#setTokens(fresh);
    // Under the lock nobody who takes it has changed the file; one who does not take it may have (a copy): then the
    // file is theirs, and the fresh tokens serve this process only.
    if (sameLogin(await store.load(), current)) await store.save(fresh);
    return fresh;
  }

  /**
   * The refusal of a refresh grant for `dead`: the login has ended (revoked, or expired), and only a new login helps.
   * The store is cleared only while it still holds `dead`: a login written meanwhile is left alone.
   */
  async #sessionEnded(store: LockedTokenStore, dead: OAuthTokens, cause: unknown): Promise<LoginRequiredError> {
    if (sameLogin(this.#tokens, dead)) this.#setTokens(undefined);
    if (sameLogin(await loadOrUndefined(store), dead)) await store.clear();
    return new LoginRequiredError(
      'session_ended',
      'The login has ended: the service refused to renew it (the access was revoked or has expired).',
      { cause },
    );
  }

  #expiring(tokens: OAuthTokens): boolean {
    return this.#now() >= tokens.expiresAt - this.#skewMs;
  }

  /** A token grant, its answer read as the tokens to keep. */
  async #tokenRequest(
    ctx: AuthContext,
    form: Record<string, string>,
    options: {
      noRetry?: boolean;
      idempotent?: boolean;
      signal: AbortSignal | undefined;
      previous?: OAuthTokens;
      requestedScopes?: readonly string[];
    },
  ): Promise<OAuthTokens> {
    const t = await requestToken(ctx, form, {
      ...(options.noRetry ? { noRetry: true } : {}),
      ...(options.idempotent ? { idempotent: true } : {}),
      signal: options.signal,
      onSecret: (secret) => this.#secret(secret),
    });
    // RFC 6749 6: a refresh answer may leave out the refresh token (keep the old one) and the scope (unchanged).
    const refreshToken = t.refresh_token ?? options.previous?.refreshToken;
    const scopes =
      t.scope !== undefined
        ? t.scope.split(' ').filter(Boolean)
        : [...(options.previous?.scopes ?? options.requestedScopes ?? this.#scopes)];
    // A login records where it happened; a refresh keeps that record, or (a token file from before it was kept)
    // records the client and server that have just honoured the refresh token.
    const { baseUrl, authUrl, viewerUrl } = ctx.addresses;
    const issuedFor = options.previous?.issuedFor ?? { clientId: this.#clientId, authUrl, baseUrl, viewerUrl };
    return {
      accessToken: t.access_token,
      ...(refreshToken === undefined ? {} : { refreshToken }),
      expiresAt: this.#now() + (t.expires_in ?? CONTRACT_ACCESS_TOKEN_LIFETIME_S) * 1000,
      scopes,
      issuedFor: copyIssuer(issuedFor),
    };
  }
}

/** Whether two sets of tokens are one login at one moment: the same access and refresh tokens (or both none). */
function sameLogin(a: OAuthTokens | undefined, b: OAuthTokens | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.accessToken === b.accessToken && a.refreshToken === b.refreshToken;
}

/** What a store holds, or undefined when it cannot be read now (a file that is no longer a token file is not ours). */
async function loadOrUndefined(store: LockedTokenStore): Promise<OAuthTokens | undefined> {
  try {
    return await store.load();
  } catch {
    return undefined;
  }
}

function notLoggedIn(): LoginRequiredError {
  return new LoginRequiredError('not_logged_in', 'Not logged in: no OAuth tokens are stored.');
}

function isTransient(err: unknown): boolean {
  return (
    err instanceof ConnectionError ||
    err instanceof TimeoutError ||
    err instanceof ServerError ||
    err instanceof RateLimitError
  );
}
