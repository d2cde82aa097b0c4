/**
 * The one XML parsing setup of the project. fast-xml-parser is fast and dependency-light but lenient and, left to its
 * defaults, expands DOCTYPE entities and leaves `&#229;` undecoded (5.7+), so every XML reader goes through here:
 * well-formedness first, no entity declarations at all, only the five XML entities and character references decoded,
 * size and depth capped.
 */
import { XMLParser, XMLValidator, type EntityDecoderOptions } from 'fast-xml-parser';
import { InputError } from '../errors.js';
import {
  FORBIDDEN_CHAR,
  MAX_XML_DEPTH,
  XML_ENTITIES,
  codePointLabel,
  doctypeEnd,
  entityDeclarationError,
  isXmlChar,
  localName,
} from './syntax.js';

/** Largest document accepted, in characters (about bytes for the single-byte and UTF-8 files we see). */
export const MAX_XML_CHARS = 64 * 1024 * 1024;
/**
 * Longest tag accepted, in characters from `<` to `>`. The tags of the documents read here are under 1 KiB even with
 * every namespace declared; a longer one holds a huge attribute value, thousands of attributes or a huge name, each of
 * which costs the parsers time out of proportion (libxml2 reports every undeclared attribute, at about 45 us each).
 */
export const MAX_XML_TAG_CHARS = 64 * 1024;
/**
 * Longest text node, comment, CDATA section or processing instruction accepted, in characters: libxml2's own limit
 * without its "huge" option, so the readers and the validator refuse the same documents. (An embedded base64 image is
 * the only honest large text.)
 */
export const MAX_XML_TEXT_CHARS = 10_000_000;
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
   * Whether whitespace may come before the XML declaration. It makes a document not well-formed, but some exporters
   * write it. Lines and columns in errors still count from the start of `text`. Default `false`.
   */
  allowSpaceBeforeDeclaration?: boolean;
  /** What the user can do about a document that is not well-formed, appended to that error's message. Default: none. */
  notWellFormedHint?: string;
  /** What the user can do about a DOCTYPE declaring entities, that error's hint. Default: a generic one. */
  entityDeclarationHint?: string;
}

/**
 * Our entity decoder for fast-xml-parser: the five predefined entities and numeric character references, in one pass
 * (so `&amp;lt;` stays `&lt;`). Anything else stays literal: entity declarations are refused before parsing, and this
 * decoder would refuse them again if one slipped through (a DOCTYPE inside the root, say).
 */
