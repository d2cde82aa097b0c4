/** Request and response values the simulator's handlers deal in: plain data, no sockets. */
import type { IncomingHttpHeaders } from 'node:http';
import type { z } from 'zod';

export interface SimRequest {
  method: string;
  /** The full request URL (host from the Host header). */
  url: URL;
  /** Path below the area's prefix: `/events` for `/api/events`. */
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface SimResponse {
  status: number;
  headers?: Record<string, string>;
  body?: SimBody;
}

/**
 * Text, bytes, or bytes in pieces written one after another: an answer of a hundred cached event records (hundreds of
 * KiB) goes out as those records, never copied into one buffer first.
 */
export type SimBody = string | Buffer | readonly Buffer[];

/** A body's size in bytes (UTF-8 for text). */
export function bodyBytes(body: SimBody): number {
  if (typeof body === 'string' || Buffer.isBuffer(body)) return Buffer.byteLength(body);
  let bytes = 0;
  for (const piece of body) bytes += piece.length;
  return bytes;
}

/** A body as one buffer (pieces copied together). */
export function bodyBuffer(body: SimBody): Buffer {
  if (typeof body === 'string') return Buffer.from(body);
  return Buffer.isBuffer(body) ? body : Buffer.concat(body);
}

/** The first `bytes` bytes of a body as UTF-8 text (a character cut at the end comes out as U+FFFD). */
export function bodyStart(body: Buffer | readonly Buffer[], bytes: number): string {
  if (Buffer.isBuffer(body)) return body.toString('utf8', 0, bytes);
  const pieces: Buffer[] = [];
  let taken = 0;
  for (const piece of body) {
    if (taken >= bytes) break;
    pieces.push(piece);
    taken += piece.length;
  }
  return Buffer.concat(pieces, taken).toString('utf8', 0, bytes);
}

export function json(status: number, value: unknown, headers: Record<string, string> = {}): SimResponse {
  const answer = jsonText(status, JSON.stringify(value));
  return { ...answer, headers: { ...answer.headers, ...headers } };
}

/** A JSON answer whose body is already serialized (text, or its UTF-8 bytes). */
export function jsonText(status: number, body: SimBody): SimResponse {
  return { status, headers: { 'content-type': 'application/json; charset=utf-8' }, body };
}

export function message(status: number, text: string, headers: Record<string, string> = {}): SimResponse {
  return json(status, { status, message: text }, headers);
}

export function html(status: number, body: string): SimResponse {
  return { status, headers: { 'content-type': 'text/html; charset=utf-8' }, body };
}

export function xml(body: string): SimResponse {
  return { status: 200, headers: { 'content-type': 'application/xml; charset=utf-8' }, body };
}

/**
 * A 400 in the shape ASP.NET services answer model-binding failures with (the real service is one): a title and an
 * `errors` map from parameter name to messages, plus a one-line `message` for humans.
 */
export function badRequest(errors: Record<string, string[]>): SimResponse {
  const summary = Object.entries(errors)
    .map(([k, v]) => (k ? `${k}: ${v.join('; ')}` : v.join('; ')))
    .join('; ');
  return json(400, {
    type: 'https://tools.ietf.org/html/rfc9110#section-15.5.1',
    title: 'One or more validation errors occurred.',
    status: 400,
    errors,
    message: summary,
  });
}

/** zod issues -> the `errors` map, keyed by the parameter the issue is about (`parameters` for whole-query rules). */
export function issuesToErrors(issues: readonly z.core.$ZodIssue[]): Record<string, string[]> {
  // No prototype: a client's parameter named `__proto__` or `toString` is a key like any other, not Object's own.
  const errors: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
  for (const issue of issues) {
    const key = issue.path.length > 0 ? issue.path.map(String).join('.') : 'parameters';
    const msg = issue.code === 'unrecognized_keys' ? `unknown: ${issue.keys.join(', ')}` : issue.message;
    (errors[key] ??= []).push(msg);
  }
  return errors;
}

/**
 * The request's media type when it is not JSON (`none` when there is none), undefined when it is: endpoints that take
 * a JSON body answer the others 415, as ASP.NET Core answers a [FromBody] parameter sent as another media type.
 */
export function notJson(req: Pick<SimRequest, 'headers'>): string | undefined {
  const type = String(req.headers['content-type'] ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase();
  return type === 'application/json' || type.endsWith('+json') ? undefined : type || 'none';
}

/** A path segment percent-decoded, or undefined when its escapes are malformed (a client's mistake: 400, not 500). */
export function decodePathSegment(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

export { escapeHtml } from '../core/html.js';

export function slug(text: string): string {
  return (
    text
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^A-Za-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'x'
  );
}
