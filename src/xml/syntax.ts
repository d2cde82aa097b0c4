/**
 * Pieces of the XML 1.0 grammar that the tree parser (`tree.ts`) and the tokenizer (`tokenizer.ts`) both need: which
 * characters and names XML allows, its five predefined entities, where a DOCTYPE ends, how deep elements may nest.
 * One copy, so the two readers refuse and accept the same documents.
 */
import { InputError } from '../errors.js';

/** Deepest element nesting accepted. Real documents need about 10; the cap stops hostile input exhausting the stack. */
export const MAX_XML_DEPTH = 256;

/** The five entities XML predefines; every other entity needs a declaration, and declarations are refused. */
export const XML_ENTITIES: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** Characters XML 1.0 never allows, in any context (lone surrogates never get past the decoders). */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
export const FORBIDDEN_CHAR = /[\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]/;

/** XML 1.0 `Char`: what a character reference may name. */
export function isXmlChar(cp: number): boolean {
  return (
    cp === 0x9 ||
    cp === 0xa ||
    cp === 0xd ||
    (cp >= 0x20 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0xfffd) ||
    (cp >= 0x10000 && cp <= 0x10ffff)
  );
}

/** A character as `U+00E5`, for messages about characters that may not be printable. */
export function codePointLabel(c: string): string {
  return `U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** ASCII name characters: 1 may start a name, 2 may only continue one. */
const ASCII_NAME = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  if (/[A-Za-z_:]/.test(ch)) ASCII_NAME[c] = 1;
  else if (/[0-9.-]/.test(ch)) ASCII_NAME[c] = 2;
}

/** XML 1.0 NameStartChar, by UTF-16 unit (a high surrogate stands for the supplementary planes it may start). */
export function isNameStartCode(c: number): boolean {
  if (c < 0x80) return ASCII_NAME[c] === 1;
  return (
    (c >= 0xc0 && c <= 0xd6) ||
    (c >= 0xd8 && c <= 0xf6) ||
    (c >= 0xf8 && c <= 0x2ff) ||
    (c >= 0x370 && c <= 0x37d) ||
    (c >= 0x37f && c <= 0x1fff) ||
    c === 0x200c ||
    c === 0x200d ||
    (c >= 0x2070 && c <= 0x218f) ||
    (c >= 0x2c00 && c <= 0x2fef) ||
    (c >= 0x3001 && c <= 0xdbff) ||
    (c >= 0xf900 && c <= 0xfdcf) ||
    (c >= 0xfdf0 && c <= 0xfffd)
  );
}

/** XML 1.0 NameChar, by UTF-16 unit. `NaN` (past the end of the text) is not one. */
export function isNameCode(c: number): boolean {
  if (c < 0x80) return ASCII_NAME[c] !== 0;
  return (
    isNameStartCode(c) ||
    c === 0xb7 ||
    (c >= 0x300 && c <= 0x36f) ||
    c === 0x203f ||
    c === 0x2040 ||
    (c >= 0xdc00 && c <= 0xdfff)
  );
}

export function isXmlName(s: string): boolean {
  if (!isNameStartCode(s.charCodeAt(0))) return false;
  for (let i = 1; i < s.length; i++) if (!isNameCode(s.charCodeAt(i))) return false;
  return true;
}

/** XML whitespace: space, tab, line feed, carriage return. */
export function isSpaceCode(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d;
}

/** A qualified name without its namespace prefix: `Root` for `p:Root`. */
export function localName(qualified: string): string {
  const colon = qualified.indexOf(':');
  return colon < 0 ? qualified : qualified.slice(colon + 1);
}

/**
 * Index just past the `>` that closes a DOCTYPE, looking from `from` (after `<!DOCTYPE`) and skipping quoted strings,
 * comments and the `[...]` internal subset; -1 when the text ends first.
 */
export function doctypeEnd(text: string, from: number): number {
  let inSubset = false;
  let i = from;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x22 || c === 0x27) {
      const close = text.indexOf(c === 0x22 ? '"' : "'", i + 1);
      if (close < 0) return -1;
      i = close + 1;
    } else if (inSubset && text.startsWith('<!--', i)) {
      const close = text.indexOf('-->', i + 4);
      if (close < 0) return -1;
      i = close + 3;
    } else if (c === 0x5b) {
      inSubset = true;
      i++;
    } else if (c === 0x5d) {
      inSubset = false;
      i++;
    } else if (c === 0x3e && !inSubset) {
      return i + 1;
    } else {
      i++;
    }
  }
  return -1;
}

/** The hint of an entity declaration's error when the caller has none of its own. */
const ENTITY_DECLARATION_HINT = 'XML documents read here never need them; remove the DOCTYPE internal subset.';

/**
 * The refusal of a DOCTYPE that declares entities: billion laughs and external entities (`file:///etc/passwd`) both
 * need one. `hint` says what the user can do, in the terms of the documents the caller reads.
 */
export function entityDeclarationError(
  source: string,
  at: { line?: number; column?: number } = {},
  hint = ENTITY_DECLARATION_HINT,
): InputError {
  return new InputError(source, 'entity_declaration', 'entity declarations are not allowed.', { ...at, hint });
}
