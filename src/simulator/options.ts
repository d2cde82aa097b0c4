/**
 * The simulator's options and their checks: everything `startSimulator` and `livelox-bridge simulator` can set, with
 * its default, in one place apart from the server that applies them.
 */
import { ValidationError, type Issue } from '../errors.js';
import { MAX_ROUTE_BODY_BYTES } from '../resources/routes.js';
import type { SimDataset } from './model.js';
import type { FaultKind } from './faults.js';

export interface SimulatorOptions {
  /** Interface to listen on. Default 127.0.0.1 (loopback only). */
  host?: string;
  /** Port; 0 (default) picks a free one. */
  port?: number;
  /** Seed of the generated dataset and of every random choice (fault draws, import delays). Default 1. */
  seed?: number;
  /** Number of generated events when no dataset is given. Default 300. */
  events?: number;
  /** A dataset to serve instead of a generated one (see `loadDatasetFile`). */
  dataset?: SimDataset;
  /** Import delay in ms, fixed or drawn per route within a range. Default: drawn within the contract's typical 5-15 s. */
  importDelayMs?: number | { minMs: number; maxMs: number };
  /** Added before every API and OAuth answer. Default 0. */
  latencyMs?: number;
  /**
   * A GET of an importable event with no files answers 404, as the real service may (a guess from the observed spec's
   * "the importable event or its files were removed"). Default false: answered as any other.
   */
  importableNotFoundWithoutFiles?: boolean;
  /** Share of API requests that fail (429, 500, 502, 503, reset, stall). Default 0. */
  faultRate?: number;
  /** Which faults to draw from. Default all. */
  faultKinds?: readonly FaultKind[];
  /** How long a stalled request hangs before the connection drops. Default 10000 ms. */
  faultStallMs?: number;
  /** Retry-After seconds sent with an injected 429. Default 1. */
  retryAfterS?: number;
  /** The API key with every scope. Default: random per start. */
  apiKey?: string;
  /** A second key without course access (observed: 403 "You do not have the scope 'courses.read'"). Default random. */
  limitedApiKey?: string;
  /** A key of another application with every scope, to see another's importable events refused (403). Default random. */
  otherApiKey?: string;
  /** The registered OAuth client that accepts loopback redirect URIs on any port. Default `livelox-bridge-sim`. */
  clientId?: string;
  /** Status for an expired access token: the real service was seen answering 401 and 403. Default 401. */
  expiredTokenStatus?: 401 | 403;
  /**
   * Refresh-token rotation, as OAuth 2.1 asks of servers with public clients: each refresh answers a new refresh token
   * and the one sent is refused from then on (`invalid_grant`); access tokens already issued stay valid until they
   * expire. Default false: the contract's refresh tokens do not expire and are not said to rotate.
   */
  refreshTokenRotation?: boolean;
  /**
   * Share (0..1) of the events within the dataset's span that change per simulated day while the clock is advanced,
   * with about a tenth as many new events and a fiftieth deleted; the same seed and advances give the same changes.
   * Default 0: events change only when a test changes them (`world`).
   */
  churn?: number;
  /** Routes kept; past it the oldest posted is evicted (its status is then a 404 saying so). Default 10000. */
  maxRoutes?: number;
  /**
   * Bytes of route data kept (base64 until parsed, 24 bytes a point until settled, nothing after); past it the oldest
   * routes are evicted. Default two of the largest uploads (2 x MAX_ROUTE_BODY_BYTES, about 133 MiB).
   */
  maxRouteBytes?: number;
  /**
   * Request body bytes held at once, across the requests being read and handled: a body counts the bytes that have
   * arrived until its first MiB is in, then its declared size. A request that does not fit is answered 503 with
   * Retry-After (before its body is read when its declared size does not fit). Default two of the largest route
   * uploads (about 133 MiB).
   */
  maxBodyBytesInFlight?: number;
  /** Time for a request's headers and body to arrive; slower clients get 408 and the connection closes. Default 30000. */
  requestTimeoutMs?: number;
  /**
   * Slowest request body taken: bytes per second on average from the body's start, checked once `slowBodyGraceMs` have
   * passed; a slower body is answered 408 and its connection closed. 0 turns the check off. Default 16384 (16 KiB/s).
   */
  minBodyBytesPerSecond?: number;
  /** Time a request body has before its rate is checked (`minBodyBytesPerSecond`). Default 10000. */
  slowBodyGraceMs?: number;
  /**
   * How long `close()` lets the requests in flight finish, taking no new ones meanwhile; those still running then are
   * cut off. 0 cuts them at once. Default 10000.
   */
  drainTimeoutMs?: number;
  /**
   * Requests kept in the journal (`GET /_simulator/journal`), the oldest dropped past it. Default 1000, at most
   * 1,000,000. Each entry holds at most 4096 characters of each body, and the entries kept take at most 64 MiB
   * whatever their count: the oldest are dropped past either bound.
   */
  journalEntries?: number;
  /** A file each journal entry is appended to as a JSON line (created with mode 0600), besides memory. Default none. */
  journalFile?: string;
  /**
   * Honour the `X-Simulator-Scenario` request header (`status=429; retry-after=2`, `expired-token`, `stall=1500`,
   * `reset`). Default true; false for a simulator whose clients must not choose their answers.
   */
  scenarios?: boolean;
}

