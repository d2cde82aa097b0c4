/**
 * When to retry and how long to wait: pure policy, no I/O (STYLE.md #7). Network errors, 408, 429 and 5xx are
 * retried with exponential backoff and full jitter, honouring Retry-After; a POST only when it is idempotent, except
 * after a 429: a refusal at the door means nothing was done, so repeating any request cannot do it twice.
 */
export interface RetryPolicy {
  /** Retries after the first attempt. Default 4. */
  maxRetries: number;
  /** First backoff step. Default 300 ms. */
  baseDelayMs: number;
  /** Largest backoff step. Default 8000 ms. */
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the error is raised instead. Default 60000 ms. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  maxRetries: 4,
  baseDelayMs: 300,
  maxDelayMs: 8000,
  maxRetryAfterMs: 60_000,
};

const RETRYABLE_STATUS = new Set([408, 429, 500, 502, 503, 504]);

export interface AttemptOutcome {
  /** 0 for the first attempt. */
  attempt: number;
  method: string;
  /** A POST that can be repeated without doubling its effect (a client-chosen route id). */
  idempotent: boolean;
  /** The answer's status, or undefined when the request failed without one (network error, timeout). */
  status?: number;
  /** Milliseconds the service asked to wait (Retry-After). */
  retryAfterMs?: number;
}

export function isRetryableStatus(status: number): boolean {
  return RETRYABLE_STATUS.has(status);
}

/**
 * Whether a failed attempt of a request that is not safe to repeat may still have taken effect: the service may have
 * acted on it before the answer was lost (no answer: a reset or a timeout after sending) or before it failed (5xx).
 * A 429 or another 4xx is a refusal, so nothing was done.
 */
export function mayHaveTakenEffect(status: number | undefined): boolean {
  return status === undefined || status >= 500;
}

/** Milliseconds to wait before the next attempt, or undefined when the outcome is final. */
export function retryDelay(
  outcome: AttemptOutcome,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number | undefined {
  if (outcome.attempt >= policy.maxRetries) return undefined;
  if (outcome.status !== undefined && !isRetryableStatus(outcome.status)) return undefined;
  const safe = outcome.method === 'GET' || outcome.method === 'HEAD' || outcome.idempotent || outcome.status === 429;
  if (!safe) return undefined;
  if (outcome.retryAfterMs !== undefined) {
    return outcome.retryAfterMs <= policy.maxRetryAfterMs ? outcome.retryAfterMs : undefined;
  }
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** outcome.attempt);
  // Full jitter: clients that failed together do not come back together.
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/** Retry-After as seconds or an HTTP date, in milliseconds from `now`; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
