/**
 * The requests the simulator is answering, so that closing it lets them finish (up to a deadline) instead of
 * resetting them: a shared simulator restarted under CI jobs must not fail the uploads and polls they have under way.
 * A request counts until its response has closed: answered, or its connection gone.
 */
import type { ServerResponse } from 'node:http';

export class InFlight {
  readonly #responses = new Set<ServerResponse>();
  #settled: (() => void) | undefined;

  track(res: ServerResponse): void {
    this.#responses.add(res);
    res.once('close', () => {
      this.#responses.delete(res);
      if (this.#responses.size === 0) this.#settled?.();
    });
  }

  get size(): number {
    return this.#responses.size;
  }

  /** Resolves true once every request tracked has closed, false if `timeoutMs` passed first. */
  settle(timeoutMs: number): Promise<boolean> {
    if (this.#responses.size === 0) return Promise.resolve(true);
    if (timeoutMs <= 0) return Promise.resolve(false);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#settled = undefined;
        resolve(false);
      }, timeoutMs);
      this.#settled = () => {
        clearTimeout(timer);
        this.#settled = undefined;
        resolve(true);
      };
    });
  }
}
