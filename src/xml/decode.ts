/**
 * Bytes -> text for XML files. fast-xml-parser only takes strings and the WASM libxml2 only knows UTF-8, UTF-16 and
 * Latin-1, while real exports also come as windows-1252 and with BOMs, so every reader and the validator decode here
 * first (the stream reader through `chunk-decoder.ts`, on the same tables).
 */
import { InputError } from '../errors.js';

export type XmlEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'iso-8859-1' | 'windows-1252';

export interface DecodedXml {
  /** The document text without a byte order mark. */
  text: string;
  encoding: XmlEncoding;
  /** Whether the bytes started with a byte order mark. */
  bom: boolean;
}

/**
 * Declared names (lower case) of the encodings we decode. Everything else is refused rather than guessed. The stream
 * reader uses the same table, so a file decodes the same whether it is read whole or streamed.
 */
export const DECLARED_ENCODINGS: Readonly<Record<string, XmlEncoding | 'utf-16'>> = {
  'utf-8': 'utf-8',
  utf8: 'utf-8',
  // ASCII is a subset of UTF-8; a stray byte above 0x7F is then reported as bad UTF-8 with its offset.
  'us-ascii': 'utf-8',
  ascii: 'utf-8',
  'utf-16': 'utf-16',
  utf16: 'utf-16',
  'utf-16le': 'utf-16le',
  'utf-16be': 'utf-16be',
  'iso-8859-1': 'iso-8859-1',
  'iso8859-1': 'iso-8859-1',
  iso_8859_1: 'iso-8859-1',
  'iso_8859-1': 'iso-8859-1',
  latin1: 'iso-8859-1',
  'latin-1': 'iso-8859-1',
  l1: 'iso-8859-1',
  'windows-1252': 'windows-1252',
  cp1252: 'windows-1252',
  'x-cp1252': 'windows-1252',
};

/**
 * windows-1252 bytes 0x80-0x9F. Node 20's TextDecoder('windows-1252') maps them to C1 control characters, which turns
 * ‘smart quotes’ and € written by Windows programs into invisible garbage. The five undefined bytes keep their C1 code
 * points (WHATWG).
 */
const CP1252_HIGH =
  '\u20AC\u0081\u201A\u0192\u201E\u2026\u2020\u2021\u02C6\u2030\u0160\u2039\u0152\u008D\u017D\u008F' +
  '\u0090\u2018\u2019\u201C\u201D\u2022\u2013\u2014\u02DC\u2122\u0161\u203A\u0153\u009D\u017E\u0178';

/** How a document's bytes are to be read: its encoding and where the text starts (after any byte order mark). */
export interface DetectedXmlEncoding {
  encoding: XmlEncoding;
  /** Whether the bytes start with a byte order mark. */
  bom: boolean;
  /** Bytes of the byte order mark, skipped before decoding. */
  start: number;
  /** The declared name, when the declaration names an encoding we do not decode (`encoding` is then UTF-8). */
  unsupported?: string;
}

/**
 * The encoding of an XML document from its first bytes, for whole and streamed reading alike: a byte order mark wins,
 * then UTF-16 recognised by its first `<?`, then the declared encoding, then UTF-8.
 */
export function detectXmlEncoding(bytes: Uint8Array): DetectedXmlEncoding {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { encoding: 'utf-8', bom: true, start: 3 };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { encoding: 'utf-16le', bom: true, start: 2 };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { encoding: 'utf-16be', bom: true, start: 2 };
  // UTF-16 without a BOM still starts with '<' as a 16-bit unit (XML 1.0 appendix F).
  if (bytes[0] === 0x3c && bytes[1] === 0x00 && bytes[2] === 0x3f && bytes[3] === 0x00) {
    return { encoding: 'utf-16le', bom: false, start: 0 };
  }
  if (bytes[0] === 0x00 && bytes[1] === 0x3c && bytes[2] === 0x00 && bytes[3] === 0x3f) {
    return { encoding: 'utf-16be', bom: false, start: 0 };
  }
  const declared = declaredEncoding(bytes);
  if (declared === undefined) return { encoding: 'utf-8', bom: false, start: 0 };
  const known = DECLARED_ENCODINGS[declared.toLowerCase()];
  if (known === undefined) return { encoding: 'utf-8', bom: false, start: 0, unsupported: declared };
  // A declaration we could read as single bytes means the bytes are not UTF-16 whatever it says.
  const encoding = known === 'utf-16' || known === 'utf-16le' || known === 'utf-16be' ? 'utf-8' : known;
  return { encoding, bom: false, start: 0 };
}

