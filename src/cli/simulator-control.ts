/**
 * `livelox-bridge simulator clock|churn|faults [VALUE]`: the control endpoints of a RUNNING simulator
 * (docs/simulator-server.md), by its control address, so that nobody writes curl with a JSON body to move its clock.
 * Without a value each reads the current setting; with one it changes it and prints what the simulator answered.
 * `faults` also sets and clears a fault script (simulator-faults.ts).
 */
import { z } from 'zod';
import { DEFAULT_SIMULATOR_PORT, ENV, joinUrl, trimSlash } from '../config.js';
import { Transport } from '../core/transport.js';
import { ConnectionError, HttpError, LiveloxError, ResponseShapeError, TimeoutError } from '../errors.js';
import { UsageError } from './command.js';
import { DURATION_UNITS, durationText, parseDuration } from './durations.js';
import { printJson } from './json-output.js';
import { faults, type ControlSend } from './simulator-faults.js';
import { EXIT, type CommandContext } from './spec.js';

/** The subcommands of `simulator` that drive a running one (commands/simulator/spec.ts declares them). */
export type ControlCommand = 'clock' | 'churn' | 'faults';

const DEFAULT_CONTROL_URL = `http://127.0.0.1:${DEFAULT_SIMULATOR_PORT}/_simulator`;

/** What `simulator <command> [value]` was given, already out of the option record. */
export interface ControlRequest {
  command: ControlCommand;
  /** The words after the command: none (read) or one value (change). */
  args: readonly string[];
  /** `--url`, if given. */
  url: string | undefined;
  /** `faults --script FILE|-`. */
  script?: string | undefined;
  /** `faults --clear`. */
  clear?: boolean;
}

/** Answers of the control endpoints, checked: an address that is not a simulator's must not pass for one. */
const clockAnswer = z.object({ now: z.string(), offsetMs: z.number() });
const churnAnswer = z.object({ rate: z.number() });

export async function runSimulatorControl(request: ControlRequest, ctx: CommandContext): Promise<number> {
  const { command } = request;
  if (request.args.length > 1) {
    throw new UsageError(`takes at most one value, got ${request.args.length}`);
  }
  const value = request.args[0];
  const base = controlUrl(request.url, ctx.env);
  const control = new ControlClient(base, ctx.signal);
  try {
    switch (command) {
      case 'clock':
        return await clock(control, value, ctx);
      case 'churn':
        return await churn(control, value, ctx);
      case 'faults': {
        const rate = value === undefined ? undefined : shareValue('faults', value);
        const send: ControlSend = (method, path, body, schema) => control.send(method, path, body, schema);
        return await faults(send, { rate, script: request.script, clear: request.clear ?? false }, ctx);
      }
    }
  } finally {
    await control.close();
  }
}

/** `--url` > LIVELOX_SIMULATOR_URL (the simulator's export block sets it) > the default port on this machine. */
function controlUrl(given: string | undefined, env: CommandContext['env']): string {
  const raw = given ?? (env[ENV.simulatorUrl] || undefined) ?? DEFAULT_CONTROL_URL;
  const from = given === undefined ? ENV.simulatorUrl : '--url';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(
      `${from} must be the simulator's control address, such as ${DEFAULT_CONTROL_URL}; got '${raw}'`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`${from} must be an http(s) address, such as ${DEFAULT_CONTROL_URL}; got '${raw}'`);
  }
  const path = trimSlash(url.pathname);
  // The simulator's origin alone is taken as its control address; one of its other three addresses is a mix-up.
  if (path === '') return `${trimSlash(url.toString())}/_simulator`;
  const area = /\/(api|auth|viewer)$/.exec(path)?.[1];
  if (area) {
    throw new UsageError(
      `${from} is the simulator's ${area} address; give its control address instead: ${url.origin}${path.slice(0, -area.length)}_simulator`,
    );
  }
  return trimSlash(url.toString());
}

/* --------------------------------------------------------------------------------------------------------- clock */

