/**
 * Getting the IOF's grammar files onto a machine that installed the package (the tarball ships neither: they are the
 * IOF's files): download IOF.xsd (or the IOF 2.0.3 DTD) from the IOF's own repository at a pinned commit, or take it
 * from another address or a local file; check that it is that file, whole, and that it compiles; check its digest;
 * then write it atomically into the user's cache, where the schema lookup (`findIofSchema`) finds it.
 *
 * Nothing is written until every check has passed, and the write replaces the cached copy in one rename: a download
 * that fails in any way (an error page, a file cut short, a stall, a redirect loop, another digest) leaves the cache as
 * it was, with no temporary file behind.
 */
import { createHash } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { errnoCode, readInputFile, writeFileAtomic } from '../core/files.js';
import { headerValue, Transport, type TransportOptions } from '../core/transport.js';
import { InputError, TimeoutError, ValidationError } from '../errors.js';
import { checkIofGrammar, looksLikeHtml } from '../iof/validate/check-grammar.js';
import { MAX_GRAMMAR_BYTES } from '../iof/validate/grammar.js';
import {
  GRAMMAR_FILE_NAMES,
  iofSchemaCacheDir,
  type IofGrammarKind,
  type IofSchemaLookupOptions,
} from '../iof/schema-path.js';

/** Where a grammar is published: a raw file of the IOF's repository at a fixed commit, and that file's digest. */
export interface PublishedIofSchema {
  url: string;
  /** The file's sha256, hex: the file at that commit, byte for byte. */
  sha256: string;
  repository: string;
  commit: string;
}

/**
 * The IOF's published files. IOF.xsd: international-orienteering-federation/datastandard-v3 at 34c116a (April 2020),
 * the last commit that changed IOF.xsd; it differs from c82c29c (August 2019) only in a documentation URL. The 2.0.3
 * DTD: international-orienteering-federation/XML-V2 (`IOFdata.dtd`, unchanged since it was added). A commit fixes the
 * bytes, and the digest says so on arrival.
 */
export const IOF_SCHEMA_SOURCES: Readonly<Record<IofGrammarKind, PublishedIofSchema>> = {
  xsd: {
    url: 'https://raw.githubusercontent.com/international-orienteering-federation/datastandard-v3/34c116ad1d17cffaf541197c261e535e499702db/IOF.xsd',
    sha256: '9d00abaea14ba4bedfae910d68a01506c097a57c29b0492c49abb19034ae90a1',
    repository: 'https://github.com/international-orienteering-federation/datastandard-v3',
    commit: '34c116ad1d17cffaf541197c261e535e499702db',
  },
  dtd: {
    url: 'https://raw.githubusercontent.com/international-orienteering-federation/XML-V2/e1aebfe96071add271a0cc2ecaab8f78b05049ed/IOFdata.dtd',
    sha256: '0ad5ec3e2930a31aae5615e9c39d4ddb743e6aea9c46ec38fa99e8d7205e9c58',
    repository: 'https://github.com/international-orienteering-federation/XML-V2',
    commit: 'e1aebfe96071add271a0cc2ecaab8f78b05049ed',
  },
};

const DEFAULT_MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export interface FetchIofSchemaOptions
  extends TransportOptions, Pick<IofSchemaLookupOptions, 'env' | 'platform' | 'homedir'> {
  /** `xsd` (IOF.xsd, default) or `dtd` (the IOF 2.0.3 DTD). */
  kind?: IofGrammarKind;
  /**
   * Where to take it from: an `http(s)://` address (a mirror), a `file:` URL or the path of a local copy. Default: the
   * IOF's repository at a pinned commit (`IOF_SCHEMA_SOURCES`).
   */
  from?: string;
  /**
   * The sha256 (64 hex digits) the file must have; another digest is an error and nothing is written. Default: the
   * pinned digest when taken from the default source, none otherwise.
   */
  sha256?: string;
  /**
   * The directory to write into. Default: the lookup's cache directory (`iofSchemaCacheDir`, from `env`, `platform`,
   * `homedir`), created when missing.
   */
  cacheDir?: string;
  /** Largest file accepted, in bytes. Default 16 MiB (IOF.xsd is about 180 KB). */
  maxBytes?: number;
  /** Redirects followed. Default 5. */
  maxRedirects?: number;
  signal?: AbortSignal;
}

