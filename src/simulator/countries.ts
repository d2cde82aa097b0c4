/**
 * The countries the simulated service knows: every ISO 3166-1 country, with the service's own internal ids. Codes come
 * from `i18n-iso-countries`; names come from the ICU data built into Node (`Intl.DisplayNames`), so every culture Node
 * knows is served without shipping name tables.
 */
// i18n-iso-countries is CommonJS without named ESM exports: its default import is `module.exports`, both under Node's
// ESM loader (tsc-built dist) and under vitest.
import isoCountries from 'i18n-iso-countries';
import type { SimCountry } from './model.js';
import { byField } from '../core/order.js';

/**
 * Alpha-2 codes the package lists that ISO 3166-1 does not assign (Kosovo's `XK` is a user-assigned code). The
 * service's list is ISO 3166-1, so they stay out.
 */
const NOT_ISO_3166_1 = new Set(['XK']);

function buildCountries(): readonly SimCountry[] {
  const rows: SimCountry[] = [];
  for (const [alpha2, alpha3] of Object.entries(isoCountries.getAlpha2Codes())) {
    if (NOT_ISO_3166_1.has(alpha2)) continue;
    const numeric = Number(isoCountries.alpha2ToNumeric(alpha2));
    if (!Number.isInteger(numeric)) throw new Error(`i18n-iso-countries has no numeric code for ${alpha2}`);
    rows.push({ id: 0, code: alpha3, alpha2, numeric });
  }
  rows.sort(byField('code'));
  // The service numbers countries its own way. Position in alpha-3 order is deterministic and, unlike the ISO numeric
  // code, makes a client that confuses the two fail visibly (SWE is not 752 here).
  return Object.freeze(rows.map((row, index) => Object.freeze({ ...row, id: index + 1 })));
}

/** Every ISO 3166-1 country (249), ordered by alpha-3 code; `id` is the 1-based position in that order. */
export const COUNTRIES: readonly SimCountry[] = buildCountries();

const byId = new Map<number, SimCountry>(COUNTRIES.map((c) => [c.id, c]));
const byAlpha3 = new Map<string, SimCountry>(COUNTRIES.map((c) => [c.code, c]));

/**
 * A country by the service's internal id or by alpha-3 code (case-insensitive), as `countryId` accepts both. A string
 * of digits is taken as an internal id, the way it arrives in a query string.
 */
export function findCountry(idOrAlpha3: string | number): SimCountry | undefined {
  if (typeof idOrAlpha3 === 'number') return byId.get(idOrAlpha3);
  const text = idOrAlpha3.trim();
  if (/^\d+$/.test(text)) return byId.get(Number(text));
  return byAlpha3.get(text.toUpperCase());
}

const FALLBACK_CULTURE = 'en-US';
const displayNames = new Map<string, Intl.DisplayNames>();

function regionNames(cultureCode: string): Intl.DisplayNames {
  const cached = displayNames.get(cultureCode);
  if (cached) return cached;
  // Intl silently falls back to the process's default locale for a culture it does not know; the service falls back
  // to en-US whatever the machine's locale, so check support first. A malformed tag makes supportedLocalesOf throw.
  let supported = false;
  try {
    supported = Intl.DisplayNames.supportedLocalesOf([cultureCode]).length > 0;
  } catch {
    supported = false;
  }
  if (!supported && cultureCode !== FALLBACK_CULTURE) return regionNames(FALLBACK_CULTURE);
  const names = new Intl.DisplayNames([cultureCode], { type: 'region' });
  // Cultures arrive from query strings: only supported ones are cached, and at most a few hundred of them.
  if (displayNames.size < 200) displayNames.set(cultureCode, names);
  return names;
}

/** The country's name in `cultureCode` (`sv-SE` gives `Sverige`), in en-US for a culture Node's ICU does not know. */
export function countryName(country: SimCountry, cultureCode: string): string {
  return regionNames(cultureCode).of(country.alpha2) ?? country.code;
}
