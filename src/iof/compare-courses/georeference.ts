/**
 * Telling a georeferencing difference from moved controls. A map georeferenced differently on the two sides (shifted,
 * turned, or in a wrong grid) moves every control alike; moving controls in the forest moves a few, each its own way.
 * One similarity transform (shift, rotation, uniform scale) is fitted between the two sides' controls, refitted without
 * the controls it leaves farther apart than the tolerance, and said to explain the differences only when nearly all
 * controls agree after it and it moves them by more than the tolerance.
 */
import type { LatLng } from '../../geo/distance.js';
import { localPlane, type PlanePoint } from '../../geo/local-plane.js';
import {
  applySimilarity,
  fitSimilarity,
  rms,
  turnDisplacement,
  type PointPair,
  type SimilarityFit,
} from '../../geo/similarity.js';
import { georeferenceMessage, type FitVerdict } from './georeference-words.js';
import type { GeoreferenceFit, Position } from './types.js';

/** A control both sides place, put into the frame distances are measured in (degrees, or the service's grid). */
export interface MeasuredControl {
  code: string;
  organiser: Position;
  service: Position;
  /** Metres between the two, as the comparison measures them. */
  distanceM: number;
}

/** The fit, and per control how far apart the two sides stay after it (metres, unrounded). */
export interface Georeference {
  fit: GeoreferenceFit;
  residualM: ReadonlyMap<string, number>;
}

/** A fit needs this many controls: two determine a similarity, so fewer leave nothing to check it by. */
const MIN_CONTROLS = 3;

/**
 * Share of the controls that must be within the tolerance after the transform for it to explain the differences:
 * a wrong georeference moves all of them, and a few real moves on top of it are still told apart.
 */
const EXPLAINED_SHARE = 0.8;

/**
 * Controls that must agree after the transform for it to explain anything: two fix a similarity exactly and any four
 * can nearly always be bent into place, so only the others confirm it. Measured by throwing random moves of 11-20 m
 * (tolerance 10 m) at every control of small sets, 3000 times each: with at least four agreeing, 5 controls were
 * "explained" 14 % of the time; with six, 6 and 8 controls 0.1 % (test/unit/georeference.test.ts keeps that check).
 */
const MIN_AGREEING = 6;

/**
 * The agreeing controls' residual (root mean square) may be at most this share of the tolerance: a wrong georeference
 * leaves only the coordinates' rounding, while random moves that one transform barely squeezes within the tolerance
 * stay near it.
 */
const AGREEING_RMS_SHARE = 0.5;

/** Rounds of taking back the controls the fit places within the tolerance and refitting, before the set settles. */
const MAX_SETTLE_ROUNDS = 10;

/**
 * The georeferencing fit of the controls measured on both sides, or `undefined` with fewer than three. `projected`:
 * the positions are the service's grid metres (easting in `lng`), used as they are; otherwise they are degrees, put
 * into a local transverse Mercator plane first.
 */
export function fitGeoreference(
  measured: readonly MeasuredControl[],
  toleranceM: number,
  projected: boolean,
): Georeference | undefined {
  if (measured.length < MIN_CONTROLS) return undefined;
  const pairs = planePairs(measured, projected);
  const fit = robustFit(pairs, toleranceM);
  const residuals = pairs.map(({ from, to }) => distance(applySimilarity(fit, from), to));
  const residualM = new Map(measured.map((m, i) => [m.code, residuals[i]!]));

  // The shift is the one at the centre of every control compared, not only of those the fit kept.
  const centre = mean(pairs.map((p) => p.from));
  const moved = applySimilarity(fit, centre);
  const shift = { x: moved.x - centre.x, y: moved.y - centre.y };
  const reach = Math.max(...pairs.map((p) => distance(p.from, centre)));
  const turnM = Math.max(...pairs.map((p) => turnDisplacement(fit, p.from, centre)));

  const within = residuals.filter((r) => r <= toleranceM).length;
  const agreeingRms = rms(residuals.filter((r) => r <= toleranceM));
  const accounted = measured.filter((m, i) => m.distanceM > toleranceM && residuals[i]! <= toleranceM).length;
  const verdict = fitVerdict({
    moveM: Math.max(Math.hypot(shift.x, shift.y), turnM),
    accounted,
    within,
    controls: measured.length,
    agreeingRms,
    toleranceM,
  });
  const real = measured
    .map((m, i) => ({ control: m.code, distanceM: residuals[i]! }))
    .filter((r) => r.distanceM > toleranceM)
    .sort((a, b) => b.distanceM - a.distanceM)
    .map((r) => ({ control: r.control, distanceM: round(r.distanceM, 1) }));

  const result: GeoreferenceFit = {
    explains: verdict === 'explains',
    controls: measured.length,
    within,
    shiftEastM: round(shift.x, 1),
    shiftNorthM: round(shift.y, 1),
    shiftM: round(Math.hypot(shift.x, shift.y), 1),
    // No bearing for a shift that rounds to nothing: noise would point it anywhere.
    shiftBearingDeg: round(Math.hypot(shift.x, shift.y), 1) === 0 ? 0 : bearing(shift),
    rotationDeg: round((-fit.rotationRad * 180) / Math.PI, 3),
    scale: round(fit.scale, 6),
    residualRmsM: round(agreeingRms, 1),
    residuals: real,
    message: '',
  };
  result.message = georeferenceMessage(result, {
    toleranceM,
    reachM: reach,
    accounted,
    verdict,
    minAgreeing: MIN_AGREEING,
  });
  return { fit: result, residualM };
}

