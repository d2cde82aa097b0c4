/**
 * How a request is authorized: a strategy object (STYLE.md #11), so the client never branches on the kind of auth.
 * Strategies see only an `AuthContext` (transport, addresses, redactor), never the client: auth sits below the client.
 */
import type { ServiceAddresses } from '../config.js';
import type { Redactor } from '../core/redact.js';
import type { Transport, TransportResponse } from '../core/transport.js';
import { errorFromResponse, ScopeError, type RequestInfo } from '../errors.js';

/** What a strategy may use: the client's transport (for token requests), addresses and redactor. */
export interface AuthContext {
  transport: Transport;
  addresses: ServiceAddresses;
  redactor: Redactor;
  signal?: AbortSignal | undefined;
}

/** Whatever hands out auth contexts: a `LiveloxClient` is one. */
export interface AuthContextSource {
  authContext(signal?: AbortSignal): AuthContext;
}

/** A refused request, as `recover` sees it. */
export interface AuthFailure {
  status: number;
  body: string;
  /** The auth headers the refused request carried: tells whether its token is still the current one. */
  sentHeaders: Record<string, string>;
}

export interface AuthStrategy {
  readonly kind: 'apiKey' | 'oauth';
  /** The contract honours a route's `person` only with an API key (section 2.1). */
  readonly honoursPerson: boolean;
  /** Called once when a client takes the strategy: registers its secrets for redaction. */
  attach(ctx: AuthContext): void;
  /** Headers for one API request. */
  headers(ctx: AuthContext): Promise<Record<string, string>>;
  /**
   * After a 401 or 403 that is not about a scope: may the request be sent once more (a refreshed token)? Strategies
   * that cannot recover answer false.
   */
  recover(ctx: AuthContext, failure: AuthFailure): Promise<boolean>;
}

/**
 * Sends a request with the strategy's headers and, after a 401 or 403 that is not about a scope, once more when the
 * strategy has recovered (a renewed token). A missing scope does not go away with a new token; an expired one may
 * (observed: 401 or 403). The answer is returned whatever its status.
 */
export async function sendAuthorized(
  strategy: AuthStrategy,
  ctx: AuthContext,
  info: RequestInfo,
  send: (authHeaders: Record<string, string>) => Promise<TransportResponse>,
): Promise<TransportResponse> {
  const sentHeaders = await strategy.headers(ctx);
  const res = await send(sentHeaders);
  if (res.status === 401 || res.status === 403) {
    const text = res.body.toString('utf8');
    const error = errorFromResponse(res.status, ctx.redactor.redact(text), info);
    if (
      !(error instanceof ScopeError) &&
      (await strategy.recover(ctx, { status: res.status, body: text, sentHeaders }))
    ) {
      return send(await strategy.headers(ctx));
    }
  }
  return res;
}
