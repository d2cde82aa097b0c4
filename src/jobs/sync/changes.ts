/**
 * What changed for each portal event since the last run, told as a person needs it: a new link, a link that moved
 * (and why), classes added, removed or renamed on the service and what that did to the mapping (a portal class left
 * without a link needs a person), a date moved, published or unpublished, map and courses now valid, gone from the
 * service, and what is still unmatched, ambiguous, gone or unmapped. Computed from the link records before and after,
 * so every change reported is one the state shows.
 */
import type { ClassLinkRecord, LinkRecord, UnmappedClassRecord } from '../../store/sync-state.js';

export type SyncChangeKind =
  | 'portal_added'
  | 'portal_changed'
  | 'portal_removed'
  | 'newly_linked'
  | 'link_changed'
  | 'unlinked'
  | 'service_classes_changed'
  | 'class_mapping_changed'
  | 'class_unmapped'
  | 'still_class_unmapped'
  | 'date_moved'
  | 'published'
  | 'unpublished'
  | 'map_and_courses_valid'
  | 'map_and_courses_invalid'
  | 'gone'
  | 'still_gone'
  | 'still_unmatched'
  | 'still_ambiguous'
  | 'portal_problem';

export interface SyncChange {
  /** The portal event's key (or the input's origin for `portal_problem`). */
  key: string;
  kind: SyncChangeKind;
  /** One line for a person. */
  message: string;
  /** A person should look at it: unmatched, ambiguous, gone, a class left unmapped, unreadable. */
  attention: boolean;
  detail?: Record<string, unknown>;
}

const ATTENTION: ReadonlySet<SyncChangeKind> = new Set([
  'unlinked',
  'gone',
  'still_gone',
  'class_unmapped',
  'still_class_unmapped',
  'still_unmatched',
  'still_ambiguous',
  'portal_problem',
]);

/** Whether a change of this kind needs a person (a `!` line of the report; a run with one exits 1). */
export function needsPerson(kind: string): boolean {
  return ATTENTION.has(kind as SyncChangeKind);
}

/**
 * What needs a person about a link as it stands, in the words a run repeats it with every night (`still_ambiguous`,
 * `still_gone`, `still_class_unmapped`, ...): the changes of a link that did not change.
 */
export function standingChanges(link: LinkRecord): SyncChange[] {
  return linkChanges(link, link, { portalChanged: false, portalNew: false }).filter((c) => c.attention);
}

function change(key: string, kind: SyncChangeKind, message: string, detail?: Record<string, unknown>): SyncChange {
  return { key, kind, message, attention: ATTENTION.has(kind), ...(detail === undefined ? {} : { detail }) };
}

function eventText(l: LinkRecord): string {
  return `${l.eventName ?? '?'} (${l.eventId ?? '?'})`;
}

function candidatesText(l: LinkRecord): string {
  return l.candidates.length === 0
    ? ''
    : `; candidates: ${l.candidates.map((c) => `${c.name} (${c.id}, ${c.start.slice(0, 10)}, score ${c.score})`).join('; ')}`;
}

/** The changes of one portal event: `before` is its record at the last run (absent for a new one). */
export function linkChanges(
  before: LinkRecord | undefined,
  after: LinkRecord,
  options: { portalChanged: boolean; portalNew: boolean },
): SyncChange[] {
  const out: SyncChange[] = [];
  const key = after.key;
  if (options.portalNew) out.push(change(key, 'portal_added', `new in the portal`));
  else if (options.portalChanged) out.push(change(key, 'portal_changed', `changed in the portal`));

  if (after.status === 'gone') {
    const detail = { was: after.eventId, since: after.since };
    if (before?.status === 'gone') {
      out.push(change(key, 'still_gone', `gone since ${after.since ?? '?'}: ${after.reason}`, detail));
    } else out.push(change(key, 'gone', `no longer linked: ${after.reason}${candidatesText(after)}`, detail));
    return out;
  }
  if (after.status !== 'linked') {
    if (before?.status === 'linked') {
      out.push(
        change(key, 'unlinked', `no longer linked: ${after.reason}${candidatesText(after)}`, { was: before.eventId }),
      );
    } else if (after.status === 'ambiguous') {
      out.push(change(key, 'still_ambiguous', `ambiguous: ${after.reason}${candidatesText(after)}`));
    } else {
      out.push(change(key, 'still_unmatched', `not found: ${after.reason}${candidatesText(after)}`));
    }
    return out;
  }
  if (before?.status !== 'linked' || before.eventId === undefined) {
    out.push(
      change(key, 'newly_linked', `linked to ${eventText(after)} (${after.method}: ${after.reason})`, {
        eventId: after.eventId,
        classes: after.classes.length,
      }),
    );
    return out;
  }
  if (before.eventId !== after.eventId) {
    out.push(
      change(key, 'link_changed', `link moved from ${eventText(before)} to ${eventText(after)}: ${after.reason}`, {
        from: before.eventId,
        to: after.eventId,
      }),
    );
    return out;
  }
  if (before.eventStart !== after.eventStart || before.eventEnd !== after.eventEnd) {
    out.push(
      change(key, 'date_moved', `date moved from ${before.eventStart ?? '?'} to ${after.eventStart ?? '?'}`, {
        from: before.eventStart,
        to: after.eventStart,
      }),
    );
  }
  if (before.published !== after.published && after.published !== undefined) {
    out.push(change(key, after.published ? 'published' : 'unpublished', after.published ? 'published' : 'unpublished'));
  }
  if (before.validMapAndCourses !== after.validMapAndCourses && after.validMapAndCourses !== undefined) {
    out.push(
      change(
        key,
        after.validMapAndCourses ? 'map_and_courses_valid' : 'map_and_courses_invalid',
        after.validMapAndCourses ? 'map and courses became valid' : 'map and courses are no longer valid',
      ),
    );
  }
  out.push(...classChanges(before, after));
  return out;
}

