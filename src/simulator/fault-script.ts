/**
 * Fault scripts: an ordered list of steps, each striking the requests that match it (method, path) with one outcome,
 * for `count` matching requests or for `durationMs` from when it became current, then the next step. Requests that do
 * not match the current step pass untouched. The same script and the same requests in the same order give the same
 * outcomes (a step by time depends on when requests come, nothing else). The schema here is the one both the
 * simulator (`PUT /_simulator/faults`) and the CLI (checking a file before sending it) validate with.
 */
import { z } from 'zod';
import { ValidationError, type Issue } from '../errors.js';
import { MAX_STALL_MS, type Outcome } from './outcomes.js';
import { MAX_SMALL_BODY_BYTES } from './request-limits.js';

/** Steps in one script: enough for any timeline a test tells, few enough to read back. */
export const MAX_SCRIPT_STEPS = 100;
/** Longest step by time: a day. */
export const MAX_STEP_MS = 86_400_000;
const MAX_STEP_COUNT = 1_000_000;
/** Headers one scripted answer may set: the few a real refusal carries (retry-after, www-authenticate...) and more. */
export const MAX_STEP_HEADERS = 20;
/**
 * A script's size as compact JSON: what `PUT /_simulator/faults` takes (its body limit), less room for the braces, the
 * `script` key and a `rate`, so that every script this schema accepts can be sent.
 */
