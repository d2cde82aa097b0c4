/**
 * IOF XML exports as an event-system source: class, entry, start and result lists and course data, IOF 3.0 and 2.0.3,
 * as MeOS, OLA, OE, HELGA, SportOrg and Eventor write them. Lists are streamed (a 50 MB result list is read in bounded
 * memory); course data, which is small and whose courses the class mapping needs whole, is parsed in full.
 */
import { compact } from '../core/compact.js';
import { inputFileSize, readInputChunks, readInputFile } from '../core/files.js';
import { InputError } from '../errors.js';
import { punchedControlCodes } from '../iof/course-controls.js';
import { parseCourseData } from '../iof/read-course-data.js';
import { readEventAndClasses } from '../iof/event-classes/read.js';
import { MAX_STREAM_BYTES } from '../xml/stream.js';
import type { Course, IofClass, IofEventClasses, RaceCourseData, RaceInfo } from '../iof/model.js';
import type { EmsClass, EmsCourse, EmsExport, EmsSource } from './source.js';
import { readEventListExports } from './event-list.js';
import { eventOf, listClass } from './iof-event.js';

/** Files up to this size are read whole; larger ones are streamed. Course data is far below it. */
const WHOLE_FILE_BYTES = 8 * 1024 * 1024;

export interface IofSourceOptions {
  /**
   * The race (stage, day) to take, 1-based, for a multi-race export: the service holds each day of a multi-day event
   * as an event of its own. Default: the whole event.
   */
  race?: number;
}

function emsCourseOf(course: Course, race: RaceCourseData): EmsCourse {
  // Start, finish and crossing points are not in split times either.
  const controls = punchedControlCodes(course, race);
  return compact({
    id: course.id,
    name: course.name,
    length: course.length,
    climb: course.climb,
    numberOfControls: controls.length,
    controls,
  });
}

/** Classes of course data: one per class named in the class assignments, with its course when it has just one. */
function courseDataClasses(race: RaceCourseData, listed: readonly IofClass[]): EmsClass[] {
  const byName = new Map<string, { id?: string; courses: Course[] }>();
  for (const a of race.classAssignments) {
    const name = a.className ?? listed.find((c) => c.id !== undefined && c.id === a.classId)?.name;
    if (name === undefined || name === '') continue;
    const entry = byName.get(name) ?? { ...(a.classId === undefined ? {} : { id: a.classId }), courses: [] };
    const course = race.courses.find((c) => c.name === a.courseName);
    if (course && !entry.courses.includes(course)) entry.courses.push(course);
    byName.set(name, entry);
  }
  return [...byName].map(([name, { id, courses }]) =>
    compact({
      id,
      name,
      // Forked classes run several courses: no single course to compare, so none rather than the first.
      course: courses.length === 1 ? emsCourseOf(courses[0]!, race) : undefined,
      entries: 0,
    }),
  );
}

function pickRace(read: IofEventClasses, race: number | undefined, source: string): RaceInfo | undefined {
  if (race === undefined) return undefined;
  // Races are found by their number; by place only in files that number none (a file with races 3 and 4 has no 1).
  const found =
    read.races.find((r) => r.number === race) ??
    (read.races.every((r) => r.number === undefined) ? read.races[race - 1] : undefined);
  if (!found) {
    throw new InputError(
      source,
      'no_such_race',
      read.races.length === 0
        ? `race ${race} was asked for, but the file describes no races.`
        : `race ${race} was asked for, but the file has ${read.races.length} race(s): ${read.races
            .map((r, i) => `${r.number ?? i + 1}${r.name ? ` (${r.name})` : ''}`)
            .join(', ')}.`,
    );
  }
  return found;
}

/** An export file read once: what the streaming reader found, and the bytes when the file is small enough to hold. */
async function readIofFile(
  path: string,
  signal: AbortSignal | undefined,
): Promise<{ read: IofEventClasses; input: Buffer | string }> {
  // A small file is read once and handed to both readers (course data is parsed whole after the streamed look); a
  // large one, always a list, is streamed from disk in bounded memory. Either way through core's reader, which opens
  // regular files only: a named pipe or device given as an export is refused, never waited on or read for ever.
  const small = (await inputFileSize(path)) <= WHOLE_FILE_BYTES;
  const input = small ? await readInputFile(path, { signal, maxBytes: WHOLE_FILE_BYTES }) : path;
  const chunks = typeof input === 'string' ? readInputChunks(path, { signal, maxBytes: MAX_STREAM_BYTES }) : input;
  const read = await readEventAndClasses(chunks, { source: path, ...(signal ? { signal } : {}) });
  return { read, input };
}