/** The error for a declared encoding we do not decode (refused rather than guessed). */
export function unsupportedEncodingError(source: string, declared: string): InputError {
  return new InputError(
    source,
    'unsupported_encoding',
    `the XML declaration names the encoding "${declared}", which is not supported (UTF-8, UTF-16, ISO-8859-1 and windows-1252 are).`,
    { line: 1, hint: 'Export the file as UTF-8.' },
  );
}

/**
 * Decodes an XML document: a byte order mark wins, then the encoding in the XML declaration, then UTF-8 (the XML
 * default). Throws `InputError` `bad_encoding` (with the byte offset) for bytes that are not valid in the encoding and
 * `unsupported_encoding` for a declared encoding we do not decode.
 */
export function decodeXml(bytes: Uint8Array, source = 'input'): DecodedXml {
  const { encoding, start, unsupported } = detectXmlEncoding(bytes);
  if (unsupported !== undefined) throw unsupportedEncodingError(source, unsupported);
  const bom = start > 0;
  switch (encoding) {
    case 'utf-16le':
    case 'utf-16be':
      return { text: decodeUtf16(bytes, start, encoding, source), encoding, bom };
    case 'iso-8859-1':
      return { text: decodeLatin1(bytes), encoding, bom };
    case 'windows-1252':
      return { text: decodeWindows1252(bytes), encoding, bom };
    default:
      return { text: decodeUtf8(bytes, start, source), encoding, bom };
  }
}

/**
 * Decodes the first `maxBytes` bytes of an XML document for a quick look at its prolog (is it markup, what is the root
 * element), never throwing. The encoding is found as `decodeXml` finds it, but bytes invalid in it (such as a character
 * cut by the end of the window) become U+FFFD and an encoding we do not decode is read as UTF-8: names in the prolog
 * are ASCII in every encoding we meet, so the look stays right. Use `decodeXml` to read the document itself.
 */
export function decodeXmlHead(bytes: Uint8Array, maxBytes: number): string {
  const { encoding, start } = detectXmlEncoding(bytes);
  const head = bytes.subarray(0, maxBytes);
  switch (encoding) {
    case 'utf-16le':
    case 'utf-16be': {
      // An odd last byte is half a character; drop it rather than let it shift anything.
      let body = head.subarray(start, start + ((head.byteLength - start) & ~1));
      if (encoding === 'utf-16be') body = Buffer.from(body).swap16();
      return lenientUtf16le.decode(body);
    }
    case 'iso-8859-1':
      return decodeLatin1(head);
    case 'windows-1252':
      return decodeWindows1252(head);
    default:
      return lenientUtf8.decode(head.subarray(start));
  }
}

/** The `encoding` pseudo-attribute of the XML declaration, read as ASCII from the first bytes. */
function declaredEncoding(bytes: Uint8Array): string | undefined {
  const head = decodeLatin1(bytes.subarray(0, 1024));
  // Whitespace before the declaration is not well-formed XML, but some exporters write it; tolerate it here.
  const decl = /^\s*<\?xml\s([^?]*(?:\?(?!>)[^?]*)*)\?>/.exec(head);
  if (!decl) return undefined;
  const enc = /\bencoding\s*=\s*(?:"([^"]*)"|'([^']*)')/i.exec(decl[1] ?? '');
  if (!enc) return undefined;
  return (enc[1] ?? enc[2] ?? '').trim();
}

export function decodeLatin1(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
}

