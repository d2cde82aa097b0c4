/**
 * `publishJob`: an organiser's course file and map sent to the service as an importable event (the Event Integration
 * API: observed, not published), or the one sent before updated. Its steps: `preparePublish` reads and checks every
 * input before any request (the course file against IOF.xsd, the map placed with every control on it, the upload's
 * size), `decide` finds the importable event of an earlier publish in the state, then `createOrUpdate`, the upload,
 * the service's validation and, for an event a person has imported once, the import again; `--check` compares the
 * event with the course file. The job prints nothing: it reports its steps through `onStep`.
 *
 * Crash safety: the create's answer is recorded in the state before anything else is sent, so a publish killed after
 * it and run again updates that importable event. A publish killed after the create left and before its answer was
 * recorded leaves one draft the person never imports (the create is never repeated: see importable-events.ts).
 */
import { mkdir, readdir } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import type { LiveloxClient } from '../../client.js';
import { readInputFile, unreadableFile, writeFileAtomic } from '../../core/files.js';
import { buildZip } from '../../core/zip.js';
import { AuthError, NotEventAdministratorError, NotFoundError, ScopeError } from '../../errors.js';
import type { ValidateOptions } from '../../iof/validate/validate.js';
import { loadMap } from '../../maps/load-map.js';
import type { MapInput } from '../../maps/types.js';
import {
  importableEventState,
  type ImportableEvent,
  type ImportableEventLink,
  type ImportableEventValidation,
} from '../../resources/importable-event-schemas.js';
import {
  MAX_UPLOAD_BYTES,
  UPLOAD_ZIP_NAME,
  prepareUpload,
  type PreparedUpload,
  type UploadMode,
} from '../../resources/importable-events.js';
import {
  publishStateOf,
  type PublishedEvent,
  type PublishLinks,
  type PublishState,
  type PublishStateFile,
} from '../../store/publish-state.js';
import { checkCourses, type CheckCoursesResult } from '../check-courses.js';
import { readPublishCourseFile, type PublishCourseFile } from './course-file.js';
import { buildPublishFiles, publishKey, type PublishFiles } from './object.js';

export interface PublishJobOptions {
  /** Path of the course file: IOF XML 3.0 CourseData, or 2.0.3 (converted). */
  courseFile: string;
  map: MapInput;
  /** The importable event's name. Default: the course file's event name. */
  name?: string;
  /** The race of a multi-race course file. Default: the first. */
  race?: number;
  /** A folder of course prints (one file per course) sent with the map. */
  coursePrints?: string;
  /** Where the importable events published are kept (read-only for a dry run). */
  state: PublishStateFile;
  /** Publish as another importable event even when this file was published before. */
  asNew?: boolean;
  /** Send nothing: write the object (`importable-event.json`) and the zip into this folder. */
  dryRunFolder?: string;
  /** After an import, compare the imported event's courses with the course file (`checkCourses`). */
  check?: boolean;
  uploadMode?: UploadMode;
  validation?: Pick<ValidateOptions, 'schemaPath' | 'dtdPath' | 'env'>;
  onStep?: (step: PublishStep) => void;
  signal?: AbortSignal;
}

/** A step done, as it happens (for progress lines, and the crash test's kill points). */
export type PublishStep =
  | { step: 'prepared'; action: 'create' | 'update'; dryRun: boolean; files: number; bytes: number }
  | { step: 'created' | 'updated' | 'uploaded' | 'validated' | 'imported'; importableId: string }
  /**
   * Before an update: the importable event recorded for this event name and race was published from another file
   * (names like `Event` are common): this publish updates it. `--new` (`asNew`) publishes as another event instead.
   */
  | { step: 'other-file'; importableId: string; recordedFile: string; file: string };

export interface PublishResult {
  action: 'create' | 'update';
  dryRun: boolean;
  key: string;
  name: string;
  /** Absent in a dry run that would create. */
  importableId?: string;
  /** The course file was IOF 2.0.3 and was sent converted to 3.0. */
  convertedFrom?: '2.0.3';
  /** The course file's control positions were in this grid and were sent as WGS 84 degrees. */
  positionsConvertedFrom?: number | string;
  /** The importable event recorded for the file was gone from the service (404): a new one was created. */
  replacedGone?: string;
  state?: PublishState;
  /** The service event it was imported as. */
  eventId?: number;
  links: PublishLinks;
  validation?: ImportableEventValidation;
  files: Array<{ name: string; bytes: number }>;
  map: { georeference: string; controlsChecked: number; fitRmsM?: number; scale: number };
  /** Paths written by a dry run. */
  written?: { object: string; zip: string };
  check?: CheckCoursesResult;
}

