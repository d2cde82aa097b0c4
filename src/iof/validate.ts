/**
 * XSD validation of IOF XML 3.0 documents with libxml2 (xmllint-wasm). Each `validateXML` call starts a worker, loads
 * the WebAssembly module and compiles IOF.xsd (about 160 ms whatever the documents), so documents are validated in
 * batches: one call per `validateIofXml`. The work is split so that a coalescer of concurrent callers can gather
 * prepared documents from several callers into one `runXmllint` call, and a DTD check of IOF 2.0.3 can be a second
 * runner beside it.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { memoryPages, validateXML } from 'xmllint-wasm';
import { InputError, type Issue } from '../errors.js';
import { decodeXml } from './read.js';
import { iofSchemaPath } from './schema-path.js';
import { MAX_XML_CHARS, declaresEntities } from './xml.js';

export interface XmlDocumentInput {
  /** Name to report results under, such as the file name. Any string; it is never given to xmllint. */
  name: string;
  /** The document as stored: any encoding `decodeXml` reads. */
  bytes: Uint8Array;
}

export interface XmlValidationResult {
  name: string;
  valid: boolean;
  /**
   * Problems with their 1-based line: `schema` (not valid against IOF.xsd), `not_well_formed` (libxml2's parser
   * errors), or the `InputError` reason when the document could not be handed to the validator at all
   * (`bad_encoding`, `unsupported_encoding`, `entity_declaration`, `too_large`).
   */
  errors: Issue[];
}

export interface ValidateIofXmlOptions {
  /** IOF.xsd to validate against. Default: `schemas/IOF.xsd` of this package (see `iofSchemaPath`). */
  schemaPath?: string;
}

/**
 * Validates documents against the IOF XML 3.0 schema in one xmllint run, and returns one result per document in the
 * order given. Non-UTF-8 documents are transcoded first (the WebAssembly libxml2 has no windows-1252) with line
 * numbers unchanged. Throws `InputError` `schema_missing` when IOF.xsd is not found, `too_large` when libxml2 runs out
 * of memory.
 */
export async function validateIofXml(
  docs: ReadonlyArray<XmlDocumentInput>,
  options: ValidateIofXmlOptions = {},
): Promise<XmlValidationResult[]> {
  if (docs.length === 0) return [];
  const schemaPath = iofSchemaPath(options.schemaPath);
  const schema = await readFile(schemaPath);

  // xmllint prefixes every message with the file name; private names let us attribute messages to documents without
  // trusting user-supplied names (which may contain ':' or look like command-line options) and without a document's
  // own text being able to forge a message for another document.
  const nonce = randomBytes(6).toString('hex');
  const results: Array<XmlValidationResult | undefined> = new Array<XmlValidationResult | undefined>(docs.length);
  const batch: PreparedDocument[] = [];
  docs.forEach((doc, index) => {
    const prepared = prepareDocument(doc, `doc${index}-${nonce}.xml`);
    if ('issues' in prepared) results[index] = { name: doc.name, valid: false, errors: prepared.issues };
    else batch.push({ ...prepared, index });
  });

  if (batch.length > 0) {
    const outcomes = await runXmllint(batch, schema, schemaPath);
    for (const p of batch) {
      const outcome = outcomes.get(p.fileName) ?? {
        valid: false,
        errors: [{ code: 'schema', message: 'the validator reported nothing for this document.' }],
      };
      results[p.index] = { name: docs[p.index]?.name ?? '', ...outcome };
    }
  }
  return results.map((r, i) => r ?? { name: docs[i]?.name ?? '', valid: false, errors: [] });
}

/* -------------------------------------------------------------------------------------------------- preparation */

interface PreparedDocument {
  index: number;
  /** Name inside xmllint's in-memory file system. */
  fileName: string;
  /** UTF-8 (or UTF-16) bytes libxml2 can read. */
  bytes: Uint8Array;
}

