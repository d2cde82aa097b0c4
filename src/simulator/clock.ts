/**
 * The simulator's clock: real time plus an offset that tests move forward, so that a 24 h token lifetime or a 10 min
 * code lifetime can be crossed in a millisecond.
 */
export class SimClock {
  #offsetMs = 0;

  now(): number {
    return Date.now() + this.#offsetMs;
  }

  /** Moves the clock forward (never back: tokens and imports only ever age). */
  advance(ms: number): number {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`advance takes a non-negative number of ms, got ${ms}`);
    this.#offsetMs += ms;
    return this.now();
  }

  get offsetMs(): number {
    return this.#offsetMs;
  }
}
