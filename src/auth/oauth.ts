/**
 * User delegation with OAuth 2.0: authorization code with PKCE (contract section 5.2), token refresh before and after
 * expiry, revocation and user info. The strategy owns the tokens; the client only asks it for headers and, after a
 * 401/403 that is not about a scope, whether a retry may help.
 */
import { z } from 'zod';
import type { LiveloxClient } from '../client.js';
import { joinUrl } from '../config.js';
import type { Redactor } from '../core/redact.js';
import { parseRetryAfter } from '../core/retry.js';
import { abortReason } from '../core/sleep.js';
import { headerValue, type TransportResponse } from '../core/transport.js';
import {
  AuthError,
  ConnectionError,
  errorFromResponse,
  HttpError,
  LiveloxError,
  RateLimitError,
  ResponseShapeError,
  ScopeError,
  ServerError,
  TimeoutError,
  ValidationError,
  type Issue,
  type LiveloxErrorOptions,
  type RequestInfo,
} from '../errors.js';
import { createPkce, randomState } from './pkce.js';
import type { AuthContext, AuthFailure, AuthStrategy } from './strategy.js';
import type { OAuthTokens, TokenStore } from './token-store.js';

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

export interface UserInfo {
  sub: string;
  name?: string;
  email?: string;
  [k: string]: unknown;
}

/** What is known about the stored login, without its secrets (for `whoami`). */
export interface TokenInfo {
  expiresAt: number;
  scopes: string[];
  /** A refresh token is held: the login outlives the access token. */
  refreshable: boolean;
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
  authorizationRequest(client: LiveloxClient, redirectUri: string): AuthorizationRequest;
  /** Checks the callback (state, error) and exchanges its code for tokens, which are saved in the store. */
  completeAuthorization(
    client: LiveloxClient,
    request: AuthorizationRequest,
    callbackUrl: string | URL,
    options?: OAuthCallOptions,
  ): Promise<OAuthTokens>;
  /** Renews the access token now with the refresh token; concurrent callers share one request. */
  refresh(client: LiveloxClient, options?: OAuthCallOptions): Promise<OAuthTokens>;
  /** Revokes the refresh and access tokens at the service, then clears the store (also when revocation fails). */
  revoke(client: LiveloxClient, options?: OAuthCallOptions): Promise<void>;
  /** `{authUrl}/oauth2/userinfo` for the logged-in user, refreshing an expired token as API requests do. */
  userinfo(client: LiveloxClient, options?: OAuthCallOptions): Promise<UserInfo>;
  /** True when tokens are stored (whether the service still honours them is only known by asking it). */
  loggedIn(): Promise<boolean>;
  /** Expiry and scopes of the stored tokens, without the tokens; undefined when not logged in. */
  tokenInfo(): Promise<TokenInfo | undefined>;
}

export type LoginRequiredReason = 'not_logged_in' | 'not_refreshable' | 'session_ended';

/**
 * No usable login: no tokens are stored, or the service refused to renew them. It is an AuthError (status 401, the
 * HTTP meaning of "authenticate first") so that one `instanceof AuthError` catches every "log in again", whether the
 * service said it or the strategy knew it without asking.
 */
export class LoginRequiredError extends AuthError {
  readonly reason: LoginRequiredReason;

  constructor(reason: LoginRequiredReason, message: string, options: LiveloxErrorOptions = {}) {
    super('auth', 401, message, '', { hint: 'Run `livelox-bridge login` to log in.', ...options });
    this.reason = reason;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), reason: this.reason };
  }
}

export type AuthorizationFailure = 'access_denied' | 'state_mismatch' | 'missing_code' | 'invalid_callback' | 'refused';

/** The browser came back without a usable authorization: the user refused, the state differs, or the server said no. */
export class AuthorizationError extends LiveloxError {
  readonly reason: AuthorizationFailure;
  /** The OAuth `error` parameter of the callback, when there was one. */
  readonly oauthError: string | undefined;

  constructor(
    reason: AuthorizationFailure,
    message: string,
    options: LiveloxErrorOptions & { oauthError?: string } = {},
  ) {
    super('auth', message, options);
    this.reason = reason;
    this.oauthError = options.oauthError;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), reason: this.reason, ...(this.oauthError ? { oauthError: this.oauthError } : {}) };
  }
}

const expiresInSchema = z.union([
  z.number().nonnegative(),
  // Some servers send it as a string; RFC 6749 says a number, so only plain digits are taken.
  z
    .string()
    .regex(/^\d+$/)
    .transform((s) => Number(s)),
]);

/** RFC 6749 5.1. Unknown fields (id_token, ...) are allowed and ignored. */
const tokenAnswerSchema = z.looseObject({
  access_token: z.string().min(1),
  token_type: z.string(),
  expires_in: expiresInSchema.optional(),
  refresh_token: z.string().min(1).optional(),
  scope: z.string().optional(),
});

