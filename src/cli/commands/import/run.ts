/**
 * `livelox-bridge import <files, folders, globs...>`: a bulk route import that can be stopped, killed and run again.
 * The inputs become routes (jobs/import-routes/inputs.ts), the job posts each exactly once with its intent journaled
 * first (jobs/import-routes/job.ts), and this command shows progress, says what became of every route and maps the
 * outcome to an exit code a script can act on: 0 all imported (or accepted without --wait), 1 some not, 2 a wrong
 * command line, 4 the journal cannot be used (what was done is reported), 130 stopped by Ctrl-C (the next run resumes
 * from the journal).
 */
import { extname } from 'node:path';
import { stderr } from 'node:process';
import { StateError, type LiveloxError } from '../../../errors.js';
import { expandRouteInputs, type RouteInputs } from '../../../jobs/import-routes/inputs.js';
import { importRoutesJob, type ImportRoutesResult, type RouteReport } from '../../../jobs/import-routes/job.js';
import { csvField } from '../../../links/render.js';
import { openImportJournal } from '../../../store/import-journal.js';
import { UsageError, intOption, stringOption } from '../../command.js';
import { clean, plural, table, terminal, type Style } from '../../format.js';
import { errorJson, errorText } from '../../hints.js';
import { printJson } from '../../json-output.js';
import { DEFAULT_IMPORT_TIMEOUT_S } from '../../import-wait.js';
import { progressView, type ProgressMode } from '../../import-progress.js';
import { writeFileAtomic } from '../../output-files.js';
import { dataFilePath } from '../../data-dir.js';
import { openService } from '../../service.js';
import { EXIT, type CommandContext, type Values } from '../../spec.js';
import { DEFAULT_CONCURRENCY, IMPORT_EXIT, type importOptions } from './spec.js';

type ImportValues = Values<typeof importOptions>;

/** Where the journal lives without --journal: the user's data directory (XDG), beside sync's state. */
export function defaultJournalPath(env: Readonly<Record<string, string | undefined>>): string {
  return dataFilePath(env, 'imports.sqlite');
}

/** `5s-15s`, `500ms-2s`: the import time the service is expected to take, for the polling pace. */
function importTimeOption(raw: string | undefined): { minMs: number; maxMs: number } | undefined {
  if (raw === undefined) return undefined;
  const unit = (u: string | undefined) => ({ ms: 1, s: 1000, m: 60_000 })[(u ?? 's') as 'ms' | 's' | 'm'];
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)?-(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(raw.trim());
  const minMs = m ? Number(m[1]) * unit(m[2]) : Number.NaN;
  const maxMs = m ? Number(m[3]) * unit(m[4]) : Number.NaN;
  if (!(minMs >= 0 && maxMs >= minMs && maxMs <= 3_600_000)) {
    throw new UsageError(`--import-time takes MIN-MAX such as 5s-15s (at most 1 hour), got '${raw}'`);
  }
  return { minMs, maxMs };
}

const STATUS_STYLE: Record<RouteReport['status'], Style> = {
  imported: 'green',
  skipped: 'green',
  pending: 'yellow',
  not_sent: 'yellow',
  error: 'red',
  failed: 'red',
};

/** One report row as data (--json, --out): the typed error in the CLI's words. */
function routeJson(r: RouteReport): Record<string, unknown> {
  const { error, ...rest } = r;
  return { ...rest, ...(error ? { error: errorJson(error) } : {}) };
}

/** The viewer url, or why there is none: the service's reason, our error, or nothing for a route not sent. */
function outcome(r: RouteReport, stoppedBy: LiveloxError | undefined): string {
  if (r.viewerUrl !== undefined) return r.viewerUrl;
  if (r.error !== undefined && r.error === stoppedBy) return '';
  const text = r.errorMessage ?? (r.error ? errorText(r.error) : '');
  // File errors start with the file's name; the row names it already.
  return text.startsWith(`${r.file}: `) ? text.slice(r.file.length + 2) : text;
}

