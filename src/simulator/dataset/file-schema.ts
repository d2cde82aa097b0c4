/**
 * The shape of the JSON dataset format (docs/simulator-dataset.md) as a zod schema. Rules across fields (duplicates,
 * references, end after start) come after it, in `file.ts`, which sees the whole file, so that every problem is
 * still reported at once with its path.
 */
import { z } from 'zod';
import type { Issue } from '../../errors.js';
import type { ControlType } from '../../iof/model.js';
import { zodIssues as zodIssuesOf } from '../../core/issues.js';

/** The only format version so far; a file states it so that a later format can change without guessing. */
export const DATASET_FORMAT_VERSION = 1;

const CONTROL_TYPES = [
  'Control',
  'Start',
  'Finish',
  'CrossingPoint',
  'EndOfMarkedRoute',
] as const satisfies readonly ControlType[];

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

export const datasetSchema = z.strictObject({
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
export type EventEntry = DatasetFile['events'][number];
export type CoursesEntry = NonNullable<EventEntry['courses']>;

/** Zod's problems as issues; an unknown key points the reader at the format's documentation. */
export function zodIssues(error: z.ZodError): Issue[] {
  return zodIssuesOf(error, 'is not a field of this format (see docs/simulator-dataset.md)');
}
