/**
 * The links of every event of a portal, as `sync` leaves them: the document a portal embeds (JSON or CSV, one file),
 * and one HTML fragment per portal event; service text passes render.ts's escaping (controls and bidi overrides never
 * raw). Said by shape (`PortalLinks`), so that links/ depends on no job or store.
 */
import { contentHash } from '../core/hash.js';
import { escapeJsonControls } from '../core/printable.js';
import { csvField, renderLinks, type LinkRow, type UnlinkedRow } from './render.js';

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

function rowsOf(e: PortalLinks): Array<LinkRow | UnlinkedRow> {
  return e.classes.map((c) =>
    c.status === 'linked'
      ? { emsClass: c.name, serviceClass: c.serviceClass, classId: c.classId, url: c.url }
      : { emsClass: c.name, unmapped: c.reason },
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
export function renderPortalLinks(events: readonly PortalLinks[], format: PortalLinkFormat): string {
  if (format === 'json') {
    const doc = events.map((e) => ({
      key: e.key,
      status: e.status,
      ...(e.eventId === undefined ? {} : { eventId: e.eventId }),
      ...(e.eventName === undefined ? {} : { eventName: e.eventName }),
      ...(e.status === 'linked' || e.reason === undefined ? {} : { reason: e.reason }),
      ...(e.since === undefined ? {} : { since: e.since }),
      classes: e.classes.map(classDocument),
    }));
    return `${escapeJsonControls(JSON.stringify({ events: doc }, null, 2))}\n`;
  }
  const lines = [CSV_COLUMNS];
  for (const e of events) {
    const head = [e.key, e.status, e.eventId === undefined ? '' : String(e.eventId), e.eventName ?? ''];
    if (e.classes.length === 0) {
      const reason = e.status === 'linked' ? '' : (e.reason ?? '');
      lines.push([...head, '', '', '', '', '', reason, e.since ?? '']);
    }
    for (const c of e.classes) {
      lines.push(
        c.status === 'linked'
          ? [...head, c.name, c.serviceClass, String(c.classId), c.url, c.status, '', '']
          : [...head, c.name, '', '', '', c.status, c.reason, c.since],
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
];

/** One portal event's classes as an HTML table fragment (empty table for an event with no links yet). */
export function portalFragment(e: PortalLinks): string {
  return `${renderLinks(rowsOf(e), 'html', e.eventName ?? '')}\n`;
}

/**
 * A file name for a portal key: letters, digits, `-`, `_` and `.` kept, anything else `_`, never a hidden file. A key
 * that had to change gets a hash of itself appended, so that two keys never share a file (`a/b` and `a_b`).
 */
export function fragmentFileName(key: string): string {
  const safe = key
    .replace(/[^A-Za-z0-9._-]/g, '_')
    .replace(/^\.+/, '_')
    .slice(0, 100);
  return safe === key ? `${safe}.html` : `${safe}-${contentHash(key).slice(0, 10)}.html`;
}
