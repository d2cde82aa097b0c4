/**
 * The JSON format for event systems without IOF XML export (docs/ems-json.md), and plain objects for library users.
 * Both go through one schema, so a portal building the object in code gets the same checks and messages as a file.
 */
import { z } from 'zod';
import { compact } from '../core/compact.js';
import { readInputFile } from '../core/files.js';
import { zodIssues } from '../core/issues.js';
import { InputError, ValidationError } from '../errors.js';
import type { EmsClass, EmsCourse, EmsEvent, EmsExport, EmsSource } from './source.js';
import { writtenDateMs } from './dates.js';
import { isoCountryCode } from './ioc-codes.js';

export const EMS_JSON_FORMAT_VERSION = 1;

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

type ParsedContent = z.output<typeof contentSchema>;

const UNKNOWN_FIELD = 'is not a field of the EMS JSON format (see docs/ems-json.md)';

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

function checkNames(data: ParsedContent, what: string): void {
  const seen = new Map<string, number>();
  const issues = [];
  for (const [i, c] of data.classes.entries()) {
    const key = c.name.toLowerCase();
    const other = seen.get(key);
    if (other !== undefined) {
      issues.push({ path: `classes[${i}].name`, code: 'duplicate_name', message: `is also classes[${other}]` });
    } else seen.set(key, i);
  }
  if (issues.length > 0) throw new ValidationError(what, issues);
}

/** An event and classes given as JSON text or a parsed value in the file format (with `formatVersion`). */
export function parseEmsJson(json: unknown, source: string): EmsExport {
  const parsed = fileSchema.safeParse(json);
  if (!parsed.success) throw new ValidationError(`EMS file ${source}`, zodIssues(parsed.error, UNKNOWN_FIELD));
  checkNames(parsed.data, `EMS file ${source}`);
  return toExport(parsed.data, 'EMS JSON', source);
}

/** A JSON file in the format of docs/ems-json.md. */
export function jsonEmsSource(path: string): EmsSource {
  return {
    source: path,
    async read() {
      const text = (await readInputFile(path)).toString('utf8');
      let json: unknown;
      try {
        json = JSON.parse(text.replace(/^\uFEFF/, ''));
      } catch (err) {
        throw new InputError(path, 'not_json', `not valid JSON: ${(err as Error).message}`, { cause: err });
      }
      return parseEmsJson(json, path);
    },
  };
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
        const parsed = contentSchema.safeParse(data);
        if (!parsed.success) {
          throw new ValidationError(`EMS data (${source})`, zodIssues(parsed.error, UNKNOWN_FIELD));
        }
        checkNames(parsed.data, `EMS data (${source})`);
        return toExport(parsed.data, 'object', source);
      });
    },
  };
}
