/**
 * Reading a request body under the simulator's two guards. The memory budget of body bytes in flight: a body is
 * charged the bytes that have arrived until its first MiB is in, and only then its whole declared size, so that a
 * client declaring a large body and trickling it holds a few bytes of the budget, never what it declared, while a fast
 * large upload has its room reserved at once (many at the same moment cost at most a MiB each before all but those that
 * fit are refused). And a minimum rate, so that a client trickling its body is cut off after a grace period instead of
 * holding a socket and a request until the request timeout. docs/simulator-server.md states both.
 */
import type { IncomingMessage } from 'node:http';

/** Default of `minBodyBytesPerSecond`: 16 KiB/s, averaged from the start of the body. */
export const DEFAULT_MIN_BODY_BYTES_PER_SECOND = 16 * 1024;
/** Default of `slowBodyGraceMs`: the rate is first checked 10 s after the body started. */
export const DEFAULT_SLOW_BODY_GRACE_MS = 10_000;
/**
 * Bytes of a body charged as they arrive, before its declared size (the endpoint's limit for a chunked body) is
 * reserved. At this point a body with a Content-Length also moves into one buffer of the declared size that takes the
 * rest, so that a large upload is held once (no second copy from concatenating) and a client that declares a large
 * body and trickles it never makes the simulator allocate what it declared.
 */
const BODY_RESERVED_AFTER_BYTES = 1024 * 1024;

/** Body bytes charged by the requests being read and handled, across all requests. */
export class BodyBudget {
  #used = 0;
  constructor(readonly limitBytes: number) {}

  /** Whether `bytes` more fit (checked before a byte of a body is read). */
  admits(bytes: number): boolean {
    return this.#used + bytes <= this.limitBytes;
  }

  /** Charges `bytes`; false (nothing charged) when they would pass the budget. */
  take(bytes: number): boolean {
    if (!this.admits(bytes)) return false;
    this.#used += bytes;
    return true;
  }

  /** Gives back bytes taken (once the answer is sent, or the body was refused). */
  give(bytes: number): void {
    this.#used -= bytes;
  }

  get usedBytes(): number {
    return this.#used;
  }
}

/** How fast a body must arrive: on average `minBytesPerSecond` from its start, checked once `graceMs` have passed. */
export interface BodyRate {
  minBytesPerSecond: number;
  graceMs: number;
}

/**
 * What reading a body came to. `too_large`: it outgrew the endpoint's limit (413); `busy`: it would pass the budget
 * (503); `slow`: it arrived slower than the minimum rate (408); `gone`: the client went away (or Node's request timeout
 * answered it), so nobody is left to answer.
 */
export type BodyRead =
  { ok: true; body: Buffer; charged: number } | { ok: false; refusal: BodyRefusal; charged: number };

export type BodyRefusal = 'too_large' | 'busy' | 'slow' | 'gone';

/**
 * Reads the body of `req`, at most `limit` bytes, charging it to `budget` (the bytes that arrive, then at
 * BODY_RESERVED_AFTER_BYTES its declared size). `charged` is what the caller gives back to the budget once the answer
 * is sent: the body stays in memory while it is handled. On a refusal the rest of the body is left unread: the caller
 * answers with `Connection: close`.
 */
export function readBody(req: IncomingMessage, limit: number, budget: BodyBudget, rate: BodyRate): Promise<BodyRead> {
  return new Promise((resolve) => new BodyReader(req, limit, budget, rate, resolve).start());
}

class BodyReader {
  readonly #declared: number | undefined;
  readonly #started = performance.now();
  #chunks: Buffer[] = [];
  #whole: Buffer | undefined;
  #arrived = 0;
  /** What is charged to the budget: the bytes arrived, then the size reserved. */
  #charged = 0;
  #reserved = false;
  #timer: NodeJS.Timeout | undefined;
  #done = false;

