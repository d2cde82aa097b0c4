/**
 * The viewer link of a mapped class: the service's own class url when it gives one, otherwise a template filled in.
 * Templates come from users (`link --template`), so one is checked whole before any class gets a link from it.
 */
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

const PLACEHOLDER = new RegExp(`\\{(${LINK_PLACEHOLDERS.join('|')})\\}`, 'g');

function fillTemplate(template: string, values: LinkValues): string {
  return template.replace(PLACEHOLDER, (_, name: LinkPlaceholder) => {
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
