/**
 * Course data between WGS 84 degrees and projected grids, and a guess at the grid behind coordinates that are not
 * degrees.
 *
 * The service writes projected course data with the easting in `lng` and the northing in `lat` when a
 * `projectionEpsgCode` is asked for, and old Condes exports do the same with the map's national grid. Both directions
 * keep that convention, so a projected `CourseData` reads and writes like any other.
 */
import { ValidationError, type Issue } from '../errors.js';
import type { CourseData, GeoPosition } from './model.js';
import { getProjection, type Projection } from '../geo/projection.js';

/**
 * A copy of `data` with every control position projected from degrees into `system` (an EPSG code such as `3006` or
 * `'EPSG:3006'`, or a proj4 definition): easting in `lng`, northing in `lat`, `alt` unchanged. The input is not
 * modified. Throws `ValidationError` for a system `getProjection` does not know (issue code `unsupported_projection`)
 * and for a position that cannot be projected (not degrees, or outside the projection's domain), naming the control.
 */
export function projectCourseData(data: CourseData, system: number | string): CourseData {
  const projection = getProjection(system);
  return mapPositions(data, projection, 'project', (p) => {
    if (!isDegrees(p)) {
      throw new Error(`lat ${p.lat}, lng ${p.lng} is not in degrees; it may be projected already.`);
    }
    const { easting, northing } = projection.forward(p);
    return { lat: northing, lng: easting };
  });
}

/**
 * A copy of `data` with every control position taken from `system` (easting in `lng`, northing in `lat`) back into
 * WGS 84 degrees, `alt` unchanged: how projected course data from the service, or from a course-setting program that
 * wrote grid coordinates into `Position`, becomes placeable again. The input is not modified. Throws `ValidationError`
 * like `projectCourseData`, and when a result is not a latitude/longitude (the positions were not in `system`).
 */
export function unprojectCourseData(data: CourseData, system: number | string): CourseData {
  const projection = getProjection(system);
  return mapPositions(data, projection, 'unproject', (p) => {
    const out = projection.inverse({ easting: p.lng, northing: p.lat });
    if (!isDegrees(out)) {
      throw new Error(`easting ${p.lng}, northing ${p.lat} gives no latitude/longitude in this system.`);
    }
    return out;
  });
}

/** Whether a position can be WGS 84 degrees: |lat| ≤ 90 and |lng| ≤ 180 (0 included; NaN is not). */
export function isDegrees(p: { lat: number; lng: number }): boolean {
  return Math.abs(p.lat) <= 90 && Math.abs(p.lng) <= 180;
}

function mapPositions(
  data: CourseData,
  projection: Projection,
  verb: 'project' | 'unproject',
  convert: (p: GeoPosition) => { lat: number; lng: number },
): CourseData {
  // A deep copy: the result shares nothing with the input, so neither can change the other later.
  const copy = structuredClone(data);
  const issues: Issue[] = [];
  copy.races.forEach((race, r) =>
    race.controls.forEach((control, c) => {
      const from = control.position;
      if (from === undefined) return;
      try {
        const { lat, lng } = convert(from);
        control.position = from.alt === undefined ? { lat, lng } : { lat, lng, alt: from.alt };
      } catch (error) {
        const why =
          error instanceof ValidationError
            ? error.issues.map((i) => i.message).join('; ')
            : error instanceof Error
              ? error.message
              : String(error);
        issues.push({
          path: `races[${r}].controls[${c}].position`,
          code: 'projection_failed',
          message: `control ${control.id}: ${why}`,
        });
      }
    }),
  );
  if (issues.length > 0) {
    const label = projection.epsg === undefined ? projection.name : `EPSG:${projection.epsg}`;
    throw new ValidationError(`Cannot ${verb} the course data (${label})`, issues);
  }
  return copy;
}

/* ------------------------------------------------------------------------------------------- guessing the grid */

/** A box of latitude/longitude in degrees. */
type Box = readonly [south: number, west: number, north: number, east: number];

interface Area {
  epsg: number;
  boxes: readonly Box[];
  /** Zones of one system share their numbers: a position fits several, so only the family can be told. */
  family?: string;
}

const SWEREF99_LOCAL = 'SWEREF99 local zones (EPSG:3007-3018)';
const NTM = 'ETRS89 / NTM zones (EPSG:5105-5130)';

/**
 * Where each built-in system is used, as boxes around the area its EPSG entry describes (`listProjections().area`),
 * a little generous at coasts and borders. Ordered by how likely a course file in the system is to reach us with its
 * grid values in `Position`: national grids first (British National Grid first of all, which old Condes exports write
 * there), then zone systems. UTM zones (ETRS89 and WGS 84), Web Mercator and degrees are not listed: the same numbers
 * fit every zone, so a guess would say nothing (`couldBeUtm` covers them).
 */
