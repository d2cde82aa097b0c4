/**
 * One error hierarchy for the whole library. Every error has a stable `code` for programs and a message that says what
 * failed and what to do. Nothing here may carry a secret: callers redact before constructing.
 */
export type ErrorCode =
  | 'validation'
  | 'invalid_input'
  | 'auth'
  | 'scope'
  | 'not_found'
  | 'rate_limited'
  | 'server'
  | 'timeout'
  | 'connection'
  | 'response_shape'
  | 'http';

/** A problem found in data, with where it was found. Returned in lists (validation is data, STYLE.md #12). */
export interface Issue {
  /** Dotted path into a structure (`paging`, `events[3].start`) or a parameter name. */
  path?: string;
  /** 1-based line in a text input. */
  line?: number;
  column?: number;
  /** Machine-readable kind of problem, such as `required`, `format`, `group_incomplete`. */
  code: string;
  message: string;
}

export interface LiveloxErrorOptions {
  cause?: unknown;
  /** What the user can do about it, appended to the message. */
  hint?: string;
}

export class LiveloxError extends Error {
  readonly code: ErrorCode;
  readonly hint: string | undefined;

  constructor(code: ErrorCode, message: string, options: LiveloxErrorOptions = {}) {
    super(
      options.hint ? `${message} ${options.hint}` : message,
      options.cause === undefined ? {} : { cause: options.cause },
    );
    this.name = new.target.name;
    this.code = code;
    this.hint = options.hint;
  }

  toJSON(): Record<string, unknown> {
    return { name: this.name, code: this.code, message: this.message };
  }
}

/** Input that breaks a documented rule before anything is sent or processed; `issues` lists every problem found. */
export class ValidationError extends LiveloxError {
  readonly issues: Issue[];

  constructor(what: string, issues: Issue[], options: LiveloxErrorOptions = {}) {
    super('validation', `${what}: ${issues.map(formatIssue).join('; ')}`, options);
    this.issues = issues;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), issues: this.issues };
  }
}

/** A file or byte stream that cannot be read as what it claims to be (not XML, not a GPS file, truncated, hostile). */
export class InputError extends LiveloxError {
  /** The file name or a description of the input. */
  readonly source: string;
  readonly line: number | undefined;
  readonly column: number | undefined;
  /** Finer-grained reason for programs, such as `not_well_formed`, `unknown_format`, `truncated`, `too_large`. */
  readonly reason: string;

  constructor(
    source: string,
    reason: string,
    message: string,
    options: LiveloxErrorOptions & { line?: number; column?: number } = {},
  ) {
    const where =
      options.line === undefined
        ? source
        : `${source}:${options.line}${options.column === undefined ? '' : `:${options.column}`}`;
    super('invalid_input', `${where}: ${message}`, options);
    this.source = source;
    this.reason = reason;
    this.line = options.line;
    this.column = options.column;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), source: this.source, reason: this.reason, line: this.line, column: this.column };
  }
}

export function formatIssue(issue: Issue): string {
  const where = issue.path ?? (issue.line === undefined ? undefined : `line ${issue.line}`);
  return where ? `${where}: ${issue.message}` : issue.message;
}
