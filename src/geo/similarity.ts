/**
 * The least-squares 2-D similarity transform (shift, rotation, uniform scale: a Helmert transform) that carries one
 * set of plane points onto another, in closed form (the Procrustes solution): no iteration, no starting guess.
 *
 * Written about the centres of the two sets, `to = toCentre + scale * R(rotation) * (from - fromCentre)`, so that the
 * numbers stay small even for grid metres (eastings of 500 000 m) and the shift is that of the points' centre, which
 * is what a person means by "the map is shifted 38 m".
 */
import type { PlanePoint } from './local-plane.js';

export interface PointPair {
  from: PlanePoint;
  to: PlanePoint;
}

/**
 * What the pairs determine: `none` (no pair: the identity), `shift` (one pair, or every `from` point in one place:
 * rotation and scale cannot be told, so they are 0 and 1), `full` (two or more distinct points).
 */
export type SimilaritySolved = 'none' | 'shift' | 'full';

export interface SimilarityFit {
  solved: SimilaritySolved;
  /** Mean of the `from` points, and of the `to` points: the transform carries the first onto the second. */
  fromCentre: PlanePoint;
  toCentre: PlanePoint;
  /** Uniform scale, `from` to `to` (1: none; 0 only when every `to` point is in one place). */
  scale: number;
  /** Rotation about the centre, radians, counter-clockwise (from x towards y: east towards north). */
  rotationRad: number;
  /** Per pair, in the pairs' order: the distance between the transformed `from` point and its `to` point. */
  residuals: number[];
  /** Root mean square of `residuals` (0 without pairs). */
  rmsResidual: number;
}

/** The point `p` carried by `fit`. */
export function applySimilarity(fit: SimilarityFit, p: PlanePoint): PlanePoint {
  const { x, y } = turn(fit, { x: p.x - fit.fromCentre.x, y: p.y - fit.fromCentre.y });
  return { x: fit.toCentre.x + x, y: fit.toCentre.y + y };
}

/**
 * How far the rotation and scale alone move `p` when the map turns about `about` (default: the fit's own centre), the
 * shift aside: nothing at that centre, more the farther away `p` is.
 */
export function turnDisplacement(fit: SimilarityFit, p: PlanePoint, about: PlanePoint = fit.fromCentre): number {
  const d = { x: p.x - about.x, y: p.y - about.y };
  const t = turn(fit, d);
  return Math.hypot(t.x - d.x, t.y - d.y);
}

function turn(fit: SimilarityFit, d: PlanePoint): PlanePoint {
  const a = fit.scale * Math.cos(fit.rotationRad);
  const b = fit.scale * Math.sin(fit.rotationRad);
  return { x: a * d.x - b * d.y, y: b * d.x + a * d.y };
}

function centre(points: readonly PlanePoint[]): PlanePoint {
  if (points.length === 0) return { x: 0, y: 0 };
  return {
    x: points.reduce((s, p) => s + p.x, 0) / points.length,
    y: points.reduce((s, p) => s + p.y, 0) / points.length,
  };
}

/**
 * Below this spread (square metres, summed over the points) the `from` points are taken as one place: rotation and
 * scale would be the ratio of two roundings. A millimetre's spread over a point is far below any coordinate's rounding.
 */
const COINCIDENT_SPREAD = 1e-6;

/**
 * The similarity that carries `pairs[i].from` onto `pairs[i].to` with the least sum of squared distances. Never NaN:
 * without pairs it is the identity (`solved: 'none'`); with one pair, or all `from` points in one place, the shift of
 * the centres with no rotation and a scale of 1 (`solved: 'shift'`).
 */
export function fitSimilarity(pairs: readonly PointPair[]): SimilarityFit {
  const fromCentre = centre(pairs.map((p) => p.from));
  const toCentre = centre(pairs.map((p) => p.to));
  // Sums over the centred points: spread of `from`, and the dot and cross products of `from` with `to`.
  let spread = 0;
  let dot = 0;
  let cross = 0;
  for (const { from, to } of pairs) {
    const px = from.x - fromCentre.x;
    const py = from.y - fromCentre.y;
    const qx = to.x - toCentre.x;
    const qy = to.y - toCentre.y;
    spread += px * px + py * py;
    dot += px * qx + py * qy;
    cross += px * qy - py * qx;
  }
  const solved: SimilaritySolved = pairs.length === 0 ? 'none' : spread <= COINCIDENT_SPREAD ? 'shift' : 'full';
  const a = solved === 'full' ? dot / spread : 1;
  const b = solved === 'full' ? cross / spread : 0;
  const fit: SimilarityFit = {
    solved,
    fromCentre,
    toCentre,
    scale: Math.hypot(a, b),
    // atan2(0, 0) is 0: a collapsed `to` side gives scale 0 and no rotation, not NaN.
    rotationRad: Math.atan2(b, a),
    residuals: [],
    rmsResidual: 0,
  };
  fit.residuals = pairs.map(({ from, to }) => {
    const at = applySimilarity(fit, from);
    return Math.hypot(at.x - to.x, at.y - to.y);
  });
  fit.rmsResidual = rms(fit.residuals);
  return fit;
}

/** Root mean square of `values`, 0 for none. */
export function rms(values: readonly number[]): number {
  if (values.length === 0) return 0;
  return Math.sqrt(values.reduce((s, v) => s + v * v, 0) / values.length);
}
