/**
 * `livelox-bridge import <files, folders, globs...>`: a bulk route import that can be stopped, killed and run again.
 * The inputs become routes (jobs/import-routes/inputs.ts), the job posts each exactly once with its intent journaled
 * first (jobs/import-routes/job.ts), and this command shows progress, says what became of every route and maps the
 * outcome to an exit code a script can act on: 0 all imported (or accepted without --wait), 1 some not, 2 a wrong
 * command line, 4 the journal cannot be used (what was done is reported), 130 stopped by Ctrl-C (the next run resumes
 * from the journal). A dry run reads the journal as a copy in memory and sends nothing; report.ts says what came of it.
 */
import { extname } from 'node:path';
import { stderr } from 'node:process';
import { StateError } from '../../../errors.js';
import { expandRouteInputs, type RouteInputs } from '../../../jobs/import-routes/inputs.js';
import { importRoutesJob, type ImportRoutesOptions, type ImportRoutesResult } from '../../../jobs/import-routes/job.js';
import { openImportJournal, type ImportJournalFile } from '../../../store/import-journal.js';
import { UsageError, intOption, numberOption, stringOption } from '../../command.js';
import { clean } from '../../format.js';
import { errorJson, errorText } from '../../hints.js';
import { printJson } from '../../json-output.js';
import { DEFAULT_IMPORT_TIMEOUT_S } from '../../import-wait.js';
import { progressView, type ProgressMode } from '../../import-progress.js';
import { checkOutputPath, writeFileAtomic } from '../../output-files.js';
import { dataFilePath } from '../../data-dir.js';
import { parseDuration } from '../../durations.js';
import { openService } from '../../service.js';
import { EXIT, type CommandContext, type Values } from '../../spec.js';
import { csvReport, htmlReport, leftWork, printReport, routeJson } from './report.js';
import {
  DEFAULT_CONCURRENCY,
  DEFAULT_RATE,
  IMPORT_EXIT,
  MAX_CONCURRENCY,
  MAX_RATE,
  type importOptions,
} from './spec.js';

type ImportValues = Values<typeof importOptions>;

/** Where the journal lives without --journal: the user's data directory (XDG), beside sync's state. */
export function defaultJournalPath(env: Readonly<Record<string, string | undefined>>): string {
  return dataFilePath(env, 'imports.sqlite');
}

/** `5s-15s`, `500ms-2s`: the import time the service is expected to take, for the polling pace. */
function importTimeOption(raw: string | undefined): { minMs: number; maxMs: number } | undefined {
  if (raw === undefined) return undefined;
  const [min, max, ...more] = raw.split('-');
  const minMs = more.length === 0 && min !== undefined ? parseDuration(min, 's') : undefined;
  const maxMs = more.length === 0 && max !== undefined ? parseDuration(max, 's') : undefined;
  if (minMs === undefined || maxMs === undefined || maxMs < minMs || maxMs > 3_600_000) {
    throw new UsageError(`--import-time takes MIN-MAX such as 5s-15s (at most 1 hour), got '${raw}'`);
  }
  return { minMs, maxMs };
}

/** The command line read and checked: what the run does, before a file is read or a request sent. */
interface ImportSettings {
  manifest: string | undefined;
  person: { firstName?: string; lastName?: string } | undefined;
  job: Required<
    Pick<ImportRoutesOptions, 'wait' | 'concurrency' | 'waitTimeoutMs' | 'reimportDeleted' | 'retryErrors' | 'dryRun'>
  > &
    Pick<ImportRoutesOptions, 'classId' | 'deviceModel' | 'importTimeMs'>;
  rate: number;
  out: { file: string; kind: '.csv' | '.json' } | undefined;
  html: string | undefined;
  quiet: boolean;
  mode: ProgressMode;
  journalPath: string;
}

function importSettings(values: ImportValues, positionals: string[], ctx: CommandContext): ImportSettings {
  const manifest = stringOption(values, 'manifest');
  if (positionals.length === 0 && manifest === undefined) {
    throw new UsageError('give route files, folders or globs (or a --manifest)');
  }
  const classId = intOption(values, 'class-id', 1, Number.MAX_SAFE_INTEGER);
  const deviceModel = stringOption(values, 'device-model') ?? stringOption(values, 'device');
  const firstName = stringOption(values, 'first-name');
  const lastName = stringOption(values, 'last-name');
  const wait = values.wait === true;
  const timeoutS = intOption(values, 'timeout-s', 1, 24 * 3600);
  if (timeoutS !== undefined && !wait) throw new UsageError('--timeout-s is the limit of --wait');
  const importTimeMs = importTimeOption(stringOption(values, 'import-time'));
  const dryRun = values['dry-run'] === true;
  const out = stringOption(values, 'out');
  const outKind = out === undefined ? undefined : extname(out).toLowerCase();
  if (outKind !== undefined && outKind !== '.csv' && outKind !== '.json') {
    throw new UsageError(`--out writes a .csv or .json file, got '${out}'`);
  }
  const html = stringOption(values, 'html');
  // Before any route is posted: a report path that cannot be written must not surface only after the batch.
  if (!dryRun && out !== undefined) checkOutputPath(out, '--out');
  if (!dryRun && html !== undefined) checkOutputPath(html, '--html');
  const quiet = values.quiet === true;
  return {
    manifest,
    // One runner for every route without a manifest's: a person's own files, posted by an app with an API key.
    person:
      firstName === undefined && lastName === undefined
        ? undefined
        : { ...(firstName === undefined ? {} : { firstName }), ...(lastName === undefined ? {} : { lastName }) },
    job: {
      wait,
      concurrency: intOption(values, 'concurrency', 1, MAX_CONCURRENCY) ?? DEFAULT_CONCURRENCY,
      ...(classId === undefined ? {} : { classId }),
      ...(deviceModel === undefined ? {} : { deviceModel }),
      ...(importTimeMs === undefined ? {} : { importTimeMs }),
      waitTimeoutMs: (timeoutS ?? DEFAULT_IMPORT_TIMEOUT_S) * 1000,
      reimportDeleted: values['reimport-deleted'] === true,
      retryErrors: values['retry-errors'] === true,
      dryRun,
    },
    rate: numberOption(values, 'rate', 0.1, MAX_RATE) ?? DEFAULT_RATE,
    out: out === undefined ? undefined : { file: out, kind: outKind as '.csv' | '.json' },
    html,
    quiet,
    mode:
      values['progress-lines'] === true
        ? 'lines'
        : quiet || ctx.json
          ? 'none'
          : stderr.isTTY === true
            ? 'bar'
            : 'periodic',
    journalPath: stringOption(values, 'journal') ?? defaultJournalPath(ctx.env),
  };
}

