/**
 * Looking inside a route file: which format it is, how its text is encoded, and the one safe XML reader that GPX and
 * TCX share. Sniffing and reading live together so that they agree on BOMs, encodings and what counts as the root.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { InputError } from '../errors.js';
import type { GpsFormat } from './track.js';

/** Bytes looked at for an XML root: enough for a declaration, a comment or two and a DOCTYPE, little enough to be free. */
const SNIFF_WINDOW_BYTES = 8192;

/**
 * The format of a GPS route file judged by its content, or `null` when it is none of GPX, TCX and FIT. Never looks at a
 * file name. Reads at most the first 8 KiB; a file that sniffs as GPX or TCX may still turn out broken when parsed.
 */
export function sniffGpsFormat(bytes: Uint8Array): GpsFormat | null {
  if (isFitHeader(bytes)) return 'fit';
  const root = scanProlog(decodeHead(bytes.subarray(0, SNIFF_WINDOW_BYTES)), 0).root;
  if (root === 'gpx') return 'gpx';
  if (root === 'TrainingCenterDatabase') return 'tcx';
  return null;
}

/** FIT files start with a 12- or 14-byte header whose bytes 8..11 are the ASCII signature `.FIT`. */
export function isFitHeader(bytes: Uint8Array): boolean {
  return (
    bytes.length >= 12 &&
    (bytes[0] === 12 || bytes[0] === 14) &&
    bytes[8] === 0x2e && // .
    bytes[9] === 0x46 && // F
    bytes[10] === 0x49 && // I
    bytes[11] === 0x54 // T
  );
}

/**
 * Whether the content, after any BOM and whitespace, starts with `<`. Lets a large binary file be refused without
 * decoding all of it as text. Blank input counts as "may be", so that decoding reports it as empty.
 */
export function mayBeXml(bytes: Uint8Array): boolean {
  const head = decodeHead(bytes.subarray(0, SNIFF_WINDOW_BYTES));
  const start = skipXmlSpace(head, 0);
  return start === head.length || head.charCodeAt(start) === 0x3c;
}

/** Decodes only as much as sniffing needs; a multi-byte character cut at the window's end becomes U+FFFD, harmlessly. */
function decodeHead(bytes: Uint8Array): string {
  const utf16 = utf16Bom(bytes);
  if (utf16) return new TextDecoder(utf16).decode(bytes);
  // The names looked for are ASCII, so an 8-bit declared encoding cannot change where the root is or what it is called.
  return new TextDecoder('utf-8').decode(bytes);
}

