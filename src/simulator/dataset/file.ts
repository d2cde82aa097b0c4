/**
 * The JSON dataset format (docs/simulator-dataset.md): lets a user serve their own event from the simulator, with
 * courses written inline or read from an IOF XML CourseData file. Every problem is reported with its path in the file
 * (`events[0].courses.courses[1].controls[3]`), all of them at once, as a `ValidationError`.
 *
 * This file holds the entry points and the checks that need the whole file; the schema, the courses and the classes
 * of one event each have a file of their own (`file-schema.ts`, `file-courses.ts`, `file-classes.ts`).
 */
import { dirname, resolve } from 'node:path';
import { ValidationError, type Issue } from '../../errors.js';
import type { ClassCourseAssignment, RaceCourseData } from '../../iof/model.js';
import { readJsonInput } from '../../core/json-input.js';
import { issueAt as issue, pathText, type PathPart } from '../../core/issues.js';
import { COUNTRIES, findCountry } from '../countries.js';
import type { SimClass, SimCountry, SimDataset, SimEvent } from '../model.js';
import { assignmentsFor, classDrafts, normalName, type ClassDraft } from './file-classes.js';
import { inlineRace, raceFromFile, readCourseFile, type LoadedCourseFile } from './file-courses.js';
import { datasetSchema, zodIssues, type EventEntry } from './file-schema.js';

/** Generated class ids start above this (and above every id the file gives), far from typical hand-written ids. */
export const GENERATED_CLASS_ID_BASE = 1_000_000;

function centroid(race: RaceCourseData): { latitude: number; longitude: number } | undefined {
  const positions = race.controls.flatMap((c) => (c.position ? [c.position] : []));
  if (positions.length === 0) return undefined;
  const lat = positions.reduce((s, p) => s + p.lat, 0) / positions.length;
  const lng = positions.reduce((s, p) => s + p.lng, 0) / positions.length;
  return { latitude: Math.round(lat * 1e6) / 1e6, longitude: Math.round(lng * 1e6) / 1e6 };
}

/**
 * Validates a parsed dataset file and builds the simulator's dataset from it. Relative `iofXml` paths resolve against
 * `baseDir` (the folder of the dataset file). Throws `ValidationError` listing every problem with its path.
 */
export async function parseDataset(json: unknown, baseDir: string): Promise<SimDataset> {
  return buildDataset(json, baseDir, 'Dataset');
}

/** Largest dataset file read: a dataset of a few thousand events with inline courses is a few MiB. */
export const MAX_DATASET_BYTES = 64 * 1024 * 1024;

/**
 * Reads a dataset file (docs/simulator-dataset.md): `InputError` when it is not a regular file of JSON up to
 * `MAX_DATASET_BYTES` (UTF-8, or UTF-16 with a byte order mark, as editors on Windows save it), else as `parseDataset`.
 */
export async function loadDatasetFile(path: string): Promise<SimDataset> {
  const json = await readJsonInput(path, { what: 'the dataset file', maxBytes: MAX_DATASET_BYTES });
  return buildDataset(json, dirname(resolve(path)), `Dataset file ${path}`);
}

