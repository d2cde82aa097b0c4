/**
 * Series: one organised event, of one day or several, drawn from a country profile: name, organisers, place, dates,
 * classes and size. Each day becomes one service event in `generate.ts`; the draws happen here in a fixed order, so
 * any change to this file's use of `Random` changes every seed's data.
 */
import { destination, type LatLng } from '../../geo/distance.js';
import type { Random } from '../random.js';
import {
  DATASET_END_MS,
  DATASET_START_MS,
  DAY_MS,
  easterSunday,
  FIRST_YEAR,
  forwardTo,
  HOUR_MS,
  LAST_YEAR,
  localToUtc,
} from './calendar.js';
import { swedishGenitive } from './profiles/labels.js';
import type {
  ClassSpec,
  Classic,
  Classification,
  Club,
  CountryProfile,
  Discipline,
  Language,
  Level,
  NameTemplate,
  Region,
  RelayClassSpec,
} from './profiles/profile.js';

const NIGHT_MONTHS = [1, 2, 3, 4, 9, 10, 11, 12];

export type ClassPlan = ClassSpec & { legs?: number };

export interface StagePlan {
  discipline: Discipline;
  startMs: number;
  endMs: number;
}

export interface Series {
  profile: CountryProfile;
  baseName: string;
  organisers: string[];
  classification: Classification;
  level: Level;
  language: Language;
  position: LatLng;
  classes: ClassPlan[];
  stages: StagePlan[];
  stageLabel: (n: number) => string;
  /** Participants of a full-size day. */
  size: number;
  homepage?: string;
  federationId?: number;
  createdMs: number;
}

interface NameContext {
  club: Club;
  region: Region;
  year: number;
  days: number;
  n: number;
  language: Language;
}

function render(text: string, ctx: NameContext): string {
  const clubGen = ctx.language === 'sv' ? swedishGenitive(ctx.club.name) : (ctx.club.gen ?? ctx.club.name);
  const placeGen =
    ctx.region.placeGen ?? (ctx.language === 'sv' ? swedishGenitive(ctx.region.place) : ctx.region.place);
  const values: Record<string, string> = {
    club: ctx.club.name,
    clubGen,
    short: ctx.club.short ?? ctx.club.name,
    place: ctx.region.place,
    placeGen,
    district: ctx.region.district,
    year: String(ctx.year),
    days: String(ctx.days),
    n: String(ctx.n),
  };
  return text.replace(/\{(\w+)\}/g, (whole, key: string) => values[key] ?? whole);
}

function levelOf(classification: Classification): Level {
  if (classification === 'Regional') return 'medium';
  if (classification === 'Local' || classification === 'Club') return 'small';
  return 'big';
}

/** A host name from a club or event name: `OK Linné` -> `oklinne`. */
function hostSlug(name: string): string {
  return name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/ø/g, 'o')
    .replace(/æ/g, 'ae')
    .replace(/[^a-z0-9]+/g, '');
}

function regionLanguage(profile: CountryProfile, region: Region): Language {
  return region.language ?? profile.language;
}

function pickRegion(r: Random, profile: CountryProfile, place?: string): Region {
  if (place !== undefined) {
    const found = profile.regions.find((reg) => reg.place === place);
    if (found) return found;
  }
  return r.weighted(profile.regions, (reg) => reg.weight);
}

function pickOrganisers(r: Random, profile: CountryProfile, region: Region, two: boolean): Club[] {
  const regionIndex = profile.regions.indexOf(region);
  const local = profile.clubs.filter((c) => c.region === regionIndex);
  const first = local.length > 0 ? r.pick(local) : r.pick(profile.clubs);
  if (!two) return [first];
  const others = (local.length > 1 ? local : profile.clubs).filter((c) => c !== first);
  return others.length > 0 ? [first, r.pick(others)] : [first];
}

