/**
 * Sync's status in the CLI's words: the status page (`sync --status-html`, `sync status --html`) and the text of
 * `sync status`, from the sync job's status of the state (jobs/sync/status.ts) and, after a run, what the run said.
 * The words are the run report's: each thing that needs a person is the report's `!` line, the change counts its
 * "Changes:" line, and the advice the line under them; only here do they name a flag (`--pin`).
 */
import type { SyncChange } from '../../../jobs/sync/changes.js';
import type { SyncRunStatus, SyncStatus } from '../../../jobs/sync/status.js';
import type {
  StatusEventRow,
  StatusGone,
  StatusLostClass,
  StatusRun,
  StatusUnlinked,
  SyncStatusPageInput,
} from '../../../pictures/sync-status-page.js';
import type { LinkRecord } from '../../../store/sync-state.js';
import { clean, plural } from '../../format.js';
import { durationText } from '../../../pictures/page-parts.js';
import { shellWord } from '../../shell-word.js';

/** What a person does about a `!` line. */
export const PIN_ADVICE = 'pin a link with --pin KEY=EVENTID, or fix the portal.';

/** The line under the `!` lines of a report. */
export const ATTENTION_LINE = `Lines marked ! need a person: ${PIN_ADVICE}`;

/** One change as a report line: `! KEY: message` for what needs a person, indented otherwise. */
export function changeLine(c: SyncChange): string {
  return clean(`${c.attention ? '! ' : '  '}${c.key}: ${c.message}`);
}

/** Change counts by kind in words, `portal added 8, newly linked 8`; '' for none. */
export function changeCountsText(counts: Iterable<readonly [string, number]>): string {
  return [...counts].map(([k, n]) => `${k.replace(/_/g, ' ')} ${n}`).join(', ');
}

/** The words that pin `key` to service event `id`, ready to paste into a command line. */
export function pinWords(key: string, id: number): string {
  return `--pin ${shellWord(`${key}=${id}`)}`;
}

/** What the run that writes a page did. */
export interface RunFacts {
  startedAt: string;
  durationMs: number;
  requests: number | undefined;
  exitCode: number;
  committed: boolean;
  /** The run failed: what went wrong, in the words the command printed. */
  failure?: string;
  /** What changed, from the run's result (absent when it failed before one). */
  changes?: readonly SyncChange[];
  /** Fragments not written (`sync --out-dir`): a file this tool did not write is at each one's name. */
  fragmentConflicts?: ReadonlyArray<{ key: string; file: string }>;
}

const UNLINKED = new Set(['still_unmatched', 'still_ambiguous', 'unlinked']);
const GONE = new Set(['gone', 'still_gone']);
const LOST = new Set(['class_unmapped', 'still_class_unmapped']);
/** Counts a run's summary keeps beside its change kinds. */
const NOT_CHANGES = new Set(['portalEvents', 'mirror']);

function historyRun(r: SyncRunStatus): StatusRun {
  return {
    startedAt: r.startedAt,
    ...(r.durationMs === undefined ? {} : { durationMs: r.durationMs }),
    requests: r.requests,
    exitCode: r.attention ? 1 : 0,
    outcome: 'committed',
    changes: changeCountsText(Object.entries(r.summary).filter(([k]) => !NOT_CHANGES.has(k))),
  };
}

function eventText(link: LinkRecord | undefined): string | undefined {
  return link?.eventId === undefined ? undefined : `${link.eventName ?? '?'} (${link.eventId})`;
}

/** What needs a person, sorted into the page's sections, each in the report's words. */
function needsPerson(attention: readonly SyncChange[], links: ReadonlyMap<string, LinkRecord>) {
  const unlinked: StatusUnlinked[] = [];
  const gone: StatusGone[] = [];
  const lostClasses: StatusLostClass[] = [];
  const other: Array<{ key: string; words: string }> = [];
  const lostKeys = new Set<string>();
  for (const c of attention) {
    const link = links.get(c.key);
    if (UNLINKED.has(c.kind)) {
      const candidates = (link?.candidates ?? []).map((k) => ({ ...k, pin: pinWords(c.key, k.id) }));
      unlinked.push({ key: c.key, words: clean(c.message), candidates });
    } else if (GONE.has(c.kind)) {
      gone.push({
        key: c.key,
        event: eventText(link) ?? '?',
        reason: clean(link?.reason ?? c.message),
        ...(link?.since === undefined ? {} : { since: link.since }),
      });
    } else if (LOST.has(c.kind) && link && !lostKeys.has(c.key)) {
      lostKeys.add(c.key);
      for (const k of link.classes) {
        if (k.status !== 'unmapped') continue;
        lostClasses.push({
          key: c.key,
          className: clean(k.name),
          was: clean(`${k.was.serviceClass} (${k.was.classId})`),
          reason: clean(k.reason),
          since: k.since,
        });
      }
    } else if (!LOST.has(c.kind)) {
      other.push({ key: clean(c.key), words: clean(c.message) });
    }
  }
  const advice = `${PIN_ADVICE.charAt(0).toUpperCase()}${PIN_ADVICE.slice(1)}`;
  return { unlinked, gone, lostClasses, other, advice };
}

