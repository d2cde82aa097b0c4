/**
 * What the simulator can do to a request instead of (or after) answering it normally: the one list of outcomes that
 * scenarios per request (scenarios.ts), fault scripts (fault-script.ts) and the random fault rate (faults.ts) choose
 * from, so that each is carried out by the same code in server.ts and journalled alike.
 */

/** `after`: the request is handled (and changes state) first; the outcome then replaces its answer. */
export type Phase = 'before' | 'after';

export type Outcome =
  /** An answer with this status (400..599), these headers and a JSON `message`. */
  | {
      kind: 'status';
      status: number;
      headers?: Record<string, string> | undefined;
      message?: string | undefined;
      phase?: Phase | undefined;
    }
  /** The answer to an expired access token (401 or 403 as the simulator is set); /api only. */
  | { kind: 'expired-token' }
  /** No byte for `ms`, then a TCP reset: a dead upstream. */
  | { kind: 'stall'; ms: number; phase?: Phase | undefined }
  /** A TCP reset at once (ECONNRESET). */
  | { kind: 'reset'; phase?: Phase | undefined }
  /**
   * The real answer's status and headers (its full content-length), `bytes` of its body (default half), then the
   * connection closed: a body cut short. Always after the request was handled.
   */
  | { kind: 'cut'; bytes?: number | undefined };

/** Longest stall asked for: ten minutes is longer than any client waits for headers. */
export const MAX_STALL_MS = 600_000;

/** Whether the request is handled before the outcome strikes. */
export function strikesAfter(outcome: Outcome): boolean {
  return outcome.kind === 'cut' || ('phase' in outcome && outcome.phase === 'after');
}

/** `503`, `503 (after)`, `stall 1500 ms`, `cut at 10 bytes`: as the journal and stats name an outcome. */
export function outcomeText(outcome: Outcome): string {
  const after = 'phase' in outcome && outcome.phase === 'after' ? ' (after)' : '';
  switch (outcome.kind) {
    case 'status':
      return `${outcome.status}${after}`;
    case 'stall':
      return `stall ${outcome.ms} ms${after}`;
    case 'reset':
      return `reset${after}`;
    case 'cut':
      return outcome.bytes === undefined ? 'cut' : `cut at ${outcome.bytes} bytes`;
    case 'expired-token':
      return 'expired-token';
  }
}

/** The body kept of an answer cut short: `bytes` of it (default half), always at least one byte short of it all. */
export function cutBody(body: Buffer, bytes: number | undefined): Buffer {
  const keep = Math.min(bytes ?? Math.floor(body.length / 2), body.length - 1);
  return body.subarray(0, Math.max(0, keep));
}
