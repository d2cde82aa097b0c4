/**
 * What the simulator accepts of a request before it spends memory on it: a body limit per endpoint, checked against
 * Content-Length before a byte of the body is read (and enforced while reading a chunked body), and the answers of the
 * guards that read bodies (request-body.ts: a budget of body bytes held at once across all requests, so that many large
 * uploads at the same time are answered 503 instead of growing the process, and a minimum rate). Integrators run the
 * simulator as a shared server in CI: a careless or hostile client must cost it a bounded amount, and be told plainly
 * what it got wrong (docs/simulator-server.md lists every refusal). The request target and Host header are checked here
 * too: a malformed one is the client's mistake, a 4xx, never a 500.
 */
import type { IncomingMessage } from 'node:http';
import { MAX_ROUTE_BODY_BYTES } from '../resources/routes.js';
import { message, type SimResponse } from './http.js';
import type { BodyRate, BodyRefusal } from './request-body.js';

/**
 * Body limit of every endpoint that names none of its own (`ApiRoute.maxBodyBytes`: the route import): the control
 * and OAuth bodies are a few hundred bytes.
 */
export const MAX_SMALL_BODY_BYTES = 1024 * 1024;
/** Longest request target (path and query) taken; longer ones are answered 414. */
export const MAX_URL_LENGTH = 8 * 1024;
/** Default of `maxBodyBytesInFlight`: two of the largest route uploads at once. */
export const DEFAULT_BODY_BYTES_IN_FLIGHT = 2 * MAX_ROUTE_BODY_BYTES;

/** How many body bytes a request may bring: its Content-Length, the limit for a chunked body, 0 for none. */
export function declaredBodyBytes(req: IncomingMessage, limit: number): number | 'too_large' {
  const length = req.headers['content-length'];
  if (length !== undefined) {
    // Node has already refused a Content-Length that is not a number (400) before the request reaches us.
    const n = Number(length);
    return n > limit ? 'too_large' : n;
  }
  return req.headers['transfer-encoding'] !== undefined ? limit : 0;
}

export function tooLarge(limit: number): SimResponse {
  return message(413, `The request body is larger than ${limit} bytes, the limit of this endpoint.`, {
    connection: 'close',
  });
}

export function busy(retryAfterS: number): SimResponse {
  return message(
    503,
    'The simulator is reading as many request bodies as its memory budget allows (maxBodyBytesInFlight); retry later.',
    { 'retry-after': String(retryAfterS), connection: 'close' },
  );
}

function tooSlow(rate: BodyRate): SimResponse {
  return message(
    408,
    `The request body arrived slower than ${rate.minBytesPerSecond} bytes/s on average once ${rate.graceMs} ms had passed (minBodyBytesPerSecond); the connection is closed.`,
    { connection: 'close' },
  );
}

export function shuttingDown(retryAfterS: number): SimResponse {
  return message(503, 'The simulator is shutting down: it finishes the requests in flight and takes no new ones.', {
    'retry-after': String(retryAfterS),
    connection: 'close',
  });
}

/** The answer to a body refused while it was read; none when the client is gone (nobody is left to answer). */
export function bodyRefusal(
  refusal: BodyRefusal,
  context: { limit: number; rate: BodyRate; retryAfterS: number },
): SimResponse | undefined {
  switch (refusal) {
    case 'too_large':
      return tooLarge(context.limit);
    case 'busy':
      return busy(context.retryAfterS);
    case 'slow':
      return tooSlow(context.rate);
    case 'gone':
      return undefined;
  }
}

export function notFound(method: string, url: URL): SimResponse {
  return message(
    404,
    `No such endpoint: ${method} ${url.pathname}. The simulator serves the API under /api, OAuth2 under /auth, viewer pages under /viewer and its controls under /_simulator.`,
  );
}

export function methodNotAllowed(method: string, url: URL, allowed: string[]): SimResponse {
  return message(405, `${method} is not allowed on ${url.pathname}; use ${allowed.join(', ')}.`, {
    allow: allowed.join(', '),
  });
}

/**
 * The request's URL, or the 4xx a malformed one gets: too long (414), a Host header that is no host (400, as RFC 9112
 * 3.2 asks), or a target no URL parser takes (400). Paths resolve against the simulator's own origin whatever the
 * Host says, so a client's Host can never make the simulator fail.
 */
export function requestTarget(req: IncomingMessage): { ok: true; url: URL } | { ok: false; answer: SimResponse } {
  const target = req.url ?? '/';
  if (target.length > MAX_URL_LENGTH) {
    return { ok: false, answer: message(414, `The request target is longer than ${MAX_URL_LENGTH} characters.`) };
  }
  const host = req.headers.host;
  if (host !== undefined && !validHost(host)) {
    return { ok: false, answer: message(400, 'The Host header is not a host name or address with an optional port.') };
  }
  try {
    return { ok: true, url: new URL(target, 'http://simulator.invalid') };
  } catch {
    return { ok: false, answer: message(400, 'The request target is not a valid URL path.') };
  }
}

function validHost(host: string): boolean {
  if (!/^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._~%!$&'()*+,;=-]+)(:\d{1,5})?$/.test(host)) return false;
  try {
    return new URL(`http://${host}/`).host !== '';
  } catch {
    return false;
  }
}
