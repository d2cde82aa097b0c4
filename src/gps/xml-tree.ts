/**
 * GPX and TCX files as parsed XML trees. Decoding, parsing and walking go through the project's one safe XML layer
 * (`xml/decode.ts`, `xml/tree.ts`, `xml/walk.ts`); what is left here is what a route file adds: the parser options that
 * suit GPX and TCX, and errors that tell the user to export the route again.
 */
import { InputError } from '../errors.js';
import { decodeXml } from '../xml/decode.js';
import { parseXmlDocument, rootElementName } from '../xml/tree.js';
import { isNode, type XmlNode } from '../xml/walk.js';

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
