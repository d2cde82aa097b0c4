/**
 * The simulator's own endpoints under `/_simulator`, not part of the service: what a test or an integrator's CI needs
 * to drive it from outside the process (move the clock, make the user refuse consent, change the fault rate, look at
 * posted routes and request counts).
 */
import { z } from 'zod';
import type { SimRequest, SimResponse } from './http.js';
import { badRequest, issuesToErrors, json, message } from './http.js';
import type { FaultInjector } from './faults.js';
import type { SimState } from './state.js';
import type { SimStats } from './stats.js';

/** What the control endpoints reach of the running simulator (the server hands itself over as this). */
export interface SimulatorControls {
  readonly state: SimState;
  readonly stats: SimStats;
  readonly faults: FaultInjector;
  describe(): Record<string, unknown>;
  routes(): Array<Record<string, unknown>>;
}

const clockBody = z.object({ advanceMs: z.number().int().nonnegative() }).strict();
const decisionBody = z.object({ decision: z.enum(['approve', 'deny']) }).strict();
const faultsBody = z.object({ rate: z.number().min(0).max(1) }).strict();

function readJson<S extends z.ZodType>(
  req: SimRequest,
  schema: S,
): { ok: true; value: z.output<S> } | { ok: false; response: SimResponse } {
  let body: unknown;
  try {
    body = JSON.parse(req.body.toString('utf8'));
  } catch {
    return { ok: false, response: badRequest({ body: ['is not JSON'] }) };
  }
  const parsed = schema.safeParse(body);
  return parsed.success
    ? { ok: true, value: parsed.data }
    : { ok: false, response: badRequest(issuesToErrors(parsed.error.issues)) };
}

export function handleControl(req: SimRequest, sim: SimulatorControls): SimResponse {
  const state = sim.state;
  switch (`${req.method} ${req.path.replace(/\/$/, '')}`) {
    case 'GET ':
      return json(200, { ...sim.describe(), endpoints: CONTROL_ENDPOINTS });
    case 'GET /clock':
      return json(200, { now: new Date(state.clock.now()).toISOString(), offsetMs: state.clock.offsetMs });
    case 'POST /clock': {
      const body = readJson(req, clockBody);
      if (!body.ok) return body.response;
      state.clock.advance(body.value.advanceMs);
      return json(200, { now: new Date(state.clock.now()).toISOString(), offsetMs: state.clock.offsetMs });
    }
    case 'PUT /oauth/decision': {
      const body = readJson(req, decisionBody);
      if (!body.ok) return body.response;
      state.oauthDecision = body.value.decision;
      return json(200, { decision: state.oauthDecision });
    }
    case 'PUT /faults': {
      const body = readJson(req, faultsBody);
      if (!body.ok) return body.response;
      sim.faults.settings.rate = body.value.rate;
      return json(200, { rate: sim.faults.settings.rate });
    }
    case 'GET /routes':
      return json(200, sim.routes());
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
  'PUT /_simulator/faults {"rate": R}: share of API requests that fail',
  'GET /_simulator/routes: posted routes and their import state',
  'GET|DELETE /_simulator/stats: request counts per endpoint and status, faults injected',
];
