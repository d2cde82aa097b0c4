/**
 * LiveloxClient: resolves its options once, owns the transport and the auth strategy, and mounts one object per
 * resource. Every request goes through one pipeline (STYLE.md #3): URL -> auth -> transport (limiter, timeouts,
 * retries) -> auth recovery (auth/strategy.ts) -> typed error or zod-checked value (core/answer.ts).
 */
import type { z } from 'zod';
import { sendAuthorized, type AuthContext, type AuthContextSource, type AuthStrategy } from './auth/strategy.js';
import { DEFAULT_BASE_URL, DEFAULT_VIEWER_URL, joinUrl, trimSlash, type ServiceAddresses } from './config.js';
import { answerError, parseAnswer, SERVICE_ANSWER } from './core/answer.js';
import { MemoryCache, type Cache } from './core/cache.js';
import { Redactor } from './core/redact.js';
import { Transport, type TransportOptions, type TransportResponse } from './core/transport.js';
import { ValidationError, type RequestInfo } from './errors.js';
import { Countries } from './resources/countries.js';
import { Courses } from './resources/courses.js';
import { Events } from './resources/events.js';
import { ImportableEvents } from './resources/importable-events.js';
import type { RequestOptions, ResourceRequester } from './resources/requester.js';
import { Routes } from './resources/routes.js';

export type { RequestOptions } from './resources/requester.js';

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

export class LiveloxClient implements AuthContextSource, ResourceRequester {
  readonly addresses: ServiceAddresses;
  readonly events: Events;
  readonly courses: Courses;
  readonly countries: Countries;
  readonly routes: Routes;
  /** The Event Integration API (observed, not published): an organiser's map and courses sent to the service. */
  readonly importableEvents: ImportableEvents;
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
    this.importableEvents = new ImportableEvents(this);
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
    const body = options.bytes
      ? Buffer.from(options.bytes)
      : options.json === undefined
        ? undefined
        : JSON.stringify(options.json);
    const contentType = options.bytes
      ? options.contentType
      : options.json === undefined
        ? undefined
        : 'application/json';
    const res = await sendAuthorized(this.auth, this.authContext(options.signal), info, (authHeaders) =>
      this.transport.request({
        method,
        url,
        info,
        headers: {
          ...(options.accept === null ? {} : { accept: options.accept ?? 'application/json' }),
          ...(contentType === undefined ? {} : { 'content-type': contentType }),
          ...authHeaders,
        },
        ...(body === undefined ? {} : { body }),
        idempotent: options.idempotent ?? false,
        signal: options.signal,
      }),
    );
    if (res.status >= 200 && res.status < 300) return res;
    throw answerError(res, info, this.redactor);
  }

  /** A JSON request parsed with `schema`: what we rely on is required, unknown fields are kept. */
  async requestJson<S extends z.ZodType>(options: RequestOptions, schema: S): Promise<z.output<S>> {
    const res = await this.request(options);
    const info: RequestInfo = { method: options.method ?? 'GET', path: this.redactor.redact(options.path) };
    return parseAnswer(res, info, schema, SERVICE_ANSWER);
  }

  /** Closes the connections (when the client owns its dispatcher). */
  close(): Promise<void> {
    return this.transport.close();
  }
}
