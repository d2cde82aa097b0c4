/**
 * The countries events are generated in. The order matters: a dataset draws one series from each country in this
 * order before choosing by weight, so reordering changes every seed's data.
 */
import { CZECHIA } from './czechia.js';
import { DENMARK } from './denmark.js';
import { ESTONIA } from './estonia.js';
import { FINLAND } from './finland.js';
import { FRANCE } from './france.js';
import { GREAT_BRITAIN } from './great-britain.js';
import { NORWAY } from './norway.js';
import type { CountryProfile } from './profile.js';
import { SWEDEN } from './sweden.js';
import { SWITZERLAND } from './switzerland.js';

/** The countries events are generated in, with their conventions. */
export const PROFILES: readonly CountryProfile[] = [
  SWEDEN,
  NORWAY,
  FINLAND,
  SWITZERLAND,
  GREAT_BRITAIN,
  CZECHIA,
  DENMARK,
  ESTONIA,
  FRANCE,
];
