/** `livelox-bridge validate <files...>`: schema verdicts for IOF XML files in one batch, optionally with lint. */
import { readInputFile } from '../../core/files.js';
import { InputError, issueOf, type Issue } from '../../errors.js';
import { parseCourseData } from '../../iof/read-course-data.js';
import { lintCourseData, type LintIssue } from '../../iof/lint.js';
import { validate, type ValidateOptions } from '../../iof/validate/validate.js';
import { EXIT, UsageError, type Command } from '../command.js';
import { clean, paint, plural, terminal, type Style } from '../format.js';
import { issueJson } from '../hints.js';
import { printJson } from '../json-output.js';
import { readErrorText } from '../input-files.js';
import { MAX_SCHEMA_ERRORS, formatLintIssue, schemaErrorLines } from '../issue-lines.js';
import { SCHEMA_OPTIONS, schemaOptions } from '../schema-options.js';

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

export const validateCommand: Command = {
  name: 'validate',
  usage: 'validate <files...> [--lint] [--all] [--schema FILE] [--dtd FILE]',
  allowPositionals: true,
  options: {
    lint: {
      type: 'boolean',
      description: 'also lint course data (positions, undefined controls, leg lengths, duplicates, times)',
    },
    all: { type: 'boolean', description: `show every schema error (default: the first ${MAX_SCHEMA_ERRORS} per file)` },
    ...SCHEMA_OPTIONS,
  },
  details: [
    'Prints one verdict per file: VALID, INVALID (with file:line: message per error), NOT CHECKED (an IOF 2.0.3 file',
    'when no 2.0.3 DTD was found; not counted as invalid) or UNREADABLE. IOF 3.0 files are checked against IOF.xsd,',
    '2.0.3 files against their DTD, each found by --schema/--dtd, IOF_XSD/IOF_DTD, the package, then the cache',
    '(`livelox-bridge schema fetch` fills it; `schema status` shows which copy is used). Without IOF.xsd nothing is read:',
    'exit 1 at once. The other files are still checked when one cannot be read. With --lint, lint findings follow each',
    'course-data file as severity, code, path and message.',
    'With --json: {"ok":bool,"files":[{"file","status","version","errors":[{line,code,message}],"lint":[...]}]},',
    'every error listed.',
    'Exit 1 when any file is invalid or unreadable, or (with --lint) has a lint error; 0 otherwise.',
    'Example: livelox-bridge validate exports/*.xml --lint',
  ].join('\n'),
  async run(values, positionals, ctx) {
    if (positionals.length === 0) throw new UsageError('validate needs at least one file');
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
  },
};

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
