/**
 * What makes generated events look like the real ones of each country: orienteering regions, clubs, event-name
 * patterns, recurring classics and each federation's class-naming convention. Only data and tiny helpers live here;
 * `dataset.ts` does the drawing.
 *
 * Names are plausible, not a registry: clubs and classics are real-sounding (many are real) so that searching for
 * "Linné" or "Jukola" in the simulator feels like searching the service.
 */
import type { Random } from './random.js';

export type Discipline = 'Long' | 'Middle' | 'Sprint' | 'Night' | 'Relay';
export type Classification = 'International' | 'Championship' | 'National' | 'Regional' | 'Local' | 'Club';
/** Language of names and stage labels. Switzerland has regions in three of them. */
export type Language = 'sv' | 'no' | 'da' | 'fi' | 'de' | 'fr' | 'it' | 'en' | 'cs' | 'et';

export interface Region {
  /** The town or area events are named after. */
  place: string;
  /** Genitive of `place` where the language inflects it (`Tampereen`); the default adds an -s. */
  placeGen?: string;
  /** District or federation area (`Småland`, `Trøndelag`), used in championship names. */
  district: string;
  lat: number;
  lng: number;
  /** Relative number of events held around here. */
  weight: number;
  /** Overrides the country's language (Swiss Romandie, Ticino). */
  language?: Language;
}

export interface Club {
  name: string;
  /** Abbreviation used in names (`SYO Urban Series`). */
  short?: string;
  /** Genitive where the language inflects it (`Kalevan Rastin`). */
  gen?: string;
  /** Index into the country's regions. */
  region: number;
}

export type EventKind = 'single' | 'multi';

/** A name pattern. Placeholders: {club} {clubGen} {short} {place} {placeGen} {district} {n} {days} {year}. */
export interface NameTemplate {
  text: string;
  kind: EventKind;
  /** Disciplines of the event (for multi-day events: of its stages). */
  disciplines: readonly Discipline[];
  classification: Classification;
  weight: number;
  /** Months (1-12) the event is held in; the country's month weights otherwise. */
  months?: readonly number[];
  /** Only in regions of this language. */
  language?: Language;
  /** Only in this place (`Stockholm City Cup`). */
  place?: string;
  /** Range of the number of days of a multi-day event. */
  days?: readonly [number, number];
}

/** A recurring event with a fixed name, held at most once a year. */
export interface Classic {
  name: string;
  kind: EventKind;
  disciplines: readonly Discipline[];
  classification: Classification;
  /** Months it is held in, or Easter (the long weekend from Good Friday). */
  months: readonly number[] | 'easter';
  /** Fixed place; otherwise it moves around the country like O-Ringen. */
  place?: string;
  days?: number;
  /** Held in even (0) or odd (1) years only. */
  yearParity?: 0 | 1;
  /** Local start hour and duration when they differ from the ordinary (relays running through the night). */
  startHour?: number;
  durationH?: number;
  /** Relay classes of the classic (Jukola and Venla). */
  relayClasses?: readonly RelayClassSpec[];
  /** Label of stage n when not the country's (international events use English). */
  stageLabel?: (n: number) => string;
  /** Participants at full size. */
  size: number;
  /** Weekday the first day falls on (0 = Sunday ... 6 = Saturday). Default Saturday. */
  firstWeekday?: number;
}

/** A class with its place among the event's courses: `factor` is its course length relative to the longest. */
export interface ClassSpec {
  name: string;
  shortName?: string;
  factor: number;
  /** The class has a course of its own, named like the class (British colour courses). */
  ownCourse?: boolean;
}

export interface RelayClassSpec extends ClassSpec {
  legs: number;
}

export type Level = 'big' | 'medium' | 'small';

