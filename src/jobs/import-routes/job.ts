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
 * What the journal calls for is decided in decision.ts, the same for a run and a dry run (which reads, checks and
 * decides, and sends nothing). About 600 lines: the public types with their documented defaults are a third of it, and
 * the run's steps (journal decision, POST, wait) share one state that splitting would have to pass around.
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
import { decide, earlierVersion, type EarlierVersion, type ImportDecision, type JournalStep } from './decision.js';
import { ImportPace } from './pace.js';
import { readRoute, type RouteFile } from './route-file.js';
import { fileHash, routeId, runKey, sentContentHash, type RouteIdOptions } from './route-id.js';

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
  /** Routes this run posted that the service accepted (each once, however often it was sent). */
  posted: number;
  imported: number;
  /**
   * Routes at the service whose import has not settled: those this run is waiting for (`waiting`), and those reported
   * `pending` (not waited for, or the wait ended first).
   */
  pending: number;
  /** Of `pending`, the routes this run is still waiting for: 0 once the run has returned. */
  waiting: number;
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
  /** A dry run's decision: what a run would do with the route (absent for a file that cannot be read). */
  decision?: ImportDecision;
  /** The file was edited since the same run (file, runner, start) was sent under another id, or under this one. */
  changed?: EarlierVersion;
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
  /**
   * Read and check every route and decide what a run would do with it (`RouteReport.decision`), and send nothing: no
   * request at all, nothing written to the journal. Routes to send are reported `not_sent`. Default false.
   */
  dryRun?: boolean;
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
  update: Omit<JournalUpdate, 'state'> & { fileHash: string; runKey: string };
  changed?: EarlierVersion;
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
  /** Routes being waited for (counted as pending), and routes whose POST the service accepted. */
  readonly #waiting = new Set<number>();
  readonly #posted = new Set<number>();
  readonly #windowWaiters: Array<() => void> = [];
  #stoppedBy: LiveloxError | undefined;
  /** Settles when the batch's first POST was answered. */
  #probe: Promise<void> | undefined;
  #next = 0;

  constructor(options: ImportRoutesOptions) {
    this.#o = options;
    this.#journal = importJournalOf(options.journal);
    if (options.journal.readOnly && options.dryRun !== true) {
      throw new TypeError('a journal opened read-only is for a dry run only');
    }
    this.#reports = new Array<RouteReport | undefined>(options.routes.length);
    const t = options.importTimeMs ?? { minMs: 5000, maxMs: 15_000 };
    this.#pace = new ImportPace(t);
    this.#requestsBefore = options.client.transport.attempts;
    const zero = { posted: 0, imported: 0, pending: 0, waiting: 0, errors: 0, failed: 0, notSent: 0, skipped: 0 };
    this.#progress = { total: options.routes.length, ...zero, requests: 0 };
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
      progress: this.#snapshot(),
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
    let file: RouteFile;
    try {
      file = await readRoute(route.file);
    } catch (err) {
      if (!(err instanceof InputError)) throw err;
      this.#finish(index, { file: route.file, status: 'failed', errorMessage: err.message, error: err });
      return;
    }
    const { bytes } = file;
    const id = route.id ?? routeId(bytes, sent);
    const r: Identified = {
      index,
      update: {
        id,
        file: route.file,
        contentHash: sentContentHash(bytes, sent),
        fileHash: fileHash(bytes),
        runKey: runKey(file.realPath, sent.person, file.startMs),
      },
    };
    const first = this.#seen.get(id);
    if (first !== undefined && !forcePost) {
      const report = { file: route.file, id, status: 'skipped' as const, errorMessage: `the same route as ${first}` };
      this.#finish(index, { ...report, ...(o.dryRun ? { decision: 'skip' as const } : {}) });
      return;
    }
    this.#seen.set(id, route.file);
    const entry = forcePost ? undefined : this.#entry(id);
    if (entry === 'unreadable') {
      this.#finish(index, { file: route.file, id, status: 'not_sent', error: this.#stoppedBy! });
      return;
    }
    const step: JournalStep = forcePost ? { decision: 'post' } : decide(entry, r.update.contentHash, o);
    if (step.decision !== 'skip' && !forcePost) {
      const changed = this.#read(() => earlierVersion(this.#journal, r.update, entry));
      if (changed === 'unreadable') {
        this.#finish(index, this.#report(r, { status: 'not_sent', error: this.#stoppedBy! }));
        return;
      }
      if (changed) r.changed = changed;
    }
    if (o.dryRun) return this.#dryReport(r, step);
    if (!(await this.#resume(r, step)) || this.#stopped) return;
    await this.#post(r, bytes, sent);
  }

  /**
   * What the journal calls for before a POST: a route imported earlier is reported, one posted earlier polled, one the
   * journal cannot vouch for asked about. True when the route is to be posted (now).
   */
  async #resume(r: Identified, step: JournalStep): Promise<boolean> {
    const entry = step.entry;
    switch (step.decision) {
      case 'post':
      case 'post_again':
        return true;
      case 'skip':
        if (entry?.state === 'error') {
          this.#settle(r, entry.record ?? { status: 'error', errorMessage: entry.error ?? '' }, 'error', true);
        } else {
          this.#settle(r, entry?.record ?? { status: 'imported' }, 'skipped', true);
        }
        return false;
      case 'poll':
        this.#waitFor(r, false);
        return false;
      case 'ask':
        break;
    }
    const now = await this.#ask(r);
    if (now === 'stopped') return false;
    if (entry?.state === 'imported') {
      // Asked whether the service still has it: posted again only when it was deleted there.
      if (now === 'missing') return true;
      this.#settle(r, now ?? entry.record ?? { status: 'imported' }, 'skipped', now === undefined);
      return false;
    }
    // The POST may or may not have arrived: 404 means it did not, and it is sent again.
    if (now === 'missing') return true;
    if (now === undefined) {
      const message = 'the service could not be asked whether an earlier POST arrived; the next run asks again';
      this.#finish(r.index, this.#report(r, { status: 'failed', errorMessage: message }));
    } else if (now.status === 'pending') {
      this.#waitFor(r, false, 'pending');
    } else {
      this.#settle(r, now, now.status === 'imported' ? 'imported' : 'error', false);
    }
    return false;
  }

  /** A dry run's report: the decision, and what the journal already knows of the route. */
  #dryReport(r: Identified, step: JournalStep): void {
    const entry = step.entry;
    if (step.decision !== 'skip' || entry === undefined) {
      this.#finish(r.index, this.#report(r, { status: 'not_sent', decision: step.decision }));
      return;
    }
    const record =
      entry.record ?? (entry.state === 'error' ? { status: 'error' as const } : { status: 'imported' as const });
    this.#finish(r.index, {
      ...this.#recordReport(r, record, entry.state === 'error' ? 'error' : 'skipped', true),
      ...(entry.error !== undefined && record.errorMessage === undefined ? { errorMessage: entry.error } : {}),
      decision: 'skip',
    });
  }

  async #post(r: Identified, bytes: Uint8Array, sent: RouteIdOptions): Promise<void> {
    // The batch's first POST goes alone: a wrong key or a missing scope is then answered once, not once per slot.
    let probeDone: (() => void) | undefined;
    if (this.#probe === undefined) this.#probe = new Promise<void>((resolve) => (probeDone = resolve));
    else await this.#probe;
    if (this.#stopped) {
      this.#finish(r.index, this.#report(r, { status: 'not_sent' }));
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
      this.#finish(r.index, this.#report(r, { status: 'not_sent', error: this.#stoppedBy! }));
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
        this.#finish(r.index, this.#report(r, { status: 'not_sent', error: err }));
        return;
      }
      const refused = err instanceof ValidationError || err instanceof BadRequestError || err instanceof InputError;
      // Refused: nothing waits at the service. Unanswered: `planned` stays, and the next run asks.
      if (refused) this.#record({ ...r.update, state: 'failed', error: err.message });
      this.#finish(r.index, this.#report(r, { status: 'failed', errorMessage: err.message, error: err }));
      return;
    }
    // Unwritten, the journal still says `planned`, and the next run asks; the batch stops and reports this one pending.
    this.#record({ ...r.update, state: 'posted' });
    this.#posted.add(r.index);
    return this.#waitFor(r, true);
  }

  /** Starts waiting for the import off the slots, or reports pending without `wait`. */
  #waitFor(r: Identified, justPosted: boolean, known?: 'pending'): void {
    if (this.#o.wait === false) {
      this.#finish(r.index, this.#report(r, { status: 'pending', fromJournal: !justPosted }));
      return;
    }
    this.#waiting.add(r.index);
    this.#emit();
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
    this.#finish(r.index, this.#report(r, { status: 'pending' }));
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
        this.#finish(r.index, this.#report(r, { status: state, error: err }));
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
    this.#finish(r.index, this.#recordReport(r, record, status, fromJournal));
  }

  /** Route `r`'s report with what the service's import record says of it. */
  #recordReport(r: Identified, record: ImportRecord, status: RouteStatus, fromJournal: boolean): RouteReport {
    return this.#report(r, {
      status,
      ...(record.eventName !== undefined ? { eventName: record.eventName } : {}),
      ...(record.className !== undefined ? { className: record.className } : {}),
      ...(record.viewerUrl !== undefined ? { viewerUrl: record.viewerUrl } : {}),
      ...(record.errorMessage !== undefined ? { errorMessage: record.errorMessage } : {}),
      ...(fromJournal ? { fromJournal } : {}),
    });
  }

  /** A report of identified route `r`: its file, its id and, for an edited file, its earlier version. */
  #report(r: Identified, fields: Omit<RouteReport, 'file' | 'id'>): RouteReport {
    return { file: r.update.file, id: r.update.id, ...fields, ...(r.changed ? { changed: r.changed } : {}) };
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
    return this.#read(() => this.#journal.get(id));
  }

  /** What `read` reads from the journal; `unreadable`, with the batch stopped, when the journal cannot be read. */
  #read<T>(read: () => T): T | 'unreadable' {
    try {
      return read();
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
    this.#waiting.delete(index);
    this.#o.onRoute?.(report);
    this.#emit();
  }

  /** The counts now: a route being waited for is pending until its report says otherwise. */
  #snapshot(): ImportProgress {
    const p = this.#progress;
    p.requests = this.#o.client.transport.attempts - this.#requestsBefore;
    p.posted = this.#posted.size;
    p.waiting = this.#waiting.size;
    return { ...p, pending: p.pending + p.waiting };
  }

  #emit(): void {
    this.#o.onProgress?.(this.#snapshot());
  }
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
