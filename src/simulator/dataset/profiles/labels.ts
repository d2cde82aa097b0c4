/**
 * How names are spelled across countries: course names (`A`, `1`, `Course 1`), stage labels by language
 * (`etapp 2`, `Day 2`) and the Swedish genitive used when event names are rendered.
 */
import type { Random } from '../../random.js';
import type { Language } from './profile.js';

function letters(count: number): string[] {
  return Array.from({ length: count }, (_, i) => String.fromCharCode(65 + i));
}

export function numbers(count: number): string[] {
  return Array.from({ length: count }, (_, i) => String(i + 1));
}

/** Course names `A`, `B`, ... or `1`, `2`, ...: clubs use either. */
export const lettersOrNumbers = (r: Random, count: number): string[] =>
  r.chance(0.6) ? letters(count) : numbers(count);

/** English stage label, also used by classics elsewhere that run in English (`Danish Spring, Day 2`). */
export const englishDayLabel = (n: number): string => `Day ${n}`;

const STAGE_LABELS: Record<Language, (n: number) => string> = {
  sv: (n) => `etapp ${n}`,
  no: (n) => `etappe ${n}`,
  da: (n) => `etape ${n}`,
  fi: (n) => `etappi ${n}`,
  de: (n) => `Etappe ${n}`,
  fr: (n) => `étape ${n}`,
  it: (n) => `tappa ${n}`,
  en: englishDayLabel,
  cs: (n) => `${n}. etapa`,
  et: (n) => `${n}. etapp`,
};

export function stageLabel(n: number, language: Language): string {
  return STAGE_LABELS[language](n);
}

/** Swedish genitive: `OK Linnés`, `Tullinge SK:s`, `Göteborgs`; no -s after s, x, z. */
export function swedishGenitive(name: string): string {
  if (/[sxz]$/i.test(name)) return name;
  if (/[A-ZÅÄÖÆØ]$/.test(name)) return `${name}:s`;
  return `${name}s`;
}