export const MAX_SCRIPT_JSON_BYTES = MAX_SMALL_BODY_BYTES - 100;

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
/** Headers a scripted answer may not set: they would break the answer's framing. */
const FRAMING_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection', 'date']);
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;
/** `/api/...` or `/auth/...`: segments of printable characters, `{name}` for any one segment. */
const PATH = /^\/(api|auth)(\/[^/\s?#]+)*\/?$/;

const STATUS = 'must be a status within 400..599';
const STALL = `must be 0..${MAX_STALL_MS} ms`;
const COUNT = `must be 1..${MAX_STEP_COUNT} requests`;
const DURATION = `must be 1..${MAX_STEP_MS} ms (a day)`;

const phase = z.enum(['before', 'after']).optional();
const headers = z
  .record(
    z
      .string()
      .regex(HEADER_NAME, 'must be a header name')
      .refine((name) => !FRAMING_HEADERS.has(name.toLowerCase()), 'is set by the simulator'),
    z
      .string()
      .max(1000)
      .regex(/^[\t\x20-\x7e]*$/, 'must be printable ASCII'),
  )
  .refine((h) => Object.keys(h).length <= MAX_STEP_HEADERS, `at most ${MAX_STEP_HEADERS} headers`);

const outcome = z.discriminatedUnion(
  'kind',
  [
    z
      .object({
        kind: z.literal('status'),
        status: z.number().int().min(400, STATUS).max(599, STATUS),
        headers: headers.optional(),
        message: z.string().max(1000).optional(),
        phase,
      })
      .strict(),
    z.object({ kind: z.literal('expired-token') }).strict(),
    z.object({ kind: z.literal('stall'), ms: z.number().int().min(0, STALL).max(MAX_STALL_MS, STALL), phase }).strict(),
    z.object({ kind: z.literal('reset'), phase }).strict(),
    z
      .object({ kind: z.literal('cut'), bytes: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional() })
      .strict(),
    z.object({ kind: z.literal('pass') }).strict(),
  ],
  { error: 'kind must be one of status, expired-token, stall, reset, cut, pass' },
);

/** One step as written; the CLI reads a simulator's progress with it too. */
export const faultScriptStepSchema = z
  .object({
    method: z.enum(METHODS, { error: `must be one of ${METHODS.join(', ')}` }).optional(),
    path: z.string().max(1000).regex(PATH, 'must be a path under /api/ or /auth/, such as /api/events/{id}').optional(),
    outcome,
    count: z.number().int().min(1, COUNT).max(MAX_STEP_COUNT, COUNT).optional(),
    durationMs: z.number().int().min(1, DURATION).max(MAX_STEP_MS, DURATION).optional(),
  })
  .strict();

/**
 * The steps in order; a step without `count` or `durationMs` never ends, so only the last may lack both. The checks
 * across steps run even when a step fails its own schema (`when`), so that a script's mistakes are told all at once;
 * they read the steps as they came (a step may be anything then).
 */
export const faultScriptSchema = z
  .array(faultScriptStepSchema)
  .max(MAX_SCRIPT_STEPS)
  .superRefine(
    (steps: readonly unknown[], ctx) => {
      if (!Array.isArray(steps)) return;
      steps.forEach((raw, i) => {
        if (typeof raw !== 'object' || raw === null) return;
        const s = raw as { count?: unknown; durationMs?: unknown; path?: unknown; outcome?: { kind?: unknown } };
        if (s.count === undefined && s.durationMs === undefined && i < steps.length - 1) {
          ctx.addIssue({
            code: 'custom',
            path: [i, 'count'],
            message: 'count or durationMs is needed: without either the step never ends, and the steps after it',
          });
        }
        if (s.outcome?.kind === 'expired-token' && typeof s.path === 'string' && !s.path.startsWith('/api/')) {
          ctx.addIssue({ code: 'custom', path: [i, 'path'], message: 'expired-token applies to /api paths only' });
        }
      });
      const bytes = Buffer.byteLength(JSON.stringify(steps));
      if (bytes > MAX_SCRIPT_JSON_BYTES) {
        ctx.addIssue({
          code: 'custom',
          path: [],
          message: `takes ${bytes} bytes as JSON, more than the ${MAX_SCRIPT_JSON_BYTES} a script may take`,
        });
      }
    },
    { when: () => true },
  );

/** `PUT /_simulator/faults`: the random rate, a script, or both; `"script": []` removes the script. */
export const faultsBodySchema = z
  .object({ rate: z.number().min(0).max(1).optional(), script: faultScriptSchema.optional() })
  .strict()
  .refine((b) => b.rate !== undefined || b.script !== undefined, { message: 'give rate, script or both' });

export type FaultScriptStep = z.output<typeof faultScriptStepSchema>;
/** What a step does: an outcome, or `pass` (let the matching requests through, counting them). */
export type StepOutcome = FaultScriptStep['outcome'];

/**
 * A validation failure's issues keyed `script[1].outcome.status` (the step's index in the array, then the field), as
 * the simulator's 400 and the CLI's message name them.
 */
export function scriptIssues(issues: readonly z.core.$ZodIssue[]): Record<string, string[]> {
  const errors: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
  for (const issue of issues) {
    const key = issue.path.reduce<string>(
      (at, part) => (typeof part === 'number' ? `${at}[${part}]` : at ? `${at}.${String(part)}` : String(part)),
      '',
    );
    const msg =
      issue.code === 'unrecognized_keys'
        ? `unknown: ${issue.keys.join(', ')}`
        : issue.code === 'invalid_key'
          ? issue.issues.map((i) => i.message).join('; ')
          : issue.message;
    (errors[key || 'body'] ??= []).push(msg);
  }
  return errors;
}

/**
 * Steps as a library caller gives them (`sim.faults.setScript`), checked with the schema the control endpoint uses:
 * a mistake is a ValidationError naming the step and field (`script[1].outcome.status`), never a request left
 * unanswered by an outcome the server does not know.
 */
export function parseFaultScript(steps: unknown): FaultScriptStep[] {
  const parsed = faultScriptSchema.safeParse(steps);
  if (parsed.success) return parsed.data;
  const byField = scriptIssues(parsed.error.issues.map((i) => ({ ...i, path: ['script', ...i.path] })));
  const issues: Issue[] = Object.entries(byField).flatMap(([path, messages]) =>
    messages.map((message) => ({ path, code: 'invalid', message })),
  );
  throw new ValidationError('Invalid fault script', issues);
}

/** A step's progress, as `GET /_simulator/faults` shows it. */
export interface FaultScriptStepProgress extends FaultScriptStep {
  state: 'done' | 'current' | 'waiting';
  /** Matching requests this step has taken (struck, or passed by a `pass` step). */
  matched: number;
}

export interface FaultScriptProgress {
  steps: FaultScriptStepProgress[];
  /** Index of the current step; null once every step is done. */
  current: number | null;
  stepsDone: number;
  /** Of the current step: matching requests left (count), and milliseconds left (durationMs); null when it has none. */
  requestsLeft: number | null;
  msLeft: number | null;
  finished: boolean;
}

/** A request as a script matches it. */
export interface ScriptRequest {
  method: string;
  /** The URL's path as sent (`/api/events/12`), without the query. */
  pathname: string;
}

export class FaultScript {
  readonly #steps: readonly FaultScriptStep[];
  readonly #matchers: ReadonlyArray<(r: ScriptRequest) => boolean>;
  readonly #matched: number[];
  readonly #now: () => number;
  #current = 0;
  /** When the current step became current (the `now` clock's milliseconds). */
  #since: number;

  constructor(steps: readonly FaultScriptStep[], now: () => number) {
    this.#steps = steps;
    this.#matchers = steps.map(matcher);
    this.#matched = steps.map(() => 0);
    this.#now = now;
    this.#since = now();
  }

  /**
   * The step that takes this request, if the current one matches it: counted, and moved past once its count is
   * reached. Undefined: the request passes untouched.
   */
  take(req: ScriptRequest): { index: number; outcome: StepOutcome } | undefined {
    const now = this.#now();
    this.#expire(now);
    const index = this.#current;
    const s = this.#steps[index];
    if (!s || !this.#matchers[index]!(req)) return undefined;
    this.#matched[index]!++;
    if (s.count !== undefined && this.#matched[index]! >= s.count) this.#advance(now);
    return { index, outcome: s.outcome };
  }

  progress(): FaultScriptProgress {
    const now = this.#now();
    this.#expire(now);
    const s = this.#steps[this.#current];
    return {
      steps: this.#steps.map((step, i) => ({
        ...step,
        state: i < this.#current ? 'done' : i === this.#current ? 'current' : 'waiting',
        matched: this.#matched[i]!,
      })),
      current: s ? this.#current : null,
      stepsDone: this.#current,
      requestsLeft: s?.count === undefined ? null : s.count - this.#matched[this.#current]!,
      msLeft: s?.durationMs === undefined ? null : Math.max(0, Math.ceil(this.#since + s.durationMs - now)),
      finished: !s,
    };
  }

  /** Steps by time whose time is up end at their due time, not when noticed: the next one's time counts from then. */
  #expire(now: number): void {
    for (let s = this.#steps[this.#current]; s?.durationMs !== undefined; s = this.#steps[this.#current]) {
      const end = this.#since + s.durationMs;
      if (now < end) return;
      this.#advance(end);
    }
  }

  #advance(at: number): void {
    this.#current++;
    this.#since = at;
  }
}

/**
 * The matching rule: the method when given; the path when given, segment by segment (the same number of segments,
 * each literal one equal, case-sensitive, a `{name}` one any single segment; a trailing slash and the query do not
 * count). A step without a path matches every /api request.
 */
function matcher(s: FaultScriptStep): (r: ScriptRequest) => boolean {
  const segments = s.path === undefined ? undefined : trimSlash(s.path).split('/');
  return (r) => {
    if (s.method !== undefined && r.method !== s.method) return false;
    if (segments === undefined) return r.pathname.startsWith('/api/');
    const got = trimSlash(r.pathname).split('/');
    return (
      got.length === segments.length &&
      segments.every((p, i) => p === got[i] || (/^\{[^}]*\}$/.test(p) && got[i] !== ''))
    );
  };
}

function trimSlash(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

/** A scripted outcome as the server carries it out (`pass` is no outcome: the request goes on). */
export function scriptOutcome(o: StepOutcome): Outcome | undefined {
  return o.kind === 'pass' ? undefined : o;
}