export async function run(values: ImportValues, positionals: string[], ctx: CommandContext): Promise<number> {
  const settings = importSettings(values, positionals, ctx);
  const { dryRun } = settings.job;
  const inputs = await expandRouteInputs(positionals, {
    ...(settings.manifest === undefined ? {} : { manifest: settings.manifest }),
    signal: ctx.signal,
  });
  if (!settings.quiet && !ctx.json) {
    for (const p of inputs.problems) ctx.io.err(`livelox-bridge import: ${clean(p.message)}`);
  }
  if (inputs.manifestRefused) {
    // Its routes would go under the wrong runners and ids: nothing is sent until the manifest can be read.
    if (ctx.json) printJson(ctx, false, { interrupted: false, dryRun, problems: inputs.problems });
    else ctx.io.err('livelox-bridge import: the manifest cannot be used; nothing was sent.');
    return EXIT.failure;
  }
  const person = settings.person;
  const routes = person ? inputs.routes.map((r) => (r.person ? r : { ...r, person })) : inputs.routes;
  let journal;
  try {
    // A dry run reads a copy: the file is left byte for byte as it is, and is not created when absent.
    journal = openImportJournal(settings.journalPath, { readOnly: dryRun });
  } catch (err) {
    if (!(err instanceof StateError)) throw err;
    return failure(ctx, err, 'Nothing was sent.');
  }
  let result: ImportRoutesResult;
  try {
    result = await importBatch(settings, routes, journal, values, ctx);
  } finally {
    journal.close();
  }
  return report(result, inputs, settings, ctx);
}

/** The batch against the service, with its progress shown. */
async function importBatch(
  settings: ImportSettings,
  routes: RouteInputs['routes'],
  journal: ImportJournalFile,
  values: ImportValues,
  ctx: CommandContext,
): Promise<ImportRoutesResult> {
  const session = await openService(values, ctx, {
    auth: 'any',
    limits: { ratePerSecond: settings.rate, maxConcurrent: settings.job.concurrency },
  });
  const view = progressView(settings.mode, (line) => ctx.io.err(line), routes.length, settings.job.dryRun);
  try {
    if (routes.some((r) => r.person) && !session.client.auth.honoursPerson) {
      throw new UsageError(
        "a runner (--first-name/--last-name, a manifest's names) is used only with an API key; with a login the route belongs to the logged-in user",
      );
    }
    return await importRoutesJob({
      client: session.client,
      journal,
      routes,
      ...settings.job,
      signal: ctx.signal,
      onProgress: (p) => view.update(p),
    });
  } finally {
    view.stop();
    await session.close();
  }
}

/** The result said (text or --json), the reports written, and the exit code. */
async function report(
  result: ImportRoutesResult,
  inputs: RouteInputs,
  settings: ImportSettings,
  ctx: CommandContext,
): Promise<number> {
  const { wait, dryRun } = settings.job;
  const ok = !leftWork(result, inputs, wait, dryRun) && !result.interrupted;
  const document = {
    ok,
    interrupted: result.interrupted,
    dryRun,
    ...(result.stoppedBy ? { stoppedBy: errorJson(result.stoppedBy) } : {}),
    routes: result.routes.map(routeJson),
    progress: result.progress,
    skipped: inputs.skipped,
    problems: inputs.problems,
  };
  const { out, html, quiet } = settings;
  if (out !== undefined && !dryRun) {
    const text = out.kind === '.csv' ? csvReport(result.routes, result.stoppedBy) : JSON.stringify(document, null, 2);
    await writeFileAtomic(out.file, Buffer.from(text, 'utf8'));
  }
  if (html !== undefined && !dryRun) {
    await writeFileAtomic(html, Buffer.from(htmlReport(result, inputs, ok, new Date()), 'utf8'));
  }
  if (ctx.json) ctx.io.out(JSON.stringify(document));
  else printReport(result, inputs, ctx, { quiet, dryRun });
  for (const file of dryRun && !quiet && !ctx.json ? [out?.file, html] : []) {
    if (file !== undefined)
      ctx.io.err(`livelox-bridge import: a dry run writes no report: ${clean(file)} was left as it is.`);
  }
  // Before Ctrl-C's code: a journal that failed needs a person, and running again alone will not do.
  if (result.stoppedBy instanceof StateError) return IMPORT_EXIT.journal;
  if (result.interrupted) return EXIT.interrupted;
  return ok ? EXIT.ok : EXIT.failure;
}

/** The journal cannot be opened: nothing was read from it, nothing sent. */
function failure(ctx: CommandContext, err: StateError, after: string): number {
  if (ctx.json) printJson(ctx, false, { interrupted: false, error: errorJson(err) });
  else ctx.io.err(`livelox-bridge import: ${errorText(err)} ${after}`);
  return IMPORT_EXIT.journal;
}