function entityDecoder(
  source: string,
  notWellFormed: (message: string) => InputError,
  entityHint: string | undefined,
): EntityDecoderOptions {
  return {
    setExternalEntities: () => undefined,
    addInputEntities: (entities) => {
      if (Object.keys(entities).length > 0) throw entityDeclarationError(source, {}, entityHint);
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

/** What comes before the root element, as `scanXmlProlog` finds it. */
export interface XmlProlog {
  /** Local name of the root element, if one was found. */
  root: string | undefined;
  /** Offset in the text of the first `<!ENTITY` inside a DOCTYPE declaration, if any. */
  entityAt: number | undefined;
  /** Offset of the `<` that opens the root element's start tag, when `root` was found. */
  rootAt?: number;
  /** The DOCTYPE declaration from `<!DOCTYPE` to its closing `>` (internal subset included), if there is one. */
  doctype?: { start: number; end: number };
}
type Prolog = XmlProlog;

/** A 1-based position for an `InputError`; empty when unknown. */
type TextPosition = { line?: number; column?: number };

/**
 * Walks the prolog (declaration, comments, processing instructions, DOCTYPE with its internal subset) up to the root
 * element's start tag. Linear, no regular expressions over the whole text.
 */
function scanProlog(text: string): Prolog {
  let entityAt: number | undefined;
  let doctype: XmlProlog['doctype'];
  const found = (root?: string, rootAt?: number): Prolog => ({
    root,
    entityAt,
    ...(rootAt === undefined ? {} : { rootAt }),
    ...(doctype === undefined ? {} : { doctype }),
  });
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const n = text.length;
  while (i < n) {
    const c = text[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
      continue;
    }
    if (c !== '<') return found();
    if (text.startsWith('<?', i)) {
      const end = text.indexOf('?>', i + 2);
      if (end < 0) return found();
      i = end + 2;
    } else if (text.startsWith('<!--', i)) {
      const end = text.indexOf('-->', i + 4);
      if (end < 0) return found();
      i = end + 3;
    } else if (text.startsWith('<!DOCTYPE', i)) {
      const closed = doctypeEnd(text, i + 9);
      const end = closed < 0 ? text.length : closed;
      const entity = text.slice(i, end).indexOf('<!ENTITY');
      if (entity >= 0) entityAt ??= i + entity;
      doctype ??= { start: i, end };
      i = end;
    } else {
      const m =
        /^<([A-Za-z_\u00C0-\uFFFF][\w.\-\u00B7\u00C0-\uFFFF]*(?::[A-Za-z_\u00C0-\uFFFF][\w.\-\u00B7\u00C0-\uFFFF]*)?)/.exec(
          text.slice(i, i + 512),
        );
      if (!m?.[1]) return found();
      return found(localName(m[1]), i);
    }
  }
  return found();
}

/**
 * Walks the prolog (declaration, comments, processing instructions, DOCTYPE) up to the root element's start tag and
 * says what it found; never throws. Linear in the prolog's length.
 */
export function scanXmlProlog(text: string): XmlProlog {
  return scanProlog(text);
}

/** Local name of the root element (`Root` for `<p:Root>`), skipping declaration, comments, PIs and DOCTYPE. */
export function rootElementName(text: string): string | undefined {
  return scanProlog(text).root;
}

/**
 * Refuses, in one linear pass before any parsing, a tag longer than `MAX_XML_TAG_CHARS` or a text node (comment, CDATA
 * section) longer than `MAX_XML_TEXT_CHARS`: both make the parsers slow out of proportion to what real documents need.
 * Throws `InputError` `too_large` with the line and column where the long tag or text starts.
 *
 * A raw `<` cannot occur inside a tag (attribute values escape it), so a tag ends before the next `<`; only a stretch
 * between two `<` longer than a tag may be is looked at closely.
 */
export function checkXmlLimits(text: string, source: string): void {
  let from = 0;
  for (;;) {
    const next = text.indexOf('<', from + 1);
    const end = next < 0 ? text.length : next;
    if (end - from > MAX_XML_TAG_CHARS) checkStretch(text, from, end, source);
    if (next < 0) return;
    from = next;
  }
}

/** The stretch `[from, end)` holds no `<` after its first character: one tag and the text after it, or just text. */
function checkStretch(text: string, from: number, end: number, source: string): void {
  let textStart = from;
  const c = text.charCodeAt(from + 1);
  const isTag = text.charCodeAt(from) === 0x3c && c !== 0x21 && c !== 0x3f; // '<' not followed by '!' or '?'
  if (isTag) {
    let quote = 0;
    let i = from + 1;
    for (; i < end; i++) {
      const ch = text.charCodeAt(i);
      if (quote !== 0) {
        if (ch === quote) quote = 0;
      } else if (ch === 0x22 || ch === 0x27) {
        quote = ch;
      } else if (ch === 0x3e) {
        break;
      }
    }
    if (i - from + 1 > MAX_XML_TAG_CHARS) {
      throw new InputError(
        source,
        'too_large',
        `a tag of ${i - from + 1} characters (at most ${MAX_XML_TAG_CHARS} are accepted): a huge attribute value, very many attributes or a huge name.`,
        positionOf(text, from),
      );
    }
    textStart = i + 1;
  }
  if (end - textStart > MAX_XML_TEXT_CHARS) {
    throw new InputError(
      source,
      'too_large',
      `a text of ${end - textStart} characters without markup (at most ${MAX_XML_TEXT_CHARS} are accepted).`,
      positionOf(text, textStart),
    );
  }
}

/**
 * What fast-xml-parser's validator lets through but XML forbids and libxml2 refuses: `--` inside a comment, and an XML
 * declaration anywhere but at the start. CDATA sections are skipped. Linear: one `indexOf` per `<`.
 */
function misplacedMarkup(text: string): { offset: number; message: string } | undefined {
  const declarationAllowedAt = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (let i = text.indexOf('<'); i >= 0; i = text.indexOf('<', i + 1)) {
    const c = text.charCodeAt(i + 1);
    if (c === 0x21 && text.startsWith('<![CDATA[', i)) {
      const end = text.indexOf(']]>', i + 9);
      if (end < 0) return undefined;
      i = end + 2;
    } else if (c === 0x21 && text.startsWith('<!--', i)) {
      const end = text.indexOf('-->', i + 4);
      if (end < 0) return undefined;
      const dashes = text.indexOf('--', i + 4);
      if (dashes < end) return { offset: dashes, message: "'--' is not allowed inside a comment." };
      i = end + 2;
    } else if (c === 0x3f && i !== declarationAllowedAt && /^<\?xml[\s?]/i.test(text.slice(i, i + 6))) {
      return { offset: i, message: 'an XML declaration is allowed only at the start of the document.' };
    }
  }
  return undefined;
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
  // a declaration, and the documents read here never have one.
  if (prolog.entityAt !== undefined) {
    throw entityDeclarationError(source, positionOf(text, start + prolog.entityAt), options.entityDeclarationHint);
  }

  checkXmlLimits(text, source);
  // fast-xml-parser lets a raw NUL or other C0 control through into values; libxml2 refuses the document.
  const forbidden = FORBIDDEN_CHAR.exec(text);
  if (forbidden) {
    throw notWellFormed(
      `not well-formed XML: the character ${codePointLabel(forbidden[0])} is not allowed in XML.`,
      positionOf(text, forbidden.index),
    );
  }

  const misplaced = misplacedMarkup(body);
  if (misplaced)
    throw notWellFormed(`not well-formed XML: ${misplaced.message}`, positionOf(text, start + misplaced.offset));

  const check = XMLValidator.validate(body, { allowBooleanAttributes: false });
  if (check !== true) {
    const { msg, line, col } = check.err;
    // With several elements left open at the end, fast-xml-parser names them as a JSON array at line 1.
    const open = /^Invalid '\[(.*)\]' found\.$/.exec(msg);
    if (open) {
      const names = [...(open[1] ?? '').matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]);
      throw notWellFormed(
        `not well-formed XML: the document ends before these elements are closed: ${names.join(', ')}.`,
        positionOf(text, text.length),
      );
    }
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
    entityDecoder: entityDecoder(source, (message) => notWellFormed(message), options.entityDeclarationHint),
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
