/**
 * One error hierarchy for the whole library. Every error has a stable `code` for programs and a message that says what
 * failed and what to do. Nothing here may carry a secret: callers redact before constructing. Over 400 lines because the
 * hierarchy and its one factory (`errorFromResponse`) belong together: splitting them would split one vocabulary.
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
  | 'state'
  | 'http';

/** The request an error is about: method and path (with a query whose secrets are redacted), never headers. */
export interface RequestInfo {
  method: string;
  /** Path and query, e.g. `GET /events?from=...`; credentials never travel in it. */
  path: string;
}

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
  severity?: 'error' | 'warning' | 'info';
  /** What to do about it, when a front end words that in its own terms (a projection to give, say). */
  hint?: Hint;
}

/**
 * Advice a front end words in its own terms. The library names no CLI flag or command: a hint with a code other than
 * `advice` stands for a step a caller takes through its own interface (the CLI maps codes to flags and commands in
 * `cli/hints.ts`); `text` says it in the library's terms, for callers that do not map it.
 */
export type HintCode =
  /** Plain advice that needs no translation. */
  | 'advice'
  /** Give or check the API key, or log in again (`values`: none). */
  | 'credentials'
  /** Give the application's API key (none was given). */
  | 'api_key'
  /** Log in (again) with OAuth. */
  | 'login'
  /** Choose another file for the OAuth tokens. */
  | 'token_file'
  /** Say which race of a multi-race export is meant (`values`: the races' numbers). */
  | 'choose_race'
  /** Give the service event id instead of searching. */
  | 'event_id'
  /** Give the projection of grid coordinates (`values`: the EPSG codes that fit). */
  | 'projection'
  /** Give the projection of the organiser's grid coordinates when comparing courses (`values`: EPSG codes). */
  | 'organiser_projection'
  /** Lower the request rate (`values`: the option's name). */
  | 'request_rate'
  /** Install or point at the IOF XML schema. */
  | 'schema';

export interface Hint {
  code: HintCode;
  /** The advice in the library's terms. */
  text: string;
  /** What the advice names, for a front end to fill in its own words (EPSG codes, race numbers). */
  values?: readonly (string | number)[];
}

export interface LiveloxErrorOptions {
  cause?: unknown;
  /** What the user can do about it, appended to the message: plain text (`advice`) or a coded hint. */
  hint?: string | Hint;
  request?: RequestInfo;
  /** HTTP exchanges made for the request, the first included; said so that a message claims a retry only after one. */
  attempts?: number;
  /**
   * A request that is not safe to repeat failed after the service may have acted on it (a reset or a timeout after it
   * was sent, a 5xx). It was not repeated; the message says so. Default false.
   */
  mayHaveTakenEffect?: boolean;
}

/** What an error that `mayHaveTakenEffect` says until the resource that knows what "it" was says it better. */
export const MAY_HAVE_TAKEN_EFFECT =
  'The service may have done it before failing; it was not repeated, since repeating it could do it twice.';

export function toHint(hint: string | Hint | undefined): Hint | undefined {
  return typeof hint === 'string' ? { code: 'advice', text: hint } : hint;
}

export class LiveloxError extends Error {
  readonly code: ErrorCode;
  readonly hint: Hint | undefined;
  readonly request: RequestInfo | undefined;
  /** HTTP exchanges made for the request, the first included; undefined when no request was made or it is unknown. */
  readonly attempts: number | undefined;
  /**
   * True when a request that is not safe to repeat (a POST without a client-chosen id) failed after the service may
   * have acted on it: repeating it by hand may do it twice. The message says so in plain words.
   */
  readonly mayHaveTakenEffect: boolean;
  /** The message without its hint, and the sentence on a possible effect (kept apart so a resource can reword it). */
  readonly #said: string;
  #effect: string;

  constructor(code: ErrorCode, message: string, options: LiveloxErrorOptions = {}) {
    const on = options.request ? ` (${options.request.method} ${options.request.path})` : '';
    const hint = toHint(options.hint);
    super(message, options.cause === undefined ? {} : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.hint = hint;
    this.request = options.request;
    this.attempts = options.attempts;
    this.mayHaveTakenEffect = options.mayHaveTakenEffect ?? false;
    this.#said = `${message}${on}`;
    this.#effect = this.mayHaveTakenEffect ? MAY_HAVE_TAKEN_EFFECT : '';
    this.message = this.#compose();
  }

  /** The message without the hint's text: what a front end prints before its own wording of the hint. */
  get summary(): string {
    return this.#effect ? `${this.#said}. ${this.#effect}` : this.#said;
  }

  #compose(): string {
    return `${this.summary}${this.hint ? ` ${this.hint.text}` : ''}`;
  }

