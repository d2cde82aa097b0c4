/**
 * Course lengths of age classes and the builders of age-class lists, shared by the countries whose federations name
 * classes by sex and age (`H21`, `D45`, `M21`, `N16`): one table, so that an H45 runs the same share of the longest
 * course in every country.
 */
import type { ClassSpec, Discipline, Level, RelayClassSpec } from './profile.js';

/** Relative course length by age class. Juniors and veterans run shorter than 21. */
const MEN: Record<number, number> = {
  10: 0.2,
  12: 0.3,
  14: 0.42,
  16: 0.6,
  18: 0.8,
  20: 0.92,
  21: 1,
  35: 0.82,
  40: 0.78,
  45: 0.72,
  50: 0.66,
  55: 0.58,
  60: 0.52,
  65: 0.46,
  70: 0.4,
  75: 0.34,
  80: 0.3,
  85: 0.26,
};
const WOMEN: Record<number, number> = {
  10: 0.2,
  12: 0.3,
  14: 0.4,
  16: 0.52,
  18: 0.62,
  20: 0.7,
  21: 0.75,
  35: 0.6,
  40: 0.56,
  45: 0.52,
  50: 0.48,
  55: 0.44,
  60: 0.4,
  65: 0.36,
  70: 0.32,
  75: 0.28,
  80: 0.26,
  85: 0.24,
};

const JUNIOR_AGES = [10, 12, 14, 16, 18, 20] as const;
export const VETERAN_AGES = [35, 40, 45, 50, 55, 60, 65, 70, 75, 80, 85] as const;

function factorOf(table: Record<number, number>, age: number): number {
  return table[age] ?? 0.5;
}

/** Age classes `H21`, `D21` (or `M21`/`W21`, `M21`/`N21`): men first, then women, youngest first. */
export function ageClasses(men: string, women: string, ages: readonly number[]): ClassSpec[] {
  const out: ClassSpec[] = [];
  for (const [prefix, table] of [
    [men, MEN],
    [women, WOMEN],
  ] as const) {
    for (const age of ages) out.push({ name: `${prefix}${age}`, factor: factorOf(table, age) });
  }
  return out;
}

/**
 * The men's and the women's class of one age, in that order, for federations that list them in pairs (`H16A`, `D16A`)
 * rather than men first: `suffix` follows the age, `scale` shortens both courses (`M45S`).
 */
export function agePair(men: string, women: string, age: number, suffix = '', scale = 1): [ClassSpec, ClassSpec] {
  return [
    { name: `${men}${age}${suffix}`, factor: factorOf(MEN, age) * scale },
    { name: `${women}${age}${suffix}`, factor: factorOf(WOMEN, age) * scale },
  ];
}

/** Veteran ages by an event's size: big events have every 5-year class (to 70 in a sprint), small ones every 15. */
export function veteranAgesFor(level: Level, discipline: Discipline): number[] {
  if (level === 'big') return VETERAN_AGES.slice(0, discipline === 'Sprint' ? 8 : 11);
  return level === 'medium' ? [35, 45, 55, 65, 75] : [40, 55, 70];
}

/** Ages of an event's classes by its size: juniors, 21 and the veterans of `veteranAgesFor`; fewer at night. */
export function agesFor(level: Level, discipline: Discipline): number[] {
  const veterans = veteranAgesFor(level, discipline);
  const juniors = level === 'small' ? [10, 12, 14, 16] : [...JUNIOR_AGES];
  if (discipline === 'Night') return [16, 18, 21, ...veterans.filter((a) => a <= 65)];
  return [...juniors, 21, ...veterans];
}

/** A relay class of `legs` legs; `shortName` prefixes its leg courses (`H21-1`). */
export function relay(name: string, shortName: string, legs: number, factor: number): RelayClassSpec {
  return { name, shortName, legs, factor };
}
