/**
 * Sweden: regions from Lund to Umeå, club and district (DM) events, O-Ringen, Tiomila, Smålandskavlen and the SM
 * championships; H/D age classes with Elit and Kort variants and Öppen classes for newcomers.
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

const SWE_REGIONS: Region[] = [
  { place: 'Stockholm', district: 'Stockholm', lat: 59.33, lng: 18.06, weight: 10 },
  { place: 'Uppsala', district: 'Uppland', lat: 59.86, lng: 17.64, weight: 4 },
  { place: 'Göteborg', district: 'Göteborg', lat: 57.71, lng: 11.97, weight: 8 },
  { place: 'Lund', district: 'Skåne', lat: 55.7, lng: 13.19, weight: 5 },
  { place: 'Växjö', district: 'Småland', lat: 56.88, lng: 14.81, weight: 4 },
  { place: 'Jönköping', district: 'Småland', lat: 57.78, lng: 14.16, weight: 3 },
  { place: 'Linköping', district: 'Östergötland', lat: 58.41, lng: 15.62, weight: 3 },
  { place: 'Örebro', district: 'Örebro län', lat: 59.27, lng: 15.21, weight: 3 },
  { place: 'Västerås', district: 'Västmanland', lat: 59.61, lng: 16.55, weight: 2 },
  { place: 'Karlstad', district: 'Värmland', lat: 59.38, lng: 13.5, weight: 2 },
  { place: 'Falun', district: 'Dalarna', lat: 60.61, lng: 15.63, weight: 3 },
  { place: 'Gävle', district: 'Gästrikland', lat: 60.67, lng: 17.14, weight: 2 },
  { place: 'Sundsvall', district: 'Medelpad', lat: 62.39, lng: 17.31, weight: 1 },
  { place: 'Umeå', district: 'Västerbotten', lat: 63.83, lng: 20.26, weight: 1 },
  { place: 'Borås', district: 'Västergötland', lat: 57.72, lng: 12.94, weight: 2 },
  { place: 'Halmstad', district: 'Halland', lat: 56.67, lng: 12.86, weight: 2 },
  { place: 'Kalmar', district: 'Småland', lat: 56.66, lng: 16.36, weight: 1 },
  { place: 'Eskilstuna', district: 'Södermanland', lat: 59.37, lng: 16.51, weight: 2 },
];

const SWE_CLUBS: Club[] = [
  { name: 'IFK Lidingö SOK', region: 0 },
  { name: 'Järfälla OK', region: 0 },
  { name: 'Täby OK', region: 0 },
  { name: 'Tullinge SK', region: 0 },
  { name: 'Haninge SOK', region: 0 },
  { name: 'Snättringe SK', region: 0 },
  { name: 'Järla Orientering', region: 0 },
  { name: 'Bromma-Vällingby SOK', region: 0 },
  { name: 'OK Linné', region: 1 },
  { name: 'Upsala IF', region: 1 },
  { name: 'IFK Göteborg', region: 2 },
  { name: 'Göteborg-Majorna OK', region: 2 },
  { name: 'Lerums SOK', region: 2 },
  { name: 'Sävedalens AIK', region: 2 },
  { name: 'Lunds OK', region: 3 },
  { name: 'Malmö OK', region: 3 },
  { name: 'OK Pan-Kristianstad', region: 3 },
  { name: 'Växjö OK', region: 4 },
  { name: 'Ljungby OK', region: 4 },
  { name: 'IKHP Huskvarna', region: 5 },
  { name: 'Jönköpings OK', region: 5 },
  { name: 'Linköpings OK', region: 6 },
  { name: 'OK Roxen', region: 6 },
  { name: 'Almby IK', region: 7 },
  { name: 'OK Tisaren', region: 7 },
  { name: 'Västerås SOK', region: 8 },
  { name: 'OK Tyr', region: 9 },
  { name: 'Kils OK', region: 9 },
  { name: 'Domnarvets GoIF', region: 10 },
  { name: 'Stora Tuna OK', region: 10 },
  { name: 'OK Rodhen', region: 11 },
  { name: 'Sundsvalls OK', region: 12 },
  { name: 'IFK Umeå', region: 13 },
  { name: 'Borås OK', region: 14 },
  { name: 'IK Ymer', region: 14 },
  { name: 'Halmstad OK', region: 15 },
  { name: 'Kalmar OK', region: 16 },
  { name: 'Eskilstuna OK', region: 17 },
];

const SWE_TEMPLATES: NameTemplate[] = [
  {
    text: '{clubGen} vårtävling',
    kind: 'single',
    disciplines: ['Long', 'Middle'],
    classification: 'Regional',
    weight: 5,
    months: [3, 4, 5],
  },
  {
    text: '{clubGen} höstmedel',
    kind: 'single',
    disciplines: ['Middle'],
    classification: 'Regional',
    weight: 4,
    months: [9, 10, 11],
  },
  {
    text: '{clubGen} nationella',
    kind: 'single',
    disciplines: ['Long', 'Middle'],
    classification: 'National',
    weight: 3,
  },
  { text: '{club} Sprint', kind: 'single', disciplines: ['Sprint'], classification: 'Regional', weight: 2 },
  {
    text: 'DM Medel, {district}',
    kind: 'single',
    disciplines: ['Middle'],
    classification: 'Championship',
    weight: 1,
    months: [5, 8, 9],
  },
  {
    text: 'DM Lång, {district}',
    kind: 'single',
    disciplines: ['Long'],
    classification: 'Championship',
    weight: 1,
    months: [5, 9, 10],
  },
  {
    text: 'DM Sprint, {district}',
    kind: 'single',
    disciplines: ['Sprint'],
    classification: 'Championship',
    weight: 1,
    months: [5, 6, 8],
  },
  {
    text: 'Stockholm City Cup, deltävling {n}',
    kind: 'single',
    disciplines: ['Sprint'],
    classification: 'Local',
    weight: 2,
    place: 'Stockholm',
    months: [4, 5, 6, 8, 9],
  },
  { text: '{clubGen} närtävling', kind: 'single', disciplines: ['Middle', 'Long'], classification: 'Local', weight: 2 },
  {
    text: '{clubGen} klubbmästerskap',
    kind: 'single',
    disciplines: ['Middle', 'Long'],
    classification: 'Club',
    weight: 1,
  },
  { text: '{clubGen} nattävling', kind: 'single', disciplines: ['Night'], classification: 'Regional', weight: 2 },
  { text: 'Nattcupen, deltävling {n}', kind: 'single', disciplines: ['Night'], classification: 'Local', weight: 1 },
  { text: 'Natt-DM, {district}', kind: 'single', disciplines: ['Night'], classification: 'Championship', weight: 1 },
  { text: '{clubGen} stafett', kind: 'single', disciplines: ['Relay'], classification: 'Regional', weight: 2 },
  {
    text: 'DM Stafett, {district}',
    kind: 'single',
    disciplines: ['Relay'],
    classification: 'Championship',
    weight: 1,
    months: [5, 9, 10],
  },
  {
    text: '{placeGen} {days}-dagars',
    kind: 'multi',
    disciplines: ['Long', 'Middle'],
    classification: 'National',
    weight: 3,
    days: [2, 3],
  },
  {
    text: 'O-helgen {place}',
    kind: 'multi',
    disciplines: ['Middle', 'Long', 'Sprint'],
    classification: 'National',
    weight: 1,
    days: [2, 3],
  },
];

const SWE_CLASSICS: Classic[] = [
  {
    name: 'O-Ringen {place}',
    kind: 'multi',
    disciplines: ['Long', 'Middle', 'Long', 'Middle', 'Long'],
    classification: 'International',
    months: [7],
    days: 5,
    size: 3000,
    firstWeekday: 0,
  },
  {
    name: 'Tiomila',
    kind: 'single',
    disciplines: ['Relay'],
    classification: 'International',
    months: [5],
    size: 3000,
    startHour: 12,
    durationH: 22,
    relayClasses: [relay('Tiomila', 'H10M', 10, 1), relay('Damkavlen', 'D5M', 5, 0.75)],
  },
  {
    name: 'Smålandskavlen',
    kind: 'single',
    disciplines: ['Relay'],
    classification: 'National',
    months: [4],
    place: 'Växjö',
    size: 2000,
    startHour: 18,
    durationH: 20,
    relayClasses: [relay('H21', 'H21', 5, 1), relay('D21', 'D21', 3, 0.75), relay('H16', 'H16', 3, 0.6)],
  },
  {
    name: 'Göteborgs 2-dagars',
    kind: 'multi',
    disciplines: ['Middle', 'Long'],
    classification: 'National',
    months: [8],
    place: 'Göteborg',
    days: 2,
    size: 1500,
  },
  {
    name: 'Skåneslaget',
    kind: 'multi',
    disciplines: ['Middle', 'Long'],
    classification: 'National',
    months: [3],
    place: 'Lund',
    days: 2,
    size: 1200,
  },
  {
    name: 'SM Medeldistans',
    kind: 'single',
    disciplines: ['Middle'],
    classification: 'Championship',
    months: [9],
    size: 900,
  },
  {
    name: 'SM Långdistans',
    kind: 'single',
    disciplines: ['Long'],
    classification: 'Championship',
    months: [9],
    size: 900,
  },
  {
    name: 'SM Sprint',
    kind: 'single',
    disciplines: ['Sprint'],
    classification: 'Championship',
    months: [6],
    size: 700,
  },
  {
    name: 'SM Stafett',
    kind: 'single',
    disciplines: ['Relay'],
    classification: 'Championship',
    months: [9],
    size: 1500,
  },
];

function swedishClasses(r: Random, level: Level, discipline: Discipline): ClassSpec[] {
  const classes = ageClasses('H', 'D', agesFor(level, discipline));
  if (level === 'big' && discipline !== 'Night') {
    const elite = r.chance(0.5) ? ' Elit' : 'E';
    classes.push({ name: `H21${elite}`, factor: 1.1 }, { name: `D21${elite}`, factor: 0.85 });
    classes.push({ name: 'H21 Kort', factor: 0.5 }, { name: 'D21 Kort', factor: 0.42 });
  }
  if (level !== 'small' && discipline !== 'Night')
    classes.push({ name: 'H10 Kort', factor: 0.15 }, { name: 'D10 Kort', factor: 0.15 });
  const open = level === 'small' ? [1, 3, 5] : level === 'medium' ? [1, 3, 5, 7, 9] : [1, 2, 3, 5, 7, 8, 9];
  for (const n of open) classes.push({ name: `Öppen ${n}`, factor: 0.15 + n * 0.07 });
  if (discipline !== 'Night') classes.push({ name: 'Inskolning', factor: 0.12 });
  if (level !== 'small' && discipline !== 'Night')
    classes.push({ name: 'U1', factor: 0.18 }, { name: 'U2', factor: 0.25 });
  return classes;
}

function swedishRelays(r: Random, level: Level): RelayClassSpec[] {
  const out = [
    relay('H21 Stafett', 'H21', 3, 1),
    relay('D21 Stafett', 'D21', 3, 0.75),
    relay('H16 Stafett', 'H16', 3, 0.6),
    relay('D16 Stafett', 'D16', 3, 0.5),
  ];
  if (level !== 'small') out.push(relay('H120', 'H120', 3, 0.7), relay('D120', 'D120', 3, 0.55));
  if (r.chance(0.5)) out.push(relay('Öppen stafett', 'Öppen', 3, 0.35));
  return out;
}

export const SWEDEN: CountryProfile = {
  code: 'SWE',
  language: 'sv',
  utcOffsetHours: 1,
  weight: 28,
  monthWeights: NORDIC_MONTHS,
  climbPerKm: [12, 30],
  regions: SWE_REGIONS,
  clubs: SWE_CLUBS,
  templates: SWE_TEMPLATES,
  classics: SWE_CLASSICS,
  stageLabel,
  courseNames: lettersOrNumbers,
  individualClasses: swedishClasses,
  relayClasses: swedishRelays,
  federationId: { key: 'eventorId', min: 38_000, max: 52_000 },
  tld: 'se',
};