/** A fragment that could not be written needs a person as much as an event not linked: said with the others. */
function withConflicts(
  needs: ReturnType<typeof needsPerson>,
  conflicts: ReadonlyArray<{ key: string; file: string }>,
): ReturnType<typeof needsPerson> {
  for (const c of conflicts) {
    needs.other.push({
      key: clean(c.key),
      words: clean(`fragment not written: a file this tool did not write is at ${c.file}; move it away and run again`),
    });
  }
  return needs;
}

function eventRow(e: SyncStatus['events'][number]): StatusEventRow {
  const link = e.link;
  const unmatched = link?.unmatchedPortalClasses ?? [];
  const note =
    link === undefined
      ? 'its input could not be read yet'
      : link.status !== 'linked'
        ? link.reason
        : unmatched.length > 0
          ? `no service class for ${unmatched.join(', ')}`
          : '';
  const service = eventText(link);
  return {
    key: clean(e.key),
    name: clean(e.name),
    ...(e.start === undefined ? {} : { start: e.start }),
    status: link?.status ?? 'unknown',
    ...(service === undefined ? {} : { serviceEvent: clean(service) }),
    pinned: e.pinned !== undefined,
    classesLinked: link?.classes.filter((c) => c.status === 'linked').length ?? 0,
    classesUnmapped: link?.classes.filter((c) => c.status === 'unmapped').length ?? 0,
    note: clean(note),
  };
}

function countsOf(status: SyncStatus): SyncStatusPageInput['counts'] {
  const c = status.counts;
  return [
    { label: 'portal events', value: c.portalEvents },
    { label: 'linked', value: c.linked },
    { label: 'ambiguous', value: c.ambiguous, attention: true },
    { label: 'not found', value: c.notFound, attention: true },
    { label: 'gone', value: c.gone, attention: true },
    { label: 'classes linked', value: c.classesLinked },
    { label: 'classes that lost their link', value: c.classesUnmapped, attention: true },
    { label: 'pins', value: c.pins },
    { label: 'service events mirrored', value: c.mirror },
    { label: 'runs', value: status.runs },
  ];
}

/**
 * The page's input: the state's status (undefined when it could not be read: `stateProblem` says why) and, for a page
 * a run writes, that run. What needs a person is what the run said; without a run, what the state holds.
 */
export function statusPageInput(
  status: SyncStatus | undefined,
  options: { statePath: string; writtenAt: Date; run?: RunFacts; stateProblem?: string },
): SyncStatusPageInput {
  const run = options.run;
  const links = new Map((status?.events ?? []).flatMap((e) => (e.link ? [[e.key, e.link] as const] : [])));
  const attention = run?.changes?.filter((c) => c.attention) ?? status?.attention ?? [];
  const runCounts = new Map<string, number>();
  for (const c of run?.changes ?? []) runCounts.set(c.kind, (runCounts.get(c.kind) ?? 0) + 1);
  return {
    statePath: options.statePath,
    writtenAt: options.writtenAt.toISOString(),
    ...(run === undefined
      ? {}
      : {
          run: {
            startedAt: run.startedAt,
            durationMs: run.durationMs,
            ...(run.requests === undefined ? {} : { requests: run.requests }),
            exitCode: run.exitCode,
            outcome: run.committed
              ? run.failure === undefined
                ? 'committed'
                : 'committed, then failed'
              : 'nothing committed',
            ...(run.changes === undefined ? {} : { changes: changeCountsText(runCounts) }),
            ...(run.failure === undefined ? {} : { failure: run.failure }),
          },
        }),
    ...(options.stateProblem === undefined ? {} : { stateProblem: options.stateProblem }),
    needsPerson: withConflicts(needsPerson(attention, links), run?.fragmentConflicts ?? []),
    counts: status ? countsOf(status) : [],
    runs: (status?.recentRuns ?? []).map(historyRun),
    totalRuns: status?.runs ?? 0,
    events: (status?.events ?? []).map(eventRow),
  };
}

/** `sync status` in text: the state's summary, the last run, then the `!` lines as a run prints them. */
export function statusLines(status: SyncStatus): string[] {
  const c = status.counts;
  const lines = [
    `${status.state}: ${plural(c.portalEvents, 'portal event')}: ${c.linked} linked, ${c.portalEvents - c.linked} not` +
      ` (${c.ambiguous} ambiguous, ${c.notFound} not found, ${c.gone} gone); ${plural(c.classesUnmapped, 'class', 'classes')} lost their link; ${plural(status.runs, 'run')}.`,
  ];
  const last = status.recentRuns[0];
  if (last) {
    const took = last.durationMs === undefined ? '' : `, took ${durationText(last.durationMs)}`;
    lines.push(
      `Last run: ${last.startedAt}${took}, ${plural(last.requests, 'request')}, exit ${last.attention ? 1 : 0}.`,
    );
  }
  for (const change of status.attention) lines.push(changeLine(change));
  if (status.attention.length > 0) lines.push(ATTENTION_LINE);
  return lines;
}
