/**
 * A fitted georeferencing difference in words: "The whole map is shifted 38 m to the north-east and rotated 0.4°
 * clockwise: a georeferencing difference, not 31 moved controls; apart from it, control 103 is 25 m off."
 */
import { plural } from '../../core/plural.js';
import { list } from './report.js';
import type { GeoreferenceFit } from './types.js';

/**
 * Why a fit explains the differences or does not: `explains`; `small` (it moves no control beyond the tolerance, or
 * brings none back within it); `scattered` (fewer than 80 % agree after it); `few` (too few agree to confirm it);
 * `loose` (they agree, but only just: their residual more than half the tolerance).
 */
export type FitVerdict = 'explains' | 'small' | 'scattered' | 'few' | 'loose';

/** What the words need beyond the fit itself. */
export interface FitFacts {
  toleranceM: number;
  /** Metres from the controls' centre to the farthest control: where a rotation or scale shows most. */
  reachM: number;
  /** Controls farther apart than the tolerance that the transform brings within it. */
  accounted: number;
  verdict: FitVerdict;
  /** Controls that must agree after the transform for it to explain the differences. */
  minAgreeing: number;
}

/**
 * A rotation or scale is named only when it moves the farthest control by at least this many metres on its own:
 * below that it is lost in the rounding of coordinates (0.1 mm on a 1:10 000 map), and a fit over noisy positions
 * always finds some. At 1 km from the centre that is a rotation of 0.06° or a scale off by 1:1000.
 */
const MENTION_M = 1;

const NOT_SHIFTED = 'not shifted';

const COMPASS = ['north', 'north-east', 'east', 'south-east', 'south', 'south-west', 'west', 'north-west'];

export function georeferenceMessage(fit: GeoreferenceFit, facts: FitFacts): string {
  const moves = transformWords(fit, facts.reachM);
  const tolerance = `${facts.toleranceM} m`;
  const best = `fitted over ${plural(fit.controls, 'control')}, the map is ${moves}`;
  const agree = `${fit.within} of ${fit.controls} controls are within ${tolerance}`;
  switch (facts.verdict) {
    case 'explains': {
      const apart = fit.residuals.length === 0 ? '' : `; apart from it, ${residualWords(fit.residuals)}`;
      return (
        `The whole map is ${moves}: a georeferencing difference, not ${plural(facts.accounted, 'moved control')}` +
        `${apart}.`
      );
    }
    case 'small':
      if (fit.shiftM === 0 && moves === NOT_SHIFTED) return `No georeferencing difference: ${best}.`;
      return `No georeferencing difference: ${best}, which moves no control beyond the ${tolerance} tolerance.`;
    case 'scattered':
      return `No one shift, rotation and scale explains the differences: ${best}, and then only ${agree}.`;
    case 'few':
      return (
        'Too few controls agree to tell a georeferencing difference from moved controls: ' +
        `${best}, and then ${agree} (${facts.minAgreeing} needed).`
      );
    case 'loose':
      return (
        `No one shift, rotation and scale explains the differences: ${best}, and then ${agree}, but ` +
        `${distanceWords(fit.residualRmsM)} apart (root mean square), more than half the tolerance.`
      );
  }
}

/** `shifted 38 m to the north-east and rotated 0.4° clockwise`: the parts that move a control a metre or more. */
function transformWords(fit: GeoreferenceFit, reachM: number): string {
  const parts: string[] = [];
  const turnRad = Math.abs((fit.rotationDeg * Math.PI) / 180);
  const shown = (m: number): boolean => m >= MENTION_M;
  if (shown(fit.shiftM)) parts.push(`shifted ${distanceWords(fit.shiftM)} to the ${compass(fit.shiftBearingDeg)}`);
  if (shown(2 * reachM * Math.sin(turnRad / 2))) {
    parts.push(
      `rotated ${decimals(Math.abs(fit.rotationDeg))}° ${fit.rotationDeg > 0 ? 'clockwise' : 'anticlockwise'}`,
    );
  }
  if (shown(reachM * Math.abs(fit.scale - 1))) {
    parts.push(`scaled ${fit.scale > 1 ? 'up' : 'down'} ${decimals(Math.abs(fit.scale - 1) * 100)} %`);
  }
  // Nothing a metre or more: still the shift, however small, so that the sentence says what was fitted.
  if (parts.length === 0) {
    return fit.shiftM === 0
      ? NOT_SHIFTED
      : `shifted ${distanceWords(fit.shiftM)} to the ${compass(fit.shiftBearingDeg)}`;
  }
  return parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)!}`;
}

/** `control 103 is 25 m off`, `controls 103 (25 m), 107 (41 m) and 112 (60 m) are off`. */
function residualWords(residuals: GeoreferenceFit['residuals']): string {
  if (residuals.length === 1)
    return `control ${residuals[0]!.control} is ${distanceWords(residuals[0]!.distanceM)} off`;
  return `controls ${list(residuals.map((r) => `${r.control} (${distanceWords(r.distanceM)})`))} are off`;
}

/**
 * Whole metres from 10 m up, tenths below (a 3.4 m shift under a 3 m tolerance should not read "3 m"), and kilometres
 * from 10 km up: a map put in the wrong grid zone lands hundreds of kilometres away.
 */
function distanceWords(m: number): string {
  if (m >= 10_000) return `${Math.round(m / 100) / 10} km`;
  return `${m >= 10 ? Math.round(m) : Math.round(m * 10) / 10} m`;
}

/** One decimal, or two below 0.1 (a rotation of 0.06°). */
function decimals(n: number): string {
  return n >= 0.1 ? n.toFixed(1) : n.toFixed(2);
}

function compass(bearingDeg: number): string {
  return COMPASS[Math.round(bearingDeg / 45) % 8]!;
}
