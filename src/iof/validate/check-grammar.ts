/**
 * Whether some bytes are the IOF's grammar file they claim to be, before they are kept as one: IOF.xsd (the root
 * `xsd:schema` of the IOF 3.0 target namespace, version 3.0) or the IOF 2.0.3 DTD (the `IOFVersion` element fixed at
 * 2.0.3, and `CourseData`), whole (a truncated file is said to be one), and compiling with the same libxml2 that will
 * validate against it. A downloaded error page, a half file or another schema is refused with what it looks like.
 */
import { InputError } from '../../errors.js';
import { decodeXml } from '../../xml/decode.js';
import { tokenizeXml } from '../../xml/stream.js';
import { namespaceDeclarations, parseAttributes } from '../../xml/tokenizer.js';
import { GRAMMAR_FILE_NAMES, type IofGrammarKind } from '../schema-path.js';
import { dtdToXsd, MAX_GRAMMAR_BYTES } from './grammar.js';
import { firstLine } from './failures.js';
import { maxMemoryPagesFor, runXmllintWasm, SCHEMA_COMPILE_EXIT_CODE, type XmllintRun } from './xmllint.js';

export const IOF_3_NAMESPACE = 'http://www.orienteering.org/datastandard/3.0';
const XSD_NAMESPACE = 'http://www.w3.org/2001/XMLSchema';
/** Compiling IOF.xsd takes about 0.2 s; a grammar that takes far longer is not one worth waiting for. */
const COMPILE_DEADLINE_MS = 30_000;

export interface CheckGrammarOptions {
  signal?: AbortSignal;
  /** Runs xmllint (tests wrap it). Default: `runXmllintWasm`. */
  runner?: (run: XmllintRun) => Promise<{ exitCode: number; stderr: string }>;
}

/**
 * Checks that `bytes` are the IOF grammar of `kind`, and that libxml2 compiles it. Throws `InputError` naming
 * `source`: reason `empty`, `too_large`, `html_page` (an HTML page: an error or login page), `truncated` (the file
 * stops before its end), `not_well_formed`, `not_iof_schema` (another file: its root, namespace or version is not the
 * IOF's), `schema_invalid` (libxml2 cannot compile it), or the signal's reason.
 */
export async function checkIofGrammar(
  kind: IofGrammarKind,
  bytes: Uint8Array,
  source: string,
  options: CheckGrammarOptions = {},
): Promise<void> {
  const what = kind === 'xsd' ? 'the IOF XML 3.0 schema' : 'the IOF 2.0.3 DTD';
  if (bytes.byteLength === 0) throw new InputError(source, 'empty', `is empty (0 bytes), not ${what}.`);
  if (bytes.byteLength > MAX_GRAMMAR_BYTES) {
    throw new InputError(
      source,
      'too_large',
      `is ${bytes.byteLength} bytes, more than ${what} can be (at most ${MAX_GRAMMAR_BYTES}).`,
    );
  }
  const text = decodeXml(bytes, source).text;
  if (looksLikeHtml(text)) {
    throw new InputError(
      source,
      'html_page',
      `is an HTML page (an error, login or preview page, say), not ${what} (${GRAMMAR_FILE_NAMES[kind]}).`,
    );
  }
  const schema = kind === 'xsd' ? checkXsd(bytes, source) : checkDtd(text, source);
  await compiles(schema, source, what, options);
}

/** An HTML page by its first markup: `<!DOCTYPE html` or `<html`, whatever the case. */
export function looksLikeHtml(text: string): boolean {
  const head = text.slice(0, 2048).replace(/^\uFEFF/, '');
  const start = head.replace(/^\s*(?:<\?xml[^>]*>\s*)?(?:<!--[\s\S]*?-->\s*)*/, '');
  return /^<(?:!doctype\s+html\b|html\b)/i.test(start);
}