function csvReport(routes: readonly RouteReport[], stoppedBy: LiveloxError | undefined): string {
  const header = ['file', 'id', 'status', 'event', 'class', 'viewerUrl', 'error'];
  const rows = routes.map((r) =>
    [r.file, r.id ?? '', r.status, r.eventName ?? '', r.className ?? '', r.viewerUrl ?? '', outcome(r, stoppedBy)]
      .map(csvField)
      .join(','),
  );
  return [header.map(csvField).join(','), ...rows].join('\r\n') + '\r\n';
}

/** Whether the batch left something for a person (exit 1). */
function leftWork(result: ImportRoutesResult, inputs: RouteInputs, wait: boolean): boolean {
  if (result.stoppedBy || inputs.problems.length > 0) return true;
  return result.routes.some(
    (r) => r.status === 'failed' || r.status === 'error' || r.status === 'not_sent' || (wait && r.status === 'pending'),
  );
}

function summary(result: ImportRoutesResult, inputs: RouteInputs): string {
  const p = result.progress;
  const parts = [
    `${p.imported} imported`,
    p.skipped > 0 ? `${p.skipped} already done` : '',
    p.pending > 0 ? `${p.pending} pending` : '',
    p.errors > 0 ? `${p.errors} import error${p.errors === 1 ? '' : 's'}` : '',
    p.failed > 0 ? `${p.failed} failed` : '',
    p.notSent > 0 ? `${p.notSent} not sent` : '',
  ].filter((s) => s !== '');
  const other = [
    inputs.skipped.length > 0 ? `${plural(inputs.skipped.length, 'file')} skipped (not GPS or given twice)` : '',
    inputs.problems.length > 0 ? `${plural(inputs.problems.length, 'input')} unreadable` : '',
  ].filter((s) => s !== '');
  return (
    `${plural(p.total, 'route')}: ${parts.join(', ')}; ${plural(result.requests, 'request')} to the service.` +
    (other.length > 0 ? ` ${other.join('; ')}.` : '')
  );
}

