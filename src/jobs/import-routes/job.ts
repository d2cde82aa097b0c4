/**
 * Bulk route import, exactly once across crashes. Each route's intent is journaled before its POST and every state
 * after it; a re-run asks the service (GET) about what the journal cannot vouch for, and a deterministic id makes
 * every repeated POST an overwrite.
 *
 * Shape: `concurrency` slots read, check and POST routes one at a time; a posted route then waits for its import off
 * the slots (its polls go through the client's limiter), so a slot POSTs the next route at once. Waiting costs no
 * bytes (the file is not kept), and at most `maxWaiting` routes wait at once. This meets both targets: requests
 * stay near 2.25 per route because polls can be late without slowing the batch (pace.ts), and the wall time is bounded
 * by POSTs and the rate limit, far under routes / concurrency x import time.
 *
 * About 500 lines: the public types with their documented defaults are a third of it, and the run's steps (journal
 * decision, POST, wait) share one state that splitting would have to pass around.
 */
import { setMaxListeners } from 'node:events';
import type { LiveloxClient } from '../../client.js';
import { sleep } from '../../core/sleep.js';
import {
  AuthError,
  ConnectionError,
  BadRequestError,
  InputError,
  LiveloxError,
  NotFoundError,
  ScopeError,
  StateError,
  ValidationError,
} from '../../errors.js';
import type { ImportRecord } from '../../resources/routes.js';
import {
  importJournalOf,
  type ImportJournal,
  type ImportJournalFile,
  type JournalEntry,
  type JournalUpdate,
} from '../../store/import-journal.js';
import { ImportPace } from './pace.js';
import { readRoute } from './route-file.js';
import { routeId, sentContentHash, type RouteIdOptions } from './route-id.js';

export interface RouteToImport {
  file: string;
  classId?: number;
  person?: { firstName?: string; lastName?: string };
  deviceModel?: string;
  /** Your id for the route (a manifest's); default `routeId(bytes, ...)`. */
  id?: string;
}

export interface ImportProgress {
  total: number;
  imported: number;
  pending: number;
  /** Routes whose import ended in `error` (the service's reason in their report). */
  errors: number;
  failed: number;
  notSent: number;
  skipped: number;
  requests: number;
}

/**
 * `imported`/`error`: the service's final word. `pending`: posted, not settled yet (no wait, aborted, or the wait
 * timed out). `failed`: never accepted (unreadable or hostile file, refused request, or a POST whose answer never
 * came: the journal keeps its intent and the next run asks). `not_sent`: the batch stopped first. `skipped`: already
 * imported by an earlier run (or the same route twice in this one).
 */
export type RouteStatus = 'imported' | 'pending' | 'error' | 'failed' | 'not_sent' | 'skipped';

export interface RouteReport {
  file: string;
  id?: string;
  status: RouteStatus;
  eventName?: string;
  className?: string;
  viewerUrl?: string;
  errorMessage?: string;
  error?: LiveloxError;
  /** The status comes from an earlier run's journal, not from this run's requests. */
  fromJournal?: boolean;
}

export interface ImportRoutesOptions {
  client: LiveloxClient;
  /** The journal `openImportJournal` opened. */
  journal: ImportJournalFile;
  routes: readonly RouteToImport[];
  /** Defaults for routes without their own. */
  classId?: number;
  deviceModel?: string;
  /** Poll until each route is imported or error. Default true. */
  wait?: boolean;
  /** Routes being read and posted at once. Default 8 (the client's rate limit also applies). */
  concurrency?: number;
  /** Posted routes waiting for their import at once; a slot waits when this many do. Default 16 x concurrency. */
  maxWaiting?: number;
  /** The import time expected of the service, for the polling pace. Default 5000-15000 ms (contract section 3). */
  importTimeMs?: { minMs: number; maxMs: number };
  /** Stop waiting for one route's import after this long; it is reported pending. Default 120000 ms. */
  waitTimeoutMs?: number;
  /** Re-import journal-imported routes the service no longer has (GET 404). Default false. */
  reimportDeleted?: boolean;
  /** Post again routes that ended in `error`. Default false. */
  retryErrors?: boolean;
  /** Aborted: send nothing new, let in-flight requests finish, journal, return `interrupted`. */
  signal?: AbortSignal;
  onProgress?: (p: ImportProgress) => void;
  /** Told each route's final report once. */
  onRoute?: (r: RouteReport) => void;
}