export interface FetchedIofSchema {
  kind: IofGrammarKind;
  /** Where it was written (or already was): `<cache>/IOF.xsd` or `<cache>/IOFdata-2.0.3.dtd`. */
  path: string;
  /** What it was taken from: the address asked (before redirects) or the file's path. */
  from: string;
  /** The addresses redirected to, in order; empty when none (or from a file). */
  redirects: string[];
  sha256: string;
  bytes: number;
  /** Whether the digest was compared with one given (`sha256`) or pinned (the default source). */
  verified: boolean;
  /** `written`: the file is new there or replaced another; `unchanged`: the same bytes were there already. */
  status: 'written' | 'unchanged';
  /** A different copy was there before, and was replaced. */
  replaced: boolean;
}

/**
 * Fetches IOF.xsd (or the IOF 2.0.3 DTD), checks it, and writes it atomically into the cache. Throws, leaving the
 * cache as it was: `ValidationError` for options that cannot work (a `sha256` that is not 64 hex digits, an address
 * that is neither http(s) nor a file); `InputError` naming the source, reason `not_found` (404 or 410, or no such
 * file), `http_error` (another status), `redirect_loop`, `too_many_redirects`, `insecure_redirect` (https to http),
 * `too_large`, `html_page`, `truncated`, `not_well_formed`, `not_iof_schema`, `schema_invalid` (see
 * `checkIofGrammar`), `sha256_mismatch`; `TimeoutError` (no connection, no answer, or the body stalled past
 * `bodyTimeoutMs`), `ConnectionError`; or the file system's error when the cache cannot be written.
 */
export async function fetchIofSchema(options: FetchIofSchemaOptions = {}): Promise<FetchedIofSchema> {
  const kind = options.kind ?? 'xsd';
  const pinned = IOF_SCHEMA_SOURCES[kind];
  const from = options.from ?? pinned.url;
  const expected = expectedDigest(options, from === pinned.url ? pinned.sha256 : undefined);
  const dir = options.cacheDir ?? iofSchemaCacheDir(options);
  if (dir === undefined) {
    throw new ValidationError('Cannot fetch the schema', [
      { path: 'cacheDir', code: 'required', message: 'no cache directory is known (no home directory): give cacheDir' },
    ]);
  }
  const maxBytes = options.maxBytes ?? MAX_GRAMMAR_BYTES;

  const got = isAddress(from) ? await download(from, maxBytes, options) : await readLocal(from, maxBytes, options);
  await checkIofGrammar(kind, got.bytes, got.source, options.signal === undefined ? {} : { signal: options.signal });
  const sha256 = createHash('sha256').update(got.bytes).digest('hex');
  if (expected !== undefined && sha256 !== expected) {
    const which =
      options.sha256 === undefined ? `the IOF's file at commit ${pinned.commit.slice(0, 7)} has` : 'was asked for';
    throw new InputError(
      got.source,
      'sha256_mismatch',
      `has sha256 ${sha256}, but ${expected} ${which}; nothing was written.`,
      {
        hint:
          options.sha256 === undefined
            ? 'Something between here and the IOF changed the file (a proxy?). Take it from a copy you trust.'
            : 'Check the digest given, and where the file comes from.',
      },
    );
  }

  await mkdir(dir, { recursive: true });
  const path = join(dir, GRAMMAR_FILE_NAMES[kind]);
  const before = await digestOf(path, maxBytes);
  const result = {
    kind,
    path,
    from,
    redirects: got.redirects,
    sha256,
    bytes: got.bytes.byteLength,
    verified: expected !== undefined,
  };
  if (before === sha256) return { ...result, status: 'unchanged', replaced: false };
  await writeFileAtomic(path, got.bytes);
  return { ...result, status: 'written', replaced: before !== undefined };
}

