/**
 * The Event Integration API (observed, not published: ../shared/spec/event-integration-observed.md) over the
 * simulator's state: importable events created, read, updated, given files (one `files.zip` or one request per file),
 * validated for real (importable-validation.ts) and imported into the simulated world (importable-import.ts). The first
 * import is a person's step in the browser: a page at the import URL with a button (importable-page.ts), or the
 * control endpoint a test presses it with. Requests are checked with the client's own schemas; JSON is read in either
 * casing, as Purple Pen sends PascalCase.
 */
import type { z } from 'zod';
import { readZip, zipNameProblem } from '../core/zip.js';
import { InputError } from '../errors.js';
import {
  camelKeys,
  IMPORTABLE_EVENTS_SCOPE,
  importableEventInputSchema,
} from '../resources/importable-event-schemas.js';
import { MAX_UPLOAD_BYTES, UPLOAD_ZIP_NAME } from '../resources/importable-events.js';
import { booleanParam } from '../resources/params.js';
import type { ApiRoute } from './api.js';
import { requireScope } from './auth.js';
import type { SimRequest, SimResponse } from './http.js';
import { badRequest, decodePathSegment, issuesToErrors, json, message, notJson } from './http.js';
import { importIntoWorld } from './importable-import.js';
import type { SimImportableEvent } from './importable-store.js';
import { validateImportable } from './importable-validation.js';
import type { SimEvent } from './model.js';
import type { Principal, SimState } from './state.js';
import type { SimWorld } from './world.js';

/** Files an importable event keeps, and their bytes in all: a map image and a course file or two, with room. */
const MAX_FILES = 100;
const MAX_FILE_BYTES_PER_EVENT = 2 * MAX_UPLOAD_BYTES;

export type ImportOutcome =
  { ok: true; event: SimEvent; first: boolean } | { ok: false; status: number; errors: string[] };

export class SimImportableEvents {
  readonly #state: SimState;
  readonly #world: SimWorld;
  readonly #viewerUrl: string;

  readonly #notFoundWithoutFiles: boolean;

  constructor(state: SimState, world: SimWorld, viewerUrl: string, options: { notFoundWithoutFiles?: boolean } = {}) {
    this.#notFoundWithoutFiles = options.notFoundWithoutFiles === true;
    this.#state = state;
    this.#world = world;
    this.#viewerUrl = viewerUrl;
  }

