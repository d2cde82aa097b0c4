/**
 * Polling with a deadline (STYLE.md #10): declared pending and terminal states, a first wait, a growing interval,
 * `timeoutMs` and `signal`. Never unbounded.
 */
import { TimeoutError, type RequestInfo } from '../errors.js';
import { sleep } from './sleep.js';

export interface PollOptions {
  /** Give up after this long. */
  timeoutMs: number;
  /** Wait before the first poll (work that takes seconds is not asked after milliseconds). */
  initialDelayMs: number;
  /** Interval after the first poll, growing by `backoff` up to `maxIntervalMs`. */
  intervalMs: number;
  maxIntervalMs: number;
  backoff: number;
  signal?: AbortSignal | undefined;
  /** Told about every poll, for progress output. */
  onPoll?: ((value: unknown, attempt: number) => void) | undefined;
}

export async function poll<T>(
  fetchOnce: () => Promise<T>,
  isDone: (value: T) => boolean,
  options: PollOptions,
  what: { description: string; request?: RequestInfo },
): Promise<T> {
  const deadline = performance.now() + options.timeoutMs;
  let wait = options.initialDelayMs;
  let interval = options.intervalMs;
  let last: T | undefined;
  for (let attempt = 1; ; attempt++) {
    const left = deadline - performance.now();
    if (left <= 0) break;
    await sleep(Math.min(wait, left), options.signal);
    last = await fetchOnce();
    options.onPoll?.(last, attempt);
    if (isDone(last)) return last;
    wait = interval;
    interval = Math.min(options.maxIntervalMs, interval * options.backoff);
  }
  throw new TimeoutError(`${what.description} did not finish within ${Math.round(options.timeoutMs / 1000)} s`, {
    ...(what.request ? { request: what.request } : {}),
    hint: 'It may still finish: ask again later, or wait longer (timeoutMs).',
  });
}
