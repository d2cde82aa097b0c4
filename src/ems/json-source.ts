/**
 * The JSON format for event systems without IOF XML export (docs/ems-json.md), its multi-event form for portals, and
 * plain objects for library users. All go through one schema, so a portal building the object in code gets the same
 * checks and messages as a file, and an entry of a multi-event document the same as a file of its own (its paths
 * prefixed with `events[i].`).
 */
import { z } from 'zod';
import { compact } from '../core/compact.js';
import { readJsonInput } from '../core/json-input.js';
import { zodIssues } from '../core/issues.js';
import { InputError, ValidationError, type Issue } from '../errors.js';
import type { EmsClass, EmsCourse, EmsEvent, EmsExport, EmsSource } from './source.js';
import { writtenDateMs } from './dates.js';
import { isoCountryCode } from './ioc-codes.js';

export const EMS_JSON_FORMAT_VERSION = 1;
/** Most entries of a multi-event document. */
const MAX_LISTED_EVENTS = 200_000;

/** A date (`2025-04-26`) or a date-time with an optional offset, as event systems write them. */
const isoDateOrDateTime = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/, {
    message: 'must be an ISO 8601 date (2025-04-26) or date-time (2025-04-26T10:00:00+02:00)',
  })
  .refine((v) => writtenDateMs(v) !== undefined, { message: 'is not a calendar date' });

const text = z.string().trim().min(1, { message: 'is empty' }).max(500);
const controlCode = z.union([text, z.number().int().nonnegative().transform(String)]);

const courseSchema = z.strictObject({
  id: controlCode.optional(),
  name: text.optional(),
  length: z.number().nonnegative().max(1_000_000).optional(),
  climb: z.number().nonnegative().max(100_000).optional(),
  numberOfControls: z.number().int().nonnegative().max(10_000).optional(),
  controls: z.array(controlCode).max(10_000).optional(),
});

const classSchema = z.strictObject({
  id: controlCode.optional(),
  name: text,
  shortName: text.optional(),
  legs: z.number().int().positive().max(100).optional(),
  entries: z.number().int().nonnegative().optional(),
  course: courseSchema.optional(),
});

const eventSchema = z
  .strictObject({
    name: z.string().trim().max(500),
    start: isoDateOrDateTime.optional(),
    end: isoDateOrDateTime.optional(),
    organisers: z.array(text).max(100).default([]),
    country: text.optional(),
    position: z
      .strictObject({ latitude: z.number().min(-90).max(90), longitude: z.number().min(-180).max(180) })
      .optional(),
    externalIds: z.record(z.string().regex(/^[A-Za-z][\w.-]{0,49}$/), text).optional(),
  })
  .refine((e) => e.end === undefined || e.start === undefined || e.end.slice(0, 10) >= e.start.slice(0, 10), {
    message: 'end is before start',
    path: ['end'],
  });

const contentSchema = z.strictObject({
  event: eventSchema,
  classes: z.array(classSchema).max(100_000),
});

const fileSchema = contentSchema.extend({ formatVersion: z.literal(EMS_JSON_FORMAT_VERSION) });

/** An entry of the multi-event form: one event (one race) of a portal. */
const listEntrySchema = contentSchema.extend({
  key: text.max(200).optional(),
  serviceEventId: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
});

/** The multi-event form's envelope; its entries are checked one by one, so that one bad entry costs only itself. */
const listSchema = z.strictObject({
  formatVersion: z.literal(EMS_JSON_FORMAT_VERSION),
  events: z.array(z.unknown()).max(MAX_LISTED_EVENTS),
});

/** JSON documents are parsed whole: beyond this size, a portal should split its list. */
export const MAX_EMS_JSON_BYTES = 128 * 1024 * 1024;

type ParsedContent = z.output<typeof contentSchema>;

const UNKNOWN_FIELD = 'is not a field of the EMS JSON format (see docs/ems-json.md)';
/**
 * zod keeps the refused value in its issues only when asked; without it, `zodIssues` cannot tell a missing field
 * (`required`) from one of the wrong type and calls both missing.
 */
const REPORT_INPUT = { reportInput: true };

function toExport(data: ParsedContent, format: string, source: string): EmsExport {
  const event: EmsEvent = compact({
    name: data.event.name,
    start: data.event.start,
    end: data.event.end,
    organisers: data.event.organisers,
    // Federations write IOC codes (GER, SUI) where the service knows ISO ones (DEU, CHE).
    country: data.event.country === undefined ? undefined : isoCountryCode(data.event.country),
    position: data.event.position,
    externalIds: data.event.externalIds,
  });
  const classes: EmsClass[] = data.classes.map((c) =>
    compact({
      id: c.id,
      name: c.name,
      shortName: c.shortName,
      legs: c.legs,
      entries: c.entries,
      course: c.course && (compact({ ...c.course }) as EmsCourse),
    }),
  );
  return { event, classes, format, source };
}

/** Class names repeated (ignoring case): the shape is right, but the mapping could not tell the classes apart. */
function nameIssues(data: ParsedContent): Issue[] {
  const seen = new Map<string, number>();
  const issues: Issue[] = [];
  for (const [i, c] of data.classes.entries()) {
    const key = c.name.toLowerCase();
    const other = seen.get(key);
    if (other !== undefined) {
      issues.push({ path: `classes[${i}].name`, code: 'duplicate_name', message: `is also classes[${other}]` });
    } else seen.set(key, i);
  }
  return issues;
}

