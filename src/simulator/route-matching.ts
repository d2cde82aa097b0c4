/**
 * Matching a recorded route to an event and class, as the service describes it: by the route's time and area, or by
 * the class the client names. A class is chosen by how many of its course's controls the track passes.
 */
import { distanceM, type LatLng } from '../geo/distance.js';
import type { Track } from '../gps/types.js';
import type { SimClass, SimEvent } from './model.js';
import type { SimState } from './state.js';

/** How far from the event centre a route may lie and still be the event's (most terrain fits in 15 km). */
export const EVENT_AREA_RADIUS_M = 15_000;
/** Slack around the event's interval: people warm up and forget to stop their watches. */
export const EVENT_TIME_SLACK_MS = 3 * 3600_000;
/** A control counts as visited when a track point comes this close. */
export const CONTROL_VISIT_RADIUS_M = 60;
/** Share of a course's controls a route must visit for its class to be chosen. */
export const CLASS_MATCH_THRESHOLD = 0.6;

export type RouteMatch = { ok: true; event: SimEvent; cls?: SimClass } | { ok: false; reason: string };

export function matchRoute(track: Track, state: SimState, classId: number | undefined): RouteMatch {
  if (classId !== undefined) {
    const found = state.classesById.get(classId);
    if (!found) return { ok: false, reason: `No class has the id ${classId}.` };
    return { ok: true, event: found.event, cls: found.cls };
  }
  const points = track.points;
  const first = points[0]!.time;
  const last = points[points.length - 1]!.time;
  const centre = centroid(points);
  let best: { event: SimEvent; distance: number } | undefined;
  for (const event of state.dataset.events) {
    if (!event.position || !event.hasValidMapAndCourses) continue;
    if (event.startMs - EVENT_TIME_SLACK_MS > last || event.endMs + EVENT_TIME_SLACK_MS < first) continue;
    const d = distanceM(centre, { lat: event.position.latitude, lng: event.position.longitude });
    if (d > EVENT_AREA_RADIUS_M) continue;
    if (!best || d < best.distance) best = { event, distance: d };
  }
  if (!best) {
    return { ok: false, reason: "No event matching the route's time and area was found." };
  }
  const cls = bestClass(best.event, points);
  return cls ? { ok: true, event: best.event, cls } : { ok: true, event: best.event };
}

function centroid(points: readonly LatLng[]): LatLng {
  let lat = 0;
  let lng = 0;
  for (const p of points) {
    lat += p.lat;
    lng += p.lng;
  }
  return { lat: lat / points.length, lng: lng / points.length };
}

function bestClass(event: SimEvent, points: readonly LatLng[]): SimClass | undefined {
  const courses = event.courses;
  if (!courses) return undefined;
  const controlPos = new Map(courses.controls.filter((c) => c.position).map((c) => [c.id, c.position!]));
  const visitedCache = new Map<string, boolean>();
  const visited = (controlId: string): boolean => {
    let v = visitedCache.get(controlId);
    if (v === undefined) {
      const pos = controlPos.get(controlId);
      v = pos !== undefined && points.some((p) => distanceM(p, pos) <= CONTROL_VISIT_RADIUS_M);
      visitedCache.set(controlId, v);
    }
    return v;
  };
  let best: { cls: SimClass; share: number; visits: number } | undefined;
  for (const cls of event.classes) {
    const assignments = courses.classAssignments.filter((a) => a.classId === String(cls.id));
    for (const a of assignments) {
      const course = courses.courses.find((c) => c.name === a.courseName);
      if (!course || course.controls.length === 0) continue;
      const visits = course.controls.filter((cc) => visited(cc.controlId)).length;
      const share = visits / course.controls.length;
      if (share < CLASS_MATCH_THRESHOLD) continue;
      // A short course's controls often lie on a long course's route: at equal shares the course with more visited
      // controls wins. Strictly better only, so among classes sharing a course the first listed keeps the route.
      if (!best || share > best.share || (share === best.share && visits > best.visits)) best = { cls, share, visits };
    }
  }
  return best?.cls;
}