/**
 * Publishes, or with `dryRunFolder` says what it would do (the client may then be undefined: nothing is sent). Throws, before any request, `InputError` and
 * `ValidationError` for bad input (see `readPublishCourseFile`, `loadMap`); later, the client's errors
 * (`NotEventAdministratorError` when the recorded event belongs to someone else) and `StateError`.
 */
export async function publishJob(
  client: LiveloxClient | undefined,
  options: PublishJobOptions,
): Promise<PublishResult> {
  if (client === undefined && options.dryRunFolder === undefined) throw new TypeError('publishJob needs a client');
  const prepared = await preparePublish(options);
  if (options.dryRunFolder !== undefined) return dryRun(options, options.dryRunFolder, prepared);
  // Held from before the lookup until the last record: two publishes at once would each find no row and each create.
  const state = publishStateOf(options.state);
  state.lock({ pid: process.pid, host: hostname(), since: new Date().toISOString() });
  try {
    const recorded = options.asNew ? undefined : state.latest(prepared.key);
    const base = started(prepared, recorded, options);
    const sent = await send(client!, options, prepared, recorded);
    return { ...base, ...sent };
  } finally {
    state.unlock();
  }
}

/** The dry run: what would be sent, written to a folder; the state read only. */
async function dryRun(options: PublishJobOptions, folder: string, prepared: Prepared): Promise<PublishResult> {
  const recorded = options.asNew ? undefined : publishStateOf(options.state).latest(prepared.key);
  const base = started(prepared, recorded, options);
  const written = await writeDryRun(folder, prepared);
  return { ...base, ...(recorded ? { importableId: recorded.importableId } : {}), written };
}

/** The result so far, and the `prepared` step said. */
function started(prepared: Prepared, recorded: PublishedEvent | undefined, options: PublishJobOptions): PublishResult {
  const action = recorded ? 'update' : 'create';
  // The key is the event's name and race, not the file: another file of the same name is said before it is updated.
  if (recorded && resolve(recorded.file) !== resolve(options.courseFile)) {
    options.onStep?.({
      step: 'other-file',
      importableId: recorded.importableId,
      recordedFile: recorded.file,
      file: options.courseFile,
    });
  }
  const base = baseResult(prepared, action, options);
  options.onStep?.({
    step: 'prepared',
    action,
    dryRun: base.dryRun,
    files: prepared.files.files.length,
    bytes: base.files.reduce((n, f) => n + f.bytes, 0),
  });
  return base;
}

interface Prepared {
  key: string;
  name: string;
  course: PublishCourseFile;
  files: PublishFiles;
  /** The upload's requests built now, their real sizes checked (a zip can outgrow its files): sent as they are. */
  upload: PreparedUpload;
  map: PublishResult['map'];
}

/** Every input read and checked, the object and files built: nothing sent. */
async function preparePublish(options: PublishJobOptions): Promise<Prepared> {
  const signal = options.signal === undefined ? {} : { signal: options.signal };
  const raw = await readInputFile(options.courseFile, { ...signal, what: 'the course file' });
  const course = await readPublishCourseFile(
    { name: options.courseFile, bytes: raw },
    {
      race: options.race,
      positionsSystem: options.map.positionsSystem,
      ...(options.validation ? { validation: options.validation } : {}),
    },
  );
  // The upload's limit is the image's: an image the upload would refuse is refused now, unread.
  const maxImageBytes = Math.min(options.map.maxImageBytes ?? MAX_UPLOAD_BYTES, MAX_UPLOAD_BYTES);
  const placed = await loadMap({ ...options.map, maxImageBytes }, course.race, signal);
  const image = await readInputFile(options.map.image, { ...signal, what: 'the map image', maxBytes: maxImageBytes });
  const prints = options.coursePrints === undefined ? [] : await readPrints(options.coursePrints, signal);
  const name = options.name ?? (course.data.event.name.trim() || 'Courses');
  const files = buildPublishFiles({
    name,
    courseFile: { name: options.courseFile, bytes: course.bytes },
    map: { path: options.map.image, bytes: image, placed, name },
    prints,
  });
  return {
    key: publishKey(course),
    name,
    course,
    files,
    upload: prepareUpload(files.files, options.uploadMode ?? 'zip'),
    map: {
      georeference: options.map.georeference?.kind ?? 'courseFile',
      controlsChecked: placed.controlsChecked,
      scale: placed.scale,
      ...(placed.fit ? { fitRmsM: placed.fit.rmsM } : {}),
    },
  };
}