function checkNames(data: ParsedContent, what: string): void {
  const issues = nameIssues(data);
  if (issues.length > 0) throw new ValidationError(what, issues);
}

/** An event and classes given as JSON text or a parsed value in the file format (with `formatVersion`). */
export function parseEmsJson(json: unknown, source: string): EmsExport {
  const parsed = fileSchema.safeParse(json, REPORT_INPUT);
  if (!parsed.success) throw new ValidationError(`EMS file ${source}`, zodIssues(parsed.error, UNKNOWN_FIELD));
  checkNames(parsed.data, `EMS file ${source}`);
  return toExport(parsed.data, 'EMS JSON', source);
}

/**
 * The parsed JSON of a file (UTF-8 with or without a byte order mark, or UTF-16 with one). Throws `InputError` with
 * reason `unreadable`, `not_a_file`, `too_large` (over `MAX_EMS_JSON_BYTES`), `bad_encoding` or `not_json`.
 */
export async function readJsonFile(path: string, options: { signal?: AbortSignal | undefined } = {}): Promise<unknown> {
  return readJsonInput(path, {
    maxBytes: MAX_EMS_JSON_BYTES,
    hint: 'A portal with more events should split its list into several files.',
    signal: options.signal,
  });
}

/** Whether a parsed document is the multi-event form (it has `events`), rather than one event. */
export function isEmsJsonList(json: unknown): boolean {
  return typeof json === 'object' && json !== null && !Array.isArray(json) && Object.hasOwn(json, 'events');
}

/** A JSON file in the format of docs/ems-json.md. */
export function jsonEmsSource(path: string): EmsSource {
  return {
    source: path,
    async read({ signal } = {}) {
      const json = await readJsonFile(path, { signal });
      if (isEmsJsonList(json)) {
        throw new InputError(path, 'event_list', 'holds several events (the multi-event form), not one.', {
          hint: 'Read it as a portal, or give a file with one event.',
        });
      }
      return parseEmsJson(json, path);
    },
  };
}

/** An entry of a multi-event document that passed the format's rules. */
export interface EmsJsonListEntry {
  /** Its place in `events`, 0-based. */
  index: number;
  key?: string;
  serviceEventId?: number;
  export: EmsExport;
}

/** An entry that broke the format's rules: its issues' paths start with `events[index]`. */
export interface EmsJsonListProblem {
  index: number;
  error: ValidationError;
}

/**
 * The events of a multi-event document (docs/ems-json.md, "Several events"), each checked by the one-event rules. A bad
 * entry is a problem of its own, the others are still read; a bad envelope (no `formatVersion`, `events` not an
 * array, a field the form does not have) throws `ValidationError`.
 */
export function parseEmsJsonList(
  json: unknown,
  source: string,
): { entries: EmsJsonListEntry[]; problems: EmsJsonListProblem[] } {
  const envelope = listSchema.safeParse(json, REPORT_INPUT);
  if (!envelope.success) throw new ValidationError(`EMS file ${source}`, zodIssues(envelope.error, UNKNOWN_FIELD));
  const entries: EmsJsonListEntry[] = [];
  const problems: EmsJsonListProblem[] = [];
  for (const [index, value] of envelope.data.events.entries()) {
    const parsed = listEntrySchema.safeParse(value, REPORT_INPUT);
    const issues = parsed.success ? nameIssues(parsed.data) : zodIssues(parsed.error, UNKNOWN_FIELD);
    if (!parsed.success || issues.length > 0) {
      const at = `events[${index}]`;
      const located = issues.map((i) => ({ ...i, path: i.path === undefined ? at : `${at}.${i.path}` }));
      problems.push({ index, error: new ValidationError(`EMS file ${source}`, located) });
      continue;
    }
    const { key, serviceEventId } = parsed.data;
    entries.push(
      compact({ index, key, serviceEventId, export: toExport(parsed.data, 'EMS JSON', `${source} events[${index}]`) }),
    );
  }
  return { entries, problems };
}

/** What library users hand over in code: the JSON format's `event` and `classes`, without `formatVersion`. */
export interface EmsObject {
  event: EmsEvent;
  classes: EmsClass[];
}

/**
 * An event and classes built in code (a portal's own database). Checked with the JSON format's rules when read, so a
 * bad value is a `ValidationError` naming its path, not a wrong match later.
 */
export function objectEmsSource(data: EmsObject, source = 'object'): EmsSource {
  return {
    source,
    read() {
      // A rejected promise, never a synchronous throw: callers await read() and expect errors there.
      return Promise.resolve().then(() => {
        const parsed = contentSchema.safeParse(data, REPORT_INPUT);
        if (!parsed.success) {
          throw new ValidationError(`EMS data (${source})`, zodIssues(parsed.error, UNKNOWN_FIELD));
        }
        checkNames(parsed.data, `EMS data (${source})`);
        return toExport(parsed.data, 'object', source);
      });
    },
  };
}
