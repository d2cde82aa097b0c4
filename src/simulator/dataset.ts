/**
 * The generated dataset the simulator serves when it is given none: a few hundred (or ten thousand) events that look
 * like the service's own — real orienteering regions, club names, class conventions, multi-day events, relays, night
 * events, events without courses and unpublished future events.
 *
 * Everything is a function of the seed: the date range and the "now" that decides which events are still to come are
 * fixed constants, never the clock, so a seed gives the same data on every machine and every day.
 */
import { destination, distanceM, type LatLng } from '../geo/distance.js';
import type { Course, ClassCourseAssignment, Control, CourseControl, RaceCourseData } from '../iof/model.js';
import { COUNTRIES } from './countries.js';
import type { SimClass, SimDataset, SimEvent, SimProperty } from './model.js';
import {
  PROFILES,
  swedishGenitive,
  type ClassSpec,
  type Classic,
  type Classification,
  type Club,
  type CountryProfile,
  type Discipline,
  type Language,
  type Level,
  type NameTemplate,
  type Region,
  type RelayClassSpec,
} from './names.js';
import { Random } from './random.js';

export interface GenerateDatasetOptions {
  /** Seed of every random choice: the same seed gives a deep-equal dataset. Default 1. */
  seed?: number;
  /** Number of events; each day of a multi-day event is one event. Default 300. */
  events?: number;
}

/** First instant of the generated date range (2022-01-01T00:00:00Z). */
export const DATASET_START_MS = Date.UTC(2022, 0, 1);
/** End of the generated date range, exclusive (2028-01-01T00:00:00Z): events run until 2027-12-31. */
export const DATASET_END_MS = Date.UTC(2028, 0, 1);
/**
 * The dataset's "today" (2026-11-01T00:00:00Z): events starting later are still to come (mostly unpublished, no
 * participants yet). Fixed so that the data does not change with the date it is generated on.
 */
export const DATASET_REFERENCE_MS = Date.UTC(2026, 10, 1);

const NIGHT_MONTHS = [1, 2, 3, 4, 9, 10, 11, 12];
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const FIRST_YEAR = 2022;
const LAST_YEAR = 2027;

/** Stream labels for `Random.derive`, so that drawing courses never shifts what the events draw. */
const STREAM_COURSES = 0xc0_75e5;

// ---------------------------------------------------------------------------------------------------------------------
// Calendar: the EU summer-time rule and Easter computed by arithmetic, so that no time-zone database is involved.

/** 00:00 UTC of the last Sunday of a month (0-based). */
function lastSunday(year: number, month: number): number {
  const lastDay = Date.UTC(year, month + 1, 0);
  return lastDay - new Date(lastDay).getUTCDay() * DAY_MS;
}

/** EU summer time (also the UK's): from 01:00 UTC on the last Sunday of March to 01:00 UTC on the last Sunday of October. */
function isEuSummerTime(utcMs: number): boolean {
  const year = new Date(utcMs).getUTCFullYear();
  return utcMs >= lastSunday(year, 2) + HOUR_MS && utcMs < lastSunday(year, 9) + HOUR_MS;
}

/** The UTC instant of a local wall-clock time on a day given as 00:00 UTC of that date. */
function localToUtc(dayMs: number, minuteOfDay: number, utcOffsetHours: number): number {
  const standard = dayMs + minuteOfDay * 60_000 - utcOffsetHours * HOUR_MS;
  return isEuSummerTime(standard) ? standard - HOUR_MS : standard;
}

/** Easter Sunday (anonymous Gregorian algorithm), as 00:00 UTC of that date. */
function easterSunday(year: number): number {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return Date.UTC(year, month - 1, day);
}

function weekday(dayMs: number): number {
  return new Date(dayMs).getUTCDay();
}

/** Moves forward (0-6 days) to the given weekday. */
function forwardTo(dayMs: number, target: number): number {
  return dayMs + ((target - weekday(dayMs) + 7) % 7) * DAY_MS;
}

// ---------------------------------------------------------------------------------------------------------------------
// Series: one organised event, of one day or several. Each day becomes one service event.

type ClassPlan = ClassSpec & { legs?: number };

interface StagePlan {
  discipline: Discipline;
  startMs: number;
  endMs: number;
}