export interface ImportRoutesResult {
  /** In the order of `routes`. */
  routes: RouteReport[];
  /** The signal stopped the batch. */
  interrupted: boolean;
  /**
   * What stopped the batch: the first authorization or scope failure, an unreachable service, or a journal that could
   * not be read or written (a `StateError` naming it: a full disk, a damaged file).
   */
  stoppedBy?: LiveloxError;
  requests: number;
  progress: ImportProgress;
}

export async function importRoutesJob(options: ImportRoutesOptions): Promise<ImportRoutesResult> {
  return new ImportRun(options).run();
}

/** A route in the making: what the journal needs, without the bytes. */
interface Identified {
  index: number;
  update: Omit<JournalUpdate, 'state'>;
}

const COUNTER: Record<RouteStatus, keyof ImportProgress> = {
  imported: 'imported',
  pending: 'pending',
  error: 'errors',
  failed: 'failed',
  not_sent: 'notSent',
  skipped: 'skipped',
};

class ImportRun {
  readonly #o: ImportRoutesOptions;
  readonly #journal: ImportJournal;
  readonly #reports: Array<RouteReport | undefined>;
  readonly #stop = new AbortController();
  readonly #pace: ImportPace;
  readonly #requestsBefore: number;
  readonly #progress: ImportProgress;
  readonly #seen = new Map<string, string>();
  readonly #waits = new Set<Promise<void>>();
  readonly #windowWaiters: Array<() => void> = [];
  #stoppedBy: LiveloxError | undefined;
  /** Settles when the batch's first POST was answered. */
  #probe: Promise<void> | undefined;
  #next = 0;

  constructor(options: ImportRoutesOptions) {
    this.#o = options;
    this.#journal = importJournalOf(options.journal);
    this.#reports = new Array<RouteReport | undefined>(options.routes.length);
    const t = options.importTimeMs ?? { minMs: 5000, maxMs: 15_000 };
    this.#pace = new ImportPace(t);
    this.#requestsBefore = options.client.transport.attempts;
    const zero = { imported: 0, pending: 0, errors: 0, failed: 0, notSent: 0, skipped: 0, requests: 0 };
    this.#progress = { total: options.routes.length, ...zero };
    // Every waiting route sleeps on this signal: hundreds of listeners are expected, not a leak.
    setMaxListeners(0, this.#stop.signal);
    // A stop wakes the slots waiting for room in the window: they have nothing more to send.
    this.#stop.signal.addEventListener('abort', () => {
      for (const wake of this.#windowWaiters.splice(0)) wake();
    });
  }

