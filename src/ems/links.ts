/**
 * Viewer links for mapped classes, and their renderings for portals: JSON, CSV, Markdown and an HTML fragment.
 * Names come from event systems and the service, so every rendering escapes them for where they end up.
 */
import { escapeHtml } from '../core/html.js';
import { ValidationError } from '../errors.js';

/**
 * The link built when the service gives no class url. `{viewerUrl}` is the service's viewer site
 * (`https://www.livelox.com`); its class page is `/Viewer?classId=N`, which the service also accepts without the event
 * and class names that its own urls carry for readability.
 */
export const DEFAULT_LINK_TEMPLATE = '{viewerUrl}/Viewer?classId={classId}';

export const LINK_PLACEHOLDERS = ['viewerUrl', 'classId', 'eventId', 'className', 'eventName'] as const;
export type LinkPlaceholder = (typeof LINK_PLACEHOLDERS)[number];

export interface LinkValues {
  viewerUrl: string;
  classId: number;
  eventId: number;
  className: string;
  eventName: string;
}

/** Throws a `ValidationError` for an unknown placeholder or a template that cannot give an http(s) address. */
export function checkLinkTemplate(template: string): void {
  const unknown = [...template.matchAll(/\{([^{}]*)\}/g)]
    .map((m) => m[1]!)
    .filter((name) => !(LINK_PLACEHOLDERS as readonly string[]).includes(name));
  const issues = unknown.map((name) => ({
    path: 'template',
    code: 'unknown_placeholder',
    message: `{${name}} is not a placeholder; use ${LINK_PLACEHOLDERS.map((p) => `{${p}}`).join(', ')}`,
  }));
  if (!template.includes('{classId}') && !template.includes('{className}')) {
    issues.push({
      path: 'template',
      code: 'no_class',
      message: 'names no class: every class would get the same link (use {classId})',
    });
  }
  const sample = fillTemplate(template, {
    viewerUrl: 'https://viewer.example',
    classId: 1,
    eventId: 1,
    className: 'H21',
    eventName: 'Event',
  });
  if (!isWebUrl(sample)) {
    issues.push({ path: 'template', code: 'not_a_url', message: `does not give an http(s) address (${sample})` });
  }
  if (issues.length > 0) throw new ValidationError('Link template', issues);
}

function fillTemplate(template: string, values: LinkValues): string {
  return template.replace(/\{(viewerUrl|classId|eventId|className|eventName)\}/g, (_, name: LinkPlaceholder) => {
    if (name === 'viewerUrl') return values.viewerUrl.replace(/\/+$/, '');
    return encodeURIComponent(String(values[name]));
  });
}

/** Whether `text` is an absolute http or https address: anything else (`javascript:`) never becomes a link. */
export function isWebUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/**
 * The link of one class: the service's own class url when it gives an http(s) one, otherwise the template filled in.
 * `from` says which, so that a portal can tell links the service vouches for.
 */
export function classLink(
  serviceUrl: string | undefined,
  template: string,
  values: LinkValues,
): { url: string; from: 'service' | 'template' } {
  if (serviceUrl !== undefined && isWebUrl(serviceUrl)) return { url: serviceUrl, from: 'service' };
  return { url: fillTemplate(template, values), from: 'template' };
}

// ---- Renderings

export interface LinkRow {
  /** The class as the event system names it. */
  emsClass: string;
  serviceClass: string;
  classId: number;
  url: string;
}

export type LinkFormat = 'json' | 'csv' | 'md' | 'html';
export const LINK_FORMATS: readonly LinkFormat[] = ['json', 'csv', 'md', 'html'];

/**
 * One CSV field (RFC 4180). Always quoted; a leading `=`, `+`, `-`, `@` or control character is prefixed with `'` so
 * that a spreadsheet opening the file shows a hostile class name instead of running it as a formula.
 */
export function csvField(text: string): string {
  // A plain negative number is data; anything else starting with a sign may be a formula (`-1+cmd|...`).
  const safe = /^[=+\-@\t\r]/.test(text) && !/^-\d+(?:\.\d+)?$/.test(text) ? `'${text}` : text;
  return `"${safe.replace(/"/g, '""')}"`;
}

function mdText(text: string): string {
  return text.replace(/[\\`*_{}[\]()<>#+!|~]/g, (c) => `\\${c}`).replace(/\r?\n/g, ' ');
}

/** An address inside Markdown's `(...)`: parentheses, spaces and angle brackets would end or break it. */
function mdUrl(url: string): string {
  // encodeURIComponent leaves parentheses alone, and those are the ones that end a Markdown link.
  return url.replace(/[()\s<>]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

export function renderLinks(rows: readonly LinkRow[], format: Exclude<LinkFormat, 'json'>, eventName: string): string {
  switch (format) {
    case 'csv':
      return [
        ['ems_class', 'service_class', 'class_id', 'url'].join(','),
        ...rows.map((r) => [r.emsClass, r.serviceClass, String(r.classId), r.url].map(csvField).join(',')),
      ].join('\r\n');
    case 'md':
      return [
        `| Class | Livelox |`,
        `| --- | --- |`,
        ...rows.map((r) => `| ${mdText(r.emsClass)} | [${mdText(r.serviceClass)}](${mdUrl(r.url)}) |`),
      ].join('\n');
    case 'html':
      return [
        `<table class="livelox-links">`,
        `<caption>${escapeHtml(eventName)}</caption>`,
        `<thead><tr><th scope="col">Class</th><th scope="col">Livelox</th></tr></thead>`,
        `<tbody>`,
        ...rows.map(
          (r) =>
            `<tr><td>${escapeHtml(r.emsClass)}</td><td><a href="${escapeHtml(r.url)}" rel="noopener">${escapeHtml(r.serviceClass)}</a></td></tr>`,
        ),
        `</tbody>`,
        `</table>`,
      ].join('\n');
  }
}
