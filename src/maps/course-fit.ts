/**
 * The map's georeference fitted to the course file: controls with both a map position (mm on paper) and a geographic
 * position tie the paper to the ground. An affine from paper millimetres to a local metric plane, by least squares,
 * takes up the map's scale, rotation and any shear or stretch of the drawing; the residual says how well it holds.
 */
import { ValidationError } from '../errors.js';
import { localPlane } from '../geo/local-plane.js';
import { applyAffine, composeAffine, determinant, fitAffine, type XY } from './affine.js';
import type { MapControl } from './controls.js';
import { georeferenceFromPlane, type MapGeoreference } from './georeference.js';
import { pixelToPaper } from './paper.js';
import type { PaperExtent } from './types.js';

/** Controls the fit needs: three fix an affine exactly and leave nothing to check it with, so one more at least. */
const MIN_FIT_CONTROLS = 4;
/** The least worst-control residual refused by default, metres: beyond what rounding to 0.1 mm of paper gives. */
const DEFAULT_MAX_RESIDUAL_M = 15;

/** How well the course file's controls agree with one affine from paper to ground. */
export interface MapFit {
  /** Controls the fit was made from (a map position in mm and a geographic position each). */
  controls: number;
  /** Root mean square of the controls' distances from where the fit puts them, metres. */
  rmsM: number;
  /** The control farthest from where the fit puts it, and how far. */
  worst: { control: string; distanceM: number };
  /** The refusal threshold that applied, metres. */
  maxResidualM: number;
  /** The scale the fit finds (metres on the ground per metre of paper): compare it with the map's stated scale. */
  fittedScale: number;
}

export interface CourseFitOptions {
  /** See `MapInput.maxResidualM`. */
  maxResidualM?: number;
}

/**
 * The georeference of an image covering `extent` (paper mm), fitted to `controls`. Throws `ValidationError`: code
 * `too_few_controls` (fewer than four with both positions), `collinear_controls` (they lie on one line), or `poor_fit`
 * (a control farther than the threshold from the fit), each message stating the figures.
 */
export function fitToCourse(
  controls: readonly MapControl[],
  extent: PaperExtent,
  image: { width: number; height: number },
  options: CourseFitOptions = {},
): { georeference: MapGeoreference; fit: MapFit } {
  const tied = controls.filter(
    (c): c is MapControl & Required<Pick<MapControl, 'paper' | 'position'>> =>
      c.paper !== undefined && c.position !== undefined,
  );
  if (tied.length < MIN_FIT_CONTROLS) {
    throw refuse(
      'too_few_controls',
      `${tied.length} control${tied.length === 1 ? ' has' : 's have'} both a map position (mm) and a geographic ` +
        `position; fitting the map needs ${MIN_FIT_CONTROLS}: give a world file with the map's grid, or the map's corners`,
    );
  }
  const plane = localPlane(tied.map((c) => c.position));
  const ground = tied.map((c) => plane.toPlane(c.position));
  const paper = tied.map((c) => c.paper);
  const paperToGround = fitAffine(paper, ground);
  if (paperToGround === undefined || determinant(paperToGround) === 0) {
    throw refuse('collinear_controls', `the ${tied.length} controls with both positions lie on one line`);
  }
  const distances = tied.map((c, i) => distance(applyAffine(paperToGround, paper[i]!), ground[i]!));
  const rmsM = Math.sqrt(distances.reduce((s, d) => s + d * d, 0) / distances.length);
  const worstIndex = distances.indexOf(Math.max(...distances));
  const worst = { control: tied[worstIndex]!.id, distanceM: distances[worstIndex]! };
  const fittedScale = Math.sqrt(Math.abs(determinant(paperToGround))) * 1000;
  const maxResidualM = options.maxResidualM ?? defaultMaxResidualM(extent, fittedScale);
  if (worst.distanceM > maxResidualM) {
    throw refuse(
      'poor_fit',
      `the controls' map positions and geographic positions do not agree: after the best fit control ${worst.control} ` +
        `is ${round(worst.distanceM)} m from where its map position puts it (at most ${round(maxResidualM)} m ` +
        `accepted; RMS of ${tied.length} controls ${round(rmsM)} m). A control moved on one side only, or positions ` +
        `from another map: correct the course file, or give a world file or the map's corners`,
    );
  }
  const fit: MapFit = { controls: tied.length, rmsM, worst, maxResidualM, fittedScale };
  const pixelToGround = composeAffine(paperToGround, pixelToPaper(extent, image));
  const describe = `fitted to ${tied.length} controls (RMS ${round(rmsM)} m, worst ${worst.control} ${round(worst.distanceM)} m)`;
  return { georeference: georeferenceFromPlane(image, plane, pixelToGround, describe), fit };
}

/** 15 m, or a thousandth of the map's diagonal on the ground (its paper diagonal at `scale`) when that is more. */
export function defaultMaxResidualM(extent: PaperExtent, scale: number): number {
  const diagonalM = (Math.hypot(extent.right - extent.left, extent.top - extent.bottom) * scale) / 1000;
  return Math.max(DEFAULT_MAX_RESIDUAL_M, diagonalM / 1000);
}

function distance(a: XY, b: XY): number {
  return Math.hypot(a.x - b.x, a.y - b.y);
}

/** Centimetres below 10 m (a good fit's figures), decimetres above. */
export function round(m: number): number {
  return m < 10 ? Math.round(m * 100) / 100 : Math.round(m * 10) / 10;
}

function refuse(code: string, message: string): ValidationError {
  return new ValidationError('The map cannot be fitted to the course file', [{ path: 'controls', code, message }]);
}
