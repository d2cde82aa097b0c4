/**
 * Estonia: a small calendar around Tallinn, Tartu and Otepää; Estonian classes are M (mehed) and N (naised).
 *
 * One CountryProfile (`profile.ts`): data, plus the class conventions as code because they vary with event size and
 * discipline.
 */
import type { Random } from '../../random.js';
import { ageClasses, agesFor, relay } from './age-classes.js';
import { lettersOrNumbers, stageLabel } from './labels.js';
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

const EST_REGIONS: Region[] = [
  { place: 'Tallinn', placeGen: 'Tallinna', district: 'Harjumaa', lat: 59.44, lng: 24.75, weight: 3 },
  { place: 'Tartu', district: 'Tartumaa', lat: 58.38, lng: 26.72, weight: 3 },
  { place: 'Otepää', district: 'Valgamaa', lat: 58.06, lng: 26.49, weight: 2 },
  { place: 'Pärnu', district: 'Pärnumaa', lat: 58.39, lng: 24.5, weight: 1 },
  { place: 'Rakvere', district: 'Lääne-Virumaa', lat: 59.35, lng: 26.36, weight: 1 },
];

const EST_CLUBS: Club[] = [
  { name: 'OK Ilves', region: 0 },
  { name: 'SK Saue Tammed', region: 0 },
  { name: 'Tartu Kobras', region: 1 },
  { name: 'OK Võru', region: 2 },
  { name: 'OK Meridiaan', region: 3 },
  { name: 'Rakvere OK', region: 4 },
  { name: 'OK Kape', region: 1 },
];

const EST_TEMPLATES: NameTemplate[] = [
  {
    text: '{club} päevak',
    kind: 'single',
    disciplines: ['Middle', 'Sprint'],
    classification: 'Local',
    weight: 3,
    months: [4, 5, 6, 7, 8, 9],
  },
  {
    text: '{placeGen} karikas, {n}. etapp',
    kind: 'single',
    disciplines: ['Middle', 'Long'],
    classification: 'Regional',
    weight: 2,
  },
  { text: 'Öine orienteerumine {place}', kind: 'single', disciplines: ['Night'], classification: 'Local', weight: 1 },
  { text: '{club} teatevõistlus', kind: 'single', disciplines: ['Relay'], classification: 'Regional', weight: 1 },
];

const EST_CLASSICS: Classic[] = [
  {
    name: 'Tartu O-nädal',
    kind: 'multi',
    disciplines: ['Sprint', 'Middle', 'Long', 'Middle'],
    classification: 'International',
    months: [7],
    place: 'Tartu',
    days: 4,
    size: 1200,
    firstWeekday: 4,
  },
  {
    name: 'Eesti meistrivõistlused lühirajal',
    kind: 'single',
    disciplines: ['Middle'],
    classification: 'Championship',
    months: [8],
    size: 500,
  },
  {
    name: 'Eesti meistrivõistlused tavarajal',
    kind: 'single',
    disciplines: ['Long'],
    classification: 'Championship',
    months: [9],
    size: 500,
  },
  {
    name: 'Eesti meistrivõistlused teatevõistluses',
    kind: 'single',
    disciplines: ['Relay'],
    classification: 'Championship',
    months: [9],
    size: 600,
  },
];

function estonianClasses(_r: Random, level: Level, discipline: Discipline): ClassSpec[] {
  // Estonian classes: M (mehed) and N (naised).
  const classes = ageClasses('M', 'N', agesFor(level, discipline));
  if (level === 'big') classes.push({ name: 'M21E', factor: 1.1 }, { name: 'N21E', factor: 0.85 });
  classes.push({ name: 'Avatud lühike', factor: 0.25 }, { name: 'Avatud pikk', factor: 0.5 });
  return classes;
}

function estonianRelays(): RelayClassSpec[] {
  return [
    relay('M21', 'M21', 3, 1),
    relay('N21', 'N21', 3, 0.75),
    relay('M16', 'M16', 3, 0.55),
    relay('N16', 'N16', 3, 0.45),
  ];
}

export const ESTONIA: CountryProfile = {
  code: 'EST',
  language: 'et',
  utcOffsetHours: 2,
  weight: 3,
  monthWeights: NORDIC_MONTHS,
  climbPerKm: [8, 25],
  regions: EST_REGIONS,
  clubs: EST_CLUBS,
  templates: EST_TEMPLATES,
  classics: EST_CLASSICS,
  stageLabel,
  courseNames: lettersOrNumbers,
  individualClasses: estonianClasses,
  relayClasses: estonianRelays,
  tld: 'ee',
};
