/**
 * `livelox-bridge link <ems-file>`: the main job. Finds the export's event on the service, maps its classes and prints
 * a viewer link per class, as a table or in a format a portal embeds.
 */
import { openEmsFile } from '../../../ems/open.js';
import { InputError, ValidationError } from '../../../errors.js';
import { renderLinkResult, type RenderLinkOptions } from '../../../links/render.js';
import { checkLinkTemplate } from '../../../links/template.js';
import {
  eventLinksJob,
  linkJob,
  type EventLinksResult,
  type EventSummary,
  type LinkResult,
  type LinkStep,
} from '../../../jobs/link.js';
import type { EventChoiceCode } from '../../../match/event.js';
import { UsageError, intOption, optionError, stringOption } from '../../command.js';
import { clean, keyValues, plural, table, terminal, type Terminal } from '../../format.js';
import { errorText, issueJson, issueText } from '../../hints.js';
import { writeFileAtomic } from '../../output-files.js';
import { eventNotFound } from '../../event-id.js';
import { fragmentTextOptions } from '../../fragment-text-options.js';
import { openService } from '../../service.js';
import { EXIT, type CommandContext, type Values } from '../../spec.js';
import type { LINK_OUTPUT_FORMATS, linkOptions } from './spec.js';

type OutputFormat = (typeof LINK_OUTPUT_FORMATS)[number];
type LinkValues = Values<typeof linkOptions>;

const STEP_TEXT: Record<LinkStep, string> = {
  read: 'Reading',
  search: 'Finding the event',
  classes: 'Mapping classes',
  courses: "Comparing with the service's courses of",
};

/** --format is one of its choices (the parser checked); without it, what --json asks for. */
function formatOption(value: OutputFormat | undefined, json: boolean): OutputFormat {
  if (value === undefined) return json ? 'json' : 'table';
  if (json && value !== 'json') throw new UsageError(`--json and --format ${value} exclude each other`);
  return value;
}

function eventLine(e: Pick<EventSummary, 'id' | 'name' | 'start' | 'country'>): string {
  return `${e.id} ${e.name} (${e.start.slice(0, 10)}${e.country ? `, ${e.country}` : ''})`;
}

function partsText(e: EventSummary): string {
  return Object.entries(e.parts)
    .map(([k, v]) => `${k} ${v as number}`)
    .join(', ');
}

function candidatesTable(result: LinkResult, term: Terminal): string {
  return table(
    result.event.candidates,
    [
      { header: 'Event id', cell: (e) => String(e.id), align: 'right' },
      { header: 'Date', cell: (e) => e.start.slice(0, 10) },
      { header: 'Country', cell: (e) => e.country ?? '' },
      { header: 'Name', cell: (e) => e.name, shrink: true, maxWidth: 48 },
      { header: 'Score', cell: (e) => e.score.toFixed(2), align: 'right' },
      { header: 'Parts', cell: partsText, shrink: true },
    ],
    term,
  );
}

/** What did not map, for stderr (beside a rendering on stdout) or the end of the table; names cleaned of escapes. */
function unmatchedLines(result: LinkResult): string[] {
  return unmatchedText(result).map(clean);
}

function unmatchedText(result: LinkResult): string[] {
  const lines: string[] = [];
  for (const u of result.unmatchedEms) {
    const near = u.candidates.length ? ` (near: ${u.candidates.map((c) => c.name).join(', ')})` : '';
    lines.push(`  ${u.emsClass.name}: ${u.reason}${near}`);
  }
  const head: string[] = [];
  if (result.unmatchedEms.length > 0) {
    head.push(`${plural(result.unmatchedEms.length, 'class', 'classes')} of the export without a service class:`);
  }
  const tail =
    result.unmatchedService.length > 0
      ? [
          `${plural(result.unmatchedService.length, 'service class', 'service classes')} without a class in the export: ${result.unmatchedService.map((c) => c.name).join(', ')}`,
        ]
      : [];
  const issues = result.issues
    .filter((i) => i.severity === 'warning')
    .map((i) => `${i.code === 'date_differs' ? 'Warning' : 'Note'}: ${issueText(i)}`);
  return [...head, ...lines, ...tail, ...issues];
}

/** Why nothing was linked, by the job's code; candidates follow only when the job found plausible ones. */
const NOT_LINKED_TEXT: Partial<Record<EventChoiceCode, string>> = {
  ambiguous: 'The event is ambiguous: several service events fit about equally well. Candidates:',
  unsure: 'One service event might be it, but its name, date or classes do not confirm it:',
  none_plausible:
    'No service event matches the export: events were found, none close enough in name, date and classes.',
  none_in_country: "No service event matches the export: events on those days, but none in the export's country.",
  no_events_in_window: "No service event matches the export: the service has no event on the export's days.",
};

