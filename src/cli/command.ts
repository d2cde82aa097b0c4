/** What every CLI command is: a name, its options (node:util parseArgs config), help text and a run function. */
import type { ParseArgsConfig } from 'node:util';
import type { ValidationError } from '../errors.js';
import { issueText } from './hints.js';

export type OptionSpec = NonNullable<ParseArgsConfig['options']>[string] & {
  /** Shown in --help. */
  description: string;
  /** Placeholder for the value in --help (`N`, `FILE`). */
  valueName?: string;
};

export interface Output {
  out(text: string): void;
  err(text: string): void;
}

export interface CommandContext {
  /** `--json`: machine-readable output on stdout, one JSON document (or one JSON line per event for streams). */
  json: boolean;
  io: Output;
  env: Readonly<Record<string, string | undefined>>;
  /** Aborted on SIGINT/SIGTERM. */
  signal: AbortSignal;
}

export type OptionValues = Record<string, string | boolean | string[] | boolean[] | undefined>;

/** A command's options and run function; its name and summary for the main help are in `registry.ts`. */
export interface Command {
  name: string;
  /** `livelox-bridge NAME [positional usage]` */
  usage: string;
  options: Record<string, OptionSpec>;
  /** Extra paragraphs for --help (examples, notes). */
  details?: string;
  allowPositionals?: boolean;
  run(values: OptionValues, positionals: string[], ctx: CommandContext): Promise<number>;
}

/** A command line that does not make sense: exit code 2, with the message and a pointer to --help. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export const EXIT = { ok: 0, failure: 1, usage: 2, interrupted: 130 } as const;

export function intOption(values: OptionValues, name: string, min: number, max: number): number | undefined {
  const raw = values[name];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || !/^-?\d+$/.test(raw))
    throw new UsageError(`--${name} takes a whole number, got '${String(raw)}'`);
  const n = Number(raw);
  if (n < min || n > max) throw new UsageError(`--${name} must be within ${min}..${max}, got ${n}`);
  return n;
}

export function numberOption(values: OptionValues, name: string, min: number, max: number): number | undefined {
  const raw = values[name];
  if (raw === undefined) return undefined;
  const n = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : Number.NaN;
  if (!Number.isFinite(n)) throw new UsageError(`--${name} takes a number, got '${String(raw)}'`);
  if (n < min || n > max) throw new UsageError(`--${name} must be within ${min}..${max}, got ${n}`);
  return n;
}

export function stringOption(values: OptionValues, name: string): string | undefined {
  const raw = values[name];
  return typeof raw === 'string' ? raw : undefined;
}

/** A value the library refused (a grid, a country), said as a usage error about the option that gave it. */
export function optionError(name: string, err: ValidationError): UsageError {
  return new UsageError(`--${name}: ${err.issues.map((i) => issueText(i)).join('; ')}`);
}