export interface CountryProfile {
  code: string;
  language: Language;
  /** Hours east of UTC in winter; all these countries follow the EU summer-time rule. */
  utcOffsetHours: number;
  /** Share of the generated events. */
  weight: number;
  /** Relative number of events per month, January first. */
  monthWeights: readonly number[];
  /** Climb in metres per kilometre of course in forest, low and high. */
  climbPerKm: readonly [number, number];
  regions: readonly Region[];
  clubs: readonly Club[];
  templates: readonly NameTemplate[];
  classics: readonly Classic[];
  /** `Name, etapp 2`. */
  stageLabel: (n: number, language: Language) => string;
  /** Course naming of individual events. */
  courseNames: (r: Random, count: number) => string[];
  individualClasses: (r: Random, level: Level, discipline: Discipline, language: Language) => ClassSpec[];
  relayClasses: (r: Random, level: Level, language: Language) => RelayClassSpec[];
  /** Property naming the event in the federation's own system (`eventorId`), with its id range. */
  federationId?: { key: string; min: number; max: number };
  /** Top-level domain of club homepages. */
  tld: string;
}

// ---------------------------------------------------------------------------------------------------------------------
// Helpers shared by the class conventions.

/** Relative course length by age class. Juniors and veterans run shorter than 21. */
const MEN: Record<number, number> = {
  10: 0.2,
  12: 0.3,
  14: 0.42,
  16: 0.6,
  18: 0.8,
  20: 0.92,
  21: 1,
  35: 0.82,
  40: 0.78,
  45: 0.72,
  50: 0.66,
  55: 0.58,
  60: 0.52,
  65: 0.46,
  70: 0.4,
  75: 0.34,
  80: 0.3,
  85: 0.26,
};
const WOMEN: Record<number, number> = {
  10: 0.2,
  12: 0.3,
  14: 0.4,
  16: 0.52,
  18: 0.62,
  20: 0.7,
  21: 0.75,
  35: 0.6,
  40: 0.56,
  45: 0.52,
  50: 0.48,
  55: 0.44,
  60: 0.4,
  65: 0.36,
  70: 0.32,
  75: 0.28,
  80: 0.26,
  85: 0.24,
};

const JUNIOR_AGES = [10, 12, 14, 16, 18, 20] as const;
const VETERAN_AGES = [35, 40, 45, 50, 55, 60, 65, 70, 75, 80, 85] as const;

function factorOf(table: Record<number, number>, age: number): number {
  return table[age] ?? 0.5;
}

/** Age classes `H21`, `D21` (or `M21`/`W21`, `M21`/`N21`): men first, then women, youngest first. */
function ageClasses(
  men: string,
  women: string,
  ages: readonly number[],
  suffix = '',
  factorScale = 1,
  separator = '',
): ClassSpec[] {
  const out: ClassSpec[] = [];
  for (const [prefix, table] of [
    [men, MEN],
    [women, WOMEN],
  ] as const) {
    for (const age of ages) {
      out.push({ name: `${prefix}${separator}${age}${suffix}`, factor: factorOf(table, age) * factorScale });
    }
  }
  return out;
}

/** Ages of an event's classes by its size: big events have every 5-year veteran class, small ones every 10 years. */
function agesFor(level: Level, discipline: Discipline): number[] {
  const veterans =
    level === 'big'
      ? VETERAN_AGES.slice(0, discipline === 'Sprint' ? 8 : 11)
      : level === 'medium'
        ? [35, 45, 55, 65, 75]
        : [40, 55, 70];
  const juniors = level === 'small' ? [10, 12, 14, 16] : [...JUNIOR_AGES];
  if (discipline === 'Night') return [16, 18, 21, ...veterans.filter((a) => a <= 65)];
  return [...juniors, 21, ...veterans];
}

function letters(count: number): string[] {
  return Array.from({ length: count }, (_, i) => String.fromCharCode(65 + i));
}

function numbers(count: number): string[] {
  return Array.from({ length: count }, (_, i) => String(i + 1));
}

function relay(name: string, shortName: string, legs: number, factor: number): RelayClassSpec {
  return { name, shortName, legs, factor };
}