  /**
   * Says what a possible effect means in the words of the one who knows what the request did ("the service may have
   * stored this route ..."). Only for an error that `mayHaveTakenEffect`, before it is thrown on: a caller never sees
   * the message change.
   */
  restateEffect(sentence: string): this {
    if (this.mayHaveTakenEffect) {
      this.#effect = sentence;
      this.message = this.#compose();
    }
    return this;
  }

  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      code: this.code,
      message: this.message,
      ...(this.hint && this.hint.code !== 'advice' ? { hint: this.hint } : {}),
      ...(this.request ? { request: this.request } : {}),
      ...(this.attempts === undefined ? {} : { attempts: this.attempts }),
      ...(this.mayHaveTakenEffect ? { mayHaveTakenEffect: true } : {}),
    };
  }
}

/** An HTTP answer that is not a success. `body` is the answer's text (JSON or not), already redacted. */
export class HttpError extends LiveloxError {
  readonly status: number;
  readonly body: string;

  constructor(code: ErrorCode, status: number, message: string, body: string, options: LiveloxErrorOptions = {}) {
    super(code, message, options);
    this.status = status;
    this.body = body;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), status: this.status };
  }
}

/** 401, or 403 that is not about a scope: the credentials are missing, wrong, expired or revoked. */
export class AuthError extends HttpError {}

export type LoginRequiredReason = 'not_logged_in' | 'not_refreshable' | 'session_ended';

/** The hint of every "log in (again)": the step a front end names in its own words (a command, a button). */
const LOGIN_HINT: Hint = { code: 'login', text: 'Log in to get new tokens.' };

/**
 * No usable OAuth login: no tokens are stored, or the service refused to renew them. It is an AuthError (status 401,
 * the HTTP meaning of "authenticate first") so that one `instanceof AuthError` catches every "log in again", whether
 * the service said it or the strategy knew it without asking.
 */
export class LoginRequiredError extends AuthError {
  readonly reason: LoginRequiredReason;

  constructor(reason: LoginRequiredReason, message: string, options: LiveloxErrorOptions = {}) {
    super('auth', 401, message, '', { hint: LOGIN_HINT, ...options });
    this.reason = reason;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), reason: this.reason };
  }
}

export type AuthorizationFailure = 'access_denied' | 'state_mismatch' | 'missing_code' | 'invalid_callback' | 'refused';

/** The browser came back without a usable authorization: the user refused, the state differs, or the server said no. */
export class AuthorizationError extends LiveloxError {
  readonly reason: AuthorizationFailure;
  /** The OAuth `error` parameter of the callback, when there was one. */
  readonly oauthError: string | undefined;

  constructor(
    reason: AuthorizationFailure,
    message: string,
    options: LiveloxErrorOptions & { oauthError?: string } = {},
  ) {
    super('auth', message, options);
    this.reason = reason;
    this.oauthError = options.oauthError;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), reason: this.reason, ...(this.oauthError ? { oauthError: this.oauthError } : {}) };
  }
}

/** 403 naming a scope the credentials lack ("You do not have the scope 'courses.read'"). */
export class ScopeError extends HttpError {
  readonly scope: string;
  constructor(scope: string, status: number, message: string, body: string, options: LiveloxErrorOptions = {}) {
    super('scope', status, message, body, options);
    this.scope = scope;
  }
}

export class NotFoundError extends HttpError {}

/**
 * 403 on an importable event's update (observed, not published: the Event Integration API): the signed-in user, or
 * the key's application, may not administer that event. Another user's event: publish as a new event, or sign in as
 * one of its administrators.
 */
