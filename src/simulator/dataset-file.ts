/**
 * The JSON dataset format (docs/simulator-dataset.md): lets a user serve their own event from the simulator, with
 * courses written inline or read from an IOF XML CourseData file. Every problem is reported with its path in the file
 * (`events[0].courses.courses[1].controls[3]`), all of them at once, as a `ValidationError`.
 */
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { z } from 'zod';
import { InputError, ValidationError, type Issue } from '../errors.js';
import { distanceM } from '../geo/distance.js';
import { parseCourseData } from '../iof/course-data.js';
import type {
  ClassCourseAssignment,
  Control,
  ControlType,
  Course,
  CourseControl,
  CourseData,
  RaceCourseData,
} from '../iof/model.js';
import { readInputFile } from '../core/files.js';
import { issueAt as issue, pathText, zodIssues as zodIssuesOf, type PathPart } from '../core/zod-issues.js';
import { COUNTRIES, findCountry } from './countries.js';
import type { SimClass, SimCountry, SimDataset, SimEvent } from './model.js';

/** The only format version so far; a file states it so that a later format can change without guessing. */
export const DATASET_FORMAT_VERSION = 1;

/** Map scale of inline courses when the file gives none. */
export const DEFAULT_MAP_SCALE = 10_000;

/** Generated class ids start above this (and above every id the file gives), far from typical hand-written ids. */
export const GENERATED_CLASS_ID_BASE = 1_000_000;

const CONTROL_TYPES = [
  'Control',
  'Start',
  'Finish',
  'CrossingPoint',
  'EndOfMarkedRoute',
] as const satisfies readonly ControlType[];

// ---------------------------------------------------------------------------------------------------------------------
// Schema: the shape of the file. Cross-field rules (duplicates, references, end after start) come after it.

const utcDateTime = z.iso.datetime({
  error: 'must be an ISO 8601 UTC date-time ending in Z, such as 2025-05-17T09:00:00Z',
});
const latitude = z.number().min(-90).max(90);
const longitude = z.number().min(-180).max(180);
/** Control codes are strings (`031` is not 31), but a hand-written file may well say 31. */
const controlId = z.union([z.string().trim().min(1), z.number().int().nonnegative().transform(String)]);

const controlSchema = z.strictObject({
  id: controlId,
  type: z.enum(CONTROL_TYPES).optional(),
  lat: latitude,
  lng: longitude,
});

const inlineCourseSchema = z.strictObject({
  name: z.string().trim().min(1),
  controls: z.array(controlId).min(2),
  length: z.number().nonnegative().optional(),
  climb: z.number().nonnegative().optional(),
});

const coursesSchema = z
  .strictObject({
    iofXml: z.string().trim().min(1).optional(),
    raceNumber: z.number().int().positive().optional(),
    mapScale: z.number().int().positive().optional(),
    controls: z.array(controlSchema).min(1).optional(),
    courses: z.array(inlineCourseSchema).min(1).optional(),
  })
  .superRefine((v, ctx) => {
    const inline = v.controls !== undefined || v.courses !== undefined;
    if (v.iofXml !== undefined && inline) {
      ctx.addIssue({ code: 'custom', message: 'give either iofXml or controls and courses, not both', path: [] });
    } else if (v.iofXml === undefined && !inline) {
      ctx.addIssue({ code: 'custom', message: 'give iofXml (a course file) or controls and courses', path: [] });
    } else if (inline) {
      if (v.controls === undefined)
        ctx.addIssue({ code: 'custom', message: 'is required with courses', path: ['controls'] });
      if (v.courses === undefined)
        ctx.addIssue({ code: 'custom', message: 'is required with controls', path: ['courses'] });
      if (v.raceNumber !== undefined) {
        ctx.addIssue({ code: 'custom', message: 'only applies to an iofXml course file', path: ['raceNumber'] });
      }
    } else if (v.mapScale !== undefined) {
      ctx.addIssue({
        code: 'custom',
        message: 'only applies to inline courses (a course file has its own map)',
        path: ['mapScale'],
      });
    }
  });

