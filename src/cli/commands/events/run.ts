/** `livelox-bridge events`: search events (GET /events), one page, every page (`--all`), as a table or JSON. */
import type { LiveloxClient } from '../../../client.js';
import { ValidationError, type Issue } from '../../../errors.js';
import {
  eventSearchQuery,
  eventSearchQuerySchema,
  MAX_PAGE_SIZE,
  SORT_PROPERTIES,
  type EventSearchParams,
  type LiveloxEvent,
  type SortOrder,
  type SortProperty,
} from '../../../resources/events.js';
import { checkQuery, formatContractDatetime } from '../../../resources/params.js';
import { UsageError, intOption, optionError, stringOption } from '../../command.js';
import { printJson } from '../../json-output.js';
import { cultureOption } from '../../culture-option.js';
import { plural, table, terminal, type Column } from '../../format.js';
import { issueText } from '../../hints.js';
import { openService } from '../../service.js';
import { EXIT, type CommandContext, type Values } from '../../spec.js';
import { DEFAULT_ALL_PAGE_SIZE, FLAGS_LEGEND, type eventsOptions } from './spec.js';

type EventsValues = Values<typeof eventsOptions>;

const DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|z|[+-]\d{2}(?::?\d{2})?)?)?$/;

/**
 * A date on the command line as the contract's UTC form (yyyy-mm-ddThh:mm:ssZ). Takes a day (`2025-05-01`, midnight
 * UTC) or a time with `Z` or an offset (`2025-05-01T10:00:00+02:00`); a time without a zone is refused rather than read
 * in whatever zone the machine happens to be in. Fractions of a second are dropped: the contract has whole seconds.
 */
function parseDateOption(values: EventsValues, name: 'from' | 'to' | 'modified-since'): string | undefined {
  const raw = stringOption(values, name);
  if (raw === undefined) return undefined;
  const bad = (why: string) =>
    new UsageError(
      `--${name} takes a date such as 2025-05-01 or 2025-05-01T08:00:00Z or 2025-05-01T10:00:00+02:00, got '${raw}'${why}`,
    );
  const m = DATE.exec(raw.trim());
  if (!m) throw bad('');
  const [y, mo, d, h = '00', mi = '00', s = '00', zone] = m.slice(1) as [string, string, string, ...string[]];
  if (m[4] !== undefined && zone === undefined) {
    throw bad(': a time needs Z or an offset (the contract searches in UTC)');
  }
  const fields = [Number(y), Number(mo), Number(d), Number(h), Number(mi), Number(s)] as const;
  const local = Date.UTC(fields[0], fields[1] - 1, fields[2], fields[3], fields[4], fields[5]);
  const back = new Date(local);
  // Date.UTC rolls 2025-02-30 over to March and 24:00 to the next day: refuse what does not round-trip.
  if (
    back.getUTCFullYear() !== fields[0] ||
    back.getUTCMonth() !== fields[1] - 1 ||
    back.getUTCDate() !== fields[2] ||
    back.getUTCHours() !== fields[3] ||
    back.getUTCMinutes() !== fields[4] ||
    back.getUTCSeconds() !== fields[5]
  ) {
    throw bad(': no such day or time');
  }
  let offsetMin = 0;
  if (zone !== undefined && zone.toUpperCase() !== 'Z') {
    const z = /^([+-])(\d{2}):?(\d{2})?$/.exec(zone)!;
    const hours = Number(z[2]);
    const minutes = Number(z[3] ?? '0');
    if (hours > 14 || minutes > 59) throw bad(': the offset is outside -14:00..+14:00');
    offsetMin = (z[1] === '-' ? -1 : 1) * (hours * 60 + minutes);
  }
  return formatContractDatetime(local - offsetMin * 60_000);
}

/** `--near LAT,LNG,RADIUS_M` or `--box S,N,W,E`: exactly `names.length` numbers. */
function numberList(values: EventsValues, name: 'near' | 'box', shape: string, count: number): number[] | undefined {
  const raw = stringOption(values, name);
  if (raw === undefined) return undefined;
  const parts = raw.split(',').map((p) => p.trim());
  const numbers = parts.map((p) => (p === '' ? Number.NaN : Number(p)));
  if (parts.length !== count || numbers.some((n) => !Number.isFinite(n))) {
    throw new UsageError(`--${name} takes ${shape} (${count} numbers separated by commas), got '${raw}'`);
  }
  return numbers;
}