async function readPrints(
  dir: string,
  signal: { signal?: AbortSignal },
): Promise<Array<{ name: string; bytes: Buffer }>> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (err) {
    throw unreadableFile(dir, err, { what: 'the folder of course prints' });
  }
  const names = entries
    .filter((e) => e.isFile() && !e.name.startsWith('.'))
    .map((e) => e.name)
    .sort();
  const out = [];
  for (const name of names) {
    out.push({ name, bytes: await readInputFile(join(dir, name), { ...signal, what: 'a course print' }) });
  }
  return out;
}

function baseResult(p: Prepared, action: 'create' | 'update', options: PublishJobOptions): PublishResult {
  return {
    action,
    dryRun: options.dryRunFolder !== undefined,
    key: p.key,
    name: p.name,
    ...(p.course.convertedFrom ? { convertedFrom: p.course.convertedFrom } : {}),
    ...(p.course.positionsConvertedFrom === undefined
      ? {}
      : { positionsConvertedFrom: p.course.positionsConvertedFrom }),
    links: {},
    files: p.files.files.map((f) => ({ name: f.name, bytes: f.bytes.length })),
    map: p.map,
  };
}

async function writeDryRun(folder: string, p: Prepared): Promise<{ object: string; zip: string }> {
  await mkdir(folder, { recursive: true });
  const object = join(folder, 'importable-event.json');
  const zip = join(folder, UPLOAD_ZIP_NAME);
  await writeFileAtomic(object, `${JSON.stringify(p.files.object, null, 2)}\n`);
  // The zip that would be sent; per-file mode sends no zip, so the files are written zipped for a look.
  await writeFileAtomic(zip, p.upload.mode === 'zip' ? p.upload.requests[0]!.bytes : buildZip(p.files.files));
  return { object, zip };
}

type Sent = Pick<
  PublishResult,
  'action' | 'importableId' | 'state' | 'eventId' | 'links' | 'validation' | 'check' | 'replacedGone'
>;

/** The requests: create or update, upload, validation, import when imported before, the check. */
async function send(
  client: LiveloxClient,
  options: PublishJobOptions,
  p: Prepared,
  recorded: PublishedEvent | undefined,
): Promise<Sent> {
  const call = options.signal === undefined ? {} : { signal: options.signal };
  const target = await createOrUpdate(client, options, p, recorded);
  const id = target.id;
  options.onStep?.({ step: target.action === 'create' ? 'created' : 'updated', importableId: id });
  await client.importableEvents.uploadFiles(id, p.upload, call);
  options.onStep?.({ step: 'uploaded', importableId: id });
  const validation = await client.importableEvents.validationErrors(id, call);
  options.onStep?.({ step: 'validated', importableId: id });
  let link = target.link;
  let state: PublishState = 'invalid';
  let eventId = target.eventId;
  // Decided by the create's or the PUT's answer, as the spec's re-publish says [client]: an import URL still there,
  // the event was never imported (send the person to it again); none, a person imported it once, so PUT .../import.
  // The GET's importedEvent only gives the event id: the PUT is the newer word.
  if (validation.errors.length === 0 && importableEventState({ link }) === 'waiting-for-browser-step') {
    state = 'waiting-for-browser-step';
  } else if (validation.errors.length === 0) {
    link = await client.importableEvents.import(id, call);
    state = 'imported';
    options.onStep?.({ step: 'imported', importableId: id });
  }
  const links = linksOf(link);
  record(options, p, id, state, eventId, links);
  if (state === 'imported' && eventId === undefined) {
    eventId = (await client.importableEvents.get(id, call)).importedEvent?.id;
    if (eventId !== undefined) record(options, p, id, state, eventId, links);
  }
  const check =
    options.check && state === 'imported' && eventId !== undefined
      ? await runCheck(client, options, p, eventId)
      : undefined;
  return {
    action: target.action,
    importableId: id,
    state,
    ...(eventId === undefined ? {} : { eventId }),
    links,
    validation,
    ...(check ? { check } : {}),
    ...(target.replacedGone ? { replacedGone: target.replacedGone } : {}),
  };
}

