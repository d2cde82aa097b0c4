/** GPS tracks that run a simulated event's course, for route-import tests. */
import { destination, distanceM } from '../../src/geo/distance.js';
import type { TrackPoint } from '../../src/gps/types.js';
import type { SimEvent } from '../../src/simulator/model.js';

/** The course a class runs (first leg for relays). */
export function courseOfClass(event: SimEvent, classId: number) {
  const courses = event.courses!;
  const a = courses.classAssignments.find((x) => x.classId === String(classId))!;
  return courses.courses.find((c) => c.name === a.courseName)!;
}

/** A run through every control of a course at 4 m/s with a point every 5 s, starting at `startMs`. */
export function runCourse(event: SimEvent, classId: number, startMs: number): TrackPoint[] {
  const courses = event.courses!;
  const byId = new Map(courses.controls.map((c) => [c.id, c.position!]));
  const stops = courseOfClass(event, classId).controls.map((cc) => byId.get(cc.controlId)!);
  const points: TrackPoint[] = [];
  let t = startMs;
  for (let i = 0; i < stops.length - 1; i++) {
    const a = stops[i]!;
    const b = stops[i + 1]!;
    const steps = Math.max(1, Math.ceil(distanceM(a, b) / 20));
    for (let s = 0; s < steps; s++) {
      points.push({ time: t, lat: a.lat + ((b.lat - a.lat) * s) / steps, lng: a.lng + ((b.lng - a.lng) * s) / steps });
      t += 5000;
    }
  }
  const last = stops[stops.length - 1]!;
  points.push({ time: t, lat: last.lat, lng: last.lng });
  return points;
}

/** A track of `n` points wandering near `origin`, at the given time. */
export function wander(origin: { lat: number; lng: number }, startMs: number, n = 100): TrackPoint[] {
  return Array.from({ length: n }, (_, i) => ({
    ...destination(origin, (i * 37) % 360, 50 + i * 3),
    time: startMs + i * 5000,
  }));
}

/** Events that can take routes: published, with courses, and a class whose course has positioned controls. */
export function routableEvents(events: readonly SimEvent[]): SimEvent[] {
  return events.filter(
    (e) => e.isPublished && e.hasValidMapAndCourses && e.courses && e.classes.length > 1 && e.position,
  );
}
