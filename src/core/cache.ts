/**
 * A cache for answers that change rarely (countries; event details for a short time). Callers may pass their own
 * implementation (Redis, a file) through the client options.
 */
export interface Cache {
  /** The value, or undefined when absent or expired (a promise of it for remote caches). */
  get(key: string): unknown;
  set(key: string, value: unknown, ttlMs: number): Promise<void> | void;
  delete?(key: string): Promise<void> | void;
}

/** In-memory, bounded: the oldest entry goes when it is full. */
export class MemoryCache implements Cache {
  readonly #entries = new Map<string, { value: unknown; expires: number }>();
  readonly #maxEntries: number;
  readonly #now: () => number;

  constructor(options: { maxEntries?: number; now?: () => number } = {}) {
    this.#maxEntries = options.maxEntries ?? 500;
    this.#now = options.now ?? Date.now;
  }

  get(key: string): unknown {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.expires <= this.#now()) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, value: unknown, ttlMs: number): void {
    this.#entries.delete(key);
    if (this.#entries.size >= this.#maxEntries) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(key, { value, expires: this.#now() + ttlMs });
  }

  delete(key: string): void {
    this.#entries.delete(key);
  }
}
