/**
 * The only module that talks to undici. One attempt = limiter slot + rate token + one HTTP exchange with connect,
 * headers and body timeouts; `request` adds the retry loop of core/retry.ts around attempts. Network failures become
 * ConnectionError or TimeoutError only after the last attempt, so that the error can say how many were made and whether
 * a request that is not safe to repeat may have acted; HTTP answers of any status are returned for the caller to judge.
 */
import { Agent, type Dispatcher, request as undiciRequest } from 'undici';
import {
  ConnectionError,
  InputError,
  TimeoutError,
  ValidationError,
  type LiveloxError,
  type RequestInfo,
} from '../errors.js';
import { Limiter } from './limiter.js';
import { proxyIsSet, proxyRefusalStatus, ProxyRoutes, type ProxySettings, type Route } from './proxy.js';
import { DEFAULT_RETRY, mayHaveTakenEffect, parseRetryAfter, retryDelay, type RetryPolicy } from './retry.js';
import { abortReason, sleep, untilAborted } from './sleep.js';

export interface TransportOptions {
  /** Default 10000 ms. */
  connectTimeoutMs?: number;
  /** Time to the answer's headers. Default 30000 ms. */
  headersTimeoutMs?: number;
  /** Longest silence while the body arrives. Default 60000 ms. */
  bodyTimeoutMs?: number;
  /** Requests in flight at once. Default 6. */
  maxConcurrent?: number;
  /** Requests started per second; 0 = unlimited. Default 10. */
  ratePerSecond?: number;
  retry?: Partial<RetryPolicy>;
  userAgent?: string;
  /** Your own undici dispatcher; the transport then does not close it (and `proxy` is not used). */
  dispatcher?: Dispatcher;
  /**
   * An HTTP proxy to reach the service through (a company network's), as `HTTP_PROXY`, `HTTPS_PROXY` and `NO_PROXY`
   * describe one. Default: none (the library never reads those variables itself; the CLI passes them).
   */
  proxy?: ProxySettings;
  /** For tests of the backoff: a source of jitter. */
  random?: () => number;
  /** Called before each wait for a retry, so that a person watching knows why nothing seems to happen. */
  onRetry?: (retry: RetryNotice) => void;
}

/** A retry about to happen: what failed, and when and how often it is tried again. Never a header or a body. */
export interface RetryNotice {
  request: RequestInfo;
  /** The answer's status, when the service answered. */
  status?: number;
  /** The failure's message, when there was no answer (a network error or a timeout). */
  failure?: string;
  delayMs: number;
  /** The attempt about to be made, 2 for the first retry. */
  nextAttempt: number;
  /** Attempts in all, the first included. */
  maxAttempts: number;
}

export interface TransportRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: URL;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** A POST that may be repeated (a client-chosen route id). */
  idempotent?: boolean;
  signal?: AbortSignal | undefined;
  /** What errors name: method and path, redacted by the caller. */
  info: RequestInfo;
  /** Disable retries for this request (token exchanges: a code is single-use). */
  noRetry?: boolean;
  /**
   * Largest answer body read, in bytes: past it the reading stops and the request fails with `InputError` `too_large`
   * (source: `info.path`), not retried. Default: no limit (the service's answers).
   */
  maxBodyBytes?: number;
}

export interface TransportResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  /** Attempts made, 1 when the first succeeded. */
  attempts: number;
  /** The request is not safe to repeat and the answer (a 5xx) may follow work done; see `LiveloxError.mayHaveTakenEffect`. */
  mayHaveTakenEffect?: boolean;
}

const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);
/** Failures before the request left this machine: no connection was made, so the service cannot have acted. */
const NOT_SENT_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_INVALID_ARG',
]);

/** A failed attempt without an answer; becomes a typed error once the transport knows it will not retry. */
class NetworkFailure extends Error {
  readonly code: string;
  constructor(cause: unknown) {
    super('network failure', { cause });
    this.code = (cause as { code?: string } | null)?.code ?? '';
  }

  describe(): string {
    const what = (this.cause as Error | null)?.message ?? String(this.cause);
    return `${what}${this.code ? ` (${this.code})` : ''}`;
  }
}

