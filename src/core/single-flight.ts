/**
 * One run of a task shared by every caller that needs it at the same time (a token refresh: two refreshes would
 * race, and the second may be refused as a replay). Each caller keeps its own signal: leaving does not cancel the run
 * for the others, and the run is cancelled only when every caller has left.
 */
import { abortReason } from './sleep.js';

interface Flight<T> {
  controller: AbortController;
  waiters: number;
  promise: Promise<T>;
}

export class SingleFlight<T> {
  #flight: Flight<T> | undefined;

  /** A run is under way and someone still waits for it. */
  get active(): boolean {
    return this.#flight !== undefined && !this.#flight.controller.signal.aborted;
  }

  /** Joins the run under way, or starts one with `start` (its signal aborts when every caller has left). */
  run(start: (signal: AbortSignal) => Promise<T>, signal?: AbortSignal): Promise<T> {
    let flight = this.#flight;
    if (!flight || flight.controller.signal.aborted) {
      const controller = new AbortController();
      const promise = start(controller.signal);
      const started: Flight<T> = { controller, waiters: 0, promise };
      const landed = () => {
        if (this.#flight === started) this.#flight = undefined;
      };
      // Also handles the rejection: every waiter may have left, and it must not become an unhandled one.
      promise.then(landed, landed);
      this.#flight = flight = started;
    }
    return joinFlight(flight, signal);
  }
}

function joinFlight<T>(flight: Flight<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal?.aborted) return Promise.reject(abortReason(signal));
  flight.waiters++;
  return new Promise<T>((resolve, reject) => {
    let left = false;
    const leave = (): boolean => {
      if (left) return false;
      left = true;
      flight.waiters--;
      signal?.removeEventListener('abort', onAbort);
      return true;
    };
    const onAbort = () => {
      if (!leave()) return;
      // The shared run is cancelled only when nobody waits for it any more.
      if (flight.waiters === 0) flight.controller.abort(abortReason(signal!));
      reject(abortReason(signal!));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    flight.promise.then(
      (value) => {
        if (leave()) resolve(value);
      },
      (err: unknown) => {
        if (leave()) reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}
