/** GET /orienteering/courses/iofxml (contract section 4.5). The answer is IOF XML 3.0, not JSON. */
import { z } from 'zod';
import { booleanParam, integerParam, positiveIdParam } from './params.js';

export const COURSES_PARAMETERS = [
  'eventId',
  'projectionEpsgCode',
  'includeControls',
  'includeClassConnections',
  'includeClasses',
] as const;

export const coursesQuerySchema = z
  .object({
    eventId: positiveIdParam,
    projectionEpsgCode: integerParam.optional(),
    includeControls: booleanParam.optional(),
    includeClassConnections: booleanParam.optional(),
    includeClasses: booleanParam.optional(),
  })
  .strict();

export type CoursesQuery = z.output<typeof coursesQuerySchema>;

/** The message the real service answers when a key lacks course access (observed, not published). */
export const COURSES_SCOPE = 'courses.read';