/** Day durations by discipline, in hours: a sprint is quick to run, a relay keeps the arena busy all day. */
const DURATION_H: Record<Discipline, readonly [number, number]> = {
  Sprint: [3, 5],
  Middle: [3, 6],
  Long: [4, 7.5],
  Night: [3, 4],
  Relay: [5, 8],
};

function stageTimes(
  r: Random,
  profile: CountryProfile,
  dayMs: number,
  discipline: Discipline,
  override?: { startHour?: number; durationH?: number },
): { startMs: number; endMs: number } {
  let minute: number;
  if (override?.startHour !== undefined) minute = override.startHour * 60 + 5 * r.int(0, 6);
  else if (discipline === 'Night') {
    // Darkness comes late in spring and early autumn, early in winter.
    const month = new Date(dayMs).getUTCMonth() + 1;
    minute = (month >= 3 && month <= 9 ? 20 * 60 : 18 * 60) + 5 * r.int(0, 18);
  } else minute = 9 * 60 + 5 * r.int(0, 24); // first start 09:00-11:00 local
  const startMs = localToUtc(dayMs, minute, profile.utcOffsetHours);
  const [lo, hi] = DURATION_H[discipline];
  const hours = override?.durationH ?? Math.round(r.float(lo, hi) * 4) / 4;
  return { startMs, endMs: startMs + hours * HOUR_MS };
}

/** First day (00:00 UTC) of an event held in `months` of `year`, lasting `days`, mostly on a weekend. */
function pickFirstDay(
  r: Random,
  profile: CountryProfile,
  year: number,
  months: readonly number[] | 'easter' | undefined,
  days: number,
  firstWeekday: number | undefined,
): number {
  let day: number;
  if (months === 'easter') {
    day = easterSunday(year) - 2 * DAY_MS; // Good Friday
  } else {
    const month =
      months && months.length > 0
        ? r.pick(months)
        : 1 + r.weighted([...profile.monthWeights.keys()], (i) => profile.monthWeights[i] ?? 0);
    const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
    day = Date.UTC(year, month - 1, r.int(1, daysInMonth));
    if (firstWeekday !== undefined) day = forwardTo(day, firstWeekday);
    else if (days >= 3) day = forwardTo(day, r.chance(0.5) ? 5 : 6);
    else if (days === 2) day = forwardTo(day, 6);
    else if (r.chance(0.88)) day = forwardTo(day, r.chance(0.6) ? 6 : 0);
  }
  // Keep the whole event inside the fixed range, moving by weeks so that the weekday stays.
  while (day + days * DAY_MS > DATASET_END_MS) day -= 7 * DAY_MS;
  while (day < DATASET_START_MS) day += 7 * DAY_MS;
  return day;
}

function pickTemplate(r: Random, profile: CountryProfile, region: Region): NameTemplate {
  const language = regionLanguage(profile, region);
  const usable = profile.templates.filter(
    (t) => (t.language === undefined || t.language === language) && (t.place === undefined || t.place === region.place),
  );
  // Night events are fewer than the name patterns suggest: one pattern per country would already make them 1 in 8.
  return r.weighted(usable.length > 0 ? usable : profile.templates, (t) =>
    t.disciplines.includes('Night') ? t.weight * 0.6 : t.weight,
  );
}

function classesFor(
  r: Random,
  profile: CountryProfile,
  level: Level,
  disciplines: readonly Discipline[],
  language: Language,
  relayClasses?: readonly RelayClassSpec[],
): ClassPlan[] {
  if (disciplines.includes('Relay')) return [...(relayClasses ?? profile.relayClasses(r, level, language))];
  // A multi-day event keeps its classes every day; the first day's discipline decides them.
  return profile.individualClasses(r, level, disciplines[0] ?? 'Long', language);
}

function participantsFor(
  r: Random,
  level: Level,
  classification: Classification,
  disciplines: readonly Discipline[],
): number {
  let n: number;
  if (classification === 'International') n = r.int(800, 3000);
  else if (level === 'big') n = r.int(300, 1500);
  else if (level === 'medium') n = r.int(100, 600);
  else n = r.int(30, 250);
  if (disciplines.includes('Relay')) n *= 1.5;
  if (disciplines.includes('Night')) n *= 0.6;
  return Math.min(3000, Math.max(30, Math.round(n)));
}