function sortOption(values: EventsValues): { by: SortProperty; order: SortOrder } | undefined {
  const raw = stringOption(values, 'sort');
  if (raw === undefined) return undefined;
  const m = /^([a-z]+)(?::([a-z]+))?$/i.exec(raw.trim());
  const by = m?.[1]?.toLowerCase();
  const order = (m?.[2] ?? 'ascending').toLowerCase();
  if (
    !by ||
    !(SORT_PROPERTIES as readonly string[]).includes(by) ||
    (order !== 'ascending' && order !== 'descending')
  ) {
    throw new UsageError(
      `--sort takes ${SORT_PROPERTIES.join('|')}, optionally followed by :ascending or :descending, got '${raw}'`,
    );
  }
  return { by: by as SortProperty, order };
}

/** The flag a search parameter comes from, so that a broken rule is reported in the words of the command line. */
const FLAG_OF: Record<string, string> = {
  from: '--from',
  to: '--to',
  q: '--q',
  modifiedSince: '--modified-since',
  latitude: '--near',
  longitude: '--near',
  radius: '--near',
  south: '--box',
  north: '--box',
  west: '--box',
  east: '--box',
  countryId: '--country',
  cultureCode: '--culture',
  sorting: '--sort',
  paging: '--page/--page-size',
};

const AT_LEAST_ONE =
  'give at least one of --from, --to, --modified-since, --near, --box, --page-size or --all (the service refuses an unbounded search)';

function issueLine(issue: Issue): string {
  const path = issue.path ?? 'parameters';
  const text = issueText(issue);
  if (path === 'parameters') return issue.message.startsWith('at least one of') ? AT_LEAST_ONE : text;
  const flag = FLAG_OF[path];
  if (!flag) return `${path}: ${text}`;
  // --near and --box stand for several parameters: name the one at fault.
  return flag === '--near' || flag === '--box' ? `${flag} (${path}): ${text}` : `${flag}: ${text}`;
}

/** Every broken rule of a search, one per line, as a usage error (exit 2). */
function searchUsageError(err: ValidationError): UsageError {
  const lines = err.issues.map(issueLine);
  return new UsageError(
    lines.length === 1 ? `the search is not valid: ${lines[0]}` : `the search is not valid:\n  ${lines.join('\n  ')}`,
  );
}

function flags(e: LiveloxEvent): string {
  return `${e.isSearchable ? 'S' : '-'}${e.isPublished ? 'P' : '-'}${e.hasValidMapAndCourses ? 'V' : '-'}`;
}

const EVENT_COLUMNS: ReadonlyArray<Column<LiveloxEvent>> = [
  { header: 'id', cell: (e) => String(e.id), align: 'right' },
  { header: 'date', cell: (e) => e.timeInterval.start.slice(0, 10) },
  { header: 'country', cell: (e) => e.country?.code ?? '-' },
  { header: 'name', cell: (e) => e.name, maxWidth: 48, shrink: true, minWidth: 12 },
  { header: 'organisers', cell: (e) => (e.organisers ?? []).map((o) => o.name).join(', '), maxWidth: 32, shrink: true },
  { header: 'classes', cell: (e) => (e.classes === undefined ? '-' : String(e.classes.length)), align: 'right' },
  { header: 'flags', cell: flags },
];

