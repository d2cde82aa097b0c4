/**
 * The Event Integration API (observed, not published: ../shared/spec/event-integration-observed.md): an organiser's
 * map and courses sent to the service as an importable event, which a person then imports in the browser. The shapes
 * are in importable-event-schemas.ts, shared with the simulator.
 *
 * What may be repeated: GETs, the update (the whole object again), an upload (a file of the same name again) and the
 * import (the same event again) are sent again after a failure like any GET. The create is not: a second POST makes
 * a second draft, so it is never repeated once it may have reached the service (the transport's policy for a POST
 * that is not idempotent; only a 429, a refusal at the door, is retried).
 */
import { z } from 'zod';
import { checkParam } from './params.js';
import type { RequestOptions, ResourceRequester } from './requester.js';
import {
  anyCase,
  importableEventAnswerSchema,
  importableEventInputSchema,
  importableEventLinkSchema,
  importableEventState,
  readValidationAnswer,
  type ImportableEvent,
  type ImportableEventInput,
  type ImportableEventLink,
  type ImportableEventState,
  type ImportableEventValidation,
} from './importable-event-schemas.js';
import { MAX_ROUTE_BODY_BYTES } from './routes.js';
import { issuesFromZod } from '../core/issues.js';
import { buildZip, zipNameProblem } from '../core/zip.js';
import {
  AuthError,
  InputError,
  LiveloxError,
  ScopeError,
  NotEventAdministratorError,
  ValidationError,
} from '../errors.js';

/** An upload built and checked before any request (`prepareUpload`): the very bytes `uploadFiles` sends. */
export interface PreparedUpload {
  readonly mode: UploadMode;
  readonly requests: ReadonlyArray<{
    readonly name: string;
    readonly bytes: Uint8Array;
    readonly contentType?: string;
  }>;
}

/**
 * The requests an upload makes, built and checked without sending: names plain and each once, and no request past
 * `MAX_UPLOAD_BYTES` measured on what is sent (in zip mode the zip's own length, which a name-heavy set of files that
 * hardly compresses makes larger than their sum). A caller checks this before its create, then uploads these bytes.
 */
export function prepareUpload(files: readonly UploadFile[], mode: UploadMode = 'zip'): PreparedUpload {
  if (mode !== 'zip' && mode !== 'per-file') {
    throw new ValidationError('Upload', [{ path: 'mode', code: 'format', message: "must be 'zip' or 'per-file'" }]);
  }
  if (files.length === 0) {
    throw new ValidationError('Upload', [{ path: 'files', code: 'required', message: 'give at least one file' }]);
  }
  const seen = new Set<string>();
  for (const f of files) {
    const problem = zipNameProblem(f.name);
    if (problem !== undefined) throw new InputError(f.name, 'bad_file_name', `the file name ${problem}.`);
    if (seen.has(f.name)) throw new InputError(f.name, 'bad_file_name', 'is given twice.');
    seen.add(f.name);
  }
  const requests =
    mode === 'zip'
      ? [{ name: UPLOAD_ZIP_NAME, bytes: buildZip(files) }]
      : files.map((f) => ({ name: f.name, bytes: f.bytes, contentType: 'application/octet-stream' }));
  for (const r of requests) {
    if (r.bytes.length > MAX_UPLOAD_BYTES) {
      throw new InputError(
        r.name,
        'too_large',
        `the upload would be ${r.bytes.length} bytes, more than the ${MAX_UPLOAD_BYTES} bytes (MAX_UPLOAD_BYTES) sent in one request.`,
        { hint: 'Export the map image at a lower resolution, or as JPEG.' },
      );
    }
  }
  return { mode, requests };
}

/** One file of an upload: its name as the importable-event object names it, and its bytes. */
export interface UploadFile {
  name: string;
  bytes: Uint8Array;
}

export type UploadMode = 'zip' | 'per-file';

/** The name of the one zip an upload sends in `zip` mode, as Purple Pen names it [client]. */
export const UPLOAD_ZIP_NAME = 'files.zip';

/**
 * Largest upload request. The service's limit is unknown (guess); this is the simulator's body limit for the endpoint,
 * the same as a route import's, so that the simulator's body budget always has room for one.
 */
export const MAX_UPLOAD_BYTES = MAX_ROUTE_BODY_BYTES;

export interface CallOptions {
  signal?: AbortSignal | undefined;
}

export interface UploadOptions extends CallOptions {
  /**
   * `zip` (default): one `files.zip` holding every file, flat, as Purple Pen sends it, no Content-Type. `per-file`: one
   * request per file, `application/octet-stream`, as the service's documentation reads. Which the service takes is a
   * guess: both are supported.
   */
  mode?: UploadMode;
}

export interface UploadResult {
  /** Requests made: 1 in zip mode, one per file otherwise. */
  requests: number;
  /** The names sent: `files.zip`, or each file's. */
  sent: string[];
}

/** What a create that failed after it may have reached the service says (`LiveloxError.mayHaveTakenEffect`). */
export const MAY_HAVE_CREATED_EVENT =
  'The service may have created the importable event; it was not created again, since a second create makes a second draft. Such a draft cannot be found from here (its id never came back) and is harmless if never imported: publish again.';

const idSchema = z.string().min(1, { message: 'is empty' }).max(200, { message: 'is longer than 200 characters' });

export class ImportableEvents {
  readonly #client: ResourceRequester;

  constructor(client: ResourceRequester) {
    this.#client = client;
  }

