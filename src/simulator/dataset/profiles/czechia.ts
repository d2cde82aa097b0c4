/**
 * Czechia: Český pohár, žebříček and oblastní events, Pražské Jaro and the national championships; H/D classes
 * with a performance letter (E, A, B, C, N for newcomers).
 *
 * One CountryProfile (`profile.ts`): data, plus the class conventions as code because they vary with event size and
 * discipline.
 */
import type { Random } from '../../random.js';
import { agePair, relay, VETERAN_AGES } from './age-classes.js';
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

const CZE_REGIONS: Region[] = [
  { place: 'Praha', district: 'Praha', lat: 50.08, lng: 14.42, weight: 4 },
  { place: 'Brno', district: 'Jihomoravská oblast', lat: 49.2, lng: 16.61, weight: 3 },
  { place: 'Liberec', district: 'Liberecká oblast', lat: 50.77, lng: 15.06, weight: 2 },
  { place: 'Plzeň', district: 'Západočeská oblast', lat: 49.75, lng: 13.38, weight: 1 },
  { place: 'Olomouc', district: 'Hanácká oblast', lat: 49.59, lng: 17.25, weight: 2 },
  { place: 'Hradec Králové', district: 'Východočeská oblast', lat: 50.21, lng: 15.83, weight: 2 },
  { place: 'Ostrava', district: 'Ostravská oblast', lat: 49.82, lng: 18.26, weight: 1 },
  { place: 'České Budějovice', district: 'Jihočeská oblast', lat: 48.97, lng: 14.47, weight: 1 },
  { place: 'Turnov', district: 'Liberecká oblast', lat: 50.55, lng: 15.2, weight: 1 },
  { place: 'Karlovy Vary', district: 'Západočeská oblast', lat: 50.23, lng: 12.87, weight: 1 },
];

const CZE_CLUBS: Club[] = [
  { name: 'SK Praga', region: 0 },
  { name: 'OK Kamenice', region: 0 },
  { name: 'SK Kotlářka Praha', region: 0 },
  { name: 'SK Žabovřesky Brno', region: 1 },
  { name: 'TJ Tesla Brno', region: 1 },
  { name: 'OK Jiskra Nový Bor', region: 2 },
  { name: 'OK Lokomotiva Plzeň', region: 3 },
  { name: 'SK Olomouc', region: 4 },
  { name: 'OK 99 Hradec Králové', region: 5 },
  { name: 'OK Lokomotiva Pardubice', region: 5 },
  { name: 'TJ Baník Ostrava', region: 6 },
  { name: 'TJ Lokomotiva České Budějovice', region: 7 },
  { name: 'TJ Turnov', region: 8 },
  { name: 'OK Karlovy Vary', region: 9 },
];

const CZE_TEMPLATES: NameTemplate[] = [
  { text: 'Český pohár, klasická trať', kind: 'single', disciplines: ['Long'], classification: 'National', weight: 2 },
  { text: 'Český pohár, krátká trať', kind: 'single', disciplines: ['Middle'], classification: 'National', weight: 2 },
  {
    text: 'Žebříček B-Čechy, {n}. kolo',
    kind: 'single',
    disciplines: ['Middle', 'Long'],
    classification: 'National',
    weight: 3,
  },
  {
    text: 'Oblastní žebříček, {district}',
    kind: 'single',
    disciplines: ['Middle', 'Long', 'Sprint'],
    classification: 'Regional',
    weight: 4,
  },
  { text: 'Pohár {place}', kind: 'single', disciplines: ['Sprint', 'Middle'], classification: 'Local', weight: 2 },
  { text: 'Noční OB {place}', kind: 'single', disciplines: ['Night'], classification: 'Regional', weight: 2 },
  {
    text: 'Oblastní štafety, {district}',
    kind: 'single',
    disciplines: ['Relay'],
    classification: 'Regional',
    weight: 1,
  },
  {
    text: '{place} Open',
    kind: 'multi',
    disciplines: ['Middle', 'Long'],
    classification: 'National',
    weight: 1,
    days: [2, 2],
  },
];

