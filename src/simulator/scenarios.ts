/**
 * Scenarios per request: a client under test asks for one outcome of one request with the `X-Simulator-Scenario`
 * header, without changing the simulator's settings for everyone else sharing it. `status=429; retry-after=2`,
 * `status=503`, `expired-token`, `stall=1500`, `reset`, `cut`. Parsing only; the server carries them out, as it
 * carries out a fault script's steps (outcomes.ts: both offer the same outcomes).
 */
import { MAX_STALL_MS, type Outcome } from './outcomes.js';

export const SCENARIO_HEADER = 'x-simulator-scenario';

/** The scenarios and what each takes, as a 400 lists them. */
export const SCENARIOS = [
  'status=NNN (400-599), with retry-after=S optionally',
  'expired-token',
  'stall=MS (then the connection is reset)',
  'reset',
  'cut or cut=BYTES (the real answer, its body cut short: half of it, or BYTES)',
] as const;

export type ScenarioParse = { ok: true; scenario: Outcome; text: string } | { ok: false; problem: string };

/** The header's value read; a problem names what was wrong and the scenarios known. */
export function parseScenario(value: string): ScenarioParse {
  const parts = value
    .split(';')
    .map((p) => p.trim())
    .filter(Boolean);
  const fields = new Map<string, string | undefined>();
  for (const part of parts) {
    const eq = part.indexOf('=');
    const name = (eq < 0 ? part : part.slice(0, eq)).trim().toLowerCase();
    if (fields.has(name)) return refuse(`'${name}' is given twice`);
    fields.set(name, eq < 0 ? undefined : part.slice(eq + 1).trim());
  }
  const scenario = read(fields);
  return typeof scenario === 'string' ? refuse(scenario) : { ok: true, scenario, text: parts.join('; ') };
}

function read(fields: Map<string, string | undefined>): Outcome | string {
  const names = [...fields.keys()];
  const only = (name: string) => (names.length === 1 ? undefined : `'${name}' takes nothing else beside it`);
  if (fields.has('status')) {
    const status = integer(fields.get('status'));
    if (status === undefined || status < 400 || status > 599)
      return `status must be 400..599, got '${fields.get('status') ?? ''}'`;
    const extra = names.filter((n) => n !== 'status' && n !== 'retry-after');
    if (extra.length > 0) return `unknown scenario ${extra.map((n) => `'${n}'`).join(', ')}`;
    if (!fields.has('retry-after')) return { kind: 'status', status };
    const retryAfterS = integer(fields.get('retry-after'));
    if (retryAfterS === undefined) return `retry-after must be whole seconds, got '${fields.get('retry-after') ?? ''}'`;
    return { kind: 'status', status, headers: { 'retry-after': String(retryAfterS) } };
  }
  if (fields.has('expired-token')) return only('expired-token') ?? { kind: 'expired-token' };
  if (fields.has('reset')) return only('reset') ?? { kind: 'reset' };
  if (fields.has('stall')) {
    const ms = integer(fields.get('stall'));
    if (ms === undefined || ms > MAX_STALL_MS)
      return `stall must be 0..${MAX_STALL_MS} ms, got '${fields.get('stall') ?? ''}'`;
    return only('stall') ?? { kind: 'stall', ms };
  }
  if (fields.has('cut')) {
    const value = fields.get('cut');
    if (value === undefined) return only('cut') ?? { kind: 'cut' };
    const bytes = integer(value);
    if (bytes === undefined) return `cut takes whole bytes, got '${value}'`;
    return only('cut') ?? { kind: 'cut', bytes };
  }
  if (fields.has('retry-after')) return 'retry-after goes with status=NNN';
  return names.length === 0 ? 'the header is empty' : `unknown scenario ${names.map((n) => `'${n}'`).join(', ')}`;
}

function integer(text: string | undefined): number | undefined {
  return text !== undefined && /^\d{1,9}$/.test(text) ? Number(text) : undefined;
}

function refuse(problem: string): ScenarioParse {
  return { ok: false, problem: `${problem}; the scenarios are: ${SCENARIOS.join(', ')}` };
}
