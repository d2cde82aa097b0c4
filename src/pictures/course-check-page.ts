/**
 * The course check as one page: the verdict and its counts first, then every course drawn as a map (`course-map.ts`),
 * the class-to-course table with each mismatch marked in words, and the text report below, word for word. Built on
 * the shared shell (`page.ts`): no script, no external resource.
 */
import { escapeHtml } from '../core/html.js';
import { drawCourseMap, sameSequence, type CourseMapInput } from './course-map.js';
import { htmlPage } from './page.js';

export type PageVerdict = 'same' | 'different' | 'not_compared' | 'not_published';

/** How a class's courses compare: the same, another course, or a course on one side only. */
export type ClassStatus = 'same' | 'changed' | 'missing_on_service' | 'missing_in_organiser';

export interface ClassRow {
  /** The class's name (the organiser's, or the service's when only it has the class). */
  className: string;
  /** The courses the class runs on each side (empty: none). */
  organiser: readonly string[];
  service: readonly string[];
  status: ClassStatus;
}

export interface CourseCheckPageInput {
  /** The page's title and heading: `Courses of event 12345 against CourseData.xml`. */
  title: string;
  verdict: PageVerdict;
  /** The verdict as the text report says it: the word (`DIFFERENT`) and what follows it. */
  verdictWord: string;
  verdictText: string;
  /** The georeferencing difference in words, when one transform explains the differences. */
  georeference?: string;
  /** What was compared, as label and value (`Organiser`, `CourseData.xml: IOF 3.0, valid; 4 courses`). */
  facts: ReadonlyArray<readonly [string, string]>;
  /** Findings per kind, in report order, only kinds that occur (`moved controls`, 2). */
  counts: ReadonlyArray<{ label: string; count: number }>;
  courses: readonly CourseMapInput[];
  /** Empty when classes were not compared (a note in the report says why). */
  classes: readonly ClassRow[];
  /** The text report, exactly as the command prints it without colours. */
  report: string;
}

const VERDICT_CLASS: Readonly<Record<PageVerdict, string>> = {
  same: 'ok',
  different: 'bad',
  not_compared: 'warn',
  not_published: 'warn',
};

const STATUS_WORDS: Readonly<Record<ClassStatus, string>> = {
  same: 'same',
  changed: 'DIFFERENT: another course on the service',
  missing_on_service: 'DIFFERENT: no course on the service',
  missing_in_organiser: "DIFFERENT: no course in the organiser's file",
};

const CSS = `
/* File names are long words: they break anywhere rather than widen a phone's page. */
h1, .verdict, .facts td { overflow-wrap: anywhere; }
.counts { margin: 6px 0 0; padding-left: 20px; }
.facts th { white-space: nowrap; }
.course { break-inside: avoid; }
/* A map uses the page's width on a wide screen (its lettering grows with it), and shrinks on a phone. */
.course svg { width: 100%; max-width: 900px; }
.classes td.status { white-space: nowrap; }
tr.attention td.status { font-weight: bold; }
`;

function verdictBanner(input: CourseCheckPageInput): string {
  const counts =
    input.counts.length === 0
      ? ''
      : `<ul class="counts">${input.counts
          .map((c) => `<li data-count="${c.count}">${c.count} ${escapeHtml(c.label)}</li>`)
          .join('')}</ul>`;
  const fit = input.georeference === undefined ? '' : `<p class="georeference">${escapeHtml(input.georeference)}</p>`;
  return (
    `<section class="verdict ${VERDICT_CLASS[input.verdict]}" data-verdict="${input.verdict}">` +
    `<strong>${escapeHtml(input.verdictWord)}</strong>: ${escapeHtml(input.verdictText)}${fit}${counts}</section>`
  );
}

function factsTable(facts: CourseCheckPageInput['facts']): string {
  const rows = facts.map(([k, v]) => `<tr><th scope="row">${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`);
  return `<div class="scroll"><table class="facts">${rows.join('')}</table></div>`;
}

function courseSection(course: CourseMapInput, i: number): string {
  const id = `c${i + 1}`;
  return (
    `<section class="course" id="${id}-section" data-course="${escapeHtml(course.name)}">` +
    `<h3>${escapeHtml(course.name)}</h3><figure>${drawCourseMap(course, { idPrefix: id })}` +
    `<figcaption>Positions in ${escapeHtml(course.plane)}; controls within ${course.toleranceM} m count as the same. ` +
    `Circles: the organiser's file; squares: the service.` +
    (course.serviceSequence && !sameSequence(course.organiserSequence, course.serviceSequence)
      ? " Dashed legs: the service's sequence, where it differs from the organiser's."
      : '') +
    '</figcaption></figure></section>'
  );
}

function courseList(names: readonly string[]): string {
  return names.length === 0 ? '<span class="muted">none</span>' : escapeHtml(names.join(', '));
}

function classTable(rows: readonly ClassRow[]): string {
  if (rows.length === 0) return '<p class="muted">Classes were not compared (the report below says why).</p>';
  const body = rows.map(
    (r) =>
      `<tr${r.status === 'same' ? '' : ' class="attention"'} data-status="${r.status}"><td>${escapeHtml(r.className)}</td>` +
      `<td>${courseList(r.organiser)}</td><td>${courseList(r.service)}</td>` +
      `<td class="status">${r.status === 'same' ? '' : '⚠ '}${escapeHtml(STATUS_WORDS[r.status])}</td></tr>`,
  );
  return (
    '<div class="scroll"><table class="classes"><thead><tr><th scope="col">Class</th>' +
    '<th scope="col">Organiser\'s file</th><th scope="col">Service</th><th scope="col">Status</th></tr></thead>' +
    `<tbody>${body.join('')}</tbody></table></div>`
  );
}

/** The whole page, as one self-contained HTML document. */
export function courseCheckPage(input: CourseCheckPageInput): string {
  const courses =
    input.courses.length === 0
      ? '<p class="muted">No course to draw.</p>'
      : input.courses.map((c, i) => courseSection(c, i)).join('\n');
  const body = [
    `<h1>${escapeHtml(input.title)}</h1>`,
    verdictBanner(input),
    factsTable(input.facts),
    `<h2>Courses (${input.courses.length})</h2>`,
    courses,
    '<h2>Classes and their courses</h2>',
    classTable(input.classes),
    '<h2>Report</h2>',
    `<pre class="report">${escapeHtml(input.report)}</pre>`,
  ].join('\n');
  return htmlPage({ lang: 'en', title: input.title, css: CSS, body });
}
