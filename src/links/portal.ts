/**
 * The links of every event of a portal, as `sync` leaves them: the document a portal embeds (JSON or CSV, one file),
 * and one HTML fragment per portal event; service text passes render.ts's escaping (controls and bidi overrides never
 * raw). Said by shape (`PortalLinks`), so that links/ depends on no job or store.
 */
import { contentHash } from '../core/hash.js';
import { escapeJsonControls } from '../core/printable.js';
import { csvField, renderLinks, type LinkRow } from './render.js';

export const PORTAL_LINK_FORMATS = ['json', 'csv'] as const;
export type PortalLinkFormat = (typeof PORTAL_LINK_FORMATS)[number];

/** One portal event's links. */
export interface PortalLinks {
  key: string;
  status: string;
  eventId?: number | undefined;
  eventName?: string | undefined;
  classes: ReadonlyArray<{ emsName: string; classId: number; className: string; url: string }>;
}

function rowsOf(e: PortalLinks): LinkRow[] {
  return e.classes.map((c) => ({ emsClass: c.emsName, serviceClass: c.className, classId: c.classId, url: c.url }));
}

/** Every portal event's links in `format`: JSON `{ events: [...] }`, or CSV with one row per mapped class. */
export function renderPortalLinks(events: readonly PortalLinks[], format: PortalLinkFormat): string {
  if (format === 'json') {
    const doc = events.map((e) => ({
      key: e.key,
      status: e.status,
      ...(e.eventId === undefined ? {} : { eventId: e.eventId }),
      ...(e.eventName === undefined ? {} : { eventName: e.eventName }),
      classes: e.classes.map((c) => ({ name: c.emsName, classId: c.classId, serviceClass: c.className, url: c.url })),
    }));
    return `${escapeJsonControls(JSON.stringify({ events: doc }, null, 2))}\n`;
  }
  const lines = [['portal_key', 'status', 'event_id', 'event_name', 'ems_class', 'service_class', 'class_id', 'url']];
  for (const e of events) {
    const head = [e.key, e.status, e.eventId === undefined ? '' : String(e.eventId), e.eventName ?? ''];
    if (e.classes.length === 0) lines.push([...head, '', '', '', '']);
    for (const r of rowsOf(e)) lines.push([...head, r.emsClass, r.serviceClass, String(r.classId), r.url]);
  }
  return `${lines.map((l) => l.map(csvField).join(',')).join('\r\n')}\r\n`;
}

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
