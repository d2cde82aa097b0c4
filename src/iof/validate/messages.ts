/**
 * xmllint's stderr in plain words, per document: which lines belong to which document, libxml2's messages with the
 * IOF namespace left out, native xmllint's older wording read the same way as the WebAssembly one (so results match
 * `xmllint --schema`, see the parity test), and a cap on how many errors one document lists.
 */
import type { Issue } from '../../errors.js';
import { IOF3_NAMESPACE } from '../identify.js';

export interface Outcome {
  /** xmllint's closing line for the document, when it printed one (not after a parser error). */
  verdict?: 'validates' | 'fails to validate';
  errors: Issue[];
  /** libxml2 ran out of memory on this document and gave up on it. */
  outOfMemory?: boolean;
  /** Errors beyond `MAX_ISSUES_PER_DOCUMENT`, counted, not kept. */
  unlisted?: number;
}

/**
 * Splits xmllint's stderr into per-document outcomes. Lines are `<file>:<line>: <message>`, parser errors are followed
 * by a context line and a caret line, and each checked document ends with `<file> validates` or `<file> fails to
 * validate` (the extra location-less line a batch prints per failing document; kept as the verdict, not as an issue).
 */
export function parseXmllintOutput(stderr: string, fileNames: readonly string[]): Map<string, Outcome> {
  const outcomes = new Map<string, Outcome>(fileNames.map((f) => [f, { errors: [] }]));
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
        const message = located[3] ?? '';
        if (/\bout of memory\b/i.test(message)) {
          outcome.outOfMemory = true;
          continue;
        }
        const issue = toIssue(Number(located[2]), message);
        if (issue) addIssue(outcome, issue);
        continue;
      }
    }
    const verdict = /^(doc\d+-[0-9a-f]+\.xml) (validates|fails to validate)$/.exec(line);
    if (verdict) {
      const outcome = outcomes.get(verdict[1] ?? '');
      if (outcome) {
        current = outcome;
        outcome.verdict = verdict[2] === 'validates' ? 'validates' : 'fails to validate';
        continue;
      }
    }
    // Anything else (libxml2 messages without a location) belongs to the document being checked.
    if (current) addIssue(current, { code: 'schema', message: plainWords(line.trim()) });
  }
  for (const outcome of outcomes.values()) {
    const more = outcome.unlisted ?? 0;
    if (more > 0) {
      outcome.errors.push({
        code: 'more_errors',
        message: `${more} more error${more === 1 ? '' : 's'} not listed (only the first ${MAX_ISSUES_PER_DOCUMENT} are).`,
      });
    }
  }
  return outcomes;
}

/** Issues listed per document: a file with the same mistake on every line still gives a readable answer. */
const MAX_ISSUES_PER_DOCUMENT = 100;

function addIssue(outcome: Outcome, issue: Issue): void {
  if (outcome.errors.length < MAX_ISSUES_PER_DOCUMENT) outcome.errors.push(issue);
  else outcome.unlisted = (outcome.unlisted ?? 0) + 1;
}

/**
 * libxml2's message in plain words: element names without the IOF namespace in braces, another namespace said in
 * words, and what a root that matches nothing means for IOF XML.
 */
function plainWords(message: string): string {
  const rootElsewhere = /^Element '([^']*)': No matching global declaration available for the validation root\.$/.exec(
    message,
  );
  if (rootElsewhere) {
    const qualified = /^\{([^}]*)\}(.*)$/.exec(rootElsewhere[1] ?? '');
    const where = qualified ? `is in the namespace ${qualified[1]}` : 'has no namespace';
    return (
      `Element '${qualified?.[2] ?? rootElsewhere[1]}': the root element ${where}, so it is not an IOF XML 3.0 message ` +
      `(IOF XML 3.0 root elements are in the namespace ${IOF3_NAMESPACE}).`
    );
  }
  return message.replaceAll(`{${IOF3_NAMESPACE}}`, '').replace(/'\{([^}]*)\}([^']*)'/g, "'$2' (namespace $1)");
}

/** libxml2 keeps element line numbers in 16 bits: everything from line 65535 on is reported as 65535. */
const LIBXML2_LAST_LINE = 65535;

function toIssue(line: number, raw: string): Issue | undefined {
  // Warnings (an external DTD that is not there, say) do not make a document invalid.
  if (/^(?:parser |namespace |validity )?warning\s*:/.test(raw)) return undefined;
  // Native xmllint 2.9 writes "element X: Schemas validity error : ..."; 2.13 (the WebAssembly one) leaves that out.
  const schema = /^(?:element [^:]*: )?Schemas validity error : (.*)$/.exec(raw);
  const parser = /^(?:parser|namespace) error : (.*)$/.exec(raw);
  const code = parser ? 'not_well_formed' : 'schema';
  let message = plainWords(schema?.[1] ?? parser?.[1] ?? raw);
  if (code === 'schema' && line === LIBXML2_LAST_LINE)
    message += ` (at line ${LIBXML2_LAST_LINE} or later: libxml2 counts no further)`;
  return { line, code, message };
}
