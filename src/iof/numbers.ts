/** Numbers as IOF files write them, shared by the readers that build a tree and the one that streams. */

/** An xsd:double written in decimal or exponent form (no `INF`/`NaN`: a course is never infinitely long). */
export const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** Metres per unit of the 2.0.3 `unit` attribute of `CourseLength`, `CourseClimb` and `ClassLength`. */
export const LENGTH_UNITS: Readonly<Record<string, number>> = { m: 1, km: 1000, ft: 0.3048 };

/** A unit conversion without binary noise: 1.6179 km is 1617.9 m, not 1617.8999999999999. */
export function scaled(value: number, factor: number): number {
  return factor === 1 ? value : Number((value * factor).toPrecision(15));
}