function utf16Bom(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | undefined {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return undefined;
}

function isXmlSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

function skipXmlSpace(text: string, from: number): number {
  let i = from;
  // A BOM that survived decoding (latin1 fallback, or a second one) is skipped like whitespace before the prolog.
  while (i < text.length && (isXmlSpace(text.charCodeAt(i)) || text.charCodeAt(i) === 0xfeff)) i += 1;
  return i;
}

interface Prolog {
  /** Local name (prefix removed) of the first element, when it starts within the text. */
  root?: string;
  /** Offset of an `<!ENTITY` declaration inside the DOCTYPE's internal subset. */
  entityAt?: number;
}

/**
 * Walks the prolog (XML declaration, processing instructions, comments, DOCTYPE) to the first element without parsing
 * the document. Anything else before the root (text, a stray `<`) means "no root found".
 */
function scanProlog(text: string, from: number): Prolog {
  const prolog: Prolog = {};
  let i = from;
  for (;;) {
    i = skipXmlSpace(text, i);
    if (text.startsWith('<?', i)) {
      const end = text.indexOf('?>', i + 2);
      if (end < 0) return prolog;
      i = end + 2;
    } else if (text.startsWith('<!--', i)) {
      const end = text.indexOf('-->', i + 4);
      if (end < 0) return prolog;
      i = end + 3;
    } else if (text.startsWith('<!DOCTYPE', i)) {
      const end = scanDoctype(text, i + 9, prolog);
      if (end < 0) return prolog;
      i = end;
    } else if (text.charCodeAt(i) === 0x3c /* < */) {
      const match = /^<([A-Za-z_\u00C0-\uFFFF][\w.\-:\u00B7\u00C0-\uFFFF]*)/.exec(text.slice(i, i + 256));
      if (match?.[1]) {
        const name = match[1];
        const colon = name.lastIndexOf(':');
        prolog.root = colon >= 0 ? name.slice(colon + 1) : name;
      }
      return prolog;
    } else {
      return prolog;
    }
  }
}

/** Finds the `>` that closes a DOCTYPE, stepping over quoted strings, comments and the `[...]` internal subset. */
function scanDoctype(text: string, from: number, prolog: Prolog): number {
  let depth = 0;
  let i = from;
  while (i < text.length) {
    const c = text[i];
    if (c === '"' || c === "'") {
      const end = text.indexOf(c, i + 1);
      if (end < 0) return -1;
      i = end + 1;
    } else if (text.startsWith('<!--', i)) {
      const end = text.indexOf('-->', i + 4);
      if (end < 0) return -1;
      i = end + 3;
    } else if (depth > 0 && text.startsWith('<!ENTITY', i)) {
      prolog.entityAt ??= i;
      i += 8;
    } else if (c === '[') {
      depth += 1;
      i += 1;
    } else if (c === ']') {
      depth -= 1;
      i += 1;
    } else if (c === '>' && depth <= 0) {
      return i + 1;
    } else {
      i += 1;
    }
  }
  return -1;
}

// ---------------------------------------------------------------------------------------------------------------------
// Reading XML route files safely.

/** Decoded XML text with the leading whitespace removed, and what is needed to report positions in the original file. */
export interface XmlText {
  /** Starts at the first non-whitespace character (an XML declaration may not follow whitespace, yet real files do). */
  text: string;
  /** Lines removed from the front, added back to reported line numbers. */
  lineOffset: number;
  /** Characters removed from the front of the first remaining line, added back to columns on that line. */
  columnOffset: number;
}

/**
 * Bytes to text: UTF-16 by BOM, otherwise the encoding the XML declaration names (UTF-8 when none). Bytes invalid in
 * that encoding become U+FFFD rather than an error: they can only damage names, never numbers or times.
 */
export function decodeXml(bytes: Uint8Array, source: string): XmlText {
  const raw = decodeText(bytes, source);
  const start = skipXmlSpace(raw, 0);
  if (start === raw.length) {
    throw new InputError(source, 'empty', 'the file holds nothing but whitespace.', {
      hint: 'Export the route again from the watch or training app and choose that file.',
    });
  }
  const removed = raw.slice(0, start);
  const lastNewline = removed.lastIndexOf('\n');
  let lineOffset = 0;
  for (const c of removed) if (c === '\n') lineOffset += 1;
  return { text: raw.slice(start), lineOffset, columnOffset: removed.length - lastNewline - 1 };
}

function decodeText(bytes: Uint8Array, source: string): string {
  const utf16 = utf16Bom(bytes);
  if (utf16) return new TextDecoder(utf16).decode(bytes);
  const hasUtf8Bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const label = hasUtf8Bom ? 'utf-8' : declaredEncoding(bytes);
  switch (label) {
    case 'utf-8':
    case 'utf8':
      return new TextDecoder('utf-8').decode(bytes);
    case 'iso-8859-1':
    case 'iso8859-1':
    case 'iso_8859-1':
    case 'latin1':
    case 'l1':
    case 'us-ascii':
    case 'ascii':
      return decodeLatin1(bytes);
    case 'windows-1252':
    case 'cp1252':
      // Node 20's TextDecoder maps 0x80-0x9F of windows-1252 to control characters, so those 32 are mapped here.
      return decodeLatin1(bytes).replace(/[\u0080-\u009f]/g, (c) => WINDOWS_1252_HIGH[c.charCodeAt(0) - 0x80] ?? c);
    default:
      try {
        return new TextDecoder(label).decode(bytes);
      } catch (error) {
        throw new InputError(
          source,
          'not_well_formed',
          `the file declares the text encoding "${label}", which cannot be read.`,
          {
            cause: error,
            hint: 'Save or export the file as UTF-8 and try again.',
          },
        );
      }
  }
}

function declaredEncoding(bytes: Uint8Array): string {
  const head = decodeLatin1(bytes.subarray(0, 512));
  const match = /^\s*<\?xml\s[^>]*?\bencoding\s*=\s*["']([A-Za-z0-9._\-:]+)["']/.exec(head);
  return match?.[1]?.toLowerCase() ?? 'utf-8';
}

function decodeLatin1(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
}

/** windows-1252 characters for bytes 0x80-0x9F; the five bytes it leaves undefined stay as they are. */
// prettier-ignore
const WINDOWS_1252_HIGH: (string | undefined)[] = [
  '\u20ac', undefined, '\u201a', '\u0192', '\u201e', '\u2026', '\u2020', '\u2021',
  '\u02c6', '\u2030', '\u0160', '\u2039', '\u0152', undefined, '\u017d', undefined,
  undefined, '\u2018', '\u2019', '\u201c', '\u201d', '\u2022', '\u2013', '\u2014',
  '\u02dc', '\u2122', '\u0161', '\u203a', '\u0153', undefined, '\u017e', '\u0178',
];

/**
 * Checks the document is well-formed XML without entity declarations and returns the root element's local name.
 * fast-xml-parser accepts some broken XML silently (`<a><b>x</a>`), so its validator runs first.
 */
export function checkWellFormed(xml: XmlText, source: string): string | undefined {
  const prolog = scanProlog(xml.text, 0);
  if (prolog.entityAt !== undefined) {
    const { line, column } = lineAndColumn(xml.text, prolog.entityAt);
    throw new InputError(source, 'not_well_formed', 'entity declarations are not allowed.', {
      ...position(xml, line, column),
      hint: 'GPS route files never need them; remove the DOCTYPE or export the file again.',
    });
  }
  const result = XMLValidator.validate(xml.text);
  if (result !== true) {
    const { msg, line, col } = result.err;
    throw new InputError(source, 'not_well_formed', `the file is not well-formed XML: ${msg}`, {
      ...position(xml, line, col),
      hint: 'Export the route again from the watch or training app; an edited or partly copied file is often damaged.',
    });
  }
  return prolog.root;
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) {
    line += 1;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

/** Maps a position in the trimmed text back to the original file. */
function position(
  xml: XmlText,
  line: number | undefined,
  column: number | undefined,
): { line?: number; column?: number } {
  if (typeof line !== 'number' || !Number.isFinite(line)) return {};
  const out: { line: number; column?: number } = { line: line + xml.lineOffset };
  if (typeof column === 'number' && Number.isFinite(column))
    out.column = line === 1 ? column + xml.columnOffset : column;
  return out;
}

/** A parsed element: child elements by local name, attributes as `@_name`, text as `#text` (or the element is text). */
export type XmlNode = Record<string, unknown>;

// Entities stay unexpanded (no DOCTYPE-defined expansion, no amplification); `xmlText` decodes the predefined ones where
// text matters. Extensions are kept as raw text: nothing is read from them, and skipping them halves the parse time.
const parser = new XMLParser({
  ignoreAttributes: false,
  removeNSPrefix: true,
  parseTagValue: false,
  processEntities: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  stopNodes: ['*.extensions', '*.Extensions'],
});

/** Parses text that `checkWellFormed` accepted and returns the root element's content. */
export function parseXmlTree(xml: XmlText, source: string): XmlNode {
  let doc: unknown;
  try {
    doc = parser.parse(xml.text);
  } catch (error) {
    const nested = error instanceof Error && /nested/i.test(error.message);
    throw new InputError(
      source,
      nested ? 'too_large' : 'not_well_formed',
      nested ? 'the XML is nested too deeply to be a GPS route file.' : `the XML cannot be read: ${String(error)}`,
      { cause: error, hint: 'Export the route again from the watch or training app.' },
    );
  }
  const roots = typeof doc === 'object' && doc !== null ? Object.keys(doc) : [];
  const [rootName] = roots;
  if (roots.length !== 1 || rootName === undefined) {
    throw new InputError(
      source,
      'not_well_formed',
      `the XML has ${roots.length} root elements; it must have exactly one.`,
      {
        hint: 'Export the route again from the watch or training app; files joined together are not a route file.',
      },
    );
  }
  const root = (doc as XmlNode)[rootName];
  return isNode(root) ? root : {};
}

export function isNode(value: unknown): value is XmlNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Child elements of one name, as a list whether the file had none, one or many. */
export function childrenOf(node: unknown, name: string): unknown[] {
  if (!isNode(node)) return [];
  const value = node[name];
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/** The text of the first child element of that name, entities decoded. */
export function childText(node: unknown, name: string): string | undefined {
  return xmlText(childrenOf(node, name)[0]);
}

export function attribute(node: unknown, name: string): string | undefined {
  if (!isNode(node)) return undefined;
  const value = node[`@_${name}`];
  return typeof value === 'string' ? decodeXmlEntities(value) : undefined;
}

/** Text content of a parsed element: the element itself when it only holds text, `#text` when it also has attributes. */
export function xmlText(value: unknown): string | undefined {
  if (typeof value === 'string') return decodeXmlEntities(value);
  if (isNode(value) && typeof value['#text'] === 'string') return decodeXmlEntities(value['#text']);
  return undefined;
}

const ENTITY = /&(?:#x([0-9A-Fa-f]+)|#([0-9]+)|(amp|lt|gt|quot|apos));/g;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Decodes the five predefined entities and character references; anything else is left as written. */
export function decodeXmlEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(ENTITY, (whole, hex: string | undefined, dec: string | undefined, name: string | undefined) => {
    if (name !== undefined) return NAMED[name] ?? whole;
    const code = hex !== undefined ? Number.parseInt(hex, 16) : Number(dec);
    const valid = code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff);
    return valid ? String.fromCodePoint(code) : whole;
  });
}

/** A decimal number written as XML text; empty or non-numeric text is "absent", not zero. */
export function xmlNumber(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const trimmed = text.trim();
  if (trimmed === '' || !/^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/.test(trimmed)) return undefined;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : undefined;
}

const ISO_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:[.,](\d+))?(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * An xsd:dateTime as epoch ms. Strict on purpose: `Date.parse` also accepts local-time formats such as
 * `03-OCT-10 16:01:13`, which would shift a route by the server's time zone. A time without a zone is taken as UTC,
 * as GPX requires and as every TCX producer writes.
 */
export function parseXmlTime(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const m = ISO_TIME.exec(text.trim());
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 60) return undefined;
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, frac === undefined ? 0 : Math.round(Number(`0.${frac}`) * 1000));
  let offsetMinutes = 0;
  if (zone !== undefined && zone.toUpperCase() !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    const zh = Number(digits.slice(0, 2));
    const zm = Number(digits.slice(2, 4));
    if (zh > 14 || zm > 59) return undefined;
    offsetMinutes = sign * (zh * 60 + zm);
  }
  return date.getTime() - offsetMinutes * 60_000;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}