function humanReport(result: LinkResult, term: Terminal): string {
  const ems = result.ems;
  const out: string[] = [
    keyValues(
      [
        ['Export', `${ems.source} (${ems.format}, ${plural(ems.classCount, 'class', 'classes')})`],
        [
          'EMS event',
          [ems.event.name || '(no name)', ems.event.start?.slice(0, 10), ems.event.country].filter(Boolean).join(', '),
        ],
        [
          'Country',
          result.event.country &&
            `${result.event.country.name} (${result.event.country.code}, id ${result.event.country.id})`,
        ],
        ['Event', result.event.chosen && eventLine(result.event.chosen), 'green'],
        [
          'Why',
          result.event.chosen ? `${result.event.reason} [${partsText(result.event.chosen)}]` : result.event.reason,
        ],
      ],
      term,
    ),
    '',
  ];
  if (result.status !== 'linked') {
    const candidates = result.event.candidates;
    out.push(NOT_LINKED_TEXT[result.event.code] ?? NOT_LINKED_TEXT.none_plausible!);
    if (candidates.length > 0) out.push(candidatesTable(result, term));
    out.push(
      '',
      candidates.length > 0
        ? `Choose one with --event-id N (for example --event-id ${candidates[0]!.id}).`
        : "Check the export's date and country (--country), or pass the service event id with --event-id N.",
    );
    const { start, end } = result.ems.event;
    if (start !== undefined && end !== undefined && start.slice(0, 10) !== end.slice(0, 10)) {
      out.push('The export spans several days, and the service holds each day as an event: --race N takes one day.');
    }
    return out.join('\n');
  }
  out.push(
    table(
      result.links,
      [
        { header: 'Class', cell: (l) => l.emsClass.name, shrink: true, maxWidth: 30 },
        { header: 'Livelox class', cell: (l) => l.serviceClass.name, shrink: true, maxWidth: 30 },
        { header: 'Match', cell: (l) => l.method },
        { header: 'Link', cell: (l) => l.url },
      ],
      term,
    ),
  );
  const rest = unmatchedLines(result);
  if (rest.length > 0) out.push('', ...rest);
  out.push(
    '',
    `${plural(result.links.length, 'class', 'classes')} linked${result.coursesCompared ? " (the service's courses were compared)" : ''}; ${plural(result.requests, 'request')} to the service.`,
  );
  return out.join('\n');
}

/** A --race the export does not have is a wrong command line (exit 2), as in check-courses. */
function raceAsUsage(err: unknown): never {
  if (err instanceof InputError && (err.reason === 'no_such_race' || err.reason === 'race_not_applicable')) {
    throw new UsageError(errorText(err));
  }
  throw err;
}

async function emit(ctx: CommandContext, text: string, out: string | undefined): Promise<void> {
  if (out === undefined) ctx.io.out(text);
  else await writeFileAtomic(out, Buffer.from(`${text}\n`, 'utf8'));
}

/**
 * `link --event-id N` without an export: a portal that already knows the event wants the link of every class, and has
 * nothing to map.
 */
async function eventLinks(
  eventId: number,
  how: {
    format: OutputFormat;
    out: string | undefined;
    term: Terminal;
    template: string | undefined;
    alwaysTemplate: boolean;
    html: RenderLinkOptions['html'];
  },
  values: LinkValues,
  ctx: CommandContext,
): Promise<number> {
  const session = await openService(values, ctx, { auth: 'any' });
  let result: EventLinksResult;
  try {
    result = await eventLinksJob({
      client: session.client,
      eventId,
      template: how.template,
      alwaysTemplate: how.alwaysTemplate,
      signal: ctx.signal,
    });
  } catch (err) {
    throw eventNotFound(err, eventId);
  } finally {
    await session.close();
  }
  if (how.format === 'table') {
    const chosen = result.event.chosen;
    const text = [
      keyValues([['Event', eventLine(chosen), 'green']], how.term),
      '',
      table(
        result.links,
        [
          { header: 'Livelox class', cell: (l) => l.serviceClass.name, shrink: true, maxWidth: 40 },
          { header: 'Link', cell: (l) => l.url },
        ],
        how.term,
      ),
      ...result.issues.map((i) => `Note: ${clean(issueText(i))}`),
      '',
      `${plural(result.links.length, 'class', 'classes')} of event ${chosen.id}; ${plural(result.requests, 'request')} to the service.`,
    ].join('\n');
    await emit(ctx, text, how.out);
    return EXIT.ok;
  }
  const worded = { ...result, issues: result.issues.map((i) => issueJson(i)) };
  const rendering = { ok: true, indent: how.out === undefined ? 0 : 2, html: how.html };
  await emit(ctx, renderLinkResult(worded, how.format, rendering), how.out);
  if (how.out !== undefined) ctx.io.err(`Wrote ${plural(result.links.length, 'link')} to ${how.out}.`);
  return EXIT.ok;
}

