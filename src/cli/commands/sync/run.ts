/**
 * `livelox-bridge sync <portal events...>`: the nightly reconciliation. Reads the portal's events, brings the state's
 * mirror of the service up to date, links every portal event, commits, then writes the links document and fragments
 * and tells what changed. Exit codes say what a cron job needs to know: 0 nothing for a person, 1 something is, 2 a
 * wrong command line, 3 the service failed or the disk is full (nothing committed), 4 the state file cannot be used
 * (nothing committed). `--dry-run` does all of it but the commit and the files, reading the state read-only, and exits
 * as the run would.
 */
import { extname } from 'node:path';
import { stderr } from 'node:process';
import { readPortal } from '../../../ems/portal.js';
import {
  ConnectionError,
  HttpError,
  ResponseShapeError,
  StateError,
  TimeoutError,
  type LiveloxError,
} from '../../../errors.js';
import type { NearDays } from '../../../jobs/sync/near.js';
import { syncJob, type SyncJobOptions, type SyncResult } from '../../../jobs/sync/sync.js';
import type { PortalFragmentsResult, WritePortalFragmentsOptions } from '../../../jobs/portal-fragments.js';
import { renderPortalLinks, type PortalLinkFormat } from '../../../links/portal.js';
import { openSqliteStore } from '../../../store/sqlite.js';
import { UsageError, intOption, stringOption } from '../../command.js';
import { clean, plural } from '../../format.js';
import { printJson } from '../../json-output.js';
import { errorJson, errorText } from '../../hints.js';
import { checkOutputFolder, checkOutputPath, writeFileAtomic } from '../../output-files.js';
import { dataFilePath } from '../../data-dir.js';
import { parseDuration } from '../../durations.js';
import { openService } from '../../service.js';
import { EXIT, type CommandContext, type Values } from '../../spec.js';
import { fragmentLines, fragmentOptions, writeFragments } from './fragments.js';
import { SYNC_EXIT, type syncOptions } from './spec.js';
import { ATTENTION_LINE, changeCountsText, changeLine } from './status-page.js';
import { writeStatusPage, type RunRecord } from './status-write.js';

type SyncValues = Values<typeof syncOptions>;

/** Where the state lives without --state: the user's data directory (XDG), as other command-line tools keep theirs. */
export function defaultStatePath(env: Readonly<Record<string, string | undefined>>): string {
  return dataFilePath(env, 'sync.sqlite');
}

/** `1h`, `30m`, `90s`, `1h30m`, `3600000ms`, or a bare number of seconds. */
function durationOption(values: SyncValues, name: 'overlap'): number | undefined {
  const raw = stringOption(values, name);
  if (raw === undefined) return undefined;
  const ms = parseDuration(raw, 's');
  if (ms === undefined) throw new UsageError(`--${name} takes a duration such as 1h, 30m or 90s, got '${raw}'`);
  if (ms > 30 * 86_400_000) throw new UsageError(`--${name} is at most 30 days, got '${raw}'`);
  return ms;
}

function pinsOption(values: SyncValues): Record<string, number> {
  const raw = values.pin;
  const list = Array.isArray(raw) ? raw : raw === undefined ? [] : [raw];
  const pins: Record<string, number> = {};
  for (const item of list) {
    const m = typeof item === 'string' ? /^(.+)=(\d{1,10})$/.exec(item) : null;
    if (!m)
      throw new UsageError(`--pin takes KEY=EVENTID (a portal key and a service event id), got '${String(item)}'`);
    pins[m[1]!] = Number(m[2]);
  }
  return pins;
}

/** `--near-days BACK,AHEAD`: whole days before and after the service's clock; `0,0` turns the near search off. */
function nearDaysOption(values: SyncValues): NearDays | undefined {
  const raw = stringOption(values, 'near-days');
  if (raw === undefined) return undefined;
  const m = /^\s*(\d{1,3})\s*,\s*(\d{1,3})\s*$/.exec(raw);
  const days = m && { back: Number(m[1]), ahead: Number(m[2]) };
  if (!days || days.back > 366 || days.ahead > 366) {
    throw new UsageError(
      `--near-days takes BACK,AHEAD: whole days (0..366) before and after the service's clock, such as 3,14 (0,0 turns it off), got '${raw}'`,
    );
  }
  return days;
}

function listOption(values: SyncValues, name: 'pin' | 'unpin'): string[] {
  const raw = values[name];
  return (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).filter((v): v is string => typeof v === 'string');
}

function outFormat(values: SyncValues, out: string | undefined): PortalLinkFormat {
  if (values.format !== undefined) return values.format;
  return out !== undefined && extname(out).toLowerCase() === '.csv' ? 'csv' : 'json';
}

/** What a dry run says first: it is one, and what it left alone. */
function dryRunLine(unwritten: readonly string[]): string {
  const files = unwritten.length > 0 ? `; ${unwritten.join(' and ')} not written` : '';
  return `Dry run: nothing was committed (the state file was left as it is)${files}. A run now would report:`;
}

