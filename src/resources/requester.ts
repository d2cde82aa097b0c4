/**
 * What a resource needs of the client: its request pipeline, its cache and how the auth honours a route's `person`.
 * Resources are handed this, not the client class, so that the client (which mounts them) and they do not depend on
 * each other.
 */
import type { z } from 'zod';
import type { Cache } from '../core/cache.js';
import type { TransportResponse } from '../core/transport.js';

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT';
  /** Below the base URL: `/events`. */
  path: string;
  query?: Record<string, string | undefined>;
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as they are (an upload); `contentType` says what they are, or no Content-Type is sent. */
  bytes?: Uint8Array;
  contentType?: string;
  /** A POST that may be repeated without doubling its effect. */
  idempotent?: boolean;
  /** Default `application/json`; null sends no Accept header (uploads, as Purple Pen sends them). */
  accept?: string | null;
  signal?: AbortSignal | undefined;
}

export interface ResourceRequester {
  /** Cache for countries and event details; undefined when caching is off. */
  readonly cache: Cache | undefined;
  readonly ttl: { readonly countriesMs: number; readonly eventMs: number };
  /** The contract honours a route's `person` only with an API key (section 2.1). */
  readonly auth: { readonly honoursPerson: boolean };
  /** A request whose answer must be 2xx; anything else becomes a typed error. */
  request(options: RequestOptions): Promise<TransportResponse>;
  /** A JSON request parsed with `schema`. */
  requestJson<S extends z.ZodType>(options: RequestOptions, schema: S): Promise<z.output<S>>;
}
