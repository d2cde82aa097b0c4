/**
 * An importable event imported into the simulated world: the first import (the person's step in the browser) creates
 * a real event, found by event search, whose courses the courses endpoint serves like any other's; a re-import updates
 * that same event (a new one only when it was deleted meanwhile). Its classes come from the course file's class
 * assignments (IOF ClassCourseAssignment); a file without any gets a class per course, named as the course (guess: the
 * real service's choice is unknown).
 */
import type { ClassCourseAssignment, CourseData, RaceCourseData } from '../iof/model.js';
import { formatContractDatetime } from '../resources/params.js';
import type { SimEvent } from './model.js';
import type { SimImportableEvent } from './importable-store.js';
import type { SimState } from './state.js';
import type { SimWorld } from './world.js';

/** The country of an imported event: the object carries none [client], and the simulated users are Swedish. */
export const IMPORT_COUNTRY = 'SWE';

/** Imports `event` from its first readable course file; answers the world event it now is. */
export function importIntoWorld(
  event: SimImportableEvent,
  data: CourseData,
  state: SimState,
  world: SimWorld,
): SimEvent {
  const race: RaceCourseData = data.races[0] ?? { maps: [], controls: [], courses: [], classAssignments: [] };
  const assignments: ClassCourseAssignment[] =
    race.classAssignments.length > 0
      ? race.classAssignments.filter((a) => a.className !== undefined && a.className !== '')
      : race.courses.map((c) => ({ className: c.name, courseName: c.name }));
  const classNames = [...new Set(assignments.map((a) => a.className!))];
  const { start, end } = eventTimes(event, data, state.clock.now());
  const existing = event.importedEventId === undefined ? undefined : state.eventsById.get(event.importedEventId);
  let target: SimEvent;
  if (!existing) {
    target = world.createEvent({
      name: event.object.name,
      start,
      end,
      countryCode: IMPORT_COUNTRY,
      organisers: data.event.organisers.length > 0 ? data.event.organisers : [event.ownerName],
      classes: classNames,
      isPublished: true,
      // Searchable once its courses are set below; an event without valid courses may not be (world rules).
      isSearchable: false,
      ...positionOf(event, race),
    });
  } else {
    const kept = new Set(classNames);
    const have = new Set(existing.classes.map((c) => c.name));
    target = world.changeEvent(existing.id, {
      name: event.object.name,
      start,
      end,
      removeClasses: existing.classes.filter((c) => !kept.has(c.name)).map((c) => c.id),
      addClasses: classNames.filter((n) => !have.has(n)),
    })!;
  }
  const classIds = new Map(target.classes.map((c) => [c.name, String(c.id)]));
  world.setCourses(target.id, {
    ...race,
    classAssignments: assignments.map((a) => ({ ...a, classId: classIds.get(a.className!)! })),
  });
  const imported = world.changeEvent(target.id, { isSearchable: true })!;
  event.importedEventId = imported.id;
  event.imports += 1;
  return imported;
}

/** The object's time interval, else the course file's event dates, else today; in the contract's whole seconds. */
function eventTimes(event: SimImportableEvent, data: CourseData, nowMs: number): { start: string; end: string } {
  const parse = (v: string | undefined) => {
    if (v === undefined) return undefined;
    const ms = Date.parse(v);
    return Number.isNaN(ms) ? undefined : ms;
  };
  const start = parse(event.object.timeInterval?.start) ?? parse(data.event.start) ?? nowMs;
  const end = Math.max(start, parse(event.object.timeInterval?.end) ?? parse(data.event.end) ?? start + 3 * 3600_000);
  return { start: formatContractDatetime(start), end: formatContractDatetime(end) };
}

/** Where the event is: the middle of its first georeferenced map, else of its controls. */
function positionOf(
  event: SimImportableEvent,
  race: RaceCourseData,
): { position?: { latitude: number; longitude: number } } {
  const corners = event.object.maps.find((m) => m.georeference)?.georeference?.coordinateMapping.positions;
  const points =
    corners ??
    race.controls.flatMap((c) => (c.position ? [{ latitude: c.position.lat, longitude: c.position.lng }] : []));
  if (points.length === 0) return {};
  const mean = (f: (p: { latitude: number; longitude: number }) => number) =>
    points.reduce((s, p) => s + f(p), 0) / points.length;
  return { position: { latitude: mean((p) => p.latitude), longitude: mean((p) => p.longitude) } };
}
