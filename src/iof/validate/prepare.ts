/**
 * What happens to a document before libxml2 sees it: its IOF version read from the root, its bytes made readable to
 * libxml2 in WebAssembly (which has no windows-1252), and the refusals that keep hostile or oversized documents away
 * from it. Nothing here runs xmllint, so a refused document costs no batch.
 */
import { InputError, type Issue } from '../../errors.js';
import { decodeXml } from '../../xml/decode.js';
import { MAX_XML_CHARS, checkXmlLimits, scanXmlProlog } from '../../xml/tree.js';
import { IOF3_NAMESPACE } from '../identify.js';
import { noDtdIssue } from './failures.js';
import type { DocumentIofVersion, IofValidationResult, XmlDocumentInput } from './types.js';

export type Prepared =
  { version: DocumentIofVersion; bytes: Uint8Array; found: Issue[] } | { result: IofValidationResult };

/**
 * A document as libxml2 will be handed it (UTF-8 or UTF-16, with what was found on the way), or its result already when
 * it is refused or cannot be checked.
 */
export function prepareDocument(doc: XmlDocumentInput, dtdAvailable: boolean): Prepared {
  const refused = (issue: Issue, version: DocumentIofVersion = 'unknown'): Prepared => ({
    result: { name: doc.name, valid: false, version, checked: 'not-checked', errors: [issue] },
  });
  if (doc.bytes.byteLength > MAX_XML_CHARS) {
    return refused({
      code: 'too_large',
      message: `the document has ${doc.bytes.byteLength} bytes; at most ${MAX_XML_CHARS} are validated.`,
    });
  }
  let decoded;
  try {
    decoded = decodeXml(doc.bytes, doc.name);
  } catch (e) {
    if (e instanceof InputError) return refused(issueFromInputError(e));
    throw e;
  }
  const prolog = scanXmlProlog(decoded.text);
  const version = iofVersionOf(decoded.text, prolog);
  try {
    // libxml2 refuses the same text lengths, but reports each of thousands of attributes slowly.
    checkXmlLimits(decoded.text, doc.name);
  } catch (e) {
    if (e instanceof InputError) return refused(issueFromInputError(e), version);
    throw e;
  }
  if (prolog.entityAt !== undefined) {
    return refused(
      {
        line: lineAt(decoded.text, prolog.entityAt),
        code: 'entity_declaration',
        message: 'entity declarations are not allowed (IOF XML never needs them); the document was not validated.',
      },
      version,
    );
  }
  if (version === '2.0.3' && !dtdAvailable) {
    return {
      result: { name: doc.name, valid: null, version, checked: 'not-checked', errors: [noDtdIssue()] },
    };
  }
  const found = version === '2.0.3' ? undeclaredNamespaceDeclaration(decoded.text) : [];
  if (decoded.encoding === 'utf-8' || decoded.encoding === 'utf-16le' || decoded.encoding === 'utf-16be') {
    return { version, bytes: doc.bytes, found };
  }
  // libxml2 in WebAssembly is built without iconv: it reads UTF-8, UTF-16 and Latin-1 but not windows-1252. Hand it
  // UTF-8 and say so in the declaration; only the declaration's text changes, so line numbers stay the same.
  const text = decoded.text.replace(/^(\s*<\?xml\s[^?]*?\bencoding\s*=\s*)(["'])[^"']*\2/, '$1$2UTF-8$2');
  return { version, bytes: new TextEncoder().encode(text), found };
}

/**
 * A DTD must declare `xmlns` attributes like any other (the IOF 2.0.3 DTD declares none); a schema cannot see them,
 * so the translated DTD would pass them. Found by text: a namespace declaration written in character data would be
 * blamed too, which no IOF 2.0.3 file does.
 */
function undeclaredNamespaceDeclaration(text: string): Issue[] {
  const m = /\sxmlns(?::[A-Za-z_][\w.-]*)?\s*=\s*["']/.exec(text);
  if (!m) return [];
  const name = m[0].trim().replace(/\s*=.*$/, '');
  return [
    {
      line: lineAt(text, m.index + 1),
      code: 'schema',
      message: `Attribute '${name}': the IOF 2.0.3 DTD declares no namespace declarations, so it is not allowed.`,
    },
  ];
}

/**
 * The IOF version a document claims, from its prolog and root start tag only: the IOF 3.0 namespace on the root or an
 * `iofVersion` of 3.x means 3.0; otherwise a DOCTYPE naming `IOFdata.dtd` or an `IOFVersion` first child means 2.0.3.
 */
export function iofVersionOf(text: string, prolog = scanXmlProlog(text)): DocumentIofVersion {
  if (prolog.rootAt === undefined) return 'unknown';
  const tag = startTag(text, prolog.rootAt);
  const qname = /^<([^\s/>]+)/.exec(tag)?.[1] ?? '';
  const prefix = qname.includes(':') ? qname.slice(0, qname.indexOf(':')) : undefined;
  const attributes = attributesOf(tag, qname.length + 1);
  const namespace = attributes.get(prefix === undefined ? 'xmlns' : `xmlns:${prefix}`);
  if (namespace === IOF3_NAMESPACE) return '3.0';
  if (attributes.get('iofVersion')?.trim().startsWith('3')) return '3.0';
  const doctype =
    prolog.doctype && text.slice(prolog.doctype.start, Math.min(prolog.doctype.end, prolog.doctype.start + 4096));
  if (doctype !== undefined && /^<!DOCTYPE\s+[^\s[>]+\s+(?:SYSTEM|PUBLIC)\s[^[>]*IOFdata\.dtd/i.test(doctype)) {
    return '2.0.3';
  }
  const afterRoot = text.slice(prolog.rootAt + tag.length, prolog.rootAt + tag.length + 4096);
  if (/^(?:\s|<!--(?:[^-]|-(?!->))*-->)*<(?:[^\s/>:]+:)?IOFVersion[\s/>]/.test(afterRoot)) return '2.0.3';
  return 'unknown';
}

/**
 * The attributes of a start tag, read from `from` (just after the name) in one pass; stops at the first thing that is
 * not `name = "value"`. (A regular expression here backtracks quadratically over a long unterminated value.)
 */
function attributesOf(tag: string, from: number): Map<string, string> {
  const attributes = new Map<string, string>();
  const isSpace = (c: string | undefined): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\r';
  let i = from;
  for (;;) {
    while (isSpace(tag[i])) i++;
    const nameStart = i;
    while (i < tag.length && !isSpace(tag[i]) && !'=/>"\''.includes(tag[i] ?? '')) i++;
    if (i === nameStart) return attributes;
    const name = tag.slice(nameStart, i);
    while (isSpace(tag[i])) i++;
    if (tag[i] !== '=') return attributes;
    i++;
    while (isSpace(tag[i])) i++;
    const quote = tag[i];
    if (quote !== '"' && quote !== "'") return attributes;
    const close = tag.indexOf(quote, i + 1);
    if (close < 0) return attributes;
    attributes.set(name, tag.slice(i + 1, close));
    i = close + 1;
  }
}

/** The start tag at `at` up to its closing `>`, quotes respected; at most 64 KiB. */
function startTag(text: string, at: number): string {
  const limit = Math.min(text.length, at + 65536);
  let quote: string | undefined;
  for (let i = at + 1; i < limit; i++) {
    const c = text[i];
    if (quote !== undefined) {
      if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === '>') {
      return text.slice(at, i + 1);
    }
  }
  return text.slice(at, limit);
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

function issueFromInputError(e: InputError): Issue {
  // An Issue carries the line separately: the message without the place InputError's message starts with.
  const message = `${e.detail}${e.hint ? ` ${e.hint.text}` : ''}`;
  return {
    ...(e.line === undefined ? {} : { line: e.line }),
    ...(e.column === undefined ? {} : { column: e.column }),
    code: e.reason,
    message,
  };
}
