/**
 * What a run does with a route, from what the journal says of its id, before any request is made: the one place a run
 * and a dry run decide, so that a dry run says what a run would do. And whether the route is an edited version of a
 * run sent before under another id (or replaces one under its own), which a run reports rather than hides.
 */
import type { ImportJournal, JournalEntry } from '../../store/import-journal.js';

/**
 * `post`: nothing in the journal (or refused before). `skip`: imported earlier, or its import ended in error and is not
 * retried. `poll`: posted earlier and not settled: its state is asked for. `ask`: the journal cannot say whether the
 * service has it (a POST whose answer never came, or an imported route that may have been deleted since): asked for
 * first, posted again only when the service does not have it. `post_again`: sent earlier with other content or other
 * details (a changed manifest entry, an edited file under a manifest id) or ended in error and retried: posted again
 * under its id, which overwrites.
 */
export type ImportDecision = 'post' | 'skip' | 'poll' | 'ask' | 'post_again';

export interface DecideOptions {
  reimportDeleted?: boolean | undefined;
  retryErrors?: boolean | undefined;
}

/** The decision with the journal entry it was made from (absent for a route the journal does not know). */
export interface JournalStep {
  decision: ImportDecision;
  entry?: JournalEntry;
}

/** What to do with a route whose id the journal holds as `entry`, sent now with `contentHash`. */
export function decide(entry: JournalEntry | undefined, contentHash: string, options: DecideOptions): JournalStep {
  if (entry === undefined) return { decision: 'post' };
  if (entry.contentHash !== contentHash) return { decision: 'post_again', entry };
  switch (entry.state) {
    case 'imported':
      return { decision: options.reimportDeleted ? 'ask' : 'skip', entry };
    case 'error':
      return { decision: options.retryErrors ? 'post_again' : 'skip', entry };
    case 'posted':
    case 'pending':
      return { decision: 'poll', entry };
    case 'planned':
      return { decision: 'ask', entry };
    case 'failed':
      return { decision: 'post', entry };
  }
}

/**
 * The same run (file, runner, start) sent earlier with other bytes: an edited file. Posted under another id it is a
 * second route at the service, beside the earlier one (which the service keeps: it has no delete); under the same id
 * (a manifest's) it replaces it.
 */
export interface EarlierVersion {
  /** The id the earlier version was sent under. */
  id: string;
  /** The service said the earlier version was imported (else it was sent, and may be pending or in error there). */
  imported: boolean;
  /** Posted under the same id, so it replaces the earlier version; else it is a new route beside it. */
  replaced: boolean;
}

/**
 * The earlier version of route `id` (whose bytes hash to `fileHash`, of run `runKey`), if the journal knows one; `own`
 * is the journal's entry of `id`, read already.
 */
export function earlierVersion(
  journal: ImportJournal,
  route: { id: string; fileHash: string; runKey: string },
  own: JournalEntry | undefined,
): EarlierVersion | undefined {
  // A refused route never reached the service: nothing there to replace.
  if (own && own.state !== 'failed' && own.fileHash !== undefined && own.fileHash !== route.fileHash) {
    return { id: own.id, imported: own.state === 'imported', replaced: true };
  }
  // Settled and reported under this id already: posting it again (a corrected class) adds no route.
  if (own?.state === 'imported' || own?.state === 'error') return undefined;
  const other = journal.otherOfRun(route.runKey, route.id);
  return other && { id: other.id, imported: other.state === 'imported', replaced: false };
}
