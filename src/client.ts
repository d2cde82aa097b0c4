/**
 * LiveloxClient: resolves its options once, owns the transport and the auth strategy, and mounts one object per
 * resource. Every request goes through one pipeline (STYLE.md #3): URL -> auth -> transport (limiter, timeouts,
 * retries) -> auth recovery -> typed error -> zod.
 */
import type { z } from 'zod';
import type { AuthContext, AuthStrategy } from './auth/strategy.js';
import { DEFAULT_BASE_URL, DEFAULT_VIEWER_URL, joinUrl, type ServiceAddresses } from './config.js';
import { MemoryCache, type Cache } from './core/cache.js';
import { Redactor } from './core/redact.js';
import { headerValue, Transport, type TransportOptions, type TransportResponse } from './core/transport.js';
import { parseRetryAfter } from './core/retry.js';
import { errorFromResponse, ResponseShapeError, ScopeError, ValidationError, type RequestInfo } from './errors.js';
import { Countries } from './resources/countries.js';
import { Courses } from './resources/courses.js';
import { Events } from './resources/events.js';
import { Routes } from './resources/routes.js';

export interface LiveloxClientOptions extends TransportOptions {
  /** `apiKey(key)` or `oauth({...})`. */
  auth: AuthStrategy;
  /** The API address. Default https://api.livelox.com. */
  baseUrl?: string;
  /** Where `/oauth2/*` lives. Default: the base URL. */
  authUrl?: string;
  /** The viewer pages' address. Default https://www.livelox.com. */
  viewerUrl?: string;
  /** Cache for countries and event details; `false` turns caching off. Default: in memory. */
  cache?: Cache | false;
  /** How long the countries list is kept. Default 24 h. */
  countriesTtlMs?: number;
  /** How long an event's details are kept. Default 60 s. */
  eventTtlMs?: number;
}

export interface RequestOptions {
  method?: 'GET' | 'POST';
  /** Below the base URL: `/events`. */
  path: string;
  query?: Record<string, string | undefined>;
  /** Sent as JSON. */
  json?: unknown;
  /** A POST that may be repeated without doubling its effect. */
  idempotent?: boolean;
  accept?: string;
  signal?: AbortSignal | undefined;
}

export class LiveloxClient {
  readonly addresses: ServiceAddresses;
  readonly events: Events;
  readonly courses: Courses;
  readonly countries: Countries;
  readonly routes: Routes;
  readonly auth: AuthStrategy;
  readonly cache: Cache | undefined;
  readonly redactor = new Redactor();
  readonly transport: Transport;
  readonly ttl: { countriesMs: number; eventMs: number };

  constructor(options: LiveloxClientOptions) {
    const baseUrl = trimSlash(options.baseUrl ?? DEFAULT_BASE_URL);
    this.addresses = {
      baseUrl,
      authUrl: trimSlash(options.authUrl ?? baseUrl),
      viewerUrl: trimSlash(options.viewerUrl ?? DEFAULT_VIEWER_URL),
    };
    const bad = (Object.entries(this.addresses) as Array<[string, string]>).filter(
      ([, v]) => !/^https?:\/\/[^/\s]+/.test(v),
    );
    if (bad.length > 0) {
      throw new ValidationError(
        'Client options',
        bad.map(([name, v]) => ({ path: name, code: 'format', message: `must be an http(s) URL, got '${v}'` })),
      );
    }
    this.transport = new Transport(options);
    this.auth = options.auth;
    this.cache = options.cache === false ? undefined : (options.cache ?? new MemoryCache());
    this.ttl = { countriesMs: options.countriesTtlMs ?? 24 * 3600_000, eventMs: options.eventTtlMs ?? 60_000 };
    this.auth.attach(this.authContext());
    this.events = new Events(this);
    this.courses = new Courses(this);
    this.countries = new Countries(this);
    this.routes = new Routes(this);
  }

  authContext(signal?: AbortSignal): AuthContext {
    return { transport: this.transport, addresses: this.addresses, redactor: this.redactor, signal };
  }

  /** A request whose answer must be 2xx; anything else becomes a typed error. */
  async request(options: RequestOptions): Promise<TransportResponse> {
    const method = options.method ?? 'GET';
    const search = new URLSearchParams();
    for (const [k, v] of Object.entries(options.query ?? {})) if (v !== undefined) search.set(k, v);
    const qs = search.toString();
    const url = joinUrl(this.addresses.baseUrl, qs ? `${options.path}?${qs}` : options.path);
    const info: RequestInfo = { method, path: this.redactor.redact(qs ? `${options.path}?${qs}` : options.path) };
    const body = options.json === undefined ? undefined : JSON.stringify(options.json);
    const send = async () => {
      const authHeaders = await this.auth.headers(this.authContext(options.signal));
      const response = await this.transport.request({
        method,
        url,
        info,
        headers: {
          accept: options.accept ?? 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...authHeaders,
        },
        ...(body === undefined ? {} : { body }),
        idempotent: options.idempotent ?? false,
        signal: options.signal,
      });
      return { response, authHeaders };
    };
    let { response: res, authHeaders } = await send();
    if (res.status === 401 || res.status === 403) {
      const text = res.body.toString('utf8');
      const error = errorFromResponse(res.status, this.redactor.redact(text), info);
      // A missing scope does not go away with a new token; an expired one may (observed: 401 or 403).
      const failure = { status: res.status, body: text, sentHeaders: authHeaders };
      if (!(error instanceof ScopeError) && (await this.auth.recover(this.authContext(options.signal), failure))) {
        ({ response: res, authHeaders } = await send());
      }
    }
    if (res.status >= 200 && res.status < 300) return res;
    throw errorFromResponse(
      res.status,
      this.redactor.redact(res.body.toString('utf8').slice(0, 4000)),
      info,
      parseRetryAfter(headerValue(res.headers['retry-after'])),
    );
  }

  /** A JSON request parsed with `schema`: what we rely on is required, unknown fields are kept. */
  async requestJson<S extends z.ZodType>(options: RequestOptions, schema: S): Promise<z.output<S>> {
    const res = await this.request(options);
    const info: RequestInfo = { method: options.method ?? 'GET', path: this.redactor.redact(options.path) };
    let value: unknown;
    try {
      value = JSON.parse(res.body.toString('utf8'));
    } catch (err) {
      throw new ResponseShapeError('The answer is not JSON', [], { request: info, cause: err });
    }
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      throw new ResponseShapeError(
        'The answer does not have the expected shape',
        parsed.error.issues.slice(0, 10).map((i) => ({
          path: i.path.map(String).join('.'),
          code: i.code,
          message: i.message,
        })),
        { request: info, hint: 'The service may have changed; please report it.' },
      );
    }
    return parsed.data;
  }

  /** Closes the connections (when the client owns its dispatcher). */
  close(): Promise<void> {
    return this.transport.close();
  }
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
