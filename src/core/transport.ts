/**
 * The only module that talks to undici. One attempt = limiter slot + rate token + one HTTP exchange with connect,
 * headers and body timeouts; `request` adds the retry loop of core/retry.ts around attempts. Network failures become
 * ConnectionError or TimeoutError; HTTP answers of any status are returned for the caller to judge.
 */
import { Agent, type Dispatcher, request as undiciRequest } from 'undici';
import { ConnectionError, TimeoutError, type LiveloxError, type RequestInfo } from '../errors.js';
import { Limiter } from './limiter.js';
import { DEFAULT_RETRY, parseRetryAfter, retryDelay, type RetryPolicy } from './retry.js';
import { abortReason, sleep } from './sleep.js';

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
  /** Your own undici dispatcher (a proxy agent, say); the transport then does not close it. */
  dispatcher?: Dispatcher;
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
}

export interface TransportResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  /** Attempts made, 1 when the first succeeded. */
  attempts: number;
}

const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

export class Transport {
  readonly #dispatcher: Dispatcher;
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
    this.#dispatcher =
      options.dispatcher ??
      new Agent({
        connections: maxConcurrent,
        connect: { timeout: options.connectTimeoutMs ?? 10_000 },
        headersTimeout: options.headersTimeoutMs ?? 30_000,
        bodyTimeout: options.bodyTimeoutMs ?? 60_000,
      });
    this.#limiter = new Limiter({ maxConcurrent, ratePerSecond: options.ratePerSecond ?? 10 });
    this.#retry = { ...DEFAULT_RETRY, ...options.retry };
    this.#userAgent = options.userAgent ?? 'livelox-bridge';
    this.#random = options.random ?? Math.random;
    this.#onRetry = options.onRetry;
  }

  /** Sends with retries; answers of any status come back, network failures throw after the last retry. */
  async request(req: TransportRequest): Promise<TransportResponse> {
    for (let attempt = 0; ; attempt++) {
      let response: TransportResponse | undefined;
      let failure: LiveloxError | undefined;
      try {
        response = await this.#attempt(req);
      } catch (err) {
        if (!(err instanceof ConnectionError || err instanceof TimeoutError)) throw err;
        failure = err;
      }
      const retryAfterMs = response ? parseRetryAfter(headerValue(response.headers['retry-after'])) : undefined;
      const delay = req.noRetry
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
        if (failure) throw failure;
        return { ...response!, attempts: attempt + 1 };
      }
      this.#onRetry?.({
        request: req.info,
        ...(response ? { status: response.status } : { failure: failure!.message }),
        delayMs: delay,
        nextAttempt: attempt + 2,
        maxAttempts: this.#retry.maxRetries + 1,
      });
      await sleep(delay, req.signal);
    }
  }

  async #attempt(req: TransportRequest): Promise<TransportResponse> {
    return this.#limiter.run(async () => {
      this.attempts++;
      try {
        const res = await undiciRequest(req.url, {
          dispatcher: this.#dispatcher,
          method: req.method,
          headers: { 'user-agent': this.#userAgent, ...req.headers },
          ...(req.body === undefined ? {} : { body: req.body }),
          ...(req.signal ? { signal: req.signal } : {}),
        });
        const body = Buffer.from(await res.body.arrayBuffer());
        return { status: res.statusCode, headers: res.headers, body, attempts: 1 };
      } catch (err) {
        throw this.#networkError(err, req);
      }
    }, req.signal);
  }

  #networkError(err: unknown, req: TransportRequest): unknown {
    if (req.signal?.aborted) return abortReason(req.signal);
    const code = (err as { code?: string } | null)?.code ?? '';
    const what = (err as Error | null)?.message ?? String(err);
    if (TIMEOUT_CODES.has(code)) {
      return new TimeoutError(`No answer in time (${code})`, {
        request: req.info,
        cause: err,
        hint: 'The service or the network is slow; it was retried. Raise the timeouts or try again later.',
      });
    }
    return new ConnectionError(`Connection failed: ${what}${code ? ` (${code})` : ''}`, {
      request: req.info,
      cause: err,
      hint: `Check that ${req.url.origin} is reachable.`,
    });
  }

  async close(): Promise<void> {
    if (this.#ownsDispatcher) await this.#dispatcher.close();
  }
}

export function headerValue(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}