interface Series {
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

function buildSeries(r: Random, profile: CountryProfile, usedClassics: Set<string>): Series {
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

function round(value: number, decimals: number): number {
  const f = 10 ** decimals;
  return Math.round(value * f) / f;
}

// ---------------------------------------------------------------------------------------------------------------------
// Courses, drawn lazily from the seed and the event id.

interface CoursePlan {
  seed: number;
  eventId: number;
  discipline: Discipline;
  level: Level;
  position: LatLng;
  climbPerKm: readonly [number, number];
  courseNames: (r: Random, count: number) => string[];
  /** The event's classes (a copy of the array) and, index for index, what they were generated from. */
  classes: readonly SimClass[];
  specs: readonly ClassPlan[];
}

interface PlannedClass {
  id: number;
  name: string;
  shortName?: string;
  plan: ClassPlan;
}

/** Length in metres of the longest course (factor 1), by discipline and event size. */
function longestCourseM(discipline: Discipline, level: Level): number {
  switch (discipline) {
    case 'Sprint':
      return level === 'big' ? 4300 : 3800;
    case 'Middle':
      return level === 'big' ? 6500 : 5500;
    case 'Long':
      return level === 'big' ? 14_000 : level === 'medium' ? 11_000 : 8000;
    case 'Night':
      return level === 'big' ? 9000 : 7000;
    case 'Relay':
      return level === 'big' ? 9000 : 7000;
  }
}

/** Typical leg length in metres: many short legs in a sprint, long route choices in a long-distance race. */
function typicalLegM(discipline: Discipline, level: Level): number {
  switch (discipline) {
    case 'Sprint':
      return 200;
    case 'Middle':
      return 330;
    case 'Long':
      return level === 'big' ? 650 : 500;
    case 'Night':
      return 450;
    case 'Relay':
      return 420;
  }
}

interface CourseTarget {
  name: string;
  factor: number;
}

/**
 * Splits classes into 4-12 courses: classes with similar course lengths run the same course, as at real events
 * (H45 and D21 often share). Returns the courses, longest first, and each class's course.
 */
function individualCourseTargets(
  classes: readonly PlannedClass[],
  courseNames: CoursePlan['courseNames'],
  r: Random,
): { targets: CourseTarget[]; courseOf: Map<number, string> } {
  const courseOf = new Map<number, string>();
  const targets: CourseTarget[] = [];
  const shared = classes.filter((c) => !c.plan.ownCourse);
  for (const c of classes) {
    if (c.plan.ownCourse) {
      targets.push({ name: c.name, factor: c.plan.factor });
      courseOf.set(c.id, c.name);
    }
  }
  if (shared.length > 0) {
    const factors = [...new Set(shared.map((c) => c.plan.factor))].sort((a, b) => b - a);
    const k = Math.min(factors.length, Math.max(4, Math.min(12, Math.round(shared.length / 3.5))));
    const names = courseNames(r, k);
    const groupOfFactor = new Map<number, number>();
    factors.forEach((f, i) => groupOfFactor.set(f, Math.floor((i * k) / factors.length)));
    for (let g = 0; g < k; g++) {
      const first = factors.findIndex((_, i) => Math.floor((i * k) / factors.length) === g);
      targets.push({ name: names[g] ?? `${g + 1}`, factor: factors[first] ?? 0.5 });
    }
    for (const c of shared) courseOf.set(c.id, names[groupOfFactor.get(c.plan.factor) ?? 0] ?? '1');
  }
  return { targets, courseOf };
}

interface RelayGroup {
  classes: PlannedClass[];
  legs: number;
  factor: number;
}

/** One course per leg; classes with close lengths and the same number of legs share when there would be over 12. */
function relayGroups(classes: readonly PlannedClass[]): RelayGroup[] {
  const groups: RelayGroup[] = classes
    .map((c) => ({ classes: [c], legs: c.plan.legs ?? 3, factor: c.plan.factor }))
    .sort((a, b) => b.factor - a.factor);
  const total = (): number => groups.reduce((sum, g) => sum + g.legs, 0);
  while (total() > 12) {
    let best = -1;
    let bestGap = Infinity;
    for (let i = 0; i + 1 < groups.length; i++) {
      const a = groups[i] as RelayGroup;
      const b = groups[i + 1] as RelayGroup;
      if (a.legs === b.legs && a.factor - b.factor < bestGap) {
        best = i;
        bestGap = a.factor - b.factor;
      }
    }
    if (best < 0) break;
    const [a, b] = groups.splice(best, 2) as [RelayGroup, RelayGroup];
    groups.splice(best, 0, { classes: [...a.classes, ...b.classes], legs: a.legs, factor: a.factor });
  }
  return groups;
}

/** A point in metres east (x) and north (y) of the event position: course drawing is plane geometry. */
interface Xy {
  x: number;
  y: number;
}

const DEG = Math.PI / 180;

function buildCourses(plan: CoursePlan): RaceCourseData {
  const r = Random.derive(plan.seed, plan.eventId, STREAM_COURSES);
  const { discipline, level } = plan;
  const scale =
    discipline === 'Sprint'
      ? 4000
      : discipline === 'Middle'
        ? 10_000
        : r.chance(discipline === 'Long' ? 0.6 : 0.3)
          ? 15_000
          : 10_000;
  const radius = discipline === 'Sprint' ? 1300 : discipline === 'Middle' ? 2200 : 3000;
  const legM = typicalLegM(discipline, level);
  const longest = longestCourseM(discipline, level);
  const minLength = discipline === 'Sprint' ? 1200 : 1800;
  const classes: PlannedClass[] = plan.classes.map((c, i) => ({
    id: c.id,
    name: c.name,
    ...(c.shortName === undefined ? {} : { shortName: c.shortName }),
    plan: plan.specs[i] ?? { name: c.name, factor: 1 },
  }));

  // Control codes 31-250 in random order; a course setter reuses a site when a course passes close to it, so courses
  // share controls the way real ones do.
  const codes = r.shuffle(Array.from({ length: 220 }, (_, i) => 31 + i));
  const sites: Xy[] = [];
  const polar = (angleDeg: number, distance: number, from: Xy): Xy => ({
    x: from.x + distance * Math.sin(angleDeg * DEG),
    y: from.y + distance * Math.cos(angleDeg * DEG),
  });
  const dist = (a: Xy, b: Xy): number => Math.hypot(a.x - b.x, a.y - b.y);
  const angleTo = (a: Xy, b: Xy): number => Math.atan2(b.x - a.x, b.y - a.y) / DEG;
  const start = polar(r.float(0, 360), r.float(0, 400), { x: 0, y: 0 });
  const finish = polar(r.float(0, 360), r.float(100, 400), start);

  /** Index of the site nearest `p` within `within` metres, not in `exclude`; -1 when none. */
  const nearestSite = (p: Xy, within: number, exclude: ReadonlySet<number>): number => {
    let best = -1;
    let bestD = within;
    for (let i = 0; i < sites.length; i++) {
      if (exclude.has(i)) continue;
      const d = dist(p, sites[i] as Xy);
      if (d < bestD) {
        best = i;
        bestD = d;
      }
    }
    return best;
  };

  const drawCourse = (name: string, factor: number): { name: string; sequence: number[] } => {
    const target = Math.max(minLength, longest * factor * r.float(0.92, 1.08));
    const count = Math.min(25, Math.max(6, Math.round(target / legM) - 1));
    const leg = target / (count + 1);
    const sequence: number[] = [];
    const inCourse = new Set<number>();
    let here = start;
    let heading = r.float(0, 360);
    for (let i = 0; i < count; i++) {
      const legsLeft = count - i + 1;
      const wanted = leg * r.float(0.6, 1.4);
      heading += r.float(-75, 75);
      let next = polar(heading, wanted, here);
      if (Math.hypot(next.x, next.y) > radius) {
        // Stay on the map: turn back towards the arena.
        heading = angleTo(here, { x: 0, y: 0 }) + r.float(-45, 45);
        next = polar(heading, wanted, here);
      }
      if (dist(next, finish) > (legsLeft - 1) * leg * 1.1) {
        // The runner must still reach the finish in the legs that are left: head home.
        heading = angleTo(here, finish) + r.float(-40, 40);
        next = polar(heading, Math.min(wanted, dist(here, finish)), here);
      }
      let site = nearestSite(next, Math.min(150, wanted * 0.3), inCourse);
      if (site < 0) {
        if (sites.length < codes.length) {
          site = sites.length;
          sites.push(next);
        } else {
          site = nearestSite(next, Infinity, inCourse);
        }
      }
      inCourse.add(site);
      sequence.push(site);
      here = sites[site] as Xy;
    }
    return { name, sequence };
  };

  const drawn: { name: string; sequence: number[] }[] = [];
  const classAssignments: ClassCourseAssignment[] = [];
  if (discipline === 'Relay') {
    for (const group of relayGroups(classes)) {
      const head = group.classes[0];
      const prefix = head?.shortName ?? head?.name ?? 'Relay';
      for (let leg = 1; leg <= group.legs; leg++) {
        const courseName = `${prefix}-${leg}`;
        // Legs of a relay differ in length around the class's standard.
        drawn.push(drawCourse(courseName, group.factor * r.float(0.8, 1.05)));
        for (const c of group.classes) {
          classAssignments.push({ classId: String(c.id), className: c.name, courseName, allowedOnLegs: [leg] });
        }
      }
    }
  } else {
    const { targets, courseOf } = individualCourseTargets(classes, plan.courseNames, r);
    for (const t of targets) drawn.push(drawCourse(t.name, t.factor));
    for (const c of classes) {
      classAssignments.push({
        classId: String(c.id),
        className: c.name,
        courseName: courseOf.get(c.id) ?? targets[0]?.name ?? '1',
      });
    }
  }

  // Geographic positions from the plane, then leg lengths from those positions, so that a reader recomputing legs
  // from the controls gets the same metres.
  const toLatLng = (p: Xy): LatLng =>
    roundPosition(destination(plan.position, angleTo({ x: 0, y: 0 }, p), Math.hypot(p.x, p.y)));
  const startPos = toLatLng(start);
  const finishPos = toLatLng(finish);
  const sitePos = sites.map(toLatLng);
  const [climbLow, climbHigh] = plan.climbPerKm;
  const terrain = discipline === 'Sprint' ? 0.3 : 1;
  const courses: Course[] = drawn.map(({ name, sequence }) => {
    const controls: CourseControl[] = [{ controlId: 'S1', type: 'Start' }];
    let previous = startPos;
    let length = 0;
    const addLeg = (controlId: string, type: CourseControl['type'], at: LatLng): void => {
      const legLength = Math.round(distanceM(previous, at));
      length += legLength;
      controls.push({ controlId, type, legLength });
      previous = at;
    };
    for (const index of sequence) addLeg(String(codes[index]), 'Control', sitePos[index] as LatLng);
    addLeg('F1', 'Finish', finishPos);
    const climb = Math.round(((length / 1000) * r.float(climbLow, climbHigh) * terrain) / 5) * 5;
    return { name, length, climb, numberOfControls: sequence.length, controls };
  });

  const controls: Control[] = [{ id: 'S1', type: 'Start', position: startPos }];
  const order = sitePos.map((_, i) => i).sort((a, b) => (codes[a] ?? 0) - (codes[b] ?? 0));
  for (const index of order)
    controls.push({ id: String(codes[index]), type: 'Control', position: sitePos[index] as LatLng });
  controls.push({ id: 'F1', type: 'Finish', position: finishPos });
  return { maps: [{ scale }], controls, courses, classAssignments };
}

function roundPosition(p: LatLng): LatLng {
  return { lat: round(p.lat, 6), lng: round(p.lng, 6) };
}

/**
 * Gives the event a `courses` property computed on first read and remembered: 10,000 events' controls and courses
 * are tens of megabytes nobody reads when the simulator only searches events. Reading, spreading, cloning and JSON
 * all see an ordinary enumerable property; assigning replaces it with a plain value.
 */
function defineLazyCourses(event: SimEvent, build: () => RaceCourseData): void {
  let cached: RaceCourseData | undefined;
  Object.defineProperty(event, 'courses', {
    enumerable: true,
    configurable: true,
    get: () => (cached ??= build()),
    set: (value: RaceCourseData | undefined) => {
      Object.defineProperty(event, 'courses', { value, writable: true, enumerable: true, configurable: true });
    },
  });
}

// ---------------------------------------------------------------------------------------------------------------------

/** A realistic dataset of `events` events (default 300) for seed `seed` (default 1), plus every ISO country. */
export function generateDataset(options: GenerateDatasetOptions = {}): SimDataset {
  const seed = options.seed ?? 1;
  const wanted = options.events ?? 300;
  if (!Number.isInteger(seed)) throw new RangeError(`seed must be an integer, got ${seed}`);
  if (!Number.isInteger(wanted) || wanted < 0)
    throw new RangeError(`events must be a non-negative integer, got ${wanted}`);

  const r = new Random(seed);
  const usedClassics = new Set<string>();
  const series: Series[] = [];
  let total = 0;
  while (total < wanted) {
    // Every country once first, so that even a small dataset covers them all; then by weight.
    const profile =
      series.length < PROFILES.length
        ? (PROFILES[series.length] as CountryProfile)
        : r.weighted(PROFILES, (p) => p.weight);
    const s = buildSeries(r, profile, usedClassics);
    if (s.stages.length > wanted - total) s.stages.length = wanted - total;
    series.push(s);
    total += s.stages.length;
  }

  // Ids grow with creation time, as in the service; the days of a multi-day event are created together.
  series.sort((a, b) => a.createdMs - b.createdMs);
  const events: SimEvent[] = [];
  let eventId = 100_000 + r.int(0, 500);
  let classId = 700_000 + r.int(0, 999);
  for (const s of series) {
    eventId += r.chance(0.03) ? r.int(50, 800) : r.int(1, 25);
    s.stages.forEach((stage, index) => {
      const id = eventId + index;
      events.push(buildEvent(r, seed, s, stage, index, id, classId));
      classId += s.classes.length + r.int(1, 40);
    });
    eventId += s.stages.length - 1;
  }
  return { events, countries: [...COUNTRIES] };
}

function buildEvent(
  r: Random,
  seed: number,
  s: Series,
  stage: StagePlan,
  index: number,
  id: number,
  firstClassId: number,
): SimEvent {
  const multi = s.stages.length > 1;
  const future = stage.startMs >= DATASET_REFERENCE_MS;
  const hasValidMapAndCourses = !r.chance(future ? 0.25 : 0.07);
  const isPublished = future ? r.chance(0.1) : r.chance(0.97);
  const isSearchable = hasValidMapAndCourses && r.chance(isPublished ? 0.95 : 0.15);

  const classes: SimClass[] = s.classes.map((c, i) => {
    const cls: SimClass = { id: firstClassId + i, name: c.name };
    if (c.shortName !== undefined) cls.shortName = c.shortName;
    return cls;
  });

  const properties: SimProperty[] = [
    { key: 'discipline', value: stage.discipline },
    { key: 'classification', value: s.classification },
  ];
  if (s.federationId !== undefined && s.profile.federationId) {
    properties.push({ key: s.profile.federationId.key, value: String(s.federationId) });
  }
  if (multi) properties.push({ key: 'stage', value: `${index + 1}/${s.stages.length}` });
  if (s.homepage !== undefined) properties.push({ key: 'homepage', value: s.homepage });

  let modifiedMs: number;
  if (future) {
    // Still being prepared: last touched some time between creation and the reference date.
    const until = Math.max(s.createdMs, Math.min(DATASET_REFERENCE_MS, stage.startMs));
    modifiedMs = s.createdMs + Math.floor(r.next() * (until - s.createdMs));
  } else if (r.chance(0.12)) {
    // Results corrections and late route uploads, weeks to more than a year later.
    modifiedMs = stage.endMs + r.int(20, 500) * DAY_MS + r.int(0, 86_399) * 1000;
  } else {
    modifiedMs = stage.endMs + r.int(600, 3 * 86_400) * 1000;
  }
  modifiedMs = Math.max(modifiedMs, s.createdMs + 1000);

  const event: SimEvent = {
    id,
    name: multi ? `${s.baseName}, ${s.stageLabel(index + 1)}` : s.baseName,
    startMs: stage.startMs,
    endMs: stage.endMs,
    organisers: s.organisers.map((name) => ({ name })),
    countryCode: s.profile.code,
    position: { latitude: s.position.lat, longitude: s.position.lng },
    classes,
    properties,
    participantCount: future ? 0 : Math.max(30, Math.round(s.size * r.float(0.85, 1))),
    isSearchable,
    isPublished,
    hasValidMapAndCourses,
    modifiedMs,
  };
  if (hasValidMapAndCourses) {
    const plan: CoursePlan = {
      seed,
      eventId: id,
      discipline: stage.discipline,
      level: s.level,
      position: s.position,
      climbPerKm: s.profile.climbPerKm,
      courseNames: s.profile.courseNames,
      // Courses depend on the classes as generated, even if a caller edits event.classes before reading courses.
      classes: classes.slice(),
      specs: s.classes,
    };
    defineLazyCourses(event, () => buildCourses(plan));
  }
  return event;
}