export async function run(values: ImportValues, positionals: string[], ctx: CommandContext): Promise<number> {
  const manifest = stringOption(values, 'manifest');
  if (positionals.length === 0 && manifest === undefined) {
    throw new UsageError('give route files, folders or globs (or a --manifest)');
  }
  const classId = intOption(values, 'class-id', 1, Number.MAX_SAFE_INTEGER);
  const deviceModel = stringOption(values, 'device-model') ?? stringOption(values, 'device');
  const firstName = stringOption(values, 'first-name');
  const lastName = stringOption(values, 'last-name');
  // One runner for every route without a manifest's: a person's own files, posted by an app with an API key.
  const person =
    firstName === undefined && lastName === undefined
      ? undefined
      : { ...(firstName === undefined ? {} : { firstName }), ...(lastName === undefined ? {} : { lastName }) };
  const wait = values.wait === true;
  const timeoutS = intOption(values, 'timeout-s', 1, 24 * 3600);
  if (timeoutS !== undefined && !wait) throw new UsageError('--timeout-s is the limit of --wait');
  const importTimeMs = importTimeOption(stringOption(values, 'import-time'));
  const concurrency = intOption(values, 'concurrency', 1, 32) ?? DEFAULT_CONCURRENCY;
  const out = stringOption(values, 'out');
  const outKind = out === undefined ? undefined : extname(out).toLowerCase();
  if (outKind !== undefined && outKind !== '.csv' && outKind !== '.json') {
    throw new UsageError(`--out writes a .csv or .json file, got '${out}'`);
  }
  const quiet = values.quiet === true;
  const mode: ProgressMode =
    values['progress-lines'] === true
      ? 'lines'
      : quiet || ctx.json
        ? 'none'
        : stderr.isTTY === true
          ? 'bar'
          : 'periodic';
  const journalPath = stringOption(values, 'journal') ?? defaultJournalPath(ctx.env);

  const inputs = await expandRouteInputs(positionals, {
    ...(manifest === undefined ? {} : { manifest }),
    signal: ctx.signal,
  });
  if (!quiet && !ctx.json) {
    for (const p of inputs.problems) ctx.io.err(`livelox-bridge import: ${clean(p.message)}`);
  }
  const routes = person ? inputs.routes.map((r) => (r.person ? r : { ...r, person })) : inputs.routes;
  let journal;
  try {
    journal = openImportJournal(journalPath);
  } catch (err) {
    if (!(err instanceof StateError)) throw err;
    return failure(ctx, err, 'Nothing was sent.');
  }
  let result: ImportRoutesResult;
  try {
    const session = await openService(values, ctx, { auth: 'any' });
    const view = progressView(mode, (line) => ctx.io.err(line), routes.length);
    try {
      if (routes.some((r) => r.person) && !session.client.auth.honoursPerson) {
        throw new UsageError(
          "a runner (--first-name/--last-name, a manifest's names) is used only with an API key; with a login the route belongs to the logged-in user",
        );
      }
      result = await importRoutesJob({
        client: session.client,
        journal,
        routes,
        wait,
        concurrency,
        ...(classId === undefined ? {} : { classId }),
        ...(deviceModel === undefined ? {} : { deviceModel }),
        ...(importTimeMs === undefined ? {} : { importTimeMs }),
        waitTimeoutMs: (timeoutS ?? DEFAULT_IMPORT_TIMEOUT_S) * 1000,
        reimportDeleted: values['reimport-deleted'] === true,
        retryErrors: values['retry-errors'] === true,
        signal: ctx.signal,
        onProgress: (p) => view.update(p),
      });
    } finally {
      view.stop();
      await session.close();
    }
  } finally {
    journal.close();
  }

  const ok = !leftWork(result, inputs, wait) && !result.interrupted;
  const document = {
    ok,
    interrupted: result.interrupted,
    ...(result.stoppedBy ? { stoppedBy: errorJson(result.stoppedBy) } : {}),
    routes: result.routes.map(routeJson),
    progress: result.progress,
    skipped: inputs.skipped,
    problems: inputs.problems,
  };
  if (out !== undefined) {
    const text = outKind === '.csv' ? csvReport(result.routes, result.stoppedBy) : JSON.stringify(document, null, 2);
    await writeFileAtomic(out, Buffer.from(text, 'utf8'));
  }
  if (ctx.json) ctx.io.out(JSON.stringify(document));
  else report(result, inputs, ctx, quiet);
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

function report(result: ImportRoutesResult, inputs: RouteInputs, ctx: CommandContext, quiet: boolean): void {
  const stoppedBy = result.stoppedBy;
  // A batch stopped by a refused key is one message: the routes it never sent are counted, not listed.
  const rows = stoppedBy ? result.routes.filter((r) => r.status !== 'not_sent') : result.routes;
  if (!quiet && rows.length > 0) {
    ctx.io.out(
      table(
        rows,
        [
          { header: 'file', cell: (r) => r.file, maxWidth: 40, shrink: true, keep: 'end' },
          { header: 'id', cell: (r) => r.id ?? '-' },
          { header: 'status', cell: (r) => r.status.replace('_', ' '), style: (r) => STATUS_STYLE[r.status] },
          { header: 'event', cell: (r) => r.eventName ?? '', maxWidth: 40, shrink: true },
          { header: 'class', cell: (r) => r.className ?? '', maxWidth: 20, shrink: true },
          { header: 'viewer url / error', cell: (r) => outcome(r, stoppedBy) },
        ],
        terminal(ctx.env),
      ),
    );
  }
  ctx.io.out(summary(result, inputs));
  if (stoppedBy instanceof StateError) {
    ctx.io.err(
      `livelox-bridge import: ${errorText(stoppedBy)} The batch was stopped: nothing more was sent. A route ` +
        'posted whose answer the journal could not take is asked about by the next run, never posted blindly.',
    );
  } else if (stoppedBy) {
    ctx.io.err(`livelox-bridge import: ${errorText(stoppedBy)} The batch was stopped; the journal keeps its place.`);
  }
  if (result.interrupted) {
    const p = result.progress;
    ctx.io.err(
      `livelox-bridge import: stopped. ${p.imported + p.skipped} done, ${p.pending} pending, ${p.notSent} not sent; ` +
        'run the same command again to finish.',
    );
  }
}