/** Swedish genitive: `OK Linnés`, `Tullinge SK:s`, `Göteborgs`; no -s after s, x, z. */
export function swedishGenitive(name: string): string {
  if (/[sxz]$/i.test(name)) return name;
  if (/[A-ZÅÄÖÆØ]$/.test(name)) return `${name}:s`;
  return `${name}s`;
}

// ---------------------------------------------------------------------------------------------------------------------
// Sweden

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
  ];
  out.push(relay('D16 Stafett', 'D16', 3, 0.5));
  if (level !== 'small') out.push(relay('H120', 'H120', 3, 0.7), relay('D120', 'D120', 3, 0.55));
  if (r.chance(0.5)) out.push(relay('Öppen stafett', 'Öppen', 3, 0.35));
  return out;
}

// ---------------------------------------------------------------------------------------------------------------------
// Norway

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

// ---------------------------------------------------------------------------------------------------------------------
// Finland

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

// ---------------------------------------------------------------------------------------------------------------------
// Switzerland

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

// ---------------------------------------------------------------------------------------------------------------------
// Great Britain

const GBR_REGIONS: Region[] = [
  { place: 'Sheffield', district: 'Yorkshire', lat: 53.38, lng: -1.6, weight: 3 },
  { place: 'Lake District', district: 'North West', lat: 54.45, lng: -3.05, weight: 3 },
  { place: 'Aviemore', district: 'Scottish', lat: 57.19, lng: -3.83, weight: 2 },
  { place: 'Edinburgh', district: 'Scottish', lat: 55.95, lng: -3.19, weight: 2 },
  { place: 'Glasgow', district: 'Scottish', lat: 55.86, lng: -4.25, weight: 1 },
  { place: 'London', district: 'South East', lat: 51.5, lng: -0.12, weight: 3 },
  { place: 'Surrey Hills', district: 'South East', lat: 51.2, lng: -0.4, weight: 2 },
  { place: 'New Forest', district: 'South Central', lat: 50.87, lng: -1.63, weight: 2 },
  { place: 'Cannock Chase', district: 'West Midlands', lat: 52.75, lng: -2.0, weight: 2 },
  { place: 'Forest of Dean', district: 'South West', lat: 51.8, lng: -2.55, weight: 1 },
  { place: 'Brecon Beacons', district: 'Welsh', lat: 51.88, lng: -3.44, weight: 1 },
  { place: 'Bristol', district: 'South West', lat: 51.45, lng: -2.59, weight: 1 },
  { place: 'Leeds', district: 'Yorkshire', lat: 53.8, lng: -1.55, weight: 2 },
  { place: 'Manchester', district: 'North West', lat: 53.48, lng: -2.24, weight: 1 },
  { place: 'Oxford', district: 'South Central', lat: 51.75, lng: -1.26, weight: 1 },
  { place: 'Cambridge', district: 'East Anglia', lat: 52.2, lng: 0.12, weight: 1 },
  { place: 'Northumberland', district: 'North East', lat: 55.2, lng: -2.0, weight: 1 },
];

