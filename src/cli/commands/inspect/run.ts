/** `livelox-bridge inspect <file>`: what an IOF XML file is and holds, with what lint finds in course data. */
import { inspectIof, type InspectClass, type InspectControl, type InspectSummary } from '../../../iof/inspect.js';
import { UsageError } from '../../command.js';
import { ELLIPSIS, keyValues, paint, plural, table, type Terminal, terminal } from '../../format.js';
import { gridOption } from '../../grid-options.js';
import { issueJson } from '../../hints.js';
import { printJson } from '../../json-output.js';
import { readInput } from '../../input-files.js';
import { formatLintIssue } from '../../issue-lines.js';
import { EXIT, type CommandContext, type Values } from '../../spec.js';
import { INSPECT_ROWS, type inspectOptions } from './spec.js';

export async function run(
  values: Values<typeof inspectOptions>,
  positionals: string[],
  ctx: CommandContext,
): Promise<number> {
  if (positionals.length !== 1) {
    throw new UsageError(`takes one file, got ${positionals.length === 0 ? 'none' : positionals.length}`);
  }
  const file = positionals[0]!;
  const epsg = gridOption(values, 'epsg');
  const bytes = await readInput(file);
  const summary = await inspectIof(bytes, file, { signal: ctx.signal, ...(epsg === undefined ? {} : { epsg }) });
  if (ctx.json) {
    printJson(ctx, true, { ...summary, issues: summary.issues.map((i) => issueJson(i)) });
    return EXIT.ok;
  }
  ctx.io.out(render(summary, terminal(ctx.env), values.all === true));
  return EXIT.ok;
}

/* ------------------------------------------------------------------------------------------------------ render */

const ENCODING_NAMES: Readonly<Record<string, string>> = {
  'utf-8': 'UTF-8',
  'utf-16le': 'UTF-16 LE',
  'utf-16be': 'UTF-16 BE',
  'iso-8859-1': 'ISO-8859-1',
  'windows-1252': 'windows-1252',
};

