/**
 * Scores, similarities and lengths go out rounded to two decimals, in the numbers callers read and in the reasons that
 * quote them: one rounding, so a reason never states a figure its score beside it does not show.
 */

export const round2 = (n: number): number => Math.round(n * 100) / 100;