function summaryLines(result: SyncResult, unwritten: readonly string[]): string[] {
  const linked = result.links.filter((l) => l.status === 'linked').length;
  const counts = new Map<string, number>();
  for (const c of result.changes) counts.set(c.kind, (counts.get(c.kind) ?? 0) + 1);
  const lines = [
    ...(result.dryRun ? [dryRunLine(unwritten)] : []),
    `${plural(result.links.length, 'portal event')}: ${linked} linked, ${result.links.length - linked} not; ${plural(result.requests, 'request')} to the service.`,
  ];
  if (counts.size > 0) lines.push(`Changes: ${changeCountsText(counts)}.`);
  for (const c of result.changes) {
    if (c.kind === 'portal_added' || c.kind === 'portal_changed') continue;
    lines.push(changeLine(c));
  }
  if (result.attention) lines.push(ATTENTION_LINE);
  return lines;
}

/**
 * The run, and with --status-html the status page after it, whatever its end: a failed run's page says so first. A
 * wrong command line is no run (no page); a dry run writes no file, this one included.
 */
export async function run(values: SyncValues, positionals: string[], ctx: CommandContext): Promise<number> {
  const page = stringOption(values, 'status-html');
  if (page === undefined || values['dry-run'] === true) return runSync(values, positionals, ctx);
  // Before the run: a page path that cannot be written must not surface only after the run has committed.
  checkOutputPath(page, '--status-html');
  const record: RunRecord = { started: new Date(), committed: false };
  const statePath = stringOption(values, 'state') ?? defaultStatePath(ctx.env);
  let code: number;
  try {
    code = await runSync(values, positionals, ctx, record);
  } catch (err) {
    if (err instanceof UsageError) throw err;
    // The run's own error is what the command reports; a page that cannot be written is said beside it.
    await writeStatusPage(page, statePath, record, { error: err, signal: ctx.signal }).catch((e: unknown) =>
      ctx.io.err(`livelox-bridge sync: the status page was not written: ${e instanceof Error ? e.message : String(e)}`),
    );
    throw err;
  }
  await writeStatusPage(page, statePath, record, { code, signal: ctx.signal });
  return code;
}

async function runSync(
  values: SyncValues,
  positionals: string[],
  ctx: CommandContext,
  record?: RunRecord,
): Promise<number> {
  if (positionals.length === 0)
    throw new UsageError('give the portal events: folders, EMS JSON files or an IOF EventList');
  const json = ctx.json;
  const jsonl = values.jsonl === true;
  if (json && jsonl) throw new UsageError('--json and --jsonl exclude each other');
  const out = stringOption(values, 'out');
  const outDir = stringOption(values, 'out-dir');
  const outputs: SyncOutputs = {
    out,
    format: outFormat(values, out),
    outDir,
    fragmentsWith: fragmentOptions(values, outDir),
  };
  const job = jobSettings(values);
  const statePath = stringOption(values, 'state') ?? defaultStatePath(ctx.env);
  // Before the run, as --status-html: a wrong output path must not surface only after the state has committed.
  if (!job.dryRun && out !== undefined) checkOutputPath(out, '--out');
  if (!job.dryRun && outDir !== undefined) checkOutputFolder(outDir, '--out-dir');

  const portal = await readPortal(positionals, { signal: ctx.signal });
  let store;
  try {
    store = openSqliteStore(statePath, { readOnly: job.dryRun });
  } catch (err) {
    if (err instanceof StateError) return stateFailure(err, ctx, json, record);
    throw err;
  }
  let result: SyncResult;
  try {
    result = await reconcile({ ...job, store, portal }, values, ctx, record);
  } catch (err) {
    if (err instanceof StateError) return stateFailure(err, ctx, json, record);
    if (isServiceFailure(err)) {
      const text = `${errorText(err)} Nothing was committed: the state is as the last run left it; run again later.`;
      if (record) record.failure = text;
      if (json) printJson(ctx, false, { committed: false, error: errorJson(err) });
      else ctx.io.err(`livelox-bridge sync: ${text}`);
      return SYNC_EXIT.service;
    }
    throw err;
  } finally {
    store.close();
  }
  if (record) Object.assign(record, { committed: true, result });
  return finish(result, outputs, values, ctx, record);
}

/** What sync writes besides the state. */
interface SyncOutputs {
  out: string | undefined;
  format: PortalLinkFormat;
  outDir: string | undefined;
  fragmentsWith: WritePortalFragmentsOptions;
}

type JobSettings = Omit<SyncJobOptions, 'client' | 'store' | 'portal' | 'signal' | 'onProgress'> & { dryRun: boolean };