const classSchema = z.strictObject({
  id: z.number().int().positive().optional(),
  name: z.string().trim().min(1),
  shortName: z.string().trim().min(1).optional(),
  courses: z.array(z.string().trim().min(1)).min(1).optional(),
});

const eventSchema = z.strictObject({
  id: z.number().int().positive(),
  name: z.string().trim().min(1),
  start: utcDateTime,
  end: utcDateTime,
  organisers: z.array(z.string().trim().min(1)),
  country: z.string().regex(/^[A-Za-z]{3}$/, 'must be an ISO 3166-1 alpha-3 code, such as SWE'),
  position: z.strictObject({ latitude, longitude }).optional(),
  participantCount: z.number().int().nonnegative().optional(),
  isPublished: z.boolean().optional(),
  isSearchable: z.boolean().optional(),
  hasValidMapAndCourses: z.boolean().optional(),
  modifiedTime: utcDateTime.optional(),
  properties: z.array(z.strictObject({ key: z.string().min(1), value: z.string() })).optional(),
  classes: z.array(classSchema).optional(),
  courses: coursesSchema.optional(),
});

const datasetSchema = z.strictObject({
  formatVersion: z.literal(DATASET_FORMAT_VERSION, {
    error: `must be ${DATASET_FORMAT_VERSION}, the only format version`,
  }),
  events: z.array(eventSchema),
  countries: z
    .array(z.string().regex(/^[A-Za-z]{3}$/, 'must be an ISO 3166-1 alpha-3 code, such as SWE'))
    .min(1)
    .optional(),
});

/** The dataset file as written (after the schema). */
export type DatasetFile = z.output<typeof datasetSchema>;
type EventEntry = DatasetFile['events'][number];
type CoursesEntry = NonNullable<EventEntry['courses']>;

// ---------------------------------------------------------------------------------------------------------------------
// Issues

function zodIssues(error: z.ZodError): Issue[] {
  return zodIssuesOf(error, 'is not a field of this format (see docs/simulator-dataset.md)');
}

// ---------------------------------------------------------------------------------------------------------------------
// Course files

interface LoadedCourseFile {
  path: string;
  data?: CourseData;
  error?: string;
}

async function readCourseFile(path: string): Promise<LoadedCourseFile> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { path, error: `cannot read ${path}${code ? ` (${code})` : ''}` };
  }
  try {
    return { path, data: parseCourseData(bytes, path) };
  } catch (err) {
    if (err instanceof InputError) return { path, error: err.message };
    throw err;
  }
}

/** Degrees, not the projected metres some old course setters write into `Position`. */
function isDegrees(p: { lat: number; lng: number } | undefined): boolean {
  return p !== undefined && Math.abs(p.lat) <= 90 && Math.abs(p.lng) <= 180;
}

