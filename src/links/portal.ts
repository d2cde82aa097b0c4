/**
 * The links of every event of a portal, as `sync` leaves them: the document a portal embeds (JSON or CSV, one file),
 * and one HTML fragment per portal event; service text passes render.ts's escaping (controls and bidi overrides never
 * raw). Said by shape (`PortalLinks`), so that links/ depends on no job or store.
 */
import { escapeJsonControls } from '../core/printable.js';
import { renderFragment, type FragmentClass, type FragmentOptions } from './fragment.js';
import { csvField } from './render.js';

export const PORTAL_LINK_FORMATS = ['json', 'csv'] as const;
export type PortalLinkFormat = (typeof PORTAL_LINK_FORMATS)[number];

/**
 * One class of a portal event: linked (with its url) or `unmapped` (it was linked, and maps to no service class now:
 * why and since when). The same shape as `sync --json` prints in its links.
 */
type PortalClassLink =
  | {
      /** The portal's class name. */
      name: string;
      status: 'linked';
      classId: number;
      /** The service class's name. */
      serviceClass: string;
      url: string;
      from?: string;
      method?: string;
    }
  | {
      name: string;
      status: 'unmapped';
      reason: string;
      since: string;
      was?: { classId: number; serviceClass: string };
    };

/** One portal event's links, and for an event not linked (`gone`, `not_found`, `ambiguous`) why and since when. */
export interface PortalLinks {
  key: string;
  status: string;
  eventId?: number | undefined;
  eventName?: string | undefined;
  reason?: string | undefined;
  since?: string | undefined;
  classes: readonly PortalClassLink[];
}

/**
 * Where a portal event's fragment is (`sync`'s `index.json` lists one per portal event): its file in the folder, and
 * when its links last changed (the stamp it shows).
 */
export interface FragmentIndexEntry {
  key: string;
  /** The file's name in the folder (fragment-names.ts). */
  file: string;
  status: string;
  /** The service event it links (or linked, for `gone`). */
  eventId?: number | undefined;
  /** When its links last changed (ISO 8601, UTC). */
  updated: string;
}

/** The classes a portal event's fragment shows: none for an event not linked (a gone event's links lead nowhere). */
function fragmentClasses(e: PortalLinks): FragmentClass[] {
  if (e.status !== 'linked') return [];
  return e.classes.map((c) =>
    c.status === 'linked'
      ? { name: c.name, serviceClass: c.serviceClass, url: c.url }
      : { name: c.name, unmapped: c.reason },
  );
}

/** A class in the document, its fields in one order whatever order the record had them in. */
function classDocument(c: PortalClassLink): Record<string, unknown> {
  if (c.status === 'unmapped') {
    return { name: c.name, status: c.status, reason: c.reason, since: c.since, ...(c.was ? { was: c.was } : {}) };
  }
  return {
    name: c.name,
    status: c.status,
    classId: c.classId,
    serviceClass: c.serviceClass,
    url: c.url,
    ...(c.from === undefined ? {} : { from: c.from }),
    ...(c.method === undefined ? {} : { method: c.method }),
  };
}

/**
 * Every portal event's links in `format`: JSON `{ events: [...] }`, or CSV with one row per class (linked or
 * unmapped) and one for an event without classes.
 */
export function renderPortalLinks(
  events: readonly PortalLinks[],
  format: PortalLinkFormat,
  fragments?: ReadonlyMap<string, FragmentIndexEntry>,
): string {
  const fragmentOf = (key: string) => fragments?.get(key);
  if (format === 'json') {
    const doc = events.map((e) => ({
      key: e.key,
      status: e.status,
      ...(e.eventId === undefined ? {} : { eventId: e.eventId }),
      ...(e.eventName === undefined ? {} : { eventName: e.eventName }),
      ...(e.status === 'linked' || e.reason === undefined ? {} : { reason: e.reason }),
      ...(e.since === undefined ? {} : { since: e.since }),
      classes: e.classes.map(classDocument),
      ...(fragmentOf(e.key)
        ? { fragment: { file: fragmentOf(e.key)!.file, updated: fragmentOf(e.key)!.updated } }
        : {}),
    }));
    return `${escapeJsonControls(JSON.stringify({ events: doc }, null, 2))}\n`;
  }
  const lines = [CSV_COLUMNS];
  for (const e of events) {
    const head = [e.key, e.status, e.eventId === undefined ? '' : String(e.eventId), e.eventName ?? ''];
    const tail = [fragmentOf(e.key)?.file ?? '', fragmentOf(e.key)?.updated ?? ''];
    if (e.classes.length === 0) {
      const reason = e.status === 'linked' ? '' : (e.reason ?? '');
      lines.push([...head, '', '', '', '', '', reason, e.since ?? '', ...tail]);
    }
    for (const c of e.classes) {
      lines.push(
        c.status === 'linked'
          ? [...head, c.name, c.serviceClass, String(c.classId), c.url, c.status, '', '', ...tail]
          : [...head, c.name, '', '', '', c.status, c.reason, c.since, ...tail],
      );
    }
  }
  return `${lines.map((l) => l.map(csvField).join(',')).join('\r\n')}\r\n`;
}

/** The CSV's columns: the event, then one class; `reason` and `since` for an unmapped class or an event not linked. */
const CSV_COLUMNS = [
  'portal_key',
  'status',
  'event_id',
  'event_name',
  'ems_class',
  'service_class',
  'class_id',
  'url',
  'class_status',
  'reason',
  'since',
  'fragment_file',
  'fragment_updated',
];

/**
 * One portal event's fragment (fragment.ts): a link per class named by the portal's class, or, for an event that is
 * not linked or has no class linked, the `noLinks` sentence; never an empty list.
 */
export function portalFragment(e: PortalLinks, options: FragmentOptions): string {
  const input = { status: e.status, eventName: e.eventName, classes: fragmentClasses(e) };
  return `${renderFragment(input, options)}\n`;
}
