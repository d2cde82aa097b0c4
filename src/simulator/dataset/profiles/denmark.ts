/**
 * Denmark: a small calendar of forest, sprint and night events; Danish Spring runs in English (`Day 2`).
 *
 * One CountryProfile (`profile.ts`): data, plus the class conventions as code because they vary with event size and
 * discipline.
 */
import type { Random } from '../../random.js';
import { ageClasses, agesFor, relay } from './age-classes.js';
import { englishDayLabel, lettersOrNumbers, stageLabel } from './labels.js';
import type {
  ClassSpec,
  Classic,
  Club,
  CountryProfile,
  Discipline,
  Level,
  NameTemplate,
  Region,
  RelayClassSpec,
} from './profile.js';
import { NORDIC_MONTHS } from './seasons.js';

const DNK_REGIONS: Region[] = [
  { place: 'Rold Skov', district: 'Nordjylland', lat: 56.8, lng: 9.85, weight: 2 },
  { place: 'Silkeborg', district: 'Midtjylland', lat: 56.17, lng: 9.55, weight: 2 },
  { place: 'Nordsjælland', district: 'Sjælland', lat: 55.9, lng: 12.35, weight: 3 },
  { place: 'Odense', district: 'Fyn', lat: 55.4, lng: 10.39, weight: 1 },
  { place: 'Aarhus', district: 'Midtjylland', lat: 56.16, lng: 10.2, weight: 2 },
  { place: 'Tisvilde', district: 'Sjælland', lat: 56.05, lng: 12.05, weight: 1 },
];

const DNK_CLUBS: Club[] = [
  { name: 'Aalborg OK', region: 0 },
  { name: 'Silkeborg OK', region: 1 },
  { name: 'FIF Hillerød', region: 2 },
  { name: 'OK Øst Birkerød', region: 2 },
  { name: 'Farum OK', region: 2 },
  { name: 'Odense OK', region: 3 },
  { name: 'OK Pan Aarhus', region: 4 },
  { name: 'Tisvilde Hegn OK', region: 5 },
];

const DNK_TEMPLATES: NameTemplate[] = [
  {
    text: '{club} forårsløb',
    kind: 'single',
    disciplines: ['Middle', 'Long'],
    classification: 'Regional',
    weight: 3,
    months: [3, 4, 5],
  },
  {
    text: 'Divisionsmatch, {district}',
    kind: 'single',
    disciplines: ['Middle', 'Long'],
    classification: 'Regional',
    weight: 2,
  },
  { text: '{club} Sprint', kind: 'single', disciplines: ['Sprint'], classification: 'Local', weight: 2 },
  { text: 'Natløb {club}', kind: 'single', disciplines: ['Night'], classification: 'Local', weight: 2 },
  { text: '{club} stafet', kind: 'single', disciplines: ['Relay'], classification: 'Regional', weight: 1 },
];

const DNK_CLASSICS: Classic[] = [
  {
    name: 'Danish Spring',
    kind: 'multi',
    disciplines: ['Sprint', 'Middle', 'Long'],
    classification: 'International',
    months: [3, 4],
    days: 3,
    size: 1500,
    firstWeekday: 5,
    stageLabel: englishDayLabel,
  },
  {
    name: 'Påskeløbet',
    kind: 'multi',
    disciplines: ['Middle', 'Long', 'Middle'],
    classification: 'National',
    months: 'easter',
    days: 3,
    size: 800,
  },
  { name: 'DM Lang', kind: 'single', disciplines: ['Long'], classification: 'Championship', months: [9], size: 600 },
  {
    name: 'DM Mellem',
    kind: 'single',
    disciplines: ['Middle'],
    classification: 'Championship',
    months: [5],
    size: 600,
  },
  {
    name: 'DM Stafet',
    kind: 'single',
    disciplines: ['Relay'],
    classification: 'Championship',
    months: [10],
    size: 700,
  },
  { name: 'DM Nat', kind: 'single', disciplines: ['Night'], classification: 'Championship', months: [11], size: 300 },
];

function danishClasses(_r: Random, level: Level, discipline: Discipline): ClassSpec[] {
  const classes = ageClasses('H', 'D', agesFor(level, discipline));
  if (level !== 'small') classes.push({ name: 'H21B', factor: 0.7 }, { name: 'D21B', factor: 0.55 });
  for (const [name, factor] of [
    ['Begynder', 0.15],
    ['Let', 0.3],
    ['Mellemsvær', 0.45],
    ['Svær', 0.65],
  ] as const) {
    classes.push({ name, factor });
  }
  return classes;
}

function danishRelays(_r: Random, level: Level): RelayClassSpec[] {
  const out = [
    relay('H21 stafet', 'H21', 3, 1),
    relay('D21 stafet', 'D21', 3, 0.75),
    relay('H16 stafet', 'H16', 3, 0.55),
  ];
  if (level !== 'small') out.push(relay('D16 stafet', 'D16', 3, 0.45), relay('Åben stafet', 'Åben', 3, 0.35));
  return out;
}

export const DENMARK: CountryProfile = {
  code: 'DNK',
  language: 'da',
  utcOffsetHours: 1,
  weight: 3,
  monthWeights: NORDIC_MONTHS,
  climbPerKm: [8, 20],
  regions: DNK_REGIONS,
  clubs: DNK_CLUBS,
  templates: DNK_TEMPLATES,
  classics: DNK_CLASSICS,
  stageLabel,
  courseNames: lettersOrNumbers,
  individualClasses: danishClasses,
  relayClasses: danishRelays,
  tld: 'dk',
};
