/**
 * How a request is authorized: a strategy object (STYLE.md #11), so the client never branches on the kind of auth.
 */
import type { ServiceAddresses } from '../config.js';
import type { Redactor } from '../core/redact.js';
import type { Transport } from '../core/transport.js';

/** What a strategy may use: the client's transport (for token requests), addresses and redactor. */
export interface AuthContext {
  transport: Transport;
  addresses: ServiceAddresses;
  redactor: Redactor;
  signal?: AbortSignal | undefined;
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