interface Target {
  action: 'create' | 'update';
  id: string;
  /** The create's or the PUT's answer: its import URL says whether a person imported it (see `send`). */
  link: ImportableEventLink;
  eventId?: number;
  replacedGone?: string;
}

/**
 * Updates the recorded importable event (after a get: imported or not, gone or another's), or creates one and
 * records it at once, before anything else is sent.
 */
async function createOrUpdate(
  client: LiveloxClient,
  options: PublishJobOptions,
  p: Prepared,
  recorded: PublishedEvent | undefined,
): Promise<Target> {
  const call = options.signal === undefined ? {} : { signal: options.signal };
  let replacedGone: string | undefined;
  if (recorded !== undefined) {
    const recordedId = recorded.importableId;
    const current = await currentEvent(client, recordedId, call);
    if (current === undefined && recorded.state === 'created') {
      // A guess: the observed spec says a GET answers 404 when "the importable event or its files were removed", so
      // one created and never given its files (a run killed after the create) may answer 404 while it is there. Its
      // files were never confirmed: the PUT decides, and only a 404 on it too means gone. Tolerates either answer.
      const link = await updateUnlessGone(client, recordedId, p, call);
      if (link !== undefined) return { action: 'update', id: recordedId, link };
    }
    if (current !== undefined) {
      const link = await client.importableEvents.update(recordedId, p.files.object, call);
      const eventId = current.importedEvent?.id;
      return { action: 'update', id: recordedId, link, ...(eventId === undefined ? {} : { eventId }) };
    }
    replacedGone = recordedId;
  }
  const link = await client.importableEvents.create(p.files.object, call);
  // Recorded before the upload: from here on, a publish run again updates this importable event.
  record(options, p, link.id, 'created', undefined, linksOf(link), replacedGone);
  return { action: 'create', id: link.id, link, ...(replacedGone ? { replacedGone } : {}) };
}

/** The PUT of the recorded importable event; undefined when it answers 404 (gone). */
async function updateUnlessGone(
  client: LiveloxClient,
  id: string,
  p: Prepared,
  call: { signal?: AbortSignal },
): Promise<ImportableEventLink | undefined> {
  try {
    return await client.importableEvents.update(id, p.files.object, call);
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
}

/**
 * The recorded importable event as the service has it now; undefined when it was removed (404). A 403 is not "gone"
 * here: creating a new one would leave the administrators' event behind, so it is said as such.
 */
async function currentEvent(
  client: LiveloxClient,
  id: string,
  call: { signal?: AbortSignal },
): Promise<ImportableEvent | undefined> {
  try {
    return await client.importableEvents.get(id, { ...call, includeImportedEvent: true });
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    if (err instanceof AuthError && !(err instanceof ScopeError) && err.status === 403) {
      throw new NotEventAdministratorError(id, err.body, { cause: err });
    }
    throw err;
  }
}

function record(
  options: PublishJobOptions,
  p: Prepared,
  importableId: string,
  state: PublishState,
  eventId: number | undefined,
  links: PublishLinks,
  replaces?: string,
): void {
  publishStateOf(options.state).record(
    {
      key: p.key,
      importableId,
      file: options.courseFile,
      name: p.name,
      state,
      ...(eventId === undefined ? {} : { eventId }),
      links,
    },
    replaces === undefined ? {} : { replaces },
  );
}

function linksOf(link: ImportableEventLink): PublishLinks {
  return {
    ...(link.liveloxImportEventUrl ? { importUrl: link.liveloxImportEventUrl } : {}),
    ...(link.liveloxShowEventUrl ? { showUrl: link.liveloxShowEventUrl } : {}),
    ...(link.liveloxEditEventUrl ? { editUrl: link.liveloxEditEventUrl } : {}),
  };
}

async function runCheck(
  client: LiveloxClient,
  options: PublishJobOptions,
  p: Prepared,
  eventId: number,
): Promise<CheckCoursesResult> {
  return checkCourses(client, {
    eventId,
    organiser: { name: options.courseFile, bytes: p.course.bytes },
    race: p.course.race.raceNumber ?? p.course.raceIndex,
    ...(options.validation ? { validation: options.validation } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
}
