/**
 * Validation of IOF XML with libxml2 (xmllint-wasm): IOF 3.0 against IOF.xsd, IOF 2.0.3 against its DTD.
 *
 * Each xmllint run starts a worker thread, loads the WebAssembly module and compiles IOF.xsd: about 160 ms whatever
 * the documents, while the documents themselves take little. So documents are validated in batches, and
 * callers are coalesced: every document handed to a validator within a short window (and while a batch is running) goes
 * into the next xmllint call, bounded in documents and bytes, one call at a time. Each caller gets its own results; a
 * batch that fails (the worker dies, or it runs past its deadline) is split by caller and run again, so only the caller
 * whose documents broke it sees the error.
 *
 * IOF 2.0.3 documents (DTD `IOFdata.dtd`, an `IOFVersion` element) have a DTD for grammar, and the WebAssembly xmllint
 * is built without DTD validation (no `--valid`, no `--dtdvalid`). So the DTD is translated into an equivalent XML
 * Schema (`dtdToXsd`: every element global, content models as sequences and choices, attribute types, defaults and
 * `#FIXED` values) and 2.0.3 documents are validated against that, in batches of their own. The verdicts agree with
 * native `xmllint --dtdvalid` (see the parity test); the lines differ where a DTD blames the parent element and a
 * schema the child that does not fit. Without the DTD file, 2.0.3 documents are reported as not checked.
 */
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { readFile } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
import { memoryPages } from 'xmllint-wasm';
import { InputError, TimeoutError, type Issue } from '../errors.js';
import type { IofVersion } from './model.js';
import { decodeXml } from './read.js';
import { iofDtdPath, iofSchemaPath } from './schema-path.js';
import { MAX_XML_CHARS, checkXmlLimits, scanXmlProlog } from './xml.js';

export interface XmlDocumentInput {
  /** Name to report results under, such as the file name. Any string; it is never given to xmllint. */
  name: string;
  /** The document as stored: any encoding `decodeXml` reads. */
  bytes: Uint8Array;
}

/** IOF version of a document as the validator saw it; `unknown` when it is neither (not IOF XML, say). */
export type DocumentIofVersion = IofVersion | 'unknown';

export interface IofValidationResult {
  name: string;
  /**
   * `true`: valid against IOF.xsd (or, IOF 2.0.3, the DTD). `false`: not valid, or refused before the check (see
   * `errors` and `checked`). `null`: not checked at all, so neither valid nor invalid (IOF 2.0.3 files when the DTD
   * is not there).
   */
  valid: boolean | null;
  /** `3.0` by the IOF 3.0 namespace or `iofVersion="3..."`, `2.0.3` by `IOFdata.dtd` or an `IOFVersion` element. */
  version: DocumentIofVersion;
  /**
   * `xsd`: libxml2 checked the document against IOF.xsd. `dtd`: an IOF 2.0.3 document, checked against the IOF 2.0.3
   * DTD (translated to a schema). `not-checked`: libxml2 never saw it.
   */
  checked: 'xsd' | 'dtd' | 'not-checked';
  /**
   * Problems with their 1-based line, in the order found: `schema` (not valid against IOF.xsd), `not_well_formed`
   * (libxml2's parser errors); the `InputError` reason when the document could not be handed to the validator
   * (`bad_encoding`, `unsupported_encoding`, `entity_declaration`, `too_large`); `not_checked` (severity `warning`)
   * for an IOF 2.0.3 document that could not be checked; `more_errors` counting errors beyond the first 100. Empty
   * when valid.
   */
  errors: Issue[];
}

/** The result type under its first name. */
export type XmlValidationResult = IofValidationResult;