const GBR_CLUBS: Club[] = [
  { name: 'South Yorkshire Orienteers', short: 'SYO', region: 0 },
  { name: 'Derwent Valley Orienteers', short: 'DVO', region: 0 },
  { name: 'Lakeland Orienteering Club', short: 'LOC', region: 1 },
  { name: 'Border Liners', short: 'BL', region: 1 },
  { name: 'Badenoch & Strathspey Orienteering Club', short: 'BASOC', region: 2 },
  { name: 'Inverness Orienteering Club', short: 'INVOC', region: 2 },
  { name: 'Edinburgh Southern Orienteering Club', short: 'ESOC', region: 3 },
  { name: 'Interlopers', short: 'INT', region: 3 },
  { name: 'Clydesdale Orienteers', short: 'CLYDE', region: 4 },
  { name: 'South London Orienteers', short: 'SLOW', region: 5 },
  { name: 'London Orienteering Klubb', short: 'LOK', region: 5 },
  { name: 'Southern Navigators', short: 'SN', region: 6 },
  { name: 'Guildford Orienteers', short: 'GO', region: 6 },
  { name: 'Southampton Orienteering Club', short: 'SOC', region: 7 },
  { name: 'Wessex Orienteering Club', short: 'WIM', region: 7 },
  { name: 'Walton Chasers', short: 'WCH', region: 8 },
  { name: 'Harlequins', short: 'HOC', region: 8 },
  { name: 'North Gloucestershire Orienteering Club', short: 'NGOC', region: 9 },
  { name: 'South Wales Orienteering Club', short: 'SWOC', region: 10 },
  { name: 'Bristol Orienteering Klub', short: 'BOK', region: 11 },
  { name: 'Airienteers', short: 'AIRE', region: 12 },
  { name: 'Ebor Orienteers', short: 'EBOR', region: 12 },
  { name: 'Manchester & District Orienteering Club', short: 'MDOC', region: 13 },
  { name: 'Thames Valley Orienteering Club', short: 'TVOC', region: 14 },
  { name: 'West Anglia Orienteering Club', short: 'WAOC', region: 15 },
  { name: 'Cambridge University Orienteering Club', short: 'CUOC', region: 15 },
  { name: 'Newcastle and Tyneside Orienteers', short: 'NATO', region: 16 },
];

const GBR_TEMPLATES: NameTemplate[] = [
  {
    text: '{short} Colour Coded Event',
    kind: 'single',
    disciplines: ['Long', 'Middle'],
    classification: 'Local',
    weight: 5,
  },
  { text: '{short} Saturday Series', kind: 'single', disciplines: ['Middle'], classification: 'Club', weight: 3 },
  { text: '{short} Urban Series', kind: 'single', disciplines: ['Sprint'], classification: 'Local', weight: 3 },
  { text: '{short} City Race', kind: 'single', disciplines: ['Sprint'], classification: 'Regional', weight: 2 },
  {
    text: '{district} Championships',
    kind: 'single',
    disciplines: ['Long', 'Middle'],
    classification: 'Championship',
    weight: 2,
  },
  {
    text: 'CompassSport Cup Heat',
    kind: 'single',
    disciplines: ['Long'],
    classification: 'National',
    weight: 1,
    months: [3, 4],
  },
  { text: '{short} Night Event', kind: 'single', disciplines: ['Night'], classification: 'Local', weight: 2 },
  {
    text: '{district} Night Championships',
    kind: 'single',
    disciplines: ['Night'],
    classification: 'Championship',
    weight: 1,
  },
  { text: '{short} Relays', kind: 'single', disciplines: ['Relay'], classification: 'Regional', weight: 1 },
  {
    text: '{short} Weekend',
    kind: 'multi',
    disciplines: ['Middle', 'Long'],
    classification: 'National',
    weight: 2,
    days: [2, 2],
  },
];

const english = (n: number): string => `Day ${n}`;

