/**
 * The HTML a portal embeds as it is: one event's class links as a fragment (no document around it, no script, no style
 * of its own), for `sync`'s fragments and `link --format html` alike. Readable without any stylesheet: a list of links
 * under a line naming the event, or a sentence saying there are no links yet, and when it was last updated. The class
 * names are hooks for the portal's own stylesheet (or `FRAGMENT_CSS`, which `sync` writes beside the fragments on
 * request); docs/sync.md lists them. Every name from an event system or the service is escaped, controls and bidi
 * overrides dropped.
 */
import { escapeHtml } from '../core/html.js';
import { withoutControls } from '../core/printable.js';
import { ValidationError } from '../errors.js';

/** One class as a fragment shows it: a link named by the portal's class, or why it has none. */
export type FragmentClass =
  | {
      /** The portal's (event system's) class name: the link's text. */
      name: string;
      /** The service's class name: the link's title when it differs. */
      serviceClass: string;
      url: string;
    }
  | {
      name: string;
      /** Why it has no link, for a person: in English (`lang="en"`), as the jobs word it. */
      unmapped: string;
    };

export interface FragmentInput {
  /** The service event's name, said before the links (not shown when there are none). */
  eventName?: string | undefined;
  /** The portal event's link status (`linked`, `gone`, `not_found`, `ambiguous`), in `data-status`. */
  status: string;
  classes: readonly FragmentClass[];
}

/** The words a fragment says; a portal in another language passes its own (with `lang` to match). */
export interface FragmentTexts {
  /** Before the event's name. Default `Livelox:`. */
  event: string;
  /** Instead of the links of an event without any (not linked, gone, or no class linked). Default `No links yet.` */
  noLinks: string;
  /** Before the class's reason, for a class without a link. Default `no link:`. */
  noLink: string;
  /** Before the "last updated" stamp. Default `Updated`. */
  updated: string;
}

export const DEFAULT_FRAGMENT_TEXTS: Readonly<FragmentTexts> = {
  event: 'Livelox:',
  noLinks: 'No links yet.',
  noLink: 'no link:',
  updated: 'Updated',
};

export interface FragmentOptions {
  /** The fragment's language (`lang`, a BCP 47 tag). Default `en`, the language of the default texts. */
  lang?: string | undefined;
  /** When its links last changed: the "last updated" stamp (`<time datetime>`). */
  updated: Date;
  /** The time zone the stamp is shown in (an IANA name). Default `UTC`. */
  timeZone?: string | undefined;
  /** Words to say instead of the defaults. */
  texts?: Partial<FragmentTexts> | undefined;
}

/**
 * Throws a `ValidationError` for a language tag or time zone the fragment could not say, an empty text, or an
 * `updated` that is no date (when given): checked once before a run writes hundreds of fragments, and again by
 * `renderFragment`, so that a caller who skipped it gets the same typed error instead of a RangeError.
 */
export function checkFragmentOptions(options: Omit<FragmentOptions, 'updated'> & { updated?: Date | undefined }): void {
  const issues = [];
  if (
    options.updated !== undefined &&
    !(options.updated instanceof Date && Number.isFinite(options.updated.getTime()))
  ) {
    issues.push({ path: 'updated', code: 'invalid', message: 'is not a valid date' });
  }
  if (options.lang !== undefined && !isLanguageTag(options.lang)) {
    issues.push({ path: 'lang', code: 'invalid', message: `'${options.lang}' is not a language tag such as en or sv` });
  }
  if (options.timeZone !== undefined && !isTimeZone(options.timeZone)) {
    issues.push({ path: 'timeZone', code: 'invalid', message: `'${options.timeZone}' is not a time zone name` });
  }
  for (const [name, text] of Object.entries(options.texts ?? {})) {
    if (typeof text === 'string' && withoutControls(text).trim() === '') {
      issues.push({ path: `texts.${name}`, code: 'empty', message: 'is empty: a reader would see nothing there' });
    }
  }
  if (issues.length > 0) throw new ValidationError('Fragment options', issues);
}

function isLanguageTag(tag: string): boolean {
  try {
    return Intl.getCanonicalLocales(tag).length === 1;
  } catch {
    return false;
  }
}

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Text for an HTML element or attribute: controls dropped (no page needs them), then escaped. */
function htmlText(text: string): string {
  return escapeHtml(withoutControls(text));
}

