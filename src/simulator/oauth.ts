/**
 * OAuth 2.0 authorization code + PKCE (S256) as the contract describes (section 5.2): codes live 10 minutes and are
 * single-use, access tokens 24 hours of the simulator's clock, refresh tokens forever. The consent page is skipped:
 * a simulated user approves (or, when told to, refuses) at once and the browser is redirected. With
 * `refreshTokenRotation` on, each refresh answers a new refresh token and ends the one sent (OAuth 2.1 section 4.3.1),
 * so that clients sharing a token file can be tested against a server that rotates.
 */
import { createHash } from 'node:crypto';
import { DEFAULT_CLIENT_ID } from '../config.js';
import { ALL_SCOPES, randomToken, type OAuthClient, type SimState, type TokenRecord } from './state.js';
import type { SimRequest, SimResponse } from './http.js';
import { escapeHtml, html, json } from './http.js';
import { authenticate, type AuthSettings } from './auth.js';

/**
 * livelox-bridge's own client id: what `login` sends when given none. The simulator accepts it beside the client it was
 * started with (`SimulatorInfo.clientId`, default `livelox-bridge-sim`), as the same kind of registration (loopback
 * redirects on any port), so that `login --auth-url <simulator>` works without the user having to find the simulator's
 * client id first. Both stay distinct clients: a token issued to one cannot be refreshed or revoked by the other.
 */
export const BUILT_IN_CLIENT_ID = DEFAULT_CLIENT_ID;

/** The registered client with this id, or the built-in one. */
export function findClient(state: SimState, clientId: string): OAuthClient | undefined {
  const registered = state.clients.get(clientId);
  if (registered !== undefined || clientId !== BUILT_IN_CLIENT_ID) return registered;
  return { clientId, name: 'livelox-bridge (built-in registration)', allowLoopbackRedirect: true, redirectUris: [] };
}

export const CODE_LIFETIME_MS = 10 * 60_000;
export const ACCESS_TOKEN_LIFETIME_MS = 24 * 3600_000;
const PKCE_VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
const KNOWN_SCOPES = new Set<string>([...ALL_SCOPES, 'openid', 'profile', 'email']);

/** An OAuth endpoint below {auth_url}: the table requests are dispatched by and the OpenAPI document is checked against. */
export interface OAuthRoute {
  method: string;
  path: string;
  handle: (req: SimRequest, state: SimState, auth: AuthSettings) => SimResponse;
}

export const OAUTH_ROUTES: readonly OAuthRoute[] = [
  { method: 'GET', path: '/oauth2/authorize', handle: (req, state) => authorize(req, state) },
  { method: 'POST', path: '/oauth2/token', handle: (req, state) => token(req, state) },
  { method: 'POST', path: '/oauth2/revoke', handle: (req, state) => revoke(req, state) },
  { method: 'GET', path: '/oauth2/userinfo', handle: userinfo },
  { method: 'POST', path: '/oauth2/userinfo', handle: userinfo },
];

export function handleOAuth(req: SimRequest, state: SimState, auth: AuthSettings): SimResponse | undefined {
  const path = req.path.replace(/\/$/, '');
  return OAUTH_ROUTES.find((r) => r.method === req.method && r.path === path)?.handle(req, state, auth);
}

function isLoopbackRedirect(uri: URL): boolean {
  return uri.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(uri.hostname);
}

