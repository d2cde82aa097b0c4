/**
 * The simulator's own endpoints under `/_simulator`, not part of the service: what a test or an integrator's CI needs
 * to drive it from outside the process (move the clock, make the user refuse consent, change the fault rate, create,
 * change and delete events, look at posted routes, changes and request counts). Event edits call the same world
 * functions a test in the process calls, so both are checked alike.
 */
import { z } from 'zod';
import { ValidationError } from '../errors.js';
import { eventIdParam } from '../resources/events.js';
import { MAX_ADVANCE_MS, MAX_CLOCK_YEARS } from './clock.js';
import { DAY_MS } from './dataset/calendar.js';
import type { SimRequest, SimResponse } from './http.js';
import { badRequest, decodePathSegment, issuesToErrors, json, message } from './http.js';
import { faultsBodySchema, scriptIssues } from './fault-script.js';
import type { FaultInjector } from './faults.js';
import type { SimImportableEvents } from './importable-events.js';
import type { SimJournal } from './journal.js';
import { handleJournal } from './journal-control.js';
import type { SimEvent } from './model.js';
import { eventRecord } from './records.js';
import type { SimState } from './state.js';
import type { SimStats } from './stats.js';
import type { SimWorld } from './world.js';

/** What the control endpoints reach of the running simulator (the server hands itself over as this). */
export interface SimulatorControls {
  readonly state: SimState;
  readonly stats: SimStats;
  readonly faults: FaultInjector;
  readonly world: SimWorld;
  readonly importableEvents: SimImportableEvents;
  readonly journal: SimJournal;
  readonly info: { readonly viewerUrl: string; readonly controlUrl: string };
  describe(): Record<string, unknown>;
  /** The churn rate (0: events change only when a test changes them). */
  readonly churn: number;
  setChurn(rate: number): void;
  routes(): Array<Record<string, unknown>>;
  memory(): Record<string, number>;
  openApi(): Record<string, unknown>;
}

/** Largest single advance while churn is on: a year of simulated days, worked through in well under a second. */
const MAX_CHURN_ADVANCE_MS = 366 * DAY_MS;

/**
 * Bounded, so that the simulated clock stays a valid date: an advance past year 275760 made every date an Invalid
 * Date and broke the simulator until restart. 100 years per call; the clock refuses to pass MAX_CLOCK_YEARS.
 */
const clockBody = z.object({ advanceMs: z.number().int().nonnegative().max(MAX_ADVANCE_MS) }).strict();
const decisionBody = z.object({ decision: z.enum(['approve', 'deny']) }).strict();
const churnBody = z.object({ rate: z.number().min(0).max(1) }).strict();
const userBody = z.object({ userId: z.string().min(1) }).strict();
const answerStyleBody = z
  .object({ casing: z.enum(['camel', 'pascal']).optional(), validation: z.enum(['lists', 'text']).optional() })
  .strict();

function readJson<S extends z.ZodType>(
  req: SimRequest,
  schema: S,
): { ok: true; value: z.output<S> } | { ok: false; response: SimResponse } {
  const body = readBody(req);
  if (!body.ok) return body;
  const parsed = schema.safeParse(body.value);
  return parsed.success
    ? { ok: true, value: parsed.data }
    : { ok: false, response: badRequest(issuesToErrors(parsed.error.issues)) };
}

function readBody(req: SimRequest): { ok: true; value: unknown } | { ok: false; response: SimResponse } {
  try {
    return { ok: true, value: JSON.parse(req.body.toString('utf8')) };
  } catch {
    return { ok: false, response: badRequest({ body: ['is not JSON'] }) };
  }
}

/** A world call, its refusal as the 400 a refused API request gets (`errors` keyed by field). */
function worldCall(call: () => SimResponse): SimResponse {
  try {
    return call();
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    const errors: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
    for (const issue of err.issues) (errors[issue.path ?? 'body'] ??= []).push(issue.message);
    return badRequest(errors);
  }
}

function record(sim: SimulatorControls, event: SimEvent): Record<string, unknown> {
  const options = { includeClasses: true, includeProperties: true, includeUrls: true, cultureCode: 'en-US' };
  return eventRecord(event, sim.state, { ...options, viewerUrl: sim.info.viewerUrl });
}

/** `/events/{id}`: change or delete one event. */
function handleEvent(req: SimRequest, sim: SimulatorControls, rawId: string): SimResponse {
  const decoded = decodePathSegment(rawId);
  if (decoded === undefined) return badRequest({ eventId: [`'${rawId}' is not a valid percent-encoded id`] });
  const parsedId = eventIdParam.safeParse(decoded);
  if (!parsedId.success) return badRequest({ eventId: parsedId.error.issues.map((i) => i.message) });
  const id = parsedId.data;
  const missing = () => message(404, `No event has the id ${id}.`);
  switch (req.method) {
    case 'PATCH': {
      const body = readBody(req);
      if (!body.ok) return body.response;
      return worldCall(() => {
        const event = sim.world.changeEvent(id, body.value as Parameters<SimWorld['changeEvent']>[1]);
        return event ? json(200, record(sim, event)) : missing();
      });
    }
    case 'DELETE':
      return sim.world.deleteEvent(id) ? json(200, { id, deleted: true }) : missing();
    default:
      return message(405, `${req.method} is not allowed on /_simulator/events/${id}; use PATCH, DELETE.`, {
        allow: 'PATCH, DELETE',
      });
  }
}

