/**
 * The OAuth endpoints on the wire (contract section 5.2; RFC 6749, RFC 7009): the token, revocation and user info
 * requests and the reading of their answers, and the reading of the browser's callback. Kept apart from the flow in
 * `oauth.ts`, which decides when to call them and what to keep. Every answer here may carry a token: a successful
 * answer's values are never quoted (neither zod's messages nor the JSON parser's). A refusal's errors do quote it
 * (its `error_description`, or the start of a body that is not JSON), as `answerError` keeps it: redacted first, so
 * that none of the secrets in play is quoted.
 */
import { z } from 'zod';
import { joinUrl } from '../config.js';
import { answerError, answerJson, checkAnswer, parseAnswer, type AnswerOptions } from '../core/answer.js';
import type { Redactor } from '../core/redact.js';
import { AuthorizationError, HttpError, ResponseShapeError, type RequestInfo } from '../errors.js';
import { sendAuthorized, type AuthContext, type AuthStrategy } from './strategy.js';
import { printable } from '../core/printable.js';

/**
 * The logged-in user, whichever shape the service answered in. The contract does not publish the userinfo answer;
 * the one long-lived open-source client (Purple Pen's Livelox client) reads `personId`, `firstName` and `lastName`
 * (observed, not published), so that shape is read first, and an OIDC-style answer (`sub`, `name`, `given_name`,
 * `family_name`) is tolerated. Every field of the answer is kept besides these.
 */
export interface UserInfo {
  /** The service's person id (observed, not published). Absent when the answer is OIDC-style only. */
  personId?: number;
  firstName?: string;
  lastName?: string;
  /** A stable identifier of the user: the answer's `sub`, else `personId` as text. Always present. */
  sub: string;
  /** Display name: the answer's `name`, else first and last name joined. */
  name?: string;
  email?: string;
  [k: string]: unknown;
}

const expiresInSchema = z.union([
  z.number().nonnegative(),
  // Some servers send it as a string; RFC 6749 says a number, so only plain digits are taken.
  z
    .string()
    .regex(/^\d+$/)
    .transform((s) => Number(s)),
]);

/** RFC 6749 5.1. Unknown fields (id_token, ...) are allowed and ignored. */
const tokenAnswerSchema = z.looseObject({
  access_token: z.string().min(1),
  token_type: z.string(),
  expires_in: expiresInSchema.optional(),
  refresh_token: z.string().min(1).optional(),
  scope: z.string().optional(),
});

export type TokenAnswer = z.output<typeof tokenAnswerSchema>;

const text = z.string().optional();
// .NET serialises a long as a JSON number; digits in a string are taken too, as the token answer's expires_in is.
const personIdSchema = z.union([
  z.number().int().nonnegative(),
  z
    .string()
    .regex(/^\d{1,15}$/)
    .transform(Number),
]);

/**
 * Both shapes in one schema. .NET clients read JSON case-insensitively, so the service may send `PersonId` as well as
 * `personId` without its own clients noticing: both spellings are read.
 */
const userInfoSchema = z
  .looseObject({
    personId: personIdSchema.optional(),
    PersonId: personIdSchema.optional(),
    firstName: text,
    FirstName: text,
    lastName: text,
    LastName: text,
    // Not blank: `sub` stands in for the person id, and a blank one identifies nobody.
    sub: z.string().regex(/\S/).optional(),
    name: text,
    given_name: text,
    family_name: text,
    email: text,
  })
  .refine((u) => u.sub !== undefined || u.personId !== undefined || u.PersonId !== undefined, {
    message: 'neither personId nor sub identifies the user',
    path: ['personId'],
  })
  .transform((u): UserInfo => normaliseUserInfo(u));

function normaliseUserInfo(u: Record<string, unknown>): UserInfo {
  const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);
  const personId =
    typeof u.personId === 'number' ? u.personId : typeof u.PersonId === 'number' ? u.PersonId : undefined;
  const firstName = str(u.firstName) ?? str(u.FirstName) ?? str(u.given_name);
  const lastName = str(u.lastName) ?? str(u.LastName) ?? str(u.family_name);
  const joined = [firstName, lastName].filter((p) => p !== undefined).join(' ');
  const name = str(u.name) ?? (joined === '' ? undefined : joined);
  const email = str(u.email);
  // Only what the answer has: exactOptionalPropertyTypes, and no field that reads as "the service said undefined".
  return {
    ...u,
    ...(personId === undefined ? {} : { personId }),
    ...(firstName === undefined ? {} : { firstName }),
    ...(lastName === undefined ? {} : { lastName }),
    sub: str(u.sub) ?? String(personId),
    ...(name === undefined ? {} : { name }),
    ...(email === undefined ? {} : { email }),
  };
}

const TOKEN_INFO: RequestInfo = { method: 'POST', path: '/oauth2/token' };
const REVOKE_INFO: RequestInfo = { method: 'POST', path: '/oauth2/revoke' };
const USERINFO_INFO: RequestInfo = { method: 'GET', path: '/oauth2/userinfo' };

const TOKEN_ANSWER: AnswerOptions = { what: 'The token answer', secret: true };
const USERINFO_ANSWER: AnswerOptions = { what: 'The user info answer', secret: true };