function authorize(req: SimRequest, state: SimState): SimResponse {
  const p = req.url.searchParams;
  const client = findClient(state, p.get('client_id') ?? '');
  // Without a known client and a registered redirect URI the user must not be sent anywhere (RFC 6749 4.1.2.1).
  if (!client) return errorPage(`Unknown client_id '${p.get('client_id') ?? ''}'.`);
  const redirectRaw = p.get('redirect_uri');
  let redirect: URL;
  try {
    redirect = new URL(redirectRaw ?? '');
  } catch {
    return errorPage('redirect_uri is missing or not an absolute URL.');
  }
  const registered =
    client.redirectUris.includes(redirect.href) || (client.allowLoopbackRedirect && isLoopbackRedirect(redirect));
  if (!registered) return errorPage(`redirect_uri '${redirect.href}' is not registered for this client.`);

  const stateParam = p.get('state');
  const back = (params: Record<string, string>): SimResponse => {
    const target = new URL(redirect.href);
    for (const [k, v] of Object.entries(params)) target.searchParams.set(k, v);
    if (stateParam !== null) target.searchParams.set('state', stateParam);
    return { status: 302, headers: { location: target.href, 'cache-control': 'no-store' } };
  };
  if (p.get('response_type') !== 'code') {
    return back({ error: 'unsupported_response_type', error_description: 'response_type must be code' });
  }
  const challenge = p.get('code_challenge');
  if (!challenge || !/^[A-Za-z0-9\-_]{43}$/.test(challenge)) {
    return back({ error: 'invalid_request', error_description: 'code_challenge (PKCE, S256) is required' });
  }
  if (p.get('code_challenge_method') !== 'S256') {
    return back({ error: 'invalid_request', error_description: 'code_challenge_method must be S256' });
  }
  const scopes = (p.get('scope') ?? '').split(' ').filter(Boolean);
  const unknown = scopes.filter((s) => !KNOWN_SCOPES.has(s));
  if (unknown.length > 0)
    return back({ error: 'invalid_scope', error_description: `unknown scope: ${unknown.join(' ')}` });
  if (state.oauthDecision === 'deny') {
    return back({ error: 'access_denied', error_description: 'The user refused access.' });
  }
  const user =
    (state.signedInUserId === undefined ? undefined : state.users.get(state.signedInUserId)) ??
    state.users.values().next().value!;
  const code = randomToken();
  state.codes.set(code, {
    code,
    clientId: client.clientId,
    redirectUri: redirect.href,
    scopes,
    codeChallenge: challenge,
    userId: user.id,
    expiresMs: state.clock.now() + CODE_LIFETIME_MS,
    used: false,
  });
  return back({ code });
}

function formBody(req: SimRequest): URLSearchParams | undefined {
  const type = String(req.headers['content-type'] ?? '');
  if (!type.toLowerCase().startsWith('application/x-www-form-urlencoded')) return undefined;
  return new URLSearchParams(req.body.toString('utf8'));
}

function oauthError(status: number, error: string, description: string): SimResponse {
  return json(status, { error, error_description: description }, { 'cache-control': 'no-store' });
}

/**
 * A new access token, with a new refresh token unless an existing one is being used (a refresh without rotation).
 */
function issueTokens(
  state: SimState,
  clientId: string,
  userId: string,
  scopes: string[],
  refreshToken?: string,
): { response: SimResponse; refreshToken: string } {
  const now = state.clock.now();
  const refresh = refreshToken ?? randomToken();
  if (!refreshToken) {
    state.tokens.set(refresh, {
      token: refresh,
      kind: 'refresh',
      clientId,
      userId,
      scopes,
      expiresMs: undefined,
      revoked: false,
    });
  }
  const access: TokenRecord = {
    token: randomToken(),
    kind: 'access',
    clientId,
    userId,
    scopes,
    expiresMs: now + ACCESS_TOKEN_LIFETIME_MS,
    revoked: false,
    refreshToken: refresh,
  };
  state.tokens.set(access.token, access);
  const response = json(
    200,
    {
      access_token: access.token,
      token_type: 'Bearer',
      expires_in: ACCESS_TOKEN_LIFETIME_MS / 1000,
      refresh_token: refresh,
      scope: scopes.join(' '),
    },
    { 'cache-control': 'no-store', pragma: 'no-cache' },
  );
  return { response, refreshToken: refresh };
}

function token(req: SimRequest, state: SimState): SimResponse {
  const form = formBody(req);
  if (!form) return oauthError(400, 'invalid_request', 'the body must be application/x-www-form-urlencoded');
  const clientId = form.get('client_id') ?? '';
  if (!findClient(state, clientId)) return oauthError(401, 'invalid_client', `unknown client_id '${clientId}'`);
  const grant = form.get('grant_type');
  if (grant === 'authorization_code') {
    const code = state.codes.get(form.get('code') ?? '');
    if (!code || code.clientId !== clientId)
      return oauthError(400, 'invalid_grant', 'the authorization code is not valid');
    if (code.used) {
      // A replayed code may be a stolen one: end what it gave (RFC 6749 4.1.2).
      if (code.refreshToken) state.revoke(code.refreshToken);
      return oauthError(400, 'invalid_grant', 'the authorization code has already been used');
    }
    code.used = true;
    if (state.clock.now() >= code.expiresMs)
      return oauthError(400, 'invalid_grant', 'the authorization code has expired');
    if (form.get('redirect_uri') !== code.redirectUri) {
      return oauthError(400, 'invalid_grant', 'redirect_uri does not match the one of the authorization request');
    }
    const verifier = form.get('code_verifier') ?? '';
    if (!PKCE_VERIFIER.test(verifier)) {
      return oauthError(400, 'invalid_request', 'code_verifier must be 43-128 characters of [A-Za-z0-9-._~]');
    }
    if (createHash('sha256').update(verifier).digest('base64url') !== code.codeChallenge) {
      return oauthError(400, 'invalid_grant', 'code_verifier does not match the code_challenge');
    }
    const issued = issueTokens(state, clientId, code.userId, code.scopes);
    code.refreshToken = issued.refreshToken;
    return issued.response;
  }
  if (grant === 'refresh_token') return refreshGrant(form, state, clientId);
  return oauthError(400, 'unsupported_grant_type', `grant_type '${grant ?? ''}' is not supported`);
}

