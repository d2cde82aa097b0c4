/**
 * zod's issues as the library's `Issue`s: the one place where a zod problem becomes a reported one, so that every
 * file format, query and service answer reports a problem the same way, by where it is (`events[0].classes[2].name`).
 * The options cover what differs between callers: a secret input's issues must not quote values, an answer that is
 * badly wrong is not listed in full, a file format names the document that describes it.
 */
import type { z } from 'zod';
import type { Issue } from '../errors.js';

export type PathPart = string | number;

export function pathText(path: readonly PropertyKey[]): string | undefined {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out === '' ? undefined : out;
}

export function issueAt(path: readonly PathPart[], code: string, message: string): Issue {
  const where = pathText(path);
  return where === undefined ? { code, message } : { path: where, code, message };
}

/** The message of `valueFree` issues. */
const VALUE_FREE_MESSAGE = 'missing or of the wrong type';

export interface ZodIssueOptions {
  /**
   * The message for a field the schema does not have. Given, each unknown key becomes its own issue (code
   * `unknown_field`) at the key's path, so that a typo is found by its path; otherwise zod's one issue is kept.
   */
  unknownField?: string;
  /**
   * A missing value becomes code `required`, "is required (string)". Default false: zod's own words. Parse with zod's
   * `reportInput` to tell a missing value from one of the wrong type ("expected a string, got a number"): without it,
   * zod's issues do not say which, and both are called missing.
   */
  required?: boolean;
  /**
   * Every message (but `unknownField`) is `VALUE_FREE_MESSAGE`: zod's messages may quote the value they refused, and
   * in a token answer or a token file that value is a secret. Default false.
   */
  valueFree?: boolean;
  /** The code of zod's `custom` issues (refinements and transforms). Default `custom`. */
  customCode?: string;
  /** The path of an issue about the whole input. Default: none. */
  rootPath?: string;
  /** At most this many issues. Default: all. */
  max?: number;
}

/** One zod problem, its path still a list: for a caller that hands it on to zod again (a transform's `ctx`). */
export interface ZodProblem {
  path: PathPart[];
  code: string;
  message: string;
}

export function zodProblems(error: z.ZodError, options: ZodIssueOptions = {}): ZodProblem[] {
  const out: ZodProblem[] = [];
  const said = (message: string) => (options.valueFree ? VALUE_FREE_MESSAGE : message);
  for (const zi of error.issues) {
    const path = zi.path as PathPart[];
    if (zi.code === 'unrecognized_keys' && options.unknownField !== undefined) {
      for (const key of zi.keys)
        out.push({ path: [...path, key], code: 'unknown_field', message: options.unknownField });
    } else if (zi.code === 'invalid_type' && options.required && zi.input === undefined) {
      out.push({ path, code: 'required', message: said(`is required (${zi.expected})`) });
    } else if (zi.code === 'invalid_type' && 'input' in zi && zi.input !== undefined) {
      // Parsed with `reportInput`: the value is there, so it is of the wrong type, not missing, and said so.
      out.push({ path, code: zi.code, message: said(`expected ${typeText(zi.expected)}, got ${valueType(zi.input)}`) });
    } else {
      const code = zi.code === 'custom' && options.customCode !== undefined ? options.customCode : zi.code;
      out.push({ path, code, message: said(zi.message) });
    }
  }
  return options.max === undefined ? out : out.slice(0, options.max);
}

/** zod's name of an expected type, as a reader says it: `a string`, `an object`. */
function typeText(expected: string): string {
  const named: Record<string, string> = { int: 'an integer', array: 'an array', object: 'an object', null: 'null' };
  return named[expected] ?? `a ${expected}`;
}

/** The type of a JSON value, in words: never the value itself, which may be a secret. */
function valueType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'number' && !Number.isFinite(value)) return 'a number that is not finite';
  return typeText(typeof value);
}

export function issuesFromZod(error: z.ZodError, options: ZodIssueOptions = {}): Issue[] {
  return zodProblems(error, options).map((p) => {
    const issue = issueAt(p.path, p.code, p.message);
    return issue.path === undefined && options.rootPath !== undefined ? { path: options.rootPath, ...issue } : issue;
  });
}

/**
 * The issues of a file format: unknown fields named as such, missing values as `required`. `unknownField` is the
 * message for a field the format does not have (it should say where the format is described).
 */
export function zodIssues(error: z.ZodError, unknownField: string): Issue[] {
  return issuesFromZod(error, { unknownField, required: true });
}
