/** POST /importableRoutes and GET /importableRoutes/{id} (contract sections 2.1-2.3, 3, 4.1, 4.2). */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { checkParam } from './params.js';
import type { ResourceRequester } from './requester.js';
import { readInputFile } from '../core/files.js';
import { issuesFromZod } from '../core/issues.js';
import { poll, type PollOptions } from '../core/poll.js';
import { InputError, LiveloxError, ValidationError } from '../errors.js';
import { checkFitFrame, isFitStart } from '../gps/fit.js';
import { sniffGpsFormat } from '../gps/sniff.js';
import type { GpsFormat } from '../gps/types.js';

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

// ---- The client side.

/** Largest route file the client sends; a GPS track of a day's running is a few MB. */
export const MAX_ROUTE_FILE_BYTES = 50 * 1024 * 1024;
/**
 * Largest request body of a route import: the largest file in base64 (4 bytes for every 3) and room for the other
 * fields. The simulator refuses larger bodies with 413, so the two sides agree on what is too large.
 */
export const MAX_ROUTE_BODY_BYTES = Math.ceil(MAX_ROUTE_FILE_BYTES / 3) * 4 + 64 * 1024;

export interface RouteImportInput {
  /** Your id for the route. Default: derived from the file's content, so a repeated import overwrites. */
  id?: string | number;
  /** The GPX, TCX or FIT file's bytes; or give `file`. */
  data?: Uint8Array;
  /** Path of a GPX, TCX or FIT file. */
  file?: string;
  deviceModel?: string;
  /** Honoured only with an API key (contract 2.1); refused with OAuth. */
  person?: { firstName?: string; lastName?: string };
  classId?: number;
  /**
   * Let the service make up the id: the unsafe path. Such a POST is not repeated after a failure that may follow its
   * storing (a reset, a timeout after sending, a 5xx), since a retry could import the route twice; the error then has
   * `mayHaveTakenEffect` and says so (`MAY_HAVE_STORED_ROUTE`). A 429 is still retried: nothing was stored. Default
   * false.
   */
  serviceGeneratedId?: boolean;
  signal?: AbortSignal | undefined;
}

export interface RouteImportResult {
  /** The id to ask the status with. */
  id: string;
  format: GpsFormat;
}

export interface WaitOptions {
  /** Default 120000 ms. */
  timeoutMs?: number;
  /** First look after this long; imports take 5-15 s. Default 5000 ms. */
  initialDelayMs?: number;
  /** Then every this long, growing 1.5x up to `maxPollIntervalMs`. Default 2000 ms. */
  pollIntervalMs?: number;
  /** Default 10000 ms. */
  maxPollIntervalMs?: number;
  signal?: AbortSignal | undefined;
  onPoll?: (record: ImportRecord, attempt: number) => void;
}

/** The id a file gets when the caller gives none: the same file always gets the same id (`lb-` + 43 chars). */
export function contentRouteId(bytes: Uint8Array): string {
  return `lb-${createHash('sha256').update(bytes).digest('base64url')}`;
}

export class Routes {
  readonly #client: ResourceRequester;

  constructor(client: ResourceRequester) {
    this.#client = client;
  }