function refreshGrant(form: URLSearchParams, state: SimState, clientId: string): SimResponse {
  const refresh = state.tokens.get(form.get('refresh_token') ?? '');
  if (refresh?.rotated === true && refresh.clientId === clientId) {
    // Said apart from an unknown token, for whoever reads the simulator's answers: the client's own file may hold
    // the newer one (another process renewed first).
    return oauthError(400, 'invalid_grant', 'the refresh token has been replaced by a newer one (rotation)');
  }
  if (!refresh || refresh.kind !== 'refresh' || refresh.revoked || refresh.clientId !== clientId) {
    return oauthError(400, 'invalid_grant', 'the refresh token is not valid');
  }
  let scopes = refresh.scopes;
  const asked = form.get('scope');
  if (asked) {
    const wanted = asked.split(' ').filter(Boolean);
    const extra = wanted.filter((s) => !refresh.scopes.includes(s));
    if (extra.length > 0) return oauthError(400, 'invalid_scope', `not granted before: ${extra.join(' ')}`);
    scopes = wanted;
  }
  if (!state.refreshTokenRotation) return issueTokens(state, clientId, refresh.userId, scopes, refresh.token).response;
  // Rotation: the one sent is refused from now on; the access tokens it gave stay valid until they expire (revoking
  // the refresh token would end them too: that is a logout, not a rotation).
  refresh.revoked = true;
  refresh.rotated = true;
  // A narrowed scope is the new refresh token's too: it cannot be widened back by the next refresh.
  return issueTokens(state, clientId, refresh.userId, scopes).response;
}

function revoke(req: SimRequest, state: SimState): SimResponse {
  const form = formBody(req);
  if (!form) return oauthError(400, 'invalid_request', 'the body must be application/x-www-form-urlencoded');
  const tokenValue = form.get('token');
  if (!tokenValue) return oauthError(400, 'invalid_request', 'token is required');
  const record = state.tokens.get(tokenValue);
  const clientId = form.get('client_id');
  if (record && clientId && record.clientId !== clientId) {
    return oauthError(400, 'unauthorized_client', 'the token belongs to another client');
  }
  // RFC 7009 2.2: an unknown token is answered like a revoked one.
  state.revoke(tokenValue);
  return { status: 200, headers: { 'cache-control': 'no-store' }, body: '' };
}

function userinfo(req: SimRequest, state: SimState, auth: AuthSettings): SimResponse {
  const outcome = authenticate(req, state, auth);
  if (!outcome.ok) return outcome.response;
  if (outcome.principal.kind !== 'user')
    return oauthError(403, 'insufficient_scope', 'userinfo needs a user token, not an API key');
  const user = state.users.get(outcome.principal.userId)!;
  return json(200, {
    // Observed, not published: the fields Purple Pen's Livelox client reads from this answer (its UserInfo type,
    // deserialised by Newtonsoft.Json): a numeric person id and the two name parts.
    personId: personIdOf(user.id),
    firstName: user.firstName,
    lastName: user.lastName,
    // OIDC-style fields beside them: clients that read the observed shape ignore them, and older livelox-bridge
    // versions read `sub` and `name`.
    sub: user.id,
    name: `${user.firstName} ${user.lastName}`,
    given_name: user.firstName,
    family_name: user.lastName,
    email: user.email,
    scope: [...outcome.principal.scopes].join(' '),
  });
}

/**
 * The service's person ids are numbers; the simulator's users are keyed by text (`sim-user-1`). The number is derived
 * from the key so that it is stable across runs and distinct per user: the trailing digits, offset into the range of
 * real person ids, or (for a key without digits) a hash of the key.
 */
export function personIdOf(userId: string): number {
  const digits = /(\d+)$/.exec(userId)?.[1];
  if (digits !== undefined && digits.length <= 9) return 900_000_000 + Number(digits);
  return (
    800_000_000 + (Number.parseInt(createHash('sha256').update(userId).digest('hex').slice(0, 7), 16) % 99_999_999)
  );
}

function errorPage(text: string): SimResponse {
  return html(
    400,
    `<!doctype html><title>Authorization error</title><h1>Authorization error</h1><p>${escapeHtml(text)}</p>`,
  );
}
