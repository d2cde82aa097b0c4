/**
 * An IOF read's event and classes in the EMS shape (`source.ts`): shared by the export files (`iof-source.ts`) and
 * the portals' event lists (`event-list.ts`), which read the same elements. Eventor ids are filed under `eventor`
 * whatever label the export gave them (`eventor-ids.ts`), with the installation's own key beside it: scoring compares
 * `eventor` with the service's (Swedish) `eventorId` only when that key or the country says it may be Sweden's.
 */
import { compact } from '../core/compact.js';
import type { IofClass, IofEventClasses, RaceInfo } from '../iof/model.js';
import type { EmsClass, EmsCourse, EmsEvent } from './source.js';
import { isoCountryCode } from './ioc-codes.js';
import { EVENTOR_KEY, eventorInstanceKey, eventorLabel } from './eventor-ids.js';

/** A class of a list (or an event list's event) as the EMS shape. */
export function listClass(c: IofClass): EmsClass {
  const fromNames = c.courseNames?.length === 1 ? { name: c.courseNames[0]! } : {};
  const course: EmsCourse = { ...fromNames, ...c.course };
  return compact({
    id: c.id,
    name: c.name !== '' ? c.name : (c.shortName ?? ''),
    shortName: c.shortName !== undefined && c.shortName !== c.name ? c.shortName : undefined,
    legs: c.legs,
    entries: c.entries,
    course: Object.keys(course).length > 0 ? course : undefined,
  });
}

/** The event of a read as the EMS shape; given a race, that race of it (its day, its arena, its name joined). */
export function eventOf(
  read: Pick<IofEventClasses, 'event' | 'races' | 'firstStart'>,
  race: RaceInfo | undefined,
): EmsEvent {
  const e = read.event;
  const name = e?.name ?? '';
  // Multi-day events are one event per day on the service ("JK 2022, Day 2"): the race's name joins the event's.
  const raceName = race?.name && !name.toLowerCase().includes(race.name.toLowerCase()) ? race.name : undefined;
  // Exports that leave the event's date out still date their competitors' starts.
  const start = race ? race.start : (e?.start ?? read.races[0]?.start ?? read.firstStart);
  const end = race ? race.start : e?.end;
  const position = (race ?? read.races.find((r) => r.position))?.position;
  const countries = [...new Set((e?.countries ?? []).map(isoCountryCode))];
  const externalIds: Record<string, string> = {};
  for (const x of e?.externalIds ?? []) {
    const label = (x.type ?? '').trim();
    // An Eventor id is filed under `eventor` whatever the export called it (ems/eventor-ids.ts); the IOF's Eventor
    // numbers events apart from the federations', so it keeps to its own key.
    const eventor = label === '' ? undefined : eventorLabel(label);
    if (eventor?.instance !== undefined) externalIds[eventorInstanceKey(eventor.instance)] ??= x.id;
    if (eventor !== undefined && eventor.instance !== 'IOF') externalIds[EVENTOR_KEY] ??= x.id;
    const key = label.toLowerCase().replace(/\s+/g, '-') || 'ems';
    if (/^[a-z][\w.-]{0,49}$/.test(key)) externalIds[key] ??= x.id;
  }
  if (e?.id !== undefined && Object.keys(externalIds).length === 0) externalIds.ems = e.id;
  return compact({
    name: raceName ? (name ? `${name}, ${raceName}` : raceName) : name,
    start,
    end,
    organisers: e?.organisers ?? [],
    // Organisers from two countries (a border event) do not tell which one hosts it: the user says so.
    country: countries.length === 1 ? countries[0] : undefined,
    position: position ? { latitude: position.lat, longitude: position.lng } : undefined,
    externalIds: Object.keys(externalIds).length > 0 ? externalIds : undefined,
  });
}
