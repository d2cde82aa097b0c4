/**
 * Writing the status page: after a run (`sync --status-html`), with what the run did, and from the state alone (`sync
 * status --html`). The state is read afresh as a copy in memory (no lock, nothing written), so the page shows what
 * the run committed, or, after a failed run, what the last good run left; a state that cannot be read is said on the
 * page instead.
 */
import { LiveloxError, StateError } from '../../../errors.js';
import type { SyncResult } from '../../../jobs/sync/sync.js';
import { readSyncStatus, type SyncStatus } from '../../../jobs/sync/status.js';
import { syncStatusPage } from '../../../pictures/sync-status-page.js';
import { errorText } from '../../hints.js';
import { writeFileAtomic } from '../../output-files.js';
import { endedByInterruption, interruptedExitCode } from '../../signals.js';
import { EXIT } from '../../spec.js';
import { statusPageInput, type RunFacts } from './status-page.js';

/** What a run did, filled in as it goes: the page after it is written from this. */
export interface RunRecord {
  started: Date;
  /** The run committed (then it may still have failed, writing its files). */
  committed: boolean;
  /** Requests sent, once the service session is over. */
  requests?: number;
  /** The run ended with a failure it reported itself (exit 3, 4): what it said. */
  failure?: string;
  result?: SyncResult;
  /** Portal events whose fragment was not written: a file this tool did not write is at its name. */
  fragmentConflicts?: ReadonlyArray<{ key: string; file: string }>;
}

/**
 * How the run ended: with an exit code, or with an error the dispatcher reports (exit 1), and the command's signal:
 * an interrupted run exits 130 or 143 whatever it returned (src/cli/run.ts), and the page says the same.
 */
type RunEnd = ({ code: number } | { error: unknown }) & { signal: AbortSignal };

const INTERRUPTED_WORDS = 'interrupted before its end.';

function failureWords(err: unknown, aborted: boolean): string {
  if (aborted) return INTERRUPTED_WORDS;
  return err instanceof LiveloxError ? errorText(err) : err instanceof Error ? err.message : String(err);
}

/** The status of the state, or why it cannot be read, in the CLI's words. */
function statusOrProblem(statePath: string): { status?: SyncStatus; problem?: string } {
  try {
    return { status: readSyncStatus(statePath) };
  } catch (err) {
    if (err instanceof StateError) return { problem: errorText(err) };
    throw err;
  }
}

/** The page after a run, written atomically to `file`. */
export async function writeStatusPage(file: string, statePath: string, record: RunRecord, end: RunEnd): Promise<void> {
  const finished = new Date();
  const failed = 'error' in end;
  const aborted = end.signal.aborted;
  const code = failed ? EXIT.failure : end.code;
  const interrupted = endedByInterruption(end.signal, end);
  const exitCode = interrupted ? interruptedExitCode(end.signal) : code;
  const failure = failed ? failureWords(end.error, aborted) : interrupted ? INTERRUPTED_WORDS : record.failure;
  const run: RunFacts = {
    startedAt: record.started.toISOString(),
    durationMs: finished.getTime() - record.started.getTime(),
    requests: record.result?.requests ?? record.requests,
    exitCode,
    committed: record.committed,
    ...(failure === undefined ? {} : { failure }),
    ...(record.result === undefined ? {} : { changes: record.result.changes }),
    ...(record.fragmentConflicts === undefined ? {} : { fragmentConflicts: record.fragmentConflicts }),
  };
  const { status, problem } = statusOrProblem(statePath);
  const input = statusPageInput(status, {
    statePath,
    writtenAt: finished,
    run,
    ...(problem === undefined ? {} : { stateProblem: problem }),
  });
  await writeFileAtomic(file, Buffer.from(syncStatusPage(input), 'utf8'));
}
