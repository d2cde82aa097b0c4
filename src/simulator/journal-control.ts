/**
 * `GET /_simulator/journal` (JSON), `GET /_simulator/journal.har` (HAR 1.2) and `DELETE /_simulator/journal`: the
 * journal's control endpoints, with the filters `since`, `path` and `status`.
 */
import { readFileSync } from 'node:fs';
import { harLog } from './har.js';
import type { SimRequest, SimResponse } from './http.js';
import { badRequest, json, message } from './http.js';
import { NO_ANSWER, type SimJournalFilter, type SimJournal } from './journal.js';

const PARAMETERS = ['since', 'path', 'status'];

/** The filters read from the query; a problem per parameter otherwise. */
function readFilter(
  query: URLSearchParams,
): { ok: true; filter: SimJournalFilter } | { ok: false; response: SimResponse } {
  const errors: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
  const filter: SimJournalFilter = {};
  for (const key of new Set(query.keys())) {
    if (!PARAMETERS.includes(key)) errors[key] = [`is not a parameter of this endpoint (${PARAMETERS.join(', ')})`];
    // Two values of one filter would have to be either-or or both: neither is what a reader would assume.
    else if (query.getAll(key).length > 1) errors[key] = [`is given ${query.getAll(key).length} times; give it once`];
  }
  const since = query.get('since');
  if (since !== null && errors.since === undefined) {
    if (/^\d{1,15}$/.test(since)) filter.since = Number(since);
    else if (isCalendarTime(since)) filter.since = new Date(since);
    else errors.since = [`'${since}' is neither an entry's seq nor an ISO 8601 time`];
  }
  const path = query.get('path');
  if (path !== null && errors.path === undefined) {
    if (path.startsWith('/')) filter.pathPrefix = path;
    else errors.path = [`'${path}' is not a path: it starts with / (e.g. /api/events)`];
  }
  const status = query.get('status');
  if (status !== null && errors.status === undefined) {
    const cls = /^([1-5])xx$/i.exec(status);
    if (cls) filter.status = { class: Number(cls[1]) };
    else if (/^[1-5]\d\d$/.test(status)) filter.status = Number(status);
    else if ((NO_ANSWER as readonly string[]).includes(status)) filter.status = status as (typeof NO_ANSWER)[number];
    else errors.status = [`'${status}' is neither a status (429), a class (4xx) nor ${NO_ANSWER.join(', ')}`];
  }
  return Object.keys(errors).length > 0 ? { ok: false, response: badRequest(errors) } : { ok: true, filter };
}

/**
 * An ISO 8601 time whose date is on the calendar: `Date.parse` takes 2026-02-30 as March 2, which is not what was
 * asked.
 */
function isCalendarTime(text: string): boolean {
  const date = /^(\d{4})-(\d\d)-(\d\d)(?![\d])/.exec(text);
  if (!date || Number.isNaN(Date.parse(text))) return false;
  const [year, month, day] = [Number(date[1]), Number(date[2]), Number(date[3])];
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  return d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day;
}

/** The control endpoints under `/journal`, or undefined for another path. */
export function handleJournal(req: SimRequest, journal: SimJournal, origin: string): SimResponse | undefined {
  const path = req.path.replace(/\/$/, '');
  if (path !== '/journal' && path !== '/journal.har') return undefined;
  if (req.method === 'DELETE' && path === '/journal') {
    journal.clear();
    return json(200, { entries: [], dropped: journal.dropped });
  }
  if (req.method !== 'GET') {
    return message(
      405,
      `${req.method} is not allowed on /_simulator${path}; use GET${path === '/journal' ? ', DELETE' : ''}.`,
      {
        allow: path === '/journal' ? 'GET, DELETE' : 'GET',
      },
    );
  }
  const read = readFilter(req.url.searchParams);
  if (!read.ok) return read.response;
  const entries = journal.entries(read.filter);
  if (path === '/journal.har') return json(200, harLog(entries, origin, packageVersion()));
  const file = journal.file;
  return json(200, { entries, cap: journal.cap, dropped: journal.dropped, ...(file ? { file } : {}) });
}

let version: string | undefined;

/** The package's version, for the HAR's creator; read once (src/simulator and dist/simulator are both two deep). */
function packageVersion(): string {
  version ??= (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string })
    .version;
  return version;
}
