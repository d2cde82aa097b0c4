/**
 * A link job's result as a portal embeds it: JSON, CSV, Markdown or an HTML fragment. `LINK_FORMATS` is the one list
 * of these formats; the CLI's `--format` and its help are built from it. Names come from event systems and the
 * service, so every rendering escapes them for where they end up, and none lets a control character or a bidi override
 * through raw (core/printable.ts): CSV, Markdown and HTML drop them, JSON escapes them.
 */
import { escapeJsonControls, withoutControls } from '../core/printable.js';
import { renderFragment, type FragmentClass, type FragmentOptions } from './fragment.js';

export const LINK_FORMATS = ['json', 'csv', 'md', 'html'] as const;
export type LinkFormat = (typeof LINK_FORMATS)[number];

export interface LinkRow {
  /** The class as the event system names it. */
  emsClass: string;
  serviceClass: string;
  classId: number;
  url: string;
}

/** A class of the event system that has no link (sync's `unmapped` class): shown without one, with why. */
export interface UnlinkedRow {
  emsClass: string;
  /** Why it has no link, for a person. */
  unmapped: string;
}

/**
 * What a rendering reads of a link result (`LinkResult` of jobs/link.ts has it): the chosen event's name and a link
 * per mapped class. Said here by shape, so that links/ depends on no job.
 */
export interface LinkedEvent {
  /** `linked`, `ambiguous` or `not_found`, as a link result says: the HTML fragment's `data-status`. Default `linked`. */
  status?: string;
  event: { chosen?: { name: string } };
  links: ReadonlyArray<{ emsClass: { name: string }; serviceClass: { id: number; name: string }; url: string }>;
}

export interface RenderLinkOptions {
  /** The JSON document's `ok`: whether the caller counts the result a success (it may ask for every class mapped). */
  ok: boolean;
  /** Spaces of JSON indentation: 0 (one line, for programs reading stdout) or 2 (a file a person may open). */
  indent?: number;
  /** For `html`: the fragment's language, texts and stamp (`updated` defaults to now). */
  html?: Partial<FragmentOptions> | undefined;
}

/** One row per mapped class, in the result's order. */
export function linkRows(result: LinkedEvent): LinkRow[] {
  return result.links.map((l) => ({
    emsClass: l.emsClass.name,
    serviceClass: l.serviceClass.name,
    classId: l.serviceClass.id,
    url: l.url,
  }));
}

/**
 * The result in `format`. JSON is the whole result after `ok` (a program wants the reasons and candidates too); the
 * other formats are the links alone, for a result whose event was chosen.
 */
export function renderLinkResult(result: LinkedEvent, format: LinkFormat, options: RenderLinkOptions): string {
  if (format === 'json') {
    return escapeJsonControls(JSON.stringify({ ok: options.ok, ...result }, null, options.indent ?? 0));
  }
  const eventName = result.event.chosen?.name ?? '';
  if (format !== 'html') return renderLinks(linkRows(result), format, eventName);
  // Without a chosen event there are no links: the fragment says "no links yet", as sync's do.
  const classes = fragmentClasses(linkRows(result));
  const html = { ...options.html, updated: options.html?.updated ?? new Date() };
  return renderFragment({ eventName, status: result.status ?? 'linked', classes }, html);
}

function fragmentClasses(rows: ReadonlyArray<LinkRow | UnlinkedRow>): FragmentClass[] {
  return rows.map((r) =>
    'unmapped' in r
      ? { name: r.emsClass, unmapped: r.unmapped }
      : { name: r.emsClass, serviceClass: r.serviceClass, url: r.url },
  );
}

/**
 * One CSV field (RFC 4180). Always quoted; control characters become spaces and bidi controls are dropped; a leading
 * `=`, `+`, `-` or `@` (after spaces) is prefixed with `'` so that a spreadsheet opening the file shows a hostile class
 * name instead of running it as a formula.
 */
export function csvField(raw: string): string {
  const text = withoutControls(raw);
  // A plain negative number is data; anything else starting with a sign may be a formula (`-1+cmd|...`). A leading
  // tab or line break became a space above, and a spreadsheet skips spaces before a formula.
  const safe = /^ *[=+\-@]/.test(text) && !/^-\d+(?:\.\d+)?$/.test(text) ? `'${text}` : text;
  return `"${safe.replace(/"/g, '""')}"`;
}

function mdText(text: string): string {
  return withoutControls(text).replace(/[\\`*_{}[\]()<>#+!|~]/g, (c) => `\\${c}`);
}

/** An address inside Markdown's `(...)`: parentheses, spaces and angle brackets would end or break it. */
function mdUrl(url: string): string {
  // encodeURIComponent leaves parentheses alone, and those are the ones that end a Markdown link. Control characters
  // (ESC, BEL, C1) and bidi overrides are encoded too: a URL from service data must not reach a terminal or a page raw.
  // eslint-disable-next-line no-control-regex -- encoding control characters is the point
  return url.replace(/[()\s<>\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, (c) =>
    encodeURIComponent(c).replace(/[()]/g, (p) => `%${p.charCodeAt(0).toString(16).toUpperCase()}`),
  );
}

/**
 * Rows for a page: CSV (CRLF lines), a Markdown table, or the HTML fragment of fragment.ts (a link per class named by
 * the event system's class, `html` its language, texts and stamp). A class without a link is a row saying `unmapped`
 * (in HTML a `livelox-unmapped` item saying why).
 */
export function renderLinks(
  rows: ReadonlyArray<LinkRow | UnlinkedRow>,
  format: Exclude<LinkFormat, 'json'>,
  eventName: string,
  html: FragmentOptions = { updated: new Date() },
): string {
  switch (format) {
    case 'csv':
      return [
        ['ems_class', 'service_class', 'class_id', 'url'].join(','),
        ...rows.map((r) =>
          ('unmapped' in r ? [r.emsClass, '', '', ''] : [r.emsClass, r.serviceClass, String(r.classId), r.url])
            .map(csvField)
            .join(','),
        ),
      ].join('\r\n');
    case 'md':
      return [
        `| Class | Livelox |`,
        `| --- | --- |`,
        ...rows.map((r) =>
          'unmapped' in r
            ? `| ${mdText(r.emsClass)} | unmapped: ${mdText(r.unmapped)} |`
            : `| ${mdText(r.emsClass)} | [${mdText(r.serviceClass)}](${mdUrl(r.url)}) |`,
        ),
      ].join('\n');
    case 'html':
      return renderFragment({ eventName, status: 'linked', classes: fragmentClasses(rows) }, html);
  }
}
