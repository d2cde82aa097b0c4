/**
 * Switzerland: regions in three languages (German, French, Italian), each with its own name patterns and open
 * classes; Swiss Orienteering names adult classes by level (HE, HAL, HAM, HAK), juniors and veterans by age.
 *
 * One CountryProfile (`profile.ts`): data, plus the class conventions as code because they vary with event size and
 * discipline.
 */
import type { Random } from '../../random.js';
import { ageClasses, agesFor, relay } from './age-classes.js';
import { numbers, stageLabel } from './labels.js';
import type {
  ClassSpec,
  Classic,
  Club,
  CountryProfile,
  Discipline,
  Language,
  Level,
  NameTemplate,
  Region,
  RelayClassSpec,
} from './profile.js';
import { ALPINE_MONTHS } from './seasons.js';

const CHE_REGIONS: Region[] = [
  { place: 'Bern', district: 'Bern', lat: 46.95, lng: 7.45, weight: 4 },
  { place: 'Zürich', district: 'Zürich', lat: 47.38, lng: 8.54, weight: 4 },
  { place: 'Luzern', district: 'Zentralschweiz', lat: 47.05, lng: 8.31, weight: 2 },
  { place: 'Aarau', district: 'Aargau', lat: 47.39, lng: 8.05, weight: 2 },
  { place: 'St. Gallen', district: 'Ostschweiz', lat: 47.42, lng: 9.37, weight: 2 },
  { place: 'Davos', district: 'Graubünden', lat: 46.8, lng: 9.84, weight: 2 },
  { place: 'Neuchâtel', district: 'Neuchâtel', lat: 46.99, lng: 6.93, weight: 2, language: 'fr' },
  { place: 'Lausanne', district: 'Vaud', lat: 46.52, lng: 6.63, weight: 2, language: 'fr' },
  { place: 'Lugano', district: 'Ticino', lat: 46.0, lng: 8.95, weight: 1, language: 'it' },
  { place: 'St. Moritz', district: 'Graubünden', lat: 46.5, lng: 9.84, weight: 1 },
  { place: 'Basel', district: 'Nordwestschweiz', lat: 47.56, lng: 7.59, weight: 1 },
];

const CHE_CLUBS: Club[] = [
  { name: 'OLG Bern', region: 0 },
  { name: 'OLV Hindelbank', region: 0 },
  { name: 'OLG Thun', region: 0 },
  { name: 'OLC Kapreolo', region: 1 },
  { name: 'OLG Stäfa', region: 1 },
  { name: 'OL Zimmerberg', region: 1 },
  { name: 'OLV Luzern', region: 2 },
  { name: 'OLK Wiggertal', region: 2 },
  { name: 'OLG Suhr', region: 3 },
  { name: 'OLG St. Gallen/Appenzell', region: 4 },
  { name: 'OLG Davos', region: 5 },
  { name: 'OLG Chur', region: 5 },
  { name: 'CO Chenau', region: 6 },
  { name: 'ANCO', region: 6 },
  { name: 'COLJ Lausanne-Jorat', region: 7 },
  { name: 'CA Rosé', region: 7 },
  { name: 'ASCO Lugano', region: 8 },
  { name: 'OLG Engadin', region: 9 },
  { name: 'OLV Baselland', region: 10 },
];

const CHE_TEMPLATES: NameTemplate[] = [
  {
    text: '{n}. Nationaler OL',
    kind: 'single',
    disciplines: ['Long', 'Middle'],
    classification: 'National',
    weight: 4,
    language: 'de',
  },
  {
    text: 'Nationaler OL {place}',
    kind: 'single',
    disciplines: ['Long', 'Middle', 'Sprint'],
    classification: 'National',
    weight: 3,
    language: 'de',
  },
  {
    text: 'Regionaler OL {place}',
    kind: 'single',
    disciplines: ['Middle', 'Long'],
    classification: 'Regional',
    weight: 3,
    language: 'de',
  },
  {
    text: '{club} Sprint-OL',
    kind: 'single',
    disciplines: ['Sprint'],
    classification: 'Regional',
    weight: 2,
    language: 'de',
  },
  {
    text: 'Nacht-OL {place}',
    kind: 'single',
    disciplines: ['Night'],
    classification: 'Regional',
    weight: 2,
    language: 'de',
  },
  {
    text: 'Staffel-OL {place}',
    kind: 'single',
    disciplines: ['Relay'],
    classification: 'Regional',
    weight: 1,
    language: 'de',
  },
  {
    text: '{place} 2-Tage-OL',
    kind: 'multi',
    disciplines: ['Middle', 'Long'],
    classification: 'National',
    weight: 1,
    language: 'de',
    days: [2, 2],
  },
  {
    text: 'Course nationale {place}',
    kind: 'single',
    disciplines: ['Long', 'Middle'],
    classification: 'National',
    weight: 3,
    language: 'fr',
  },
  {
    text: 'Course régionale {place}',
    kind: 'single',
    disciplines: ['Middle', 'Sprint'],
    classification: 'Regional',
    weight: 3,
    language: 'fr',
  },
  {
    text: 'CO de nuit {place}',
    kind: 'single',
    disciplines: ['Night'],
    classification: 'Regional',
    weight: 1,
    language: 'fr',
  },
  {
    text: 'Relais de {place}',
    kind: 'single',
    disciplines: ['Relay'],
    classification: 'Regional',
    weight: 1,
    language: 'fr',
  },
  {
    text: 'Corsa nazionale {place}',
    kind: 'single',
    disciplines: ['Long', 'Middle'],
    classification: 'National',
    weight: 3,
    language: 'it',
  },
  {
    text: 'Corsa regionale {place}',
    kind: 'single',
    disciplines: ['Middle', 'Sprint'],
    classification: 'Regional',
    weight: 2,
    language: 'it',
  },
];