const GBR_CLASSICS: Classic[] = [
  {
    name: 'JK {year}',
    kind: 'multi',
    disciplines: ['Sprint', 'Middle', 'Long'],
    classification: 'International',
    months: 'easter',
    days: 3,
    size: 2500,
  },
  {
    name: 'Harvester',
    kind: 'single',
    disciplines: ['Relay'],
    classification: 'National',
    months: [7],
    size: 600,
    startHour: 22,
    durationH: 9,
    relayClasses: [relay('Harvester Trophy', 'Trophy', 7, 1), relay('Short Trophy', 'Short', 4, 0.7)],
  },
  {
    name: 'Scottish 6 Days {year}',
    kind: 'multi',
    disciplines: ['Middle', 'Long', 'Middle', 'Long', 'Middle', 'Long'],
    classification: 'International',
    months: [8],
    place: 'Aviemore',
    days: 6,
    yearParity: 1,
    size: 3000,
    firstWeekday: 0,
  },
  {
    name: 'Lakes 5 Days',
    kind: 'multi',
    disciplines: ['Middle', 'Long', 'Middle', 'Long', 'Long'],
    classification: 'International',
    months: [8],
    place: 'Lake District',
    days: 5,
    yearParity: 0,
    size: 2000,
    firstWeekday: 0,
  },
  {
    name: 'Scottish Spring',
    kind: 'multi',
    disciplines: ['Middle', 'Long'],
    classification: 'National',
    months: [3],
    place: 'Aviemore',
    days: 2,
    size: 800,
  },
  {
    name: 'British Long Distance Championships',
    kind: 'single',
    disciplines: ['Long'],
    classification: 'Championship',
    months: [5],
    size: 1200,
  },
  {
    name: 'British Middle Distance Championships',
    kind: 'single',
    disciplines: ['Middle'],
    classification: 'Championship',
    months: [9],
    size: 900,
  },
  {
    name: 'British Sprint Championships',
    kind: 'single',
    disciplines: ['Sprint'],
    classification: 'Championship',
    months: [5],
    size: 700,
  },
  {
    name: 'British Relay Championships',
    kind: 'single',
    disciplines: ['Relay'],
    classification: 'Championship',
    months: [10],
    size: 900,
  },
  {
    name: 'British Night Championships',
    kind: 'single',
    disciplines: ['Night'],
    classification: 'Championship',
    months: [2],
    size: 400,
  },
  {
    name: 'November Classic',
    kind: 'single',
    disciplines: ['Long'],
    classification: 'National',
    months: [11],
    place: 'Surrey Hills',
    size: 700,
  },
];

/** British Orienteering's colour-coded courses, with their relative lengths. */
const BRITISH_COLOURS: readonly ClassSpec[] = [
  { name: 'Black', factor: 1.1 },
  { name: 'Brown', factor: 1 },
  { name: 'Short Brown', factor: 0.85 },
  { name: 'Blue', factor: 0.75 },
  { name: 'Green', factor: 0.55 },
  { name: 'Short Green', factor: 0.45 },
  { name: 'Light Green', factor: 0.4 },
  { name: 'Orange', factor: 0.33 },
  { name: 'Yellow', factor: 0.24 },
  { name: 'White', factor: 0.16 },
];

function britishClasses(r: Random, level: Level, discipline: Discipline): ClassSpec[] {
  if (level === 'small') {
    // Local events offer colour courses, each class its own course; Black and Short Brown only sometimes.
    return BRITISH_COLOURS.filter(
      (c) => (c.name !== 'Black' || r.chance(0.2)) && (c.name !== 'Short Brown' || r.chance(0.4)),
    ).map((c) => ({ ...c, ownCourse: true }));
  }
  // Age classes with a course-length letter: E elite, L long, S short, A for juniors.
  const classes: ClassSpec[] = [];
  const championship = level === 'big' && r.chance(0.4);
  if (championship)
    classes.push(
      { name: 'Men Elite', shortName: 'ME', factor: 1.1 },
      { name: 'Women Elite', shortName: 'WE', factor: 0.85 },
    );
  else classes.push({ name: 'M21E', factor: 1.1 }, { name: 'W21E', factor: 0.85 });
  for (const age of [10, 12, 14, 16, 18, 20]) {
    const letter = age >= 18 ? (r.chance(0.5) ? 'E' : 'L') : 'A';
    classes.push(
      { name: `M${age}${letter}`, factor: factorOf(MEN, age) },
      { name: `W${age}${letter}`, factor: factorOf(WOMEN, age) },
    );
  }
  classes.push(
    { name: 'M21L', factor: 0.9 },
    { name: 'W21L', factor: 0.68 },
    { name: 'M21S', factor: 0.6 },
    { name: 'W21S', factor: 0.48 },
  );
  const veterans = level === 'big' ? VETERAN_AGES.slice(0, discipline === 'Sprint' ? 8 : 11) : [35, 45, 55, 65, 75];
  for (const age of veterans) {
    classes.push({ name: `M${age}L`, factor: factorOf(MEN, age) }, { name: `W${age}L`, factor: factorOf(WOMEN, age) });
    if (age === 45 || age === 55)
      classes.push(
        { name: `M${age}S`, factor: factorOf(MEN, age) * 0.75 },
        { name: `W${age}S`, factor: factorOf(WOMEN, age) * 0.75 },
      );
  }
  return classes;
}