function render(s: InspectSummary, term: Terminal, all: boolean): string {
  const heading = (text: string): string => paint(text, 'bold', term.color);
  const out: string[] = [];
  out.push(
    keyValues(
      [
        ['File', `${s.source} (${size(s.bytes)})`],
        ['Encoding', `${ENCODING_NAMES[s.encoding] ?? s.encoding}${s.bom ? ' with byte order mark' : ''}`],
        ['IOF', `${s.version} ${s.messageType}${!s.namespace && s.version === '3.0' ? ' (no namespace)' : ''}`],
        ['Creator', s.creator],
        ['Created', s.createTime],
        ['Contents', contents(s.counts)],
      ],
      term,
    ),
  );

  if (s.event) {
    const e = s.event;
    out.push(
      '',
      heading('Event'),
      indent(
        keyValues(
          [
            ['Name', e.name === '' ? '(no name)' : e.name],
            ['Id', e.id],
            ['Start', e.start],
            ['End', e.end],
            ['Organisers', e.organisers.join(', ')],
          ],
          term,
        ),
      ),
    );
  }

  if (s.races.length > 0) {
    out.push(
      '',
      heading(`Races (${s.races.length})`),
      ...limited(s.races, all, (rows) =>
        table(
          rows,
          [
            { header: 'number', cell: (r) => (r.number === undefined ? '' : String(r.number)), align: 'right' },
            { header: 'name', cell: (r) => r.name ?? '', maxWidth: 40, shrink: true },
            { header: 'start', cell: (r) => r.start ?? '' },
          ],
          term,
        ),
      ),
    );
  }

  if (s.classes.length > 0) {
    // Class lists and course data name classes without anyone in them: an entries column of zeros says nothing.
    const withEntries = ENTRY_TYPES.has(s.messageType);
    const withLegs = s.classes.some((c) => c.legs !== undefined);
    const withShort = s.classes.some((c) => c.shortName !== undefined);
    out.push(
      '',
      heading(`Classes (${s.classes.length})`),
      ...limited(s.classes, all, (rows) =>
        table(
          rows,
          [
            {
              header: 'name',
              cell: (c) => c.name || (c.id === undefined ? '(unnamed)' : `(id ${c.id})`),
              maxWidth: 32,
              shrink: true,
            },
            ...(withShort ? [{ header: 'short', cell: (c: InspectClass) => c.shortName ?? '', maxWidth: 16 }] : []),
            { header: 'course', cell: (c) => c.courses.join(', ') || '-', maxWidth: 40, shrink: true },
            ...(withLegs
              ? [{ header: 'legs', cell: (c: InspectClass) => String(c.legs ?? ''), align: 'right' as const }]
              : []),
            ...(withEntries
              ? [{ header: 'entries', cell: (c: InspectClass) => String(c.entries), align: 'right' as const }]
              : []),
          ],
          term,
        ),
      ),
    );
  }

  const races = new Set([...s.courses.map((c) => c.race), ...s.controls.map((c) => c.race)]).size;
  if (s.courses.length > 0) {
    out.push(
      '',
      heading(`Courses (${s.courses.length})`),
      ...limited(s.courses, all, (rows) =>
        table(
          rows,
          [
            ...(races > 1
              ? [{ header: 'race', cell: (c: (typeof rows)[number]) => String(c.race + 1), align: 'right' as const }]
              : []),
            { header: 'name', cell: (c) => c.name, maxWidth: 32, shrink: true },
            { header: 'family', cell: (c) => c.family ?? '', maxWidth: 20, shrink: true },
            { header: 'length', cell: (c) => (c.length === undefined ? '' : `${c.length} m`), align: 'right' },
            { header: 'climb', cell: (c) => (c.climb === undefined ? '' : `${c.climb} m`), align: 'right' },
            { header: 'controls', cell: (c) => String(c.controls), align: 'right' },
            { header: 'sequence', cell: (c) => c.sequence.join(' '), maxWidth: 60, shrink: true, minWidth: 12 },
          ],
          term,
        ),
      ),
    );
  }

  if (s.controls.length > 0) {
    const note =
      s.positions === 'converted'
        ? ` — positions converted to degrees from ${projectionLabel(s)}`
        : s.positions === 'grid'
          ? ' — positions are not degrees (see the issues)'
          : '';
    const projected = s.controls.some((c) => c.projected !== undefined);
    const mapped = s.controls.some((c) => c.mapPosition !== undefined);
    const positioned = s.controls.some((c) => c.position !== undefined);
    out.push(
      '',
      heading(`Controls (${s.controls.length})${note}`),
      ...limited(s.controls, all, (rows) =>
        table(
          rows,
          [
            ...(races > 1
              ? [{ header: 'race', cell: (c: InspectControl) => String(c.race + 1), align: 'right' as const }]
              : []),
            { header: 'id', cell: (c) => c.id },
            { header: 'type', cell: (c) => c.type },
            ...(positioned
              ? [
                  { header: 'lat', cell: (c: InspectControl) => coordinate(c.position?.lat), align: 'right' as const },
                  { header: 'lng', cell: (c: InspectControl) => coordinate(c.position?.lng), align: 'right' as const },
                ]
              : []),
            ...(projected
              ? [
                  {
                    header: 'easting',
                    cell: (c: InspectControl) => grid(c.projected?.easting),
                    align: 'right' as const,
                  },
                  {
                    header: 'northing',
                    cell: (c: InspectControl) => grid(c.projected?.northing),
                    align: 'right' as const,
                  },
                ]
              : []),
            ...(mapped
              ? [
                  {
                    header: 'map x, y',
                    cell: (c: InspectControl) =>
                      c.mapPosition ? `${c.mapPosition.x}, ${c.mapPosition.y} ${c.mapPosition.unit}` : '',
                  },
                ]
              : []),
          ],
          term,
        ),
      ),
    );
  }

  if (s.messageType === 'CourseData') {
    const counts = (['error', 'warning', 'info'] as const)
      .map((sev) => [sev, s.issues.filter((i) => i.severity === sev).length] as const)
      .filter(([, n]) => n > 0)
      .map(([sev, n]) => plural(n, sev));
    out.push('', heading(`Issues (${s.issues.length === 0 ? 'none' : counts.join(', ')})`));
    if (s.issues.length === 0) out.push('  No problems found.');
    const codeWidth = Math.max(0, ...s.issues.map((i) => i.code.length));
    for (const issue of s.issues) out.push(formatLintIssue(issue, term, codeWidth));
  }
  return out.join('\n');
}

/** Message types that list persons or teams per class. */
const ENTRY_TYPES: ReadonlySet<string> = new Set(['EntryList', 'StartList', 'ResultList', 'CompetitorList']);

const SINGULAR: Readonly<Record<string, string>> = { classes: 'class', entries: 'entry', persons: 'person' };

/** `1 race, 3 classes, 12 courses`: counts as words, singular where there is one. */
function contents(counts: Readonly<Record<string, number>>): string {
  return Object.entries(counts)
    .filter(([k, n]) => n > 0 || k === 'classes' || k === 'courses' || k === 'controls')
    .map(([k, n]) => `${n} ${n === 1 ? (SINGULAR[k] ?? k.replace(/s$/, '')) : k}`)
    .join(', ');
}

function limited<T>(rows: readonly T[], all: boolean, render: (rows: readonly T[]) => string): string[] {
  if (all || rows.length <= INSPECT_ROWS) return [indent(render(rows))];
  return [
    indent(render(rows.slice(0, INSPECT_ROWS))),
    `  ${ELLIPSIS} and ${rows.length - INSPECT_ROWS} more (--all shows every row)`,
  ];
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((l) => (l === '' ? l : `  ${l}`))
    .join('\n');
}

function projectionLabel(s: InspectSummary): string {
  return s.projection?.epsg === undefined ? (s.projection?.name ?? 'the grid') : `EPSG:${s.projection.epsg}`;
}

function coordinate(n: number | undefined): string {
  if (n === undefined) return '';
  // Degrees to 6 decimals (about 10 cm); grid values (not degrees) as written.
  return Math.abs(n) <= 180 ? n.toFixed(6) : String(n);
}

function grid(n: number | undefined): string {
  return n === undefined ? '' : n.toFixed(2);
}

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