function prepareDocument(
  doc: XmlDocumentInput,
  fileName: string,
): Omit<PreparedDocument, 'index'> | { issues: Issue[] } {
  if (doc.bytes.byteLength > MAX_XML_CHARS) {
    return {
      issues: [
        {
          code: 'too_large',
          message: `the document has ${doc.bytes.byteLength} bytes; at most ${MAX_XML_CHARS} are validated.`,
        },
      ],
    };
  }
  let decoded;
  try {
    decoded = decodeXml(doc.bytes, doc.name);
  } catch (e) {
    if (e instanceof InputError) return { issues: [issueFromInputError(e)] };
    throw e;
  }
  if (declaresEntities(decoded.text)) {
    return { issues: [{ line: 1, code: 'entity_declaration', message: 'entity declarations are not allowed.' }] };
  }
  if (decoded.encoding === 'utf-8') return { fileName, bytes: doc.bytes };
  // libxml2 in WebAssembly is built without iconv: it reads UTF-8, UTF-16 and Latin-1 but not windows-1252. Hand it
  // UTF-8 and say so in the declaration; only the declaration's text changes, so line numbers stay the same.
  const text = decoded.text.replace(/^(\s*<\?xml\s[^?]*?\bencoding\s*=\s*)(["'])[^"']*\2/, '$1$2UTF-8$2');
  return { fileName, bytes: new TextEncoder().encode(text) };
}

function issueFromInputError(e: InputError): Issue {
  // InputError messages start with "source:line:"; an Issue carries the line separately.
  const where =
    e.line === undefined ? e.source : `${e.source}:${e.line}${e.column === undefined ? '' : `:${e.column}`}`;
  const message = e.message.startsWith(`${where}: `) ? e.message.slice(where.length + 2) : e.message;
  return { ...(e.line === undefined ? {} : { line: e.line }), code: e.reason, message };
}

/* ------------------------------------------------------------------------------------------------------ xmllint */

interface Outcome {
  valid: boolean;
  errors: Issue[];
}

/**
 * WebAssembly memory libxml2 may grow to. It holds the whole document tree: measured 96 MiB for an 11 MB CourseData
 * and 448 MiB for a 57 MB one (about 8 bytes per byte of XML), while the 32 MiB default fails from about 3 MB. The
 * limit is reserved address space, not memory in use, so it is generous. Streaming mode would need less but reports
 * wrong lines and calls a malformed document valid.
 */
export function maxMemoryPagesFor(largestDocumentBytes: number): number {
  const bytes = 64 * 1024 * 1024 + 10 * largestDocumentBytes;
  const pages = Math.ceil(bytes / (64 * 1024));
  return Math.min(memoryPages.max, Math.max(memoryPages.defaultMaxMemoryPages, pages));
}

/** xmllint's exit codes that still mean "documents checked": 1 parse error, 3 invalid, 4 unreadable document. */
const CHECKED_EXIT_CODES = new Set([1, 3, 4]);
const SCHEMA_COMPILE_EXIT_CODE = 5;
const OUT_OF_MEMORY_EXIT_CODE = 9;

async function runXmllint(
  batch: readonly PreparedDocument[],
  schema: Uint8Array,
  schemaPath: string,
): Promise<Map<string, Outcome>> {
  const largest = Math.max(...batch.map((d) => d.bytes.byteLength));
  const maxMemoryPages = maxMemoryPagesFor(largest);
  let stderr: string;
  try {
    const result = await validateXML({
      xml: batch.map((d) => ({ fileName: d.fileName, contents: d.bytes })),
      schema: [{ fileName: 'IOF.xsd', contents: schema }],
      maxMemoryPages,
    });
    stderr = result.rawOutput;
  } catch (cause) {
    // xmllint-wasm rejects on exit codes it does not know; the output is then the error message.
    const code = (cause as { code?: unknown }).code;
    const output = cause instanceof Error ? cause.message : String(cause);
    if (typeof code === 'number' && CHECKED_EXIT_CODES.has(code)) {
      stderr = output;
    } else if (code === OUT_OF_MEMORY_EXIT_CODE) {
      const fileName = /^(doc\d+-[0-9a-f]+\.xml):/m.exec(output)?.[1];
      const doc = batch.find((d) => d.fileName === fileName);
      throw new InputError(
        doc === undefined ? 'validation batch' : `document ${doc.index + 1} of the batch`,
        'too_large',
        `libxml2 ran out of memory validating (${Math.round(maxMemoryPages / memoryPages.MiB)} MiB allowed).`,
        { cause },
      );
    } else if (code === SCHEMA_COMPILE_EXIT_CODE) {
      throw new InputError(schemaPath, 'schema_invalid', `libxml2 could not compile the schema: ${output.trim()}`, {
        cause,
        hint: 'Reinstall IOF.xsd (npm install, or IOF_XSD pointing at the IOF 3.0 schema).',
      });
    } else {
      throw new InputError(
        schemaPath,
        'validator_failed',
        `xmllint stopped (exit code ${String(code)}): ${output.trim()}`,
        { cause },
      );
    }
  }
  return parseXmllintOutput(stderr, batch);
}

const IOF_NAMESPACE_BRACES = /\{http:\/\/www\.orienteering\.org\/datastandard\/3\.0\}/g;

/**
 * Splits xmllint's stderr into per-document outcomes. Lines are `<file>:<line>: <message>`, parser errors are followed
 * by a context line and a caret line, and each document ends with `<file> validates` or `<file> fails to validate`
 * (the latter is the extra location-less line a batch adds per failing document, dropped here).
 */
function parseXmllintOutput(stderr: string, batch: readonly PreparedDocument[]): Map<string, Outcome> {
  const outcomes = new Map<string, Outcome>(batch.map((d) => [d.fileName, { valid: false, errors: [] }]));
  const lines = stderr.split('\n');
  let current: Outcome | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const next = lines[i + 1];
    if (next !== undefined && /^\s*\^\s*$/.test(next)) {
      // Source context and caret under a parser error: the line number already says where.
      i++;
      continue;
    }
    if (line.trim() === '') continue;
    const located = /^(doc\d+-[0-9a-f]+\.xml):(\d+): (.*)$/.exec(line);
    if (located) {
      const outcome = outcomes.get(located[1] ?? '');
      if (outcome) {
        current = outcome;
        const issue = toIssue(Number(located[2]), located[3] ?? '');
        if (issue) outcome.errors.push(issue);
        continue;
      }
    }
    const verdict = /^(doc\d+-[0-9a-f]+\.xml) (validates|fails to validate)$/.exec(line);
    if (verdict) {
      const outcome = outcomes.get(verdict[1] ?? '');
      if (outcome) {
        current = outcome;
        if (verdict[2] === 'validates') outcome.valid = true;
        continue;
      }
    }
    // Anything else (libxml2 messages without a location) belongs to the document being checked.
    current?.errors.push({ code: 'schema', message: stripNamespace(line.trim()) });
  }
  for (const outcome of outcomes.values()) {
    if (outcome.valid) outcome.errors = [];
  }
  return outcomes;
}

function stripNamespace(message: string): string {
  return message.replace(IOF_NAMESPACE_BRACES, '');
}

/** libxml2 keeps element line numbers in 16 bits: everything from line 65535 on is reported as 65535. */
const LIBXML2_LAST_LINE = 65535;

function toIssue(line: number, raw: string): Issue | undefined {
  // Warnings (an external DTD that is not there, say) do not make a document invalid.
  if (/^(?:parser |namespace |validity )?warning\s*:/.test(raw)) return undefined;
  const schema = /^Schemas validity error : (.*)$/.exec(raw);
  const parser = /^(?:parser|namespace) error : (.*)$/.exec(raw);
  const code = parser ? 'not_well_formed' : 'schema';
  let message = stripNamespace(schema?.[1] ?? parser?.[1] ?? raw);
  if (code === 'schema' && line === LIBXML2_LAST_LINE)
    message += ` (at line ${LIBXML2_LAST_LINE} or later: libxml2 counts no further)`;
  return { line, code, message };
}