/** IOF.xsd as it is, once its root says it is the IOF 3.0 schema and it is whole. */
function checkXsd(bytes: Uint8Array, source: string): { fileName: string; bytes: Uint8Array } {
  let root: { qualified: string; raw: string } | undefined;
  try {
    tokenizeXml(
      bytes,
      () => ({
        startElement: (_name, raw, qualified) => {
          root ??= { qualified, raw };
        },
        endElement: () => undefined,
        text: () => undefined,
      }),
      { source, maxBytes: MAX_GRAMMAR_BYTES },
    );
  } catch (err) {
    throw asTruncated(err, source);
  }
  if (root === undefined) throw notIofSchema(source, 'it has no root element');
  const colon = root.qualified.indexOf(':');
  const prefix = colon < 0 ? '' : root.qualified.slice(0, colon);
  const local = colon < 0 ? root.qualified : root.qualified.slice(colon + 1);
  const namespace = namespaceDeclarations(root.raw)[prefix];
  if (local !== 'schema' || namespace !== XSD_NAMESPACE) {
    throw notIofSchema(source, `its root element is <${root.qualified}>, not an XML Schema's <xsd:schema>`);
  }
  const attributes = parseAttributes(root.raw);
  if (attributes.targetNamespace !== IOF_3_NAMESPACE) {
    const has = attributes.targetNamespace === undefined ? 'none' : `'${attributes.targetNamespace}'`;
    throw notIofSchema(source, `its target namespace is ${has}, not the IOF 3.0 namespace ${IOF_3_NAMESPACE}`);
  }
  if (attributes.version !== '3.0') {
    const has = attributes.version === undefined ? 'says no version' : `is version '${attributes.version}'`;
    throw notIofSchema(source, `it ${has}, not 3.0`);
  }
  return { fileName: 'IOF.xsd', bytes };
}

/** The IOF 2.0.3 DTD, translated to the schema it is checked as, once it declares what makes it that DTD. */
function checkDtd(text: string, source: string): { fileName: string; bytes: Uint8Array } {
  let xsd: string;
  try {
    xsd = dtdToXsd(text);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    // A declaration cut off at the end reads as stray text after the last whole one.
    const truncated = /something other than declarations/.test(reason) && !/>\s*$/.test(text);
    throw new InputError(
      source,
      truncated ? 'truncated' : 'not_iof_schema',
      truncated
        ? 'stops in the middle of a declaration: the file is truncated (a download cut short?).'
        : `is not a DTD this tool reads as the IOF 2.0.3 DTD: ${reason}.`,
    );
  }
  const declarations = text.replace(/<!--[\s\S]*?-->/g, ' ');
  if (!/<!ATTLIST\s+IOFVersion\s+version\s+CDATA\s+#FIXED\s+["']2\.0\.3["']/.test(declarations)) {
    throw notIofSchema(source, 'it does not fix IOFVersion at version 2.0.3, as the IOF 2.0.3 DTD does', 'DTD');
  }
  if (!/<!ELEMENT\s+CourseData\s/.test(declarations)) {
    throw notIofSchema(source, 'it declares no CourseData element (a truncated file?)', 'DTD');
  }
  return { fileName: 'IOFdata-2.0.3.xsd', bytes: new TextEncoder().encode(xsd) };
}

function notIofSchema(source: string, why: string, what: 'schema' | 'DTD' = 'schema'): InputError {
  const name = what === 'schema' ? 'the IOF XML 3.0 schema (IOF.xsd)' : 'the IOF 2.0.3 DTD';
  return new InputError(source, 'not_iof_schema', `is not ${name}: ${why}.`);
}

/**
 * A document that stops before its end is said to be truncated, with where it stops; another that is not XML is said
 * not to be the schema (a DTD, a text file), with what the parser found.
 */
function asTruncated(err: unknown, source: string): unknown {
  if (!(err instanceof InputError) || err.reason !== 'not_well_formed') return err;
  const at = {
    cause: err,
    ...(err.line === undefined ? {} : { line: err.line }),
    ...(err.column === undefined ? {} : { column: err.column }),
  };
  if (!/the document ends /.test(err.detail)) {
    return new InputError(source, 'not_well_formed', `is not the IOF XML 3.0 schema: ${err.detail}`, at);
  }
  return new InputError(
    source,
    'truncated',
    `stops before its end: the file is truncated (a download cut short?): ${err.detail}`,
    at,
  );
}

/** libxml2 compiles the schema: it is run once on a one-element document, and only a compile failure counts. */
async function compiles(
  schema: { fileName: string; bytes: Uint8Array },
  source: string,
  what: string,
  options: CheckGrammarOptions,
): Promise<void> {
  const deadline = AbortSignal.timeout(COMPILE_DEADLINE_MS);
  const signal = options.signal === undefined ? deadline : AbortSignal.any([options.signal, deadline]);
  const runner = options.runner ?? runXmllintWasm;
  const { exitCode, stderr } = await runner({
    documents: [{ fileName: 'probe.xml', bytes: new TextEncoder().encode('<probe/>') }],
    schema,
    maxMemoryPages: maxMemoryPagesFor(0),
    signal,
  });
  if (exitCode === SCHEMA_COMPILE_EXIT_CODE) {
    throw new InputError(
      source,
      'schema_invalid',
      `looks like ${what}, but libxml2 cannot compile it: ${firstLine(stderr)}`,
    );
  }
}