export function decodeWindows1252(bytes: Uint8Array): string {
  const text = decodeLatin1(bytes);
  // Most text (and most chunks of a stream) has none of these bytes: skip the replacing then.
  return /[\x80-\x9f]/.test(text) ? text.replace(/[\x80-\x9f]/g, cp1252) : text;
}

function cp1252(c: string): string {
  return CP1252_HIGH[c.charCodeAt(0) - 0x80] ?? c;
}

const fatalUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const fatalUtf16le = new TextDecoder('utf-16le', { fatal: true, ignoreBOM: true });
const lenientUtf8 = new TextDecoder('utf-8', { ignoreBOM: true });
const lenientUtf16le = new TextDecoder('utf-16le', { ignoreBOM: true });

function decodeUtf8(bytes: Uint8Array, start: number, source: string): string {
  const body = bytes.subarray(start);
  try {
    return fatalUtf8.decode(body);
  } catch (cause) {
    // TextDecoder does not say where; find the first bad sequence so the user can look at it.
    const offset = start + firstInvalidUtf8(body);
    throw encodingError(source, `invalid UTF-8 at byte offset ${offset}`, bytes, offset, cause);
  }
}

function decodeUtf16(bytes: Uint8Array, start: number, encoding: 'utf-16le' | 'utf-16be', source: string): string {
  let body = bytes.subarray(start);
  if (body.byteLength % 2 !== 0) {
    throw encodingError(source, `odd number of bytes for ${encoding.toUpperCase()}`, bytes, bytes.byteLength - 1);
  }
  if (encoding === 'utf-16be') {
    // Swap to little-endian ourselves: 'utf-16be' in TextDecoder needs full ICU, 'utf-16le' does not.
    body = Buffer.from(body).swap16();
  }
  try {
    return fatalUtf16le.decode(body);
  } catch (cause) {
    const offset = start + firstInvalidUtf16le(body);
    throw encodingError(
      source,
      `invalid ${encoding.toUpperCase()} (unpaired surrogate) at byte offset ${offset}`,
      bytes,
      offset,
      cause,
    );
  }
}

function encodingError(
  source: string,
  message: string,
  bytes: Uint8Array,
  offset: number,
  cause?: unknown,
): InputError {
  let line = 1;
  for (let i = 0; i < offset && i < bytes.length; i++) if (bytes[i] === 0x0a) line++;
  return new InputError(source, 'bad_encoding', `${message}.`, {
    line,
    hint: 'Check the encoding in the XML declaration against how the file was saved.',
    ...(cause === undefined ? {} : { cause }),
  });
}

/** Offset of the first byte that does not start a well-formed UTF-8 sequence (RFC 3629: no overlongs, no surrogates). */
export function firstInvalidUtf8(b: Uint8Array): number {
  let i = 0;
  while (i < b.length) {
    const c = b[i]!;
    if (c < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let min: number;
    let max = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) {
      need = 1;
      min = 0x80;
    } else if (c >= 0xe0 && c <= 0xef) {
      need = 2;
      min = c === 0xe0 ? 0xa0 : 0x80;
      if (c === 0xed) max = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
      need = 3;
      min = c === 0xf0 ? 0x90 : 0x80;
      if (c === 0xf4) max = 0x8f;
    } else {
      return i;
    }
    // A sequence cut off by the end of the input reads `undefined` and fails below.
    const second = b[i + 1];
    if (second === undefined || second < min || second > max) return i;
    for (let k = 2; k <= need; k++) {
      const cont = b[i + k];
      if (cont === undefined || cont < 0x80 || cont > 0xbf) return i;
    }
    i += need + 1;
  }
  return b.length;
}

export function firstInvalidUtf16le(b: Uint8Array): number {
  for (let i = 0; i + 1 < b.length; i += 2) {
    const unit = b[i]! | (b[i + 1]! << 8);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = i + 3 < b.length ? b[i + 2]! | (b[i + 3]! << 8) : -1;
      if (next < 0xdc00 || next > 0xdfff) return i;
      i += 2;
    } else if (unit >= 0xdc00 && unit <= 0xdfff) {
      return i;
    }
  }
  return b.length;
}