const FORM_HEADERS = { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' };

export interface TokenRequestOptions {
  /** Never repeat the request: an authorization code is single-use. */
  noRetry?: boolean;
  /** Repeating the request is harmless (a refresh), so network failures are retried. */
  idempotent?: boolean;
  signal: AbortSignal | undefined;
  /** Called with every token of the answer as soon as it is read, before anything could quote it. */
  onSecret: (secret: string) => void;
}

/** `POST {authUrl}/oauth2/token` with `form`: the checked answer of a Bearer token grant. */
export async function requestToken(
  ctx: AuthContext,
  form: Record<string, string>,
  options: TokenRequestOptions,
): Promise<TokenAnswer> {
  const res = await ctx.transport.request({
    method: 'POST',
    url: joinUrl(ctx.addresses.authUrl, '/oauth2/token'),
    info: TOKEN_INFO,
    headers: FORM_HEADERS,
    body: new URLSearchParams(form).toString(),
    idempotent: options.idempotent ?? false,
    ...(options.noRetry ? { noRetry: true } : {}),
    signal: options.signal,
  });
  if (res.status < 200 || res.status >= 300) throw answerError(res, TOKEN_INFO, ctx.redactor);
  const value = answerJson(res, TOKEN_INFO, TOKEN_ANSWER);
  if (typeof value === 'object' && value !== null) {
    const v = value as Record<string, unknown>;
    for (const key of ['access_token', 'refresh_token', 'id_token']) {
      if (typeof v[key] === 'string') options.onSecret(v[key]);
    }
  }
  const answer = checkAnswer(value, tokenAnswerSchema, TOKEN_INFO, TOKEN_ANSWER);
  if (answer.token_type.toLowerCase() !== 'bearer') {
    throw new ResponseShapeError(
      `The token answer has token_type '${printable(answer.token_type, 40)}', not Bearer`,
      [],
      { request: TOKEN_INFO },
    );
  }
  return answer;
}

/** `POST {authUrl}/oauth2/revoke` for one token (RFC 7009). */
export async function revokeToken(
  ctx: AuthContext,
  clientId: string,
  token: string,
  hint: 'refresh_token' | 'access_token',
): Promise<void> {
  const res = await ctx.transport.request({
    method: 'POST',
    url: joinUrl(ctx.addresses.authUrl, '/oauth2/revoke'),
    info: REVOKE_INFO,
    headers: FORM_HEADERS,
    body: new URLSearchParams({ token, token_type_hint: hint, client_id: clientId }).toString(),
    // RFC 7009: revoking a revoked or unknown token succeeds, so repeating the request is safe.
    idempotent: true,
    signal: ctx.signal,
  });
  if (res.status >= 200 && res.status < 300) return;
  const error = answerError(res, REVOKE_INFO, ctx.redactor);
  // Servers may revoke refresh tokens only (RFC 7009 2.2.1); the access token then simply expires.
  if (hint === 'access_token' && oauthErrorOf(error) === 'unsupported_token_type') return;
  throw error;
}

/** `GET {authUrl}/oauth2/userinfo` with the strategy's token, renewed and sent again as API requests are. */
export async function requestUserInfo(
  ctx: AuthContext,
  strategy: AuthStrategy,
  signal: AbortSignal | undefined,
): Promise<UserInfo> {
  const url = joinUrl(ctx.addresses.authUrl, '/oauth2/userinfo');
  const res = await sendAuthorized(strategy, ctx, USERINFO_INFO, (authHeaders) =>
    ctx.transport.request({
      method: 'GET',
      url,
      info: USERINFO_INFO,
      headers: { accept: 'application/json', ...authHeaders },
      signal,
    }),
  );
  if (res.status < 200 || res.status >= 300) throw answerError(res, USERINFO_INFO, ctx.redactor);
  return parseAnswer(res, USERINFO_INFO, userInfoSchema, USERINFO_ANSWER);
}

/**
 * The authorization code the browser brought back to the redirect address, once the callback is known to answer the
 * request with `state` and to carry no error. The code is handed to `onSecret` the moment it is read.
 */
export function callbackCode(
  state: string,
  callbackUrl: string | URL,
  redactor: Redactor,
  onSecret: (secret: string) => void,
): string {
  let callback: URL;
  try {
    callback = typeof callbackUrl === 'string' ? new URL(callbackUrl) : callbackUrl;
  } catch {
    // The text is not quoted: it would carry the code.
    throw new AuthorizationError('invalid_callback', 'The callback address is not a URL.');
  }
  const params = callback.searchParams;
  const code = params.get('code') ?? undefined;
  if (code) onSecret(code);
  // State first (RFC 6749 10.12): an answer that does not belong to this request is not trusted, not even its error.
  if (params.get('state') !== state) {
    throw new AuthorizationError(
      'state_mismatch',
      'The authorization answer does not belong to this login (its state differs): it may be forged, or come from an earlier attempt.',
      { hint: 'Start the login again and use the newest address.' },
    );
  }
  const error = params.get('error');
  if (error !== null) {
    const name = /^[\x20-\x7e]{1,64}$/.test(error) ? error : 'unknown_error';
    if (name === 'access_denied') {
      throw new AuthorizationError('access_denied', 'The user refused access on the authorization page.', {
        oauthError: name,
        hint: 'Log in again and approve the access to continue.',
      });
    }
    const description = printable(redactor.redact(params.get('error_description') ?? ''), 300);
    throw new AuthorizationError(
      'refused',
      `The authorization server refused the request: ${name}${description ? ` (${description})` : ''}.`,
      { oauthError: name },
    );
  }
  if (code === undefined || code === '') {
    throw new AuthorizationError('missing_code', 'The authorization answer carries neither a code nor an error.');
  }
  return code;
}

/** The OAuth `error` code (RFC 6749 5.2) of a failed token or revocation request. */
export function oauthErrorOf(err: unknown): string | undefined {
  if (!(err instanceof HttpError)) return undefined;
  try {
    const value = JSON.parse(err.body) as unknown;
    const code = typeof value === 'object' && value !== null ? (value as Record<string, unknown>).error : undefined;
    return typeof code === 'string' ? code : undefined;
  } catch {
    return undefined;
  }
}