const userInfoSchema = z.looseObject({
  sub: z.string().min(1),
  name: z.string().optional(),
  email: z.string().optional(),
});

const TOKEN_INFO: RequestInfo = { method: 'POST', path: '/oauth2/token' };
const REVOKE_INFO: RequestInfo = { method: 'POST', path: '/oauth2/revoke' };
const USERINFO_INFO: RequestInfo = { method: 'GET', path: '/oauth2/userinfo' };

/** One refresh in flight, shared by every caller that needs it; it is cancelled only when all of them gave up. */
interface Flight {
  controller: AbortController;
  waiters: number;
  promise: Promise<OAuthTokens>;
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
  #flight: Flight | undefined;
  /** performance.now() when the last refresh landed (a monotonic clock: this is about request latency, not expiry). */

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
    if (this.#now() >= tokens.expiresAt - this.#skewMs && tokens.refreshToken !== undefined) {
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
    const inFlight = this.#flight !== undefined && !this.#flight.controller.signal.aborted;
    if (!inFlight && sent !== undefined && sent !== tokens.accessToken) return true;
    try {
      await this.#sharedRefresh(ctx);
      return true;
    } catch (err) {
      if (err instanceof LoginRequiredError) return false;
      throw err;
    }
  }

  authorizationRequest(client: LiveloxClient, redirectUri: string): AuthorizationRequest {
    this.#see(client.authContext());
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
    const url = joinUrl(client.addresses.authUrl, '/oauth2/authorize');
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
    client: LiveloxClient,
    request: AuthorizationRequest,
    callbackUrl: string | URL,
    options: OAuthCallOptions = {},
  ): Promise<OAuthTokens> {
    const ctx = client.authContext(options.signal);
    this.#see(ctx);
    this.#secret(request.codeVerifier);
    let callback: URL;
    try {
      callback = typeof callbackUrl === 'string' ? new URL(callbackUrl) : callbackUrl;
    } catch {
      // The text is not quoted: it would carry the code.
      throw new AuthorizationError('invalid_callback', 'The callback address is not a URL.');
    }
    const params = callback.searchParams;
    const code = params.get('code') ?? undefined;
    this.#secret(code);
    // State first (RFC 6749 10.12): an answer that does not belong to this request is not trusted, not even its error.
    if (params.get('state') !== request.state) {
      throw new AuthorizationError(
        'state_mismatch',
        'The authorization answer does not belong to this login (its state differs): it may be forged, or come from an earlier attempt.',
        { hint: 'Start the login again and use the newest address.' },
      );
    }
    const error = params.get('error');
    if (error !== null) {
      const name = /^[\x20-\x7e]{1,64}$/.test(error) ? error : 'unknown_error';
      if (name === 'access_denied') {
        throw new AuthorizationError('access_denied', 'The user refused access on the authorization page.', {
          oauthError: name,
          hint: 'Log in again and approve the access to continue.',
        });
      }
      const description = printable(ctx.redactor.redact(params.get('error_description') ?? ''), 300);
      throw new AuthorizationError(
        'refused',
        `The authorization server refused the request: ${name}${description ? ` (${description})` : ''}.`,
        { oauthError: name },
      );
    }
    if (code === undefined || code === '') {
      throw new AuthorizationError('missing_code', 'The authorization answer carries neither a code nor an error.');
    }
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

  async refresh(client: LiveloxClient, options: OAuthCallOptions = {}): Promise<OAuthTokens> {
    const tokens = await this.#sharedRefresh(client.authContext(options.signal));
    return { ...tokens, scopes: [...tokens.scopes] };
  }

  async revoke(client: LiveloxClient, options: OAuthCallOptions = {}): Promise<void> {
    const ctx = client.authContext(options.signal);
    this.#see(ctx);
    const tokens = await this.#current();
    try {
      // The refresh token first: it is the long-lived one, and revoking it ends its access tokens on most servers.
      if (tokens?.refreshToken !== undefined) await this.#revokeOne(ctx, tokens.refreshToken, 'refresh_token');
      if (tokens) await this.#revokeOne(ctx, tokens.accessToken, 'access_token');
    } finally {
      // Logging out locally must not depend on the service answering.
      await this.#forget();
    }
  }

  async userinfo(client: LiveloxClient, options: OAuthCallOptions = {}): Promise<UserInfo> {
    const ctx = client.authContext(options.signal);
    this.#see(ctx);
    const url = joinUrl(ctx.addresses.authUrl, '/oauth2/userinfo');
    const send = async () => {
      const sentHeaders = await this.headers(ctx);
      const res = await ctx.transport.request({
        method: 'GET',
        url,
        info: USERINFO_INFO,
        headers: { accept: 'application/json', ...sentHeaders },
        signal: options.signal,
      });
      return { res, sentHeaders };
    };
    // The same rule as the client's pipeline: one retry after a renewal, never for a missing scope.
    let { res, sentHeaders } = await send();
    if (res.status === 401 || res.status === 403) {
      const text = res.body.toString('utf8');
      const error = errorFromResponse(res.status, ctx.redactor.redact(text), USERINFO_INFO);
      if (
        !(error instanceof ScopeError) &&
        (await this.recover(ctx, { status: res.status, body: text, sentHeaders }))
      ) {
        ({ res, sentHeaders } = await send());
      }
    }
    if (res.status < 200 || res.status >= 300) throw httpError(ctx, res, USERINFO_INFO);
    const parsed = userInfoSchema.safeParse(parseJson(res, USERINFO_INFO, 'The user info answer'));
    if (!parsed.success) {
      throw new ResponseShapeError('The user info answer does not have the expected shape', shapeIssues(parsed.error), {
        request: USERINFO_INFO,
      });
    }
    // JSON has no undefined values, so the optional fields are absent or strings, as UserInfo says.
    return parsed.data as UserInfo;
  }

  async loggedIn(): Promise<boolean> {
    return (await this.#current()) !== undefined;
  }

  async tokenInfo(): Promise<TokenInfo | undefined> {
    const t = await this.#current();
    return t && { expiresAt: t.expiresAt, scopes: [...t.scopes], refreshable: t.refreshToken !== undefined };
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

  async #forget(): Promise<void> {
    this.#setTokens(undefined);
    await this.#store.clear();
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

  #sharedRefresh(ctx: AuthContext): Promise<OAuthTokens> {
    this.#see(ctx);
    let flight = this.#flight;
    if (!flight || flight.controller.signal.aborted) {
      const controller = new AbortController();
      const promise = this.#refreshNow(ctx, controller.signal);
      const started: Flight = { controller, waiters: 0, promise };
      const landed = () => {
        if (this.#flight === started) this.#flight = undefined;
      };
      // Also handles the rejection: every waiter may have left, and it must not become an unhandled one.
      promise.then(landed, landed);
      this.#flight = flight = started;
    }
    return joinFlight(flight, ctx.signal);
  }

  async #refreshNow(ctx: AuthContext, signal: AbortSignal): Promise<OAuthTokens> {
    const current = await this.#current();
    if (!current) throw notLoggedIn();
    if (current.refreshToken === undefined) {
      throw new LoginRequiredError(
        'not_refreshable',
        'The access token cannot be renewed: no refresh token is stored.',
      );
    }
    let fresh: OAuthTokens;
    try {
      fresh = await this.#tokenRequest(
        ctx,
        { grant_type: 'refresh_token', refresh_token: current.refreshToken, client_id: this.#clientId },
        // Renewing twice is harmless, so network failures are retried.
        { idempotent: true, signal, previous: current },
      );
    } catch (err) {
      if (oauthErrorOf(err) === 'invalid_grant') {
        // Revoked (logout elsewhere, account settings) or never valid: only a new login helps, and keeping the dead
        // tokens would only repeat this failure. A login completed meanwhile is left alone.
        if (this.#tokens?.refreshToken === current.refreshToken) await this.#forget();
        throw new LoginRequiredError(
          'session_ended',
          'The login has ended: the service refused to renew it (the access was revoked or has expired).',
          { cause: err },
        );
      }
      throw err;
    }
    this.#setTokens(fresh);
    await this.#store.save(fresh);
    return fresh;
  }

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
    const res = await ctx.transport.request({
      method: 'POST',
      url: joinUrl(ctx.addresses.authUrl, '/oauth2/token'),
      info: TOKEN_INFO,
      headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
      idempotent: options.idempotent ?? false,
      ...(options.noRetry ? { noRetry: true } : {}),
      signal: options.signal,
    });
    if (res.status < 200 || res.status >= 300) throw httpError(ctx, res, TOKEN_INFO);
    const value = parseJson(res, TOKEN_INFO, 'The token answer');
    if (typeof value === 'object' && value !== null) {
      const v = value as Record<string, unknown>;
      for (const key of ['access_token', 'refresh_token', 'id_token']) {
        if (typeof v[key] === 'string') this.#secret(v[key]);
      }
    }
    const parsed = tokenAnswerSchema.safeParse(value);
    if (!parsed.success) {
      throw new ResponseShapeError('The token answer does not have the expected shape', shapeIssues(parsed.error), {
        request: TOKEN_INFO,
      });
    }
    const t = parsed.data;
    if (t.token_type.toLowerCase() !== 'bearer') {
      throw new ResponseShapeError(`The token answer has token_type '${printable(t.token_type, 40)}', not Bearer`, [], {
        request: TOKEN_INFO,
      });
    }
    // RFC 6749 6: a refresh answer may leave out the refresh token (keep the old one) and the scope (unchanged).
    const refreshToken = t.refresh_token ?? options.previous?.refreshToken;
    const scopes =
      t.scope !== undefined
        ? t.scope.split(' ').filter(Boolean)
        : [...(options.previous?.scopes ?? options.requestedScopes ?? this.#scopes)];
    return {
      accessToken: t.access_token,
      ...(refreshToken === undefined ? {} : { refreshToken }),
      expiresAt: this.#now() + (t.expires_in ?? CONTRACT_ACCESS_TOKEN_LIFETIME_S) * 1000,
      scopes,
    };
  }

  async #revokeOne(ctx: AuthContext, token: string, hint: 'refresh_token' | 'access_token'): Promise<void> {
    const res = await ctx.transport.request({
      method: 'POST',
      url: joinUrl(ctx.addresses.authUrl, '/oauth2/revoke'),
      info: REVOKE_INFO,
      headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token, token_type_hint: hint, client_id: this.#clientId }).toString(),
      // RFC 7009: revoking a revoked or unknown token succeeds, so repeating the request is safe.
      idempotent: true,
      signal: ctx.signal,
    });
    if (res.status >= 200 && res.status < 300) return;
    const error = httpError(ctx, res, REVOKE_INFO);
    // Servers may revoke refresh tokens only (RFC 7009 2.2.1); the access token then simply expires.
    if (hint === 'access_token' && oauthErrorOf(error) === 'unsupported_token_type') return;
    throw error;
  }
}

function notLoggedIn(): LoginRequiredError {
  return new LoginRequiredError('not_logged_in', 'Not logged in: no OAuth tokens are stored.');
}

function joinFlight(flight: Flight, signal: AbortSignal | undefined): Promise<OAuthTokens> {
  if (signal?.aborted) return Promise.reject(abortError(signal));
  flight.waiters++;
  return new Promise<OAuthTokens>((resolve, reject) => {
    let left = false;
    const leave = (): boolean => {
      if (left) return false;
      left = true;
      flight.waiters--;
      signal?.removeEventListener('abort', onAbort);
      return true;
    };
    const onAbort = () => {
      if (!leave()) return;
      // The shared request is cancelled only when nobody waits for it any more.
      if (flight.waiters === 0) flight.controller.abort(abortReason(signal!));
      reject(abortError(signal!));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    flight.promise.then(
      (tokens) => {
        if (leave()) resolve(tokens);
      },
      (err: unknown) => {
        if (leave()) reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}

function abortError(signal: AbortSignal): Error {
  const reason = abortReason(signal);
  return reason instanceof Error ? reason : new Error(String(reason));
}

/** The typed error for an unsuccessful answer, from its redacted body (OAuth's `error_description` is the message). */
function httpError(ctx: AuthContext, res: TransportResponse, info: RequestInfo): HttpError {
  return errorFromResponse(
    res.status,
    ctx.redactor.redact(res.body.toString('utf8').slice(0, 4000)),
    info,
    parseRetryAfter(headerValue(res.headers['retry-after'])),
  );
}

/** The OAuth `error` code (RFC 6749 5.2) of a failed token or revocation request. */
function oauthErrorOf(err: unknown): string | undefined {
  if (!(err instanceof HttpError)) return undefined;
  try {
    const value = JSON.parse(err.body) as unknown;
    const code = typeof value === 'object' && value !== null ? (value as Record<string, unknown>).error : undefined;
    return typeof code === 'string' ? code : undefined;
  } catch {
    return undefined;
  }
}

function parseJson(res: TransportResponse, info: RequestInfo, what: string): unknown {
  try {
    return JSON.parse(res.body.toString('utf8'));
  } catch {
    // No cause: V8's message quotes the text, which may hold a token.
    throw new ResponseShapeError(`${what} is not JSON`, [], { request: info });
  }
}

/** zod issues without their messages' values: a refused field may be a token. */
function shapeIssues(error: z.ZodError): Issue[] {
  return error.issues.slice(0, 10).map((i) => ({
    path: i.path.map(String).join('.'),
    code: i.code,
    message: 'missing or of the wrong type',
  }));
}

function isTransient(err: unknown): boolean {
  return (
    err instanceof ConnectionError ||
    err instanceof TimeoutError ||
    err instanceof ServerError ||
    err instanceof RateLimitError
  );
}

/** Text from the other side, made safe for one line of a message: no control characters, bounded length. */
function printable(text: string, max: number): string {
  // eslint-disable-next-line no-control-regex -- removing control characters is the point
  const clean = text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();
  return clean.length > max ? `${clean.slice(0, max)}…` : clean;
}
