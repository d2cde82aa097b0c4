/**
 * Every control must lie on the georeferenced map: a control outside it is the usual sign of a wrong grid (a world
 * file read in another system puts the map kilometres away) or of a course file and a map that do not belong together.
 */
import { ValidationError, type Issue } from '../errors.js';
import { distanceM, type LatLng } from '../geo/distance.js';
import type { XY } from './affine.js';
import type { MapControl } from './controls.js';
import type { MapGeoreference } from './georeference.js';
import type { PaperExtent } from './types.js';

/** A control this close outside the image (metres) is on its edge: a symbol drawn at the map's border. */
const EDGE_TOLERANCE_M = 1;

/**
 * Checks that each control lies inside the image: by its geographic position through `georeference` when it has one,
 * else by its map position against the paper `extent` (when known). Throws `ValidationError` with one issue (code
 * `control_outside_map`, path `controls.<id>`) per control outside, saying how far and in which direction. Returns how
 * many controls were checked.
 */
export function checkControlsInside(
  controls: readonly MapControl[],
  georeference: MapGeoreference,
  paper: { extent: PaperExtent; scale: number } | undefined,
): number {
  const issues: Issue[] = [];
  let checked = 0;
  for (const control of controls) {
    let outside: { distanceM: number; direction: string } | undefined;
    if (control.position !== undefined) outside = outsideImage(control.position, georeference);
    else if (control.paper !== undefined && paper !== undefined) outside = outsidePaper(control.paper, paper);
    else continue;
    checked += 1;
    if (outside === undefined || outside.distanceM <= EDGE_TOLERANCE_M) continue;
    issues.push({
      path: `controls.${control.id}`,
      code: 'control_outside_map',
      message: Number.isFinite(outside.distanceM)
        ? `control ${control.id} lies ${distanceText(outside.distanceM)} outside the map, to its ${outside.direction}`
        : `control ${control.id} has no place in the map's grid at all: it lies far outside the map`,
    });
  }
  if (issues.length > 0) {
    throw new ValidationError(
      `${issues.length} of ${checked} controls lie outside the map georeferenced by ${georeference.describe}`,
      issues,
      {
        hint:
          'This is the usual sign of a wrong grid: check the grid (EPSG code) the world file is in, the corners, ' +
          'or that the map and the course file belong together.',
      },
    );
  }
  return checked;
}

function outsideImage(
  position: LatLng,
  georeference: MapGeoreference,
): { distanceM: number; direction: string } | undefined {
  let pixel: XY;
  try {
    pixel = georeference.toPixel(position);
  } catch {
    // No place in the map's grid at all (outside the projection's domain): as far outside as a position can be.
    return { distanceM: Number.POSITIVE_INFINITY, direction: '' };
  }
  const clamped = { x: clamp(pixel.x, 0, georeference.width), y: clamp(pixel.y, 0, georeference.height) };
  if (clamped.x === pixel.x && clamped.y === pixel.y) return undefined;
  const edge = georeference.toWgs84(clamped);
  return { distanceM: distanceM(edge, position), direction: compass(edge, position) };
}

function outsidePaper(
  p: XY,
  paper: { extent: PaperExtent; scale: number },
): { distanceM: number; direction: string } | undefined {
  const { left, right, bottom, top } = paper.extent;
  const dx = p.x < left ? p.x - left : p.x > right ? p.x - right : 0;
  const dy = p.y < bottom ? p.y - bottom : p.y > top ? p.y - top : 0;
  if (dx === 0 && dy === 0) return undefined;
  // Paper millimetres to ground metres at the map's scale; the direction is the paper's (north is up on a map).
  return { distanceM: (Math.hypot(dx, dy) * paper.scale) / 1000, direction: eightWay(Math.atan2(dx, dy)) };
}

function compass(from: LatLng, to: LatLng): string {
  const east = (to.lng - from.lng) * Math.cos((from.lat * Math.PI) / 180);
  return eightWay(Math.atan2(east, to.lat - from.lat));
}

/** A bearing in radians (clockwise from north) in words. */
function eightWay(bearing: number): string {
  const names = ['north', 'north-east', 'east', 'south-east', 'south', 'south-west', 'west', 'north-west'];
  const index = Math.round(((bearing * 180) / Math.PI + 360) / 45) % 8;
  return names[index]!;
}

function distanceText(m: number): string {
  return m >= 1000 ? `${Math.round(m / 100) / 10} km` : `${Math.round(m)} m`;
}

function clamp(v: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, v));
}
