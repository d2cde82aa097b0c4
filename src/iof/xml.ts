/**
 * The one XML parsing setup of the project. fast-xml-parser is fast and dependency-light but lenient and, left to its
 * defaults, expands DOCTYPE entities and leaves `&#229;` undecoded (5.7+), so every XML reader goes through here:
 * well-formedness first, no entity declarations at all, only the five XML entities and character references decoded,
 * size and depth capped.
 */
import { XMLParser, XMLValidator, type EntityDecoderOptions } from 'fast-xml-parser';
import { InputError } from '../errors.js';

/** Largest document accepted, in characters (about bytes for the single-byte and UTF-8 files we see). */
export const MAX_XML_CHARS = 64 * 1024 * 1024;
/** Deepest element nesting accepted. IOF XML needs about 10; the cap keeps hostile input from exhausting the stack. */
export const MAX_XML_DEPTH = 256;
/** Prefix of attribute keys in parsed objects: `<Position lat="1"/>` becomes `{ '@lat': '1' }`. */
export const ATTR = '@';
/** Key of the text of an element that also has attributes: `<Id type="x">1</Id>` becomes `{ '#text': '1', '@type': 'x' }`. */
export const TEXT = '#text';

export interface ParseXmlOptions {
  /**
   * Whether the element at `path` is a list, so that one occurrence still parses as an array. `path` is the dotted
   * chain of local names from the root, for example `CourseData.RaceCourseData.Control`. Never called for attributes.
   */
  isArray: (path: string) => boolean;
  /**
   * Elements whose content is kept as raw text instead of being parsed, as fast-xml-parser patterns such as
   * `*.extensions`. Skipping content nothing reads saves time. Default: none.
   */
  stopNodes?: readonly string[];
  /**
   * Whether whitespace may come before the XML declaration. It makes a document not well-formed, but some TCX
   * exporters write it. Lines and columns in errors still count from the start of `text`. Default `false`.
   */
  allowSpaceBeforeDeclaration?: boolean;
  /** What the user can do about a document that is not well-formed, appended to that error's message. Default: none. */
  notWellFormedHint?: string;
}

const XML_ENTITIES: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** XML 1.0 `Char`: what a character reference may name. */
function isXmlChar(cp: number): boolean {
  return (
    cp === 0x9 ||
    cp === 0xa ||
    cp === 0xd ||
    (cp >= 0x20 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0xfffd) ||
    (cp >= 0x10000 && cp <= 0x10ffff)
  );
}

/**
 * Our entity decoder for fast-xml-parser: the five predefined entities and numeric character references, in one pass
 * (so `&amp;lt;` stays `&lt;`). Anything else stays literal: entity declarations are refused before parsing, and this
 * decoder would refuse them again if one slipped through (a DOCTYPE inside the root, say).
 */
