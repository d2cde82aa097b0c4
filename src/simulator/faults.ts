/**
 * Fault injection: a share of API requests fails the way real networks and overloaded services fail. Half of the
 * server-side faults strike after the request was handled, so a POST may have taken effect although its answer was
 * lost: exactly the case that makes clients need idempotent retries. Beside the rate, a fault script (fault-script.ts)
 * tells what happens to which requests over time; its step wins over the rate.
 */
import {
  FaultScript,
  parseFaultScript,
  scriptOutcome,
  type FaultScriptStep,
  type FaultScriptProgress,
  type ScriptRequest,
} from './fault-script.js';
import { outcomeText, type Outcome } from './outcomes.js';
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

/** What strikes a request: the outcome, and how the journal (`label`) and the stats (`key`) name it. */
export interface Strike {
  outcome: Outcome;
  label: string;
  key: string;
}

export class FaultInjector {
  readonly settings: FaultSettings;
  readonly #random: Random;
  readonly #now: () => number;
  #script: FaultScript | undefined;

  constructor(settings: FaultSettings, random: Random, now: () => number = () => performance.now()) {
    if (!(settings.rate >= 0 && settings.rate <= 1))
      throw new RangeError(`fault rate must be within 0..1, got ${settings.rate}`);
    if (settings.kinds.length === 0) throw new RangeError('at least one fault kind is needed');
    this.settings = settings;
    this.#random = random;
    this.#now = now;
  }

  /**
   * Replaces the script (its steps start now); an empty one removes it. The steps are checked as the control endpoint
   * checks them: a ValidationError names the step and field, and the script in place stays.
   */
  setScript(steps: readonly FaultScriptStep[]): void {
    const checked = parseFaultScript(steps);
    this.#script = checked.length === 0 ? undefined : new FaultScript(checked, this.#now);
  }

  /** The script's steps and where it is; null without one. */
  scriptProgress(): FaultScriptProgress | null {
    return this.#script?.progress() ?? null;
  }

  /**
   * What strikes a request, if anything. The script's current step wins over the random rate; the random draw applies
   * only to /api requests the script let through (unmatched, or matched by a `pass` step). Both are deterministic: the
   * same script, seed and requests give the same strikes.
   */
  decide(req: ScriptRequest): Strike | undefined {
    const step = this.#script?.take(req);
    const scripted = step && scriptOutcome(step.outcome);
    if (step && scripted) {
      const label = `script[${step.index}]: ${outcomeText(scripted)}`;
      const outcome: Outcome =
        scripted.kind === 'status'
          ? { message: `Fault script step ${step.index}: status ${scripted.status}.`, ...scripted }
          : scripted;
      return { outcome, label, key: label };
    }
    if (!req.pathname.startsWith('/api/')) return undefined;
    const fault = this.draw();
    return fault && { outcome: this.#outcome(fault), label: `${fault.kind} (${fault.phase})`, key: fault.kind };
  }

  /** A random fault as the outcome carried out. */
  #outcome(fault: Fault): Outcome {
    const { phase, kind } = fault;
    const retryAfter = { 'retry-after': String(this.settings.retryAfterS) };
    switch (kind) {
      case '429':
        return { kind: 'status', status: 429, headers: retryAfter, message: 'Too many requests.', phase };
      case '500':
      case '502':
      case '503': {
        const status = Number(kind);
        const headers = status === 503 ? retryAfter : {};
        return { kind: 'status', status, headers, message: `Injected fault: ${status}.`, phase };
      }
      case 'reset':
        return { kind: 'reset', phase };
      case 'stall':
        return { kind: 'stall', ms: this.settings.stallMs, phase };
    }
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