  async run(): Promise<ImportRoutesResult> {
    const signal = this.#o.signal;
    const onAbort = () => this.#stop.abort();
    if (signal?.aborted) onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const slots = Math.max(1, this.#o.concurrency ?? 8);
      await Promise.all(Array.from({ length: slots }, () => this.#slot()));
      while (this.#waits.size > 0) await Promise.all([...this.#waits]);
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
    this.#o.routes.forEach((r, i) => {
      if (!this.#reports[i]) this.#finish(i, { file: r.file, status: 'not_sent' });
    });
    this.#progress.requests = this.#o.client.transport.attempts - this.#requestsBefore;
    return {
      routes: this.#reports as RouteReport[],
      interrupted: signal?.aborted ?? false,
      ...(this.#stoppedBy ? { stoppedBy: this.#stoppedBy } : {}),
      requests: this.#progress.requests,
      progress: { ...this.#progress },
    };
  }

  get #stopped(): boolean {
    return this.#stop.signal.aborted;
  }

  async #slot(): Promise<void> {
    while (!this.#stopped && this.#next < this.#o.routes.length) {
      await this.#windowFree();
      if (this.#stopped) return;
      const index = this.#next++;
      if (index >= this.#o.routes.length) return;
      await this.#start(index, false);
    }
  }

  /** Reads, checks and identifies route `index`, then does what its journal entry calls for. */
  async #start(index: number, forcePost: boolean): Promise<void> {
    const o = this.#o;
    const route = o.routes[index]!;
    const sent = {
      classId: route.classId ?? o.classId,
      person: route.person,
      deviceModel: route.deviceModel ?? o.deviceModel,
    };
    let bytes: Uint8Array;
    try {
      bytes = await readRoute(route.file);
    } catch (err) {
      if (!(err instanceof InputError)) throw err;
      this.#finish(index, { file: route.file, status: 'failed', errorMessage: err.message, error: err });
      return;
    }
    const id = route.id ?? routeId(bytes, sent);
    const r: Identified = { index, update: { id, file: route.file, contentHash: sentContentHash(bytes, sent) } };
    const first = this.#seen.get(id);
    if (first !== undefined && !forcePost) {
      this.#finish(index, { file: route.file, id, status: 'skipped', errorMessage: `the same route as ${first}` });
      return;
    }
    this.#seen.set(id, route.file);
    const entry = forcePost ? undefined : this.#entry(id);
    if (entry === 'unreadable') {
      this.#finish(index, { file: route.file, id, status: 'not_sent', error: this.#stoppedBy! });
      return;
    }
    if (entry && entry.contentHash === r.update.contentHash) {
      switch (entry.state) {
        case 'imported': {
          if (!o.reimportDeleted) return this.#settle(r, entry.record ?? { status: 'imported' }, 'skipped', true);
          const now = await this.#ask(r);
          if (now === 'stopped') return;
          if (now === undefined) return this.#settle(r, entry.record ?? { status: 'imported' }, 'skipped', true);
          if (now !== 'missing') return this.#settle(r, now, 'skipped', false);
          break;
        }
        case 'error':
          if (!o.retryErrors) {
            return this.#settle(r, entry.record ?? { status: 'error', errorMessage: entry.error ?? '' }, 'error', true);
          }
          break;
        case 'posted':
        case 'pending':
          return this.#waitFor(r, false);
        case 'planned': {
          // The POST may or may not have arrived: ask before sending it again.
          const now = await this.#ask(r);
          if (now === 'stopped') return;
          if (now === undefined) {
            const message = 'the service could not be asked whether an earlier POST arrived; the next run asks again';
            this.#finish(index, { file: route.file, id, status: 'failed', errorMessage: message });
            return;
          }
          if (now !== 'missing') {
            if (now.status === 'pending') return this.#waitFor(r, false, 'pending');
            return this.#settle(r, now, now.status === 'imported' ? 'imported' : 'error', false);
          }
          break;
        }
        case 'failed':
          break;
      }
    }
    if (this.#stopped) return;
    await this.#post(r, bytes, sent);
  }

  async #post(r: Identified, bytes: Uint8Array, sent: RouteIdOptions): Promise<void> {
    // The batch's first POST goes alone: a wrong key or a missing scope is then answered once, not once per slot.
    let probeDone: (() => void) | undefined;
    if (this.#probe === undefined) this.#probe = new Promise<void>((resolve) => (probeDone = resolve));
    else await this.#probe;
    if (this.#stopped) {
      this.#finish(r.index, { file: r.update.file, id: r.update.id, status: 'not_sent' });
      return;
    }
    try {
      await this.#postOnce(r, bytes, sent);
    } finally {
      probeDone?.();
    }
  }

  async #postOnce(r: Identified, bytes: Uint8Array, sent: RouteIdOptions): Promise<void> {
    const { client } = this.#o;
    // Durable before the request leaves: a crash from here on leaves `planned`, and the next run asks first.
    if (!this.#record({ ...r.update, state: 'planned' })) {
      this.#finish(r.index, { file: r.update.file, id: r.update.id, status: 'not_sent', error: this.#stoppedBy! });
      return;
    }
    try {
      // No signal: an abort lets a POST in flight finish, so its answer is journaled.
      await client.routes.import({
        id: r.update.id,
        data: bytes,
        ...(sent.classId !== undefined ? { classId: sent.classId } : {}),
        ...(sent.person ? { person: sent.person } : {}),
        ...(sent.deviceModel !== undefined ? { deviceModel: sent.deviceModel } : {}),
      });
    } catch (err) {
      if (!(err instanceof LiveloxError)) throw err;
      if (this.#stopsBatch(err)) {
        // Refused at the door: nothing arrived; `planned` makes the next run ask anyway.
        this.#finish(r.index, { file: r.update.file, id: r.update.id, status: 'not_sent', error: err });
        return;
      }
      const refused = err instanceof ValidationError || err instanceof BadRequestError || err instanceof InputError;
      // Refused: nothing waits at the service. Unanswered: `planned` stays, and the next run asks.
      if (refused) this.#record({ ...r.update, state: 'failed', error: err.message });
      this.#finish(r.index, failedReport(r, err));
      return;
    }
    // Unwritten, the journal still says `planned`, and the next run asks; the batch stops and reports this one pending.
    this.#record({ ...r.update, state: 'posted' });
    return this.#waitFor(r, true);
  }

  /** Starts waiting for the import off the slots, or reports pending without `wait`. */
  #waitFor(r: Identified, justPosted: boolean, known?: 'pending'): void {
    if (this.#o.wait === false) {
      this.#finish(r.index, { file: r.update.file, id: r.update.id, status: 'pending', fromJournal: !justPosted });
      return;
    }
    const waiting = this.#pollUntilSettled(r, justPosted, known).finally(() => {
      this.#waits.delete(waiting);
      this.#windowWaiters.shift()?.();
    });
    this.#waits.add(waiting);
  }

  async #pollUntilSettled(r: Identified, justPosted: boolean, known?: 'pending'): Promise<void> {
    const started = performance.now();
    const deadline = started + (this.#o.waitTimeoutMs ?? 120_000);
    let journaledPending = known === 'pending';
    if (journaledPending) this.#record({ ...r.update, state: 'pending' });
    // Just posted: the first look when most imports are done; a journal's `posted`: ask now; known pending: a step.
    let delay = justPosted ? this.#pace.firstPollMs() : journaledPending ? this.#pace.stepMs() : 0;
    let polls = 0;
    for (;;) {
      // A wait shorter than the pace still looks once, at its deadline, rather than giving up unasked.
      const remaining = deadline - performance.now();
      if (remaining <= 0 || this.#stopped) break;
      const last = delay >= remaining;
      if (last) delay = remaining;
      try {
        await sleep(delay, this.#stop.signal);
      } catch {
        break;
      }
      const now = await this.#ask(r);
      polls++;
      delay = this.#pace.stepMs(polls);
      if (now === 'stopped') return;
      if (now === 'missing') {
        // Accepted, then gone (deleted at the service): the same id again.
        if (this.#stopped) break;
        return this.#start(r.index, true);
      }
      if (now === undefined) {
        if (last) break;
        continue;
      }
      if (now.status === 'pending') {
        if (!journaledPending) this.#record({ ...r.update, state: 'pending', record: now });
        journaledPending = true;
        if (last) break;
        continue;
      }
      if (justPosted) this.#pace.observe(polls === 1);
      return this.#settle(r, now, now.status === 'imported' ? 'imported' : 'error', false);
    }
    this.#finish(r.index, { file: r.update.file, id: r.update.id, status: 'pending' });
  }

  /**
   * GET the import record. `missing` on 404, `stopped` when an authorization failure stopped the batch (the route
   * is then reported), undefined after a failure the transport's retries could not overcome (ask again later).
   */
  async #ask(r: Identified): Promise<ImportRecord | 'missing' | 'stopped' | undefined> {
    try {
      return await this.#o.client.routes.status(r.update.id);
    } catch (err) {
      if (err instanceof NotFoundError) return 'missing';
      if (!(err instanceof LiveloxError)) throw err;
      if (this.#stopsBatch(err)) {
        // A journal that cannot say leaves it pending: it may have been sent.
        const state = this.#entry(r.update.id) === undefined ? 'not_sent' : 'pending';
        this.#finish(r.index, { file: r.update.file, id: r.update.id, status: state, error: err });
        return 'stopped';
      }
      return undefined;
    }
  }

  #settle(r: Identified, record: ImportRecord, status: RouteStatus, fromJournal: boolean): void {
    if (!fromJournal && record.status !== 'pending') {
      // Unwritten, it stays what the journal said, and the next run asks again: the service's word is reported now.
      this.#record({
        ...r.update,
        state: record.status,
        record,
        ...(record.errorMessage !== undefined ? { error: record.errorMessage } : {}),
      });
    }
    this.#finish(r.index, {
      file: r.update.file,
      id: r.update.id,
      status,
      ...(record.eventName !== undefined ? { eventName: record.eventName } : {}),
      ...(record.className !== undefined ? { className: record.className } : {}),
      ...(record.viewerUrl !== undefined ? { viewerUrl: record.viewerUrl } : {}),
      ...(record.errorMessage !== undefined ? { errorMessage: record.errorMessage } : {}),
      ...(fromJournal ? { fromJournal } : {}),
    });
  }

  /**
   * An authorization or scope failure stops the batch at its first answer; so does a service that cannot be reached
   * at all (refused, no such host) once the client's retries are spent: every other route would only say it again.
   */
  #stopsBatch(err: LiveloxError): boolean {
    if (!(err instanceof AuthError || err instanceof ScopeError || unreachable(err))) return false;
    this.#stopFor(err);
    return true;
  }

  #stopFor(err: LiveloxError): void {
    this.#stoppedBy ??= err;
    this.#stop.abort();
  }

  /**
   * Writes a route's state to the journal, or stops the batch when the journal cannot take it (a full disk, a damaged
   * file): nothing more is sent, requests in flight finish, and the report says what was done. Whether it was written.
   */
  #record(update: JournalUpdate): boolean {
    try {
      this.#journal.record(update);
      return true;
    } catch (err) {
      if (!(err instanceof StateError)) throw err;
      this.#stopFor(err);
      return false;
    }
  }

  /** A route's journal entry; `unreadable`, with the batch stopped, when the journal cannot be read. */
  #entry(id: string): JournalEntry | undefined | 'unreadable' {
    try {
      return this.#journal.get(id);
    } catch (err) {
      if (!(err instanceof StateError)) throw err;
      this.#stopFor(err);
      return 'unreadable';
    }
  }

  async #windowFree(): Promise<void> {
    const max = this.#o.maxWaiting ?? 16 * Math.max(1, this.#o.concurrency ?? 8);
    while (this.#waits.size >= max && !this.#stopped) {
      await new Promise<void>((resolve) => this.#windowWaiters.push(resolve));
    }
  }

  #finish(index: number, report: RouteReport): void {
    const before = this.#reports[index];
    if (before) this.#progress[COUNTER[before.status]]--;
    this.#reports[index] = report;
    this.#progress[COUNTER[report.status]]++;
    this.#progress.requests = this.#o.client.transport.attempts - this.#requestsBefore;
    this.#o.onRoute?.(report);
    this.#o.onProgress?.({ ...this.#progress });
  }
}

function failedReport(r: Identified, err: LiveloxError): RouteReport {
  return { file: r.update.file, id: r.update.id, status: 'failed', errorMessage: err.message, error: err };
}

/** The service is not there: nothing answers at its address (as opposed to a connection that broke mid-way). */
function unreachable(err: LiveloxError): boolean {
  if (!(err instanceof ConnectionError)) return false;
  const code = (err.cause as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && UNREACHABLE_CODES.has(code);
}

const UNREACHABLE_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