export class NotEventAdministratorError extends AuthError {
  readonly importableEventId: string;
  constructor(importableEventId: string, body: string, options: LiveloxErrorOptions = {}) {
    super('auth', 403, `This user may not administer the importable event '${importableEventId}' (403)`, body, {
      hint: 'Sign in as a user who administers that event, or publish it as a new event.',
      ...options,
    });
    this.importableEventId = importableEventId;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), importableEventId: this.importableEventId };
  }
}

/** 429 after every retry; `retryAfterMs` is what the service last asked for. */
export class RateLimitError extends HttpError {
  readonly retryAfterMs: number | undefined;
  constructor(
    status: number,
    message: string,
    body: string,
    retryAfterMs: number | undefined,
    options: LiveloxErrorOptions = {},
  ) {
    super('rate_limited', status, message, body, options);
    this.retryAfterMs = retryAfterMs;
  }
}

export class ServerError extends HttpError {}

/** No answer in time: a connect, headers or body timeout, or a polling deadline. */
export class TimeoutError extends LiveloxError {
  constructor(message: string, options: LiveloxErrorOptions = {}) {
    super('timeout', message, options);
  }
}

/** The connection failed or broke (refused, reset, DNS). */
export class ConnectionError extends LiveloxError {
  constructor(message: string, options: LiveloxErrorOptions = {}) {
    super('connection', message, options);
  }
}

/** The service answered 2xx with a body we cannot use: not JSON, or missing what we rely on. */
export class ResponseShapeError extends LiveloxError {
  readonly issues: Issue[];
  constructor(message: string, issues: Issue[], options: LiveloxErrorOptions = {}) {
    super('response_shape', `${message}${issues.length ? `: ${issues.map(formatIssue).join('; ')}` : ''}`, options);
    this.issues = issues;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), issues: this.issues };
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

/**
 * `corrupt`: damaged (not SQLite, malformed, or a row that cannot be read); `foreign`: another program's; `newer`:
 * written by a newer version; `locked`: held by another run (or kept busy by another process); `unwritable`: cannot be
 * read or written (permissions, an I/O error); `full`: no room left on its disk; `missing`: there is no file to read (a
 * status asked of a state no run has made).
 */
export type StateFailure = 'corrupt' | 'foreign' | 'newer' | 'locked' | 'unwritable' | 'full' | 'missing';

/**
 * The state file of a job (sync's state, the import journal) or its lock file cannot be used: not a database or a
 * damaged one, another program's, written by a newer version, held by another run, not writable, or on a full disk.
 * Whatever was being written when this is thrown was not written (a transaction rolled back whole): the file is as
 * the last completed write left it, never replaced.
 */
export class StateError extends LiveloxError {
  readonly reason: StateFailure;
  /** The state file. */
  readonly path: string;

  constructor(reason: StateFailure, path: string, message: string, options: LiveloxErrorOptions = {}) {
    super('state', `${path}: ${message}`, options);
    this.reason = reason;
    this.path = path;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), reason: this.reason, path: this.path };
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
  /** What is wrong, without the place (`source:line:column: `) the message starts with, and without the hint. */
  readonly detail: string;

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
    this.detail = message;
    this.line = options.line;
    this.column = options.column;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), source: this.source, reason: this.reason, line: this.line, column: this.column };
  }
}

type Severity = NonNullable<Issue['severity']>;

export interface IssueOfOptions {
  severity?: Severity;
  /** Said before the error's message (`the courses could not be used: `). */
  prefix?: string;
}

/**
 * An error as an issue in a report that goes on: its message (which ends with its hint's text), and its coded hint,
 * so that a front end says the advice its own way. Plain advice (`advice`) is in the message already and stays there.
 */
export function issueOf<C extends string>(
  err: unknown,
  code: C,
  options: IssueOfOptions & { severity: Severity },
): Issue & { code: C; severity: Severity };
export function issueOf<C extends string>(err: unknown, code: C, options?: IssueOfOptions): Issue & { code: C };
export function issueOf(err: unknown, code: string, options: IssueOfOptions = {}): Issue {
  const hint = err instanceof LiveloxError && err.hint?.code !== 'advice' ? err.hint : undefined;
  return {
    code,
    ...(options.severity === undefined ? {} : { severity: options.severity }),
    message: `${options.prefix ?? ''}${err instanceof Error ? err.message : String(err)}`,
    ...(hint === undefined ? {} : { hint }),
  };
}

