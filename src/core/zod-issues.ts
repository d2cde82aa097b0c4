/**
 * zod's issues as the library's `Issue`s, each with a dotted path (`events[0].classes[2].name`), so that every file
 * format reports a problem by where it is in the file.
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

/** `unknownField` is the message for a field the format does not have (it should say where the format is described). */
export function zodIssues(error: z.ZodError, unknownField: string): Issue[] {
  const out: Issue[] = [];
  for (const zi of error.issues) {
    if (zi.code === 'unrecognized_keys') {
      // One issue per key, pointing at the key itself: a typo is then found by its path.
      for (const key of zi.keys) out.push(issueAt([...(zi.path as PathPart[]), key], 'unknown_field', unknownField));
    } else if (zi.code === 'invalid_type' && zi.input === undefined) {
      out.push(issueAt(zi.path as PathPart[], 'required', `is required (${zi.expected})`));
    } else {
      out.push(issueAt(zi.path as PathPart[], zi.code, zi.message));
    }
  }
  return out;
}
