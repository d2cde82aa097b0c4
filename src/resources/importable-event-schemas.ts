/**
 * The Event Integration API's shapes (observed, not published: ../shared/spec/event-integration-observed.md, from the
 * service's documentation [doc] and Purple Pen's source [client]), shared by the client, which checks what it sends
 * and reads the answers, and the simulator, which checks what it receives with the same schemas (STYLE.md #14).
 *
 * Requests are sent camelCase, as every published endpoint answers. Answers are read whatever their casing
 * (`camelKeys`): Purple Pen sends and reads PascalCase, a script camelCase, and which the service answers is a guess.
 * Answers keep unknown fields and allow null where .NET may write it; only what we rely on is required.
 */
import { z } from 'zod';
import { AuthError, NotFoundError, ScopeError } from '../errors.js';

/** The OAuth scope of the Event Integration API [client]. */
export const IMPORTABLE_EVENTS_SCOPE = 'events.import';

/** An IOF XML date-time with its offset, as the importable event's time interval carries it. */
const dateTime = z.iso.datetime({ offset: true, message: 'is not an ISO 8601 date-time with an offset' });

/** A file name as the upload carries it: a plain name, no folder. */
export const uploadFileName = z
  .string()
  .min(1, { message: 'is empty' })
  .max(255)
  .refine((n) => !/[/\\]/.test(n) && n !== '.' && n !== '..', { message: 'must be a plain file name, no folder' });

const wgs84 = z.object({ latitude: z.number().min(-90).max(90), longitude: z.number().min(-180).max(180) }).strict();
const pixel = z.object({ x: z.number().int(), y: z.number().int() }).strict();
const paperPoint = z.object({ x: z.number(), y: z.number() }).strict();

/**
 * The map image's corners in WGS 84 and in pixels [client]: bottom-left, bottom-right, top-right, top-left, that is
 * `(0,H) (W,H) (W,0) (0,0)` with y down.
 */
export const coordinateMappingSchema = z
  .object({ positions: z.array(wgs84).length(4), imagePositions: z.array(pixel).length(4) })
  .strict();

export const importableEventMapSchema = z
  .object({
    /** Must equal the name of an uploaded file. */
    fileName: uploadFileName,
    name: z.string().max(200),
    mapScale: z.number().positive().optional(),
    /** The map's extent in its own paper units (Purple Pen: metres of paper); guess beyond that. */
    bottomLeftCornerPosition: paperPoint.optional(),
    topRightCornerPosition: paperPoint.optional(),
    /** null when the map is not georeferenced. */
    georeference: z.object({ coordinateMapping: coordinateMappingSchema }).strict().nullable().optional(),
  })
  .strict();

/** The importable-event object a create or update sends [client]. */
export const importableEventInputSchema = z
  .object({
    name: z.string().trim().min(1, { message: 'is empty' }).max(200),
    /** Purple Pen leaves it out. */
    timeInterval: z.object({ start: dateTime.optional(), end: dateTime.optional() }).strict().optional(),
    /** An IANA id such as `Europe/Oslo` ([script] only); Purple Pen leaves it out. */
    timeZone: z.string().min(1).max(100).optional(),
    maps: z.array(importableEventMapSchema),
    /** IOF XML 3.0 CourseData files among the uploads. */
    courseDataFileNames: z.array(uploadFileName).min(1, { message: 'names no course file' }),
    /** Course prints (Purple Pen: one PDF per course). */
    courseImageFileNames: z.array(uploadFileName).optional(),
  })
  .strict();

export type ImportableEventInput = z.input<typeof importableEventInputSchema>;
export type ImportableEventMap = z.output<typeof importableEventMapSchema>;

// ---- Answers, read leniently.

const text = z.string().nullable().optional();
const named = z.looseObject({ name: text }).nullable().optional();