/** The job's options from the command line. */
function jobSettings(values: SyncValues): JobSettings {
  const overlapMs = durationOption(values, 'overlap');
  const marginDays = intOption(values, 'margin-days', 0, 366);
  const pageSize = intOption(values, 'page-size', 1, 1000);
  const nearDays = nearDaysOption(values);
  const template = stringOption(values, 'template');
  return {
    pins: pinsOption(values),
    unpin: listOption(values, 'unpin'),
    full: values.full === true,
    dryRun: values['dry-run'] === true,
    ...(nearDays === undefined ? {} : { nearDays }),
    ...(overlapMs === undefined ? {} : { overlapMs }),
    ...(marginDays === undefined ? {} : { marginDays }),
    ...(template === undefined ? {} : { template }),
    ...(pageSize === undefined ? {} : { pageSize }),
  };
}

/** The night's reconciliation against the service, its progress shown on a terminal or as lines. */
async function reconcile(
  job: Omit<SyncJobOptions, 'client' | 'signal' | 'onProgress'>,
  values: SyncValues,
  ctx: CommandContext,
  record: RunRecord | undefined,
): Promise<SyncResult> {
  // On a terminal one line is rewritten in place; --progress writes plain lines, which a log keeps.
  const tty = stderr.isTTY === true && !ctx.json && values.jsonl !== true;
  const lines = values.progress === true;
  const session = await openService(values, ctx, { auth: 'any' });
  try {
    return await syncJob({
      ...job,
      client: session.client,
      signal: ctx.signal,
      ...(tty || lines
        ? {
            onProgress: (p) =>
              lines ? ctx.io.err(clean(`${p.step}: ${p.detail}`)) : stderr.write(`\r\u001b[K${clean(p.detail)}`),
          }
        : {}),
    });
  } finally {
    if (tty && !lines) stderr.write('\r\u001b[K');
    if (record) record.requests = session.client.transport.attempts;
    await session.close();
  }
}

/** The outputs written (none in a dry run), the result said in text, --json or --jsonl, and the exit code. */
async function finish(
  result: SyncResult,
  outputs: SyncOutputs,
  values: SyncValues,
  ctx: CommandContext,
  record: RunRecord | undefined,
): Promise<number> {
  const dryRun = values['dry-run'] === true;
  const { out, outDir } = outputs;
  // A dry run writes nothing: the portal's files stay what the last run made them.
  const fragments = dryRun ? undefined : await writeOutputs(result, outputs);
  if (record && fragments && fragments.conflicts.length > 0) record.fragmentConflicts = fragments.conflicts;
  const unwritten = dryRun
    ? [out && '--out', outDir && '--out-dir', values['status-html'] && '--status-html'].filter((x): x is string =>
        Boolean(x),
      )
    : [];
  // A fragment that could not be written (a person's file at its name) needs a person as much as an unmatched event.
  const attention = result.attention || (fragments?.conflicts.length ?? 0) > 0;
  if (ctx.json) {
    // `ok` is the exit code's word, as in every command: a run that needs a person's attention exits 1.
    printJson(ctx, !attention, { committed: !dryRun, ...result, ...(fragments ? { fragments } : {}) });
  } else if (values.jsonl === true) {
    if (dryRun) ctx.io.err(`livelox-bridge sync: ${dryRunLine(unwritten)}`);
    for (const c of result.changes) ctx.io.out(JSON.stringify(c));
  } else {
    const folder = fragments && outDir !== undefined ? fragmentLines(outDir, fragments) : [];
    ctx.io.out([...summaryLines(result, unwritten), ...folder].join('\n'));
  }
  return attention ? EXIT.failure : EXIT.ok;
}

/** The fragments (fragments.ts), then the links document naming each event's fragment; each file atomically. */
async function writeOutputs(result: SyncResult, to: SyncOutputs): Promise<PortalFragmentsResult | undefined> {
  const fragments = to.outDir === undefined ? undefined : await writeFragments(to.outDir, result, to.fragmentsWith);
  if (to.out !== undefined) {
    const index = new Map(fragments?.index.map((f) => [f.key, f]));
    await writeFileAtomic(to.out, Buffer.from(renderPortalLinks(result.links, to.format, index), 'utf8'));
  }
  return fragments;
}

function isServiceFailure(err: unknown): err is LiveloxError {
  return (
    err instanceof HttpError ||
    err instanceof ConnectionError ||
    err instanceof TimeoutError ||
    err instanceof ResponseShapeError
  );
}

/**
 * The state file failed (at opening, reading or the commit): nothing was committed. A full disk is exit 3 like a
 * service failure (run again once there is room); anything else about the file is 4 (a person must look at it).
 */
function stateFailure(err: StateError, ctx: CommandContext, json: boolean, record?: RunRecord): number {
  const text = `${errorText(err)} Nothing was committed: the state is as the last run left it.`;
  if (record) record.failure = text;
  if (json) printJson(ctx, false, { committed: false, error: errorJson(err) });
  else ctx.io.err(`livelox-bridge sync: ${text}`);
  return err.reason === 'full' ? SYNC_EXIT.service : SYNC_EXIT.state;
}
