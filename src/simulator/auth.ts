/**
 * Who is calling: an `ApiKey` header or an OAuth bearer token. Failures follow the contract (403) except for expired
 * tokens, which the real service has been observed to answer with 401 or 403 (configurable here, default 401).
 */
import type { SimRequest, SimResponse } from './http.js';
import { json, message } from './http.js';
import type { Principal, SimState } from './state.js';

export interface AuthSettings {
  expiredTokenStatus: 401 | 403;
}

export type AuthOutcome = { ok: true; principal: Principal } | { ok: false; response: SimResponse };

export function authenticate(req: Pick<SimRequest, 'headers'>, state: SimState, settings: AuthSettings): AuthOutcome {
  const apiKey = header(req, 'apikey');
  const authorization = header(req, 'authorization');
  if (apiKey !== undefined) {
    const record = state.apiKeys.get(apiKey);
    if (!record) return fail(message(403, 'The API key is not valid.'));
    return { ok: true, principal: { kind: 'apiKey', identity: `app:${record.appId}`, scopes: record.scopes } };
  }
  if (authorization !== undefined) {
    const m = /^Bearer\s+(\S+)$/i.exec(authorization);
    if (!m?.[1]) return fail(message(403, 'The Authorization header is not a Bearer token.'));
    const token = state.tokens.get(m[1]);
    if (!token || token.kind !== 'access' || token.revoked) {
      return fail(message(403, 'The access token is not valid.'));
    }
    if (token.expiresMs !== undefined && state.clock.now() >= token.expiresMs) {
      return fail(expiredToken(settings.expiredTokenStatus));
    }
    return {
      ok: true,
      principal: {
        kind: 'user',
        identity: `user:${token.userId}`,
        userId: token.userId,
        clientId: token.clientId,
        scopes: new Set(token.scopes),
      },
    };
  }
  return fail(message(403, 'Authorization is required: send an ApiKey header or an OAuth2 bearer token.'));
}

/** Observed, not published: the real service answers an expired token with 401 or 403. */
export function expiredToken(status: 401 | 403): SimResponse {
  return json(
    status,
    { status, message: 'The access token has expired.' },
    { 'www-authenticate': 'Bearer error="invalid_token", error_description="The access token has expired"' },
  );
}

/** 403 with the wording the real service uses for a missing scope (observed: "You do not have the scope '...'"). */
export function requireScope(principal: Principal, scope: string): SimResponse | undefined {
  if (principal.scopes.has(scope)) return undefined;
  return message(403, `You do not have the scope '${scope}'`);
}

function fail(response: SimResponse): AuthOutcome {
  return { ok: false, response };
}

function header(req: Pick<SimRequest, 'headers'>, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}
