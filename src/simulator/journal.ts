/**
 * The request journal: what an integrator's CI asks after a failed run ("what did my client send, and what did it
 * get?"). Every request answered (or reset, or stalled) is one entry in a bounded ring, the oldest dropped past the
 * cap, optionally appended to a JSON-lines file too. Secrets never enter an entry: credentials are named by their kind
 * and subject, never their value, and bodies are redacted by field name and by the secrets the simulator issued.
 */
import { createWriteStream, openSync, type WriteStream } from 'node:fs';
import { ValidationError } from '../errors.js';
import type { IncomingHttpHeaders } from 'node:http';
import { REDACTED, Redactor } from '../core/redact.js';
import { redactJsonPrefix, type JsonRedaction, type RedactedJson } from './journal-json.js';
import { bodyBytes, bodyStart, type SimBody } from './http.js';
import type { SimState } from './state.js';

/** Default of `journalEntries`: entries kept in memory, the oldest dropped past it. */
export const DEFAULT_JOURNAL_ENTRIES = 1000;
/** Characters of a body kept in an entry; the rest is cut and the cut said. */
export const JOURNAL_BODY_CHARS = 4096;
/** A string value longer than this in a JSON body (route data, base64 files) is abbreviated to its start and length. */
const LONG_VALUE_CHARS = 200;

/** Field and parameter names whose values are secrets, in bodies, forms and queries. */
const SECRET_NAME =
  /^(?:access_?token|refresh_?token|id_?token|token|code|code_?verifier|client_?secret|api_?key|password|secret)$/i;
/** Headers that carry credentials: named in `auth`, never copied. */
const SECRET_HEADERS = new Set(['apikey', 'authorization', 'cookie', 'set-cookie', 'proxy-authorization']);

export interface SimJournalAuth {
  /** `apiKey` (an ApiKey header), `bearer` (an OAuth access token), `none`. */
  kind: 'apiKey' | 'bearer' | 'none';
  /** Whose credentials: `app:{appId}` or `user:{userId}`; `unknown` for a key or token the simulator never issued. */
  subject?: string;
}

export interface SimJournalEntry {
  /** 1, 2, ... in the order requests arrived; `since` takes one. */
  seq: number;
  /** When the request arrived (this machine's clock, ISO 8601). */
  startedAt: string;
  /** The simulated clock then. */
  simulatedAt: string;
  method: string;
  path: string;
  /** The query's parameters, secrets redacted. */
  query: Record<string, string | string[]>;
  /** The answer's status; `reset` or `stall` when the connection was dropped without one. */
  status: number | 'reset' | 'stall' | 'aborted';
  /** From arrival to the answer's last byte (or the drop). */
  durationMs: number;
  requestBytes: number;
  responseBytes: number;
  auth: SimJournalAuth;
  /** The request's headers without credentials. */
  requestHeaders: Record<string, string>;
  responseHeaders: Record<string, string>;
  requestContentType?: string;
  requestBody?: string;
  responseContentType?: string;
  responseBody?: string;
  /** The `X-Simulator-Scenario` honoured, or the fault injected. */
  scenario?: string;
  fault?: string;
}

/** The journal file, as `GET /_simulator/journal` reports it. */
export interface SimJournalFileStatus {
  path: string;
  /** Lines handed to the file (the last may be cut short when a write failed). */
  lines: number;
  /** Why appending stopped (`ENOSPC`, say); the simulator and the journal in memory carry on. */
  stoppedBy?: string;
}

export interface SimJournalFilter {
  /** Entries after this `seq`, or from this time on (ISO 8601). */
  since?: number | Date;
  /** Entries whose path starts with this. */
  pathPrefix?: string;
  /** An exact status, or a class (4 for 4xx). */
  status?: number | { class: number };
}

/** What the server knows of a request when it is done, turned into an entry here. */
export interface JournalRecord {
  startedMs: number;
  simulatedMs: number;
  durationMs: number;
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  requestBody: Buffer | undefined;
  requestBytes: number;
  status: SimJournalEntry['status'];
  responseHeaders: Record<string, string>;
  responseBody: SimBody | undefined;
  scenario?: string;
  fault?: string;
}

export class SimJournal {
  readonly #cap: number;
  readonly #entries: SimJournalEntry[] = [];
  readonly #state: SimState;
  #file: WriteStream | undefined;
  #fileStatus: SimJournalFileStatus | undefined;
  #seq = 0;
  #dropped = 0;