/**
 * A name as element text, with a `<wbr>` (a place to break, no character) every 12 characters of a word longer than
 * 24: a class name without spaces must not push a phone's page sideways, and only markup can say that without CSS.
 */
function nameText(text: string): string {
  return withoutControls(text)
    .split(/(\s+)/)
    .map((word) => {
      const chars = [...word];
      if (chars.length <= 24) return escapeHtml(word);
      const pieces = [];
      for (let i = 0; i < chars.length; i += 12) pieces.push(escapeHtml(chars.slice(i, i + 12).join('')));
      return pieces.join('<wbr>');
    })
    .join('');
}

function stamp(options: FragmentOptions, lang: string): string {
  const shown = new Intl.DateTimeFormat(lang, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: options.timeZone ?? 'UTC',
    timeZoneName: 'short',
  }).format(options.updated);
  return `<time datetime="${options.updated.toISOString()}">${htmlText(shown)}</time>`;
}

function classItem(c: FragmentClass, texts: FragmentTexts): string {
  if ('unmapped' in c) {
    return `<li class="livelox-unmapped">${nameText(c.name)} <small class="livelox-why">(${htmlText(texts.noLink)} <span lang="en">${htmlText(c.unmapped)}</span>)</small></li>`;
  }
  const title = c.serviceClass === c.name ? '' : ` title="${htmlText(c.serviceClass)}"`;
  return `<li><a href="${htmlText(c.url)}" rel="noopener"${title}>${nameText(c.name)}</a></li>`;
}

/**
 * One event's links as a fragment: `<div class="livelox-links">` holding the event's name, a list with a link per
 * class, and the stamp; an event with no link at all (not linked, gone, or none of its classes) says `texts.noLinks`
 * instead of showing an empty list. Throws a `ValidationError` naming the option for options it cannot say.
 */
export function renderFragment(input: FragmentInput, options: FragmentOptions): string {
  checkFragmentOptions(options);
  const texts = { ...DEFAULT_FRAGMENT_TEXTS, ...options.texts };
  const lang = options.lang ?? 'en';
  const linked = input.classes.some((c) => !('unmapped' in c));
  const open = `<div class="livelox-links${linked ? '' : ' livelox-empty'}" lang="${htmlText(lang)}" data-status="${htmlText(input.status)}">`;
  const updated = `<p class="livelox-updated">${htmlText(texts.updated)} ${stamp(options, lang)}</p>`;
  if (!linked) {
    return [open, `<p class="livelox-none">${htmlText(texts.noLinks)}</p>`, updated, '</div>'].join('\n');
  }
  const event = input.eventName
    ? [`<p class="livelox-event">${htmlText(texts.event)} ${nameText(input.eventName)}</p>`]
    : [];
  return [
    open,
    ...event,
    '<ul class="livelox-classes">',
    ...input.classes.map((c) => classItem(c, texts)),
    '</ul>',
    updated,
    '</div>',
  ].join('\n');
}

/**
 * The default stylesheet, written on request beside the fragments: it only refines what reads well without it (links
 * in a wrapping row of chips, the stamp muted). Every rule is scoped to `.livelox-links`, so it never reaches the
 * portal's own page.
 */
export const FRAGMENT_CSS = `/* livelox-bridge: the default look of the link fragments (docs/sync.md lists the class names). */
.livelox-links { font: inherit; margin: 0.5em 0; }
.livelox-links .livelox-event { margin: 0 0 0.4em; font-weight: 600; }
.livelox-links .livelox-classes { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 0.35em; }
.livelox-links .livelox-classes li { margin: 0; max-width: 100%; }
.livelox-links .livelox-classes a { display: inline-block; padding: 0.15em 0.6em; border: 1px solid #c8d1dc; border-radius: 1em; text-decoration: none; color: #0b5394; overflow-wrap: anywhere; }
.livelox-links .livelox-classes a:hover, .livelox-links .livelox-classes a:focus { background: #eaf2fb; text-decoration: underline; }
.livelox-links .livelox-unmapped { display: inline-block; padding: 0.15em 0.6em; border: 1px dashed #c8d1dc; border-radius: 1em; color: #59636e; overflow-wrap: anywhere; }
.livelox-links .livelox-why { font-size: 0.85em; }
.livelox-links .livelox-none { margin: 0; color: #59636e; font-style: italic; }
.livelox-links .livelox-updated { margin: 0.4em 0 0; color: #59636e; font-size: 0.85em; }
`;