const CZE_CLASSICS: Classic[] = [
  {
    name: 'Pražské Jaro',
    kind: 'multi',
    disciplines: ['Middle', 'Long'],
    classification: 'National',
    months: [4],
    place: 'Praha',
    days: 2,
    size: 1200,
  },
  {
    name: 'Bohemia Orienteering {year}',
    kind: 'multi',
    disciplines: ['Middle', 'Long', 'Middle', 'Long', 'Long'],
    classification: 'International',
    months: [7],
    place: 'Turnov',
    days: 5,
    size: 2500,
    firstWeekday: 1,
  },
  {
    name: 'Velikonoční kufr',
    kind: 'multi',
    disciplines: ['Middle', 'Long', 'Middle'],
    classification: 'National',
    months: 'easter',
    days: 3,
    size: 1000,
  },
  {
    name: 'Mistrovství ČR na klasické trati',
    kind: 'single',
    disciplines: ['Long'],
    classification: 'Championship',
    months: [9],
    size: 900,
  },
  {
    name: 'Mistrovství ČR na krátké trati',
    kind: 'single',
    disciplines: ['Middle'],
    classification: 'Championship',
    months: [6],
    size: 900,
  },
  {
    name: 'Mistrovství ČR ve sprintu',
    kind: 'single',
    disciplines: ['Sprint'],
    classification: 'Championship',
    months: [5],
    size: 700,
  },
  {
    name: 'Mistrovství ČR štafet',
    kind: 'single',
    disciplines: ['Relay'],
    classification: 'Championship',
    months: [9],
    size: 1200,
  },
];

function czechClasses(_r: Random, level: Level, discipline: Discipline): ClassSpec[] {
  // Czech classes carry a performance letter: E elite, A/B/C by ranking, N for newcomers (nábor).
  const classes: ClassSpec[] = [];
  const juniors = level === 'small' ? [10, 12, 14, 16] : [10, 12, 14, 16, 18, 20];
  if (discipline !== 'Night') classes.push({ name: 'H10N', factor: 0.15 }, { name: 'D10N', factor: 0.15 });
  for (const age of juniors) {
    const letter = age <= 12 ? 'C' : level === 'big' ? 'A' : 'B';
    classes.push(...agePair('H', 'D', age, letter));
  }
  if (level === 'big') classes.push({ name: 'H21E', factor: 1.1 }, { name: 'D21E', factor: 0.85 });
  classes.push({ name: 'H21A', factor: 1 }, { name: 'D21A', factor: 0.75 });
  if (level !== 'small') classes.push({ name: 'H21B', factor: 0.8 }, { name: 'D21B', factor: 0.6 });
  classes.push({ name: 'H21C', factor: 0.6 }, { name: 'D21C', factor: 0.5 });
  const veterans = level === 'big' ? VETERAN_AGES.slice(0, 10) : [35, 45, 55, 65];
  for (const age of veterans) classes.push(...agePair('H', 'D', age));
  if (discipline !== 'Night')
    classes.push({ name: 'HDR', factor: 0.12 }, { name: 'T3', factor: 0.3 }, { name: 'T5', factor: 0.5 });
  return classes;
}

function czechRelays(_r: Random, level: Level): RelayClassSpec[] {
  const out = [
    relay('H21', 'H21', 3, 1),
    relay('D21', 'D21', 3, 0.75),
    relay('H18', 'H18', 3, 0.8),
    relay('D18', 'D18', 3, 0.62),
  ];
  if (level !== 'small')
    out.push(relay('H105', 'H105', 3, 0.7), relay('D105', 'D105', 3, 0.5), relay('HD165', 'HD165', 3, 0.45));
  return out;
}

export const CZECHIA: CountryProfile = {
  code: 'CZE',
  language: 'cs',
  utcOffsetHours: 1,
  weight: 11,
  monthWeights: ALPINE_MONTHS,
  climbPerKm: [20, 40],
  regions: CZE_REGIONS,
  clubs: CZE_CLUBS,
  templates: CZE_TEMPLATES,
  classics: CZE_CLASSICS,
  stageLabel,
  courseNames: lettersOrNumbers,
  individualClasses: czechClasses,
  relayClasses: czechRelays,
  federationId: { key: 'orisId', min: 6_500, max: 9_500 },
  tld: 'cz',
};
