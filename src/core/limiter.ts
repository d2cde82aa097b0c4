/**
 * A client-side bound on concurrent requests and on request rate: the service's terms ask clients to avoid
 * excessive request volumes, and a bulk import of a thousand routes must not become a thousand parallel POSTs.
 */
import { abortReason, sleep } from './sleep.js';

export interface LimiterOptions {
  /** Requests in flight at once. Default 6. */
  maxConcurrent: number;
  /** Requests started per second, smoothed (token bucket with a burst of this many). Default 10; 0 = no limit. */
  ratePerSecond: number;
}

export class Limiter {
  readonly #max: number;
  readonly #rate: number;
  #active = 0;
  readonly #waiting: Array<() => void> = [];
  #tokens: number;
  #lastRefill = performance.now();

  constructor(options: LimiterOptions) {
    if (!(options.maxConcurrent >= 1)) throw new RangeError('maxConcurrent must be at least 1');
    if (!(options.ratePerSecond >= 0)) throw new RangeError('ratePerSecond must be 0 (no limit) or more');
    this.#max = options.maxConcurrent;
    this.#rate = options.ratePerSecond;
    this.#tokens = Math.max(1, this.#rate);
  }

  /** Runs `task` when a slot and a rate token are free. */
  async run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    await this.#acquire(signal);
    try {
      await this.#takeToken(signal);
      return await task();
    } finally {
      this.#release();
    }
  }

  async #acquire(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw abortReason(signal);
    if (this.#active < this.#max) {
      this.#active++;
      return;
    }
    await new Promise<void>((resolve, reject) => {
      const entry = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = () => {
        const i = this.#waiting.indexOf(entry);
        if (i >= 0) this.#waiting.splice(i, 1);
        reject(abortReason(signal!));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#waiting.push(entry);
    });
  }

  #release(): void {
    const next = this.#waiting.shift();
    // The slot passes straight to the next waiter, so #active stays counted.
    if (next) next();
    else this.#active--;
  }

  async #takeToken(signal?: AbortSignal): Promise<void> {
    if (this.#rate === 0) return;
    for (;;) {
      const now = performance.now();
      this.#tokens = Math.min(Math.max(1, this.#rate), this.#tokens + ((now - this.#lastRefill) / 1000) * this.#rate);
      this.#lastRefill = now;
      if (this.#tokens >= 1) {
        this.#tokens -= 1;
        return;
      }
      await sleep(Math.ceil(((1 - this.#tokens) / this.#rate) * 1000), signal);
    }
  }
}
