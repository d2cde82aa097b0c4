/**
 * The simulator's clock: real time plus an offset that tests move forward, so that a 24 h token lifetime or a 10 min
 * code lifetime can be crossed in a millisecond. Whatever happens "in the meantime" (the world's churn) listens to
 * the moves, so that it follows the advances, never the wall clock, and a seed replays the same changes.
 */

/** One move of the clock: from when to when, on the simulated clock and on the axis of advances alone. */
export interface ClockAdvance {
  fromMs: number;
  toMs: number;
  /** The offset before and after: the sum of every advance, the same in every run that advances alike. */
  fromOffsetMs: number;
  toOffsetMs: number;
}

const YEAR_MS = 365.25 * 24 * 3600_000;
/** Largest single advance the control endpoint takes: 100 years. */
export const MAX_ADVANCE_MS = 100 * YEAR_MS;
/** The clock never moves further ahead than this, so that its dates stay valid (Date ends in year 275760). */
export const MAX_CLOCK_YEARS = 1000;
const MAX_OFFSET_MS = MAX_CLOCK_YEARS * YEAR_MS;

export class SimClock {
  #offsetMs = 0;
  readonly #listeners: Array<(advance: ClockAdvance) => void> = [];

  now(): number {
    return Date.now() + this.#offsetMs;
  }

  /** Moves the clock forward (never back: tokens and imports only ever age). */
  advance(ms: number): number {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`advance takes a non-negative number of ms, got ${ms}`);
    if (!this.canAdvance(ms)) {
      throw new RangeError(`advance would move the clock more than ${MAX_CLOCK_YEARS} years ahead, got ${ms} ms`);
    }
    // One reading of the wall clock, so that the listeners' interval is exactly `ms` long.
    const fromMs = this.now();
    const fromOffsetMs = this.#offsetMs;
    this.#offsetMs += ms;
    const move = { fromMs, toMs: fromMs + ms, fromOffsetMs, toOffsetMs: this.#offsetMs };
    for (const listener of this.#listeners) listener(move);
    return this.now();
  }

  /** Whether `ms` keeps the clock within MAX_CLOCK_YEARS ahead: a refused advance leaves it untouched. */
  canAdvance(ms: number): boolean {
    return Number.isFinite(ms) && ms >= 0 && this.#offsetMs + ms <= MAX_OFFSET_MS;
  }

  get offsetMs(): number {
    return this.#offsetMs;
  }

  /** Calls `listener` after every advance, in the order listeners were added. */
  onAdvance(listener: (advance: ClockAdvance) => void): void {
    this.#listeners.push(listener);
  }
}