export async function run(values: EventsValues, _positionals: string[], ctx: CommandContext): Promise<number> {
  if (ctx.json && values.jsonl === true) throw new UsageError('--json and --jsonl exclude each other');
  const near = numberList(values, 'near', 'LAT,LNG,RADIUS_M', 3);
  const box = numberList(values, 'box', 'S,N,W,E', 4);
  const sorting = sortOption(values);
  const cultureCode = cultureOption(values);
  const page = intOption(values, 'page', 0, 1_000_000_000);
  const pageSize = intOption(values, 'page-size', 1, MAX_PAGE_SIZE);
  const limit = intOption(values, 'limit', 1, 1_000_000_000);
  const all = values.all === true;
  if (page !== undefined && pageSize === undefined) throw new UsageError('--page needs --page-size');
  const q = stringOption(values, 'q');
  const from = parseDateOption(values, 'from');
  const to = parseDateOption(values, 'to');
  const modifiedSince = parseDateOption(values, 'modified-since');
  const params: EventSearchParams = {
    ...(from === undefined ? {} : { from }),
    ...(to === undefined ? {} : { to }),
    ...(q === undefined ? {} : { q }),
    ...(modifiedSince === undefined ? {} : { modifiedSince }),
    ...(near ? { circle: { latitude: near[0]!, longitude: near[1]!, radius: near[2]! } } : {}),
    ...(box ? { box: { south: box[0]!, north: box[1]!, west: box[2]!, east: box[3]! } } : {}),
    ...(values['only-searchable'] === true ? { onlySearchable: true } : {}),
    ...(values['only-published'] === true ? { onlyPublished: true } : {}),
    ...(values['only-valid'] === true ? { onlyHavingValidMapAndCourses: true } : {}),
    ...(values['no-classes'] === true ? { includeClasses: false } : {}),
    ...(values['no-properties'] === true ? { includeProperties: false } : {}),
    ...(cultureCode === undefined ? {} : { cultureCode }),
    ...(sorting ? { sorting } : {}),
    ...(pageSize === undefined ? {} : { paging: { index: page ?? 0, size: pageSize } }),
  };
  // Every rule the client would apply, checked before a simulator starts or a request leaves, reported at once.
  try {
    checkQuery(
      'Event search parameters',
      eventSearchQuery(
        all ? { ...params, paging: params.paging ?? { index: 0, size: DEFAULT_ALL_PAGE_SIZE } } : params,
      ),
      eventSearchQuerySchema,
    );
  } catch (err) {
    if (err instanceof ValidationError) throw searchUsageError(err);
    throw err;
  }
  const session = await openService(values, ctx, { auth: 'any' });
  try {
    const countryText = stringOption(values, 'country');
    if (countryText !== undefined) {
      try {
        const country = await session.client.countries.resolve(countryText, {
          ...(cultureCode === undefined ? {} : { cultureCode }),
          signal: ctx.signal,
        });
        params.countryId = country.id;
      } catch (err) {
        if (err instanceof ValidationError) throw optionError('country', err);
        throw err;
      }
    }
    const jsonl = values.jsonl === true;
    let events: LiveloxEvent[];
    if (all) {
      events = await fetchAll(session.client, params, {
        pageSize: pageSize ?? DEFAULT_ALL_PAGE_SIZE,
        limit,
        ctx,
        // Lines go out as they arrive: a long export is not held in memory, and a failure keeps what came.
        ...(jsonl ? { onEvent: (e: LiveloxEvent) => ctx.io.out(JSON.stringify(e)) } : {}),
      });
      if (jsonl) return EXIT.ok;
    } else {
      events = await session.client.events.search(params, { signal: ctx.signal });
      if (limit !== undefined) events = events.slice(0, limit);
    }
    printEvents(events, { jsonl, limited: limit !== undefined && events.length === limit }, ctx);
    return EXIT.ok;
  } finally {
    await session.close();
  }
}

async function fetchAll(
  client: LiveloxClient,
  params: EventSearchParams,
  options: { pageSize: number; limit: number | undefined; ctx: CommandContext; onEvent?: (e: LiveloxEvent) => void },
): Promise<LiveloxEvent[]> {
  const { ctx, limit, onEvent } = options;
  // With a small --limit, do not fetch a whole default page to throw most of it away.
  const pageSize =
    limit !== undefined && params.paging === undefined ? Math.min(options.pageSize, limit) : options.pageSize;
  const kept: LiveloxEvent[] = [];
  let count = 0;
  for await (const event of client.events.searchAll(params, { pageSize, signal: ctx.signal })) {
    count++;
    if (onEvent) onEvent(event);
    else kept.push(event);
    if (limit !== undefined && count >= limit) break;
    if (count % pageSize === 0) ctx.io.err(`fetched ${plural(count, 'event')}…`);
  }
  ctx.io.err(`fetched ${plural(count, 'event')}.`);
  return kept;
}

function printEvents(events: LiveloxEvent[], how: { jsonl: boolean; limited: boolean }, ctx: CommandContext): void {
  if (how.jsonl) {
    for (const e of events) ctx.io.out(JSON.stringify(e));
    return;
  }
  if (ctx.json) {
    printJson(ctx, true, { events });
    return;
  }
  if (events.length === 0) {
    ctx.io.out('No events match.');
    return;
  }
  ctx.io.out(table(events, EVENT_COLUMNS, terminal(ctx.env)));
  ctx.io.out(`${plural(events.length, 'event')}${how.limited ? ' (--limit reached)' : ''}; ${FLAGS_LEGEND}.`);
}
