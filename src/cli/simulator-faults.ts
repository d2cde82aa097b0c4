/**
 * `livelox-bridge simulator faults [RATE] [--script FILE|-] [--clear]`: the random fault rate and the fault script of a
 * running simulator (docs/simulator-server.md, "Fault scripts"). A script is checked here with the simulator's own
 * schema before it is sent, so that a mistake is named by step and field without a round trip.
 */
import { z } from 'zod';
import {
  faultScriptStepSchema,
  faultsBodySchema,
  scriptIssues,
  type FaultScriptStep,
} from '../simulator/fault-script.js';
import { readInputFile } from '../core/files.js';
import { UsageError } from './command.js';
import { durationText } from './durations.js';
import { readErrorText } from './input-files.js';
import { printJson } from './json-output.js';
import { EXIT, type CommandContext } from './spec.js';

/** What `simulator faults` was given, beside the rate already read. */
export interface FaultsRequest {
  rate: number | undefined;
  /** `--script`: a file, or `-` for stdin. */
  script: string | undefined;
  clear: boolean;
}

/** The control client's one call this needs (simulator-control.ts holds the client). */
export type ControlSend = <S extends z.ZodType>(
  method: 'GET' | 'PUT' | 'DELETE',
  path: string,
  body: Record<string, unknown> | undefined,
  schema: S,
) => Promise<z.output<S>>;

/** A script on stdin or in a file is a control body, not a dataset: a megabyte is far more than 100 steps take. */
const MAX_SCRIPT_BYTES = 1024 * 1024;

const stepProgress = faultScriptStepSchema.extend({
  state: z.enum(['done', 'current', 'waiting']),
  matched: z.number(),
});

/** The answer of `/_simulator/faults`; `script` is absent from a simulator older than fault scripts. */
export const faultsAnswer = z.object({
  rate: z.number(),
  kinds: z.array(z.string()),
  stallMs: z.number(),
  script: z
    .object({
      steps: z.array(stepProgress),
      current: z.number().nullable(),
      stepsDone: z.number(),
      requestsLeft: z.number().nullable(),
      msLeft: z.number().nullable(),
      finished: z.boolean(),
    })
    .nullable()
    .optional(),
});
type FaultsAnswer = z.output<typeof faultsAnswer>;

export async function faults(send: ControlSend, request: FaultsRequest, ctx: CommandContext): Promise<number> {
  const { rate, clear } = request;
  if (clear && request.script !== undefined) {
    throw new UsageError('--clear removes the script and --script sets one: give one of them');
  }
  let answer: FaultsAnswer;
  if (request.script !== undefined) {
    const body = await scriptBody(request.script, rate);
    answer = await send('PUT', '/faults', body, faultsAnswer);
  } else if (clear) {
    answer =
      rate === undefined
        ? await send('DELETE', '/faults', undefined, faultsAnswer)
        : await send('PUT', '/faults', { rate, script: [] }, faultsAnswer);
  } else {
    answer =
      rate === undefined
        ? await send('GET', '/faults', undefined, faultsAnswer)
        : await send('PUT', '/faults', { rate }, faultsAnswer);
  }
  if (ctx.json) printJson(ctx, true, { ...answer, script: answer.script ?? null });
  else ctx.io.out(faultsText(answer));
  return EXIT.ok;
}

/**
 * The body to send: the file holds the steps (a JSON array), or the endpoint's whole body (`{"script": [...]}`, with
 * `rate` optionally); checked with the simulator's schema.
 */