export function buildSeries(r: Random, profile: CountryProfile, usedClassics: Set<string>): Series {
  const year = r.int(FIRST_YEAR, LAST_YEAR);
  let classic: Classic | undefined;
  if (r.chance(0.12)) {
    const open = profile.classics.filter(
      (c) => (c.yearParity === undefined || c.yearParity === year % 2) && !usedClassics.has(`${c.name}|${year}`),
    );
    if (open.length > 0) {
      classic = r.pick(open);
      usedClassics.add(`${classic.name}|${year}`);
    }
  }

  const region = pickRegion(r, profile, classic?.place);
  const language = regionLanguage(profile, region);
  const template = classic ? undefined : pickTemplate(r, profile, region);
  const kind = classic?.kind ?? template?.kind ?? 'single';
  const days =
    kind === 'multi' ? (classic?.days ?? (template?.days ? r.int(template.days[0], template.days[1]) : 2)) : 1;
  const clubs = pickOrganisers(r, profile, region, classic ? r.chance(0.5) : r.chance(0.15));
  const [firstClub] = clubs as [Club, ...Club[]];
  const ctx: NameContext = { club: firstClub, region, year, days, n: r.int(1, 8), language };
  const baseName = render(classic?.name ?? template?.text ?? '{club}', ctx);
  const classification = classic?.classification ?? template?.classification ?? 'Local';
  const level = levelOf(classification);

  const pool = classic?.disciplines ?? template?.disciplines ?? ['Long'];
  let disciplines: Discipline[];
  if (kind === 'single') disciplines = [r.pick(pool)];
  else {
    disciplines = Array.from({ length: days }, (_, i) => pool[i % pool.length] ?? 'Long');
    if (!classic && r.chance(0.5)) disciplines.reverse();
  }

  // Night orienteering needs dark evenings: none in a Nordic June, so night events keep to autumn, winter and spring.
  const months = classic?.months ?? template?.months ?? (disciplines.includes('Night') ? NIGHT_MONTHS : undefined);
  const firstDay = pickFirstDay(r, profile, year, months, days, classic?.firstWeekday);
  const stages = disciplines.map((discipline, i) => ({
    discipline,
    ...stageTimes(r, profile, firstDay + i * DAY_MS, discipline, classic),
  }));

  const urban = disciplines.every((d) => d === 'Sprint');
  const position = destination({ lat: region.lat, lng: region.lng }, r.float(0, 360), r.float(0, urban ? 3000 : 9000));
  const classes = classesFor(r, profile, level, disciplines, language, classic?.relayClasses);
  const size = classic
    ? Math.round(classic.size * r.float(0.6, 1))
    : participantsFor(r, level, classification, disciplines);
  const homepageName = classic ? classic.name.replace(/\{\w+\}/g, '') : firstClub.name;
  const stageLabel = classic?.stageLabel ?? ((n: number) => profile.stageLabel(n, language));
  const first = stages[0] as StagePlan;
  const series: Series = {
    profile,
    baseName,
    organisers: clubs.map((c) => c.name),
    classification,
    level,
    language,
    position: { lat: round(position.lat, 5), lng: round(position.lng, 5) },
    classes,
    stages,
    stageLabel,
    size,
    // Organisers create the event in the service weeks or months before it takes place.
    createdMs: first.startMs - r.int(10, 150) * DAY_MS - r.int(0, 86_399) * 1000,
  };
  if (r.chance(0.6)) series.homepage = `https://www.${hostSlug(homepageName)}.${profile.tld}/`;
  if (profile.federationId) series.federationId = r.int(profile.federationId.min, profile.federationId.max);
  return series;
}

export function round(value: number, decimals: number): number {
  const f = 10 ** decimals;
  return Math.round(value * f) / f;
}