function classChanges(before: LinkRecord, after: LinkRecord): SyncChange[] {
  const out: SyncChange[] = [];
  const key = after.key;
  // By id: a class renamed keeps its id, and a new class may take an old one's name.
  const serviceBefore = new Map((before.serviceClasses ?? []).map((c) => [c.id, c.name]));
  const serviceAfter = new Map((after.serviceClasses ?? []).map((c) => [c.id, c.name]));
  const added = [...serviceAfter].filter(([id]) => !serviceBefore.has(id)).map(([id, name]) => ({ id, name }));
  const removed = [...serviceBefore].filter(([id]) => !serviceAfter.has(id)).map(([id, name]) => ({ id, name }));
  const renamed = [...serviceAfter]
    .filter(([id, name]) => serviceBefore.has(id) && serviceBefore.get(id) !== name)
    .map(([id, name]) => ({ id, from: serviceBefore.get(id)!, to: name }));
  if (added.length + removed.length + renamed.length > 0) {
    const names = (list: ReadonlyArray<{ name: string }>) => list.map((c) => c.name).join(', ');
    const parts = [
      added.length ? `added ${names(added)}` : '',
      removed.length ? `removed ${names(removed)}` : '',
      renamed.length ? `renamed ${renamed.map((r) => `${r.from} -> ${r.to}`).join(', ')}` : '',
    ].filter(Boolean);
    out.push(
      change(key, 'service_classes_changed', `service classes ${parts.join('; ')}`, { added, removed, renamed }),
    );
  }
  const mapBefore = mappingOf(before.classes);
  const mapAfter = mappingOf(after.classes);
  const lost = new Set(unmappedOf(after).map((c) => c.name));
  // The portal's classes now: a class it dropped is not unmapped, it is gone from the portal.
  const portal = new Set([...after.classes.map((c) => c.name), ...after.unmatchedPortalClasses]);
  const moved: string[] = [];
  for (const name of new Set([...mapBefore.keys(), ...mapAfter.keys()])) {
    const a = mapBefore.get(name);
    const b = mapAfter.get(name);
    if (a === b || lost.has(name)) continue;
    moved.push(`${name}: ${a ?? 'unmapped'} -> ${b ?? (portal.has(name) ? 'unmapped' : 'dropped by the portal')}`);
  }
  if (moved.length > 0) {
    out.push(change(key, 'class_mapping_changed', `class mapping changed: ${moved.join(', ')}`, { moved }));
  }
  out.push(...unmappedChanges(before, after));
  return out;
}

/** The linked classes by portal class name, each as `serviceClass (classId)`. */
function mappingOf(classes: readonly ClassLinkRecord[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const c of classes) if (c.status === 'linked') out.set(c.name, `${c.serviceClass} (${c.classId})`);
  return out;
}

function unmappedOf(record: LinkRecord): UnmappedClassRecord[] {
  return record.classes.filter((c): c is UnmappedClassRecord => c.status === 'unmapped');
}

/** Portal classes left without a link: newly (`class_unmapped`) or since an earlier run (`still_class_unmapped`). */
function unmappedChanges(before: LinkRecord, after: LinkRecord): SyncChange[] {
  const had = new Set(unmappedOf(before).map((c) => c.name));
  const all = unmappedOf(after);
  const detail = (list: readonly UnmappedClassRecord[]) => ({
    classes: list.map((c) => ({ name: c.name, reason: c.reason, since: c.since, was: c.was })),
  });
  const newly = all.filter((c) => !had.has(c.name));
  const still = all.filter((c) => had.has(c.name));
  const out: SyncChange[] = [];
  if (newly.length > 0) {
    const text = newly.map((c) => `class ${c.name} lost its link: ${c.reason}`).join('; ');
    out.push(change(after.key, 'class_unmapped', text, detail(newly)));
  }
  if (still.length > 0) {
    const text = still.map((c) => `class ${c.name} unmapped since ${c.since}: ${c.reason}`).join('; ');
    out.push(change(after.key, 'still_class_unmapped', text, detail(still)));
  }
  return out;
}
