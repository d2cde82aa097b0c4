/**
 * Telling a GPS route file's format from its first bytes, without parsing it. The XML look goes through the same
 * encoding detection and prolog scanner as the full read (`xml/decode.ts`, `xml/tree.ts`), so the two agree on BOMs,
 * encodings and what counts as the root.
 */
import { decodeXmlHead } from '../xml/decode.js';
import { rootElementName } from '../xml/tree.js';
import { isFitHeader } from './fit.js';
import type { GpsFormat } from './types.js';

/** Bytes looked at for an XML root: enough for a declaration, a comment or two and a DOCTYPE, little enough to be free. */
const SNIFF_WINDOW_BYTES = 8192;

/**
 * The format of a GPS route file judged by its content, or `null` when it is none of GPX, TCX and FIT. Never looks at a
 * file name. Reads at most the first 8 KiB; a file that sniffs as GPX or TCX may still turn out broken when parsed.
 */
export function sniffGpsFormat(bytes: Uint8Array): GpsFormat | null {
  if (isFitHeader(bytes)) return 'fit';
  return xmlRootFormat(rootElementName(decodeXmlHead(bytes, SNIFF_WINDOW_BYTES))) ?? null;
}

/** The format whose root element has this local name. Names compare exactly, as XML's do: `<GPX>` is not GPX. */
export function xmlRootFormat(rootName: string | undefined): 'gpx' | 'tcx' | undefined {
  if (rootName === 'gpx') return 'gpx';
  if (rootName === 'TrainingCenterDatabase') return 'tcx';
  return undefined;
}

/**
 * Whether the content, after any BOM and whitespace, starts with `<`. Lets a large binary file be refused without
 * decoding all of it as text. Blank input counts as "may be", so that decoding reports it as empty.
 */
export function mayBeXml(bytes: Uint8Array): boolean {
  return /^[ \t\r\n]*(?:<|$)/.test(decodeXmlHead(bytes, SNIFF_WINDOW_BYTES));
}
