/**
 * The statuses a link keeps from night to night, which linking a portal event afresh cannot know, so that a portal
 * can trust what it shows:
 *
 * - a linked service event found deleted becomes `gone` (with when and why), and stays so until the portal event
 *   changes, is removed, or links to an event again (a pin, an event created in its place, the same one back);
 * - a portal class that was linked and maps to no service class of the same event now (its class removed or renamed
 *   on the service) stays in the link as `unmapped` (with when and why) until it maps again or the portal drops it. A
 *   link that moves to another event (reported as such) maps its classes afresh.
 *
 * Everything else a run decides afresh from the portal event and the mirror.
 */
import type { ClassLinkRecord, LinkRecord, UnmappedClassRecord } from '../../store/sync-state.js';

export interface CarryContext {
  /** The portal event or its pin changed since the last run: a `gone` status no longer holds. */
  portalChanged: boolean;
  /** Service events found deleted this run, with how that was found. */
  gone: ReadonlyMap<number, string>;
  /** This run's time for `since` (the service's clock). */
  at: string;
}

/** The link of a portal event after this run: `fresh` (linked afresh) with what `previous` carries over. */
export function carryStatuses(previous: LinkRecord | undefined, fresh: LinkRecord, ctx: CarryContext): LinkRecord {
  if (previous === undefined) return fresh;
  if (fresh.status === 'linked') return withUnmapped(previous, fresh, ctx.at);
  const id = previous.eventId;
  if (previous.status === 'linked' && id !== undefined && ctx.gone.has(id)) {
    return {
      key: fresh.key,
      status: 'gone',
      reason: `${previous.eventName ?? 'the event'} (${id}) was deleted from the service: ${ctx.gone.get(id)!}`,
      since: ctx.at,
      ...(previous.method === undefined ? {} : { method: previous.method }),
      eventId: id,
      ...(previous.eventName === undefined ? {} : { eventName: previous.eventName }),
      ...(previous.eventStart === undefined ? {} : { eventStart: previous.eventStart }),
      ...(previous.eventEnd === undefined ? {} : { eventEnd: previous.eventEnd }),
      classes: [],
      unmatchedPortalClasses: [],
      unmatchedServiceClasses: [],
      candidates: fresh.candidates,
    };
  }
  return previous.status === 'gone' && !ctx.portalChanged ? previous : fresh;
}

/** `fresh` with the portal classes that were linked (or unmapped) before and map to nothing now, as `unmapped`. */
function withUnmapped(previous: LinkRecord, fresh: LinkRecord, at: string): LinkRecord {
  if (previous.status !== 'linked' || previous.eventId !== fresh.eventId) return fresh;
  // Classes the portal still has that map to nothing now; a class the portal dropped is not carried.
  const left = new Set(fresh.unmatchedPortalClasses);
  const listed = new Set(fresh.classes.map((c) => c.name));
  const lost: UnmappedClassRecord[] = [];
  for (const c of previous.classes) {
    if (!left.has(c.name) || listed.has(c.name)) continue;
    lost.push(
      c.status === 'unmapped'
        ? c
        : {
            name: c.name,
            status: 'unmapped',
            reason: whyUnmapped(c, fresh),
            since: at,
            was: { classId: c.classId, serviceClass: c.serviceClass },
          },
    );
  }
  return lost.length === 0 ? fresh : { ...fresh, classes: [...fresh.classes, ...lost] };
}

function whyUnmapped(c: ClassLinkRecord & { status: 'linked' }, fresh: LinkRecord): string {
  const was = `the service class ${c.serviceClass} (${c.classId})`;
  const now = fresh.serviceClasses?.find((s) => s.id === c.classId);
  if (now === undefined) return `${was} was removed`;
  if (now.name !== c.serviceClass) return `${was} was renamed ${now.name}, which ${c.name} does not map to`;
  const taken = fresh.classes.find((k) => k.status === 'linked' && k.classId === c.classId);
  return taken ? `${was} maps to the portal's class ${taken.name} now` : `${c.name} no longer maps to ${was}`;
}

/** The class shape of a state written before classes had one shape (`emsName`, `className`): read as the new one. */
interface StoredClassV1 {
  emsName: string;
  classId: number;
  className: string;
  url: string;
  from: 'service' | 'template';
  method: string;
}

/**
 * A link record as the state holds it, in the current shape: records written by an earlier version (`emsName` and
 * `className` in the classes) are read as linked classes. `upgraded` says whether the record needs writing back.
 */
export function currentLinkShape(stored: LinkRecord): { record: LinkRecord; upgraded: boolean } {
  const classes = stored.classes as ReadonlyArray<ClassLinkRecord | StoredClassV1>;
  if (!classes.some((c) => 'emsName' in c)) return { record: stored, upgraded: false };
  const upgrade = (c: ClassLinkRecord | StoredClassV1): ClassLinkRecord =>
    'emsName' in c
      ? {
          name: c.emsName,
          status: 'linked',
          classId: c.classId,
          serviceClass: c.className,
          url: c.url,
          from: c.from,
          method: c.method,
        }
      : c;
  return { record: { ...stored, classes: classes.map(upgrade) }, upgraded: true };
}