/** The race of a course file an event uses, after checks that make it usable as simulator courses. */
function raceFromFile(
  file: LoadedCourseFile,
  entry: CoursesEntry,
  at: PathPart[],
  issues: Issue[],
): RaceCourseData | undefined {
  if (file.error !== undefined || file.data === undefined) {
    issues.push(issue([...at, 'iofXml'], 'unreadable_course_file', file.error ?? `cannot read ${file.path}`));
    return undefined;
  }
  const races = file.data.races;
  // Races are found by their RaceNumber, or by position when the file does not number them.
  const race =
    entry.raceNumber === undefined
      ? races[0]
      : (races.find((r) => r.raceNumber === entry.raceNumber) ??
        (races.some((r) => r.raceNumber !== undefined) ? undefined : races[entry.raceNumber - 1]));
  if (race === undefined) {
    issues.push(
      entry.raceNumber === undefined
        ? issue([...at, 'iofXml'], 'no_courses', `${file.path} holds no race with courses`)
        : issue(
            [...at, 'raceNumber'],
            'no_such_race',
            `${file.path} holds ${races.length} race(s), not race ${entry.raceNumber}`,
          ),
    );
    return undefined;
  }
  if (race.courses.length === 0) {
    issues.push(issue([...at, 'iofXml'], 'no_courses', `${file.path} holds no courses`));
    return undefined;
  }
  const defined = new Map(race.controls.map((c) => [c.id, c]));
  for (const control of race.controls) {
    if (!isDegrees(control.position)) {
      issues.push(
        issue(
          [...at, 'iofXml'],
          'no_geographic_position',
          `control ${control.id} in ${file.path} has no WGS84 position in degrees; the simulator places courses by ` +
            'latitude and longitude, so export the courses georeferenced',
        ),
      );
      return undefined;
    }
  }
  for (const course of race.courses) {
    for (const cc of course.controls) {
      if (!defined.has(cc.controlId)) {
        issues.push(
          issue(
            [...at, 'iofXml'],
            'unknown_control',
            `course ${course.name} in ${file.path} names control ${cc.controlId}, which the file does not define`,
          ),
        );
        return undefined;
      }
    }
  }
  // Each event gets its own copy: several events may use one file, and assignments are rewritten per event.
  return structuredClone(race);
}

// ---------------------------------------------------------------------------------------------------------------------
// Inline courses

/** `S`, `S1` start; `F`, `F1` finish; everything else a control: what course setters write. */
function defaultControlType(id: string): ControlType {
  if (/^S\d*$/i.test(id)) return 'Start';
  if (/^F\d*$/i.test(id)) return 'Finish';
  return 'Control';
}

function inlineRace(entry: CoursesEntry, at: PathPart[], issues: Issue[]): RaceCourseData | undefined {
  const controls: Control[] = [];
  const byId = new Map<string, Control>();
  (entry.controls ?? []).forEach((c, i) => {
    if (byId.has(c.id)) {
      issues.push(
        issue([...at, 'controls', i, 'id'], 'duplicate_id', `control ${c.id} is defined twice in this event`),
      );
      return;
    }
    const control: Control = {
      id: c.id,
      type: c.type ?? defaultControlType(c.id),
      position: { lat: c.lat, lng: c.lng },
    };
    byId.set(c.id, control);
    controls.push(control);
  });
  const courses: Course[] = [];
  const names = new Set<string>();
  (entry.courses ?? []).forEach((c, i) => {
    if (names.has(c.name)) {
      issues.push(
        issue([...at, 'courses', i, 'name'], 'duplicate_name', `course ${c.name} is defined twice in this event`),
      );
      return;
    }
    names.add(c.name);
    const courseControls: CourseControl[] = [];
    let previous: Control | undefined;
    let length = 0;
    c.controls.forEach((id, j) => {
      const control = byId.get(id);
      if (control === undefined) {
        issues.push(
          issue(
            [...at, 'courses', i, 'controls', j],
            'unknown_control',
            `control ${id} is not among this event's controls`,
          ),
        );
        return;
      }
      const cc: CourseControl = { controlId: id, type: control.type };
      if (previous?.position && control.position) {
        cc.legLength = Math.round(distanceM(previous.position, control.position));
        length += cc.legLength;
      }
      courseControls.push(cc);
      previous = control;
    });
    const course: Course = {
      name: c.name,
      length: c.length ?? length,
      numberOfControls: courseControls.filter((cc) => cc.type === 'Control').length,
      controls: courseControls,
    };
    if (c.climb !== undefined) course.climb = c.climb;
    courses.push(course);
  });
  return { maps: [{ scale: entry.mapScale ?? DEFAULT_MAP_SCALE }], controls, courses, classAssignments: [] };
}

// ---------------------------------------------------------------------------------------------------------------------
// Classes and their courses

interface ClassDraft {
  id?: number;
  name: string;
  shortName?: string;
  /** Explicit course names from the file, with their path for error messages. */
  courses?: string[];
  path: PathPart[];
}

function normalName(name: string): string {
  return name.trim().toLowerCase();
}