  constructor(
    readonly req: IncomingMessage,
    readonly limit: number,
    readonly budget: BodyBudget,
    readonly rate: BodyRate,
    readonly resolve: (read: BodyRead) => void,
  ) {
    const length = req.headers['content-length'];
    this.#declared = length === undefined ? undefined : Number(length);
  }

  start(): void {
    this.req.on('data', this.#onData);
    this.req.on('end', this.#onEnd);
    this.req.on('close', this.#onGone);
    this.req.on('error', this.#onGone);
    this.#watch();
  }

  readonly #onData = (chunk: Buffer): void => {
    // Node stops a body at its Content-Length; a chunked body is cut at the endpoint's limit.
    if (this.#arrived + chunk.length > this.limit) return this.#refuse('too_large');
    if (!this.#reserved) {
      if (!this.budget.take(chunk.length)) return this.#refuse('busy');
      this.#charged += chunk.length;
    }
    if (this.#whole) chunk.copy(this.#whole, this.#arrived);
    else this.#chunks.push(chunk);
    this.#arrived += chunk.length;
    if (!this.#reserved && this.#arrived >= BODY_RESERVED_AFTER_BYTES && !this.#reserve()) this.#refuse('busy');
  };

  /** Reserves the room the rest of the body needs, and moves what has arrived into one buffer of the declared size. */
  #reserve(): boolean {
    const size = this.#declared ?? this.limit;
    if (!this.budget.take(size - this.#charged)) return false;
    this.#charged = size;
    this.#reserved = true;
    if (this.#declared !== undefined && this.#arrived < this.#declared) {
      const whole = Buffer.allocUnsafe(this.#declared);
      let at = 0;
      for (const piece of this.#chunks) at += piece.copy(whole, at);
      this.#whole = whole;
      this.#chunks = [];
    }
    return true;
  }

  readonly #onEnd = (): void => {
    const body = this.#whole ? this.#whole.subarray(0, this.#arrived) : Buffer.concat(this.#chunks, this.#arrived);
    // A chunked body reserved the endpoint's limit: what it did not use goes back now.
    this.budget.give(this.#charged - this.#arrived);
    this.#charged = this.#arrived;
    this.#finish({ ok: true, body, charged: this.#charged });
  };

  readonly #onGone = (): void => this.#refuse('gone');

  #refuse(refusal: BodyRefusal): void {
    this.#finish({ ok: false, refusal, charged: this.#charged });
  }

  #finish(read: BodyRead): void {
    if (this.#done) return;
    this.#done = true;
    clearTimeout(this.#timer);
    this.req.off('data', this.#onData);
    this.req.off('end', this.#onEnd);
    this.req.off('close', this.#onGone);
    this.req.off('error', this.#onGone);
    // The rest of a refused body is never read; the answer closes the connection.
    if (!read.ok) this.req.pause();
    this.resolve(read);
  }

  /**
   * Looks again when the bytes arrived so far stop meeting the rate (at the earliest after the grace period). A timer
   * that finds the body too slow looks once more after the event loop has read what the sockets hold (setImmediate
   * runs after the poll phase), so that a simulator busy for a while never blames a client for its own delay.
   */
  #watch(): void {
    const { minBytesPerSecond, graceMs } = this.rate;
    if (minBytesPerSecond <= 0) return;
    const dueMs = Math.max(graceMs, (this.#arrived / minBytesPerSecond) * 1000) - this.#elapsedMs();
    this.#timer = setTimeout(
      () => setImmediate(() => (this.#tooSlow() ? this.#refuse('slow') : this.#watch())),
      Math.max(1, Math.ceil(dueMs)),
    );
    this.#timer.unref();
  }

  #tooSlow(): boolean {
    const elapsedMs = this.#elapsedMs();
    return elapsedMs >= this.rate.graceMs && this.#arrived < (this.rate.minBytesPerSecond * elapsedMs) / 1000;
  }

  #elapsedMs(): number {
    return performance.now() - this.#started;
  }
}