function britishRelays(_r: Random, level: Level): RelayClassSpec[] {
  const out = [
    relay("Men's Open", 'MO', 3, 1),
    relay("Women's Open", 'WO', 3, 0.75),
    relay('Junior Relay', 'Jun', 3, 0.5),
  ];
  if (level !== 'small') out.push(relay("Men's Veteran", 'MV', 3, 0.7), relay("Women's Veteran", 'WV', 3, 0.55));
  return out;
}

// ---------------------------------------------------------------------------------------------------------------------
// Czechia

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
    classes.push(
      { name: `H${age}${letter}`, factor: factorOf(MEN, age) },
      { name: `D${age}${letter}`, factor: factorOf(WOMEN, age) },
    );
  }
  if (level === 'big') classes.push({ name: 'H21E', factor: 1.1 }, { name: 'D21E', factor: 0.85 });
  classes.push({ name: 'H21A', factor: 1 }, { name: 'D21A', factor: 0.75 });
  if (level !== 'small') classes.push({ name: 'H21B', factor: 0.8 }, { name: 'D21B', factor: 0.6 });
  classes.push({ name: 'H21C', factor: 0.6 }, { name: 'D21C', factor: 0.5 });
  const veterans = level === 'big' ? VETERAN_AGES.slice(0, 10) : [35, 45, 55, 65];
  for (const age of veterans)
    classes.push({ name: `H${age}`, factor: factorOf(MEN, age) }, { name: `D${age}`, factor: factorOf(WOMEN, age) });
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

// ---------------------------------------------------------------------------------------------------------------------
// Denmark

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
    stageLabel: english,
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

// ---------------------------------------------------------------------------------------------------------------------
// Estonia

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

// ---------------------------------------------------------------------------------------------------------------------
// France

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

// ---------------------------------------------------------------------------------------------------------------------

const STAGE_LABELS: Record<Language, (n: number) => string> = {
  sv: (n) => `etapp ${n}`,
  no: (n) => `etappe ${n}`,
  da: (n) => `etape ${n}`,
  fi: (n) => `etappi ${n}`,
  de: (n) => `Etappe ${n}`,
  fr: (n) => `étape ${n}`,
  it: (n) => `tappa ${n}`,
  en: english,
  cs: (n) => `${n}. etapa`,
  et: (n) => `${n}. etapp`,
};

function stageLabel(n: number, language: Language): string {
  return STAGE_LABELS[language](n);
}

/** Northern summers are bright and winters snowy: the Nordic season runs April to October; Britain's all year. */
const NORDIC_MONTHS = [0.3, 0.5, 2, 7, 10, 9, 7, 10, 11, 7, 2, 0.5];
const ALPINE_MONTHS = [0.5, 1, 4, 7, 9, 9, 8, 8, 10, 8, 3, 0.5];
const BRITISH_MONTHS = [5, 5, 6, 6, 6, 4, 4, 3, 6, 7, 7, 4];

const lettersOrNumbers = (r: Random, count: number): string[] => (r.chance(0.6) ? letters(count) : numbers(count));

/** The countries events are generated in, with their conventions. */
export const PROFILES: readonly CountryProfile[] = [
  {
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
  },
  {
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
  },
  {
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
  },
  {
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
  },
  {
    code: 'GBR',
    language: 'en',
    utcOffsetHours: 0,
    weight: 13,
    monthWeights: BRITISH_MONTHS,
    climbPerKm: [15, 40],
    regions: GBR_REGIONS,
    clubs: GBR_CLUBS,
    templates: GBR_TEMPLATES,
    classics: GBR_CLASSICS,
    stageLabel,
    courseNames: (_r, count) => numbers(count).map((n) => `Course ${n}`),
    individualClasses: britishClasses,
    relayClasses: britishRelays,
    tld: 'org.uk',
  },
  {
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
  },
  {
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
  },
  {
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
  },
  {
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
  },
];
