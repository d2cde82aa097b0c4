/**
 * IOF XML writes countries with the codes sports federations use (IOC: `GER`, `SUI`, `NED`), which are not always
 * ISO 3166-1 alpha-3 (`DEU`, `CHE`, `NLD`), the codes the service knows. The IOC codes that differ, for the countries
 * that hold orienteering events; a code that is already ISO alpha-3 is never translated.
 */
import { isAlpha3 } from '../geo/iso-countries.js';

const IOC_TO_ISO: Readonly<Record<string, string>> = {
  ALG: 'DZA',
  ANG: 'AGO',
  BAN: 'BGD',
  BUL: 'BGR',
  CHI: 'CHL',
  CRC: 'CRI',
  CRO: 'HRV',
  DEN: 'DNK',
  GER: 'DEU',
  GRE: 'GRC',
  GUA: 'GTM',
  INA: 'IDN',
  IRI: 'IRN',
  KSA: 'SAU',
  KUW: 'KWT',
  LAT: 'LVA',
  LIB: 'LBN',
  MAS: 'MYS',
  MGL: 'MNG',
  MRI: 'MUS',
  NED: 'NLD',
  NEP: 'NPL',
  NGR: 'NGA',
  PAR: 'PRY',
  PHI: 'PHL',
  POR: 'PRT',
  PUR: 'PRI',
  RSA: 'ZAF',
  SLO: 'SVN',
  SRI: 'LKA',
  SUI: 'CHE',
  TPE: 'TWN',
  UAE: 'ARE',
  URU: 'URY',
  VIE: 'VNM',
  ZIM: 'ZWE',
};

/**
 * The ISO alpha-3 code for an IOF country code: itself when it is ISO already, the IOC translation otherwise. Anything
 * that is not a three-letter code (a country name) comes back as it was.
 */
export function isoCountryCode(code: string): string {
  if (!/^[A-Za-z]{3}$/.test(code)) return code;
  const upper = code.toUpperCase();
  if (isAlpha3(upper)) return upper;
  return IOC_TO_ISO[upper] ?? upper;
}
