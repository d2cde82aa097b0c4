/**
 * `livelox-bridge sync <portal events...>`: the nightly reconciliation. Reads the portal's events, brings the state's
 * mirror of the service up to date, links every portal event, commits, then writes the links document and fragments
 * and tells what changed. Exit codes say what a cron job needs to know: 0 nothing for a person, 1 something is, 2 a
 * wrong command line, 3 the service failed (nothing committed), 4 the state file cannot be used (nothing committed).
 */
import { mkdir } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { stderr } from 'node:process';
import { readPortal } from '../../ems/portal.js';
import {
  ConnectionError,
  HttpError,
  ResponseShapeError,
  StateError,
  TimeoutError,
  type LiveloxError,
} from '../../errors.js';
import { syncJob, type SyncResult } from '../../jobs/sync/sync.js';
import { fragmentFileName, PORTAL_LINK_FORMATS, portalFragment, renderPortalLinks } from '../../links/portal.js';
import { DEFAULT_LINK_TEMPLATE } from '../../links/template.js';
import { openSqliteStore } from '../../store/sqlite.js';
import { EXIT, UsageError, intOption, stringOption, type Command, type OptionValues } from '../command.js';
import { clean, plural } from '../format.js';
import { printJson } from '../json-output.js';
import { errorJson, errorText } from '../hints.js';
import { writeFileAtomic } from '../output-files.js';
import { dataFilePath } from '../data-dir.js';
import { SERVICE_OPTIONS, openService } from '../service.js';

/** Exit codes beyond the common ones (command.ts): the service failed, or the state file cannot be used. */
const EXIT_SERVICE = 3;
const EXIT_STATE = 4;

/** Where the state lives without --state: the user's data directory (XDG), as other command-line tools keep theirs. */
export function defaultStatePath(env: Readonly<Record<string, string | undefined>>): string {
  return dataFilePath(env, 'sync.sqlite');
}

/** `1h`, `30m`, `90s`, `3600000ms`, or a bare number of seconds. */
function durationOption(values: OptionValues, name: string): number | undefined {
  const raw = stringOption(values, name);
  if (raw === undefined) return undefined;
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/.exec(raw.trim());
  if (!m) throw new UsageError(`--${name} takes a duration such as 1h, 30m or 90s, got '${raw}'`);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[
    (m[2] ?? 's') as 'ms' | 's' | 'm' | 'h' | 'd'
  ];
  const ms = Number(m[1]) * unit;
  if (ms > 30 * 86_400_000) throw new UsageError(`--${name} is at most 30 days, got '${raw}'`);
  return ms;
}