async function clock(control: ControlClient, value: string | undefined, ctx: CommandContext): Promise<number> {
  if (value === undefined) {
    const now = await control.send('GET', '/clock', undefined, clockAnswer);
    if (ctx.json) printJson(ctx, true, now);
    else ctx.io.out(`Simulated clock: ${now.now}, ${aheadText(now.offsetMs)}.`);
    return EXIT.ok;
  }
  const target = clockTarget(value);
  let advanceMs = target.kind === 'advance' ? target.ms : 0;
  if (target.kind === 'at') {
    const now = await control.send('GET', '/clock', undefined, clockAnswer);
    advanceMs = target.ms - Date.parse(now.now);
    if (advanceMs < 0) {
      throw new UsageError(
        `the simulated clock only moves forward: it is already ${now.now}, after ${new Date(target.ms).toISOString()}`,
      );
    }
  }
  const moved = await control.send('POST', '/clock', { advanceMs }, clockAnswer);
  if (ctx.json) printJson(ctx, true, { ...moved, advancedMs: advanceMs });
  else {
    ctx.io.out(
      `Moved the simulated clock ${durationText(advanceMs)} forward: it is now ${moved.now}, ${aheadText(moved.offsetMs)}.`,
    );
  }
  return EXIT.ok;
}

type ClockTarget = { kind: 'advance'; ms: number } | { kind: 'at'; ms: number };

/** A UTC date (midnight), or a date and time with `Z` or an offset: what a person types for "move it to then". */
const INSTANT = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2}))?$/;

/** `+1d`, `+36h`, `+1d12h`, `+90m` (an advance), or `2026-06-01` / `2026-06-01T12:00:00Z` (a time to move to). */
function clockTarget(text: string): ClockTarget {
  const trimmed = text.trim();
  const advance = trimmed.startsWith('-') ? undefined : parseDuration(trimmed.replace(/^\+/, ''));
  if (advance !== undefined) return { kind: 'advance', ms: advance };
  if (INSTANT.test(trimmed)) {
    const ms = Date.parse(trimmed.length === 10 ? `${trimmed}T00:00:00Z` : trimmed);
    if (Number.isFinite(ms)) return { kind: 'at', ms };
  }
  throw new UsageError(
    `takes an advance such as +1d, +36h, +1d12h or +90m (units ${DURATION_UNITS}), or a time to move to such as ` +
      `2026-06-01 or 2026-06-01T12:00:00Z; got '${text}'`,
  );
}

function aheadText(offsetMs: number): string {
  return offsetMs === 0 ? 'the same as real time' : `${durationText(offsetMs)} ahead of real time`;
}

/* ----------------------------------------------------------------------------------------------- churn, fault rate */

async function churn(control: ControlClient, value: string | undefined, ctx: CommandContext): Promise<number> {
  const answer =
    value === undefined
      ? await control.send('GET', '/churn', undefined, churnAnswer)
      : await control.send('PUT', '/churn', { rate: shareValue('churn', value) }, churnAnswer);
  if (ctx.json) printJson(ctx, true, answer);
  else ctx.io.out(churnText(answer.rate));
  return EXIT.ok;
}

/** `0.05` or `5%`: a share within 0..1. */
function shareValue(what: 'churn' | 'faults', text: string): number {
  const m = /^(\d+(?:\.\d+)?|\.\d+)(%?)$/.exec(text.trim());
  const n = m ? Number(m[1]) / (m[2] ? 100 : 1) : Number.NaN;
  if (!(n >= 0 && n <= 1)) {
    const of = what === 'churn' ? 'events that change per simulated day' : 'API requests that fail';
    throw new UsageError(`takes the share of ${of}, 0..1 (0.05 or 5%); got '${text}'`);
  }
  return n;
}

function churnText(rate: number): string {
  return rate === 0
    ? 'Churn: off (0); events change only when someone changes them.'
    : `Churn: ${rate}; that share of the events changes per simulated day as the clock is advanced.`;
}