async function buildDataset(json: unknown, baseDir: string, what: string): Promise<SimDataset> {
  const parsed = datasetSchema.safeParse(json, { reportInput: true });
  if (!parsed.success) throw new ValidationError(what, zodIssues(parsed.error));
  const file = parsed.data;
  const issues: Issue[] = [];

  // Countries of the dataset: the listed ones, or all of ISO 3166-1.
  let countries: SimCountry[] = [...COUNTRIES];
  if (file.countries !== undefined) {
    const listed = new Set<string>();
    file.countries.forEach((code, i) => {
      const country = findCountry(code);
      if (country === undefined)
        issues.push(issue(['countries', i], 'unknown_country', `${code} is not an ISO 3166-1 alpha-3 code`));
      else if (listed.has(country.code))
        issues.push(issue(['countries', i], 'duplicate', `${country.code} is listed twice`));
      else listed.add(country.code);
    });
    countries = COUNTRIES.filter((c) => listed.has(c.code));
  }
  const countryCodes = new Set(countries.map((c) => c.code));

  // Course files, each read once however many events use it.
  const files = new Map<string, Promise<LoadedCourseFile>>();
  for (const event of file.events) {
    const xml = event.courses?.iofXml;
    if (xml === undefined) continue;
    const path = resolve(baseDir, xml);
    if (!files.has(path)) files.set(path, readCourseFile(path));
  }
  const loaded = new Map<string, LoadedCourseFile>();
  for (const [path, pending] of files) loaded.set(path, await pending);

  const eventIdAt = new Map<number, number>();
  const classIdAt = new Map<number, string>();
  const drafts: {
    event: EventEntry;
    race?: RaceCourseData;
    fileAssignments: ClassCourseAssignment[];
    classes: ClassDraft[];
  }[] = [];

  file.events.forEach((event, i) => {
    const at: PathPart[] = ['events', i];
    const seen = eventIdAt.get(event.id);
    if (seen !== undefined)
      issues.push(issue([...at, 'id'], 'duplicate_id', `event id ${event.id} is also used by events[${seen}]`));
    else eventIdAt.set(event.id, i);

    const country = findCountry(event.country);
    if (country === undefined) {
      issues.push(issue([...at, 'country'], 'unknown_country', `${event.country} is not an ISO 3166-1 alpha-3 code`));
    } else if (!countryCodes.has(country.code)) {
      issues.push(issue([...at, 'country'], 'country_not_listed', `${country.code} is not among the file's countries`));
    }
    if (Date.parse(event.end) <= Date.parse(event.start)) {
      issues.push(issue([...at, 'end'], 'end_before_start', `must be after start (${event.start})`));
    }

    let race: RaceCourseData | undefined;
    let fileAssignments: ClassCourseAssignment[] = [];
    if (event.courses !== undefined) {
      const courseAt: PathPart[] = [...at, 'courses'];
      if (event.courses.iofXml !== undefined) {
        const courseFile = loaded.get(resolve(baseDir, event.courses.iofXml));
        race = courseFile && raceFromFile(courseFile, event.courses, courseAt, issues);
        if (race) {
          fileAssignments = race.classAssignments;
          race.classAssignments = [];
        }
      } else {
        race = inlineRace(event.courses, courseAt, issues);
      }
    }

    const classes = classDrafts(event, race, fileAssignments, at);
    const names = new Map<string, number>();
    classes.forEach((c, j) => {
      if (event.classes === undefined) return;
      const name = normalName(c.name);
      const other = names.get(name);
      if (other !== undefined)
        issues.push(issue([...c.path, 'name'], 'duplicate_name', `class ${c.name} is also classes[${other}]`));
      else names.set(name, j);
      if (c.id !== undefined) {
        const where = classIdAt.get(c.id);
        if (where !== undefined)
          issues.push(issue([...c.path, 'id'], 'duplicate_id', `class id ${c.id} is also used by ${where}`));
        else classIdAt.set(c.id, pathText(c.path) ?? '');
      }
      c.courses?.forEach((courseName, k) => {
        if (event.courses === undefined) {
          issues.push(issue([...c.path, 'courses'], 'no_courses', 'the event has no courses to assign'));
        } else if (race && !race.courses.some((course) => course.name === courseName)) {
          issues.push(
            issue([...c.path, 'courses', k], 'unknown_course', `the event has no course named ${courseName}`),
          );
        }
      });
    });
    if (event.hasValidMapAndCourses === true && event.courses === undefined) {
      issues.push(issue([...at, 'hasValidMapAndCourses'], 'no_courses', 'is true but the event has no courses'));
    }
    const draft: (typeof drafts)[number] = { event, fileAssignments, classes };
    if (race) draft.race = race;
    drafts.push(draft);
  });

  // Searchability depends on defaults, so it is checked once they are known (below) but reported with the rest.
  const events: SimEvent[] = [];
  let nextClassId = GENERATED_CLASS_ID_BASE + 1;
  for (const id of classIdAt.keys()) if (id >= nextClassId) nextClassId = id + 1;
  drafts.forEach(({ event, race, fileAssignments, classes }, i) => {
    const simClasses: SimClass[] = [];
    const assignments: ClassCourseAssignment[] = [];
    for (const draft of classes) {
      let id = draft.id;
      if (id === undefined) {
        while (classIdAt.has(nextClassId)) nextClassId++;
        id = nextClassId++;
      }
      const cls: SimClass = { id, name: draft.name };
      if (draft.shortName !== undefined) cls.shortName = draft.shortName;
      simClasses.push(cls);
      if (race) assignments.push(...assignmentsFor(draft, id, race, fileAssignments));
    }
    if (race) race.classAssignments = assignments;

    const hasValidMapAndCourses =
      event.hasValidMapAndCourses ?? (race !== undefined && race.courses.length > 0 && assignments.length > 0);
    const isPublished = event.isPublished ?? true;
    if (event.isSearchable === true && !hasValidMapAndCourses) {
      issues.push(
        issue(
          ['events', i, 'isSearchable'],
          'not_searchable',
          'is true but the event has no valid map and courses (the service never lists those)',
        ),
      );
    }
    const endMs = Date.parse(event.end);
    const sim: SimEvent = {
      id: event.id,
      name: event.name,
      startMs: Date.parse(event.start),
      endMs,
      organisers: event.organisers.map((name) => ({ name })),
      countryCode: event.country.toUpperCase(),
      classes: simClasses,
      properties: (event.properties ?? []).map((p) => ({ key: p.key, value: p.value })),
      participantCount: event.participantCount ?? 0,
      isSearchable: event.isSearchable ?? (hasValidMapAndCourses && isPublished),
      isPublished,
      hasValidMapAndCourses,
      modifiedMs: event.modifiedTime === undefined ? endMs : Date.parse(event.modifiedTime),
    };
    const position = event.position ?? (race ? centroid(race) : undefined);
    if (position) sim.position = { latitude: position.latitude, longitude: position.longitude };
    if (race) sim.courses = race;
    events.push(sim);
  });

  if (issues.length > 0) throw new ValidationError(what, issues);
  return { events, countries };
}