function pinsOption(values: OptionValues): Record<string, number> {
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

function listOption(values: OptionValues, name: string): string[] {
  const raw = values[name];
  return (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).filter((v): v is string => typeof v === 'string');
}

function outFormat(values: OptionValues, out: string | undefined): (typeof PORTAL_LINK_FORMATS)[number] {
  const given = stringOption(values, 'format');
  if (given !== undefined) {
    if (!(PORTAL_LINK_FORMATS as readonly string[]).includes(given)) {
      throw new UsageError(`--format takes ${PORTAL_LINK_FORMATS.join(' or ')}, got '${given}'`);
    }
    return given as (typeof PORTAL_LINK_FORMATS)[number];
  }
  return out !== undefined && extname(out).toLowerCase() === '.csv' ? 'csv' : 'json';
}

function summaryLines(result: SyncResult): string[] {
  const linked = result.links.filter((l) => l.status === 'linked').length;
  const counts = new Map<string, number>();
  for (const c of result.changes) counts.set(c.kind, (counts.get(c.kind) ?? 0) + 1);
  const lines = [
    `${plural(result.links.length, 'portal event')}: ${linked} linked, ${result.links.length - linked} not; ${plural(result.requests, 'request')} to the service.`,
  ];
  if (counts.size > 0)
    lines.push(`Changes: ${[...counts].map(([k, n]) => `${k.replace(/_/g, ' ')} ${n}`).join(', ')}.`);
  for (const c of result.changes) {
    if (c.kind === 'portal_added' || c.kind === 'portal_changed') continue;
    lines.push(clean(`${c.attention ? '! ' : '  '}${c.key}: ${c.message}`));
  }
  if (result.attention)
    lines.push('Lines marked ! need a person: pin a link with --pin KEY=EVENTID, or fix the portal.');
  return lines;
}

export const syncCommand: Command = {
  name: 'sync',
  usage: 'sync <folder|events.json|EventList.xml...> [--state FILE] [--out FILE] [--out-dir DIR] [--full]',
  allowPositionals: true,
  options: {
    state: {
      type: 'string',
      valueName: 'FILE',
      description: 'the state file (default ~/.local/share/livelox-bridge/sync.sqlite)',
    },
    out: {
      type: 'string',
      valueName: 'FILE',
      description: "write every portal event's links to FILE (json or csv, atomically)",
    },
    format: {
      type: 'string',
      valueName: 'F',
      description: 'format of --out: json or csv (default by extension, else json)',
    },
    'out-dir': { type: 'string', valueName: 'DIR', description: 'write one HTML fragment per portal event into DIR' },
    jsonl: { type: 'boolean', description: 'print one JSON line per change' },
    progress: { type: 'boolean', description: 'progress lines on stderr also when it is not a terminal (for logs)' },
    'page-size': { type: 'string', valueName: 'N', description: 'events per search page (default 1000)' },
    full: { type: 'boolean', description: 'sweep the whole window to find events deleted on the service (weekly)' },
    overlap: {
      type: 'string',
      valueName: 'D',
      description: 'how far before the cursor to ask for changes (default 1h)',
    },
    'margin-days': {
      type: 'string',
      valueName: 'N',
      description: "days around the portal events' dates to mirror (default 7)",
    },
    pin: {
      type: 'string',
      multiple: true,
      valueName: 'KEY=ID',
      description: 'pin a portal event to a service event (kept in the state)',
    },
    unpin: { type: 'string', multiple: true, valueName: 'KEY', description: 'remove a pin' },
    template: {
      type: 'string',
      valueName: 'T',
      description: `link for classes without a service url (default ${DEFAULT_LINK_TEMPLATE})`,
    },
    ...SERVICE_OPTIONS,
  },
  details: [
    'Portal events come from folders of IOF XML / EMS JSON exports, multi-event EMS JSON files (docs/ems-json.md) and',
    "IOF XML 3.0 EventLists (Eventor's, with the Livelox ids it stores per race). The first run mirrors the service's",
    'events of the window the portal spans; later runs ask only for what changed since (one request on a quiet night).',
    'A run commits in one transaction: killed at any point, the next run does what it would have done.',
    'Exit: 0 committed, nothing needs a person; 1 committed, something does; 2 usage; 3 the service failed, nothing',
    'committed (run again later); 4 the state file cannot be used, nothing committed. See docs/sync.md.',
    'Example: livelox-bridge sync exports/ --state portal.sqlite --out links.json --out-dir fragments/',
  ].join('\n'),
  async run(values, positionals, ctx) {
    if (positionals.length === 0)
      throw new UsageError('give the portal events: folders, EMS JSON files or an IOF EventList');
    const json = ctx.json;
    const jsonl = values.jsonl === true;
    if (json && jsonl) throw new UsageError('--json and --jsonl exclude each other');
    const out = stringOption(values, 'out');
    const format = outFormat(values, out);
    const outDir = stringOption(values, 'out-dir');
    const overlapMs = durationOption(values, 'overlap');
    const marginDays = intOption(values, 'margin-days', 0, 366);
    const pins = pinsOption(values);
    const unpin = listOption(values, 'unpin');
    const statePath = stringOption(values, 'state') ?? defaultStatePath(ctx.env);
    const pageSize = intOption(values, 'page-size', 1, 1000);
    // On a terminal one line is rewritten in place; --progress writes plain lines, which a log keeps.
    const tty = stderr.isTTY === true && !json && !jsonl;
    const lines = values.progress === true;
    const progress = tty || lines;

    const portal = await readPortal(positionals, { signal: ctx.signal });
    let store;
    try {
      store = openSqliteStore(statePath);
    } catch (err) {
      if (err instanceof StateError) return stateFailure(err, ctx, json);
      throw err;
    }
    let result: SyncResult;
    try {
      const session = await openService(values, ctx, { auth: 'any' });
      try {
        result = await syncJob({
          client: session.client,
          store,
          portal,
          pins,
          unpin,
          full: values.full === true,
          ...(overlapMs === undefined ? {} : { overlapMs }),
          ...(marginDays === undefined ? {} : { marginDays }),
          ...(stringOption(values, 'template') === undefined ? {} : { template: stringOption(values, 'template')! }),
          ...(pageSize === undefined ? {} : { pageSize }),
          signal: ctx.signal,
          ...(progress
            ? {
                onProgress: (p) =>
                  lines ? ctx.io.err(clean(`${p.step}: ${p.detail}`)) : stderr.write(`\r\u001b[K${clean(p.detail)}`),
              }
            : {}),
        });
      } finally {
        if (tty && !lines) stderr.write('\r\u001b[K');
        await session.close();
      }
    } catch (err) {
      if (err instanceof StateError) return stateFailure(err, ctx, json);
      if (isServiceFailure(err)) {
        const text = `${errorText(err)} Nothing was committed: the state is as the last run left it; run again later.`;
        if (json) printJson(ctx, false, { committed: false, error: errorJson(err) });
        else ctx.io.err(`livelox-bridge sync: ${text}`);
        return EXIT_SERVICE;
      }
      throw err;
    } finally {
      store.close();
    }

    if (out !== undefined) await writeFileAtomic(out, Buffer.from(renderPortalLinks(result.links, format), 'utf8'));
    if (outDir !== undefined) {
      await mkdir(outDir, { recursive: true });
      for (const link of result.links) {
        await writeFileAtomic(join(outDir, fragmentFileName(link.key)), Buffer.from(portalFragment(link), 'utf8'));
      }
    }
    if (json) {
      // `ok` is the exit code's word, as in every command: a run that needs a person's attention exits 1.
      printJson(ctx, !result.attention, { committed: true, ...result });
    } else if (jsonl) {
      for (const c of result.changes) ctx.io.out(JSON.stringify(c));
    } else {
      ctx.io.out(summaryLines(result).join('\n'));
    }
    return result.attention ? EXIT.failure : EXIT.ok;
  },
};

function isServiceFailure(err: unknown): err is LiveloxError {
  return (
    err instanceof HttpError ||
    err instanceof ConnectionError ||
    err instanceof TimeoutError ||
    err instanceof ResponseShapeError
  );
}

function stateFailure(err: StateError, ctx: Parameters<Command['run']>[2], json: boolean): number {
  if (json) printJson(ctx, false, { committed: false, error: errorJson(err) });
  else ctx.io.err(`livelox-bridge sync: ${errorText(err)}`);
  return EXIT_STATE;
}
