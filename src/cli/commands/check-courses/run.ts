/** `livelox-bridge check-courses <file> --event-id N`: the organiser's course file against the service's courses. */
import { InputError, type Issue } from '../../../errors.js';
import { COURSE_FINDING_KINDS, type CourseFindingKind } from '../../../iof/compare-courses/compare.js';
import {
  checkCoursesInDetail,
  type CheckCoursesResult,
  type CheckedCourses,
  type CheckedFile,
  type SchemaCheck,
} from '../../../jobs/check-courses.js';
import { writePictures, type WrittenPictures } from './pictures.js';
import { UsageError, intOption, numberOption } from '../../command.js';
import { printJson } from '../../json-output.js';
import { eventNotFound, requiredEventIdOption } from '../../event-id.js';
import { clean, keyValues, paint, plural, terminal, type Terminal } from '../../format.js';
import { checkGrid, gridOption } from '../../grid-options.js';
import { errorText, issueJson, issueText } from '../../hints.js';
import { readInput } from '../../input-files.js';
import { schemaErrorLines } from '../../issue-lines.js';
import { schemaOptions } from '../../schema-options.js';
import { openService } from '../../service.js';
import { EXIT, type CommandContext, type Values } from '../../spec.js';
import type { checkCoursesOptions } from './spec.js';

type CheckCoursesValues = Values<typeof checkCoursesOptions>;

/** What each finding kind is called, one and many: the report's group headings and its closing count. */
const NAMES: Readonly<Record<CourseFindingKind, readonly [string, string]>> = {
  invalid_file: ['file not valid against the IOF schema', 'files not valid against the IOF schema'],
  course_missing_on_service: ['course missing on the service', 'courses missing on the service'],
  course_missing_in_organiser: ["course missing in the organiser's file", "courses missing in the organiser's file"],
  control_missing_on_service: ['control missing on the service', 'controls missing on the service'],
  control_missing_in_organiser: ["control missing in the organiser's file", "controls missing in the organiser's file"],
  georeference_differs: ['georeferencing difference', 'georeferencing differences'],
  control_moved: ['moved control', 'moved controls'],
  sequence_changed: ['changed control sequence', 'changed control sequences'],
  length_changed: ['changed length', 'changed lengths'],
  climb_changed: ['changed climb', 'changed climbs'],
  class_missing_on_service: ['class without a course on the service', 'classes without a course on the service'],
  class_missing_in_organiser: [
    "class without a course in the organiser's file",
    "classes without a course in the organiser's file",
  ],
  class_course_changed: ['class on another course', 'classes on other courses'],
};

