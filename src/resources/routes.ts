/** POST /importableRoutes and GET /importableRoutes/{id} (contract sections 2.1-2.3, 3, 4.1, 4.2). */
import { z } from 'zod';

export const MAX_ROUTE_ID_LENGTH = 48;
export const IMPORT_STATUSES = ['pending', 'imported', 'error'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

export const routeIdSchema = z.union([
  z.number().int({ message: 'must be an integer or a string' }).nonnegative(),
  z
    .string()
    .min(1, { message: 'is empty' })
    .max(MAX_ROUTE_ID_LENGTH, { message: `is longer than ${MAX_ROUTE_ID_LENGTH} characters` }),
]);

/** The request body. `data` is the base64 of a GPX, TCX or FIT file. */
export const importableRouteRequestSchema = z
  .object({
    id: routeIdSchema.optional(),
    data: z.string({ message: 'is required: the base64 of a GPX, TCX or FIT file' }),
    deviceModel: z.string().max(200).optional(),
    person: z
      .object({
        firstName: z.string().max(100).optional(),
        lastName: z.string().max(100).optional(),
      })
      .strict()
      .optional(),
    classId: z.number().int().positive().optional(),
  })
  .strict();

export type ImportableRouteRequest = z.input<typeof importableRouteRequestSchema>;

export const importSubmissionSchema = z.looseObject({ id: z.string() });

export const importRecordSchema = z.looseObject({
  status: z.enum(IMPORT_STATUSES),
  viewerUrl: z.string().optional(),
  showRouteUrl: z.string().optional(),
  editRouteUrl: z.string().optional(),
  eventName: z.string().optional(),
  className: z.string().optional(),
  errorMessage: z.string().optional(),
});

export type ImportRecord = z.output<typeof importRecordSchema>;
