/** `livelox-bridge validate <files...>`: schema verdicts for IOF XML files in one batch, optionally with lint. */
import { readInputFile } from '../../../core/files.js';
import { InputError, issueOf, type Issue } from '../../../errors.js';
import { parseCourseData } from '../../../iof/read-course-data.js';
import { lintCourseData, type LintIssue } from '../../../iof/lint.js';
import { validate, type ValidateOptions } from '../../../iof/validate/validate.js';
import { UsageError } from '../../command.js';
import { clean, paint, plural, terminal, type Style } from '../../format.js';
import { issueJson } from '../../hints.js';
import { printJson } from '../../json-output.js';
import { readErrorText } from '../../input-files.js';
import { formatLintIssue, schemaErrorLines } from '../../issue-lines.js';
import { schemaOptions } from '../../schema-options.js';
import { EXIT, type CommandContext, type Values } from '../../spec.js';
import type { validateOptions } from './spec.js';

type Status = 'valid' | 'invalid' | 'not_checked' | 'unreadable';

interface FileReport {
  file: string;
  status: Status;
  /** IOF version, when the file could be identified. */
  version?: string;
  /** Schema (or well-formedness) errors, each with its line when the validator gives one. */
  errors: Issue[];
  /** With --lint, for course data. */
  lint?: LintIssue[];
}

const LABEL: Readonly<Record<Status, [string, Style]>> = {
  valid: ['VALID', 'green'],
  invalid: ['INVALID', 'red'],
  not_checked: ['NOT CHECKED', 'yellow'],
  unreadable: ['UNREADABLE', 'red'],
};

export async function run(
  values: Values<typeof validateOptions>,
  positionals: string[],
  ctx: CommandContext,
): Promise<number> {
  if (positionals.length === 0) throw new UsageError('needs at least one file');
  const lint = values.lint === true;
  // Before any file is read: without a schema there is nothing to do.
  const validation = schemaOptions(values, ctx);

  const reports: FileReport[] = [];
  const readable: Array<{ report: FileReport; bytes: Uint8Array }> = [];
  for (const file of positionals) {
    try {
      const bytes = new Uint8Array(await readInputFile(file));
      const report: FileReport = { file, status: 'valid', errors: [] };
      reports.push(report);
      readable.push({ report, bytes });
    } catch (err) {
      reports.push({
        file,
        status: 'unreadable',
        errors: [{ code: 'unreadable', message: `cannot read: ${readErrorText(err)}` }],
      });
    }
  }

  await checkBatch(readable, { ...validation, signal: ctx.signal });
  if (lint) {
    for (const { report, bytes } of readable) lintFile(report, bytes);
  }

  const failed = reports.some(
    (r) => r.status === 'invalid' || r.status === 'unreadable' || (r.lint ?? []).some((i) => i.severity === 'error'),
  );
  if (ctx.json) {
    const files = reports.map((r) => ({
      ...r,
      errors: r.errors.map((i) => issueJson(i)),
      ...(r.lint === undefined ? {} : { lint: r.lint.map((i) => issueJson(i)) }),
    }));
    printJson(ctx, !failed, { files });
    return failed ? EXIT.failure : EXIT.ok;
  }
  const term = terminal(ctx.env);
  const all = values.all === true;
  const width = Math.max(...Object.values(LABEL).map(([l]) => l.length));
  const lines: string[] = [];
  for (const r of reports) {
    const [label, style] = LABEL[r.status];
    const version = r.version === undefined || r.status === 'unreadable' ? '' : `  (IOF ${r.version})`;
    lines.push(`${paint(label.padEnd(width), style, term.color)}  ${clean(r.file)}${version}`);
    lines.push(...schemaErrorLines(r.errors, r.file, all, '  '));
    const codeWidth = Math.max(0, ...(r.lint ?? []).map((i) => i.code.length));
    for (const issue of r.lint ?? []) lines.push(formatLintIssue(issue, term, codeWidth));
  }
  const count = (s: Status): number => reports.filter((r) => r.status === s).length;
  const parts = [
    `${count('valid')} valid`,
    `${count('invalid')} invalid`,
    ...(count('not_checked') > 0 ? [`${count('not_checked')} not checked`] : []),
    ...(count('unreadable') > 0 ? [`${count('unreadable')} unreadable`] : []),
  ];
  if (lint) {
    const lintErrors = reports.reduce((n, r) => n + (r.lint ?? []).filter((i) => i.severity === 'error').length, 0);
    parts.push(plural(lintErrors, 'lint error'));
  }
  lines.push('', `${plural(reports.length, 'file')}: ${parts.join(', ')}.`);
  ctx.io.out(lines.join('\n'));
  return failed ? EXIT.failure : EXIT.ok;
}

/** Schema verdicts for every readable file, in one validator call (the schema compiles once). */
async function checkBatch(
  files: ReadonlyArray<{ report: FileReport; bytes: Uint8Array }>,
  options: ValidateOptions,
): Promise<void> {
  if (files.length === 0) return;
  const results = await validate(
    files.map((f) => ({ name: f.report.file, bytes: f.bytes })),
    options,
  );
  results.forEach((result, i) => {
    const report = files[i]!.report;
    report.status = result.valid === null ? 'not_checked' : result.valid ? 'valid' : 'invalid';
    if (result.version !== 'unknown') report.version = result.version;
    report.errors = result.errors;
  });
}

/** Lint findings of a course-data file; other message types have nothing to lint. */
function lintFile(report: FileReport, bytes: Uint8Array): void {
  if (report.status === 'unreadable') return;
  try {
    const data = parseCourseData(bytes, report.file);
    report.lint = lintCourseData(data);
  } catch (err) {
    // Another message type is not course data: nothing to lint. A course file that does not parse is reported.
    if (err instanceof InputError && err.reason === 'wrong_message_type') return;
    if (report.status === 'invalid') return; // its schema errors already say what is wrong
    report.lint = [
      { path: '', ...issueOf(err, err instanceof InputError ? err.reason : 'unreadable', { severity: 'error' }) },
    ];
  }
}
