/** The shapes validation takes and gives, apart from the code so that every part of validate/ can name them. */
import type { Issue } from '../../errors.js';
import type { IofVersion } from '../model.js';
import type { XmllintOutput, XmllintRun } from './xmllint.js';

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

export interface ValidateOptions {
  /**
   * IOF.xsd to validate against. Default: the schema lookup's answer (`findIofSchema`: `IOF_XSD`, `schemas/IOF.xsd`
   * of this package, the user's cache).
   */
  schemaPath?: string;
  /**
   * The IOF 2.0.3 DTD (`IOFdata-2.0.3.dtd`) to check IOF 2.0.3 documents against. Default: the lookup's answer
   * (`IOF_DTD`, `schemas/IOFdata-2.0.3.dtd` of this package, the user's cache) when it finds one; without it, 2.0.3
   * documents are reported as not checked. `false`: do not check 2.0.3 documents even when the DTD is there.
   */
  dtdPath?: string | false;
  /** The environment the schema lookup reads (`IOF_XSD`, `IOF_DTD`, the cache directory). Default: `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Name of a single document (the `Uint8Array` form) in its result. Default `'input'`. */
  name?: string;
  /** Gives up waiting: queued documents leave the queue, and the promise rejects with the signal's reason. */
  signal?: AbortSignal;
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