const AREAS: readonly Area[] = [
  {
    epsg: 27700,
    boxes: [
      [49.75, -8.8, 58.75, 2],
      [58.6, -4, 61, -0.6],
    ],
  },
  { epsg: 3006, boxes: [[55, 10.5, 69.1, 24.2]] },
  { epsg: 3067, boxes: [[59.6, 19, 70.1, 31.6]] },
  { epsg: 2056, boxes: [[45.8, 5.95, 47.85, 10.5]] },
  { epsg: 21781, boxes: [[45.8, 5.95, 47.85, 10.5]] },
  { epsg: 3021, boxes: [[55, 10.5, 69.1, 24.2]] },
  { epsg: 5514, boxes: [[47.7, 12, 51.1, 22.6]] },
  { epsg: 31466, boxes: [[47.2, 5.85, 55.1, 7.5]] },
  { epsg: 31467, boxes: [[47.2, 7.5, 55.1, 10.5]] },
  { epsg: 31468, boxes: [[47.2, 10.5, 55.1, 13.5]] },
  { epsg: 31469, boxes: [[47.5, 13.5, 49.2, 13.9]] },
  { epsg: 3835, boxes: [[47.7, 12, 51.1, 18]] },
  { epsg: 3836, boxes: [[47.7, 18, 49.7, 22.6]] },
  ...(
    [
      [3007, [[56.7, 10.9, 60.2, 12.8]]],
      [3008, [[55.2, 12.4, 62.3, 14.3]]],
      [3009, [[55.9, 14.2, 61.6, 15.8]]],
      [3010, [[56.1, 15.7, 62.4, 17.3]]],
      [3011, [[58.8, 17.2, 60.7, 19.7]]],
      [3012, [[61.5, 11.9, 64.5, 15.1]]],
      [3013, [[60.4, 14.9, 65.1, 16.6]]],
      [3014, [[62, 14.3, 67.2, 18.9]]],
      [
        3015,
        [
          [62.8, 17.9, 66, 19.6],
          [56.8, 17.9, 58, 19.4],
        ],
      ],
      [3016, [[63.4, 17.5, 69.1, 23.4]]],
      [3017, [[64.7, 19.5, 65.9, 23.6]]],
      [3018, [[65.4, 21.8, 68.6, 24.2]]],
    ] as const
  ).map(([epsg, boxes]): Area => ({ epsg, boxes, family: SWEREF99_LOCAL })),
  ...Array.from({ length: 26 }, (_, i): Area => {
    const zone = i + 5;
    const box: Box = [57.9, zone === 5 ? 4.4 : zone, 71.3, zone === 30 ? 31.3 : zone + 1];
    return { epsg: 5100 + zone, boxes: [box], family: NTM };
  }),
];

export interface ProjectionGuess {
  epsg: number;
  name: string;
  /** Where the positions land in this system: the mean of those that fall inside its area, in degrees. */
  center: { lat: number; lng: number };
  /** Share of the positions (0..1) that fall inside the system's area. */
  share: number;
  /**
   * Set for a zone of a system whose zones share their numbers (SWEREF99 local zones, NTM): when several zones of a
   * family fit, the numbers alone cannot tell which one the map uses.
   */
  family?: string;
}

/** At most this many positions are tried: spread over the list, enough to tell a grid, cheap for any file. */
const MAX_SAMPLES = 25;

/**
 * The built-in grids in which `positions` (easting in `lng`, northing in `lat`, as course files that are not in
 * degrees have them) land inside the system's area of use, most likely first (see `AREAS`). A system is kept when
 * more than half of the positions land inside it, so a few mistyped controls do not hide it. An empty list means no
 * built-in national or regional grid fits (WGS 84 / UTM zones, which fit any such numbers, are never guessed).
 */
export function guessProjections(positions: ReadonlyArray<{ lat: number; lng: number }>): ProjectionGuess[] {
  const finite = positions.filter((p) => Number.isFinite(p.lat) && Number.isFinite(p.lng));
  if (finite.length === 0) return [];
  const step = Math.max(1, finite.length / MAX_SAMPLES);
  const samples: Array<{ lat: number; lng: number }> = [];
  for (let i = 0; i < finite.length && samples.length < MAX_SAMPLES; i += step) samples.push(finite[Math.floor(i)]!);

  const guesses: ProjectionGuess[] = [];
  for (const { epsg, boxes, family } of AREAS) {
    const projection = getProjection(epsg);
    const inside: Array<{ lat: number; lng: number }> = [];
    for (const p of samples) {
      let out: { lat: number; lng: number };
      try {
        out = projection.inverse({ easting: p.lng, northing: p.lat });
      } catch {
        continue; // outside the projection's domain: this sample does not fit
      }
      if (boxes.some((b) => inBox(out, b))) inside.push(out);
    }
    if (inside.length * 2 > samples.length) {
      const center = {
        lat: inside.reduce((s, p) => s + p.lat, 0) / inside.length,
        lng: inside.reduce((s, p) => s + p.lng, 0) / inside.length,
      };
      const guess: ProjectionGuess = { epsg, name: projection.name, center, share: inside.length / samples.length };
      if (family !== undefined) guess.family = family;
      guesses.push(guess);
    }
  }
  return guesses;
}

/**
 * Whether easting/northing could be a WGS 84 / UTM position (easting within 100-900 km of the zone's false origin,
 * northing on the globe): said as a last possibility when no national grid fits, since the zone cannot be told.
 */
export function couldBeUtm(p: { lat: number; lng: number }): boolean {
  return p.lng >= 100_000 && p.lng <= 900_000 && p.lat >= 0 && p.lat <= 10_000_000;
}

function inBox(p: { lat: number; lng: number }, [south, west, north, east]: Box): boolean {
  return p.lat >= south && p.lat <= north && p.lng >= west && p.lng <= east;
}
