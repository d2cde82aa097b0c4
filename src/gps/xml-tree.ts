/**
 * GPX and TCX files as parsed XML trees. Decoding and parsing go through the project's one safe XML layer
 * (`iof/read.ts`, `iof/xml.ts`); what is left here is walking the tree, where a missing element is absent and a single
 * element is a list of one.
 */
import { InputError } from '../errors.js';
import { decodeXml } from '../iof/read.js';
import { ATTR, TEXT, parseXmlDocument, rootElementName } from '../iof/xml.js';

/** A parsed element: child elements by local name, attributes as `@name`, text as `#text` (or the element is text). */
export type XmlNode = Record<string, unknown>;

export interface XmlTree {
  /** Local name (prefix removed) of the root element. */
  rootName: string;
  /** The root element's content. */
  root: XmlNode;
}

const EXPORT_AGAIN = 'Export the route again from the watch or training app';

/**
 * Decodes and parses an XML route file; the caller judges whether its root is GPX or TCX. Throws `InputError` with
 * reason `empty`, `bad_encoding`, `unsupported_encoding`, `not_well_formed` (also for entity declarations) or
 * `too_large` (nested too deeply).
 */
export function parseXmlTree(bytes: Uint8Array, source: string): XmlTree {
  const { text } = decodeXml(bytes, source);
  if (/^[ \t\r\n]*$/.test(text)) {
    throw new InputError(source, 'empty', 'the file holds nothing but whitespace.', {
      hint: `${EXPORT_AGAIN} and choose that file.`,
    });
  }
  let doc: XmlNode;
  try {
    doc = parseXmlDocument(text, source, {
      // `childrenOf` makes the lists: GPX and TCX have few enough elements that a path list would be noise.
      isArray: () => false,
      // Nothing is read from extensions, and leaving them unparsed halves the time a Garmin file takes.
      stopNodes: ['*.extensions', '*.Extensions'],
      allowSpaceBeforeDeclaration: true,
      notWellFormedHint: `${EXPORT_AGAIN}; an edited or partly copied file is often damaged.`,
    });
  } catch (error) {
    throw error instanceof InputError ? inRouteTerms(error, source) : error;
  }
  const rootName = rootElementName(text) ?? '';
  const root = doc[rootName];
  return { rootName, root: isNode(root) ? root : {} };
}

/**
 * The XML layer's refusals in the reasons `parseTrack` documents: a DOCTYPE declaring entities makes a broken route
 * file, and nesting too deep for the parser an oversized one.
 */
function inRouteTerms(error: InputError, source: string): InputError {
  const at = {
    ...(error.line === undefined ? {} : { line: error.line }),
    ...(error.column === undefined ? {} : { column: error.column }),
  };
  switch (error.reason) {
    case 'entity_declaration':
      return new InputError(source, 'not_well_formed', 'entity declarations are not allowed.', {
        ...at,
        cause: error,
        hint: 'GPS route files never need them; remove the DOCTYPE or export the file again.',
      });
    case 'too_deep':
      return new InputError(source, 'too_large', 'the XML is nested too deeply to be a GPS route file.', {
        cause: error,
        hint: `${EXPORT_AGAIN}.`,
      });
    default:
      return error;
  }
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

/** The text of the first child element of that name. */
export function childText(node: unknown, name: string): string | undefined {
  return xmlText(childrenOf(node, name)[0]);
}

export function attribute(node: unknown, name: string): string | undefined {
  if (!isNode(node)) return undefined;
  const value = node[`${ATTR}${name}`];
  return typeof value === 'string' ? value : undefined;
}

/** Text content of a parsed element: the element itself when it only holds text, `#text` when it also has attributes. */
export function xmlText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (isNode(value) && typeof value[TEXT] === 'string') return value[TEXT];
  return undefined;
}

/** A decimal number written as XML text; empty or non-numeric text is "absent", not zero. */
export function xmlNumber(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const trimmed = text.trim();
  if (trimmed === '' || !/^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/.test(trimmed)) return undefined;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : undefined;
}