/** The link object: the answer of create, update and import [client]. Each URL may be null. */
export const importableEventLinkSchema = z.looseObject({
  id: z.union([z.string().min(1), z.number()]).transform(String),
  liveloxImportEventUrl: text,
  liveloxShowEventUrl: text,
  liveloxEditEventUrl: text,
});

/** The service event an importable event became [client]; roleType 0 = member, 1 = admin. */
export const importedEventSchema = z.looseObject({
  id: z.number().int(),
  name: text,
  organisers: z
    .array(z.looseObject({ name: text, country: named }))
    .nullable()
    .optional(),
  timeInterval: z.looseObject({ start: text, end: text }).nullable().optional(),
  country: named,
  hiddenUntil: text,
  publicationTime: text,
  ownerRoles: z
    .array(z.looseObject({ organisation: z.unknown().optional(), roleType: z.number().nullable().optional() }))
    .nullable()
    .optional(),
  ownerPersons: z
    .array(z.looseObject({ id: z.number().nullable().optional(), firstName: text, lastName: text }))
    .nullable()
    .optional(),
});

/** GET /importableEvents/{id}: the object as stored, with `importedEvent` and `link` [client]. */
export const importableEventAnswerSchema = z.looseObject({
  name: text,
  maps: z
    .array(z.looseObject({ fileName: text, name: text }))
    .nullable()
    .optional(),
  courseDataFileNames: z.array(z.string()).nullable().optional(),
  courseImageFileNames: z.array(z.string()).nullable().optional(),
  /** null: not imported yet. Absent when the request did not ask for it. */
  importedEvent: importedEventSchema.nullable().optional(),
  link: importableEventLinkSchema.nullable().optional(),
});

export type ImportableEventLink = z.output<typeof importableEventLinkSchema>;

export type ImportableEvent = z.output<typeof importableEventAnswerSchema>;

/**
 * A JSON value with every object key in camelCase: `LiveloxImportEventUrl` and `liveloxImportEventUrl` read alike, and
 * `ID` reads `id`. Values are kept as they are.
 */
export function camelKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(camelKeys);
  if (typeof value !== 'object' || value === null) return value;
  const out = Object.create(null) as Record<string, unknown>;
  for (const [key, v] of Object.entries(value)) {
    const camel = /^[A-Z0-9]+$/.test(key)
      ? key.toLowerCase()
      : key.replace(/^[A-Z]+(?=[A-Z][a-z]|$)|^[A-Z]/, (m) => m.toLowerCase());
    // A key given in both casings keeps the first; which wins does not matter for a service that sends one casing.
    if (!(camel in out)) out[camel] = camelKeys(v);
  }
  return out;
}

/** `schema` applied to an answer read case-insensitively. */
export function anyCase<S extends z.ZodType>(schema: S): z.ZodType<z.output<S>> {
  return z.preprocess(camelKeys, schema);
}

// ---- The validation answer: its shape is unknown (observed: only a hobby script's mock answers it).

export interface ImportableEventValidation {
  /** What the service finds wrong: the import will not go through until they are fixed. */
  errors: string[];
  /** What the service says but does not stop the import for. */
  warnings: string[];
  /**
   * The answer as text when it was not, or not only, `{ errors, warnings }` lists (the shape is a guess): kept for a
   * person to read, never a failure. Absent when the lists say it all.
   */
  raw?: string;
}

/** Longest raw answer kept. */
const MAX_RAW_CHARS = 20_000;

/**
 * Reads the validation answer leniently (guess: the script's mock answers `{ "errors": [string], "warnings":
 * [string] }`). Lists of strings, or of objects with a message, in any casing, are read; an array alone is a list of
 * errors; an ASP.NET `errors` map becomes `key: message` lines; whatever cannot be read so is kept as `raw` text.
 */