  /** The endpoints, for the API's route table. */
  routes(): ApiRoute[] {
    const one = '/importableEvents/([^/]+)';
    return [
      route('POST', /^\/importableEvents\/?$/, 'POST /importableEvents', (r, p) => this.#create(r, p)),
      route('GET', new RegExp(`^${one}/?$`), 'GET /importableEvents/{id}', (r, p, m) => this.#get(r, p, m[1]!)),
      route('PUT', new RegExp(`^${one}/?$`), 'PUT /importableEvents/{id}', (r, p, m) => this.#update(r, p, m[1]!)),
      {
        ...route(
          'POST',
          new RegExp(`^${one}/files/([^/]+)/?$`),
          'POST /importableEvents/{id}/files/{fileName}',
          (r, p, m) => this.#upload(r, p, m[1]!, m[2]!),
        ),
        maxBodyBytes: MAX_UPLOAD_BYTES,
      },
      route(
        'GET',
        new RegExp(`^${one}/validationErrors/?$`),
        'GET /importableEvents/{id}/validationErrors',
        (_r, p, m) => this.#validation(p, m[1]!),
      ),
      route('PUT', new RegExp(`^${one}/import/?$`), 'PUT /importableEvents/{id}/import', (_r, p, m) =>
        this.#reimport(p, m[1]!),
      ),
    ];
  }

  /** The addresses an importable event's link gives (guess: below the viewer address; the real shapes are unknown). */
  urls(event: SimImportableEvent): { import: string; show?: string; edit?: string } {
    const base = { import: `${this.#viewerUrl}/ImportableEvents/${encodeURIComponent(event.id)}/Import` };
    if (event.importedEventId === undefined) return base;
    return {
      ...base,
      show: `${this.#viewerUrl}/Viewer?eventId=${event.importedEventId}`,
      edit: `${this.#viewerUrl}/Events/${event.importedEventId}/Edit`,
    };
  }

  /**
   * The person's step in the browser (the page's button, or the control endpoint): validates, then imports. Refused
   * with the validation's errors (422) while there are any.
   */
  async importNow(event: SimImportableEvent): Promise<ImportOutcome> {
    const checked = await validateImportable(event);
    if (checked.errors.length > 0) return { ok: false, status: 422, errors: checked.errors };
    const data = checked.courses.values().next().value;
    if (!data) return { ok: false, status: 422, errors: ['No course file could be read.'] };
    const first = event.importedEventId === undefined;
    return { ok: true, event: importIntoWorld(event, data, this.#state, this.#world), first };
  }

  /** The link object [client]: the import URL until the person's import, then the show and edit URLs. */
  link(event: SimImportableEvent): Record<string, unknown> {
    const urls = this.urls(event);
    const imported = event.importedEventId !== undefined;
    return {
      id: event.id,
      liveloxImportEventUrl: imported ? null : urls.import,
      liveloxShowEventUrl: urls.show ?? null,
      liveloxEditEventUrl: urls.edit ?? null,
    };
  }

  /** A JSON answer in the casing the simulator is set to answer in (`SimAnswerStyle`). */
  answer(status: number, value: unknown): SimResponse {
    return json(status, this.#state.importableEvents.style.casing === 'pascal' ? pascalKeys(value) : value);
  }

  #create(req: SimRequest, principal: Principal): SimResponse {
    const denied = requireScope(principal, IMPORTABLE_EVENTS_SCOPE);
    if (denied) return denied;
    const body = readObject(req);
    if (!body.ok) return body.response;
    const event = this.#state.importableEvents.create(principal.identity, this.#ownerName(principal), body.value);
    return this.answer(200, this.link(event));
  }

  #get(req: SimRequest, principal: Principal, rawId: string): SimResponse {
    const found = this.#own(principal, rawId);
    if (!found.ok) return found.response;
    const flag = req.url.searchParams.get('includeImportedEvent');
    const include = flag === null ? { success: true as const, data: false } : booleanParam.safeParse(flag);
    if (!include.success) return badRequest({ includeImportedEvent: include.error.issues.map((i) => i.message) });
    const event = found.event;
    // Guess (SimulatorOptions.importableNotFoundWithoutFiles): the service may not find an event with no files yet.
    if (this.#notFoundWithoutFiles && event.files.size === 0) {
      return message(404, 'The importable event or its files were removed.');
    }
    const imported =
      event.importedEventId === undefined ? undefined : this.#state.eventsById.get(event.importedEventId);
    return this.answer(200, {
      ...event.object,
      ...(include.data ? { importedEvent: imported ? this.#importedEvent(imported, event) : null } : {}),
      link: this.link(event),
    });
  }

  #update(req: SimRequest, principal: Principal, rawId: string): SimResponse {
    const found = this.#own(principal, rawId);
    if (!found.ok) return found.response;
    const body = readObject(req);
    if (!body.ok) return body.response;
    found.event.object = body.value;
    found.event.updates += 1;
    return this.answer(200, this.link(found.event));
  }

  #upload(req: SimRequest, principal: Principal, rawId: string, rawName: string): SimResponse {
    const found = this.#own(principal, rawId);
    if (!found.ok) return found.response;
    const name = decodePathSegment(rawName);
    const problem = name === undefined ? 'is not validly percent-encoded' : zipNameProblem(name);
    if (name === undefined || problem !== undefined) {
      return badRequest({ fileName: [`'${rawName}' ${problem ?? ''}: send a plain file name`] });
    }
    const event = found.event;
    // Purple Pen's one zip [client]: its entries are the files, unless the object itself names a file so.
    const named = new Set([
      ...event.object.courseDataFileNames,
      ...event.object.maps.map((m) => m.fileName),
      ...(event.object.courseImageFileNames ?? []),
    ]);
    let files: Array<{ name: string; bytes: Uint8Array }>;
    if (name.toLowerCase() === UPLOAD_ZIP_NAME && !named.has(name)) {
      try {
        files = readZip(req.body, UPLOAD_ZIP_NAME, { maxEntries: MAX_FILES, maxTotalBytes: MAX_FILE_BYTES_PER_EVENT });
      } catch (err) {
        if (err instanceof InputError) return badRequest({ [UPLOAD_ZIP_NAME]: [err.message] });
        throw err;
      }
    } else {
      files = [{ name, bytes: new Uint8Array(req.body) }];
    }
    const after = new Map(event.files);
    for (const f of files) after.set(f.name, f.bytes);
    let bytes = 0;
    for (const b of after.values()) bytes += b.length;
    if (after.size > MAX_FILES || bytes > MAX_FILE_BYTES_PER_EVENT) {
      return message(
        413,
        `An importable event keeps at most ${MAX_FILES} files of ${MAX_FILE_BYTES_PER_EVENT} bytes in all.`,
      );
    }
    this.#state.importableEvents.setFiles(event, after);
    return this.answer(200, { fileNames: files.map((f) => f.name) });
  }

  async #validation(principal: Principal, rawId: string): Promise<SimResponse> {
    const found = this.#own(principal, rawId);
    if (!found.ok) return found.response;
    const { errors, warnings } = await validateImportable(found.event);
    if (this.#state.importableEvents.style.validation === 'text') {
      // A shape no client can read as lists: what a lenient reader must keep as text.
      const lines = [...errors.map((e) => `ERROR ${e}`), ...warnings.map((w) => `WARNING ${w}`)];
      return { status: 200, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: lines.join('\n') || 'OK' };
    }
    return this.answer(200, { errors, warnings });
  }

  async #reimport(principal: Principal, rawId: string): Promise<SimResponse> {
    const found = this.#own(principal, rawId);
    if (!found.ok) return found.response;
    if (found.event.importedEventId === undefined) {
      // [doc]: no API call imports an importable event the first time. The status is a guess.
      return message(
        400,
        "The first import is a person's step in the browser: open the import URL (liveloxImportEventUrl).",
      );
    }
    const outcome = await this.importNow(found.event);
    if (!outcome.ok)
      return json(outcome.status, {
        status: outcome.status,
        message: outcome.errors.join(' '),
        errors: outcome.errors,
      });
    return this.answer(200, this.link(found.event));
  }

  /** The importable event `rawId` when `principal` owns it; 404 when there is none, 403 when it is another's. */
  #own(
    principal: Principal,
    rawId: string,
  ): { ok: true; event: SimImportableEvent } | { ok: false; response: SimResponse } {
    const denied = requireScope(principal, IMPORTABLE_EVENTS_SCOPE);
    if (denied) return { ok: false, response: denied };
    const id = decodePathSegment(rawId);
    if (id === undefined) return { ok: false, response: badRequest({ id: [`'${rawId}' is not a valid id`] }) };
    const event = this.#state.importableEvents.get(id);
    if (!event) return { ok: false, response: message(404, `No importable event has the id '${id}'.`) };
    if (event.owner !== principal.identity) {
      return { ok: false, response: message(403, 'This user may not administer this importable event.') };
    }
    return { ok: true, event };
  }

  #ownerName(principal: Principal): string {
    if (principal.kind === 'apiKey') return principal.identity.replace(/^app:/, '');
    const user = this.#state.users.get(principal.userId);
    return user ? `${user.firstName} ${user.lastName}` : principal.userId;
  }

