/**
 * The request journal: what an integrator's CI asks after a failed run ("what did my client send, and what did it
 * get?"). Every request answered (or reset, or stalled) is one entry in a bounded ring, the oldest dropped past the
 * cap, optionally appended to a JSON-lines file too. Secrets never enter an entry: credentials are named by their kind
 * and subject, never their value; bodies are redacted by field name (loosely, in bodies that are not what they claim),
 * and every text by the secrets the simulator issued.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { REDACTED, Redactor } from '../core/redact.js';
import { redactJsonBytes, redactJsonPrefix, type JsonRedaction, type RedactedJson } from './journal-json.js';
import { bodyBytes, bodyStart, type SimBody } from './http.js';
import { JournalFile, type SimJournalFileStatus } from './journal-file.js';
import type { SimState } from './state.js';

export type { SimJournalFileStatus } from './journal-file.js';

/** Default of `journalEntries`: entries kept in memory, the oldest dropped past it. */
export const DEFAULT_JOURNAL_ENTRIES = 1000;
/** Characters of a body kept in an entry; the rest is cut and the cut said. */
export const JOURNAL_BODY_CHARS = 4096;
/** A string value longer than this in a JSON body (route data, base64 files) is abbreviated to its start and length. */
const LONG_VALUE_CHARS = 200;

/** Names of fields and parameters whose values are secrets wherever they appear. */
const SECRET_NAMES =
  '(?:access|refresh|id|oauth|bearer)[_-]?token|token|(?:code|pkce)[_-]?verifier|client[_-]?secret|(?:x[_-])?api[_-]?key|' +
  'authorization|\\w*password|passwd|pwd|secret';
/**
 * Which names are secrets: with `code` where an authorization code travels (queries, and OAuth requests and their
 * answers), without it elsewhere, where a code is a country's or a class's and hiding it would misstate the answer.
 */
export interface SecretNames {
  /** An exact field or parameter name. */
  exact: RegExp;
  /** `name: value`, `"name": "value"` or `name=value` anywhere in a text, for bodies that are not what they claim. */
  loose: RegExp;
}

function secretNames(names: string): SecretNames {
  return {
    exact: new RegExp(`^(?:${names})$`, 'i'),
    // Any name, escaped in JSON (`\\u0070assword`) or in a URL (`code%5Fverifier`) too; the replacer decodes it and
    // asks `exact`. A value is quoted, a credential with its scheme (`Bearer ...`), or a bare word. A name starts where
    // a word does and is taken whole (a lookahead holds no backtracking points): one pass over a long run, not one per
    // character of it.
    loose: new RegExp(
      `(["']?)(?<![A-Za-z0-9_%\\\\-])(?=((?:[A-Za-z0-9_-]|\\\\u[0-9a-fA-F]{4}|%[0-9a-fA-F]{2})+))\\2\\1(\\s*[:=]\\s*)` +
        `((?:Bearer|Basic)\\s+[^\\s&,;}\\]"']+|"(?:[^"\\\\]|\\\\.)*"?|'(?:[^'\\\\]|\\\\.)*'?|[^&\\s,;}\\]"']*)`,
      'gi',
    ),
  };
}