export async function run(values: CheckCoursesValues, positionals: string[], ctx: CommandContext): Promise<number> {
  if (positionals.length !== 1) {
    throw new UsageError(`takes one course file, got ${positionals.length === 0 ? 'none' : positionals.length}`);
  }
  const file = positionals[0]!;
  const eventId = requiredEventIdOption(values);
  const toleranceM = numberOption(values, 'tolerance-m', 0, 100_000);
  const lengthPct = numberOption(values, 'length-tolerance-pct', 0, 100);
  const climbM = numberOption(values, 'climb-tolerance-m', 0, 10_000);
  const race = intOption(values, 'race', 1, 9999);
  const epsg = intOption(values, 'epsg', 1, 999_999);
  // Checked before anything is read or sent: the organiser's positions have to be projected into this grid.
  if (epsg !== undefined) checkGrid('epsg', epsg);
  const organiserEpsg = gridOption(values, 'organiser-epsg');
  const allowUncompared = values['allow-uncompared'] === true;
  // Before the file is read or the service asked: without a schema the verdict could only be NOT COMPARED.
  const validation = schemaOptions(values, ctx, allowUncompared ? 'allowed' : 'refused');

  const bytes = await readInput(file);
  const session = await openService(values, ctx, { auth: 'any' });
  const html = values.html;
  const svg = values.svg;
  let checked: CheckedCourses;
  try {
    checked = await checkCoursesInDetail(session.client, {
      eventId,
      organiser: { name: file, bytes },
      signal: ctx.signal,
      validation,
      ...(race === undefined ? {} : { race }),
      ...(epsg === undefined ? {} : { projectionEpsgCode: epsg }),
      ...(organiserEpsg === undefined ? {} : { organiserProjection: organiserEpsg }),
      ...(toleranceM === undefined ? {} : { toleranceM }),
      ...(lengthPct === undefined ? {} : { lengthToleranceRatio: lengthPct / 100 }),
      ...(climbM === undefined ? {} : { climbToleranceM: climbM }),
    });
  } catch (err) {
    if (err instanceof InputError && err.reason === 'no_such_race') throw new UsageError(`--race: ${errorText(err)}`);
    throw eventNotFound(err, eventId);
  } finally {
    await session.close();
  }
  const { result } = checked;
  let written: WrittenPictures | undefined;
  if (html !== undefined || svg !== undefined) {
    written = await writePictures(checked, {
      html,
      svg,
      // The page carries the report as the command prints it, never with a terminal's colour codes.
      report: renderReport(result, { color: false, width: undefined }, values.all === true),
      organiserProjection: organiserEpsg,
      verdict: verdictLine(result, false),
      facts: facts(result),
      counts: counts(result),
    });
  }

  const ok = result.verdict === 'same' || (result.verdict === 'not_compared' && allowUncompared);
  if (ctx.json) printJson(ctx, ok, { ...inCliWords(result), ...(written === undefined ? {} : { pictures: written }) });
  else ctx.io.out(renderReport(result, terminal(ctx.env), values.all === true));
  return ok ? EXIT.ok : EXIT.failure;
}

/** The result as `--json` prints it: notes and schema issues in the CLI's words, their coded hints kept as data. */
function inCliWords(r: CheckCoursesResult): CheckCoursesResult {
  return {
    ...r,
    organiser: { ...r.organiser, issues: r.organiser.issues.map((i) => issueJson(i)) },
    service: { ...r.service, issues: r.service.issues.map((i) => issueJson(i)) },
    schema: r.schema.status === 'checked' ? r.schema : { ...r.schema, message: schemaText(r.schema) },
    notes: r.notes.map((n) => issueJson(n)),
  };
}

/** Why the schema check was not done, with its hint in the CLI's words. */
function schemaText(schema: Exclude<SchemaCheck, { status: 'checked' }>): string {
  return issueText({ code: schema.reason, message: schema.message, ...(schema.hint ? { hint: schema.hint } : {}) });
}

/* ------------------------------------------------------------------------------------------------------ render */

/** The human report: what was compared, schema errors, notes, the differences grouped by kind, and a verdict. */
function renderReport(r: CheckCoursesResult, term: Terminal, all: boolean): string {
  const heading = (text: string): string => paint(text, 'bold', term.color);
  const out: string[] = [];
  out.push(heading(`Courses of event ${r.eventId} against ${clean(r.organiser.source)}`), keyValues(facts(r), term));

  if (r.notes.length > 0) {
    out.push('', heading('Notes'));
    for (const n of r.notes) out.push(`  - ${clean(issueText(n))}`);
  }

  for (const kind of COURSE_FINDING_KINDS) {
    const group = r.findings.filter((f) => f.kind === kind);
    if (group.length === 0) continue;
    const [, many] = NAMES[kind];
    out.push('', heading(`${many.charAt(0).toUpperCase()}${many.slice(1)} (${group.length})`));
    // Names in the messages come from the files: `clean` keeps a course name from driving the terminal.
    for (const f of group) {
      out.push(`  ${clean(f.message)}`);
      if (f.kind === 'invalid_file') {
        const file = f.file === 'service' ? r.service : r.organiser;
        out.push(...schemaErrorLines(schemaErrors(file.issues), file.source, all, '    '));
      }
    }
    // Several moved controls that no one transform explains: the fit says why, so that they are not taken for a bad
    // georeference (nor the other way round). One moved control could not be mistaken for one.
    if (kind === 'control_moved' && group.length > 1 && r.georeference?.explains === false) {
      out.push(`  ${clean(r.georeference.message)}`);
    }
  }

  const verdict = verdictLine(r, term.color);
  out.push('', `${verdict.painted}: ${verdict.text}`);
  return out.join('\n');
}

