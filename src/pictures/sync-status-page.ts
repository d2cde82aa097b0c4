/**
 * The sync status page: what a portal operator reads instead of a cron mail. It says first whether the last run
 * failed (and why), then what needs a person (events not linked with their candidates and the line that pins each,
 * classes that lost their link, events gone, inputs that could not be read), the counts, the last runs, and every
 * portal event with its link status. Pure: handed words and figures in its own shapes (the CLI maps the sync job's
 * status into them), it words only its headings.
 */
import { htmlPage } from './page.js';
import { countsList, durationText, htmlTable, REPORT_CSS, text, timeText, whole } from './page-parts.js';

/** A run, as the page shows it: the one that wrote the page, or one of the state's run log. */
export interface StatusRun {
  startedAt: string;
  durationMs?: number;
  requests?: number;
  exitCode?: number;
  /** What came of it, in words: `committed`, `failed: nothing committed`. */
  outcome: string;
  /** What changed, in words (counts by kind). */
  changes?: string;
}

export interface StatusCandidate {
  id: number;
  name: string;
  start: string;
  score: number;
  /** The command-line words that pin the portal event to this candidate, ready to paste. */
  pin: string;
}

/** A portal event with no link (unmatched, ambiguous, unlinked tonight): the report's words and its candidates. */
export interface StatusUnlinked {
  key: string;
  words: string;
  candidates: readonly StatusCandidate[];
}

export interface StatusLostClass {
  key: string;
  className: string;
  /** The service class it was linked to, `H70 (711804)`. */
  was: string;
  reason: string;
  since: string;
}

export interface StatusGone {
  key: string;
  /** The service event that went, `OK Tyrs nattävling (107132)`. */
  event: string;
  reason: string;
  since?: string;
}

export type StatusEventState = 'linked' | 'ambiguous' | 'not_found' | 'gone' | 'unknown';

/** One portal event in the table of all of them. */
export interface StatusEventRow {
  key: string;
  name: string;
  start?: string;
  status: StatusEventState;
  /** The linked (or, when gone, last linked) service event, `Name (id)`. */
  serviceEvent?: string;
  pinned: boolean;
  classesLinked: number;
  classesUnmapped: number;
  /** Why it stands so (for every status but linked), in the report's words. */
  note: string;
}

export interface SyncStatusPageInput {
  /** The state file the page tells of. */
  statePath: string;
  /** When the page was written. */
  writtenAt: string;
  /** The run that wrote the page; absent for a page written from the state alone. */
  run?: StatusRun & {
    /** The run failed: what went wrong and what was (not) done, in words. Said first on the page. */
    failure?: string;
  };
  /** Why the state could not be read: the page then tells only of the run. */
  stateProblem?: string;
  needsPerson: {
    unlinked: readonly StatusUnlinked[];
    lostClasses: readonly StatusLostClass[];
    gone: readonly StatusGone[];
    /** Anything else that needs a person (an input that could not be read), in the report's words. */
    other: ReadonlyArray<{ key: string; words: string }>;
    /** What to do, in the report's words. */
    advice: string;
  };
  counts: ReadonlyArray<{ label: string; value: number; attention?: boolean }>;
  /** The last runs, newest first, and how many the state has logged in all. */
  runs: readonly StatusRun[];
  totalRuns: number;
  events: readonly StatusEventRow[];
}

const STATUS_WORDS: Record<StatusEventState, { mark: string; words: string; tone: string }> = {
  linked: { mark: '✓', words: 'linked', tone: 'good' },
  ambiguous: { mark: '?', words: 'ambiguous', tone: 'warn' },
  not_found: { mark: '✗', words: 'not found', tone: 'bad' },
  gone: { mark: '⊘', words: 'gone', tone: 'bad' },
  unknown: { mark: '–', words: 'not linked yet', tone: 'warn' },
};

const code = (words: string): string => `<code>${text(words)}</code>`;