function expectedDigest(options: FetchIofSchemaOptions, pinned: string | undefined): string | undefined {
  if (options.sha256 === undefined) return pinned;
  const digest = options.sha256.trim().toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(digest)) {
    throw new ValidationError('Cannot fetch the schema', [
      { path: 'sha256', code: 'format', message: 'a sha256 digest is 64 hexadecimal digits' },
    ]);
  }
  return digest;
}

function isAddress(from: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(from) && !/^file:/i.test(from);
}

/** The digest of the file at `path`, or undefined when there is none (or it cannot be read: it is replaced then). */
async function digestOf(path: string, maxBytes: number): Promise<string | undefined> {
  try {
    return createHash('sha256')
      .update(await readInputFile(path, { maxBytes }))
      .digest('hex');
  } catch {
    return undefined;
  }
}

interface Got {
  bytes: Uint8Array;
  /** How errors name it: the address it came from (the last one, after redirects) or the file. */
  source: string;
  redirects: string[];
}

async function readLocal(from: string, maxBytes: number, options: FetchIofSchemaOptions): Promise<Got> {
  const path = /^file:/i.test(from) ? fileURLToPath(from) : from;
  try {
    const bytes = await readInputFile(path, {
      what: 'the schema file',
      maxBytes,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    return { bytes, source: path, redirects: [] };
  } catch (err) {
    if (err instanceof InputError && errnoCode(err.cause) === 'ENOENT') {
      throw new InputError(path, 'not_found', 'there is no such file.', { cause: err });
    }
    throw err;
  }
}

/** GETs `from`, following redirects (at most `maxRedirects`, never in a loop, never from https to http). */
async function download(from: string, maxBytes: number, options: FetchIofSchemaOptions): Promise<Got> {
  let url: URL;
  try {
    url = new URL(from);
  } catch {
    throw new ValidationError('Cannot fetch the schema', [{ path: 'from', code: 'format', message: 'not an address' }]);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ValidationError('Cannot fetch the schema', [
      { path: 'from', code: 'format', message: `${url.protocol} addresses are not fetched: give http(s) or a file` },
    ]);
  }
  // undici sends no credentials written in an address, and every message would show them: refused, unrepeated.
  if (url.username !== '' || url.password !== '') {
    throw new ValidationError('Cannot fetch the schema', [
      { path: 'from', code: 'format', message: 'an address with a user name or password is not fetched' },
    ]);
  }
  const { maxRedirects, signal } = options;
  // One file, once: no pacing, a few retries, and a stalled body given up after 30 s rather than the API's 60 s.
  const transport = new Transport({
    maxConcurrent: 1,
    ratePerSecond: 0,
    bodyTimeoutMs: 30_000,
    ...transportOptions(options),
    retry: { maxRetries: 2, ...options.retry },
  });
  const seen = [url.href];
  try {
    for (;;) {
      const res = await transport.request({
        method: 'GET',
        url,
        headers: { accept: 'application/xml, text/xml, application/xml-dtd, */*;q=0.1' },
        info: { method: 'GET', path: url.href },
        maxBodyBytes: maxBytes,
        signal,
      });
      if (REDIRECT_STATUSES.has(res.status)) {
        url = redirectTarget(url, res.status, headerValue(res.headers.location), seen, maxRedirects);
        seen.push(url.href);
        continue;
      }
      checkAnswer(url, res.status, headerValue(res.headers['content-type']), res.body, res.attempts);
      return { bytes: res.body, source: url.href, redirects: seen.slice(1) };
    }
  } catch (err) {
    throw err instanceof TimeoutError ? downloadTimedOut(err) : err;
  } finally {
    await transport.close();
  }
}

/** The transport's timeout in this job's words: a file that did not arrive, and what to do (not the API's options). */
function downloadTimedOut(err: TimeoutError): TimeoutError {
  const tried = err.attempts !== undefined && err.attempts > 1 ? ` It was tried ${err.attempts} times.` : '';
  // The summary ends with the request, which the new error adds again from `request`.
  const said = err.summary.replace(/ \((?:GET|POST|PUT|DELETE) [^)]*\)$/, '');
  return new TimeoutError(said.replace(/^No answer in time/, 'The file did not arrive in time'), {
    cause: err,
    ...(err.request === undefined ? {} : { request: err.request }),
    ...(err.attempts === undefined ? {} : { attempts: err.attempts }),
    hint: `The server or the network is slow, or the server stopped sending.${tried} Try again later with a longer timeout (connectTimeoutMs, headersTimeoutMs, bodyTimeoutMs), or take the file from another source.`,
  });
}

/** The caller's transport options (timeouts, retry, user agent, dispatcher, ...) without this job's own. */
function transportOptions(options: FetchIofSchemaOptions): TransportOptions {
  const {
    kind: _kind,
    from: _from,
    sha256: _sha256,
    cacheDir: _cacheDir,
    maxBytes: _maxBytes,
    maxRedirects: _maxRedirects,
    signal: _signal,
    env: _env,
    platform: _platform,
    homedir: _homedir,
    ...transport
  } = options;
  return transport;
}

function redirectTarget(
  url: URL,
  status: number,
  location: string | undefined,
  seen: readonly string[],
  maxRedirects = DEFAULT_MAX_REDIRECTS,
): URL {
  if (location === undefined || location === '') {
    throw new InputError(url.href, 'http_error', `answered ${status} (a redirect) without saying where to.`);
  }
  let next: URL;
  try {
    next = new URL(location, url);
  } catch {
    throw new InputError(url.href, 'http_error', `answered ${status} with a redirect to an address that is not one.`);
  }
  if (next.protocol !== 'https:' && next.protocol !== 'http:') {
    throw new InputError(url.href, 'http_error', `redirects to a ${next.protocol} address, which is not fetched.`);
  }
  if (url.protocol === 'https:' && next.protocol === 'http:') {
    throw new InputError(url.href, 'insecure_redirect', `redirects from https to plain http (${next.href}): refused.`);
  }
  if (seen.includes(next.href)) {
    throw new InputError(seen[0]!, 'redirect_loop', `redirects in a loop: ${[...seen, next.href].join(' -> ')}.`, {
      hint: 'The server is misconfigured: take the file from another source.',
    });
  }
  if (seen.length > maxRedirects) {
    throw new InputError(
      seen[0]!,
      'too_many_redirects',
      `redirected more than ${maxRedirects} times (to ${next.href}).`,
    );
  }
  return next;
}

/** A success with the file, or an error naming the status (404 in words) or the HTML page that came instead. */
function checkAnswer(url: URL, status: number, contentType: string | undefined, body: Buffer, attempts: number): void {
  if (status === 404 || status === 410) {
    throw new InputError(url.href, 'not_found', `is not there: the server answered ${status} Not Found.`, {
      hint: 'Check the address; the file may have moved. A copy from another source (a mirror, a file) works too.',
    });
  }
  if (status < 200 || status >= 300) {
    const tried = attempts > 1 ? ` (tried ${attempts} times)` : '';
    throw new InputError(url.href, 'http_error', `the server answered ${status}${tried}; nothing was written.`, {
      hint: 'Try again later, or take the file from another source.',
    });
  }
  // An error or login page sent with 200 (a captive portal, a file host's preview): said as such, not as bad XML.
  if (/^\s*text\/html\b/i.test(contentType ?? '') && looksLikeHtml(body.subarray(0, 2048).toString('latin1'))) {
    throw new InputError(
      url.href,
      'html_page',
      'answered with an HTML page (an error, login or preview page), not the file.',
    );
  }
}