export interface ValidateOptions {
  /** IOF.xsd to validate against. Default: `schemas/IOF.xsd` of this package (see `iofSchemaPath`). */
  schemaPath?: string;
  /**
   * The IOF 2.0.3 DTD (`IOFdata-2.0.3.dtd`) to check IOF 2.0.3 documents against. Default:
   * `schemas/IOFdata-2.0.3.dtd` of this package when it is there (see `iofDtdPath`); without it, 2.0.3 documents are
   * reported as not checked. `false`: do not check 2.0.3 documents even when the DTD is installed.
   */
  dtdPath?: string | false;
  /** Name of a single document (the `Uint8Array` form) in its result. Default `'input'`. */
  name?: string;
  /** Gives up waiting: queued documents leave the queue, and the promise rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** One xmllint run as the validator hands it over. */
export interface XmllintRun {
  documents: ReadonlyArray<{ fileName: string; bytes: Uint8Array }>;
  schema: { fileName: string; bytes: Uint8Array };
  /** WebAssembly memory limit in 64 KiB pages. */
  maxMemoryPages: number;
  /** Aborted at the batch's deadline: the runner stops xmllint and rejects. */
  signal?: AbortSignal;
}

/** xmllint's exit code and everything it wrote to stderr. */
export interface XmllintOutput {
  exitCode: number;
  stderr: string;
}

export interface IofValidatorOptions {
  /**
   * How long the first document waits for others before its batch starts, in ms. Documents that arrive while a batch
   * runs wait for it anyway and go together into the next. Default 2 (0: the next event loop turn).
   */
  coalesceWindowMs?: number;
  /** Most documents in one xmllint call. Default 200. */
  maxDocumentsPerBatch?: number;
  /**
   * Most bytes in one xmllint call; a larger document runs alone. libxml2 frees each document after checking it, so
   * this bounds the copies held at once (ours, the worker's, the in-memory file system's). Default 16 MiB.
   */
  maxBatchBytes?: number;
  /** xmllint calls running at once; each is a worker thread with its own WebAssembly memory. Default 1. */
  maxBatchesInFlight?: number;
  /**
   * Deadline of one xmllint call, in ms: this plus `timeoutMsPerMiB` for each MiB in the call. A call past it is
   * stopped and treated as failed (each caller's documents are tried again alone, then rejected with `TimeoutError`).
   * Honest documents take about 0.3 s plus 0.05 s per MiB. Default 5000.
   */
  timeoutMs?: number;
  /** Deadline added per MiB of documents in a call, in ms. Default 200. */
  timeoutMsPerMiB?: number;
  /** Runs xmllint. Default: `runXmllintWasm`. Tests replace or wrap it (a worker that fails, a smaller memory). */
  runner?: (run: XmllintRun) => Promise<XmllintOutput>;
}

export interface IofValidatorStats {
  /** xmllint calls started. */
  batches: number;
  /** Documents handed to xmllint, counting a document run again after a failed batch twice. */
  documents: number;
  /** xmllint calls that failed as a whole: the worker died, xmllint stopped unexpectedly, or the deadline passed. */
  failedBatches: number;
}

export interface IofValidator {
  /** Validates one document; see `validate`. */
  validate(document: Uint8Array, options?: ValidateOptions): Promise<IofValidationResult>;
  /** Validates documents, one result per document in the order given; see `validate`. */
  validate(documents: ReadonlyArray<XmlDocumentInput>, options?: ValidateOptions): Promise<IofValidationResult[]>;
  /** Counters since the validator was made. */
  stats(): IofValidatorStats;
}

const DEFAULT_COALESCE_WINDOW_MS = 2;
const DEFAULT_MAX_DOCUMENTS_PER_BATCH = 200;
const DEFAULT_MAX_BATCH_BYTES = 16 * 1024 * 1024;
const DEFAULT_MAX_BATCHES_IN_FLIGHT = 1;
const DEFAULT_TIMEOUT_MS = 5000;
const DEFAULT_TIMEOUT_MS_PER_MIB = 200;

/**
 * A validator with its own queue and bounds. The module's `validate` uses one shared validator, which is what
 * coalescing needs; make another only for different bounds.
 */
export function createIofValidator(options: IofValidatorOptions = {}): IofValidator {
  return new Validator(options);
}

let sharedValidator: IofValidator | undefined;
/** The validator behind `validate`, made on first use. */
function shared(): IofValidator {
  return (sharedValidator ??= createIofValidator());
}

/**
 * Validates IOF XML documents against the IOF XML 3.0 schema (`schemas/IOF.xsd`).
 *
 * - One `Uint8Array` gives one result; an array of `{ name, bytes }` gives one result per document, in order.
 * - Any encoding `decodeXml` reads: windows-1252 and ISO-8859-1 documents are transcoded to UTF-8 first (libxml2 in
 *   WebAssembly has no windows-1252) with line numbers unchanged.
 * - IOF 2.0.3 documents are checked against the IOF 2.0.3 DTD translated to a schema (`checked: 'dtd'`) when the DTD
 *   is there (`dtdPath`, default `schemas/IOFdata-2.0.3.dtd`); without it they are reported with `checked:
 *   'not-checked'`, `valid: null` and one `not_checked` issue saying so.
 * - Documents that declare entities are refused (`entity_declaration`) without being handed to libxml2: IOF XML never
 *   needs them, and they are how billion-laughs and external-entity attacks start. Native xmllint would expand
 *   harmless ones and may find such a document valid.
 * - Concurrent calls are merged into shared xmllint runs (see `createIofValidator`).
 *
 * Rejects with `InputError` `schema_missing` when IOF.xsd (or a `dtdPath` given) is not there, `schema_invalid` when
 * libxml2 cannot compile IOF.xsd, `validator_failed` when the xmllint worker fails (its `source` names the caller's
 * documents), `TimeoutError` when validating them ran past the deadline (see `IofValidatorOptions.timeoutMs`), or the
 * signal's reason when aborted.
 */
export function validate(document: Uint8Array, options?: ValidateOptions): Promise<IofValidationResult>;
export function validate(
  documents: ReadonlyArray<XmlDocumentInput>,
  options?: ValidateOptions,
): Promise<IofValidationResult[]>;
export function validate(
  input: Uint8Array | ReadonlyArray<XmlDocumentInput>,
  options: ValidateOptions = {},
): Promise<IofValidationResult | IofValidationResult[]> {
  return input instanceof Uint8Array ? shared().validate(input, options) : shared().validate(input, options);
}

/** The batch form of `validate` under its first name. */
export function validateIofXml(
  docs: ReadonlyArray<XmlDocumentInput>,
  options: ValidateOptions = {},
): Promise<IofValidationResult[]> {
  return shared().validate(docs, options);
}

/* ------------------------------------------------------------------------------------------------------ the queue */

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

/** What a batch is checked against: IOF.xsd, or the IOF 2.0.3 DTD translated to a schema. Batches never mix them. */
interface Grammar {
  kind: 'xsd' | 'dtd';
  path: string;
}

/** How a batch as a whole went wrong: what each of its callers is told. */
type BatchFailure = (job: Job) => Error;

class Validator implements IofValidator {
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
    const xsd: Grammar = { kind: 'xsd', path: iofSchemaPath(options.schemaPath) };
    const dtdPath = options.dtdPath === false ? undefined : iofDtdPath(options.dtdPath);
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
        this.#fail(batch, (job) => validationTimedOut(job, deadlineMs, batch.length, totalBytes), true);
      } else {
        this.#fail(batch, (job) => validatorFailed(job, describeCrash(cause), cause), true);
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
      this.#fail(batch, (job) => validatorFailed(job, `xmllint stopped with exit code ${exitCode}: ${said}`), true);
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

function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason;
  return new DOMException(typeof reason === 'string' ? reason : 'This operation was aborted', 'AbortError');
}

/* ----------------------------------------------------------------------------------------------------- failures */

function schemaMissing(schemaPath: string, cause: unknown): InputError {
  return new InputError(schemaPath, 'schema_missing', 'the IOF XML 3.0 schema (IOF.xsd) could not be read.', {
    cause,
    hint: 'Run `npm install` in livelox-bridge (it places schemas/IOF.xsd), or set IOF_XSD to a copy of IOF.xsd.',
  });
}

/** What an IOF 2.0.3 document that could not be checked says: plainly that, and what would make the check possible. */
function notCheckedIssue(why: string): Issue {
  return {
    code: 'not_checked',
    severity: 'warning',
    message: `IOF 2.0.3 file: not checked against the IOF 3.0 schema (DTD validation is not available)${why}`,
  };
}

const NO_DTD =
  '. Place IOFdata-2.0.3.dtd in the schemas folder of livelox-bridge (or pass dtdPath) to check it against the IOF 2.0.3 DTD, or convert the file to IOF XML 3.0.';

function dtdUnusable(path: string, cause: unknown): Issue {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return notCheckedIssue(`, and the IOF 2.0.3 DTD at ${path} could not be used in its place: ${reason}`);
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

function firstLine(text: string): string {
  return text.trim().split('\n')[0] ?? '';
}

function schemaInvalid(schemaPath: string, stderr: string): InputError {
  return new InputError(
    schemaPath,
    'schema_invalid',
    `libxml2 could not compile the schema: ${stderr.trim().split('\n')[0] ?? ''}`,
    { hint: 'Reinstall IOF.xsd (npm install, or IOF_XSD pointing at the IOF 3.0 schema).' },
  );
}

/** The caller's documents, for the error's `source`: which of its files were not validated. */
function describeDocuments(names: readonly string[]): string {
  if (names.length === 1) return names[0] ?? 'document';
  const shown = names.slice(0, 3).join(', ');
  return `${names.length} documents (${shown}${names.length > 3 ? ', ...' : ''})`;
}

function validatorFailed(job: Job, what: string, cause?: unknown): InputError {
  return new InputError(
    describeDocuments(job.names),
    'validator_failed',
    `the documents were not validated: ${what}.`,
    {
      ...(cause === undefined ? {} : { cause }),
      hint: 'Validate them again; if it keeps failing, validate the files one at a time to find the one that breaks it.',
    },
  );
}

/** The deadline of a run passed (internal: callers get a `TimeoutError`). */
class DeadlineExceeded extends Error {
  constructor(readonly deadlineMs: number) {
    super(`xmllint ran longer than ${deadlineMs} ms`);
  }
}

function validationTimedOut(job: Job, deadlineMs: number, documents: number, bytes: number): TimeoutError {
  return new TimeoutError(
    `${describeDocuments(job.names)}: validation was stopped after ${(deadlineMs / 1000).toFixed(1)} s, the limit for ${documents} document${documents === 1 ? '' : 's'} of ${formatBytes(bytes)}; a document with very many schema errors takes that long.`,
    { hint: 'Validate the files one at a time to find the one with very many errors.' },
  );
}

function describeCrash(cause: unknown): string {
  const code = (cause as { code?: unknown } | null)?.code;
  const message = cause instanceof Error ? cause.message : String(cause);
  if (code === 'ERR_WORKER_OUT_OF_MEMORY') return `the xmllint worker ran out of memory (${message})`;
  return `the xmllint worker failed (${message.trim().slice(0, 300)})`;
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MiB` : `${Math.ceil(bytes / 1024)} KiB`;
}

/* -------------------------------------------------------------------------------------------------- preparation */

type Prepared = { version: DocumentIofVersion; bytes: Uint8Array; found: Issue[] } | { result: IofValidationResult };

const IOF3_NAMESPACE = 'http://www.orienteering.org/datastandard/3.0';

function prepareDocument(doc: XmlDocumentInput, dtdAvailable: boolean): Prepared {
  const refused = (issue: Issue, version: DocumentIofVersion = 'unknown'): Prepared => ({
    result: { name: doc.name, valid: false, version, checked: 'not-checked', errors: [issue] },
  });
  if (doc.bytes.byteLength > MAX_XML_CHARS) {
    return refused({
      code: 'too_large',
      message: `the document has ${doc.bytes.byteLength} bytes; at most ${MAX_XML_CHARS} are validated.`,
    });
  }
  let decoded;
  try {
    decoded = decodeXml(doc.bytes, doc.name);
  } catch (e) {
    if (e instanceof InputError) return refused(issueFromInputError(e));
    throw e;
  }
  const prolog = scanXmlProlog(decoded.text);
  const version = iofVersionOf(decoded.text, prolog);
  try {
    // libxml2 refuses the same text lengths, but reports each of thousands of attributes slowly.
    checkXmlLimits(decoded.text, doc.name);
  } catch (e) {
    if (e instanceof InputError) return refused(issueFromInputError(e), version);
    throw e;
  }
  if (prolog.entityAt !== undefined) {
    return refused(
      {
        line: lineAt(decoded.text, prolog.entityAt),
        code: 'entity_declaration',
        message: 'entity declarations are not allowed (IOF XML never needs them); the document was not validated.',
      },
      version,
    );
  }
  if (version === '2.0.3' && !dtdAvailable) {
    return {
      result: { name: doc.name, valid: null, version, checked: 'not-checked', errors: [notCheckedIssue(NO_DTD)] },
    };
  }
  const found = version === '2.0.3' ? undeclaredNamespaceDeclaration(decoded.text) : [];
  if (decoded.encoding === 'utf-8' || decoded.encoding === 'utf-16le' || decoded.encoding === 'utf-16be') {
    return { version, bytes: doc.bytes, found };
  }
  // libxml2 in WebAssembly is built without iconv: it reads UTF-8, UTF-16 and Latin-1 but not windows-1252. Hand it
  // UTF-8 and say so in the declaration; only the declaration's text changes, so line numbers stay the same.
  const text = decoded.text.replace(/^(\s*<\?xml\s[^?]*?\bencoding\s*=\s*)(["'])[^"']*\2/, '$1$2UTF-8$2');
  return { version, bytes: new TextEncoder().encode(text), found };
}

/**
 * A DTD must declare `xmlns` attributes like any other (the IOF 2.0.3 DTD declares none); a schema cannot see them,
 * so the translated DTD would pass them. Found by text: a namespace declaration written in character data would be
 * blamed too, which no IOF 2.0.3 file does.
 */
function undeclaredNamespaceDeclaration(text: string): Issue[] {
  const m = /\sxmlns(?::[A-Za-z_][\w.-]*)?\s*=\s*["']/.exec(text);
  if (!m) return [];
  const name = m[0].trim().replace(/\s*=.*$/, '');
  return [
    {
      line: lineAt(text, m.index + 1),
      code: 'schema',
      message: `Attribute '${name}': the IOF 2.0.3 DTD declares no namespace declarations, so it is not allowed.`,
    },
  ];
}

/**
 * The IOF version a document claims, from its prolog and root start tag only: the IOF 3.0 namespace on the root or an
 * `iofVersion` of 3.x means 3.0; otherwise a DOCTYPE naming `IOFdata.dtd` or an `IOFVersion` first child means 2.0.3.
 */
export function iofVersionOf(text: string, prolog = scanXmlProlog(text)): DocumentIofVersion {
  if (prolog.rootAt === undefined) return 'unknown';
  const tag = startTag(text, prolog.rootAt);
  const qname = /^<([^\s/>]+)/.exec(tag)?.[1] ?? '';
  const prefix = qname.includes(':') ? qname.slice(0, qname.indexOf(':')) : undefined;
  const attributes = attributesOf(tag, qname.length + 1);
  const namespace = attributes.get(prefix === undefined ? 'xmlns' : `xmlns:${prefix}`);
  if (namespace === IOF3_NAMESPACE) return '3.0';
  if (attributes.get('iofVersion')?.trim().startsWith('3')) return '3.0';
  const doctype =
    prolog.doctype && text.slice(prolog.doctype.start, Math.min(prolog.doctype.end, prolog.doctype.start + 4096));
  if (doctype !== undefined && /^<!DOCTYPE\s+[^\s[>]+\s+(?:SYSTEM|PUBLIC)\s[^[>]*IOFdata\.dtd/i.test(doctype)) {
    return '2.0.3';
  }
  const afterRoot = text.slice(prolog.rootAt + tag.length, prolog.rootAt + tag.length + 4096);
  if (/^(?:\s|<!--(?:[^-]|-(?!->))*-->)*<(?:[^\s/>:]+:)?IOFVersion[\s/>]/.test(afterRoot)) return '2.0.3';
  return 'unknown';
}

/**
 * The attributes of a start tag, read from `from` (just after the name) in one pass; stops at the first thing that is
 * not `name = "value"`. (A regular expression here backtracks quadratically over a long unterminated value.)
 */
function attributesOf(tag: string, from: number): Map<string, string> {
  const attributes = new Map<string, string>();
  const isSpace = (c: string | undefined): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\r';
  let i = from;
  for (;;) {
    while (isSpace(tag[i])) i++;
    const nameStart = i;
    while (i < tag.length && !isSpace(tag[i]) && !'=/>"\''.includes(tag[i] ?? '')) i++;
    if (i === nameStart) return attributes;
    const name = tag.slice(nameStart, i);
    while (isSpace(tag[i])) i++;
    if (tag[i] !== '=') return attributes;
    i++;
    while (isSpace(tag[i])) i++;
    const quote = tag[i];
    if (quote !== '"' && quote !== "'") return attributes;
    const close = tag.indexOf(quote, i + 1);
    if (close < 0) return attributes;
    attributes.set(name, tag.slice(i + 1, close));
    i = close + 1;
  }
}

/** The start tag at `at` up to its closing `>`, quotes respected; at most 64 KiB. */
function startTag(text: string, at: number): string {
  const limit = Math.min(text.length, at + 65536);
  let quote: string | undefined;
  for (let i = at + 1; i < limit; i++) {
    const c = text[i];
    if (quote !== undefined) {
      if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === '>') {
      return text.slice(at, i + 1);
    }
  }
  return text.slice(at, limit);
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

function issueFromInputError(e: InputError): Issue {
  // InputError messages start with "source:line:"; an Issue carries the line separately.
  const where =
    e.line === undefined ? e.source : `${e.source}:${e.line}${e.column === undefined ? '' : `:${e.column}`}`;
  const message = e.message.startsWith(`${where}: `) ? e.message.slice(where.length + 2) : e.message;
  return {
    ...(e.line === undefined ? {} : { line: e.line }),
    ...(e.column === undefined ? {} : { column: e.column }),
    code: e.reason,
    message,
  };
}

/* ------------------------------------------------------------------------------------------ IOF 2.0.3: the DTD */

/** The grammar file as xmllint is handed it: IOF.xsd as it is, the IOF 2.0.3 DTD translated to a schema. */
async function loadGrammar(grammar: Grammar): Promise<{ fileName: string; bytes: Uint8Array }> {
  const bytes = await readFile(grammar.path);
  if (grammar.kind === 'xsd') return { fileName: 'IOF.xsd', bytes };
  const xsd = dtdToXsd(decodeXml(bytes, grammar.path).text);
  return { fileName: 'IOFdata-2.0.3.xsd', bytes: new TextEncoder().encode(xsd) };
}

const XSD_BUILTIN: Readonly<Record<string, string>> = {
  CDATA: 'xs:string',
  ID: 'xs:ID',
  IDREF: 'xs:IDREF',
  IDREFS: 'xs:IDREFS',
  NMTOKEN: 'xs:NMTOKEN',
  NMTOKENS: 'xs:NMTOKENS',
};

/**
 * Translates a DTD into an XML Schema (no target namespace) that accepts the same documents, for the WebAssembly
 * libxml2, which cannot validate against a DTD. Every element becomes a global element (a DTD does not say which is the
 * root, so any may be); `EMPTY`, `ANY`, `(#PCDATA)`, mixed content and content models of sequences, choices and `?`,
 * `*`, `+` map one to one; attribute types `CDATA`, `ID`, `IDREF(S)`, `NMTOKEN(S)` and enumerations (compared as
 * written, as libxml2's DTD check does), with `#REQUIRED`, `#IMPLIED`, defaults and `#FIXED`. Throws on what it does
 * not translate (parameter entities, conditional sections, entity and notation declarations, namespaced attributes),
 * so that a DTD it cannot express is never checked wrongly.
 */
export function dtdToXsd(dtd: string): string {
  const text = dtd.replace(/<!--[\s\S]*?-->/g, ' ').replace(/^\s*<\?xml[^?]*\?>/, '');
  if (/%|<!\[/.test(text)) throw new Error('the DTD uses parameter entities or conditional sections');
  const elements = new Map<string, string>();
  const attlists = new Map<string, string>();
  const declaration = /<!(ELEMENT|ATTLIST|ENTITY|NOTATION)\s+([^\s>]+)((?:[^>"']|"[^"]*"|'[^']*')*)>/g;
  for (const [, kind, name = '', body = ''] of text.matchAll(declaration)) {
    if (kind === 'ELEMENT') elements.set(name, body.trim());
    else if (kind === 'ATTLIST') attlists.set(name, `${attlists.get(name) ?? ''} ${body}`);
    else throw new Error(`the DTD declares ${kind === 'ENTITY' ? 'entities' : 'notations'}`);
  }
  const rest = text.replace(declaration, '').trim();
  if (rest !== '') throw new Error(`the DTD has something other than declarations: ${rest.slice(0, 60)}`);
  for (const name of attlists.keys()) {
    if (!elements.has(name))
      throw new Error(`attributes are declared for ${name}, an element the DTD does not declare`);
  }

  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', '<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">'];
  for (const [name, model] of elements) {
    const attributes = attributeDeclarations(name, attlists.get(name) ?? '');
    let type: string | undefined;
    if (model === 'EMPTY') {
      type = `<xs:complexType>${attributes}</xs:complexType>`;
    } else if (model === 'ANY') {
      type = `<xs:complexType mixed="true"><xs:sequence><xs:any minOccurs="0" maxOccurs="unbounded" namespace="##local"/></xs:sequence>${attributes}</xs:complexType>`;
    } else if (/^\(\s*#PCDATA\s*\)\*?$/.test(model)) {
      type =
        attributes === ''
          ? undefined
          : `<xs:complexType><xs:simpleContent><xs:extension base="xs:string">${attributes}</xs:extension></xs:simpleContent></xs:complexType>`;
    } else if (/^\(\s*#PCDATA/.test(model)) {
      const mixed = /^\(\s*#PCDATA((?:\s*\|\s*[^\s|()]+)+)\s*\)\*$/.exec(model);
      if (!mixed) throw new Error(`the content model of ${name} is not one a DTD allows: ${model}`);
      const names = (mixed[1] ?? '')
        .split('|')
        .map((n) => n.trim())
        .filter((n) => n !== '');
      type = `<xs:complexType mixed="true"><xs:choice minOccurs="0" maxOccurs="unbounded">${names.map((n) => `<xs:element ref="${n}"/>`).join('')}</xs:choice>${attributes}</xs:complexType>`;
    } else {
      const [particle, end] = contentParticle(model, 0, name);
      if (model.slice(end).trim() !== '') throw new Error(`the content model of ${name} has extra text: ${model}`);
      const group = particle.startsWith('<xs:element') ? `<xs:sequence>${particle}</xs:sequence>` : particle;
      type = `<xs:complexType>${group}${attributes}</xs:complexType>`;
    }
    lines.push(
      type === undefined
        ? `  <xs:element name="${name}" type="xs:string"/>`
        : `  <xs:element name="${name}">${type}</xs:element>`,
    );
  }
  lines.push('</xs:schema>', '');
  return lines.join('\n');
}

function occurrence(q: string): string {
  if (q === '?') return ' minOccurs="0"';
  if (q === '*') return ' minOccurs="0" maxOccurs="unbounded"';
  if (q === '+') return ' maxOccurs="unbounded"';
  return '';
}

/** One content particle (a name or a parenthesised group, with its occurrence) from `at`: its schema and its end. */
function contentParticle(model: string, at: number, element: string): [string, number] {
  let i = at;
  const space = (): void => {
    while (/\s/.test(model.charAt(i))) i++;
  };
  const quantifier = (): string => ('?*+'.includes(model.charAt(i)) && model.charAt(i) !== '' ? model.charAt(i++) : '');
  space();
  if (model.charAt(i) !== '(') {
    const name = /^[^\s,|()?*+]+/.exec(model.slice(i))?.[0];
    if (name === undefined) throw new Error(`the content model of ${element} cannot be read: ${model}`);
    i += name.length;
    return [`<xs:element ref="${name}"${occurrence(quantifier())}/>`, i];
  }
  i++;
  const items: string[] = [];
  let separator: string | undefined;
  for (;;) {
    const [item, end] = contentParticle(model, i, element);
    items.push(item);
    i = end;
    space();
    const c = model.charAt(i);
    if (c === ')') {
      i++;
      break;
    }
    if ((c !== ',' && c !== '|') || (separator !== undefined && separator !== c)) {
      throw new Error(`the content model of ${element} cannot be read: ${model}`);
    }
    separator = c;
    i++;
  }
  const tag = separator === '|' ? 'xs:choice' : 'xs:sequence';
  return [`<${tag}${occurrence(quantifier())}>${items.join('')}</${tag}>`, i];
}

function xmlAttributeValue(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
}

/** `xs:attribute` declarations for the body of an element's ATTLIST declarations. */
function attributeDeclarations(element: string, body: string): string {
  const definition =
    /\s*([^\s]+)\s+(CDATA|ID|IDREF|IDREFS|NMTOKEN|NMTOKENS|\([^)]*\))\s+(#REQUIRED|#IMPLIED|(?:#FIXED\s+)?(?:"[^"]*"|'[^']*'))/y;
  let out = '';
  let m: RegExpExecArray | null;
  let end = 0;
  while ((m = definition.exec(body)) !== null) {
    end = definition.lastIndex;
    const [, name = '', type = '', declared = ''] = m;
    if (name.includes(':') || name === 'xmlns') throw new Error(`the DTD declares the namespaced attribute ${name}`);
    let use = '';
    if (declared === '#REQUIRED') use = ' use="required"';
    else if (declared !== '#IMPLIED') {
      const value = xmlAttributeValue(declared.replace(/^#FIXED\s+/, '').slice(1, -1));
      use = declared.startsWith('#FIXED') ? ` fixed="${value}"` : ` default="${value}"`;
    }
    if (type.startsWith('(')) {
      const values = type
        .slice(1, -1)
        .split('|')
        .map((v) => `<xs:enumeration value="${xmlAttributeValue(v.trim())}"/>`);
      out += `<xs:attribute name="${name}"${use}><xs:simpleType><xs:restriction base="xs:string">${values.join('')}</xs:restriction></xs:simpleType></xs:attribute>`;
    } else {
      out += `<xs:attribute name="${name}" type="${XSD_BUILTIN[type] ?? 'xs:string'}"${use}/>`;
    }
  }
  if (body.slice(end).trim() !== '') {
    throw new Error(`the attributes of ${element} cannot be read: ${body.slice(end).trim().slice(0, 60)}`);
  }
  return out;
}

/* ------------------------------------------------------------------------------------------------------ xmllint */

/**
 * WebAssembly memory libxml2 may grow to. It holds the whole document tree: measured 96 MiB for an 11 MB CourseData
 * and 448 MiB for a 57 MB one (about 8 bytes per byte of XML), while the 32 MiB default fails from about 3 MB. The
 * limit is reserved address space, not memory in use, so it is generous. Streaming mode would need less but reports
 * wrong lines and calls a malformed document valid. xmllint frees each document before the next, so a batch needs what
 * its largest document needs.
 */
export function maxMemoryPagesFor(largestDocumentBytes: number): number {
  const bytes = 64 * 1024 * 1024 + 10 * largestDocumentBytes;
  const pages = Math.ceil(bytes / (64 * 1024));
  return Math.min(memoryPages.max, Math.max(memoryPages.defaultMaxMemoryPages, pages));
}

/** xmllint's exit codes that still mean "documents checked": 1 parse error, 3 invalid, 4 unreadable document. */
const CHECKED_EXIT_CODES = new Set([0, 1, 3, 4]);
const SCHEMA_COMPILE_EXIT_CODE = 5;
const OUT_OF_MEMORY_EXIT_CODE = 9;

/** xmllint-wasm's worker script: the WebAssembly xmllint behind its `validateXML`. */
const XMLLINT_WORKER = createRequire(import.meta.url).resolve('xmllint-wasm/xmllint-node.js');
/** The key xmllint-wasm's worker marks its messages with (and expects on ours). */
const XMLLINT_MESSAGE_KEY = 'xmllint-wasm';

/**
 * The default runner: xmllint-wasm's worker, driven the way its `validateXML` drives it (`--schema <xsd> --noout
 * <files>`, files in an in-memory file system), but with the worker in our hands so that a deadline can stop it:
 * `validateXML` offers no way to. Rejects with the signal's reason when `run.signal` aborts, and when the worker dies.
 */
export function runXmllintWasm(run: XmllintRun): Promise<XmllintOutput> {
  const { signal } = run;
  if (signal?.aborted) return Promise.reject(abortReason(signal));
  return new Promise<XmllintOutput>((resolve, reject) => {
    const worker = new Worker(XMLLINT_WORKER);
    let done = false;
    const finish = (settle: () => void): void => {
      if (done) return;
      done = true;
      signal?.removeEventListener('abort', onAbort);
      worker.removeAllListeners();
      // An error event after the answer (or after terminate) must not become an unhandled 'error'.
      worker.on('error', () => undefined);
      void worker.terminate();
      settle();
    };
    const onAbort = (): void => finish(() => reject(abortReason(signal!)));
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (message: unknown) => {
      const m = message as { [XMLLINT_MESSAGE_KEY]?: unknown; exitCode?: unknown; stderr?: unknown } | null;
      if (m?.[XMLLINT_MESSAGE_KEY] !== true) return;
      const exitCode = typeof m.exitCode === 'number' ? m.exitCode : -1;
      finish(() => resolve({ exitCode, stderr: typeof m.stderr === 'string' ? m.stderr : '' }));
    });
    worker.on('error', (error) => finish(() => reject(error)));
    worker.on('exit', (code) =>
      finish(() => reject(new Error(`the xmllint worker exited (code ${code}) without an answer`))),
    );
    worker.postMessage({
      [XMLLINT_MESSAGE_KEY]: true,
      inputFiles: [
        ...run.documents.map((d) => ({ fileName: d.fileName, contents: d.bytes })),
        { fileName: run.schema.fileName, contents: run.schema.bytes },
      ],
      args: ['--schema', run.schema.fileName, '--noout', ...run.documents.map((d) => d.fileName)],
      initialMemory: memoryPages.defaultInitialMemoryPages,
      maxMemory: run.maxMemoryPages,
    });
  });
}

interface Outcome {
  /** xmllint's closing line for the document, when it printed one (not after a parser error). */
  verdict?: 'validates' | 'fails to validate';
  errors: Issue[];
  /** libxml2 ran out of memory on this document and gave up on it. */
  outOfMemory?: boolean;
  /** Errors beyond `MAX_ISSUES_PER_DOCUMENT`, counted, not kept. */
  unlisted?: number;
}

/**
 * Splits xmllint's stderr into per-document outcomes. Lines are `<file>:<line>: <message>`, parser errors are followed
 * by a context line and a caret line, and each checked document ends with `<file> validates` or `<file> fails to
 * validate` (the extra location-less line a batch prints per failing document; kept as the verdict, not as an issue).
 */
function parseXmllintOutput(stderr: string, fileNames: readonly string[]): Map<string, Outcome> {
  const outcomes = new Map<string, Outcome>(fileNames.map((f) => [f, { errors: [] }]));
  const lines = stderr.split('\n');
  let current: Outcome | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const next = lines[i + 1];
    if (next !== undefined && /^\s*\^\s*$/.test(next)) {
      // Source context and caret under a parser error: the line number already says where.
      i++;
      continue;
    }
    if (line.trim() === '') continue;
    const located = /^(doc\d+-[0-9a-f]+\.xml):(\d+): (.*)$/.exec(line);
    if (located) {
      const outcome = outcomes.get(located[1] ?? '');
      if (outcome) {
        current = outcome;
        const message = located[3] ?? '';
        if (/\bout of memory\b/i.test(message)) {
          outcome.outOfMemory = true;
          continue;
        }
        const issue = toIssue(Number(located[2]), message);
        if (issue) addIssue(outcome, issue);
        continue;
      }
    }
    const verdict = /^(doc\d+-[0-9a-f]+\.xml) (validates|fails to validate)$/.exec(line);
    if (verdict) {
      const outcome = outcomes.get(verdict[1] ?? '');
      if (outcome) {
        current = outcome;
        outcome.verdict = verdict[2] === 'validates' ? 'validates' : 'fails to validate';
        continue;
      }
    }
    // Anything else (libxml2 messages without a location) belongs to the document being checked.
    if (current) addIssue(current, { code: 'schema', message: plainWords(line.trim()) });
  }
  for (const outcome of outcomes.values()) {
    const more = outcome.unlisted ?? 0;
    if (more > 0) {
      outcome.errors.push({
        code: 'more_errors',
        message: `${more} more error${more === 1 ? '' : 's'} not listed (only the first ${MAX_ISSUES_PER_DOCUMENT} are).`,
      });
    }
  }
  return outcomes;
}

/** Issues listed per document: a file with the same mistake on every line still gives a readable answer. */
const MAX_ISSUES_PER_DOCUMENT = 100;

function addIssue(outcome: Outcome, issue: Issue): void {
  if (outcome.errors.length < MAX_ISSUES_PER_DOCUMENT) outcome.errors.push(issue);
  else outcome.unlisted = (outcome.unlisted ?? 0) + 1;
}

const IOF_NAMESPACE_BRACES = /\{http:\/\/www\.orienteering\.org\/datastandard\/3\.0\}/g;

/**
 * libxml2's message in plain words: element names without the IOF namespace in braces, another namespace said in
 * words, and what a root that matches nothing means for IOF XML.
 */
function plainWords(message: string): string {
  const rootElsewhere = /^Element '([^']*)': No matching global declaration available for the validation root\.$/.exec(
    message,
  );
  if (rootElsewhere) {
    const qualified = /^\{([^}]*)\}(.*)$/.exec(rootElsewhere[1] ?? '');
    const where = qualified ? `is in the namespace ${qualified[1]}` : 'has no namespace';
    return (
      `Element '${qualified?.[2] ?? rootElsewhere[1]}': the root element ${where}, so it is not an IOF XML 3.0 message ` +
      `(IOF XML 3.0 root elements are in the namespace ${IOF3_NAMESPACE}).`
    );
  }
  return message.replace(IOF_NAMESPACE_BRACES, '').replace(/'\{([^}]*)\}([^']*)'/g, "'$2' (namespace $1)");
}

/** libxml2 keeps element line numbers in 16 bits: everything from line 65535 on is reported as 65535. */
const LIBXML2_LAST_LINE = 65535;

function toIssue(line: number, raw: string): Issue | undefined {
  // Warnings (an external DTD that is not there, say) do not make a document invalid.
  if (/^(?:parser |namespace |validity )?warning\s*:/.test(raw)) return undefined;
  // Native xmllint 2.9 writes "element X: Schemas validity error : ..."; 2.13 (the WebAssembly one) leaves that out.
  const schema = /^(?:element [^:]*: )?Schemas validity error : (.*)$/.exec(raw);
  const parser = /^(?:parser|namespace) error : (.*)$/.exec(raw);
  const code = parser ? 'not_well_formed' : 'schema';
  let message = plainWords(schema?.[1] ?? parser?.[1] ?? raw);
  if (code === 'schema' && line === LIBXML2_LAST_LINE)
    message += ` (at line ${LIBXML2_LAST_LINE} or later: libxml2 counts no further)`;
  return { line, code, message };
}