function statusCell(status: StatusEventState): string {
  const s = STATUS_WORDS[status];
  return `<span class="status ${s.tone}" data-status="${status}">${s.mark} ${text(s.words)}</span>`;
}

function needsCount(input: SyncStatusPageInput): number {
  const n = input.needsPerson;
  return n.unlinked.length + n.lostClasses.length + n.gone.length + n.other.length;
}

/** The banner: a failed run first, then whether anything needs a person. */
function verdict(input: SyncStatusPageInput): string {
  const code = input.run?.exitCode;
  const exit = code === undefined ? '' : ` (exit ${code})`;
  if (input.run?.failure !== undefined) {
    return `<div class="verdict bad" id="verdict" data-verdict="failed"><strong>THE RUN FAILED</strong>${text(exit)}: ${text(input.run.failure)}</div>`;
  }
  if (input.stateProblem !== undefined) {
    return `<div class="verdict bad" id="verdict" data-verdict="unreadable"><strong>THE STATE CANNOT BE READ</strong>${text(exit)}: ${text(input.stateProblem)}</div>`;
  }
  const n = needsCount(input);
  if (n > 0) {
    const what = n === 1 ? '1 thing needs a person' : `${n} things need a person`;
    return `<div class="verdict warn" id="verdict" data-verdict="attention"><strong>NEEDS A PERSON</strong>${text(exit)}: ${text(what)}, listed below.</div>`;
  }
  return `<div class="verdict ok" id="verdict" data-verdict="ok"><strong>ALL LINKED</strong>${text(exit)}: nothing needs a person.</div>`;
}

function runFacts(run: StatusRun): string {
  const facts: Array<[string, string]> = [
    ['started', timeText(run.startedAt)],
    ['took', run.durationMs === undefined ? 'not recorded' : durationText(run.durationMs)],
    ['requests to the service', run.requests === undefined ? 'not known' : String(run.requests)],
    ['exit code', run.exitCode === undefined ? 'not recorded' : String(run.exitCode)],
    ['outcome', run.outcome],
  ];
  if (run.changes) facts.push(['changes', run.changes]);
  return htmlTable({ className: 'last-run', rows: facts.map(([k, v]) => ({ cells: [text(k), text(v)] })) });
}

function unlinkedSection(items: readonly StatusUnlinked[]): string {
  if (items.length === 0) return '';
  const blocks = items.map((u) => {
    const table =
      u.candidates.length === 0
        ? '<p class="muted">No candidate on the service.</p>'
        : htmlTable({
            className: 'candidates',
            caption: 'Candidates, best first: paste the line of the right one into the next run.',
            head: ['service event', 'id', 'date', 'score', 'pin it'],
            rows: u.candidates.map((c) => ({
              cells: [
                text(c.name),
                String(c.id),
                whole(text(c.start.slice(0, 10))),
                String(c.score),
                `<code class="pin">${text(c.pin)}</code>`,
              ],
            })),
          });
    return `<div class="item unlinked" data-key="${text(u.key)}"><p>${code(u.key)}: ${text(u.words)}</p>\n${table}</div>`;
  });
  return `<h3>Portal events not linked</h3>\n${blocks.join('\n')}`;
}

function lostClassesSection(items: readonly StatusLostClass[]): string {
  if (items.length === 0) return '';
  return `<h3>Classes that lost their link</h3>\n${htmlTable({
    className: 'lost-classes wide',
    head: ['portal event', 'class', 'was linked to', 'since', 'why'],
    rows: items.map((c) => ({
      cells: [code(c.key), text(c.className), text(c.was), whole(text(timeText(c.since))), text(c.reason)],
    })),
  })}`;
}

function goneSection(items: readonly StatusGone[]): string {
  if (items.length === 0) return '';
  return `<h3>Events gone from the service</h3>\n${htmlTable({
    className: 'gone wide',
    head: ['portal event', 'service event', 'since', 'why'],
    rows: items.map((g) => ({
      cells: [code(g.key), text(g.event), whole(text(g.since === undefined ? '' : timeText(g.since))), text(g.reason)],
    })),
  })}`;
}

