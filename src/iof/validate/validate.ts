/**
 * Validation of IOF XML with libxml2 (xmllint-wasm): IOF 3.0 against IOF.xsd, IOF 2.0.3 against its DTD. This file is
 * the public face (`validate`, `validateIofXml`, `createIofValidator` and the types they take and give); the work is
 * done beside it, one job a file:
 *
 * - `batching.ts`: the validator's queue. Each xmllint run starts a worker thread, loads the WebAssembly module and
 *   compiles IOF.xsd: about 160 ms whatever the documents, while the documents themselves take little. So documents
 *   are validated in batches, and callers are coalesced: every document handed to a validator within a short window
 *   (and while a batch is running) goes into the next xmllint call, bounded in documents and bytes, one call at a
 *   time. Each caller gets its own results; a batch that fails (the worker dies, or it runs past its deadline) is split
 *   by caller and run again, so only the caller whose documents broke it sees the error.
 * - `prepare.ts`: what is done to a document before libxml2 sees it (its IOF version, encoding, refusals).
 * - `xmllint.ts`: running xmllint-wasm in a worker we can stop; `messages.ts`: its stderr as issues per document;
 *   `failures.ts`: the errors and issues for what could not be validated.
 * - `dtd-to-xsd.ts`: IOF 2.0.3 documents (DTD `IOFdata.dtd`, an `IOFVersion` element) have a DTD for grammar, and the
 *   WebAssembly xmllint is built without DTD validation (no `--valid`, no `--dtdvalid`). So the DTD is translated into
 *   an equivalent XML Schema (`dtdToXsd`: every element global, content models as sequences and choices, attribute
 *   types, defaults and `#FIXED` values) and 2.0.3 documents are validated against that, in batches of their own. The
 *   verdicts agree with native `xmllint --dtdvalid` (see the parity test); the lines differ where a DTD blames the
 *   parent element and a schema the child that does not fit. Without the DTD file, 2.0.3 documents are reported as not
 *   checked.
 */
import { BatchingValidator } from './batching.js';
import type {
  IofValidationResult,
  IofValidator,
  IofValidatorOptions,
  ValidateOptions,
  XmlDocumentInput,
} from './types.js';

/**
 * A validator with its own queue and bounds. The module's `validate` uses one shared validator, which is what
 * coalescing needs; make another only for different bounds.
 */
export function createIofValidator(options: IofValidatorOptions = {}): IofValidator {
  return new BatchingValidator(options);
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

export type {
  XmlDocumentInput,
  DocumentIofVersion,
  IofValidationResult,
  ValidateOptions,
  IofValidatorOptions,
  IofValidatorStats,
  IofValidator,
} from './types.js';
