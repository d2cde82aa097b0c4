/**
 * France: a small calendar from Fontainebleau to the Alps; H/D classes with A/B variants and colour circuits.
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
import { ALPINE_MONTHS } from './seasons.js';

const FRA_REGIONS: Region[] = [
  { place: 'Fontainebleau', district: 'Île-de-France', lat: 48.4, lng: 2.7, weight: 2 },
  { place: 'Villard-de-Lans', district: 'Auvergne-Rhône-Alpes', lat: 45.07, lng: 5.55, weight: 2 },
  { place: 'Les Rousses', district: 'Bourgogne-Franche-Comté', lat: 46.49, lng: 6.06, weight: 1 },
  { place: 'Gérardmer', district: 'Grand Est', lat: 48.07, lng: 6.88, weight: 1 },
  { place: 'Mimizan', district: 'Nouvelle-Aquitaine', lat: 44.2, lng: -1.23, weight: 1 },
  { place: 'Lyon', district: 'Auvergne-Rhône-Alpes', lat: 45.76, lng: 4.83, weight: 1 },
];

const FRA_CLUBS: Club[] = [
  { name: 'Balise 77', region: 0 },
  { name: 'COLE Fontainebleau', region: 0 },
  { name: 'Orientation Club du Vercors', region: 1 },
  { name: 'Jura Orientation', region: 2 },
  { name: 'Vosges Orientation', region: 3 },
  { name: 'Sport Orientation Landes', region: 4 },
  { name: 'Vikazim', region: 5 },
];

const FRA_TEMPLATES: NameTemplate[] = [
  {
    text: 'Course nationale {place}',
    kind: 'single',
    disciplines: ['Long', 'Middle'],
    classification: 'National',
    weight: 2,
  },
  {
    text: 'Course régionale {place}',
    kind: 'single',
    disciplines: ['Middle', 'Sprint'],
    classification: 'Regional',
    weight: 3,
  },
  { text: 'Nocturne de {place}', kind: 'single', disciplines: ['Night'], classification: 'Regional', weight: 1 },
  { text: 'Relais de {place}', kind: 'single', disciplines: ['Relay'], classification: 'Regional', weight: 1 },
];

const FRA_CLASSICS: Classic[] = [
  {
    name: "O'France {year}",
    kind: 'multi',
    disciplines: ['Sprint', 'Middle', 'Long', 'Middle', 'Long', 'Long'],
    classification: 'International',
    months: [7, 8],
    days: 6,
    size: 2000,
    firstWeekday: 0,
  },
  {
    name: 'Championnat de France de longue distance',
    kind: 'single',
    disciplines: ['Long'],
    classification: 'Championship',
    months: [5],
    size: 800,
  },
  {
    name: 'Championnat de France de moyenne distance',
    kind: 'single',
    disciplines: ['Middle'],
    classification: 'Championship',
    months: [9],
    size: 800,
  },
  {
    name: 'Championnat de France de relais',
    kind: 'single',
    disciplines: ['Relay'],
    classification: 'Championship',
    months: [10],
    size: 900,
  },
];

function frenchClasses(_r: Random, level: Level, discipline: Discipline): ClassSpec[] {
  const ages = agesFor(level, discipline).filter((a) => a !== 21);
  const classes = ageClasses('H', 'D', ages);
  if (level === 'big') classes.push({ name: 'H21E', factor: 1.1 }, { name: 'D21E', factor: 0.85 });
  classes.push(
    { name: 'H21A', factor: 0.95 },
    { name: 'D21A', factor: 0.72 },
    { name: 'H21B', factor: 0.65 },
    { name: 'D21B', factor: 0.5 },
  );
  for (const [name, factor] of [
    ['Circuit jaune', 0.2],
    ['Circuit orange', 0.35],
    ['Circuit violet', 0.55],
  ] as const) {
    classes.push({ name, factor });
  }
  return classes;
}

function frenchRelays(): RelayClassSpec[] {
  return [
    relay('H21', 'H21', 3, 1),
    relay('D21', 'D21', 3, 0.75),
    relay('H17', 'H17', 3, 0.65),
    relay('D17', 'D17', 3, 0.5),
    relay('Mixte', 'Mixte', 3, 0.45),
  ];
}

export const FRANCE: CountryProfile = {
  code: 'FRA',
  language: 'fr',
  utcOffsetHours: 1,
  weight: 3,
  monthWeights: ALPINE_MONTHS,
  climbPerKm: [15, 45],
  regions: FRA_REGIONS,
  clubs: FRA_CLUBS,
  templates: FRA_TEMPLATES,
  classics: FRA_CLASSICS,
  stageLabel,
  courseNames: lettersOrNumbers,
  individualClasses: frenchClasses,
  relayClasses: frenchRelays,
  tld: 'fr',
};
