/**
 * What `import` says when it is done: a table of routes and a summary line on stdout (for a dry run, each route's
 * decision and why), a line on stderr for each route edited since an earlier import, and the same report as data for
 * `--json` and `--out`.
 */
import { StateError, type LiveloxError } from '../../../errors.js';
import type { ImportDecision } from '../../../jobs/import-routes/decision.js';
import type { RouteInputs } from '../../../jobs/import-routes/inputs.js';
import type { ImportRoutesResult, RouteReport } from '../../../jobs/import-routes/job.js';
import { csvField } from '../../../links/render.js';
import { importReportPage } from '../../../pictures/import-report-page.js';
import { clean, plural, table, terminal, type Style } from '../../format.js';
import { errorJson, errorText } from '../../hints.js';
import type { CommandContext } from '../../spec.js';

const STATUS_STYLE: Record<RouteReport['status'], Style> = {
  imported: 'green',
  skipped: 'green',
  pending: 'yellow',
  not_sent: 'yellow',
  error: 'red',
  failed: 'red',
};

/** One report row as data (--json, --out): the typed error in the CLI's words. */
export function routeJson(r: RouteReport): Record<string, unknown> {
  const { error, ...rest } = r;
  return { ...rest, ...(error ? { error: errorJson(error) } : {}) };
}

/** Why a route was not imported: the service's reason, our error, or nothing (imported, or not sent by a stop). */
function problemText(r: RouteReport, stoppedBy: LiveloxError | undefined): string {
  if (r.error !== undefined && r.error === stoppedBy) return '';
  const text = r.errorMessage ?? (r.error ? errorText(r.error) : '');
  // File errors start with the file's name; the row names it already.
  return text.startsWith(`${r.file}: `) ? text.slice(r.file.length + 2) : text;
}

/** The viewer url, or why there is none. */
function outcome(r: RouteReport, stoppedBy: LiveloxError | undefined): string {
  return r.viewerUrl ?? problemText(r, stoppedBy);
}

/**
 * An edited file, in words: "imported earlier as lb-…; imported now as a new route". The earlier route stays at the
 * service (it has no delete), which is why this is said rather than done quietly.
 */
export function changedText(r: RouteReport): string {
  const c = r.changed;
  if (c === undefined) return '';
  const earlier = c.replaced
    ? `${c.imported ? 'imported' : 'sent'} earlier under this id with other content`
    : `${c.imported ? 'imported' : 'sent'} earlier as ${c.id}`;
  const verb = r.status === 'imported' ? 'imported' : r.status === 'pending' ? 'posted' : undefined;
  if (c.replaced) return `${earlier}; ${verb === undefined ? 'a run replaces it' : `replaced now (${verb})`}`;
  if (r.status === 'not_sent' && r.decision !== undefined) return `${earlier}; a run imports it as a new route`;
  return verb === undefined ? earlier : `${earlier}; ${verb} now as a new route`;
}

export function csvReport(routes: readonly RouteReport[], stoppedBy: LiveloxError | undefined): string {
  const header = ['file', 'id', 'status', 'event', 'class', 'viewerUrl', 'error', 'changed'];
  const rows = routes.map((r) =>
    [
      r.file,
      r.id ?? '',
      r.status,
      r.eventName ?? '',
      r.className ?? '',
      r.viewerUrl ?? '',
      problemText(r, stoppedBy),
      changedText(r),
    ]
      .map(csvField)
      .join(','),
  );
  return [header.map(csvField).join(','), ...rows].join('\r\n') + '\r\n';
}

/** Whether the batch left something for a person (exit 1). */
export function leftWork(result: ImportRoutesResult, inputs: RouteInputs, wait: boolean, dryRun: boolean): boolean {
  if (result.stoppedBy || inputs.problems.length > 0) return true;
  // A dry run sends nothing: what is left is what no run could do (an unreadable file, an import that ended in error).
  if (dryRun) return result.routes.some((r) => r.status === 'failed' || r.status === 'error');
  return result.routes.some(
    (r) => r.status === 'failed' || r.status === 'error' || r.status === 'not_sent' || (wait && r.status === 'pending'),
  );
}

