/**
 * The JSON a state file keeps in its rows, checked when read: a row whose JSON no longer parses, or whose values have
 * the wrong types (a file damaged, or edited by hand), is a StateError naming the file and the row, not a TypeError
 * deep in a job. The schemas are typed against the records they read, so a record that changes shape does not compile
 * until its schema follows.
 */
import { z } from 'zod';
import { countryListSchema } from '../resources/countries.js';
import { eventSchema, type LiveloxEvent } from '../resources/events.js';
import { importRecordSchema, type ImportRecord } from '../resources/routes.js';
import { damagedRow, type StateFileRef } from './state-errors.js';
import { LINK_METHODS, LINK_STATUSES, type LinkRecord, type SyncCursor } from './sync-state.js';

const text = z.string();
const optional = <T extends z.ZodType>(schema: T) => z.exactOptional(schema);

const cursorSchema = z.looseObject({
  modifiedSince: optional(text),
  windowFrom: optional(text),
  windowTo: optional(text),
  lastFullSweep: optional(text),
  countries: optional(z.looseObject({ fetchedAt: text, list: countryListSchema })),
  linkContext: optional(text),
}) satisfies z.ZodType<SyncCursor>;

const classIdentity = { classId: z.number().int(), url: text, from: z.enum(['service', 'template']), method: text };

/** A portal class with its link (ClassLinkRecord `linked`). */
const linkedClassSchema = z.looseObject({
  name: text,
  status: z.literal('linked'),
  serviceClass: text,
  ...classIdentity,
});

/** A portal class whose service class went (ClassLinkRecord `unmapped`). */
const unmappedClassSchema = z.looseObject({
  name: text,
  status: z.literal('unmapped'),
  reason: text,
  since: text,
  was: z.looseObject({ classId: z.number().int(), serviceClass: text }),
});

/**
 * A class as a state written before classes had one shape holds it (`emsName`, `className`): valid, and read as a
 * linked class by the sync job (jobs/sync/statuses.ts), which writes the record back in the current shape.
 */
const legacyClassSchema = z.looseObject({ emsName: text, className: text, ...classIdentity });

const linkRecordSchema = z.looseObject({
  key: text,
  status: z.enum(LINK_STATUSES),
  reason: text,
  since: optional(text),
  method: optional(z.enum(LINK_METHODS)),
  eventId: optional(z.number().int()),
  eventName: optional(text),
  eventStart: optional(text),
  eventEnd: optional(text),
  published: optional(z.boolean()),
  validMapAndCourses: optional(z.boolean()),
  classes: z.array(z.union([linkedClassSchema, unmappedClassSchema, legacyClassSchema])),
  unmatchedPortalClasses: z.array(text),
  unmatchedServiceClasses: z.array(text),
  serviceClasses: optional(z.array(z.looseObject({ id: z.number().int(), name: text }))),
  candidates: z.array(z.looseObject({ id: z.number().int(), name: text, start: text, score: z.number() })),
}) satisfies z.ZodType<Omit<LinkRecord, 'classes'>>;

/** Parses and checks one row's JSON, or throws the StateError that names the row. */
function parsed<S extends z.ZodType>(file: StateFileRef, where: string, json: string, schema: S): z.output<S> {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (err) {
    throw damagedRow(file, where, `its JSON does not parse: ${(err as Error).message}`);
  }
  const result = schema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const at = issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
    throw damagedRow(file, where, `${issue.message}${at}`);
  }
  // The value as it was read, not the schema's copy (the schemas transform nothing): its keys keep their order, so a
  // record a run writes back unchanged is the same bytes.
  return value as z.output<S>;
}

export function cursorOf(file: StateFileRef, json: string): SyncCursor {
  return parsed(file, "the cursor (meta 'cursor')", json, cursorSchema);
}

/** A link as stored: its classes may still be in the earlier shape, which the sync job reads as the current one. */
export function linkOf(file: StateFileRef, key: string, json: string): LinkRecord {
  const link = parsed(file, `the link of ${JSON.stringify(key)} (links)`, json, linkRecordSchema);
  if (link.key !== key) throw damagedRow(file, `the link of ${JSON.stringify(key)} (links)`, `it says ${link.key}`);
  return link as LinkRecord;
}

/** A run's summary: counts by name (portal events, mirror, each change kind). */
export function runSummaryOf(file: StateFileRef, where: string, json: string): Record<string, number> {
  return parsed(file, where, json, z.record(text, z.number()));
}

export function mirrorEventOf(file: StateFileRef, id: number, json: string): LiveloxEvent {
  const where = `service event ${id} (mirror_events)`;
  const event = parsed(file, where, json, eventSchema);
  if (event.id !== id) throw damagedRow(file, where, `it holds event ${event.id}`);
  return event;
}

export function importRecordOf(file: StateFileRef, id: string, json: string): ImportRecord {
  return parsed(file, `the import record of route ${id} (route_imports)`, json, importRecordSchema);
}

/** A column value of the wrong type (possible only in a damaged file: the tables are STRICT). */
export function checkColumns(file: StateFileRef, where: string, row: object, types: Record<string, string>): void {
  for (const [column, type] of Object.entries(types)) {
    const value = (row as Record<string, unknown>)[column];
    const ok = type.endsWith('?') ? value === null || typeof value === type.slice(0, -1) : typeof value === type;
    if (!ok) throw damagedRow(file, where, `${column} holds ${value === null ? 'null' : typeof value}, not ${type}`);
  }
}
