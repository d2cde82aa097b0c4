import { describe, expect, it } from 'vitest';

import { COUNTRIES, countryName, findCountry } from '../../src/simulator/countries.js';

describe('COUNTRIES', () => {
  it('lists every ISO 3166-1 country once', () => {
    expect(COUNTRIES).toHaveLength(249);
    expect(new Set(COUNTRIES.map((c) => c.code)).size).toBe(249);
    expect(new Set(COUNTRIES.map((c) => c.alpha2)).size).toBe(249);
    expect(new Set(COUNTRIES.map((c) => c.numeric)).size).toBe(249);
    for (const c of COUNTRIES) {
      expect(c.code).toMatch(/^[A-Z]{3}$/);
      expect(c.alpha2).toMatch(/^[A-Z]{2}$/);
      expect(Number.isInteger(c.numeric)).toBe(true);
    }
  });

  it('numbers countries 1..249 in alpha-3 order, which is not the ISO numeric code', () => {
    expect(COUNTRIES.map((c) => c.id)).toEqual(Array.from({ length: 249 }, (_, i) => i + 1));
    const codes = COUNTRIES.map((c) => c.code);
    expect(codes).toEqual([...codes].sort());
    const sweden = findCountry('SWE')!;
    expect(sweden.numeric).toBe(752);
    expect(sweden.id).not.toBe(752);
  });

  it('has the orienteering countries the generated events use', () => {
    for (const code of ['SWE', 'NOR', 'FIN', 'CHE', 'GBR', 'CZE', 'DNK', 'EST', 'FRA']) {
      expect(findCountry(code)?.code).toBe(code);
    }
    expect(findCountry('GBR')?.alpha2).toBe('GB');
    expect(findCountry('CZE')?.alpha2).toBe('CZ');
  });

  it('leaves out the user-assigned code XK (Kosovo), which ISO 3166-1 does not assign', () => {
    expect(COUNTRIES.some((c) => c.alpha2 === 'XK')).toBe(false);
  });

  it('is frozen, so one dataset cannot change another through a shared country', () => {
    expect(Object.isFrozen(COUNTRIES)).toBe(true);
    expect(Object.isFrozen(COUNTRIES[0])).toBe(true);
  });
});

describe('findCountry', () => {
  it('finds by internal id, as a number or a string of digits', () => {
    const sweden = findCountry('SWE')!;
    expect(findCountry(sweden.id)).toBe(sweden);
    expect(findCountry(String(sweden.id))).toBe(sweden);
  });

  it('finds by alpha-3 code in any case', () => {
    expect(findCountry('swe')?.code).toBe('SWE');
    expect(findCountry(' Nor ')?.code).toBe('NOR');
  });

  it('returns undefined for unknown ids and codes', () => {
    expect(findCountry(0)).toBeUndefined();
    expect(findCountry(250)).toBeUndefined();
    expect(findCountry('XXX')).toBeUndefined();
    expect(findCountry('SE')).toBeUndefined();
    expect(findCountry('')).toBeUndefined();
  });
});

describe('countryName', () => {
  it('names countries in the requested culture', () => {
    const sweden = findCountry('SWE')!;
    expect(countryName(sweden, 'sv-SE')).toBe('Sverige');
    expect(countryName(sweden, 'en-US')).toBe('Sweden');
    expect(countryName(findCountry('NOR')!, 'nb-NO')).toBe('Norge');
    expect(countryName(findCountry('FIN')!, 'fi-FI')).toBe('Suomi');
    expect(countryName(findCountry('CHE')!, 'de-CH')).toBe('Schweiz');
    expect(countryName(findCountry('CZE')!, 'cs-CZ')).toBe('Česko');
  });

  it('falls back to en-US for a culture it does not know or cannot parse', () => {
    const sweden = findCountry('SWE')!;
    expect(countryName(sweden, 'xx-YY')).toBe('Sweden');
    expect(countryName(sweden, 'not a culture!')).toBe('Sweden');
    expect(countryName(sweden, '')).toBe('Sweden');
  });

  it('has a name for every country in en-US and sv-SE', () => {
    for (const c of COUNTRIES) {
      expect(countryName(c, 'en-US')).not.toBe(c.alpha2);
      expect(countryName(c, 'sv-SE').length).toBeGreaterThan(1);
    }
  });
});