function inputsText(inputs: RouteInputs): string {
  const other = [
    inputs.skipped.length > 0 ? `${plural(inputs.skipped.length, 'file')} skipped (not GPS or given twice)` : '',
    inputs.problems.length > 0 ? `${plural(inputs.problems.length, 'input')} unreadable` : '',
  ].filter((s) => s !== '');
  return other.length > 0 ? ` ${other.join('; ')}.` : '';
}

function summary(result: ImportRoutesResult, inputs: RouteInputs): string {
  const p = result.progress;
  const changed = result.routes.filter((r) => r.changed !== undefined).length;
  const parts = [
    `${p.imported} imported`,
    p.skipped > 0 ? `${p.skipped} already done` : '',
    p.pending > 0 ? `${p.pending} pending` : '',
    p.errors > 0 ? `${p.errors} import error${p.errors === 1 ? '' : 's'}` : '',
    p.failed > 0 ? `${p.failed} failed` : '',
    p.notSent > 0 ? `${p.notSent} not sent` : '',
    changed > 0 ? `${changed} edited since an earlier import` : '',
  ].filter((s) => s !== '');
  return `${plural(p.total, 'route')}: ${parts.join(', ')}; ${plural(result.requests, 'request')} to the service.${inputsText(inputs)}`;
}

const DECISION_WORDS: Record<ImportDecision, string> = {
  post: 'post',
  skip: 'skip',
  poll: 'poll',
  ask: 'ask',
  post_again: 'post again',
};

/** Why a dry run decided so, in the words of a person reading the table. */
function decisionReason(r: RouteReport, stoppedBy: LiveloxError | undefined): string {
  const changed = changedText(r);
  if (r.decision === undefined) return problemText(r, stoppedBy);
  switch (r.decision) {
    case 'skip':
      if (r.status === 'error') return `its import ended in error: ${problemText(r, stoppedBy)}`;
      return r.fromJournal ? `imported earlier${r.viewerUrl ? `: ${r.viewerUrl}` : ''}` : problemText(r, stoppedBy);
    case 'poll':
      return 'posted earlier, not settled: a run asks for its state';
    case 'ask':
      return 'the journal cannot tell whether the service has it: a run asks, and posts it only if not';
    case 'post_again':
      return changed || 'sent earlier with other content or details: a run posts it again under its id';
    case 'post':
      return changed;
  }
}

function dryRunSummary(result: ImportRoutesResult, inputs: RouteInputs): string {
  const count = (d: ImportDecision) => result.routes.filter((r) => r.decision === d).length;
  const parts = (Object.keys(DECISION_WORDS) as ImportDecision[])
    .map((d) => [count(d), `to ${DECISION_WORDS[d]}`] as const)
    .filter(([n]) => n > 0)
    .map(([n, words]) => `${n} ${words}`);
  const unreadable = result.routes.filter((r) => r.decision === undefined).length;
  if (unreadable > 0) parts.push(`${unreadable} failed`);
  return (
    `${plural(result.progress.total, 'route')}: ${parts.length > 0 ? parts.join(', ') : 'nothing to do'}. ` +
    `Dry run: nothing was sent, nothing written.${inputsText(inputs)}`
  );
}

