/**
 * Norway: steep terrain (high climb), kretsløp, KM and Norgescup events, O-festivalen and the NM championships;
 * H/D age classes without a 20 class, open classes either lettered (`N-åpen`, `A-lang`) or numbered.
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

const NOR_REGIONS: Region[] = [
  { place: 'Oslo', district: 'Oslo', lat: 59.98, lng: 10.7, weight: 8 },
  { place: 'Halden', district: 'Østfold', lat: 59.12, lng: 11.39, weight: 3 },
  { place: 'Bergen', district: 'Hordaland', lat: 60.39, lng: 5.32, weight: 3 },
  { place: 'Trondheim', district: 'Trøndelag', lat: 63.43, lng: 10.39, weight: 4 },
  { place: 'Kristiansand', district: 'Agder', lat: 58.15, lng: 7.99, weight: 2 },
  { place: 'Stavanger', district: 'Rogaland', lat: 58.97, lng: 5.73, weight: 2 },
  { place: 'Lillehammer', district: 'Oppland', lat: 61.11, lng: 10.47, weight: 2 },
  { place: 'Drammen', district: 'Buskerud', lat: 59.74, lng: 10.2, weight: 3 },
  { place: 'Fredrikstad', district: 'Østfold', lat: 59.22, lng: 10.93, weight: 2 },
  { place: 'Tromsø', district: 'Troms', lat: 69.65, lng: 18.96, weight: 1 },
  { place: 'Hamar', district: 'Hedmark', lat: 60.79, lng: 11.07, weight: 2 },
];

const NOR_CLUBS: Club[] = [
  { name: 'Lillomarka OL', region: 0 },
  { name: 'Fossum IF', region: 0 },
  { name: 'Nydalens SK', region: 0 },
  { name: 'Bækkelagets SK', region: 0 },
  { name: 'Heming IL', region: 0 },
  { name: 'Halden SK', region: 1 },
  { name: 'Idd SK', region: 1 },
  { name: 'Fana IL', region: 2 },
  { name: 'IL Gneist', region: 2 },
  { name: 'NTNUI', region: 3 },
  { name: 'Freidig', region: 3 },
  { name: 'Byåsen IL', region: 3 },
  { name: 'Wing OK', region: 3 },
  { name: 'Kristiansand OK', region: 4 },
  { name: 'Stavanger OK', region: 5 },
  { name: 'IL Brodd', region: 5 },
  { name: 'Lillehammer OK', region: 6 },
  { name: 'Gjøvik OK', region: 6 },
  { name: 'Konnerud IL', region: 7 },
  { name: 'Asker SK', region: 7 },
  { name: 'Fredrikstad SK', region: 8 },
  { name: 'OK Moss', region: 8 },
  { name: 'Tromsø OK', region: 9 },
  { name: 'Hamar OK', region: 10 },
  { name: 'Løten O-lag', region: 10 },
];

const NOR_TEMPLATES: NameTemplate[] = [
  {
    text: '{club} vårløp',
    kind: 'single',
    disciplines: ['Long', 'Middle'],
    classification: 'Regional',
    weight: 4,
    months: [4, 5],
  },
  {
    text: '{club} høstløp',
    kind: 'single',
    disciplines: ['Middle', 'Long'],
    classification: 'Regional',
    weight: 3,
    months: [9, 10],
  },
  {
    text: 'Kretsløp {club}',
    kind: 'single',
    disciplines: ['Middle', 'Long', 'Sprint'],
    classification: 'Local',
    weight: 3,
  },
  {
    text: 'Norgescup {n}',
    kind: 'single',
    disciplines: ['Middle', 'Long', 'Sprint'],
    classification: 'National',
    weight: 2,
    months: [5, 6, 8, 9],
  },
  {
    text: 'KM mellomdistanse, {district}',
    kind: 'single',
    disciplines: ['Middle'],
    classification: 'Championship',
    weight: 1,
    months: [5, 8, 9],
  },
  {
    text: 'KM sprint, {district}',
    kind: 'single',
    disciplines: ['Sprint'],
    classification: 'Championship',
    weight: 1,
    months: [5, 6, 8],
  },
  { text: 'Nattløp {club}', kind: 'single', disciplines: ['Night'], classification: 'Local', weight: 2 },
  { text: 'KM natt, {district}', kind: 'single', disciplines: ['Night'], classification: 'Championship', weight: 1 },
  {
    text: 'KM stafett, {district}',
    kind: 'single',
    disciplines: ['Relay'],
    classification: 'Championship',
    weight: 1,
    months: [6, 9],
  },
  { text: '{club} stafetten', kind: 'single', disciplines: ['Relay'], classification: 'Regional', weight: 1 },
  {
    text: '{place} {days}-dagers',
    kind: 'multi',
    disciplines: ['Middle', 'Long', 'Sprint'],
    classification: 'National',
    weight: 2,
    days: [2, 3],
  },
];

const NOR_CLASSICS: Classic[] = [
  {
    name: 'Nordmarkstreffen',
    kind: 'multi',
    disciplines: ['Middle', 'Long'],
    classification: 'National',
    months: [9],
    place: 'Oslo',
    days: 2,
    size: 1200,
  },
  {
    name: 'O-festivalen {year}',
    kind: 'multi',
    disciplines: ['Sprint', 'Middle', 'Long', 'Long'],
    classification: 'International',
    months: [7],
    days: 4,
    size: 2500,
    firstWeekday: 4,
  },
  {
    name: 'Sørlandsgaloppen',
    kind: 'multi',
    disciplines: ['Sprint', 'Middle', 'Long'],
    classification: 'National',
    months: [7],
    place: 'Kristiansand',
    days: 3,
    size: 1500,
    firstWeekday: 5,
  },
  {
    name: 'NM langdistanse',
    kind: 'single',
    disciplines: ['Long'],
    classification: 'Championship',
    months: [9],
    size: 800,
  },
  {
    name: 'NM mellomdistanse',
    kind: 'single',
    disciplines: ['Middle'],
    classification: 'Championship',
    months: [9],
    size: 800,
  },
  {
    name: 'NM sprint',
    kind: 'single',
    disciplines: ['Sprint'],
    classification: 'Championship',
    months: [6],
    size: 600,
  },
  {
    name: 'NM stafett',
    kind: 'single',
    disciplines: ['Relay'],
    classification: 'Championship',
    months: [9],
    size: 1500,
  },
  {
    name: 'NM natt',
    kind: 'single',
    disciplines: ['Night'],
    classification: 'Championship',
    months: [4, 10],
    size: 500,
  },
  {
    name: 'Hovedløpet',
    kind: 'single',
    disciplines: ['Middle'],
    classification: 'Championship',
    months: [9],
    size: 700,
  },
];

function norwegianClasses(r: Random, level: Level, discipline: Discipline): ClassSpec[] {
  const ages = agesFor(level, discipline).filter((a) => a !== 20);
  const classes = ageClasses('H', 'D', ages);
  if (level === 'big' && discipline !== 'Night')
    classes.push({ name: 'H21E', factor: 1.1 }, { name: 'D21E', factor: 0.85 });
  if (r.chance(0.5)) {
    for (const [name, factor] of [
      ['N-åpen', 0.15],
      ['C-åpen', 0.3],
      ['B-åpen', 0.45],
      ['A-kort', 0.55],
      ['A-lang', 0.75],
    ] as const) {
      if (level !== 'small' || factor < 0.5) classes.push({ name, factor });
    }
  } else {
    for (const n of level === 'small' ? [1, 3] : [1, 2, 3, 4, 5])
      classes.push({ name: `Åpen ${n}`, factor: 0.12 + n * 0.1 });
  }
  return classes;
}

function norwegianRelays(_r: Random, level: Level): RelayClassSpec[] {
  const out = [
    relay('H17 stafett', 'H17', 3, 1),
    relay('D17 stafett', 'D17', 3, 0.75),
    relay('H13-16 stafett', 'H13-16', 3, 0.5),
  ];
  if (level !== 'small') out.push(relay('D13-16 stafett', 'D13-16', 3, 0.45), relay('Åpen stafett', 'Åpen', 3, 0.35));
  return out;
}

export const NORWAY: CountryProfile = {
  code: 'NOR',
  language: 'no',
  utcOffsetHours: 1,
  weight: 15,
  monthWeights: NORDIC_MONTHS,
  climbPerKm: [25, 50],
  regions: NOR_REGIONS,
  clubs: NOR_CLUBS,
  templates: NOR_TEMPLATES,
  classics: NOR_CLASSICS,
  stageLabel,
  courseNames: lettersOrNumbers,
  individualClasses: norwegianClasses,
  relayClasses: norwegianRelays,
  federationId: { key: 'eventorId', min: 15_000, max: 21_000 },
  tld: 'no',
};