/** The event's classes: as written, or made from the course file's assignments, or one per course. */
function classDrafts(
  event: EventEntry,
  race: RaceCourseData | undefined,
  fileAssignments: readonly ClassCourseAssignment[],
  at: PathPart[],
): ClassDraft[] {
  if (event.classes !== undefined) {
    return event.classes.map((c, i) => {
      const draft: ClassDraft = { name: c.name, path: [...at, 'classes', i] };
      if (c.id !== undefined) draft.id = c.id;
      if (c.shortName !== undefined) draft.shortName = c.shortName;
      if (c.courses !== undefined) draft.courses = c.courses;
      return draft;
    });
  }
  if (race === undefined) return [];
  const named = new Map<string, ClassDraft>();
  for (const a of fileAssignments) {
    const name = a.className?.trim();
    if (name && !named.has(normalName(name))) named.set(normalName(name), { name, path: [...at, 'courses', 'iofXml'] });
  }
  if (named.size > 0) return [...named.values()];
  return race.courses.map((c) => ({ name: c.name, path: [...at, 'courses'] }));
}

/** Assignments for one class: its explicit courses, else the course file's, else a course named like the class. */
function assignmentsFor(
  draft: ClassDraft,
  classId: number,
  race: RaceCourseData,
  fileAssignments: readonly ClassCourseAssignment[],
): ClassCourseAssignment[] {
  const base = { classId: String(classId), className: draft.name };
  if (draft.courses !== undefined) return draft.courses.map((courseName) => ({ ...base, courseName }));
  const fromFile = fileAssignments.filter(
    (a) => a.className !== undefined && normalName(a.className) === normalName(draft.name),
  );
  if (fromFile.length > 0) {
    const out: ClassCourseAssignment[] = [];
    for (const a of fromFile) {
      // A whole course family (`courseName` empty) becomes one assignment per course of the family.
      const names =
        a.courseName === '' && a.courseFamily !== undefined
          ? race.courses.filter((c) => c.courseFamily === a.courseFamily).map((c) => c.name)
          : [a.courseName];
      for (const courseName of names) {
        const assignment: ClassCourseAssignment = { ...base, courseName };
        if (a.allowedOnLegs !== undefined) assignment.allowedOnLegs = [...a.allowedOnLegs];
        out.push(assignment);
      }
    }
    return out;
  }
  const sameName = race.courses.find((c) => normalName(c.name) === normalName(draft.name));
  return sameName ? [{ ...base, courseName: sameName.name }] : [];
}

function centroid(race: RaceCourseData): { latitude: number; longitude: number } | undefined {
  const positions = race.controls.flatMap((c) => (c.position ? [c.position] : []));
  if (positions.length === 0) return undefined;
  const lat = positions.reduce((s, p) => s + p.lat, 0) / positions.length;
  const lng = positions.reduce((s, p) => s + p.lng, 0) / positions.length;
  return { latitude: Math.round(lat * 1e6) / 1e6, longitude: Math.round(lng * 1e6) / 1e6 };
}

// ---------------------------------------------------------------------------------------------------------------------

/**
 * Validates a parsed dataset file and builds the simulator's dataset from it. Relative `iofXml` paths resolve against
 * `baseDir` (the folder of the dataset file). Throws `ValidationError` listing every problem with its path.
 */
export async function parseDataset(json: unknown, baseDir: string): Promise<SimDataset> {
  return buildDataset(json, baseDir, 'Dataset');
}

/** Reads a dataset file (docs/simulator-dataset.md); `InputError` when it is not readable JSON, else as `parseDataset`. */
export async function loadDatasetFile(path: string): Promise<SimDataset> {
  const text = (await readInputFile(path, { what: 'the dataset file' })).toString('utf8');
  let json: unknown;
  try {
    // Editors on Windows like to start JSON with a byte order mark, which JSON.parse refuses.
    json = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    throw new InputError(path, 'not_json', `not valid JSON: ${(err as Error).message}`, { cause: err });
  }
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