  /**
   * `POST /importableEvents`: a new importable event. The answer's link carries its id and the import URL a person
   * opens to finish the import. Never repeated once it may have reached the service (see the module comment).
   */
  async create(event: ImportableEventInput, options: CallOptions = {}): Promise<ImportableEventLink> {
    const body = checkEvent(event);
    try {
      return await this.#client.requestJson(
        { method: 'POST', path: '/importableEvents', json: body, idempotent: false, signal: options.signal },
        anyCase(importableEventLinkSchema),
      );
    } catch (err) {
      if (err instanceof LiveloxError && err.mayHaveTakenEffect) throw err.restateEffect(MAY_HAVE_CREATED_EVENT);
      throw err;
    }
  }

  /**
   * `GET /importableEvents/{id}`: the object as stored; with `includeImportedEvent` (default true) also the event it
   * became (`importedEvent`, null until imported) and its link. 404 (removed) is a NotFoundError, 403 (not this user's)
   * an AuthError: `state()` reads both as gone.
   */
  async get(id: string, options: CallOptions & { includeImportedEvent?: boolean } = {}): Promise<ImportableEvent> {
    return this.#client.requestJson(
      {
        path: eventPath(id),
        query: { includeImportedEvent: String(options.includeImportedEvent ?? true) },
        signal: options.signal,
      },
      anyCase(importableEventAnswerSchema),
    );
  }

  /**
   * `PUT /importableEvents/{id}` with the whole object again. Its link still carries an import URL while the event was
   * never imported. A 403 is a `NotEventAdministratorError`: this user may not administer that event.
   */
  async update(id: string, event: ImportableEventInput, options: CallOptions = {}): Promise<ImportableEventLink> {
    const body = checkEvent(event);
    try {
      return await this.#client.requestJson(
        { method: 'PUT', path: eventPath(id), json: body, idempotent: true, signal: options.signal },
        anyCase(importableEventLinkSchema),
      );
    } catch (err) {
      // Observed, not published: 403 on the update means this user may not administer the event [client].
      if (err instanceof AuthError && !(err instanceof ScopeError) && err.status === 403) {
        throw new NotEventAdministratorError(id, err.body, {
          cause: err,
          ...(err.request ? { request: err.request } : {}),
          ...(err.attempts === undefined ? {} : { attempts: err.attempts }),
        });
      }
      throw err;
    }
  }

  /**
   * Uploads the files the object names: one `files.zip` (default) or one request per file. Names must be plain file
   * names, each once, and no request may pass `MAX_UPLOAD_BYTES`; both are checked before anything is sent. Given an
   * upload `prepareUpload` built, sends exactly its bytes (its mode wins over `options.mode`).
   */
  async uploadFiles(
    id: string,
    files: readonly UploadFile[] | PreparedUpload,
    options: UploadOptions = {},
  ): Promise<UploadResult> {
    checkId(id);
    const requests = 'requests' in files ? files.requests : prepareUpload(files, options.mode).requests;
    for (const r of requests) {
      // Purple Pen's zip goes without Content-Type and without Accept [client]; single files as octet-stream [doc].
      const request: RequestOptions = {
        method: 'POST',
        path: `${eventPath(id)}/files/${encodeURIComponent(r.name)}`,
        bytes: r.bytes,
        accept: null,
        // A file of the same name sent again replaces it (guess): safe to repeat.
        idempotent: true,
        signal: options.signal,
        ...(r.contentType === undefined ? {} : { contentType: r.contentType }),
      };
      await this.#client.request(request);
    }
    return { requests: requests.length, sent: requests.map((r) => r.name) };
  }

  /**
   * `GET /importableEvents/{id}/validationErrors`: what the service finds wrong. Its shape is unknown, so it is read
   * leniently: lists of errors and warnings where they can be read, the rest kept as `raw` text; never a failure of
   * its own (an HTTP error is still one).
   */
  async validationErrors(id: string, options: CallOptions = {}): Promise<ImportableEventValidation> {
    const res = await this.#client.request({ path: `${eventPath(id)}/validationErrors`, signal: options.signal });
    return readValidationAnswer(res.body.toString('utf8'));
  }

  /**
   * `PUT /importableEvents/{id}/import` with no body (Content-Length 0, no Content-Type) [client]: imports again an
   * event a person has imported once; the first import is always the person's step in the browser.
   */
  async import(id: string, options: CallOptions = {}): Promise<ImportableEventLink> {
    return this.#client.requestJson(
      { method: 'PUT', path: `${eventPath(id)}/import`, idempotent: true, signal: options.signal },
      anyCase(importableEventLinkSchema),
    );
  }

  /**
   * The state as the spec derives it from a GET [client]: `imported`, `not-imported`, or `gone` when the service answers
   * 404 (removed) or 403 (not this user's). The event is given when there is one.
   */
  async state(
    id: string,
    options: CallOptions = {},
  ): Promise<{ state: ImportableEventState; event?: ImportableEvent }> {
    let event: ImportableEvent;
    try {
      event = await this.get(id, { includeImportedEvent: true, signal: options.signal });
    } catch (error) {
      return { state: importableEventState({ error }) };
    }
    return { state: importableEventState({ event }), event };
  }
}

function checkId(id: string): void {
  checkParam('Importable event id', 'id', id, idSchema);
}

function eventPath(id: string): string {
  checkId(id);
  return `/importableEvents/${encodeURIComponent(id)}`;
}

/** The object checked before sending, with the schema the simulator checks it with. */
function checkEvent(event: ImportableEventInput): z.output<typeof importableEventInputSchema> {
  const parsed = importableEventInputSchema.safeParse(event);
  if (!parsed.success) throw new ValidationError('Importable event', issuesFromZod(parsed.error));
  return parsed.data;
}