const CHE_CLASSICS: Classic[] = [
  {
    name: 'Swiss O Week {year}',
    kind: 'multi',
    disciplines: ['Sprint', 'Middle', 'Long', 'Middle', 'Long', 'Long'],
    classification: 'International',
    months: [7],
    days: 6,
    yearParity: 0,
    size: 3000,
    firstWeekday: 0,
    stageLabel: (n) => `Stage ${n}`,
  },
  {
    name: 'Langdistanz-OL-Meisterschaft (LOM)',
    kind: 'single',
    disciplines: ['Long'],
    classification: 'Championship',
    months: [10],
    size: 900,
  },
  {
    name: 'Mitteldistanz-OL-Meisterschaft (MOM)',
    kind: 'single',
    disciplines: ['Middle'],
    classification: 'Championship',
    months: [5, 6],
    size: 900,
  },
  {
    name: 'Sprint-OL-Meisterschaft (SPOM)',
    kind: 'single',
    disciplines: ['Sprint'],
    classification: 'Championship',
    months: [5],
    size: 700,
  },
  {
    name: 'Nacht-OL-Meisterschaft (NOM)',
    kind: 'single',
    disciplines: ['Night'],
    classification: 'Championship',
    months: [3, 11],
    size: 500,
  },
  {
    name: 'Staffel-OL-Meisterschaft (SOM)',
    kind: 'single',
    disciplines: ['Relay'],
    classification: 'Championship',
    months: [10],
    size: 1200,
  },
];

const SWISS_OPEN = {
  de: ['Offen kurz', 'Offen mittel', 'Offen lang', 'Familien'],
  fr: ['Ouvert court', 'Ouvert moyen', 'Ouvert long', 'Famille'],
  it: ['Aperto corto', 'Aperto medio', 'Aperto lungo', 'Famiglie'],
} as const;

function swissClasses(_r: Random, level: Level, discipline: Discipline, language: Language): ClassSpec[] {
  // Swiss Orienteering names elite and adult classes by level, not age: HE/DE elite, HAL/HAM/HAK long/medium/short,
  // HB/DB beginners; juniors and veterans by age.
  const classes: ClassSpec[] = [
    { name: 'HE', factor: 1.1 },
    { name: 'DE', factor: 0.85 },
    { name: 'HAL', factor: 0.9 },
    { name: 'DAL', factor: 0.68 },
    { name: 'HAM', factor: 0.65 },
    { name: 'DAM', factor: 0.55 },
    { name: 'HAK', factor: 0.45 },
    { name: 'DAK', factor: 0.4 },
    { name: 'HB', factor: 0.35 },
    { name: 'DB', factor: 0.3 },
  ];
  const ages = agesFor(level, discipline).filter((a) => a !== 21);
  classes.push(...ageClasses('H', 'D', ages));
  if (level === 'small') classes.splice(0, 2);
  const open = language === 'fr' || language === 'it' ? SWISS_OPEN[language] : SWISS_OPEN.de;
  classes.push({ name: open[0], factor: 0.25 }, { name: open[1], factor: 0.4 }, { name: open[2], factor: 0.6 });
  if (discipline !== 'Night') classes.push({ name: open[3], factor: 0.15 });
  return classes;
}

function swissRelays(_r: Random, level: Level): RelayClassSpec[] {
  const out = [
    relay('HE', 'HE', 3, 1.1),
    relay('DE', 'DE', 3, 0.85),
    relay('H18', 'H18', 3, 0.8),
    relay('D18', 'D18', 3, 0.62),
  ];
  if (level !== 'small')
    out.push(relay('H120', 'H120', 3, 0.7), relay('D120', 'D120', 3, 0.5), relay('Mix', 'Mix', 3, 0.45));
  return out;
}

export const SWITZERLAND: CountryProfile = {
  code: 'CHE',
  language: 'de',
  utcOffsetHours: 1,
  weight: 11,
  monthWeights: ALPINE_MONTHS,
  climbPerKm: [25, 55],
  regions: CHE_REGIONS,
  clubs: CHE_CLUBS,
  templates: CHE_TEMPLATES,
  classics: CHE_CLASSICS,
  stageLabel,
  courseNames: (_r, count) => numbers(count),
  individualClasses: swissClasses,
  relayClasses: swissRelays,
  tld: 'ch',
};
