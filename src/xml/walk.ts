/**
 * Reading values out of what the XML layer gives: elements of a tree that `parseXmlDocument` (`tree.ts`) made, and
 * numbers written as XML text (the tree readers and the stream collectors of `gps/` both read them).
 */
import { ATTR } from './tree.js';

/** A parsed element: child elements by local name, attributes as `@name`, text as `#text` (or the element is text). */
export type XmlNode = Record<string, unknown>;

export function isNode(value: unknown): value is XmlNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function attribute(node: unknown, name: string): string | undefined {
  if (!isNode(node)) return undefined;
  const value = node[`${ATTR}${name}`];
  return typeof value === 'string' ? value : undefined;
}

/** A decimal number written as XML text; empty or non-numeric text is "absent", not zero. */
export function xmlNumber(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const trimmed = text.trim();
  if (!isDecimal(trimmed)) return undefined;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : undefined;
}

/**
 * Whether `s` is `[+-]? (digits [. digits?] | . digits) ([eE] [+-]? digits)?`: what `Number` would also read as hex,
 * binary, `Infinity` or with inner spaces is refused. Scanned by hand: a GPS track has three numbers per point.
 */
function isDecimal(s: string): boolean {
  const n = s.length;
  let i = 0;
  let c = s.charCodeAt(0);
  if (c === 0x2b || c === 0x2d) c = s.charCodeAt(++i);
  let digits = 0;
  for (; i < n && c >= 0x30 && c <= 0x39; c = s.charCodeAt(++i)) digits++;
  if (c === 0x2e) {
    for (c = s.charCodeAt(++i); i < n && c >= 0x30 && c <= 0x39; c = s.charCodeAt(++i)) digits++;
  }
  if (digits === 0) return false;
  if (c === 0x65 || c === 0x45) {
    c = s.charCodeAt(++i);
    if (c === 0x2b || c === 0x2d) c = s.charCodeAt(++i);
    let exponent = 0;
    for (; i < n && c >= 0x30 && c <= 0x39; c = s.charCodeAt(++i)) exponent++;
    if (exponent === 0) return false;
  }
  return i === n;
}
