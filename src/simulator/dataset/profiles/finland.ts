/**
 * Finland: kansalliset, iltarastit and rastipäivät events, Jukola and Venla with their own relay classes, the
 * SM championships; H/D age classes. Finnish inflects names, so regions and clubs carry their genitives.
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

const FIN_REGIONS: Region[] = [
  { place: 'Espoo', placeGen: 'Espoon', district: 'Uusimaa', lat: 60.21, lng: 24.66, weight: 6 },
  { place: 'Tampere', placeGen: 'Tampereen', district: 'Pirkanmaa', lat: 61.5, lng: 23.79, weight: 4 },
  { place: 'Turku', placeGen: 'Turun', district: 'Varsinais-Suomi', lat: 60.45, lng: 22.27, weight: 3 },
  { place: 'Jyväskylä', placeGen: 'Jyväskylän', district: 'Keski-Suomi', lat: 62.24, lng: 25.75, weight: 3 },
  { place: 'Kuopio', placeGen: 'Kuopion', district: 'Savo', lat: 62.89, lng: 27.68, weight: 2 },
  { place: 'Lahti', placeGen: 'Lahden', district: 'Päijät-Häme', lat: 60.98, lng: 25.66, weight: 2 },
  { place: 'Oulu', placeGen: 'Oulun', district: 'Pohjois-Pohjanmaa', lat: 65.01, lng: 25.47, weight: 2 },
  { place: 'Hämeenlinna', placeGen: 'Hämeenlinnan', district: 'Häme', lat: 61.0, lng: 24.46, weight: 2 },
  { place: 'Joensuu', placeGen: 'Joensuun', district: 'Pohjois-Karjala', lat: 62.6, lng: 29.76, weight: 2 },
  { place: 'Vaasa', placeGen: 'Vaasan', district: 'Pohjanmaa', lat: 63.1, lng: 21.62, weight: 1 },
  { place: 'Kajaani', placeGen: 'Kajaanin', district: 'Kainuu', lat: 64.22, lng: 27.73, weight: 1 },
];

const FIN_CLUBS: Club[] = [
  { name: 'Helsingin Suunnistajat', gen: 'Helsingin Suunnistajien', short: 'HS', region: 0 },
  { name: 'Espoon Suunta', gen: 'Espoon Suunnan', short: 'ESuu', region: 0 },
  { name: 'Rasti-Vantaa', gen: 'Rasti-Vantaan', short: 'RaVa', region: 0 },
  { name: 'Tampereen Pyrintö', gen: 'Tampereen Pyrinnön', short: 'TP', region: 1 },
  { name: 'Koovee', gen: 'Kooveen', region: 1 },
  { name: 'Kangasalan SK', gen: 'Kangasalan SK:n', short: 'KangSK', region: 1 },
  { name: 'Turun Suunnistajat', gen: 'Turun Suunnistajien', region: 2 },
  { name: 'Paimion Rasti', gen: 'Paimion Rastin', short: 'PR', region: 2 },
  { name: 'Jyväskylän Suunta', gen: 'Jyväskylän Suunnan', short: 'JS', region: 3 },
  { name: 'Vaajakosken Terä', gen: 'Vaajakosken Terän', short: 'VT', region: 3 },
  { name: 'Kuopion Suunnistajat', gen: 'Kuopion Suunnistajien', region: 4 },
  { name: 'Lahden Suunnistajat-37', gen: 'Lahden Suunnistajien', short: 'LS-37', region: 5 },
  { name: 'Hollolan Urheilijat-46', gen: 'Hollolan Urheilijoiden', short: 'HU-46', region: 5 },
  { name: 'Oulun Suunta', gen: 'Oulun Suunnan', region: 6 },
  { name: 'Hämeenlinnan Tarmo', gen: 'Hämeenlinnan Tarmon', region: 7 },
  { name: 'Kalevan Rasti', gen: 'Kalevan Rastin', short: 'KR', region: 8 },
  { name: 'IF Femman', gen: 'IF Femmanin', region: 9 },
  { name: 'Kajaanin Suunnistajat', gen: 'Kajaanin Suunnistajien', region: 10 },
];

const FIN_TEMPLATES: NameTemplate[] = [
  {
    text: '{clubGen} kansalliset',
    kind: 'single',
    disciplines: ['Long', 'Middle'],
    classification: 'National',
    weight: 4,
  },
  { text: '{clubGen} aluecup', kind: 'single', disciplines: ['Middle', 'Long'], classification: 'Regional', weight: 3 },
  {
    text: '{placeGen} iltarastit',
    kind: 'single',
    disciplines: ['Middle', 'Sprint'],
    classification: 'Local',
    weight: 2,
    months: [5, 6, 7, 8],
  },
  {
    text: 'Kalevan Rasti -sprintti',
    kind: 'single',
    disciplines: ['Sprint'],
    classification: 'Regional',
    weight: 1,
    place: 'Joensuu',
  },
  {
    text: 'Piirinmestaruus keskimatka, {district}',
    kind: 'single',
    disciplines: ['Middle'],
    classification: 'Championship',
    weight: 1,
    months: [5, 8],
  },
  { text: '{clubGen} yösuunnistus', kind: 'single', disciplines: ['Night'], classification: 'Regional', weight: 2 },
  { text: '{clubGen} viesti', kind: 'single', disciplines: ['Relay'], classification: 'Regional', weight: 1 },
  {
    text: '{placeGen} rastipäivät',
    kind: 'multi',
    disciplines: ['Middle', 'Long'],
    classification: 'National',
    weight: 2,
    days: [2, 3],
  },
];

const FIN_CLASSICS: Classic[] = [
  {
    name: 'Jukola {year}',
    kind: 'single',
    disciplines: ['Relay'],
    classification: 'International',
    months: [6],
    size: 3000,
    startHour: 14,
    durationH: 21,
    relayClasses: [relay('Jukola', 'Jukola', 7, 1), relay('Venla', 'Venla', 4, 0.75)],
  },
  {
    name: 'Nuorten Jukola',
    kind: 'single',
    disciplines: ['Relay'],
    classification: 'National',
    months: [8],
    size: 1500,
    relayClasses: [
      relay('H16', 'H16', 3, 0.6),
      relay('D16', 'D16', 3, 0.5),
      relay('H20', 'H20', 3, 0.9),
      relay('D20', 'D20', 3, 0.7),
    ],
  },
  {
    name: 'Fin5',
    kind: 'multi',
    disciplines: ['Middle', 'Long', 'Middle', 'Sprint', 'Long'],
    classification: 'International',
    months: [7],
    days: 5,
    size: 2500,
    firstWeekday: 0,
  },
  {
    name: 'Kainuun Rastiviikko',
    kind: 'multi',
    disciplines: ['Long', 'Middle', 'Long', 'Middle', 'Long'],
    classification: 'International',
    months: [7],
    place: 'Kajaani',
    days: 5,
    size: 2000,
    firstWeekday: 0,
  },
  {
    name: 'SM-keskimatka',
    kind: 'single',
    disciplines: ['Middle'],
    classification: 'Championship',
    months: [8],
    size: 800,
  },
  {
    name: 'SM-pitkä matka',
    kind: 'single',
    disciplines: ['Long'],
    classification: 'Championship',
    months: [9],
    size: 800,
  },
  {
    name: 'SM-sprintti',
    kind: 'single',
    disciplines: ['Sprint'],
    classification: 'Championship',
    months: [5],
    size: 600,
  },
  {
    name: 'SM-viesti',
    kind: 'single',
    disciplines: ['Relay'],
    classification: 'Championship',
    months: [9],
    size: 1200,
  },
  {
    name: 'SM-yösuunnistus',
    kind: 'single',
    disciplines: ['Night'],
    classification: 'Championship',
    months: [4, 9],
    size: 500,
  },
];

function finnishClasses(_r: Random, level: Level, discipline: Discipline): ClassSpec[] {
  const classes = ageClasses('H', 'D', agesFor(level, discipline));
  if (level !== 'small' && discipline !== 'Night') {
    classes.push({ name: 'H21A', factor: 0.85 }, { name: 'D21A', factor: 0.65 });
    if (level === 'big') classes.push({ name: 'H21B', factor: 0.6 }, { name: 'D21B', factor: 0.5 });
  }
  if (discipline !== 'Night')
    classes.push({ name: 'RR', factor: 0.12 }, { name: 'H12TR', factor: 0.22 }, { name: 'D12TR', factor: 0.22 });
  return classes;
}

function finnishRelays(_r: Random, level: Level): RelayClassSpec[] {
  const out = [
    relay('H21 viesti', 'H21', 3, 1),
    relay('D21 viesti', 'D21', 3, 0.75),
    relay('H16 viesti', 'H16', 3, 0.55),
  ];
  if (level !== 'small') out.push(relay('D16 viesti', 'D16', 3, 0.45));
  return out;
}

export const FINLAND: CountryProfile = {
  code: 'FIN',
  language: 'fi',
  utcOffsetHours: 2,
  weight: 13,
  monthWeights: NORDIC_MONTHS,
  climbPerKm: [10, 25],
  regions: FIN_REGIONS,
  clubs: FIN_CLUBS,
  templates: FIN_TEMPLATES,
  classics: FIN_CLASSICS,
  stageLabel,
  courseNames: lettersOrNumbers,
  individualClasses: finnishClasses,
  relayClasses: finnishRelays,
  federationId: { key: 'irmaId', min: 20_000, max: 30_000 },
  tld: 'fi',
};