export function readValidationAnswer(body: string): ImportableEventValidation {
  const trimmed = body.trim();
  if (trimmed === '') return { errors: [], warnings: [] };
  const raw = { raw: trimmed.slice(0, MAX_RAW_CHARS) };
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch {
    return { errors: [], warnings: [], ...raw };
  }
  if (Array.isArray(value)) {
    const errors = messagesOf(value);
    return errors ? { errors, warnings: [] } : { errors: [], warnings: [], ...raw };
  }
  if (typeof value !== 'object' || value === null) return { errors: [], warnings: [], ...raw };
  const v = value as Record<string, unknown>;
  // Keys read in any casing, here and in the items, but a map's keys are kept as written: they are the service's words.
  const errorsValue = pick(v, 'errors', 'validationErrors');
  const warningsValue = pick(v, 'warnings', 'validationWarnings');
  const errors = messagesOf(errorsValue);
  const warnings = messagesOf(warningsValue);
  const lists = { errors: errors ?? [], warnings: warnings ?? [] };
  const known = new Set(['errors', 'validationerrors', 'warnings', 'validationwarnings']);
  // Kept as text too: no list at all, a list we could not read, or something beside the lists (a status, a title)
  // that may be what a person needs to read.
  const unread =
    (errorsValue === undefined && warningsValue === undefined) ||
    (errorsValue !== undefined && errors === undefined) ||
    (warningsValue !== undefined && warnings === undefined) ||
    Object.entries(v).some(([k, x]) => !known.has(k.toLowerCase()) && x !== null && x !== undefined);
  return unread ? { ...lists, ...raw } : lists;
}

/** Messages of a list (strings, or objects with a message) or of an ASP.NET `{ key: [messages] }` map. */
function messagesOf(value: unknown): string[] | undefined {
  if (value === null) return [];
  if (Array.isArray(value)) {
    const out: string[] = [];
    for (const item of value) {
      const m = messageOf(item);
      if (m === undefined) return undefined;
      out.push(m);
    }
    return out;
  }
  if (typeof value === 'object') {
    const out: string[] = [];
    for (const [key, list] of Object.entries(value as Record<string, unknown>)) {
      const inner = Array.isArray(list) ? list : [list];
      for (const item of inner) {
        const m = messageOf(item);
        if (m === undefined) return undefined;
        out.push(key ? `${key}: ${m}` : m);
      }
    }
    return out;
  }
  return undefined;
}

/** The first of `names` the object has, in any casing. */
function pick(o: Record<string, unknown>, ...names: string[]): unknown {
  const wanted = names.map((n) => n.toLowerCase());
  for (const name of wanted) {
    for (const [k, v] of Object.entries(o)) if (k.toLowerCase() === name && v !== undefined) return v;
  }
  return undefined;
}

function messageOf(item: unknown): string | undefined {
  if (typeof item === 'string') return item;
  if (typeof item !== 'object' || item === null) return undefined;
  const m = pick(item as Record<string, unknown>, 'message', 'text', 'description', 'errorMessage');
  return typeof m === 'string' ? m : undefined;
}

// ---- The state, derived: the service has no status field [client].

export type ImportableEventState = 'not-imported' | 'waiting-for-browser-step' | 'imported' | 'gone';

/**
 * The state an observation shows [client]: a GET answer (`importedEvent` null: not imported; present: imported), a link
 * answer of create, update or import (an import URL still there: waiting for the person's step in the browser;
 * otherwise imported), or the error a GET ended in (404: removed, 403: not this user's: gone, as the spec says to treat
 * both). Any other error is no state: it is thrown back.
 */
export function importableEventState(
  observed: { event: ImportableEvent } | { link: ImportableEventLink } | { error: unknown },
): ImportableEventState {
  if ('error' in observed) {
    const err = observed.error;
    if (err instanceof NotFoundError) return 'gone';
    if (err instanceof AuthError && !(err instanceof ScopeError) && err.status === 403) return 'gone';
    throw err;
  }
  if ('event' in observed) return observed.event.importedEvent ? 'imported' : 'not-imported';
  return observed.link.liveloxImportEventUrl ? 'waiting-for-browser-step' : 'imported';
}
