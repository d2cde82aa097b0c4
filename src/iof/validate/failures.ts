/**
 * What the validator answers when it could not validate: the errors a call rejects with (no schema, a schema libxml2
 * cannot compile, a worker that failed, a run past its deadline) and the issue of an IOF 2.0.3 document it could not
 * check. Kept apart from the batching so that each wording is found, and changed, in one place.
 */
import { InputError, TimeoutError, type Hint, type Issue } from '../../errors.js';
import { schemaHint } from '../schema-path.js';

export function schemaMissing(schemaPath: string, cause: unknown): InputError {
  return new InputError(schemaPath, 'schema_missing', 'the IOF XML 3.0 schema (IOF.xsd) could not be read.', {
    cause,
    hint: schemaHint('xsd'),
  });
}

/** What an IOF 2.0.3 document that could not be checked says: plainly that, and what would make the check possible. */
export function notCheckedIssue(why: string, hint?: Hint): Issue {
  return {
    code: 'not_checked',
    severity: 'warning',
    message: `IOF 2.0.3 file: not checked against the IOF 3.0 schema (DTD validation is not available)${why}${hint === undefined ? '' : ` ${hint.text}`}`,
    ...(hint === undefined ? {} : { hint }),
  };
}

/** The issue of an IOF 2.0.3 document when no IOF 2.0.3 DTD was found: the ways to get one, or converting the file. */
export function noDtdIssue(): Issue {
  return notCheckedIssue(
    ', and the IOF 2.0.3 DTD it would be checked against was not found. Convert the file to IOF XML 3.0, or get the DTD.',
    schemaHint('dtd'),
  );
}

export function dtdUnusable(path: string, cause: unknown): Issue {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return notCheckedIssue(`, and the IOF 2.0.3 DTD at ${path} could not be used in its place: ${reason}`);
}

export function firstLine(text: string): string {
  return text.trim().split('\n')[0] ?? '';
}

export function schemaInvalid(schemaPath: string, stderr: string): InputError {
  return new InputError(schemaPath, 'schema_invalid', `libxml2 could not compile the schema: ${firstLine(stderr)}`, {
    hint: schemaHint('xsd'),
  });
}

/** The caller's documents, for the error's `source`: which of its files were not validated. */
function describeDocuments(names: readonly string[]): string {
  if (names.length === 1) return names[0] ?? 'document';
  const shown = names.slice(0, 3).join(', ');
  return `${names.length} documents (${shown}${names.length > 3 ? ', ...' : ''})`;
}

export function validatorFailed(names: readonly string[], what: string, cause?: unknown): InputError {
  return new InputError(describeDocuments(names), 'validator_failed', `the documents were not validated: ${what}.`, {
    ...(cause === undefined ? {} : { cause }),
    hint: 'Validate them again; if it keeps failing, validate the files one at a time to find the one that breaks it.',
  });
}

/** The deadline of a run passed (internal: callers get a `TimeoutError`). */
export class DeadlineExceeded extends Error {
  constructor(readonly deadlineMs: number) {
    super(`xmllint ran longer than ${deadlineMs} ms`);
  }
}

export function validationTimedOut(
  names: readonly string[],
  deadlineMs: number,
  documents: number,
  bytes: number,
): TimeoutError {
  return new TimeoutError(
    `${describeDocuments(names)}: validation was stopped after ${(deadlineMs / 1000).toFixed(1)} s, the limit for ${documents} document${documents === 1 ? '' : 's'} of ${formatBytes(bytes)}; a document with very many schema errors takes that long.`,
    { hint: 'Validate the files one at a time to find the one with very many errors.' },
  );
}

export function describeCrash(cause: unknown): string {
  const code = (cause as { code?: unknown } | null)?.code;
  const message = cause instanceof Error ? cause.message : String(cause);
  if (code === 'ERR_WORKER_OUT_OF_MEMORY') return `the xmllint worker ran out of memory (${message})`;
  return `the xmllint worker failed (${message.trim().slice(0, 300)})`;
}

export function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MiB` : `${Math.ceil(bytes / 1024)} KiB`;
}
