/**
 * JSON files users hand over (EMS JSON, a portal's multi-event list, a simulator dataset, the token file, an import
 * manifest): read through `readInputFile` (a regular file, under a size limit, so that a huge file is a typed
 * `too_large` and never V8's "Cannot create a string longer than"), decoded by what the bytes are rather than assumed
 * UTF-8 (editors on Windows save UTF-16 with a byte order mark, and such a file is JSON, not something else), then
 * parsed. Every failure is an `InputError` with a reason a program can branch on.
 */
import { InputError } from '../errors.js';
import { readInputFile, type ReadInputOptions } from './files.js';

export interface ReadJsonOptions extends ReadInputOptions {
  /**
   * The file may hold secrets (a token file): the parser's message, which quotes the text near the error, is not
   * repeated. Default false.
   */
  secret?: boolean;
}

/** How the bytes of a JSON text are written, from a byte order mark or, without one, from where the zeros are. */
type JsonEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'utf-32';

function encodingOf(b: Uint8Array): { encoding: JsonEncoding; skip: number } {
  if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) return { encoding: 'utf-8', skip: 3 };
  if ((b[0] === 0xff && b[1] === 0xfe && b[2] === 0 && b[3] === 0) || (b[0] === 0 && b[1] === 0 && b[2] === 0xfe))
    return { encoding: 'utf-32', skip: 0 };
  if (b[0] === 0xff && b[1] === 0xfe) return { encoding: 'utf-16le', skip: 2 };
  if (b[0] === 0xfe && b[1] === 0xff) return { encoding: 'utf-16be', skip: 2 };
  // JSON text starts with an ASCII character (RFC 8259 section 8.1 relies on it): its zero byte tells the order.
  if (b.length >= 2 && b[0] !== 0 && b[1] === 0) return { encoding: b[2] === 0 ? 'utf-32' : 'utf-16le', skip: 0 };
  if (b.length >= 2 && b[0] === 0 && b[1] !== 0) return { encoding: 'utf-16be', skip: 0 };
  if (b.length >= 4 && b[0] === 0 && b[1] === 0) return { encoding: 'utf-32', skip: 0 };
  return { encoding: 'utf-8', skip: 0 };
}

/**
 * The text of JSON bytes: UTF-8 (a byte order mark dropped), or UTF-16 in either byte order. Throws `InputError` with
 * reason `bad_encoding` for UTF-32 or bytes that are not text in the encoding found.
 */
export function decodeJsonText(bytes: Uint8Array, source: string, what = 'the file'): string {
  const { encoding, skip } = encodingOf(bytes);
  if (encoding === 'utf-32') {
    throw new InputError(source, 'bad_encoding', `${what} is UTF-32, which JSON readers do not take.`, {
      hint: 'Save it as UTF-8.',
    });
  }
  try {
    return new TextDecoder(encoding, { fatal: true, ignoreBOM: true }).decode(bytes.subarray(skip));
  } catch (err) {
    const name = encoding === 'utf-8' ? 'UTF-8' : encoding === 'utf-16le' ? 'UTF-16 (little-endian)' : 'UTF-16';
    throw new InputError(source, 'bad_encoding', `${what} is not valid ${name} text.`, {
      cause: err,
      hint: 'Save it as UTF-8.',
    });
  }
}

/** Parses JSON text; `InputError` with reason `not_json` when it is not JSON. */
function parseJsonText(text: string, source: string, options: Pick<ReadJsonOptions, 'secret' | 'what'> = {}): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    // No `cause` for a secret file: newer V8 quotes the start of the text in JSON errors, and the text may be a token.
    if (options.secret) throw new InputError(source, 'not_json', `${options.what ?? 'the file'} is not JSON.`);
    throw new InputError(source, 'not_json', `not valid JSON: ${(err as Error).message}`, { cause: err });
  }
}

/**
 * A JSON file, parsed: `readInputFile`'s checks and limit (pass `maxBytes` for the kind of file), then the text
 * decoded as `decodeJsonText` says, then parsed. Throws `InputError` with reason `unreadable`, `not_a_file`,
 * `too_large`, `bad_encoding` or `not_json`.
 */
export async function readJsonInput(path: string, options: ReadJsonOptions = {}): Promise<unknown> {
  const bytes = await readInputFile(path, options);
  return parseJsonText(decodeJsonText(bytes, path, options.what), path, options);
}

/** Whether the first bytes of a file are JSON's first character `{` or `[`, in any encoding `decodeJsonText` reads. */
export function startsLikeJson(head: Uint8Array, opening = '{'): boolean {
  const { encoding, skip } = encodingOf(head);
  if (encoding === 'utf-32') return false;
  // A head may end inside a character: decode leniently, only the first characters matter.
  const text = new TextDecoder(encoding, { ignoreBOM: true }).decode(head.subarray(skip));
  return opening.includes(text.trimStart().charAt(0)) && text.trimStart() !== '';
}