  constructor(state: SimState, options: { entries?: number; file?: string }) {
    this.#state = state;
    this.#cap = options.entries ?? DEFAULT_JOURNAL_ENTRIES;
    // Appended, never rewritten: a line is written whole at once. 0600 though it holds no secret: it is a user's traffic.
    if (options.file) {
      const status: SimJournalFileStatus = { path: options.file, lines: 0 };
      this.#fileStatus = status;
      this.#file = openJournalFile(options.file, (reason) => (status.stoppedBy = reason));
    }
  }

  /** The journal file's path, lines appended, and what stopped it (a full disk), if anything did. */
  get file(): SimJournalFileStatus | undefined {
    return this.#fileStatus && { ...this.#fileStatus };
  }

  /** Entries dropped from memory so far (past the cap). */
  get dropped(): number {
    return this.#dropped;
  }

  get cap(): number {
    return this.#cap;
  }

  record(r: JournalRecord): SimJournalEntry {
    const redactor = this.#redactor(r.headers);
    const entry: SimJournalEntry = {
      seq: ++this.#seq,
      startedAt: new Date(r.startedMs).toISOString(),
      simulatedAt: new Date(r.simulatedMs).toISOString(),
      method: r.method,
      path: r.path,
      query: redactedQuery(r.query),
      status: r.status,
      durationMs: Math.round(r.durationMs * 1000) / 1000,
      requestBytes: r.requestBytes,
      responseBytes: r.responseBody === undefined ? 0 : bodyBytes(r.responseBody),
      auth: this.#auth(r.headers),
      requestHeaders: safeHeaders(r.headers, redactor),
      responseHeaders: safeHeaders(r.responseHeaders, redactor),
      ...bodyFields('request', first(r.headers['content-type']), r.requestBody, redactor),
      ...bodyFields('response', r.responseHeaders['content-type'], r.responseBody, redactor),
      ...(r.scenario ? { scenario: r.scenario } : {}),
      ...(r.fault ? { fault: r.fault } : {}),
    };
    this.#entries.push(entry);
    if (this.#entries.length > this.#cap) {
      this.#entries.shift();
      this.#dropped++;
    }
    if (this.#file && !this.#file.destroyed && this.#fileStatus?.stoppedBy === undefined) {
      this.#file.write(`${JSON.stringify(entry)}\n`);
      this.#fileStatus!.lines++;
    }
    return entry;
  }

  entries(filter: SimJournalFilter = {}): SimJournalEntry[] {
    return this.#entries.filter((e) => matches(e, filter));
  }

  clear(): void {
    this.#dropped += this.#entries.length;
    this.#entries.length = 0;
  }

  /** Finishes the file's last writes. */
  close(): Promise<void> {
    const file = this.#file;
    this.#file = undefined;
    if (!file) return Promise.resolve();
    return new Promise((resolve) => file.end(() => resolve()));
  }

  /** Secrets of this request that might echo in its bodies or headers: its key, its token. */
  #redactor(headers: IncomingHttpHeaders): Redactor {
    const redactor = new Redactor();
    redactor.add(first(headers.apikey));
    redactor.add(/^Bearer\s+(\S+)$/i.exec(first(headers.authorization) ?? '')?.[1]);
    return redactor;
  }

  #auth(headers: IncomingHttpHeaders): SimJournalAuth {
    const key = first(headers.apikey);
    if (key !== undefined) {
      const record = this.#state.apiKeys.get(key);
      return { kind: 'apiKey', subject: record ? `app:${record.appId}` : 'unknown' };
    }
    const bearer = /^Bearer\s+(\S+)$/i.exec(first(headers.authorization) ?? '')?.[1];
    if (bearer !== undefined) {
      const token = this.#state.tokens.get(bearer);
      return { kind: 'bearer', subject: token ? `user:${token.userId}` : 'unknown' };
    }
    return { kind: 'none' };
  }
}

/**
 * Opened at once, so that a path that cannot be written is refused when the simulator starts, not found out at the
 * first request. A write failing later (a full disk) stops the file, never the simulator: memory still has the entries.
 */
function openJournalFile(path: string, onStop: (reason: string) => void): WriteStream {
  let fd: number;
  try {
    fd = openSync(path, 'a', 0o600);
  } catch (err) {
    const reason = err instanceof Error && 'code' in err ? String(err.code) : String(err);
    throw new ValidationError('Invalid simulator options', [
      { path: 'journalFile', code: 'invalid_option', message: `cannot be opened for appending (${reason}): ${path}` },
    ]);
  }
  const file = createWriteStream(path, { fd });
  file.on('error', (err) => {
    onStop('code' in err ? String(err.code) : err.message);
    file.destroy();
  });
  return file;
}