/** What the fault endpoints answer: the rate, the settings it works with, and the script with its progress. */
function faultSettings(sim: SimulatorControls): Record<string, unknown> {
  const { rate, kinds, stallMs } = sim.faults.settings;
  return { rate, kinds, stallMs, script: sim.faults.scriptProgress() };
}

/** `PUT /faults {"rate"?, "script"?}`: a bad script is a 400 naming the step and field (`script[1].count`). */
function setFaults(req: SimRequest, sim: SimulatorControls): SimResponse {
  const body = readBody(req);
  if (!body.ok) return body.response;
  const parsed = faultsBodySchema.safeParse(body.value);
  if (!parsed.success) return badRequest(scriptIssues(parsed.error.issues));
  const { rate, script } = parsed.data;
  if (rate !== undefined) sim.faults.settings.rate = rate;
  if (script !== undefined) sim.faults.setScript(script);
  return json(200, faultSettings(sim));
}

/** `/importable-events...`: list them, press an import button, delete one, set how answers are written. */
async function handleImportable(req: SimRequest, sim: SimulatorControls, rest: string): Promise<SimResponse> {
  const store = sim.state.importableEvents;
  if (rest === '/answers') {
    if (req.method === 'GET') return json(200, store.style);
    if (req.method !== 'PUT') return message(405, 'Use GET or PUT on /_simulator/importable-events/answers.');
    const body = readJson(req, answerStyleBody);
    if (!body.ok) return body.response;
    const { casing, validation } = body.value;
    store.style = { casing: casing ?? store.style.casing, validation: validation ?? store.style.validation };
    return json(200, store.style);
  }
  if (rest === '' && req.method === 'GET') {
    return json(
      200,
      store.list().map((e) => ({
        id: e.id,
        owner: e.owner,
        name: e.object.name,
        files: [...e.files.keys()],
        importedEventId: e.importedEventId ?? null,
        imports: e.imports,
        updates: e.updates,
      })),
    );
  }
  const one = /^\/([^/]+)(\/import)?$/.exec(rest);
  const id = one ? decodePathSegment(one[1]!) : undefined;
  const event = id === undefined ? undefined : store.get(id);
  if (!one || !event) return message(404, `No importable event at /_simulator/importable-events${rest}.`);
  if (one[2] && req.method === 'POST') {
    const outcome = await sim.importableEvents.importNow(event);
    if (!outcome.ok) return json(outcome.status, { status: outcome.status, errors: outcome.errors });
    return json(200, { id: event.id, eventId: outcome.event.id, first: outcome.first });
  }
  if (!one[2] && req.method === 'DELETE') {
    store.delete(event.id);
    return json(200, { id: event.id, deleted: true });
  }
  return message(405, `${req.method} is not allowed on /_simulator/importable-events${rest}.`);
}

/** The paths with an id in them: one event (`/events/{id}`), the importable events (`/importable-events...`). */
function handleUnder(req: SimRequest, sim: SimulatorControls): SimResponse | Promise<SimResponse> | undefined {
  const eventPath = /^\/events\/([^/]+)\/?$/.exec(req.path);
  if (eventPath) return handleEvent(req, sim, eventPath[1]!);
  const importable = /^\/importable-events(\/.*?)?\/?$/.exec(req.path);
  if (importable) return handleImportable(req, sim, importable[1] ?? '');
  return undefined;
}

/** `PUT /oauth/user`: who signs in at consent from now on. */
function signInAs(req: SimRequest, state: SimState): SimResponse {
  const body = readJson(req, userBody);
  if (!body.ok) return body.response;
  if (!state.users.has(body.value.userId)) {
    return badRequest({
      userId: [`no simulated user '${body.value.userId}' (${[...state.users.keys()].join(', ')})`],
    });
  }
  state.signedInUserId = body.value.userId;
  return json(200, { userId: state.signedInUserId });
}

/** `POST /clock {"advanceMs": N}`: the simulated clock moved forward, within its limits. */
function advanceClock(req: SimRequest, sim: SimulatorControls): SimResponse {
  const body = readJson(req, clockBody);
  if (!body.ok) return body.response;
  // With churn, every simulated day of an advance is worked through before the answer: a long advance would hold
  // the simulator (and every other client) for minutes. Such a jump is made in steps of at most a year.
  if (sim.churn > 0 && body.value.advanceMs > MAX_CHURN_ADVANCE_MS) {
    return badRequest({
      advanceMs: [`with churn, the clock advances at most ${MAX_CHURN_ADVANCE_MS / DAY_MS} days at a time`],
    });
  }
  const clock = sim.state.clock;
  if (!clock.canAdvance(body.value.advanceMs)) {
    return badRequest({ advanceMs: [`would move the clock past its limit of ${MAX_CLOCK_YEARS} years ahead`] });
  }
  clock.advance(body.value.advanceMs);
  return clockAnswer(sim.state);
}