export function printReport(
  result: ImportRoutesResult,
  inputs: RouteInputs,
  ctx: CommandContext,
  options: { quiet: boolean; dryRun: boolean },
): void {
  const stoppedBy = result.stoppedBy;
  // A batch stopped by a refused key is one message: the routes it never sent are counted, not listed.
  const rows = stoppedBy ? result.routes.filter((r) => r.status !== 'not_sent') : result.routes;
  if (!options.quiet && rows.length > 0) {
    const file = { header: 'file', cell: (r: RouteReport) => r.file, maxWidth: 40, shrink: true, keep: 'end' as const };
    const id = { header: 'id', cell: (r: RouteReport) => r.id ?? '-' };
    const columns = options.dryRun
      ? [
          file,
          id,
          {
            header: 'decision',
            cell: (r: RouteReport) => (r.decision ? DECISION_WORDS[r.decision] : r.status),
            style: (r: RouteReport) => (r.decision ? 'green' : STATUS_STYLE[r.status]),
          },
          { header: 'why', cell: (r: RouteReport) => decisionReason(r, stoppedBy) },
        ]
      : [
          file,
          id,
          {
            header: 'status',
            cell: (r: RouteReport) => r.status.replace('_', ' '),
            style: (r: RouteReport) => STATUS_STYLE[r.status],
          },
          { header: 'event', cell: (r: RouteReport) => r.eventName ?? '', maxWidth: 40, shrink: true },
          { header: 'class', cell: (r: RouteReport) => r.className ?? '', maxWidth: 20, shrink: true },
          { header: 'viewer url / error', cell: (r: RouteReport) => outcome(r, stoppedBy) },
        ];
    ctx.io.out(table(rows, columns, terminal(ctx.env)));
  }
  ctx.io.out(options.dryRun ? dryRunSummary(result, inputs) : summary(result, inputs));
  if (!options.quiet && !options.dryRun) {
    for (const r of result.routes.filter((x) => x.changed !== undefined)) {
      ctx.io.err(`livelox-bridge import: ${clean(r.file)} was edited: ${changedText(r)}.`);
    }
  }
  for (const note of endNotes(result)) ctx.io.err(`livelox-bridge import: ${note}`);
}

/** What the report says after its table when the batch was stopped or interrupted. */
function endNotes(result: ImportRoutesResult): string[] {
  const stoppedBy = result.stoppedBy;
  const notes: string[] = [];
  if (stoppedBy instanceof StateError) {
    notes.push(
      `${errorText(stoppedBy)} The batch was stopped: nothing more was sent. A route ` +
        'posted whose answer the journal could not take is asked about by the next run, never posted blindly.',
    );
  } else if (stoppedBy) {
    notes.push(`${errorText(stoppedBy)} The batch was stopped; the journal keeps its place.`);
  }
  if (result.interrupted) {
    const p = result.progress;
    notes.push(
      `stopped. ${p.imported + p.skipped} done, ${p.pending} pending, ${p.notSent} not sent; ` +
        'run the same command again to finish.',
    );
  }
  return notes;
}

/** The report as a page (`--html`): the summary line and counts at the top, every route, failures first. */
export function htmlReport(result: ImportRoutesResult, inputs: RouteInputs, ok: boolean, writtenAt: Date): string {
  const p = result.progress;
  const changed = result.routes.filter((r) => r.changed !== undefined).length;
  return importReportPage({
    writtenAt: writtenAt.toISOString(),
    ok,
    summary: summary(result, inputs),
    notes: [...inputs.problems.map((x) => clean(x.message)), ...endNotes(result)],
    counts: [
      { label: 'routes', value: p.total },
      { label: 'imported', value: p.imported },
      { label: 'already done', value: p.skipped },
      { label: 'pending', value: p.pending, attention: true },
      { label: 'import errors', value: p.errors, attention: true },
      { label: 'failed', value: p.failed, attention: true },
      { label: 'not sent', value: p.notSent, attention: true },
      { label: 'edited since an earlier import', value: changed, attention: true },
    ],
    routes: result.routes.map((r) => ({
      file: clean(r.file),
      ...(r.id === undefined ? {} : { id: r.id }),
      status: r.status,
      ...(r.eventName === undefined ? {} : { eventName: clean(r.eventName) }),
      ...(r.className === undefined ? {} : { className: clean(r.className) }),
      ...(r.viewerUrl === undefined ? {} : { viewerUrl: r.viewerUrl }),
      problem: clean(problemText(r, result.stoppedBy)),
      changed: changedText(r),
    })),
  });
}
