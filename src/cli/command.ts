/**
 * What a command's run uses to read its options: the usage error (exit 2) and readers of option values that check
 * them the same way in every command. A start-up module: the dispatcher throws the same UsageError.
 */
import type { ValidationError } from '../errors.js';
import { issueText } from './hints.js';

/** A command line that does not make sense: exit code 2, with the message and a pointer to --help. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** Parsed options as a record: what the readers below take (a run's typed `Values` is one). */
type AnyValues = Readonly<Record<string, unknown>>;

export function intOption<V extends AnyValues>(
  values: V,
  name: keyof V & string,
  min: number,
  max: number,
): number | undefined {
  const raw = values[name];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || !/^-?\d+$/.test(raw))
    throw new UsageError(`--${name} takes a whole number, got '${String(raw)}'`);
  const n = Number(raw);
  if (n < min || n > max) throw new UsageError(`--${name} must be within ${min}..${max}, got ${n}`);
  return n;
}

export function numberOption<V extends AnyValues>(
  values: V,
  name: keyof V & string,
  min: number,
  max: number,
): number | undefined {
  const raw = values[name];
  if (raw === undefined) return undefined;
  const n = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : Number.NaN;
  if (!Number.isFinite(n)) throw new UsageError(`--${name} takes a number, got '${String(raw)}'`);
  if (n < min || n > max) throw new UsageError(`--${name} must be within ${min}..${max}, got ${n}`);
  return n;
}

export function stringOption<V extends AnyValues>(values: V, name: keyof V & string): string | undefined {
  const raw = values[name];
  return typeof raw === 'string' ? raw : undefined;
}

/** A value the library refused (a grid, a country), said as a usage error about the option that gave it. */
export function optionError(name: string, err: ValidationError): UsageError {
  return new UsageError(`--${name}: ${err.issues.map((i) => issueText(i)).join('; ')}`);
}