/* -------------------------------------------------------------------------------------------------------- client */

/**
 * The control endpoints over HTTP, through the library's transport without retries: a clock advance repeated after a
 * lost answer would move the clock twice. Every failure says which address was tried and what to do.
 */
class ControlClient {
  readonly #base: string;
  readonly #signal: AbortSignal;
  readonly #transport = new Transport({ connectTimeoutMs: 5000, headersTimeoutMs: 30_000, ratePerSecond: 0 });

  constructor(base: string, signal: AbortSignal) {
    this.#base = base;
    this.#signal = signal;
  }

  async send<S extends z.ZodType>(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    body: Record<string, unknown> | undefined,
    schema: S,
  ): Promise<z.output<S>> {
    const url = joinUrl(this.#base, path);
    const info = { method, path: `${new URL(this.#base).pathname}${path}` };
    let answer;
    try {
      answer = await this.#transport.request({
        method,
        url,
        info,
        noRetry: true,
        signal: this.#signal,
        ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
      });
    } catch (err) {
      throw this.#unreachable(err);
    }
    const text = answer.body.toString('utf8');
    const said = refusal(text);
    if (answer.status === 400) throw new UsageError(`the simulator refused it: ${said ?? 'bad request'}`);
    if (answer.status >= 300) {
      const notOurs =
        answer.status === 404
          ? `. Is ${this.#base} a simulator's control address (it ends in /_simulator)? A simulator older than this ` +
            'command may lack the endpoint'
          : '';
      throw new HttpError(
        answer.status === 404 ? 'not_found' : 'http',
        answer.status,
        `${this.#base} answered ${answer.status}${said === undefined ? '' : `: ${said}`}${notOurs}`,
        text,
        { request: info },
      );
    }
    const parsed = schema.safeParse(jsonOrUndefined(text));
    if (!parsed.success) {
      throw new ResponseShapeError(
        `${url.href} answered, but not as a simulator's control endpoint does`,
        [{ code: 'shape', message: `expected ${path.slice(1)} settings, got ${text.slice(0, 120) || 'nothing'}` }],
        { request: info },
      );
    }
    return parsed.data;
  }

  /** The transport's network failure, said about the simulator: nothing answers there, or not in time. */
  #unreachable(err: unknown): unknown {
    if (!(err instanceof LiveloxError)) return err;
    const hint =
      'Start one with `livelox-bridge simulator` (it prints its control address), or give the address of a running ' +
      `one with --url or ${ENV.simulatorUrl}.`;
    if (err instanceof TimeoutError) {
      return new TimeoutError(`The simulator at ${this.#base} did not answer in time.`, { cause: err, hint });
    }
    if (err instanceof ConnectionError) {
      const code = networkCode(err.cause);
      const why = code === 'ECONNREFUSED' ? 'connection refused' : code || 'connection failed';
      return new ConnectionError(`No simulator answers at ${this.#base} (${why}).`, { cause: err, hint });
    }
    return err;
  }

  close(): Promise<void> {
    return this.#transport.close();
  }
}

/** The system error code of a network failure; several addresses tried at once (localhost) give an AggregateError. */
function networkCode(cause: unknown): string {
  const c = cause as { code?: unknown; errors?: unknown } | null;
  if (typeof c?.code === 'string') return c.code;
  if (Array.isArray(c?.errors)) return networkCode(c.errors[0]);
  return '';
}

/** The simulator's refusal in one line: `errors` by field (its 400s), else its `message`; undefined for no JSON. */
function refusal(text: string): string | undefined {
  const body = z
    .object({ errors: z.record(z.string(), z.array(z.string())).optional(), message: z.string().optional() })
    .safeParse(jsonOrUndefined(text));
  if (body.success && body.data.errors && Object.keys(body.data.errors).length > 0) {
    return Object.entries(body.data.errors)
      .map(([field, messages]) => `${field}: ${messages.join('; ')}`)
      .join('; ');
  }
  return body.success ? body.data.message : undefined;
}

function jsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