async function scriptBody(source: string, rate: number | undefined): Promise<Record<string, unknown>> {
  const from = source === '-' ? 'stdin' : source;
  const bytes = source === '-' ? await readStdin() : await readScriptFile(source);
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch (err) {
    throw new UsageError(`--script ${from} is not JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
  const body: Record<string, unknown> = Array.isArray(value) ? { script: value } : { ...(value as object) };
  if (typeof value !== 'object' || value === null || !('script' in body)) {
    throw new UsageError(`--script ${from} must hold the steps, a JSON array (or {"script": [...]})`);
  }
  if (rate !== undefined) {
    if ('rate' in body) throw new UsageError(`the rate is given twice: on the command line and in ${from}`);
    body.rate = rate;
  }
  const checked = faultsBodySchema.safeParse(body);
  if (!checked.success) {
    const said = Object.entries(scriptIssues(checked.error.issues))
      .map(([field, messages]) => `${field}: ${messages.join('; ')}`)
      .join('; ');
    throw new UsageError(`--script ${from} is not a fault script the simulator takes: ${said}`);
  }
  return checked.data;
}

/** A script file is an argument like any other: one that cannot be read is a usage error naming the option. */
async function readScriptFile(file: string): Promise<Uint8Array> {
  try {
    return await readInputFile(file, { maxBytes: MAX_SCRIPT_BYTES });
  } catch (err) {
    throw new UsageError(`--script ${file}: cannot read it: ${readErrorText(err)}`);
  }
}

async function readStdin(): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
    length += chunk.length;
    if (length > MAX_SCRIPT_BYTES) throw new UsageError(`--script - : stdin holds more than ${MAX_SCRIPT_BYTES} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, length);
}

/* ------------------------------------------------------------------------------------------------------------ text */

function faultsText(f: FaultsAnswer): string {
  const script = f.script;
  const scripted = script && !script.finished;
  const rate =
    f.rate === 0
      ? `Faults: no random faults (rate 0)${scripted ? '.' : '; every API request is answered.'}`
      : `Faults: ${f.rate} of API requests fail (drawn from ${f.kinds.join(', ')}; a stall hangs ${durationText(f.stallMs)}).`;
  if (!script) return f.script === null ? `${rate}\nNo fault script.` : rate;
  const n = script.steps.length;
  const where =
    script.current === null
      ? `finished, all ${n} steps done; requests pass untouched until it is replaced or cleared`
      : `at step [${script.current}] of ${n}, ${script.stepsDone} done${leftText(script)}`;
  const rows = script.steps.map((s, i) => [`[${i}]`, s.state, matchText(s), doText(s.outcome), spanText(s)]);
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  const lines = rows.map(
    (r) => `  ${r.map((cell, c) => (c < r.length - 1 ? cell.padEnd(widths[c]!) : cell)).join('  ')}`,
  );
  return [rate, `Fault script: ${where}.`, ...lines].join('\n');
}

function leftText(s: NonNullable<FaultsAnswer['script']>): string {
  const left = [
    ...(s.requestsLeft === null ? [] : [`${s.requestsLeft} request${s.requestsLeft === 1 ? '' : 's'}`]),
    ...(s.msLeft === null ? [] : [durationText(s.msLeft)]),
  ];
  return left.length === 0 ? ' (until the script is replaced)' : ` (${left.join(' or ')} left)`;
}

function matchText(s: FaultScriptStep): string {
  return `${s.method ?? 'any'} ${s.path ?? '/api/...'}`;
}

function doText(o: FaultScriptStep['outcome']): string {
  const after = 'phase' in o && o.phase === 'after' ? ', after handling' : '';
  switch (o.kind) {
    case 'status': {
      const headers = Object.entries(o.headers ?? {}).map(([k, v]) => ` ${k}: ${v}`);
      return `${o.status}${headers.join(',')}${after}`;
    }
    case 'stall':
      return `stall ${exactMs(o.ms)}, then reset${after}`;
    case 'reset':
      return `reset${after}`;
    case 'cut':
      return o.bytes === undefined ? 'cut short (half the body)' : `cut short at ${o.bytes} bytes`;
    case 'expired-token':
      return 'expired token';
    case 'pass':
      return 'pass';
  }
}

function spanText(s: FaultScriptStep & { matched: number }): string {
  const parts = [
    ...(s.count === undefined ? [] : [`${s.matched} of ${s.count} requests`]),
    ...(s.durationMs === undefined ? [] : [`for ${exactMs(s.durationMs)}`]),
  ];
  return parts.length === 0 ? `${s.matched} requests, until replaced` : parts.join(', ');
}

/** `1500 ms`, `2 s`, `1 min 30 s`: rounded never, as a step's times are exact. */
function exactMs(ms: number): string {
  return ms % 1000 === 0 ? durationText(ms) : `${ms} ms`;
}