/** The export of one race of a read file (or of the whole event, without a race). */
async function exportOf(
  path: string,
  { read, input }: { read: IofEventClasses; input: Buffer | string },
  race: RaceInfo | undefined,
  signal: AbortSignal | undefined,
): Promise<EmsExport> {
  const format = `IOF ${read.version} ${read.messageType}`;
  const number = raceNumberOf(read, race);
  const raceField = number === undefined ? {} : { race: number };
  if (read.messageType === 'CourseData') {
    const bytes = typeof input === 'string' ? await readInputFile(path, { signal, maxBytes: MAX_STREAM_BYTES }) : input;
    const data = parseCourseData(bytes, path);
    const index = race ? Math.max(0, read.races.indexOf(race)) : 0;
    const courseRace = data.races[index] ?? data.races[0];
    return {
      event: eventOf(read, race),
      classes: courseRace ? courseDataClasses(courseRace, read.classes) : [],
      format,
      source: path,
      ...raceField,
    };
  }
  if (!['ClassList', 'EntryList', 'StartList', 'ResultList', 'EventList'].includes(read.messageType)) {
    throw new InputError(path, 'wrong_message_type', `is an IOF ${read.messageType}, which holds no event classes.`, {
      hint: 'Export a class, entry, start or result list, or course data with class assignments, from the event system.',
    });
  }
  return { event: eventOf(read, race), classes: read.classes.map(listClass), format, source: path, ...raceField };
}

/**
 * The first event of an EventList (the race asked for, or the whole event), with the service event id Eventor stores
 * for the race: a portal's list given to `link` links by that id before any search.
 */
async function eventListExport(
  path: string,
  input: Buffer | string,
  race: number | undefined,
  signal: AbortSignal | undefined,
): Promise<EmsExport | undefined> {
  // The bytes of a small file, already read for the first look, are read again from memory, not from disk.
  const bytes = typeof input === 'string' ? undefined : input;
  const first = (await readEventListExports(path, { signal, bytes })).filter((x) => x.event === 1);
  // A multi-race event without a race asked for is the whole event, as before: no one race's id to take.
  const chosen = race === undefined ? (first.length === 1 ? first[0] : undefined) : first.find((x) => x.race === race);
  if (!chosen) return undefined;
  const { export: read, race: number, serviceEventId } = chosen;
  return {
    ...read,
    source: path,
    ...(serviceEventId === undefined ? {} : { serviceEventId }),
    ...(number === undefined ? {} : { race: number }),
  };
}

/**
 * The race's number, for a lookup by race: the one asked for, or the only race a file describes when it numbers it.
 * A file that says nothing of races leaves it unknown (a one-day start list of a multi-day event often does).
 */
function raceNumberOf(read: IofEventClasses, race: RaceInfo | undefined): number | undefined {
  if (race) return race.number ?? read.races.indexOf(race) + 1;
  const only = read.races.length === 1 ? read.races[0] : undefined;
  return only?.number;
}

/** An IOF XML file (3.0 or 2.0.3) exported by an event system, read when `read()` is called. */
export function iofEmsSource(path: string, options: IofSourceOptions = {}): EmsSource {
  return {
    source: path,
    async read({ signal } = {}): Promise<EmsExport> {
      const file = await readIofFile(path, signal);
      const race = pickRace(file.read, options.race, path);
      if (file.read.messageType === 'EventList') {
        const listed = await eventListExport(path, file.input, options.race, signal);
        if (listed) return listed;
      }
      return exportOf(path, file, race, signal);
    },
  };
}

/** One race of a multi-race export: its number (its place when the file numbers none) and its export. */
export interface IofRaceExport {
  /** Absent when the file describes one race or none: the export is then the whole event's. */
  race?: number;
  export: EmsExport;
}

/**
 * Every race of an IOF export, each as `iofEmsSource(path, { race })` reads it, or the one export of a file with one
 * race or none (as `iofEmsSource(path)` reads it), reading the file once: a portal's folder holds thousands of them.
 */
export async function readIofRaces(
  path: string,
  options: { signal?: AbortSignal | undefined } = {},
): Promise<IofRaceExport[]> {
  const file = await readIofFile(path, options.signal);
  const races = file.read.races;
  if (races.length <= 1) return [{ export: await exportOf(path, file, undefined, options.signal) }];
  const out: IofRaceExport[] = [];
  for (const [i, race] of races.entries()) {
    out.push({ race: race.number ?? i + 1, export: await exportOf(path, file, race, options.signal) });
  }
  return out;
}
