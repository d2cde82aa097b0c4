/**
 * Streaming XML for documents too large to hold as a tree (exports of tens of megabytes): bytes from memory, from
 * chunks or from a file go through the chunk decoder (`chunk-decoder.ts`) in the encoding their first bytes show, then
 * through the tokenizer (`tokenizer.ts`), which reports to the caller's handler. Memory stays bounded whatever the
 * document's size; the size itself is capped. `tokenizeXml` does the same synchronously for bytes already in memory.
 */
import { errnoCode, readInputChunks } from '../core/files.js';
import { InputError } from '../errors.js';
import { XmlChunkDecoder } from './chunk-decoder.js';
import { detectXmlEncoding, unsupportedEncodingError, type DetectedXmlEncoding, type XmlEncoding } from './decode.js';
import { XmlTokenizer, type XmlHandler, type XmlTokenizerOptions } from './tokenizer.js';

/** Default cap on the bytes of a streamed document. */
export const MAX_STREAM_BYTES = 512 * 1024 * 1024;
/** Bytes per slice when a whole document in memory is fed as a stream. */
const SLICE_BYTES = 64 * 1024;
/** Bytes looked at for a BOM and the XML declaration before decoding starts. */
const HEAD_BYTES = 1024;

/**
 * Bytes in memory, bytes arriving in chunks, or the path of a file to read in chunks (through `readInputChunks`, so a
 * named pipe or device is refused, never read).
 */
export type XmlInput = Uint8Array | AsyncIterable<Uint8Array> | string;

export interface TokenizeXmlOptions {
  /** Name of the input in errors. Default: the path, or `input`. */
  source?: string;
  /** Largest document accepted, in bytes. Default `MAX_STREAM_BYTES` (512 MiB). */
  maxBytes?: number;
  /** Looks at the first bytes (1 KiB, or all of a smaller document) before decoding starts; may throw to refuse them. */
  inspectHead?: (head: Uint8Array) => void;
  /** What the user can do about a DOCTYPE declaring entities, that error's hint. Default: a generic one. */
  entityDeclarationHint?: string;
  /** What the tokenizer accepts beyond strict XML. Default: nothing. */
  tokenizer?: XmlTokenizerOptions;
}

export interface StreamXmlOptions extends TokenizeXmlOptions {
  /** Stops the reading; the promise rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** What `streamXml` found out about the bytes. */
export interface StreamedXmlInfo {
  encoding: XmlEncoding;
  bom: boolean;
  /** Bytes read (all of them, unless the handler stopped early). */
  bytes: number;
}

const NO_HANDLER: XmlHandler = { startElement: () => undefined, endElement: () => undefined, text: () => undefined };

async function* chunksOf(
  input: XmlInput,
  signal: AbortSignal | undefined,
  maxBytes: number,
): AsyncIterable<Uint8Array> {
  if (typeof input === 'string') {
    yield* readInputChunks(input, { maxBytes, signal });
  } else if (input instanceof Uint8Array) {
    yield* slices(input);
  } else {
    yield* input;
  }
}

/**
 * Bytes -> decoder -> tokenizer, for a document arriving in chunks: the encoding is decided on the first bytes (a BOM
 * and the XML declaration), then every chunk is decoded and tokenized as it comes. Shared by the asynchronous reader
 * (`streamXml`) and the synchronous one (`tokenizeXml`), which differ only in where the chunks come from.
 */
class XmlBytePipeline {
  readonly tokenizer: XmlTokenizer;
  private decoder: XmlChunkDecoder | undefined;
  private detected: DetectedXmlEncoding | undefined;
  private head: Uint8Array | undefined;
  private total = 0;

  constructor(
    makeHandler: (tokenizer: XmlTokenizer) => XmlHandler,
    private readonly source: string,
    private readonly options: TokenizeXmlOptions,
  ) {
    this.tokenizer = new XmlTokenizer(NO_HANDLER, source, options.entityDeclarationHint, options.tokenizer);
    this.tokenizer.handler = makeHandler(this.tokenizer);
  }

  /** Takes the next chunk; returns whether the handler asked to stop. */
  write(chunk: Uint8Array): boolean {
    const maxBytes = this.options.maxBytes ?? MAX_STREAM_BYTES;
    this.total += chunk.byteLength;
    if (this.total > maxBytes) {
      throw new InputError(
        this.source,
        'too_large',
        `the document has more than ${maxBytes} bytes, the most accepted.`,
        {
          hint: 'Raise maxBytes if the file is genuine.',
        },
      );
    }
    if (this.decoder === undefined) {
      // The encoding is decided on the first bytes: gather enough for a BOM and the XML declaration.
      this.head = this.head === undefined ? chunk.slice() : concat(this.head, chunk);
      if (this.head.byteLength < HEAD_BYTES) return false;
      const first = this.head;
      this.head = undefined;
      this.start(first);
    } else {
      this.push(chunk, false);
    }
    return this.tokenizer.isStopped;
  }