/**
 * `--lang` and `--no-links-text`, for the HTML fragment only (the same renderer as sync's fragments): checked before
 * any request.
 */
function htmlOption(values: LinkValues, format: OutputFormat): RenderLinkOptions['html'] {
  const given =
    values.lang !== undefined ? '--lang' : values['no-links-text'] !== undefined ? '--no-links-text' : undefined;
  if (given === undefined) return {};
  if (format !== 'html') throw new UsageError(`${given} is about --format html: give --format html too`);
  return fragmentTextOptions(values);
}

export async function run(values: LinkValues, positionals: string[], ctx: CommandContext): Promise<number> {
  const format = formatOption(values.format, ctx.json);
  const eventId = intOption(values, 'event-id', 1, 2 ** 31 - 1);
  if (positionals.length > 1) throw new UsageError(`give one file, got ${positionals.length}`);
  if (positionals.length === 0 && eventId === undefined) {
    throw new UsageError(
      'give the event system export to link (an IOF XML or EMS JSON file), or --event-id N for every class of a service event',
    );
  }
  const race = intOption(values, 'race', 1, 1000);
  const out = stringOption(values, 'out');
  // A report written to a file gets no colours and no terminal width: it is read later, elsewhere.
  const term: Terminal = out === undefined ? terminal(ctx.env) : { color: false, width: undefined };
  const template = stringOption(values, 'template');
  if (template !== undefined) {
    try {
      checkLinkTemplate(template);
    } catch (err) {
      throw err instanceof ValidationError ? optionError('template', err) : err;
    }
  }
  const html = htmlOption(values, format);
  const file = positionals[0];
  if (file === undefined) {
    for (const name of ['race', 'country', 'strict', 'no-courses'] as const) {
      if (values[name] !== undefined)
        throw new UsageError(`--${name} applies to an export; --event-id alone takes none`);
    }
    return eventLinks(
      eventId!,
      { format, out, term, template, alwaysTemplate: values['always-template'] === true, html },
      values,
      ctx,
    );
  }
  const source = await openEmsFile(file, race === undefined ? {} : { race }).catch(raceAsUsage);
  const session = await openService(values, ctx, { auth: 'any' });
  let result: LinkResult;
  try {
    const country = stringOption(values, 'country');
    // Checked before anything else: an exact link found by id would otherwise never look at a mistyped --country.
    if (country !== undefined) {
      await session.client.countries.resolve(country, { signal: ctx.signal }).catch((err: unknown) => {
        throw err instanceof ValidationError ? optionError('country', err) : err;
      });
    }
    result = await linkJob({
      client: session.client,
      source,
      eventId,
      country,
      template,
      useCourses: values['no-courses'] !== true,
      alwaysTemplate: values['always-template'] === true,
      signal: ctx.signal,
      ...(format === 'json' ? {} : { onStep: (step, detail) => ctx.io.err(clean(`${STEP_TEXT[step]} ${detail}…`)) }),
    }).catch(raceAsUsage);
  } finally {
    await session.close();
  }
  const failed =
    result.status !== 'linked' || (values.strict === true && result.unmatchedEms.length > 0) ? EXIT.failure : EXIT.ok;
  // Links need a chosen event: without one, a portal format gets the report (on stderr) instead; JSON says it all,
  // and HTML is the fragment saying there are no links yet (a portal embeds it as it is, never an empty table).
  if (format === 'table' || (format !== 'json' && format !== 'html' && result.status !== 'linked')) {
    const report = humanReport(result, term);
    if (format === 'table') await emit(ctx, report, out);
    else ctx.io.err(report);
    return failed;
  }
  if (format === 'html' && result.status !== 'linked') ctx.io.err(humanReport(result, term));
  // The issues in the CLI's words, as every message it prints; their coded hints stay as data.
  const worded = { ...result, issues: result.issues.map((i) => issueJson(i)) };
  const rendering = { ok: failed === EXIT.ok, indent: out === undefined ? 0 : 2, html };
  await emit(ctx, renderLinkResult(worded, format, rendering), out);
  if (format === 'json') {
    if (out !== undefined) ctx.io.err(`Wrote the result to ${out}.`);
    return failed;
  }
  const rest = unmatchedLines(result);
  if (rest.length > 0) ctx.io.err(rest.join('\n'));
  if (out !== undefined) ctx.io.err(`Wrote ${plural(result.links.length, 'link')} to ${out}.`);
  return failed;
}
