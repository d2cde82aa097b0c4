/**
 * ISO 3166-1 code conversions (alpha-2, alpha-3, numeric) from the `i18n-iso-countries` tables, for turning what an
 * event system writes (NOR, NO, 578) into the alpha-3 code the service keys countries by.
 */
// CommonJS without named ESM exports: the default import is `module.exports` under Node's loader and vitest alike.
import isoCountries from 'i18n-iso-countries';

export function alpha2ToAlpha3(alpha2: string): string | undefined {
  return isoCountries.alpha2ToAlpha3(alpha2.toUpperCase()) ?? undefined;
}

export function numericToAlpha3(numeric: number): string | undefined {
  if (!Number.isInteger(numeric) || numeric < 1 || numeric > 999) return undefined;
  return isoCountries.numericToAlpha3(String(numeric).padStart(3, '0')) ?? undefined;
}

export function isAlpha3(code: string): boolean {
  return isoCountries.isValid(code.toUpperCase()) && code.length === 3;
}