export function formatIssue(issue: Issue): string {
  const where = issue.path ?? (issue.line === undefined ? undefined : `line ${issue.line}`);
  return where ? `${where}: ${issue.message}` : issue.message;
}

/** 400 from the service: the request broke a rule the local checks did not know; `issues` names the parameters. */
export class BadRequestError extends HttpError {
  readonly issues: Issue[];
  constructor(status: number, message: string, body: string, issues: Issue[], options: LiveloxErrorOptions = {}) {
    super('validation', status, message, body, options);
    this.issues = issues;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), issues: this.issues };
  }
}

const SCOPE_MESSAGE = /You do not have the scope '([^']+)'/i;

/** What the transport knows of how an answer came about, for an error that says only what happened. */
export interface AnswerContext {
  /** HTTP exchanges made, the first included. */
  attempts?: number;
  /** The request is not safe to repeat: a 5xx answer to it may follow work done. */
  mayHaveTakenEffect?: boolean;
}

/** The one place an unsuccessful HTTP answer becomes a typed error (STYLE.md #5). `body` must be redacted already. */
export function errorFromResponse(
  status: number,
  body: string,
  request: RequestInfo,
  retryAfterMs?: number,
  exchange: AnswerContext = {},
): HttpError {
  const parsed = parseErrorBody(body);
  const said = parsed.message ? `: ${parsed.message}` : '';
  const attempts = exchange.attempts;
  const retried = attempts !== undefined && attempts > 1;
  const options: LiveloxErrorOptions = {
    request,
    ...(attempts === undefined ? {} : { attempts }),
    ...(exchange.mayHaveTakenEffect && status >= 500 ? { mayHaveTakenEffect: true } : {}),
  };
  const scope = SCOPE_MESSAGE.exec(parsed.message ?? body)?.[1];
  if (status === 403 && scope) {
    return new ScopeError(scope, status, `Missing scope '${scope}'${said}`, body, {
      ...options,
      hint: `Ask the service operator to grant '${scope}' to this application, or log in again asking for it.`,
    });
  }
  if (status === 401 || status === 403) {
    return new AuthError('auth', status, `Not authorized (${status})${said}`, body, {
      ...options,
      hint: { code: 'credentials', text: 'Check the API key, or log in again.' },
    });
  }
  if (status === 400) {
    return new BadRequestError(status, `The service refused the request (400)${said}`, body, parsed.issues, options);
  }
  if (status === 404) return new NotFoundError('not_found', status, `Not found (404)${said}`, body, options);
  if (status === 429) {
    const refused = retried
      ? `Too many requests (429), still refused after ${attempts} attempts`
      : 'Too many requests (429)';
    return new RateLimitError(status, refused, body, retryAfterMs, {
      ...options,
      hint: {
        code: 'request_rate',
        text: 'Wait a while, or lower the request rate (the ratePerSecond option).',
        values: ['ratePerSecond'],
      },
    });
  }
  if (status >= 500) {
    return new ServerError('server', status, `The service failed (${status})${said}`, body, {
      ...options,
      hint: retried ? `It was tried ${attempts} times; try again later.` : 'Try again later.',
    });
  }
  return new HttpError('http', status, `Unexpected answer ${status}${said}`, body, options);
}

/** Reads what the service said: `message`, an OAuth `error_description`, or an ASP.NET `errors` map. */
function parseErrorBody(body: string): { message?: string; issues: Issue[] } {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    const text = body.trim().slice(0, 300);
    return text && !text.startsWith('<') ? { message: text, issues: [] } : { issues: [] };
  }
  if (typeof value !== 'object' || value === null) return { issues: [] };
  const v = value as Record<string, unknown>;
  const issues: Issue[] = [];
  if (typeof v.errors === 'object' && v.errors !== null) {
    for (const [path, messages] of Object.entries(v.errors as Record<string, unknown>)) {
      for (const m of Array.isArray(messages) ? messages : [messages]) {
        issues.push({ path, code: 'service', message: String(m) });
      }
    }
  }
  const message =
    (typeof v.message === 'string' && v.message) ||
    (typeof v.error_description === 'string' && v.error_description) ||
    (typeof v.title === 'string' && v.title) ||
    (typeof v.error === 'string' && v.error) ||
    undefined;
  return message ? { message, issues } : { issues };
}