/** The longest delay a Node timer takes. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** Most entries `journalEntries` may keep (the CLI's bound too). */
const MAX_JOURNAL_ENTRIES = 1_000_000;

export function validateOptions(o: SimulatorOptions): void {
  const problems: Issue[] = [];
  const problem = (path: keyof SimulatorOptions, msg: string) =>
    problems.push({ path, code: 'invalid_option', message: msg });
  const nonNegInt = (name: keyof SimulatorOptions, v: number | undefined) => {
    if (v !== undefined && !(Number.isInteger(v) && v >= 0)) problem(name, `must be a non-negative integer, got ${v}`);
  };
  nonNegInt('port', o.port);
  nonNegInt('seed', o.seed);
  nonNegInt('events', o.events);
  const delay = o.importDelayMs;
  if (typeof delay === 'object') {
    nonNegInt('importDelayMs', delay.minMs);
    nonNegInt('importDelayMs', delay.maxMs);
    if (delay.maxMs < delay.minMs) problem('importDelayMs', `maxMs must be at least minMs, got ${delay.maxMs}`);
  } else nonNegInt('importDelayMs', delay);
  nonNegInt('latencyMs', o.latencyMs);
  nonNegInt('faultStallMs', o.faultStallMs);
  nonNegInt('retryAfterS', o.retryAfterS);
  nonNegInt('minBodyBytesPerSecond', o.minBodyBytesPerSecond);
  for (const name of ['slowBodyGraceMs', 'drainTimeoutMs'] as const) {
    nonNegInt(name, o[name]);
    // Longer than a timer can wait (about 24.8 days): Node would fire it at once instead.
    const v = o[name];
    if (v !== undefined && v > MAX_TIMER_MS) problem(name, `must be at most ${MAX_TIMER_MS}, got ${v}`);
  }
  for (const name of [
    'maxRoutes',
    'maxRouteBytes',
    'maxBodyBytesInFlight',
    'requestTimeoutMs',
    'journalEntries',
  ] as const) {
    const v = o[name];
    if (v !== undefined && !(Number.isSafeInteger(v) && v >= 1)) problem(name, `must be a positive integer, got ${v}`);
  }
  // The journal is bounded by memory too (64 MiB), but a count past this is surely a mistake, not a wish.
  if (o.journalEntries !== undefined && o.journalEntries > MAX_JOURNAL_ENTRIES) {
    problem('journalEntries', `must be at most ${MAX_JOURNAL_ENTRIES}, got ${o.journalEntries}`);
  }
  // Below one largest route body, such an upload could never be read: it would be answered 503 (try later) for ever.
  if (o.maxBodyBytesInFlight !== undefined && o.maxBodyBytesInFlight < MAX_ROUTE_BODY_BYTES) {
    problem(
      'maxBodyBytesInFlight',
      `must be at least ${MAX_ROUTE_BODY_BYTES} (one largest route body), got ${o.maxBodyBytesInFlight}`,
    );
  }
  if (o.port !== undefined && o.port > 65535) problem('port', `must be at most 65535, got ${o.port}`);
  for (const share of ['faultRate', 'churn'] as const) {
    const v = o[share];
    if (v !== undefined && !(v >= 0 && v <= 1)) problem(share, `must be within 0..1, got ${v}`);
  }
  if (o.expiredTokenStatus !== undefined && o.expiredTokenStatus !== 401 && o.expiredTokenStatus !== 403) {
    problem('expiredTokenStatus', 'must be 401 or 403');
  }
  if (o.refreshTokenRotation !== undefined && typeof o.refreshTokenRotation !== 'boolean') {
    problem('refreshTokenRotation', 'must be true or false');
  }
  if (o.scenarios !== undefined && typeof o.scenarios !== 'boolean') problem('scenarios', 'must be true or false');
  if (o.journalFile !== undefined && (typeof o.journalFile !== 'string' || o.journalFile === '')) {
    problem('journalFile', 'must be a file path');
  }
  if (problems.length > 0) throw new ValidationError('Invalid simulator options', problems);
}
