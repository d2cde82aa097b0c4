/**
 * The validator behind `validate` and `createIofValidator`: a queue of documents from any number of callers, drained
 * into xmllint runs bounded in documents, bytes and time. Each xmllint run costs about 160 ms before the first document
 * (a worker thread, the WebAssembly module, compiling IOF.xsd), so every document handed over within a short window,
 * or while a run is going, joins the next run. One caller's document must never fail another caller's call: a run
 * that fails as a whole is split by caller and run again, and a document libxml2 ran out of memory on is run alone.
 *
 * The queue and the batch run are one class, a little over 400 lines, because they share the bounds, the counters and
 * the queue a failed batch goes back into; what a batch is handed and what its answers mean live beside it (`prepare.ts`, `xmllint.ts`, `messages.ts`, `failures.ts`).
 */
import { randomBytes } from 'node:crypto';
import { memoryPages } from 'xmllint-wasm';
import type { Issue } from '../../errors.js';
import { abortReason } from '../../core/sleep.js';
import { iofDtdPath, iofSchemaPath } from '../schema-path.js';
import { loadGrammar, type Grammar } from './grammar.js';
import {
  DeadlineExceeded,
  describeCrash,
  dtdUnusable,
  formatBytes,
  firstLine,
  schemaInvalid,
  schemaMissing,
  validationTimedOut,
  validatorFailed,
} from './failures.js';
import { parseXmllintOutput } from './messages.js';
import { prepareDocument } from './prepare.js';
import type {
  DocumentIofVersion,
  IofValidationResult,
  IofValidator,
  IofValidatorOptions,
  IofValidatorStats,
  ValidateOptions,
  XmlDocumentInput,
} from './types.js';
import {
  CHECKED_EXIT_CODES,
  OUT_OF_MEMORY_EXIT_CODE,
  SCHEMA_COMPILE_EXIT_CODE,
  maxMemoryPagesFor,
  runXmllintWasm,
  type XmllintOutput,
  type XmllintRun,
} from './xmllint.js';

const DEFAULT_COALESCE_WINDOW_MS = 2;
const DEFAULT_MAX_DOCUMENTS_PER_BATCH = 200;
const DEFAULT_MAX_BATCH_BYTES = 16 * 1024 * 1024;
const DEFAULT_MAX_BATCHES_IN_FLIGHT = 1;
const DEFAULT_TIMEOUT_MS = 5000;
const DEFAULT_TIMEOUT_MS_PER_MIB = 200;

/** One caller's call. */
interface Job {
  results: Array<IofValidationResult | undefined>;
  names: readonly string[];
  /** Documents still waiting for a result. */
  remaining: number;
  settled: boolean;
  resolve: (results: IofValidationResult[]) => void;
  reject: (error: Error) => void;
}

/** One document waiting for xmllint. */
interface Entry {
  job: Job;
  /** Index in the job's results. */
  index: number;
  version: DocumentIofVersion;
  /** UTF-8 or UTF-16 bytes libxml2 can read. */
  bytes: Uint8Array;
  grammar: Grammar;
  /** Problems found before libxml2 (a namespace declaration the 2.0.3 DTD does not allow). */
  found: Issue[];
  /**
   * `job`: runs only beside documents of the same caller (a shared batch with it failed). `alone`: runs by itself
   * (libxml2 ran out of memory in a batch with it). Each happens at most once per document.
   */
  isolation?: 'job' | 'alone';
}

/** How a batch as a whole went wrong: what each of its callers is told. */
type BatchFailure = (job: Job) => Error;

/** Made by `createIofValidator`; callers see only `IofValidator`. */
export class BatchingValidator implements IofValidator {
  readonly #windowMs: number;
  readonly #maxDocuments: number;
  readonly #maxBytes: number;
  readonly #maxInFlight: number;
  readonly #timeoutMs: number;
  readonly #timeoutMsPerMiB: number;
  readonly #runner: (run: XmllintRun) => Promise<XmllintOutput>;
  #queue: Entry[] = [];
  #inFlight = 0;
  #timer: NodeJS.Timeout | NodeJS.Immediate | undefined;
  readonly #stats: IofValidatorStats = { batches: 0, documents: 0, failedBatches: 0 };

