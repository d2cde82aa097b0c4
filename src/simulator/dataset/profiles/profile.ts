/**
 * The shape of a country profile: what makes generated events look like the real ones of one country (orienteering
 * regions, clubs, event-name patterns, recurring classics, the federation's class-naming convention). One file per
 * country holds the data; `registry.ts` lists them; `../series.ts` does the drawing.
 *
 * Names are plausible, not a registry: clubs and classics are real-sounding (many are real) so that searching for
 * "Linné" or "Jukola" in the simulator feels like searching the service.
 */
import type { Random } from '../../random.js';

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
