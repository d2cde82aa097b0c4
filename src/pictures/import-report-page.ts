/**
 * The route import's report as a page: a verdict and the counts at the top, then every route with its status and
 * viewer link, those that need a look (failed, ended in error, not sent, still pending) first. Pure: handed the
 * report's rows and words in its own shapes (the CLI maps the import job's result into them).
 */
import { htmlPage } from './page.js';
import { countsList, htmlTable, REPORT_CSS, text, timeText } from './page-parts.js';

/** A route's status, as the import report and its CSV name it. */
export type ImportRouteStatus = 'imported' | 'skipped' | 'pending' | 'not_sent' | 'error' | 'failed';

export interface ImportRouteRow {
  file: string;
  id?: string;
  status: ImportRouteStatus;
  eventName?: string;
  className?: string;
  viewerUrl?: string;
  /** Why it was not imported, in the report's words ('' when it was). */
  problem: string;
  /** The file was edited since an earlier import, in the report's words ('' when not). */
  changed: string;
}

export interface ImportReportPageInput {
  writtenAt: string;
  /** Nothing is left for a person (the command exits 0). */
  ok: boolean;
  /** The report's summary line. */
  summary: string;
  /** More the report said (a batch stopped, an interruption, inputs that could not be read), in its words. */
  notes: readonly string[];
  counts: ReadonlyArray<{ label: string; value: number; attention?: boolean }>;
  routes: readonly ImportRouteRow[];
}

/** Worst first: the order the table lists routes in. */
const ORDER: readonly ImportRouteStatus[] = ['failed', 'error', 'not_sent', 'pending', 'imported', 'skipped'];

const WORDS: Record<ImportRouteStatus, { mark: string; words: string; tone: string }> = {
  failed: { mark: '✗', words: 'failed', tone: 'bad' },
  error: { mark: '✗', words: 'error', tone: 'bad' },
  not_sent: { mark: '–', words: 'not sent', tone: 'warn' },
  pending: { mark: '…', words: 'pending', tone: 'warn' },
  imported: { mark: '✓', words: 'imported', tone: 'good' },
  skipped: { mark: '✓', words: 'already done', tone: 'good' },
};

/** Only web addresses become links: a viewer url is the service's answer, and a page never links `javascript:`. */
function viewerCell(url: string | undefined): string {
  if (url === undefined) return '';
  return /^https?:\/\//i.test(url) ? `<a href="${text(url)}" rel="noopener">${text(url)}</a>` : text(url);
}

/** The folder every file is in (with its last `/`), said once above the table rather than in every row; '' for none. */
function commonFolder(files: readonly string[]): string {
  if (files.length < 2) return '';
  let prefix = files[0]!.slice(0, files[0]!.lastIndexOf('/') + 1);
  for (const f of files)
    while (prefix !== '' && !f.startsWith(prefix))
      prefix = prefix.slice(0, prefix.lastIndexOf('/', prefix.length - 2) + 1);
  return prefix;
}

export function importReportPage(input: ImportReportPageInput): string {
  const routes = [...input.routes].sort((a, b) => ORDER.indexOf(a.status) - ORDER.indexOf(b.status));
  const folder = commonFolder(routes.map((r) => r.file));
  const needLook = routes.filter((r) => ORDER.indexOf(r.status) < ORDER.indexOf('imported')).length;
  const verdict = input.ok
    ? `<div class="verdict ok" id="verdict" data-verdict="ok"><strong>ALL DONE</strong>: ${text(input.summary)}</div>`
    : `<div class="verdict bad" id="verdict" data-verdict="attention"><strong>${needLook === 1 ? '1 ROUTE NEEDS' : `${needLook} ROUTES NEED`} A LOOK</strong>: ${text(input.summary)}</div>`;
  const notes =
    input.notes.length === 0
      ? ''
      : `<ul class="notes">\n${input.notes.map((n) => `<li>${text(n)}</li>`).join('\n')}\n</ul>`;
  const table =
    routes.length === 0
      ? '<p class="muted">No route.</p>'
      : htmlTable({
          className: 'routes wide',
          head: ['file (route id)', 'status', 'event', 'class', 'viewer link / why not'],
          rows: routes.map((r) => {
            const w = WORDS[r.status];
            const why = [r.problem, r.changed].filter(Boolean).map(text).join('<br>');
            return {
              className: ORDER.indexOf(r.status) < ORDER.indexOf('imported') ? 'attention' : '',
              cells: [
                `<code title="${text(r.file)}">${text(r.file.slice(folder.length))}</code>` +
                  (r.id === undefined ? '' : `<br><span class="route-id">${text(r.id)}</span>`),
                `<span class="status ${w.tone}" data-status="${r.status}">${w.mark} ${text(w.words)}</span>`,
                text(r.eventName ?? ''),
                text(r.className ?? ''),
                [viewerCell(r.viewerUrl), why].filter(Boolean).join('<br>'),
              ],
            };
          }),
        });
  const body = [
    '<h1>Route import</h1>',
    `<p class="muted">Written by livelox-bridge import, ${text(timeText(input.writtenAt))}.</p>`,
    verdict,
    countsList(input.counts),
    notes,
    `<h2>Routes (${routes.length})</h2>`,
    folder === '' ? '' : `<p class="muted">Files in <code>${text(folder)}</code></p>`,
    table,
  ];
  return htmlPage({
    lang: 'en',
    title: 'Route import',
    css: `${REPORT_CSS}.route-id { color: var(--muted); font-size: 0.8em; word-break: break-all; }`,
    body: body.filter(Boolean).join('\n'),
  });
}