  /** The importedEvent object [client], from the world event. */
  #importedEvent(e: SimEvent, importable: SimImportableEvent): Record<string, unknown> {
    const country = { name: e.countryCode };
    return {
      id: e.id,
      name: e.name,
      organisers: e.organisers.map((o) => ({ name: o.name, country })),
      timeInterval: { start: new Date(e.startMs).toISOString(), end: new Date(e.endMs).toISOString() },
      country,
      publicationTime: new Date(e.modifiedMs).toISOString(),
      ownerRoles: [{ organisation: { name: importable.ownerName }, roleType: 1 }],
      ownerPersons: [],
    };
  }
}

function route(method: string, pattern: RegExp, name: string, handler: ApiRoute['handler']): ApiRoute {
  return { method, pattern, name, handler };
}

/** The JSON body as an importable-event object, in either casing; 415 or 400 otherwise. */
function readObject(
  req: SimRequest,
): { ok: true; value: z.output<typeof importableEventInputSchema> } | { ok: false; response: SimResponse } {
  const type = notJson(req);
  if (type !== undefined) {
    return {
      ok: false,
      response: message(415, `Send the importable event as Content-Type: application/json, not '${type}'.`),
    };
  }
  let body: unknown;
  try {
    body = JSON.parse(req.body.toString('utf8'));
  } catch {
    return { ok: false, response: badRequest({ body: ['is not JSON (send an importable-event object)'] }) };
  }
  const parsed = importableEventInputSchema.safeParse(camelKeys(body));
  if (!parsed.success) return { ok: false, response: badRequest(issuesToErrors(parsed.error.issues)) };
  return { ok: true, value: parsed.data };
}

/** Every object key with its first letter upper-cased: the PascalCase Purple Pen's side of the wire writes. */
function pascalKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(pascalKeys);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k.charAt(0).toUpperCase() + k.slice(1), pascalKeys(v)]),
  );
}