function matches(e: SimJournalEntry, f: SimJournalFilter): boolean {
  if (typeof f.since === 'number' && e.seq <= f.since) return false;
  if (f.since instanceof Date && Date.parse(e.startedAt) < f.since.getTime()) return false;
  if (f.pathPrefix !== undefined && !e.path.startsWith(f.pathPrefix)) return false;
  if (typeof f.status === 'number' && e.status !== f.status) return false;
  if (typeof f.status === 'object' && !(typeof e.status === 'number' && Math.floor(e.status / 100) === f.status.class))
    return false;
  return true;
}

function first(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

function redactedQuery(params: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>;
  for (const [k, raw] of params) {
    const v = SECRET_NAME.test(k) ? REDACTED : raw;
    const had = out[k];
    out[k] = had === undefined ? v : [...(Array.isArray(had) ? had : [had]), v];
  }
  return out;
}

function safeHeaders(
  headers: IncomingHttpHeaders | Record<string, string>,
  redactor: Redactor,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined) continue;
    const name = k.toLowerCase();
    const text = Array.isArray(v) ? v.join(', ') : String(v);
    out[name] = SECRET_HEADERS.has(name) ? REDACTED : redactor.redact(text);
  }
  return out;
}

type BodyFields = Partial<
  Pick<SimJournalEntry, 'requestBody' | 'requestContentType' | 'responseBody' | 'responseContentType'>
>;

function bodyFields(
  side: 'request' | 'response',
  type: string | undefined,
  body: SimBody | undefined,
  redactor: Redactor,
): BodyFields {
  if (body === undefined || bodyBytes(body) === 0) return {};
  return {
    [`${side}ContentType`]: type ?? 'none',
    [`${side}Body`]: bodyText(type ?? '', body, redactor),
  };
}

/** Characters kept past the cap before the request's own secrets are cut, so that one straddling the cap is whole. */
const SECRET_SLACK_CHARS = 512;

/**
 * A body as an entry shows it, capped: JSON and forms with secret fields and long values replaced, text as it is, binary
 * by its size. Only as much of a body is redacted as is kept (see journal-json.ts for why).
 */
export function bodyText(type: string, body: SimBody, redactor: Redactor): string {
  const media = type.split(';')[0]!.trim().toLowerCase();
  const bytes = bodyBytes(body);
  const text = (): string => (typeof body === 'string' ? body : bodyStart(body, bytes));
  const keep = JOURNAL_BODY_CHARS + SECRET_SLACK_CHARS;
  if (media === 'application/json' || media.endsWith('+json')) {
    const json = redactedStart(body, {
      isSecretName: (name) => SECRET_NAME.test(name),
      redacted: REDACTED,
      longValueChars: LONG_VALUE_CHARS,
      maxChars: keep,
    });
    // Not JSON after all (a client's mistake, journalled as sent): the secrets the request carried are still cut.
    if (!json) return capped(redactor.redact(text().slice(0, keep)), bytes, text().length > keep);
    return capped(redactor.redact(json.text), bytes, json.cut);
  }
  if (media === 'application/x-www-form-urlencoded') {
    const params = new URLSearchParams(text());
    for (const k of new Set(params.keys())) if (SECRET_NAME.test(k)) params.set(k, REDACTED);
    return capped(redactor.redact(params.toString()), bytes, false);
  }
  if (media.startsWith('text/') || media.endsWith('/xml') || media.endsWith('+xml')) {
    const all = text();
    return capped(redactor.redact(all.slice(0, keep)), bytes, all.length > keep);
  }
  return `[${bytes} bytes of ${media || 'unknown type'}]`;
}

/**
 * `redactJsonPrefix` over as little of a body in bytes as it needs: decoding a whole 400 KiB answer to keep its first
 * 4 KiB cost more than the search that made it. A walk that stops cut on a decoded start wrote what it would have on
 * the whole body (it reads left to right, and a token the start ends inside makes it fail or end instead); any other
 * outcome is tried again on twice as much, up to the whole body.
 */
function redactedStart(body: SimBody, o: JsonRedaction): RedactedJson | undefined {
  if (typeof body === 'string') return redactJsonPrefix(body, o);
  const bytes = bodyBytes(body);
  // Redaction rarely makes JSON shorter (only long strings): the kept characters are seldom more bytes than this.
  for (let n = o.maxChars + 1024; n < bytes; n *= 2) {
    const json = redactJsonPrefix(bodyStart(body, n), o);
    if (json?.cut) return json;
  }
  return redactJsonPrefix(bodyStart(body, bytes), o);
}

function capped(text: string, bodyBytes: number, cut: boolean): string {
  return cut || text.length > JOURNAL_BODY_CHARS
    ? `${text.slice(0, JOURNAL_BODY_CHARS)}... [cut at ${JOURNAL_BODY_CHARS} characters; the body has ${bodyBytes} bytes]`
    : text;
}
