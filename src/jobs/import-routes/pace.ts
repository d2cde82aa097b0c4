/**
 * When to ask for a route's import state. Imports take 5-15 s (contract section 3), and every status request costs:
 * the first one goes out when about three quarters of the imports are done, then short steps. The first-poll time
 * follows the batch's own imports (a stochastic quantile estimate: nudged down when a route was done at its first
 * poll, up when it was still pending, so it settles where three quarters are done), which keeps a batch near 2.25
 * requests per route (POST + 1.25 polls) whether the service is fast or slow today.
 */

/** The share of imports done at the first poll that the pace aims at. */
const TARGET_DONE_AT_FIRST = 0.75;
/**
 * How far one observation moves the first-poll time, as a share of it: small, because the estimate is a random walk
 * whose spread grows with the rate (at 0.01 it stays within about 6 % over a 200-route batch).
 */
const LEARNING_RATE = 0.01;
/** Steps after the first poll grow by this, so a route far slower than the rest costs few requests. */
const STEP_GROWTH = 1.5;

export interface ExpectedImportTime {
  minMs: number;
  maxMs: number;
}

export class ImportPace {
  #firstMs: number;
  readonly #floorMs: number;
  readonly #ceilingMs: number;

  constructor(expected: ExpectedImportTime) {
    if (!(expected.minMs >= 0 && expected.maxMs >= expected.minMs)) {
      throw new RangeError('the expected import time needs 0 <= minMs <= maxMs');
    }
    this.#firstMs = expected.minMs + TARGET_DONE_AT_FIRST * (expected.maxMs - expected.minMs);
    // A service far off the contract's times is followed, within reason.
    this.#floorMs = Math.max(1, expected.minMs / 10);
    this.#ceilingMs = Math.max(this.#floorMs, expected.maxMs * 4);
  }

  /** From the POST's answer to the first status request. */
  firstPollMs(): number {
    return this.#firstMs;
  }

  /**
   * Before status request number `poll` + 1 (1 = after the first said pending): a fifth of the first wait (2.5 s at
   * the contract's pace), growing.
   */
  stepMs(poll = 1): number {
    return Math.max(1, (this.#firstMs / 5) * STEP_GROWTH ** Math.max(0, poll - 1));
  }

  /** A route settled; `doneAtFirst` says whether the first status request already found it done. */
  observe(doneAtFirst: boolean): void {
    const push = doneAtFirst ? -(1 - TARGET_DONE_AT_FIRST) : TARGET_DONE_AT_FIRST;
    const next = this.#firstMs * (1 + LEARNING_RATE * push);
    this.#firstMs = Math.min(this.#ceilingMs, Math.max(this.#floorMs, next));
  }
}