  /** The input is complete: checks that the document is. */
  end(): StreamedXmlInfo {
    if (!this.tokenizer.isStopped) {
      if (this.decoder === undefined) {
        if (this.head === undefined || this.head.byteLength === 0) {
          throw new InputError(this.source, 'empty', 'the file is empty (0 bytes).');
        }
        this.start(this.head);
      }
      this.push(new Uint8Array(0), true);
      this.tokenizer.end();
    }
    return { encoding: this.detected?.encoding ?? 'utf-8', bom: this.detected?.bom ?? false, bytes: this.total };
  }

  private start(bytes: Uint8Array): void {
    this.options.inspectHead?.(bytes);
    const detected = detectXmlEncoding(bytes);
    this.detected = detected;
    if (detected.unsupported !== undefined) throw unsupportedEncodingError(this.source, detected.unsupported);
    this.decoder = new XmlChunkDecoder(detected.encoding);
    this.push(bytes.subarray(detected.start), false);
  }

  private push(bytes: Uint8Array, last: boolean): void {
    if (this.decoder === undefined) return;
    const decoded = this.decoder.write(bytes, last);
    this.tokenizer.write(decoded.text);
    if (decoded.badAt !== undefined) {
      throw new InputError(this.source, 'bad_encoding', `${decoded.message ?? 'bytes invalid in the encoding'}.`, {
        ...this.tokenizer.endPosition(),
        hint: 'Check the encoding in the XML declaration against how the file was saved.',
      });
    }
  }
}

/**
 * Reads XML from bytes, chunks or a file, decoding and tokenizing as it goes, and reports to `handler` (which gets the
 * tokenizer to set `captureText` or `stop`). Throws `InputError` with reason `empty`, `unreadable` (a file that cannot
 * be opened), `not_a_file` (a path naming a directory, named pipe or device), `too_large`, `unsupported_encoding`,
 * `bad_encoding`, `not_well_formed`, `entity_declaration` or `too_deep`, each with line and column when they are known.
 */
export async function streamXml(
  input: XmlInput,
  makeHandler: (tokenizer: XmlTokenizer) => XmlHandler,
  options: StreamXmlOptions = {},
): Promise<StreamedXmlInfo> {
  const source = options.source ?? (typeof input === 'string' ? input : 'input');
  const signal = options.signal;
  signal?.throwIfAborted();
  const pipeline = new XmlBytePipeline(makeHandler, source, options);
  try {
    for await (const chunk of chunksOf(input, signal, options.maxBytes ?? MAX_STREAM_BYTES)) {
      signal?.throwIfAborted();
      if (pipeline.write(chunk)) break;
    }
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    // The file reader names a missing file in words; this reader's callers have always had the code in the message.
    if (typeof input === 'string' && error instanceof InputError && error.reason === 'unreadable') {
      const code = errnoCode(error.cause);
      if (code !== undefined) {
        throw new InputError(source, 'unreadable', `cannot read the file (${code}).`, { cause: error.cause });
      }
    }
    throw error;
  }
  signal?.throwIfAborted();
  return pipeline.end();
}

/**
 * `streamXml` for a whole document already in memory, without giving up the thread: for callers that must stay
 * synchronous (`parseTrack`). The bytes are decoded in 64 KiB slices, so the decoded text is never held whole: memory
 * is the caller's bytes plus what the handler keeps. Throws as `streamXml` does (never `unreadable` or `not_a_file`).
 */
export function tokenizeXml(
  bytes: Uint8Array,
  makeHandler: (tokenizer: XmlTokenizer) => XmlHandler,
  options: TokenizeXmlOptions = {},
): StreamedXmlInfo {
  const pipeline = new XmlBytePipeline(makeHandler, options.source ?? 'input', options);
  for (const slice of slices(bytes)) {
    if (pipeline.write(slice)) break;
  }
  return pipeline.end();
}

/** A document in memory as the chunks a stream would bring, so that both readers decode it the same way. */
function* slices(bytes: Uint8Array): Generator<Uint8Array> {
  for (let i = 0; i < bytes.byteLength; i += SLICE_BYTES) yield bytes.subarray(i, i + SLICE_BYTES);
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.byteLength + b.byteLength);
  out.set(a, 0);
  out.set(b, a.byteLength);
  return out;
}
