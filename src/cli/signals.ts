/**
 * The process signals that end a command, and the exit code each gives. main.ts aborts the command's signal with a
 * `SignalReceived`, so that what a command writes while it cleans up (the sync status page) names the exit code the
 * shell will see: 130 after Ctrl-C, 143 after SIGTERM (128 + the signal's number).
 */
import { EXIT } from './spec.js';

export type EndingSignal = 'SIGINT' | 'SIGTERM';

export class SignalReceived extends Error {
  constructor(readonly signal: EndingSignal) {
    super(`received ${signal}`);
    this.name = 'SignalReceived';
  }
}

export function exitCodeForSignal(signal: EndingSignal): number {
  return signal === 'SIGTERM' ? EXIT.terminated : EXIT.interrupted;
}

/** The exit code of a command whose signal was aborted: 143 when SIGTERM did it, else 130 (Ctrl-C, a closed pipe). */
export function interruptedExitCode(signal: AbortSignal): number {
  const reason: unknown = signal.reason;
  return reason instanceof SignalReceived ? exitCodeForSignal(reason.signal) : EXIT.interrupted;
}

/**
 * Whether a command ended because it was interrupted: it failed (threw, or answered exit 1) after its signal was
 * aborted. The one rule for the dispatcher's exit code and for what the sync status page says of the run.
 */
export function endedByInterruption(signal: AbortSignal, end: { code: number } | { error: unknown }): boolean {
  return signal.aborted && ('error' in end || end.code === EXIT.failure);
}