function clockAnswer(state: SimulatorControls['state']): SimResponse {
  return json(200, { now: new Date(state.clock.now()).toISOString(), offsetMs: state.clock.offsetMs });
}

export function handleControl(req: SimRequest, sim: SimulatorControls): SimResponse | Promise<SimResponse> {
  const state = sim.state;
  const under = handleUnder(req, sim);
  if (under) return under;
  const journal = handleJournal(req, sim.journal, new URL(sim.info.controlUrl).origin);
  if (journal) return journal;
  switch (`${req.method} ${req.path.replace(/\/$/, '')}`) {
    case 'GET ':
      return json(200, { ...sim.describe(), endpoints: CONTROL_ENDPOINTS });
    case 'GET /clock':
      return clockAnswer(state);
    case 'POST /clock':
      return advanceClock(req, sim);
    case 'PUT /oauth/decision': {
      const body = readJson(req, decisionBody);
      if (!body.ok) return body.response;
      state.oauthDecision = body.value.decision;
      return json(200, { decision: state.oauthDecision });
    }
    case 'PUT /oauth/user':
      return signInAs(req, state);
    case 'GET /faults':
      return json(200, faultSettings(sim));
    case 'PUT /faults':
      return setFaults(req, sim);
    case 'DELETE /faults':
      sim.faults.setScript([]);
      return json(200, faultSettings(sim));
    case 'GET /churn':
      return json(200, { rate: sim.churn });
    case 'PUT /churn': {
      const body = readJson(req, churnBody);
      if (!body.ok) return body.response;
      sim.setChurn(body.value.rate);
      return json(200, { rate: sim.churn });
    }
    case 'POST /events': {
      const body = readBody(req);
      if (!body.ok) return body.response;
      // The world checks the body with its zod schema: anything else than an event input is refused there.
      return worldCall(() =>
        json(201, record(sim, sim.world.createEvent(body.value as Parameters<SimWorld['createEvent']>[0]))),
      );
    }
    case 'GET /changes':
      return json(200, { changes: sim.world.changes(), dropped: sim.world.droppedChanges });
    case 'DELETE /changes':
      sim.world.clearChanges();
      return json(200, { changes: [], dropped: sim.world.droppedChanges });
    case 'GET /routes':
      return json(200, sim.routes());
    case 'GET /openapi.json':
      return json(200, sim.openApi());
    case 'GET /memory':
      return json(200, sim.memory());
    case 'GET /stats':
      return json(200, sim.stats.snapshot());
    case 'DELETE /stats':
      sim.stats.reset();
      return json(200, sim.stats.snapshot());
    default:
      return message(
        404,
        `The simulator has no control endpoint ${req.method} /_simulator${req.path}. See GET /_simulator.`,
      );
  }
}

const CONTROL_ENDPOINTS = [
  'GET /_simulator: addresses and dataset summary',
  'GET|POST /_simulator/clock {"advanceMs": N}: read or advance the simulated clock',
  'PUT /_simulator/oauth/decision {"decision": "approve"|"deny"}: what the simulated user answers at consent',
  'PUT /_simulator/oauth/user {"userId": "sim-user-2"}: who signs in at consent from now on (default sim-user-1)',
  'GET|PUT /_simulator/faults {"rate": R, "script": [steps]}: share of API requests that fail, and a fault script',
  'DELETE /_simulator/faults: remove the fault script (the rate stays)',
  'GET|PUT /_simulator/churn {"rate": R}: share of events that change per simulated day while the clock advances',
  'POST /_simulator/events {name, start, end, countryCode, organisers, ...}: create an event (201, its record)',
  'PATCH /_simulator/events/{id} {name?, start?, end?, addClasses?, renameClasses?, removeClasses?, ...}: change it',
  'DELETE /_simulator/events/{id}: delete an event (404 from then on, absent from every search)',
  'GET|DELETE /_simulator/changes: the log of created, changed and deleted events (tests and churn)',
  'GET /_simulator/routes: posted routes and their import state',
  'GET /_simulator/importable-events: importable events, their files and the event each was imported as',
  "POST /_simulator/importable-events/{id}/import: the person's import in the browser (422 with the errors)",
  'DELETE /_simulator/importable-events/{id}: delete one (404 from then on)',
  'GET|PUT /_simulator/importable-events/answers {"casing": "camel"|"pascal", "validation": "lists"|"text"}',
  'GET|DELETE /_simulator/stats: request counts per endpoint and status, faults injected',
  'GET /_simulator/openapi.json: the OpenAPI 3.1 document of the contract served (API and OAuth endpoints)',
  'GET|DELETE /_simulator/journal?since=SEQ|TIME&path=/api/...&status=429|4xx|reset: requests and answers, secrets redacted',
  'GET /_simulator/journal.har: the same as HAR 1.2 (the same filters)',
  'GET /_simulator/memory: process.memoryUsage(), peak RSS, routes and route bytes kept, body bytes and requests in flight',
];