  constructor(options: IofValidatorOptions) {
    this.#windowMs = Math.max(0, options.coalesceWindowMs ?? DEFAULT_COALESCE_WINDOW_MS);
    this.#maxDocuments = Math.max(1, Math.floor(options.maxDocumentsPerBatch ?? DEFAULT_MAX_DOCUMENTS_PER_BATCH));
    this.#maxBytes = Math.max(1, options.maxBatchBytes ?? DEFAULT_MAX_BATCH_BYTES);
    this.#maxInFlight = Math.max(1, Math.floor(options.maxBatchesInFlight ?? DEFAULT_MAX_BATCHES_IN_FLIGHT));
    this.#timeoutMs = Math.max(1, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    this.#timeoutMsPerMiB = Math.max(0, options.timeoutMsPerMiB ?? DEFAULT_TIMEOUT_MS_PER_MIB);
    this.#runner = options.runner ?? runXmllintWasm;
  }

  stats(): IofValidatorStats {
    return { ...this.#stats };
  }

  validate(document: Uint8Array, options?: ValidateOptions): Promise<IofValidationResult>;
  validate(documents: ReadonlyArray<XmlDocumentInput>, options?: ValidateOptions): Promise<IofValidationResult[]>;
  validate(
    input: Uint8Array | ReadonlyArray<XmlDocumentInput>,
    options: ValidateOptions = {},
  ): Promise<IofValidationResult | IofValidationResult[]> {
    if (input instanceof Uint8Array) {
      return this.#validateMany([{ name: options.name ?? 'input', bytes: input }], options).then((r) => r[0]!);
    }
    return this.#validateMany(input, options);
  }

  async #validateMany(docs: ReadonlyArray<XmlDocumentInput>, options: ValidateOptions): Promise<IofValidationResult[]> {
    const { signal } = options;
    if (signal?.aborted) throw abortReason(signal);
    if (docs.length === 0) return [];
    // Found before anything else happens (no worker starts for a schema that is not there).
    const lookup = options.env === undefined ? {} : { env: options.env };
    const xsd: Grammar = {
      kind: 'xsd',
      path: iofSchemaPath({ ...lookup, ...(options.schemaPath === undefined ? {} : { path: options.schemaPath }) }),
    };
    const dtdPath =
      options.dtdPath === false
        ? undefined
        : iofDtdPath({ ...lookup, ...(options.dtdPath === undefined ? {} : { path: options.dtdPath }) });
    const dtd: Grammar | undefined = dtdPath === undefined ? undefined : { kind: 'dtd', path: dtdPath };
    return new Promise<IofValidationResult[]>((resolve, reject) => {
      const onAbort = (): void => {
        this.#queue = this.#queue.filter((e) => e.job !== job);
        job.reject(abortReason(signal!));
      };
      const job: Job = {
        results: new Array<IofValidationResult | undefined>(docs.length),
        names: docs.map((d) => d.name),
        remaining: docs.length,
        settled: false,
        resolve: (results) => {
          if (job.settled) return;
          job.settled = true;
          signal?.removeEventListener('abort', onAbort);
          resolve(results);
        },
        reject: (error) => {
          if (job.settled) return;
          job.settled = true;
          signal?.removeEventListener('abort', onAbort);
          reject(error);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const entries: Entry[] = [];
      try {
        docs.forEach((doc, index) => {
          const prepared = prepareDocument(doc, dtd !== undefined);
          if ('result' in prepared) deliver(job, index, prepared.result);
          else {
            const grammar = prepared.version === '2.0.3' && dtd !== undefined ? dtd : xsd;
            entries.push({
              job,
              index,
              version: prepared.version,
              bytes: prepared.bytes,
              grammar,
              found: prepared.found,
            });
          }
        });
      } catch (error) {
        job.reject(asError(error));
        return;
      }
      if (entries.length > 0) {
        this.#queue.push(...entries);
        this.#schedule();
      }
    });
  }

  /** Starts a batch after the coalescing window, unless one is pending or the in-flight limit is reached. */
  #schedule(): void {
    if (this.#timer !== undefined || this.#queue.length === 0 || this.#inFlight >= this.#maxInFlight) return;
    const fire = (): void => {
      this.#timer = undefined;
      this.#drain();
    };
    this.#timer = this.#windowMs === 0 ? setImmediate(fire) : setTimeout(fire, this.#windowMs);
  }

  #drain(): void {
    while (this.#queue.length > 0 && this.#inFlight < this.#maxInFlight) {
      const batch = this.#takeBatch();
      if (batch.length === 0) continue;
      this.#inFlight++;
      void this.#runBatch(batch)
        // A bug here must not leave callers waiting forever.
        .catch((error: unknown) => {
          for (const entry of batch) entry.job.reject(asError(error));
        })
        .finally(() => {
          this.#inFlight--;
          // Whoever queued while this batch ran has waited long enough: no second window.
          this.#drain();
        });
    }
  }

  /** The front of the queue and whatever may join it within the bounds; the rest stays queued in order. */
  #takeBatch(): Entry[] {
    const batch: Entry[] = [];
    const rest: Entry[] = [];
    let bytes = 0;
    for (const entry of this.#queue) {
      if (entry.job.settled) continue;
      const head = batch[0];
      const joins =
        head === undefined ||
        (canShareBatch(head, entry) &&
          batch.length < this.#maxDocuments &&
          bytes + entry.bytes.byteLength <= this.#maxBytes);
      if (joins) {
        batch.push(entry);
        bytes += entry.bytes.byteLength;
      } else {
        rest.push(entry);
      }
    }
    this.#queue = rest;
    return batch;
  }

  async #runBatch(entries: readonly Entry[]): Promise<void> {
    const batch = entries.filter((e) => !e.job.settled);
    const first = batch[0];
    if (first === undefined) return;
    const { grammar } = first;
    let schema: { fileName: string; bytes: Uint8Array };
    try {
      schema = await loadGrammar(grammar);
    } catch (cause) {
      if (grammar.kind === 'dtd') notChecked(batch, dtdUnusable(grammar.path, cause));
      else this.#fail(batch, () => schemaMissing(grammar.path, cause), false);
      return;
    }

    // xmllint prefixes every message with the file name; private names let us attribute messages to documents without
    // trusting user-supplied names (which may contain ':' or look like command-line options) and without a document's
    // own text being able to forge a message for another document.
    const nonce = randomBytes(6).toString('hex');
    const fileNames = batch.map((_, i) => `doc${i}-${nonce}.xml`);
    const largest = Math.max(...batch.map((e) => e.bytes.byteLength));
    const maxMemoryPages = maxMemoryPagesFor(largest);
    this.#stats.batches++;
    this.#stats.documents += batch.length;

    // libxml2 spends about 45-150 us on each error it reports, so a few MB with an error on every element can hold the
    // one validation slot for many seconds: a deadline bounds that, and the run is split by caller like any failure.
    const totalBytes = batch.reduce((n, e) => n + e.bytes.byteLength, 0);
    const deadlineMs = Math.round(this.#timeoutMs + (this.#timeoutMsPerMiB * totalBytes) / (1024 * 1024));
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new DeadlineExceeded(deadlineMs);
        controller.abort(error);
        reject(error);
      }, deadlineMs);
    });
    let output: XmllintOutput;
    try {
      output = await Promise.race([
        this.#runner({
          documents: batch.map((e, i) => ({ fileName: fileNames[i]!, bytes: e.bytes })),
          schema,
          maxMemoryPages,
          signal: controller.signal,
        }),
        deadline,
      ]);
    } catch (cause) {
      this.#stats.failedBatches++;
      if (cause instanceof DeadlineExceeded) {
        this.#fail(batch, (job) => validationTimedOut(job.names, deadlineMs, batch.length, totalBytes), true);
      } else {
        this.#fail(batch, (job) => validatorFailed(job.names, describeCrash(cause), cause), true);
      }
      return;
    } finally {
      clearTimeout(timer);
    }

    const { exitCode, stderr } = output;
    if (exitCode === SCHEMA_COMPILE_EXIT_CODE) {
      if (grammar.kind === 'dtd') notChecked(batch, dtdUnusable(grammar.path, new Error(firstLine(stderr))));
      else this.#fail(batch, () => schemaInvalid(grammar.path, stderr), false);
      return;
    }
    // Out of memory, xmllint gives up on that document, goes on with the next, and exits with 9 unless a later
    // document sets another code: it is found by its message, whatever the exit code.
    if (!CHECKED_EXIT_CODES.has(exitCode) && exitCode !== OUT_OF_MEMORY_EXIT_CODE) {
      this.#stats.failedBatches++;
      const said = stderr.trim().split('\n').slice(-3).join(' ').slice(0, 500);
      this.#fail(
        batch,
        (job) => validatorFailed(job.names, `xmllint stopped with exit code ${exitCode}: ${said}`),
        true,
      );
      return;
    }

    const outcomes = parseXmllintOutput(stderr, fileNames);
    const again: Entry[] = [];
    batch.forEach((entry, i) => {
      const outcome = outcomes.get(fileNames[i]!)!;
      const said = outcome.verdict !== undefined || outcome.errors.length > 0;
      // Nothing said and exit code 9: xmllint ran out of memory before it got to the document.
      const outOfMemory = outcome.outOfMemory === true || (!said && exitCode === OUT_OF_MEMORY_EXIT_CODE);
      if (!outOfMemory && said) {
        const errors = [...entry.found, ...outcome.errors];
        const valid = outcome.verdict === 'validates' && errors.length === 0;
        deliver(entry.job, entry.index, {
          name: entry.job.names[entry.index] ?? '',
          valid,
          version: entry.version,
          checked: grammar.kind,
          errors: valid ? [] : errors,
        });
      } else if (outOfMemory && batch.length > 1 && entry.isolation !== 'alone') {
        // Alone it gets the memory sized for itself and no heap fragmented by the others.
        again.push({ ...entry, isolation: 'alone' });
      } else if (outOfMemory) {
        deliver(entry.job, entry.index, {
          name: entry.job.names[entry.index] ?? '',
          valid: false,
          version: entry.version,
          checked: 'not-checked',
          errors: [
            {
              code: 'too_large',
              message: `libxml2 ran out of memory validating this document (${Math.round(maxMemoryPages / memoryPages.MiB)} MiB allowed for a ${formatBytes(entry.bytes.byteLength)} document).`,
            },
          ],
        });
      } else {
        deliver(entry.job, entry.index, {
          name: entry.job.names[entry.index] ?? '',
          valid: false,
          version: entry.version,
          checked: grammar.kind,
          errors: [{ code: 'schema', message: 'the validator reported nothing for this document.' }],
        });
      }
    });
    if (again.length > 0) this.#requeue(again);
  }

  /**
   * A batch failed as a whole. Shared by several callers (and `retry` allowed), each caller's documents run again
   * without the others, so one caller's document cannot fail another's call; otherwise its callers are told.
   */
  #fail(batch: readonly Entry[], failure: BatchFailure, retry: boolean): void {
    const jobs = new Set(batch.map((e) => e.job));
    if (retry && jobs.size > 1 && batch.every((e) => e.isolation === undefined)) {
      this.#requeue(batch.map((e) => ({ ...e, isolation: 'job' as const })));
      return;
    }
    for (const job of jobs) job.reject(failure(job));
  }

  /** Puts entries back at the front of the queue: they have waited longest. */
  #requeue(entries: readonly Entry[]): void {
    this.#queue = [...entries, ...this.#queue];
  }
}

function canShareBatch(head: Entry, entry: Entry): boolean {
  if (head.grammar.kind !== entry.grammar.kind || head.grammar.path !== entry.grammar.path) return false;
  if (head.isolation !== entry.isolation) return false;
  if (head.isolation === 'alone') return false;
  if (head.isolation === 'job') return head.job === entry.job;
  return true;
}

function deliver(job: Job, index: number, result: IofValidationResult): void {
  if (job.settled || job.results[index] !== undefined) return;
  job.results[index] = result;
  job.remaining--;
  if (job.remaining === 0) job.resolve(job.results as IofValidationResult[]);
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/** The batch's documents are answered "not checked" rather than failed: the DTD check is an extra, not a promise. */
function notChecked(batch: readonly Entry[], issue: Issue): void {
  for (const entry of batch) {
    deliver(entry.job, entry.index, {
      name: entry.job.names[entry.index] ?? '',
      valid: null,
      version: entry.version,
      checked: 'not-checked',
      errors: [issue],
    });
  }
}
