/**
 * GPX and TCX files read as a stream of tags: bytes go through the project's XML stream layer (`xml/stream.ts`, 64 KiB
 * at a time, checked for well-formedness as they go) to the format's collector (`gpx.ts`, `tcx.ts`), which keeps only
 * the points. Never a tree: a 10^6-point GPX (about 100 MB) would take a gigabyte as one. What is left here is what a
 * route file adds to the XML layer: the leniency real route files need, choosing the collector by the root element, and
 * errors that tell the user to export the route again.
 */
import { InputError } from '../errors.js';
import { streamXml, tokenizeXml } from '../xml/stream.js';
import { parseAttributes, type XmlHandler, type XmlTokenizer } from '../xml/tokenizer.js';
import { GpxCollector } from './gpx.js';
import { xmlRootFormat } from './sniff.js';
import { TcxCollector } from './tcx.js';
import type { Track } from './types.js';

const EXPORT_AGAIN = 'Export the route again from the watch or training app';

/** What a format's collector does: take the document's tags, then give the track or say why there is none. */
export interface RouteCollector extends XmlHandler {
  result(): Track;
}

/** An XML route file's content: the track, or the root element's name when it is neither GPX nor TCX. */
export type XmlRoute = { track: Track } | { track: undefined; rootName: string };

/** What real route files need beyond strict XML. */
const ROUTE_XML = {
  // Route files come from many small apps and were read for years by a lenient parser (fast-xml-parser): a stray
  // `&` in a track name, or `xsi:` used without its declaration, does not make the recorded points wrong.
  tokenizer: { literalUnknownReferences: true, checkNamespacePrefixes: false, allowSpaceBeforeDeclaration: true },
};

/**
 * Reads an XML route file in one pass. A document whose root is not GPX or TCX is still read to its end, so that a
 * damaged file is reported as damaged (with its line) rather than as "not a GPS file". Throws `InputError` with reason
 * `empty`, `bad_encoding`, `unsupported_encoding`, `not_well_formed` (also for entity declarations), `too_large`
 * (nested too deeply, or a tag of over 1 MiB) or `no_track_points`.
 */
export function readXmlRoute(bytes: Uint8Array, source: string, maxBytes: number): XmlRoute {
  const reading = new RouteReading(source);
  try {
    tokenizeXml(bytes, reading.makeHandler, { source, maxBytes, ...ROUTE_XML });
  } catch (error) {
    throw error instanceof InputError ? inRouteTerms(error, source) : error;
  }
  return reading.result();
}

/**
 * `readXmlRoute` for bytes arriving in chunks (a file read 64 KiB at a time), so that the file is never whole in
 * memory. Throws as `readXmlRoute` does, and what the chunks' source throws (the signal's reason when it aborts).
 */
export async function streamXmlRoute(
  chunks: AsyncIterable<Uint8Array>,
  source: string,
  maxBytes: number,
  signal?: AbortSignal,
): Promise<XmlRoute> {
  const reading = new RouteReading(source);
  try {
    await streamXml(chunks, reading.makeHandler, { source, maxBytes, ...ROUTE_XML, ...(signal ? { signal } : {}) });
  } catch (error) {
    throw error instanceof InputError ? inRouteTerms(error, source) : error;
  }
  return reading.result();
}

/** One document's reading: the collector chosen by the root element, fed every later tag. */
class RouteReading {
  private collector: RouteCollector | undefined;
  private rootName: string | undefined;

  constructor(private readonly source: string) {}

  readonly makeHandler = (tokenizer: XmlTokenizer): XmlHandler => ({
    startElement: (name, attributes, qualified) => {
      if (this.rootName === undefined) {
        this.rootName = name;
        const format = xmlRootFormat(name);
        if (format === 'gpx') this.collector = new GpxCollector(tokenizer, this.source, parseAttributes(attributes));
        else if (format === 'tcx') this.collector = new TcxCollector(tokenizer, this.source);
        return;
      }
      this.collector?.startElement(name, attributes, qualified);
    },
    endElement: (name) => {
      this.collector?.endElement(name);
    },
    text: (text) => {
      this.collector?.text(text);
    },
  });

  result(): XmlRoute {
    return this.collector ? { track: this.collector.result() } : { track: undefined, rootName: this.rootName ?? '' };
  }
}

/**
 * The XML layer's refusals in the reasons `parseTrack` documents: a DOCTYPE declaring entities makes a broken route
 * file, and nesting too deep for the parser an oversized one; each says what the user can do.
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
    case 'empty':
      return new InputError(source, 'empty', 'the file holds nothing but whitespace.', {
        cause: error,
        hint: `${EXPORT_AGAIN} and choose that file.`,
      });
    case 'not_well_formed':
      return error.hint !== undefined
        ? error
        : new InputError(source, 'not_well_formed', error.detail, {
            ...at,
            cause: error,
            hint: `${EXPORT_AGAIN}; an edited or partly copied file is often damaged.`,
          });
    default:
      return error;
  }
}