/** GET and HEAD, and a request its caller made idempotent (a client-chosen route id), may be sent twice. */
function isSafeToRepeat(req: TransportRequest): boolean {
  return req.method === 'GET' || req.idempotent === true;
}

export class Transport {
  /** Which dispatcher carries a request to an address: one agent, or direct and proxy agents (core/proxy.ts). */
  readonly #routes: { for(url: URL): Route; close(): Promise<void>; destroy(): Promise<void> };
  /**
   * An attempt was given up (its signal aborted): undici lets its connection go on being opened, so closing waits for
   * nothing and ends the connections instead (a hung proxy tunnel would otherwise hold close() for minutes).
   */
  #abandoned = false;
  readonly #ownsDispatcher: boolean;
  readonly #limiter: Limiter;
  readonly #retry: RetryPolicy;
  readonly #userAgent: string;
  readonly #random: () => number;
  readonly #onRetry: ((retry: RetryNotice) => void) | undefined;
  /** Every HTTP exchange started, retries included (benchmarks and tests read it). */
  attempts = 0;

  constructor(options: TransportOptions = {}) {
    const maxConcurrent = options.maxConcurrent ?? 6;
    this.#ownsDispatcher = options.dispatcher === undefined;
    const agentOptions: Agent.Options = {
      connections: maxConcurrent,
      connect: { timeout: options.connectTimeoutMs ?? 10_000 },
      headersTimeout: options.headersTimeoutMs ?? 30_000,
      bodyTimeout: options.bodyTimeoutMs ?? 60_000,
    };
    if (options.dispatcher === undefined && proxyIsSet(options.proxy)) {
      this.#routes = new ProxyRoutes(options.proxy, agentOptions);
    } else {
      const dispatcher = options.dispatcher ?? new Agent(agentOptions);
      this.#routes = {
        for: () => ({ dispatcher }),
        close: () => dispatcher.close(),
        destroy: () => dispatcher.destroy(),
      };
    }
    this.#limiter = new Limiter({ maxConcurrent, ratePerSecond: options.ratePerSecond ?? 10 });
    this.#retry = { ...DEFAULT_RETRY, ...options.retry };
    this.#userAgent = options.userAgent ?? 'livelox-bridge';
    this.#random = options.random ?? Math.random;
    this.#onRetry = options.onRetry;
  }

  /** Sends with retries; answers of any status come back, network failures throw after the last retry. */
  async request(req: TransportRequest): Promise<TransportResponse> {
    const route = this.#routes.for(req.url);
    for (let attempt = 0; ; attempt++) {
      let response: TransportResponse | undefined;
      let failure: NetworkFailure | undefined;
      try {
        response = await this.#attempt(req, route);
      } catch (err) {
        if (!(err instanceof NetworkFailure)) throw err;
        failure = err;
      }
      const retryAfterMs = response ? parseRetryAfter(headerValue(response.headers['retry-after'])) : undefined;
      // A proxy that refused the tunnel (407: it wants credentials) answers the same way every time.
      const delay =
        req.noRetry || (failure !== undefined && proxyRefusalStatus(failure.cause) !== undefined)
          ? undefined
          : retryDelay(
              {
                attempt,
                method: req.method,
                idempotent: req.idempotent ?? false,
                ...(response ? { status: response.status } : {}),
                ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
              },
              this.#retry,
              this.#random,
            );
      if (delay === undefined) {
        const attempts = attempt + 1;
        if (failure) throw this.#networkError(failure, req, attempts, route);
        const unsafe = !isSafeToRepeat(req) && mayHaveTakenEffect(response!.status);
        return { ...response!, attempts, ...(unsafe ? { mayHaveTakenEffect: true } : {}) };
      }
      this.#onRetry?.({
        request: req.info,
        ...(response ? { status: response.status } : { failure: failure!.describe() }),
        delayMs: delay,
        nextAttempt: attempt + 2,
        maxAttempts: this.#retry.maxRetries + 1,
      });
      await sleep(delay, req.signal);
    }
  }

  async #attempt(req: TransportRequest, route: Route): Promise<TransportResponse> {
    return this.#limiter.run(async () => {
      this.attempts++;
      try {
        const res = await untilAborted(
          undiciRequest(req.url, {
            dispatcher: route.dispatcher,
            method: req.method,
            headers: { 'user-agent': this.#userAgent, ...req.headers },
            ...(req.body === undefined ? {} : { body: req.body }),
            ...(req.signal ? { signal: req.signal } : {}),
          }),
          req.signal,
          (late) => late.body.destroy(),
        );
        const body = await readBody(res, req);
        return { status: res.statusCode, headers: res.headers, body, attempts: 1 };
      } catch (err) {
        if (req.signal?.aborted) {
          this.#abandoned = true;
          throw abortReason(req.signal);
        }
        if (err instanceof InputError) throw err;
        throw new NetworkFailure(err);
      }
    }, req.signal);
  }

  /** The typed error of the last failed attempt, saying how many were made and whether the request may have acted. */
  #networkError(failure: NetworkFailure, req: TransportRequest, attempts: number, route: Route): LiveloxError {
    const { code, cause } = failure;
    const retried = attempts > 1 ? ` It was tried ${attempts} times.` : '';
    const proxyStatus = proxyRefusalStatus(cause);
    // Refused or unresolved before a byte was sent (a proxy that refused the tunnel included): whatever the request
    // was, the service did nothing.
    const sent = !NOT_SENT_CODES.has(code) && proxyStatus === undefined;
    const unsafe = sent && !isSafeToRepeat(req);
    const common = {
      request: req.info,
      cause,
      attempts,
      ...(unsafe ? { mayHaveTakenEffect: true } : {}),
    };
    if (code === 'UND_ERR_INVALID_ARG' && cause instanceof Error) {
      // undici refused to build the request (a header value it cannot send, say): no network was involved. Its
      // message names the header, never the value.
      return new ValidationError('Request not sent', [{ path: 'request', code: 'format', message: cause.message }], {
        request: req.info,
        cause,
      });
    }
    if (proxyStatus !== undefined) {
      return new ConnectionError(
        `The proxy ${route.proxy ?? ''} refused to connect to ${req.url.origin}: it answered ${proxyStatus}`,
        {
          ...common,
          hint:
            proxyStatus === 407
              ? 'The proxy wants credentials: give them in its address (http://user:password@host:port).'
              : 'Check the proxy settings (its address, and whether it lets this host through).',
        },
      );
    }
    if (TIMEOUT_CODES.has(code)) {
      return new TimeoutError(`No answer in time (${code})`, {
        ...common,
        hint: `The service or the network is slow.${retried} Raise the timeouts (connectTimeoutMs, headersTimeoutMs, bodyTimeoutMs) or try again later.`,
      });
    }
    return new ConnectionError(`Connection failed: ${failure.describe()}`, {
      ...common,
      hint: sent
        ? `The connection to ${req.url.origin} broke.${retried} Try again later.`
        : route.proxy === undefined
          ? `Check that ${req.url.origin} is reachable.${retried}`
          : `Check that the proxy ${route.proxy} is reachable (it carries requests to ${req.url.origin}).${retried}`,
    });
  }

  async close(): Promise<void> {
    if (!this.#ownsDispatcher) return;
    await (this.#abandoned ? this.#routes.destroy() : this.#routes.close());
  }
}

/** The answer's body, read only up to `req.maxBodyBytes` when the request sets a limit. */
async function readBody(res: Dispatcher.ResponseData, req: TransportRequest): Promise<Buffer> {
  const max = req.maxBodyBytes;
  if (max === undefined) return Buffer.from(await res.body.arrayBuffer());
  const tooLarge = (): InputError => {
    res.body.destroy();
    return new InputError(
      req.info.path,
      'too_large',
      `the answer is larger than ${max} bytes; it was not read further.`,
    );
  };
  const declared = Number(headerValue(res.headers['content-length']));
  if (Number.isFinite(declared) && declared > max) throw tooLarge();
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of res.body as AsyncIterable<Buffer>) {
    length += chunk.byteLength;
    if (length > max) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, length);
}

export function headerValue(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}