function entityDecoder(source: string, notWellFormed: (message: string) => InputError): EntityDecoderOptions {
  return {
    setExternalEntities: () => undefined,
    addInputEntities: (entities) => {
      if (Object.keys(entities).length > 0) throw entityDeclarationError(source);
    },
    reset: () => undefined,
    setXmlVersion: () => undefined,
    decode: (text) =>
      text.includes('&')
        ? text.replace(
            /&(?:#x([0-9a-fA-F]{1,6})|#([0-9]{1,7})|(lt|gt|amp|quot|apos));/g,
            (whole, hex?: string, dec?: string, name?: string) => {
              if (name !== undefined) return XML_ENTITIES[name] ?? whole;
              const cp = hex !== undefined ? parseInt(hex, 16) : parseInt(dec ?? '', 10);
              if (!isXmlChar(cp)) {
                throw notWellFormed(`the character reference ${whole} names a character XML does not allow.`);
              }
              return String.fromCodePoint(cp);
            },
          )
        : text,
  };
}

function entityDeclarationError(source: string, at: TextPosition = {}): InputError {
  return new InputError(source, 'entity_declaration', 'entity declarations are not allowed.', {
    ...at,
    hint: 'IOF XML never needs them; remove the DOCTYPE internal subset.',
  });
}

interface Prolog {
  /** Local name of the root element, if one was found. */
  root: string | undefined;
  /** Offset in the text of the first `<!ENTITY` inside a DOCTYPE declaration, if any. */
  entityAt: number | undefined;
}

/** A 1-based position for an `InputError`; empty when unknown. */
type TextPosition = { line?: number; column?: number };

/**
 * Walks the prolog (declaration, comments, processing instructions, DOCTYPE with its internal subset) up to the root
 * element's start tag. Linear, no regular expressions over the whole text.
 */
function scanProlog(text: string): Prolog {
  let entityAt: number | undefined;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const n = text.length;
  while (i < n) {
    const c = text[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
      continue;
    }
    if (c !== '<') return { root: undefined, entityAt };
    if (text.startsWith('<?', i)) {
      const end = text.indexOf('?>', i + 2);
      if (end < 0) return { root: undefined, entityAt };
      i = end + 2;
    } else if (text.startsWith('<!--', i)) {
      const end = text.indexOf('-->', i + 4);
      if (end < 0) return { root: undefined, entityAt };
      i = end + 3;
    } else if (text.startsWith('<!DOCTYPE', i)) {
      const end = doctypeEnd(text, i + 9);
      const entity = text.slice(i, end).indexOf('<!ENTITY');
      if (entity >= 0) entityAt ??= i + entity;
      i = end;
    } else {
      const m =
        /^<([A-Za-z_\u00C0-\uFFFF][\w.\-\u00B7\u00C0-\uFFFF]*(?::[A-Za-z_\u00C0-\uFFFF][\w.\-\u00B7\u00C0-\uFFFF]*)?)/.exec(
          text.slice(i, i + 512),
        );
      if (!m?.[1]) return { root: undefined, entityAt };
      const name = m[1];
      const colon = name.indexOf(':');
      return { root: colon < 0 ? name : name.slice(colon + 1), entityAt };
    }
  }
  return { root: undefined, entityAt };
}

/** Index just past the `>` that closes a DOCTYPE, skipping quoted strings, comments and the `[...]` internal subset. */
function doctypeEnd(text: string, from: number): number {
  let inSubset = false;
  let i = from;
  while (i < text.length) {
    const c = text[i];
    if (c === '"' || c === "'") {
      const close = text.indexOf(c, i + 1);
      if (close < 0) return text.length;
      i = close + 1;
    } else if (inSubset && text.startsWith('<!--', i)) {
      const close = text.indexOf('-->', i + 4);
      if (close < 0) return text.length;
      i = close + 3;
    } else if (c === '[') {
      inSubset = true;
      i++;
    } else if (c === ']') {
      inSubset = false;
      i++;
    } else if (c === '>' && !inSubset) {
      return i + 1;
    } else {
      i++;
    }
  }
  return text.length;
}

/** Local name of the root element (`CourseData` for `<iof:CourseData>`), skipping declaration, comments, PIs and DOCTYPE. */
export function rootElementName(text: string): string | undefined {
  return scanProlog(text).root;
}

/** Whether the DOCTYPE declares entities: refused everywhere, since IOF XML never needs them and attacks do. */
export function declaresEntities(text: string): boolean {
  return scanProlog(text).entityAt !== undefined;
}

/** 1-based line and column of a character offset in `text`; lines end at `\n`, as the validator counts them. */
function positionOf(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

/** Offset of the first character that is not XML whitespace. */
function xmlSpaceEnd(text: string): number {
  let i = 0;
  while (i < text.length && ' \t\r\n'.includes(text.charAt(i))) i++;
  return i;
}

/**
 * Parses XML text into plain objects: elements by local name, attributes as `@name`, text as strings (never numbers:
 * `<Id>031</Id>` stays `'031'`), values trimmed. Throws `InputError` with reason `not_well_formed` (with line and
 * column), `entity_declaration` (with line and column of the declaration), `too_large` or `too_deep`.
 */
export function parseXmlDocument(text: string, source: string, options: ParseXmlOptions): Record<string, unknown> {
  if (text.length > MAX_XML_CHARS) {
    throw new InputError(
      source,
      'too_large',
      `the document has ${text.length} characters; at most ${MAX_XML_CHARS} are accepted.`,
    );
  }
  // Leading whitespace is cut off rather than shown to the validator, which refuses it before a declaration; positions
  // found in the rest are moved back to where they are in `text`.
  const start = options.allowSpaceBeforeDeclaration === true ? xmlSpaceEnd(text) : 0;
  const body = start === 0 ? text : text.slice(start);
  const bodyStart = positionOf(text, start);
  const inText = (line: number, column?: number): TextPosition => {
    const at: TextPosition = { line: line + bodyStart.line - 1 };
    if (column !== undefined) at.column = line === 1 ? column + bodyStart.column - 1 : column;
    return at;
  };
  const hint = options.notWellFormedHint;
  const notWellFormed = (message: string, at: TextPosition = {}, cause?: unknown): InputError =>
    new InputError(source, 'not_well_formed', message, {
      ...at,
      ...(hint === undefined ? {} : { hint }),
      ...(cause === undefined ? {} : { cause }),
    });

  const prolog = scanProlog(body);
  // Refuse before anything expands or fetches: billion laughs and external entities (file:///etc/passwd) both need
  // a declaration, and IOF XML never has one.
  if (prolog.entityAt !== undefined) throw entityDeclarationError(source, positionOf(text, start + prolog.entityAt));

  const check = XMLValidator.validate(body, { allowBooleanAttributes: false });
  if (check !== true) {
    const { msg, line, col } = check.err;
    throw notWellFormed(`not well-formed XML: ${msg}`, inText(line, col));
  }
  if (prolog.root === undefined) throw notWellFormed('not well-formed XML: no root element found.', inText(1));

  const userIsArray = options.isArray;
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: ATTR,
    textNodeName: TEXT,
    removeNSPrefix: true,
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: true,
    processEntities: true,
    entityDecoder: entityDecoder(source, (message) => notWellFormed(message)),
    // Its check counts the document node too: this admits exactly MAX_XML_DEPTH nested elements.
    maxNestedTags: MAX_XML_DEPTH - 1,
    isArray: (_name, jPath, _isLeaf, isAttribute) => isAttribute !== true && userIsArray(String(jPath)),
    stopNodes: [...(options.stopNodes ?? [])],
  });

  let parsed: unknown;
  try {
    parsed = parser.parse(body);
  } catch (cause) {
    if (cause instanceof InputError) throw cause;
    const message = cause instanceof Error ? cause.message : String(cause);
    if (/nested tags/i.test(message)) {
      throw new InputError(source, 'too_deep', `elements are nested more than ${MAX_XML_DEPTH} deep.`, { cause });
    }
    throw notWellFormed(`not well-formed XML: ${message}`, {}, cause);
  }
  if (typeof parsed !== 'object' || parsed === null) throw notWellFormed('not well-formed XML: no root element found.');
  const doc = parsed as Record<string, unknown>;
  // fast-xml-parser's validator accepts several top-level elements and text after the root; XML does not.
  const topLevel = Object.keys(doc).filter((k) => !k.startsWith('?'));
  if (topLevel.length !== 1 || topLevel[0] === TEXT || Array.isArray(doc[topLevel[0] ?? ''])) {
    throw notWellFormed('not well-formed XML: content outside the single root element.');
  }
  return doc;
}
