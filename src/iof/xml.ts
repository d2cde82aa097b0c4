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
function entityDecoder(source: string): EntityDecoderOptions {
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
                throw new InputError(
                  source,
                  'not_well_formed',
                  `the character reference ${whole} names a character XML does not allow.`,
                );
              }
              return String.fromCodePoint(cp);
            },
          )
        : text,
  };
}

function entityDeclarationError(source: string): InputError {
  return new InputError(source, 'entity_declaration', 'entity declarations are not allowed.', {
    hint: 'IOF XML never needs them; remove the DOCTYPE internal subset.',
  });
}

interface Prolog {
  /** Local name of the root element, if one was found. */
  root: string | undefined;
  /** Text of the DOCTYPE declaration, if any. */
  doctype: string | undefined;
}

/**
 * Walks the prolog (declaration, comments, processing instructions, DOCTYPE with its internal subset) up to the root
 * element's start tag. Linear, no regular expressions over the whole text.
 */
function scanProlog(text: string): Prolog {
  let doctype: string | undefined;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const n = text.length;
  while (i < n) {
    const c = text[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
      continue;
    }
    if (c !== '<') return { root: undefined, doctype };
    if (text.startsWith('<?', i)) {
      const end = text.indexOf('?>', i + 2);
      if (end < 0) return { root: undefined, doctype };
      i = end + 2;
    } else if (text.startsWith('<!--', i)) {
      const end = text.indexOf('-->', i + 4);
      if (end < 0) return { root: undefined, doctype };
      i = end + 3;
    } else if (text.startsWith('<!DOCTYPE', i)) {
      const end = doctypeEnd(text, i + 9);
      doctype = text.slice(i, end);
      i = end;
    } else {
      const m =
        /^<([A-Za-z_\u00C0-\uFFFF][\w.\-\u00B7\u00C0-\uFFFF]*(?::[A-Za-z_\u00C0-\uFFFF][\w.\-\u00B7\u00C0-\uFFFF]*)?)/.exec(
          text.slice(i, i + 512),
        );
      if (!m?.[1]) return { root: undefined, doctype };
      const name = m[1];
      const colon = name.indexOf(':');
      return { root: colon < 0 ? name : name.slice(colon + 1), doctype };
    }
  }
  return { root: undefined, doctype };
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
  return scanProlog(text).doctype?.includes('<!ENTITY') ?? false;
}

/**
 * Parses XML text into plain objects: elements by local name, attributes as `@name`, text as strings (never numbers:
 * `<Id>031</Id>` stays `'031'`), values trimmed. Throws `InputError` with reason `not_well_formed` (with line and
 * column), `entity_declaration`, `too_large` or `too_deep`.
 */
export function parseXmlDocument(text: string, source: string, options: ParseXmlOptions): Record<string, unknown> {
  if (text.length > MAX_XML_CHARS) {
    throw new InputError(
      source,
      'too_large',
      `the document has ${text.length} characters; at most ${MAX_XML_CHARS} are accepted.`,
    );
  }
  const prolog = scanProlog(text);
  // Refuse before anything expands or fetches: billion laughs and external entities (file:///etc/passwd) both need
  // a declaration, and IOF XML never has one.
  if (prolog.doctype?.includes('<!ENTITY')) throw entityDeclarationError(source);

  const check = XMLValidator.validate(text, { allowBooleanAttributes: false });
  if (check !== true) {
    const { msg, line, col } = check.err;
    throw new InputError(source, 'not_well_formed', `not well-formed XML: ${msg}`, { line, column: col });
  }
  if (prolog.root === undefined) {
    throw new InputError(source, 'not_well_formed', 'not well-formed XML: no root element found.', { line: 1 });
  }

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
    entityDecoder: entityDecoder(source),
    // Its check counts the document node too: this admits exactly MAX_XML_DEPTH nested elements.
    maxNestedTags: MAX_XML_DEPTH - 1,
    isArray: (_name, jPath, _isLeaf, isAttribute) => isAttribute !== true && userIsArray(String(jPath)),
  });

  let parsed: unknown;
  try {
    parsed = parser.parse(text);
  } catch (cause) {
    if (cause instanceof InputError) throw cause;
    const message = cause instanceof Error ? cause.message : String(cause);
    if (/nested tags/i.test(message)) {
      throw new InputError(source, 'too_deep', `elements are nested more than ${MAX_XML_DEPTH} deep.`, { cause });
    }
    throw new InputError(source, 'not_well_formed', `not well-formed XML: ${message}`, { cause });
  }
  if (typeof parsed !== 'object' || parsed === null) {
    throw new InputError(source, 'not_well_formed', 'not well-formed XML: no root element found.');
  }
  const doc = parsed as Record<string, unknown>;
  // fast-xml-parser's validator accepts several top-level elements and text after the root; XML does not.
  const topLevel = Object.keys(doc).filter((k) => !k.startsWith('?'));
  if (topLevel.length !== 1 || topLevel[0] === TEXT || Array.isArray(doc[topLevel[0] ?? ''])) {
    throw new InputError(source, 'not_well_formed', 'not well-formed XML: content outside the single root element.');
  }
  return doc;
}
