/**
 * A "service side" made from a real course file by georeferencing it differently on purpose: every control shifted,
 * turned and scaled about the controls' centre, with seeded noise, and some controls really moved on top of it.
 */
import { destination } from '../../src/geo/distance.js';
import { localPlane } from '../../src/geo/local-plane.js';
import { getProjection } from '../../src/geo/projection.js';
import { unprojectCourseData } from '../../src/iof/course-projection.js';
import type { CourseData, RaceCourseData } from '../../src/iof/model.js';
import { parseCourseData } from '../../src/iof/read-course-data.js';
import { realdata } from './files.js';

export interface Georeferencing {
  eastM?: number;
  northM?: number;
  /** Degrees, clockwise (as `GeoreferenceFit.rotationDeg`). */
  rotationDeg?: number;
  scale?: number;
  /** Standard deviation of normal noise per axis, metres. */
  noiseM?: number;
  seed?: number;
}

/** Heartwood 2014 (Condes 9), 64 controls written in British National Grid metres: here in WGS 84 degrees. */
export function heartwoodDegrees(): CourseData {
  const grid = parseCourseData(realdata('iof3/rg2_heartwood_CourseData_Condes9_georef.xml'), 'heartwood');
  return unprojectCourseData(grid, 27700);
}

/** Ellenbrook (OCAD 11), WGS 84 positions as OCAD wrote them. */
export function ellenbrook(): CourseData {
  return parseCourseData(realdata('iof3/rg2_ellenbrook_CourseData_OCAD11.xml'), 'ellenbrook');
}

/** A seeded generator (mulberry32): the same "random" numbers on every run. */
export function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Normal noise of standard deviation `sd` (Box-Muller). */
export function gauss(rand: () => number, sd: number): number {
  return sd * Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
}

/** Codes some course of the race visits, in the race's control order: the controls a comparison measures. */
export function usedCodes(race: RaceCourseData): string[] {
  const used = new Set(race.courses.flatMap((c) => c.controls.map((cc) => cc.controlId)));
  return race.controls.filter((c) => used.has(c.id) && c.position !== undefined).map((c) => c.id);
}

/**
 * A copy of `race` (degrees) georeferenced differently: turned and scaled about the centre of its used controls, then
 * shifted, in a local plane, plus noise. Spare controls no course visits are turned too: they do not matter.
 */
export function regeoreference(race: RaceCourseData, g: Georeferencing): RaceCourseData {
  const out = structuredClone(race);
  const used = new Set(usedCodes(race));
  const plane = localPlane(race.controls.filter((c) => used.has(c.id)).map((c) => c.position!));
  const centre = mean(race.controls.filter((c) => used.has(c.id)).map((c) => plane.toPlane(c.position!)));
  const rand = seeded(g.seed ?? 1);
  const r = (-(g.rotationDeg ?? 0) * Math.PI) / 180; // counter-clockwise in the plane
  const k = g.scale ?? 1;
  for (const c of out.controls) {
    if (c.position === undefined) continue;
    const p = plane.toPlane(c.position);
    const x = p.x - centre.x;
    const y = p.y - centre.y;
    const moved = plane.toDegrees({
      x: centre.x + k * (x * Math.cos(r) - y * Math.sin(r)) + (g.eastM ?? 0) + gauss(rand, g.noiseM ?? 0),
      y: centre.y + k * (x * Math.sin(r) + y * Math.cos(r)) + (g.northM ?? 0) + gauss(rand, g.noiseM ?? 0),
    });
    c.position = { lat: moved.lat, lng: moved.lng };
  }
  return out;
}

/** `race` with the controls named moved by their distance (metres) on their bearing (degrees from north). */
export function moveControls(race: RaceCourseData, moves: Record<string, [number, number]>): RaceCourseData {
  const out = structuredClone(race);
  for (const [code, [distance, bearingDeg]] of Object.entries(moves)) {
    const c = out.controls.find((x) => x.id === code);
    if (c?.position === undefined) throw new Error(`no control ${code} with a position`);
    c.position = destination(c.position, bearingDeg, distance);
  }
  return out;
}

/** `race` with its positions in a grid (easting in `lng`, northing in `lat`), as the service answers when asked. */
export function inGrid(race: RaceCourseData, epsg: number): RaceCourseData {
  const grid = getProjection(epsg);
  const out = structuredClone(race);
  for (const c of out.controls) {
    if (c.position === undefined) continue;
    const { easting, northing } = grid.forward(c.position);
    c.position = { lat: northing, lng: easting };
  }
  return out;
}

function mean(points: ReadonlyArray<{ x: number; y: number }>): { x: number; y: number } {
  return {
    x: points.reduce((s, p) => s + p.x, 0) / points.length,
    y: points.reduce((s, p) => s + p.y, 0) / points.length,
  };
}