  /**
   * Posts a route for import. The file is checked first (GPX, TCX or FIT by content, not empty, not too large) and
   * base64-encoded for you. With a client-side id the POST is idempotent and retried after failures.
   */
  async import(input: RouteImportInput): Promise<RouteImportResult> {
    const source = input.file ?? 'route data';
    const bytes = await routeBytes(input);
    if (bytes.length === 0) throw new InputError(source, 'empty', 'the route file is empty.');
    if (bytes.length > MAX_ROUTE_FILE_BYTES) throw tooLarge(source, bytes.length);
    // isFitStart too: a FIT file cut inside its header is FIT for this purpose, and said to be truncated below.
    const format = isFitStart(bytes) ? 'fit' : sniffGpsFormat(bytes);
    if (!format) {
      throw new InputError(source, 'unknown_format', 'is not a GPX, TCX or FIT file.', {
        hint: 'Export the activity from your watch or app as GPX, TCX or FIT.',
      });
    }
    // A FIT file cut short is said to be so here, not after the service has turned it down minutes later.
    if (format === 'fit') checkFitFrame(bytes, source);
    if (input.person && !this.#client.auth.honoursPerson) {
      throw new ValidationError('Route import', [
        {
          path: 'person',
          code: 'not_with_oauth',
          message: 'the service uses person only with an API key; with OAuth the route belongs to the logged-in user',
        },
      ]);
    }
    if (input.id !== undefined && input.serviceGeneratedId) {
      throw new ValidationError('Route import', [
        { path: 'id', code: 'conflict', message: 'give an id or ask for a service-generated one, not both' },
      ]);
    }
    const id = input.serviceGeneratedId ? undefined : (input.id ?? contentRouteId(bytes));
    const body = {
      ...(id !== undefined ? { id } : {}),
      data: Buffer.from(bytes).toString('base64'),
      ...(input.deviceModel !== undefined ? { deviceModel: input.deviceModel } : {}),
      ...(input.person ? { person: input.person } : {}),
      ...(input.classId !== undefined ? { classId: input.classId } : {}),
    };
    const checked = importableRouteRequestSchema.safeParse(body);
    if (!checked.success) {
      throw new ValidationError('Route import', issuesFromZod(checked.error));
    }
    // base64 needs no JSON escaping, so the body's size is the rest of it plus the data's length.
    const bodyBytes = Buffer.byteLength(JSON.stringify({ ...body, data: '' })) + body.data.length;
    if (bodyBytes > MAX_ROUTE_BODY_BYTES) throw tooLarge(source, bytes.length, bodyBytes);
    try {
      const answer = await this.#client.requestJson(
        { method: 'POST', path: '/importableRoutes', json: body, idempotent: id !== undefined, signal: input.signal },
        importSubmissionSchema,
      );
      return { id: answer.id, format };
    } catch (err) {
      // Only a POST without an id can be stored twice: one with an id overwrites what it stored before.
      if (err instanceof LiveloxError && err.mayHaveTakenEffect) throw err.restateEffect(MAY_HAVE_STORED_ROUTE);
      throw err;
    }
  }

  /** The import state: pending, imported (with viewer urls) or error (with errorMessage). Unknown id: NotFoundError. */
  async status(id: string, options: { signal?: AbortSignal | undefined } = {}): Promise<ImportRecord> {
    checkRouteId(id);
    return this.#client.requestJson(
      { path: `/importableRoutes/${encodeURIComponent(id)}`, signal: options.signal },
      importRecordSchema,
    );
  }

  /** Polls until the import is imported or error; TimeoutError at the deadline. A failed import is returned, not thrown. */
  async waitForImport(id: string, options: WaitOptions = {}): Promise<ImportRecord> {
    checkRouteId(id);
    return poll(
      () => this.status(id, { signal: options.signal }),
      (r) => r.status !== 'pending',
      {
        timeoutMs: options.timeoutMs ?? 120_000,
        initialDelayMs: options.initialDelayMs ?? 5000,
        intervalMs: options.pollIntervalMs ?? 2000,
        maxIntervalMs: options.maxPollIntervalMs ?? 10_000,
        backoff: 1.5,
        signal: options.signal,
        onPoll: options.onPoll as PollOptions['onPoll'],
      },
      { description: `The import of route '${id}'`, request: { method: 'GET', path: `/importableRoutes/${id}` } },
    );
  }
}

/** What a service-generated-id import that failed after it was sent says (`LiveloxError.mayHaveTakenEffect`). */
export const MAY_HAVE_STORED_ROUTE =
  'The service may have stored this route; re-importing may duplicate it; use a client-chosen id (leave serviceGeneratedId off).';

function tooLarge(source: string, fileBytes: number, bodyBytes?: number): InputError {
  const what =
    bodyBytes === undefined
      ? `the route file has ${fileBytes} bytes, more than the ${MAX_ROUTE_FILE_BYTES} bytes (${MAX_ROUTE_FILE_BYTES / 1048576} MiB, MAX_ROUTE_FILE_BYTES) a route may have.`
      : `the route import would be a request of ${bodyBytes} bytes, more than the ${MAX_ROUTE_BODY_BYTES} bytes (MAX_ROUTE_BODY_BYTES) the service accepts.`;
  return new InputError(source, 'too_large', what, {
    hint: 'A GPS route of a few hours is usually under 10 MB: check that this is the right file.',
  });
}

function checkRouteId(id: string): void {
  checkParam('Route id', 'id', id, routeIdSchema);
}

async function routeBytes(input: RouteImportInput): Promise<Uint8Array> {
  if ((input.data === undefined) === (input.file === undefined)) {
    throw new ValidationError('Route import', [
      { path: 'data', code: 'required', message: 'give exactly one of data (bytes) and file (a path)' },
    ]);
  }
  if (input.data !== undefined) return input.data;
  // Core's reader: a regular file only (a FIFO would hang the import), and never more than the service takes.
  return await readInputFile(input.file!, { what: 'the route file', maxBytes: MAX_ROUTE_FILE_BYTES });
}