/** What was compared: both files and the tolerances, as the report's head and the page's table say it. */
function facts(r: CheckCoursesResult): Array<[string, string]> {
  const race =
    r.organiser.races > 1
      ? `; race ${r.organiser.race.raceNumber ?? r.organiser.race.index} of ${r.organiser.races}`
      : '';
  const pct = Math.round(r.tolerances.lengthRatio * 1000) / 10;
  return [
    ['Organiser', `${describeFile(r.organiser)}${race}`],
    ['Service', describeFile(r.service)],
    [
      'Compared',
      `${r.positionsCompared ? `positions in ${r.comparedIn}, ` : 'without positions, '}controls within ` +
        `${r.tolerances.controlM} m, lengths within ${pct} % (at least ${r.tolerances.lengthM} m), ` +
        `climbs within ${r.tolerances.climbM} m`,
    ],
  ];
}

/** The verdict's word (painted for a terminal when asked) and the sentence after it: the report's last line. */
function verdictLine(r: CheckCoursesResult, color: boolean): { word: string; painted: string; text: string } {
  const say = (word: string, style: 'green' | 'yellow' | 'red', text: string) => ({
    word,
    painted: paint(word, style, color),
    text,
  });
  if (r.verdict === 'same') {
    return say(
      'SAME',
      'green',
      `the service holds the courses of ${clean(r.organiser.source)}` +
        `${r.notes.length > 0 ? ' (see the notes for what was not compared)' : ''}.`,
    );
  }
  // Nothing public to compare with: not a list of every course "missing on the service".
  if (r.verdict === 'not_published') return say('NOT PUBLISHED', 'yellow', clean(r.publication?.message ?? ''));
  if (r.verdict === 'not_compared') {
    // Nothing differs that could be seen, but positions or the schema were not looked at: "the same" would be a guess.
    const why = [
      ...(r.positions.status === 'compared' ? [] : [r.positions.message]),
      ...(r.schema.status === 'checked' ? [] : [schemaText(r.schema)]),
    ];
    return say('NOT COMPARED', 'yellow', clean(why.join(' ')));
  }
  return say('DIFFERENT', 'red', `${plural(r.findings.length, 'difference')} (${summary(r)}).`);
}

function describeFile(f: CheckedFile): string {
  const verdict = f.valid === null ? 'not checked' : f.valid ? 'valid' : 'NOT VALID';
  return (
    `${clean(f.source)}: IOF ${f.iofVersion}, ${verdict}; ${plural(f.courses, 'course')}, ` +
    `${plural(f.controls, 'control')}, ${plural(f.classes, 'class', 'classes')}` +
    (f.creator === undefined ? '' : ` (${clean(f.creator)})`)
  );
}

/** Errors, not the warnings a validator adds (an unchecked 2.0.3 file). */
function schemaErrors(issues: readonly Issue[]): Issue[] {
  return issues.filter((i) => i.severity !== 'warning' && i.severity !== 'info');
}

/** The findings per kind, in report order, only kinds that occur: `[{ label: 'moved controls', count: 2 }]`. */
function counts(r: CheckCoursesResult): Array<{ label: string; count: number }> {
  return COURSE_FINDING_KINDS.map((kind) => [kind, r.findings.filter((f) => f.kind === kind).length] as const)
    .filter(([, n]) => n > 0)
    .map(([kind, n]) => ({ label: NAMES[kind][n === 1 ? 0 : 1], count: n }));
}

/** `1 moved control, 2 changed control sequences`: the counts per kind, in report order. */
function summary(r: CheckCoursesResult): string {
  return counts(r)
    .map((c) => `${c.count} ${c.label}`)
    .join(', ');
}
