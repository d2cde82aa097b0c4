/**
 * What an HTTP answer becomes: a typed error when it is not a success, a zod-checked value when it is. The API
 * pipeline and the OAuth endpoints share these, so that an answer is redacted, bounded and checked the same way
 * whichever address it came from (STYLE.md #3, #5, #6).
 */
import type { z } from 'zod';
import { errorFromResponse, ResponseShapeError, type HttpError, type RequestInfo } from '../errors.js';
import { issuesFromZod } from './issues.js';
import type { Redactor } from './redact.js';
import { parseRetryAfter } from './retry.js';
import { headerValue, type TransportResponse } from './transport.js';

/** How much of an unsuccessful answer's body an error keeps: enough for any error document, not a whole page. */
const MAX_ERROR_BODY_CHARS = 4000;

/**
 * The typed error for an unsuccessful answer, from its redacted body, its Retry-After and what the transport knows of
 * it (attempts made; whether a request not safe to repeat may have acted before a 5xx). The whole body is redacted
 * before it is cut: cut first, a secret running across the limit would lose its end, no longer match, and its
 * beginning would be kept.
 */
export function answerError(res: TransportResponse, info: RequestInfo, redactor: Redactor): HttpError {
  return errorFromResponse(
    res.status,
    redactor.redact(res.body.toString('utf8')).slice(0, MAX_ERROR_BODY_CHARS),
    info,
    parseRetryAfter(headerValue(res.headers['retry-after'])),
    { attempts: res.attempts, ...(res.mayHaveTakenEffect ? { mayHaveTakenEffect: true } : {}) },
  );
}

export interface AnswerOptions {
  /** What the answer is, starting a sentence: `The answer`, `The token answer`. */
  what: string;
  /**
   * The answer carries secrets (tokens): no error quotes any of its values, neither zod's messages nor the JSON
   * parser's (V8's message quotes the text). Default false.
   */
  secret?: boolean;
  /** What to do when the answer has the wrong shape. */
  hint?: string;
}

/** How an API answer is described when it has the wrong shape. */
export const SERVICE_ANSWER: AnswerOptions = {
  what: 'The answer',
  hint: 'The service may have changed; please report it.',
};

/** The answer's body as JSON; a ResponseShapeError when it is not JSON. */
export function answerJson(res: TransportResponse, info: RequestInfo, options: AnswerOptions): unknown {
  try {
    return JSON.parse(res.body.toString('utf8'));
  } catch (err) {
    throw new ResponseShapeError(`${options.what} is not JSON`, [], {
      request: info,
      ...(options.secret ? {} : { cause: err }),
    });
  }
}

/** A parsed answer checked with `schema` (what we rely on is required); a ResponseShapeError naming what is wrong. */
export function checkAnswer<S extends z.ZodType>(
  value: unknown,
  schema: S,
  info: RequestInfo,
  options: AnswerOptions,
): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new ResponseShapeError(
    `${options.what} does not have the expected shape`,
    issuesFromZod(parsed.error, { max: 10, ...(options.secret ? { valueFree: true } : {}) }),
    { request: info, ...(options.hint === undefined ? {} : { hint: options.hint }) },
  );
}

/** `answerJson` then `checkAnswer`. */
export function parseAnswer<S extends z.ZodType>(
  res: TransportResponse,
  info: RequestInfo,
  schema: S,
  options: AnswerOptions,
): z.output<S> {
  return checkAnswer(answerJson(res, info, options), schema, info, options);
}
