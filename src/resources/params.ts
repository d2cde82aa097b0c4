/**
 * Query-string building blocks shared by the client (checking before sending) and the simulator (checking what it
 * receives), so both answer a bad parameter with the same words.
 */
import { z } from 'zod';
import { issuesFromZod } from '../core/issues.js';
import { ValidationError } from '../errors.js';

/** The contract's only datetime shape: yyyy-mm-ddThh:mm:ssZ (UTC, whole seconds, no offset other than Z). */
const DATETIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})Z$/;

export function parseContractDatetime(value: string): number | undefined {
  const m = DATETIME.exec(value);
  if (!m) return undefined;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) return undefined;
  // Date.parse rolls 2025-02-30 over to March: reject anything that does not round-trip.
  return formatContractDatetime(ms) === value ? ms : undefined;
}

export function formatContractDatetime(ms: number | Date): string {
  const iso = new Date(typeof ms === 'number' ? ms : ms.getTime()).toISOString();
  return `${iso.slice(0, 19)}Z`;
}

export const datetimeParam = z.string().transform((value, ctx) => {
  const ms = parseContractDatetime(value);
  if (ms === undefined) {
    ctx.addIssue({ code: 'custom', message: `'${value}' is not a UTC datetime of the form yyyy-mm-ddThh:mm:ssZ` });
    return z.NEVER;
  }
  return ms;
});

/** ASP.NET-style booleans: `true`/`false` in any case. */
export const booleanParam = z.string().transform((value, ctx) => {
  const v = value.toLowerCase();
  if (v === 'true') return true;
  if (v === 'false') return false;
  ctx.addIssue({ code: 'custom', message: `'${value}' is not a boolean (true or false)` });
  return z.NEVER;
});

export function numberParam(min: number, max: number, what = 'number') {
  return z.string().transform((value, ctx) => {
    const n = value.trim() === '' ? Number.NaN : Number(value);
    if (!Number.isFinite(n)) {
      ctx.addIssue({ code: 'custom', message: `'${value}' is not a ${what}` });
      return z.NEVER;
    }
    if (n < min || n > max) {
      ctx.addIssue({ code: 'custom', message: `${value} is outside ${min}..${max}` });
      return z.NEVER;
    }
    return n;
  });
}

export const integerParam = z.string().transform((value, ctx) => {
  if (!/^-?\d{1,15}$/.test(value)) {
    ctx.addIssue({ code: 'custom', message: `'${value}' is not an integer` });
    return z.NEVER;
  }
  return Number(value);
});

export const positiveIdParam = z.string().transform((value, ctx) => {
  if (!/^\d{1,15}$/.test(value) || Number(value) < 1) {
    ctx.addIssue({ code: 'custom', message: `'${value}' is not a positive integer id` });
    return z.NEVER;
  }
  return Number(value);
});

export const cultureCodeParam = z
  .string()
  .regex(/^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$/, { message: 'is not a language code such as en-US or sv-SE' });

/** The words for a query parameter the endpoint does not have, on both sides of the wire. */
export const UNKNOWN_PARAMETER = 'is not a parameter of this endpoint';

/**
 * Turns a URLSearchParams into a plain record, reporting parameters given twice and parameters the endpoint does not
 * know: a typo such as `pageSize` must not silently widen a search.
 */
export function queryRecord(
  params: URLSearchParams,
  known: readonly string[],
): { values: Record<string, string>; issues: z.core.$ZodIssue[] } {
  const values: Record<string, string> = {};
  const issues: z.core.$ZodIssue[] = [];
  const knownLower = new Map(known.map((k) => [k.toLowerCase(), k]));
  for (const [rawKey, value] of params) {
    // ASP.NET model binding matches query names case-insensitively; so do we.
    const key = knownLower.get(rawKey.toLowerCase());
    if (key === undefined) {
      issues.push({ code: 'custom', path: [rawKey], message: UNKNOWN_PARAMETER, input: value });
      continue;
    }
    if (key in values) {
      issues.push({ code: 'custom', path: [key], message: 'is given more than once', input: value });
      continue;
    }
    values[key] = value;
  }
  return { values, issues };
}

/** Checks a query with the same schema the simulator applies; every problem is listed in one ValidationError. */
export function checkQuery<S extends z.ZodType>(what: string, query: Record<string, string>, schema: S): z.output<S> {
  const parsed = schema.safeParse(query);
  if (parsed.success) return parsed.data;
  throw new ValidationError(
    what,
    issuesFromZod(parsed.error, { unknownField: UNKNOWN_PARAMETER, customCode: 'rule', rootPath: 'parameters' }),
  );
}

/** Checks one value of a request path (an id) with its schema: a ValidationError at `path`, in the schema's words. */
export function checkParam<S extends z.ZodType>(what: string, path: string, value: unknown, schema: S): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new ValidationError(what, [{ path, code: 'format', message: parsed.error.issues[0]!.message }]);
}

/** A query record without its undefined entries. */
export function definedEntries(record: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(record).filter((e): e is [string, string] => e[1] !== undefined));
}

export function optionalText(v: number | boolean | undefined): string | undefined {
  return v === undefined ? undefined : String(v);
}