/** A name as written in JSON or a URL, decoded: `\\u0070assword` and `pass%77ord` are `password`. */
function decodedName(name: string): string {
  return name
    .replace(/\\u([0-9a-fA-F]{4})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    .replace(/%([0-9a-fA-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

const API_SECRETS = secretNames(SECRET_NAMES);
/**
 * The shape of what the simulator issues (base64url tokens and codes, `sim_...` keys): candidates to look up. Each
 * run is tried from its start only (the lookbehind), not again from each of its characters: half the scan's time.
 */
const ISSUED_SHAPE = /(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{16,}/g;
/** The length of the tokens and codes the simulator issues (`randomToken`: 32 bytes in base64url). */
const ISSUED_TOKEN_CHARS = 43;
/** The longest run searched for a secret glued to other letters. */
const GLUED_WORD_CHARS = 256;

/** Cuts the secrets of one request out of a text. */
export interface TextRedactor {
  redact(text: string): string;
}
const OAUTH_SECRETS = secretNames(`code|${SECRET_NAMES}`);

/** The values of secret-named fields in any text replaced: quoted ones stay quoted. */
function looselyRedacted(text: string, names: SecretNames): string {
  return text.replace(names.loose, (m: string, q: string, name: string, sep: string, value: string) => {
    if (!names.exact.test(decodedName(name))) return m;
    const quote = value.startsWith('"') ? '"' : value.startsWith("'") ? "'" : '';
    return `${q}${name}${q}${sep}${quote}${REDACTED}${quote}`;
  });
}
/** Headers that carry credentials: named in `auth`, never copied. */
const SECRET_HEADERS = new Set(['apikey', 'authorization', 'cookie', 'set-cookie', 'proxy-authorization']);

/** How a request without an answer ended: its connection reset, stalled, or dropped by its client. */
export const NO_ANSWER = ['reset', 'stall', 'aborted'] as const;
type NoAnswer = (typeof NO_ANSWER)[number];

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
  status: number | NoAnswer;
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

export interface SimJournalFilter {
  /** Entries after this `seq`, or from this time on (ISO 8601). */
  since?: number | Date;
  /** Entries whose path starts with this. */
  pathPrefix?: string;
  /** An exact status, a class (4 for 4xx), or how a request without an answer ended. */
  status?: number | { class: number } | NoAnswer;
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

/** Memory the entries may take, the oldest dropped past it whatever `journalEntries` allows. */
export const JOURNAL_MAX_BYTES = 64 * 1024 * 1024;

/** A simulator's request journal, as a test reads it (`sim.journal`). */
export interface SimJournal {
  /** The entries kept, oldest first, that pass the filter. */
  entries(filter?: SimJournalFilter): SimJournalEntry[];
  /** Forgets every entry kept (they count as dropped); the file keeps its lines. */
  clear(): void;
  /** Entries kept at most. */
  readonly cap: number;
  /** Entries dropped from memory so far: past the cap or the memory budget, or cleared. */
  readonly dropped: number;
  /** The journal file's path, lines written, and what stopped it, if anything did; undefined without a file. */
  readonly file: SimJournalFileStatus | undefined;
}

/**
 * The journal the server writes: a ring of entries bounded by count and by memory (an entry holds up to two capped
 * bodies and the headers), dropping the oldest first in constant time, and the optional file.
 */
export class RequestJournal implements SimJournal {
  readonly #cap: number;
  readonly #maxBytes: number;
  /** A ring: `#size` entries from `#head`, each with its estimated size. */
  readonly #ring: ({ entry: SimJournalEntry; bytes: number } | undefined)[] = [];
  #head = 0;
  #size = 0;
  #bytes = 0;
  readonly #state: SimState;
  readonly #file: JournalFile | undefined;
  #seq = 0;
  #dropped = 0;

  constructor(state: SimState, options: { entries?: number; file?: string; maxBytes?: number }) {
    this.#state = state;
    this.#cap = options.entries ?? DEFAULT_JOURNAL_ENTRIES;
    this.#maxBytes = options.maxBytes ?? JOURNAL_MAX_BYTES;
    if (options.file) this.#file = new JournalFile(options.file);
  }

  get file(): SimJournalFileStatus | undefined {
    return this.#file?.status;
  }

  get dropped(): number {
    return this.#dropped;
  }

  /** Entries kept now. */
  get size(): number {
    return this.#size;
  }

  get cap(): number {
    return this.#cap;
  }

  record(r: JournalRecord): SimJournalEntry {
    const entry = this.#entryOf(r);
    this.#keep(entry);
    this.#file?.append(`${JSON.stringify(entry)}\n`);
    return entry;
  }

  entries(filter: SimJournalFilter = {}): SimJournalEntry[] {
    const out: SimJournalEntry[] = [];
    for (let i = 0; i < this.#size; i++) {
      const entry = this.#ring[(this.#head + i) % this.#ring.length]!.entry;
      if (matches(entry, filter)) out.push(entry);
    }
    return out;
  }

  clear(): void {
    this.#dropped += this.#size;
    this.#ring.length = 0;
    this.#head = 0;
    this.#size = 0;
    this.#bytes = 0;
  }

  /** Closes the file. */
  close(): Promise<void> {
    this.#file?.close();
    return Promise.resolve();
  }

  #entryOf(r: JournalRecord): SimJournalEntry {
    const redactor = this.#redactor(r.headers);
    const names = r.path.startsWith('/auth/') ? OAUTH_SECRETS : API_SECRETS;
    return {
      seq: ++this.#seq,
      startedAt: new Date(r.startedMs).toISOString(),
      simulatedAt: new Date(r.simulatedMs).toISOString(),
      method: r.method,
      path: redactor.redact(r.path),
      query: redactedQuery(r.query, redactor),
      status: r.status,
      durationMs: Math.round(r.durationMs * 1000) / 1000,
      requestBytes: r.requestBytes,
      responseBytes: r.responseBody === undefined ? 0 : bodyBytes(r.responseBody),
      auth: this.#auth(r.headers),
      requestHeaders: safeHeaders(r.headers, redactor),
      responseHeaders: safeHeaders(r.responseHeaders, redactor),
      ...bodyFields('request', first(r.headers['content-type']), r.requestBody, redactor, names),
      ...bodyFields('response', r.responseHeaders['content-type'], r.responseBody, redactor, names),
      ...(r.scenario ? { scenario: r.scenario } : {}),
      ...(r.fault ? { fault: r.fault } : {}),
    };
  }

  /** Adds the entry at the ring's end, first dropping the oldest while the count or the memory would pass its bound. */
  #keep(entry: SimJournalEntry): void {
    const bytes = entryBytes(entry);
    while (this.#size > 0 && (this.#size >= this.#cap || this.#bytes + bytes > this.#maxBytes)) {
      const oldest = this.#ring[this.#head]!;
      this.#ring[this.#head] = undefined;
      this.#head = (this.#head + 1) % this.#ring.length;
      this.#size--;
      this.#bytes -= oldest.bytes;
      this.#dropped++;
    }
    if (this.#size === 0) {
      this.#ring.length = 0;
      this.#head = 0;
    }
    const slot = { entry, bytes };
    if (this.#size < this.#ring.length) {
      this.#ring[(this.#head + this.#size) % this.#ring.length] = slot;
    } else {
      // Full below the cap (the loop above leaves room under it): grow, in order from the oldest.
      if (this.#head !== 0) {
        const ordered = [...this.#ring.slice(this.#head), ...this.#ring.slice(0, this.#head)];
        for (let i = 0; i < ordered.length; i++) this.#ring[i] = ordered[i];
        this.#head = 0;
      }
      this.#ring.push(slot);
    }
    this.#size++;
    this.#bytes += bytes;
  }

  /**
   * What cuts secrets out of this request's texts: its own key and token wherever they echo (whatever their form),
   * and any key, token or code the simulator issued, wherever a client put it (a token in a path, in another
   * parameter, in a field under another name).
   */
  #redactor(headers: IncomingHttpHeaders): TextRedactor {
    const own = new Redactor();
    own.add(first(headers.apikey));
    own.add(/^Bearer\s+(\S+)$/i.exec(first(headers.authorization) ?? '')?.[1]);
    const state = this.#state;
    const issued = (word: string): boolean =>
      state.tokens.has(word) || state.codes.has(word) || state.apiKeys.has(word);
    // A secret glued to other letters (`xTOKEN`) is found at each of the lengths secrets have here.
    let lengths: number[] | undefined;
    const cut = (word: string): string => {
      if (issued(word)) return REDACTED;
      // Longer runs are data (base64), not a secret with a few letters stuck to it; searching them would cost a
      // lookup per character.
      if (word.length > GLUED_WORD_CHARS) return word;
      let out = word;
      lengths ??= [...new Set([ISSUED_TOKEN_CHARS, ...[...state.apiKeys.keys()].map((k) => k.length)])];
      for (const n of lengths) {
        for (let at = 0; at + n <= out.length; at++) {
          if (issued(out.slice(at, at + n))) out = `${out.slice(0, at)}${REDACTED}${out.slice(at + n)}`;
        }
      }
      return out;
    };
    return { redact: (text) => own.redact(text).replace(ISSUED_SHAPE, cut) };
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

function matches(e: SimJournalEntry, f: SimJournalFilter): boolean {
  if (typeof f.since === 'number' && e.seq <= f.since) return false;
  if (f.since instanceof Date && Date.parse(e.startedAt) < f.since.getTime()) return false;
  if (f.pathPrefix !== undefined && !e.path.startsWith(f.pathPrefix)) return false;
  if ((typeof f.status === 'number' || typeof f.status === 'string') && e.status !== f.status) return false;
  if (typeof f.status === 'object' && !(typeof e.status === 'number' && Math.floor(e.status / 100) === f.status.class))
    return false;
  return true;
}

/** An entry's memory, roughly: two bytes a character of its bodies and headers, and its fixed fields. */
function entryBytes(e: SimJournalEntry): number {
  let chars = 512 + e.path.length + (e.requestBody?.length ?? 0) + (e.responseBody?.length ?? 0);
  for (const headers of [e.requestHeaders, e.responseHeaders]) {
    for (const [k, v] of Object.entries(headers)) chars += k.length + v.length;
  }
  for (const [k, v] of Object.entries(e.query)) chars += k.length + String(v).length;
  return 2 * chars;
}

function first(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

function redactedQuery(params: URLSearchParams, redactor: TextRedactor): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>;
  for (const [name, raw] of params) {
    // A value may hold a query of its own (a redirect_uri with ?code=...): cut the secrets in it too. A name may be a
    // secret itself (`?TOKEN`), or hold one (`refresh_token%3DTOKEN` decodes to a name with `=` in it).
    const k = redactor.redact(looselyRedacted(name, OAUTH_SECRETS));
    const v = OAUTH_SECRETS.exact.test(name) ? REDACTED : redactor.redact(looselyRedacted(raw, OAUTH_SECRETS));
    const had = out[k];
    out[k] = had === undefined ? v : [...(Array.isArray(had) ? had : [had]), v];
  }
  return out;
}

function safeHeaders(
  headers: IncomingHttpHeaders | Record<string, string>,
  redactor: TextRedactor,
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
  redactor: TextRedactor,
  names: SecretNames,
): BodyFields {
  if (body === undefined || bodyBytes(body) === 0) return {};
  return {
    [`${side}ContentType`]: type ?? 'none',
    [`${side}Body`]: bodyText(type ?? '', body, redactor, names),
  };
}

/** Characters kept past the cap before the request's own secrets are cut, so that one straddling the cap is whole. */
const SECRET_SLACK_CHARS = 512;

/**
 * A body as an entry shows it, capped: JSON and forms with secret fields and long values replaced, text as it is, binary
 * by its size. Only as much of a body is read and redacted as is kept (see journal-json.ts for why). A body that is
 * not what its type says (a form sent as JSON, JSON cut or broken, a token in plain text) still has the values of
 * secret-named fields replaced wherever they stand, and the request's own key and token wherever they echo.
 */
export function bodyText(
  type: string,
  body: SimBody,
  redactor: TextRedactor,
  names: SecretNames = API_SECRETS,
): string {
  const media = type.split(';')[0]!.trim().toLowerCase();
  const bytes = bodyBytes(body);
  const keep = JOURNAL_BODY_CHARS + SECRET_SLACK_CHARS;
  // A character is at most 4 bytes in UTF-8: this start holds every character kept, and the slack.
  const start = (): { text: string; cut: boolean } => {
    const all = typeof body === 'string' ? body : bodyStart(body, Math.min(bytes, 4 * keep));
    const cut = all.length > keep || (typeof body !== 'string' && bytes > 4 * keep);
    return { text: all.length > keep ? cutAt(all, keep) : all, cut };
  };
  const clean = (text: string): string => redactor.redact(looselyRedacted(text, names));
  if (media === 'application/json' || media.endsWith('+json')) {
    const json = redactedStart(body, {
      isSecretName: (name) => names.exact.test(name),
      redacted: REDACTED,
      longValueChars: LONG_VALUE_CHARS,
      maxChars: keep,
    });
    // Well-formed JSON had its secret fields replaced by name in the walk: only echoes are left to cut.
    if (json) return capped(redactor.redact(json.text), bytes, json.cut);
    const text = start();
    return capped(clean(text.text), bytes, text.cut);
  }
  if (media === 'application/x-www-form-urlencoded') {
    // Shown decoded, as a person reads a form (and as the loose pass can see a JSON text sent as one).
    const form = start();
    const pairs = [...new URLSearchParams(form.text)].map(([k, v]) => `${k}=${names.exact.test(k) ? REDACTED : v}`);
    return capped(clean(pairs.join('&')), bytes, form.cut);
  }
  if (media.startsWith('text/') || media.endsWith('/xml') || media.endsWith('+xml')) {
    const text = start();
    return capped(clean(text.text), bytes, text.cut);
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
  // A request's body: a long string in it (a route's base64) is measured in its bytes, never decoded.
  if (Buffer.isBuffer(body)) return redactJsonBytes(body, o);
  const bytes = bodyBytes(body);
  // Redaction rarely makes JSON shorter (only long strings): the kept characters are seldom more bytes than this.
  for (let n = o.maxChars + 1024; n < bytes; n *= 2) {
    const json = redactJsonPrefix(bodyStart(body, n), o);
    if (json?.cut) return json;
  }
  return redactJsonPrefix(bodyStart(body, bytes), o);
}

function capped(text: string, bodyBytes: number, cut: boolean): string {
  if (!cut && text.length <= JOURNAL_BODY_CHARS) return text;
  return `${cutAt(text, JOURNAL_BODY_CHARS)}... [cut at ${JOURNAL_BODY_CHARS} characters; the body has ${bodyBytes} bytes]`;
}

/**
 * The text's first `n` characters, without the run of key-like characters the cut goes through, if it does: it may
 * be the start of a secret too new, or too little of it, to be known.
 */
function cutAt(text: string, n: number): string {
  const kept = text.slice(0, n);
  return /[A-Za-z0-9_-]/.test(text.charAt(n)) ? kept.replace(/[A-Za-z0-9_-]+$/, '') : kept;
}
