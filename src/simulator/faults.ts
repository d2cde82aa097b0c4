/**
 * Fault injection: a share of API requests fails the way real networks and overloaded services fail. Half of the
 * server-side faults strike after the request was handled, so a POST may have taken effect although its answer was
 * lost: exactly the case that makes clients need idempotent retries.
 */
import type { Random } from './random.js';

export const FAULT_KINDS = ['429', '500', '502', '503', 'reset', 'stall'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface Fault {
  kind: FaultKind;
  /** `after`: the handler ran (and changed state) before the fault replaced its answer. */
  phase: 'before' | 'after';
}

export interface FaultSettings {
  /** Share of API requests that fail, 0..1. */
  rate: number;
  kinds: readonly FaultKind[];
  /** How long a stalled request hangs before its connection is dropped. */
  stallMs: number;
  /** Seconds sent in Retry-After with a 429. */
  retryAfterS: number;
}

export class FaultInjector {
  readonly settings: FaultSettings;
  readonly #random: Random;

  constructor(settings: FaultSettings, random: Random) {
    if (!(settings.rate >= 0 && settings.rate <= 1))
      throw new RangeError(`fault rate must be within 0..1, got ${settings.rate}`);
    if (settings.kinds.length === 0) throw new RangeError('at least one fault kind is needed');
    this.settings = settings;
    this.#random = random;
  }

  draw(): Fault | undefined {
    if (this.settings.rate === 0 || this.#random.next() >= this.settings.rate) return undefined;
    const kind = this.#random.pick(this.settings.kinds);
    // A 429 is a refusal at the door: it never follows work done.
    const phase = kind === '429' || this.#random.next() < 0.5 ? 'before' : 'after';
    return { kind, phase };
  }
}

export function parseFaultKinds(text: string): FaultKind[] {
  const kinds = text
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  const bad = kinds.filter((k) => !(FAULT_KINDS as readonly string[]).includes(k));
  if (bad.length > 0) throw new RangeError(`unknown fault kind ${bad.join(', ')}: use ${FAULT_KINDS.join(', ')}`);
  return kinds as FaultKind[];
}
