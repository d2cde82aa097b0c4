/**
 * Durations as people type them on a command line, read one way by every option that takes one (`sync --overlap`,
 * `import --import-time`, `simulator clock +1d`): a number and a unit, several in a row (`1d12h`, `1h30m`).
 */

/** Milliseconds per unit: `ms`, `s`, `m` or `min`, `h`, `d`, `w`. */
const UNIT_MS: Readonly<Record<string, number>> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  min: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 7 * 86_400_000,
};
const PART = /(\d+(?:\.\d+)?)(ms|min|s|m|h|d|w)/g;
const WHOLE = /^(?:\d+(?:\.\d+)?(?:ms|min|s|m|h|d|w))+$/;

/** The units as help texts list them. */
export const DURATION_UNITS = 'w, d, h, m, s, ms';

/**
 * `text` in milliseconds, or undefined when it is not a duration. `bareUnit`: what a number without a unit means
 * (`sync --overlap 3600` is seconds); without it a unit is required.
 */
export function parseDuration(text: string, bareUnit?: 'ms' | 's'): number | undefined {
  const trimmed = text.trim();
  if (bareUnit !== undefined && /^\d+(?:\.\d+)?$/.test(trimmed))
    return Math.round(Number(trimmed) * UNIT_MS[bareUnit]!);
  if (!WHOLE.test(trimmed)) return undefined;
  let ms = 0;
  for (const [, n, unit] of trimmed.matchAll(PART)) ms += Number(n) * UNIT_MS[unit!]!;
  return Math.round(ms);
}

/** `1 d 2 h`, `36 h`, `1.5 s`: a duration as a person reads it. */
export function durationText(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  const parts: string[] = [];
  let rest = Math.round(ms / 1000);
  for (const [unit, size] of [
    ['d', 86_400],
    ['h', 3600],
    ['min', 60],
    ['s', 1],
  ] as const) {
    const n = Math.floor(rest / size);
    if (n > 0) parts.push(`${n} ${unit}`);
    rest -= n * size;
  }
  return parts.join(' ');
}
