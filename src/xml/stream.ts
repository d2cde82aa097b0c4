/**
 * Streaming XML for documents too large to hold as a tree (exports of tens of megabytes): bytes from memory, from
 * chunks or from a file go through the chunk decoder (`chunk-decoder.ts`) in the encoding their first bytes show, then
 * through the tokenizer (`tokenizer.ts`), which reports to the caller's handler. Memory stays bounded whatever the
 * document's size; the size itself is capped.
 */
import { createReadStream } from 'node:fs';
import { errnoCode } from '../core/files.js';
import { InputError } from '../errors.js';
import { XmlChunkDecoder } from './chunk-decoder.js';
import { detectXmlEncoding, unsupportedEncodingError, type DetectedXmlEncoding, type XmlEncoding } from './decode.js';
import { XmlTokenizer, type XmlHandler } from './tokenizer.js';

/** Default cap on the bytes of a streamed document. */
export const MAX_STREAM_BYTES = 512 * 1024 * 1024;
/** Bytes per slice when a whole document in memory is fed as a stream. */
const SLICE_BYTES = 64 * 1024;
/** Bytes looked at for a BOM and the XML declaration before decoding starts. */
const HEAD_BYTES = 1024;

/** Bytes in memory, bytes arriving in chunks, or the path of a file to read with a stream. */
export type XmlInput = Uint8Array | AsyncIterable<Uint8Array> | string;

export interface StreamXmlOptions {
  /** Name of the input in errors. Default: the path, or `input`. */
  source?: string;
  /** Stops the reading; the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Largest document accepted, in bytes. Default `MAX_STREAM_BYTES` (512 MiB). */
  maxBytes?: number;
  /** Looks at the first bytes (1 KiB, or all of a smaller document) before decoding starts; may throw to refuse them. */
  inspectHead?: (head: Uint8Array) => void;
  /** What the user can do about a DOCTYPE declaring entities, that error's hint. Default: a generic one. */
  entityDeclarationHint?: string;
}

/** What `streamXml` found out about the bytes. */
export interface StreamedXmlInfo {
  encoding: XmlEncoding;
  bom: boolean;
  /** Bytes read (all of them, unless the handler stopped early). */
  bytes: number;
}

const NO_HANDLER: XmlHandler = { startElement: () => undefined, endElement: () => undefined, text: () => undefined };

async function* chunksOf(input: XmlInput, signal: AbortSignal | undefined): AsyncIterable<Uint8Array> {
  if (typeof input === 'string') {
    const stream = createReadStream(input, { highWaterMark: SLICE_BYTES, ...(signal ? { signal } : {}) });
    try {
      for await (const chunk of stream) yield chunk as Uint8Array;
    } finally {
      stream.destroy();
    }
  } else if (input instanceof Uint8Array) {
    for (let i = 0; i < input.byteLength; i += SLICE_BYTES) yield input.subarray(i, i + SLICE_BYTES);
  } else {
    yield* input;
  }
}

/**
 * Reads XML from bytes, chunks or a file, decoding and tokenizing as it goes, and reports to `handler` (which gets the
 * tokenizer to set `captureText` or `stop`). Throws `InputError` with reason `empty`, `unreadable` (a file that cannot
 * be opened), `too_large`, `unsupported_encoding`, `bad_encoding`, `not_well_formed`, `entity_declaration` or
 * `too_deep`, each with line and column when they are known.
 */
export async function streamXml(
  input: XmlInput,
  makeHandler: (tokenizer: XmlTokenizer) => XmlHandler,
  options: StreamXmlOptions = {},
): Promise<StreamedXmlInfo> {
  const source = options.source ?? (typeof input === 'string' ? input : 'input');
  const maxBytes = options.maxBytes ?? MAX_STREAM_BYTES;
  const signal = options.signal;
  signal?.throwIfAborted();
  const tokenizer = new XmlTokenizer(NO_HANDLER, source, undefined, options.entityDeclarationHint);
  tokenizer.handler = makeHandler(tokenizer);

  let decoder: XmlChunkDecoder | undefined;
  let detected: DetectedXmlEncoding | undefined;
  let head: Uint8Array | undefined;
  let total = 0;

  const push = (bytes: Uint8Array, last: boolean): void => {
    if (decoder === undefined) return;
    const decoded = decoder.write(bytes, last);
    tokenizer.write(decoded.text);
    if (decoded.badAt !== undefined) {
      throw new InputError(source, 'bad_encoding', `${decoded.message ?? 'bytes invalid in the encoding'}.`, {
        ...tokenizer.endPosition(),
        hint: 'Check the encoding in the XML declaration against how the file was saved.',
      });
    }
  };
  const start = (bytes: Uint8Array): void => {
    options.inspectHead?.(bytes);
    detected = detectXmlEncoding(bytes);
    if (detected.unsupported !== undefined) throw unsupportedEncodingError(source, detected.unsupported);
    decoder = new XmlChunkDecoder(detected.encoding);
    push(bytes.subarray(detected.start), false);
  };

  try {
    for await (const chunk of chunksOf(input, signal)) {
      signal?.throwIfAborted();
      total += chunk.byteLength;
      if (total > maxBytes) {
        throw new InputError(source, 'too_large', `the document has more than ${maxBytes} bytes, the most accepted.`, {
          hint: 'Raise maxBytes if the file is genuine.',
        });
      }
      if (decoder === undefined) {
        // The encoding is decided on the first bytes: gather enough for a BOM and the XML declaration.
        head = head === undefined ? chunk.slice() : concat(head, chunk);
        if (head.byteLength < HEAD_BYTES) continue;
        const first = head;
        head = undefined;
        start(first);
      } else {
        push(chunk, false);
      }
      if (tokenizer.isStopped) break;
    }
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    if (typeof input === 'string' && !(error instanceof InputError)) {
      const code = errnoCode(error);
      if (code !== undefined) {
        throw new InputError(source, 'unreadable', `cannot read the file (${code}).`, { cause: error });
      }
    }
    throw error;
  }
  signal?.throwIfAborted();
  if (!tokenizer.isStopped) {
    if (decoder === undefined) {
      if (head === undefined || head.byteLength === 0)
        throw new InputError(source, 'empty', 'the file is empty (0 bytes).');
      start(head);
    }
    push(new Uint8Array(0), true);
    tokenizer.end();
  }
  return { encoding: detected?.encoding ?? 'utf-8', bom: detected?.bom ?? false, bytes: total };
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.byteLength + b.byteLength);
  out.set(a, 0);
  out.set(b, a.byteLength);
  return out;
}