function otherSection(items: SyncStatusPageInput['needsPerson']['other']): string {
  if (items.length === 0) return '';
  const list = items.map((o) => `<li>${code(o.key)}: ${text(o.words)}</li>`).join('\n');
  return `<h3>Inputs that could not be read</h3>\n<ul class="problems">\n${list}\n</ul>`;
}

function needsPersonSection(input: SyncStatusPageInput): string {
  if (input.stateProblem !== undefined) return '';
  const n = input.needsPerson;
  if (needsCount(input) === 0) return '<h2 id="needs-person">Needs a person</h2>\n<p>Nothing.</p>';
  return [
    '<h2 id="needs-person">Needs a person</h2>',
    `<p>${text(n.advice)}</p>`,
    unlinkedSection(n.unlinked),
    lostClassesSection(n.lostClasses),
    goneSection(n.gone),
    otherSection(n.other),
  ]
    .filter(Boolean)
    .join('\n');
}

function runsSection(input: SyncStatusPageInput): string {
  if (input.runs.length === 0)
    return '<h2>Last runs</h2>\n<p class="muted">No run has committed to this state yet.</p>';
  const shown = input.runs.length < input.totalRuns ? ` (the last ${input.runs.length} of ${input.totalRuns})` : '';
  return `<h2>Last runs${text(shown)}</h2>\n${htmlTable({
    className: 'runs wide',
    head: ['started', 'took', 'requests', 'exit', 'changes'],
    rows: input.runs.map((r) => ({
      className: r.exitCode === 0 ? '' : 'attention',
      cells: [
        whole(text(timeText(r.startedAt))),
        whole(text(r.durationMs === undefined ? '' : durationText(r.durationMs))),
        r.requests === undefined ? '' : String(r.requests),
        r.exitCode === undefined ? '' : String(r.exitCode),
        text(r.changes ?? ''),
      ],
    })),
  })}`;
}

function eventsSection(events: readonly StatusEventRow[]): string {
  if (events.length === 0) return '<h2>Portal events</h2>\n<p class="muted">None yet.</p>';
  return `<h2>Portal events (${events.length})</h2>\n${htmlTable({
    className: 'events wide',
    head: ['portal event', 'name', 'date', 'status', 'service event', 'classes', 'note'],
    rows: events.map((e) => {
      const classes = [
        `${e.classesLinked} linked`,
        ...(e.classesUnmapped > 0 ? [`${e.classesUnmapped} lost their link`] : []),
      ].join(', ');
      return {
        className: e.status === 'linked' && e.classesUnmapped === 0 ? '' : 'attention',
        cells: [
          code(e.key),
          text(e.name),
          whole(text(e.start?.slice(0, 10) ?? '')),
          statusCell(e.status),
          text(`${e.serviceEvent ?? ''}${e.pinned ? ' (pinned)' : ''}`),
          text(classes),
          text(e.note),
        ],
      };
    }),
  })}`;
}

export function syncStatusPage(input: SyncStatusPageInput): string {
  const source = input.run
    ? `Written after a run of livelox-bridge sync, ${timeText(input.writtenAt)}.`
    : `Written from the state, without a run, ${timeText(input.writtenAt)}.`;
  // Without a run of its own, the last run is the newest of the run log.
  const last = input.run ?? input.runs[0];
  const parts = [
    `<h1>Sync status</h1>`,
    `<p class="muted">State ${code(input.statePath)}. ${text(source)}</p>`,
    verdict(input),
    last ? `<h2>Last run</h2>\n${runFacts(last)}` : '',
    needsPersonSection(input),
  ];
  if (input.stateProblem === undefined) {
    parts.push('<h2>Counts</h2>', countsList(input.counts), runsSection(input), eventsSection(input.events));
  }
  return htmlPage({
    lang: 'en',
    title: `Sync status: ${input.statePath}`,
    css: REPORT_CSS,
    body: parts.filter(Boolean).join('\n'),
  });
}
