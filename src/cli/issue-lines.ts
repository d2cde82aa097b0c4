/**
 * Problems found in files, one per line, as inspect, validate and check-courses print them: lint findings with their
 * severity and code, and schema errors with `file:line`, cut after the first few unless --all.
 */
import type { Issue } from '../errors.js';
import type { LintIssue } from '../iof/lint.js';
import { ELLIPSIS, clean, paint, type Style, type Terminal } from './format.js';
import { issueText } from './hints.js';
import { MAX_SCHEMA_ERRORS } from './shared-options.js';

export function severityStyle(severity: LintIssue['severity']): Style {
  return severity === 'error' ? 'red' : severity === 'warning' ? 'yellow' : 'dim';
}

/** One lint finding on one line: `  error    code  path: message`, the code padded to `codeWidth`. */
export function formatLintIssue(issue: LintIssue, term: Terminal, codeWidth = 0): string {
  const sev = paint(issue.severity.padEnd(7), severityStyle(issue.severity), term.color);
  const where = issue.path === '' ? '' : `${issue.path}: `;
  return `  ${sev}  ${issue.code.padEnd(codeWidth)}  ${where}${clean(issueText(issue))}`;
}

/** `file:line: message` per schema error, indented by `indent`; without `all`, the first MAX_SCHEMA_ERRORS. */
export function schemaErrorLines(issues: readonly Issue[], source: string, all: boolean, indent: string): string[] {
  const shown = all ? issues : issues.slice(0, MAX_SCHEMA_ERRORS);
  const lines = shown.map(
    (e) => `${indent}${clean(e.line === undefined ? source : `${source}:${e.line}`)}: ${clean(issueText(e))}`,
  );
  if (shown.length < issues.length) {
    lines.push(`${indent}${ELLIPSIS} and ${issues.length - shown.length} more errors (--all shows every one)`);
  }
  return lines;
}