function fitVerdict(f: {
  moveM: number;
  accounted: number;
  within: number;
  controls: number;
  agreeingRms: number;
  toleranceM: number;
}): FitVerdict {
  if (f.moveM <= f.toleranceM || f.accounted === 0) return 'small';
  if (f.within < EXPLAINED_SHARE * f.controls) return 'scattered';
  if (f.within < MIN_AGREEING) return 'few';
  if (f.agreeingRms > AGREEING_RMS_SHARE * f.toleranceM) return 'loose';
  return 'explains';
}

/** Organiser to service, in metres: the grid's as they are, or a local plane's for degrees. */
function planePairs(measured: readonly MeasuredControl[], projected: boolean): PointPair[] {
  if (projected) {
    const point = (p: Position): PlanePoint => ({ x: p.lng, y: p.lat });
    return measured.map((m) => ({ from: point(m.organiser), to: point(m.service) }));
  }
  const plane = localPlane(measured.flatMap((m): LatLng[] => [m.organiser, m.service]));
  return measured.map((m) => ({ from: plane.toPlane(m.organiser), to: plane.toPlane(m.service) }));
}

/**
 * The least-squares fit, made robust to real moves: the control farthest off is dropped and the rest refitted, one at
 * a time, until every control kept is within the tolerance (a least-squares fit bends towards a far outlier, so
 * dropping all that look off at once could drop good controls); then every control the fit places within the
 * tolerance is taken back and the fit remade until that set no longer changes. Both loops are bounded: the first by
 * the number of controls, the second by `MAX_SETTLE_ROUNDS`.
 */
function robustFit(pairs: readonly PointPair[], toleranceM: number): SimilarityFit {
  let kept = [...pairs];
  let fit = fitSimilarity(kept);
  while (kept.length > 2) {
    const worst = indexOfMax(fit.residuals);
    if (fit.residuals[worst]! <= toleranceM) break;
    kept = kept.filter((_, i) => i !== worst);
    fit = fitSimilarity(kept);
  }
  for (let round = 0; round < MAX_SETTLE_ROUNDS; round++) {
    const within = pairs.filter(({ from, to }) => distance(applySimilarity(fit, from), to) <= toleranceM);
    if (within.length < 2 || sameMembers(within, kept)) break;
    kept = within;
    fit = fitSimilarity(kept);
  }
  return fit;
}

function sameMembers(a: readonly PointPair[], b: readonly PointPair[]): boolean {
  const inB = new Set(b);
  return a.length === b.length && a.every((p) => inB.has(p));
}

function indexOfMax(values: readonly number[]): number {
  let best = 0;
  for (let i = 1; i < values.length; i++) if (values[i]! > values[best]!) best = i;
  return best;
}

function mean(points: readonly PlanePoint[]): PlanePoint {
  return {
    x: points.reduce((s, p) => s + p.x, 0) / points.length,
    y: points.reduce((s, p) => s + p.y, 0) / points.length,
  };
}

function distance(a: PlanePoint, b: PlanePoint): number {
  return Math.hypot(a.x - b.x, a.y - b.y);
}

/** Degrees clockwise from north of a shift east (`x`) and north (`y`), to 0.1°. */
function bearing(shift: PlanePoint): number {
  const deg = round(((Math.atan2(shift.x, shift.y) * 180) / Math.PI + 360) % 360, 1);
  return deg >= 360 ? 0 : deg;
}

function round(n: number, decimals: number): number {
  const f = 10 ** decimals;
  // `+ 0` turns -0 into 0: JSON and messages should not show "-0".
  return Math.round(n * f) / f + 0;
}
