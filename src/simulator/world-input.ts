/**
 * What a test may ask of the world (`world.ts`): a new event, a change to one. One zod schema per request serves the
 * library calls and the control endpoints alike, so that both refuse the same input with the same words. The shapes
 * are the event record's (`records.ts`) where they can be: names, flags and properties read as GET /events shows them.
 */
import { z } from 'zod';
import { parseContractDatetime } from '../resources/params.js';

/** A class to add: its name, or its name and short name. The world gives it an id. */
export type SimClassInput = string | { name: string; shortName?: string };

/** A new event, for `world.createEvent` and `POST /_simulator/events`. */
export interface SimEventInput {
  /** Default: the next id after every event id the simulator has served (ids are never reused). */
  id?: number;
  name: string;
  /** yyyy-mm-ddThh:mm:ssZ, or a Date on whole seconds. */
  start: string | Date;
  /** Not before `start`; equal to it for an event of no length. */
  end: string | Date;
  /** ISO 3166-1 alpha-3, any case. */
  countryCode: string;
  /** At least one. */
  organisers: string[];
  position?: { latitude: number; longitude: number };
  /** Default none. Ids are given unique across the dataset. */
  classes?: SimClassInput[];
  /** Default false. */
  isPublished?: boolean;
  /** Default false; true needs `hasValidMapAndCourses`, as in the service. */
  isSearchable?: boolean;
  /** Default false. */
  hasValidMapAndCourses?: boolean;
  /** Default none. Keys and values as GET /events shows them (`eventorId`, say). */
  properties?: Array<{ key: string; value: string }>;
  /** Default 0. */
  participantCount?: number;
}

/**
 * A change to an event, for `world.changeEvent` and `PATCH /_simulator/events/{id}`: every field optional, an empty
 * change only stamps modifiedTime (as an edit that changes nothing visible does in the service). Classes are removed,
 * then renamed, then added.
 */
export interface SimEventChange {
  name?: string;
  /** A new start; without `end` the event keeps its length (a move). */
  start?: string | Date;
  /** A new end, not before the (new) start. */
  end?: string | Date;
  addClasses?: SimClassInput[];
  /** Class ids of this event with their new names. */
  renameClasses?: Array<{ id: number; name: string }>;
  /** Class ids of this event. */
  removeClasses?: number[];
  isPublished?: boolean;
  /** true needs a valid map and courses; making them invalid makes the event unsearchable unless this says true. */
  isSearchable?: boolean;
  hasValidMapAndCourses?: boolean;
  /** The new list of properties: it replaces the old one. */
  properties?: Array<{ key: string; value: string }>;
  participantCount?: number;
}

const text = z.string().trim().min(1, 'must not be empty').max(200, 'is longer than 200 characters');

/** A contract datetime; a Date is taken as one when it is on a whole second (a Date with milliseconds is refused). */
const datetime = z
  .preprocess(
    (v) => (v instanceof Date && Number.isFinite(v.getTime()) ? v.toISOString().replace(/\.000Z$/, 'Z') : v),
    z.string(),
  )
  .transform((value, ctx) => {
    const ms = parseContractDatetime(value);
    if (ms === undefined) {
      ctx.addIssue({ code: 'custom', message: `'${value}' is not a UTC datetime of the form yyyy-mm-ddThh:mm:ssZ` });
      return z.NEVER;
    }
    return ms;
  });

const classInput = z.union([
  text.transform((name) => ({ name })),
  z.object({ name: text, shortName: text.optional() }).strict(),
]);

const properties = z
  .array(z.object({ key: text, value: z.string().max(2000, 'is longer than 2000 characters') }).strict())
  .max(100, 'has more than 100 properties');

const classId = z.number().int().positive();
const classInputs = z.array(classInput).max(500, 'has more than 500 classes');

/** What a new event and a change set alike, checked alike. */
const settableFields = {
  isPublished: z.boolean().optional(),
  isSearchable: z.boolean().optional(),
  hasValidMapAndCourses: z.boolean().optional(),
  properties: properties.optional(),
  participantCount: z.number().int().nonnegative().optional(),
};

export const eventInputSchema = z
  .object({
    id: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
    name: text,
    start: datetime,
    end: datetime,
    countryCode: z.string().regex(/^[A-Za-z]{3}$/, 'is not an ISO 3166-1 alpha-3 code'),
    organisers: z.array(text).min(1, 'needs at least one organiser').max(10, 'has more than 10 organisers'),
    position: z
      .object({ latitude: z.number().min(-90).max(90), longitude: z.number().min(-180).max(180) })
      .strict()
      .optional(),
    classes: classInputs.optional(),
    ...settableFields,
  })
  .strict();

export const eventChangeSchema = z
  .object({
    name: text.optional(),
    start: datetime.optional(),
    end: datetime.optional(),
    addClasses: classInputs.optional(),
    renameClasses: z.array(z.object({ id: classId, name: text }).strict()).optional(),
    removeClasses: z.array(classId).optional(),
    ...settableFields,
  })
  .strict();

export type ParsedEventChange = z.output<typeof eventChangeSchema>;
