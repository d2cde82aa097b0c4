/**
 * The generated dataset the simulator serves when it is given none: a few hundred (or ten thousand) events that look
 * like the service's own — real orienteering regions, club names, class conventions, multi-day events, relays, night
 * events, events without courses and unpublished future events.
 *
 * Everything is a function of the seed: the date range and the "now" that decides which events are still to come are
 * fixed constants (`calendar.ts`), never the clock, so a seed gives the same data on every machine and every day.
 *
 * This file turns series (`series.ts`, drawn from the country profiles) into service events in id order; courses
 * (`courses.ts`) are drawn from a stream of their own and only when first read.
 */
import type { RaceCourseData } from '../../iof/model.js';
import { COUNTRIES } from '../countries.js';
import type { SimClass, SimDataset, SimEvent, SimProperty } from '../model.js';
import { Random } from '../random.js';
import { DATASET_REFERENCE_MS, DAY_MS } from './calendar.js';
import { buildCourses, type CoursePlan } from './courses.js';
import type { CountryProfile } from './profiles/profile.js';
import { PROFILES } from './profiles/registry.js';
import { buildSeries, type Series, type StagePlan } from './series.js';

export interface GenerateDatasetOptions {
  /** Seed of every random choice: the same seed gives a deep-equal dataset. Default 1. */
  seed?: number;
  /** Number of events; each day of a multi-day event is one event. Default 300. */
  events?: number;
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

/**
 * One day of a series as a service event. Also how the world's churn makes a new event (`../churn.ts`), so that an
 * event appearing while the simulator runs looks like the generated ones.
 */
export function buildEvent(
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

  // The dataset is a snapshot taken on its "today" (DATASET_REFERENCE_MS): nothing in it was modified later, so that
  // a simulator, whose clock starts at or after that day, never shows an event modified in its future. Times that
  // would fall after "today" are drawn again from a stream of their own, so the main stream, and with it every other
  // value of a seed's data, stays as it was.
  let late: Random | undefined;
  const redraw = () => (late ??= Random.derive(seed, id, 0x1a7e));
  let modifiedMs: number;
  if (future) {
    // Still being prepared: last touched some time between creation and the reference date. A series drawn as created
    // after that day is known on it all the same: entered up to 150 days before.
    const createdMs =
      s.createdMs < DATASET_REFERENCE_MS ? s.createdMs : DATASET_REFERENCE_MS - redraw().int(1, 150) * DAY_MS;
    const until = Math.max(createdMs, Math.min(DATASET_REFERENCE_MS, stage.startMs));
    modifiedMs = Math.max(createdMs + Math.floor(r.next() * (until - createdMs)), createdMs + 1000);
  } else {
    if (r.chance(0.12)) {
      // Results corrections and late route uploads, weeks to more than a year later.
      modifiedMs = stage.endMs + r.int(20, 500) * DAY_MS + r.int(0, 86_399) * 1000;
    } else {
      modifiedMs = stage.endMs + r.int(600, 3 * 86_400) * 1000;
    }
    modifiedMs = Math.max(modifiedMs, s.createdMs + 1000);
    // A change drawn after "today" happened between the event's end and today.
    const room = DATASET_REFERENCE_MS - stage.endMs - 1000;
    if (modifiedMs > DATASET_REFERENCE_MS) {
      modifiedMs = room > 0 ? stage.endMs + 1000 + Math.floor(redraw().next() * room) : DATASET_REFERENCE_MS;
    }
  }
  // Whole seconds, as the service's modifiedTime, and never after "today" (a night event ending on it has no room).
  modifiedMs = Math.floor(Math.min(modifiedMs, DATASET_REFERENCE_MS) / 1000) * 1000;

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
