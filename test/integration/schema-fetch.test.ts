/**
 * fetchIofSchema over real HTTP on loopback: the IOF's files served whole, and every way a download goes wrong. Each
 * failure is a clear error, and the cache keeps what it held, byte for byte, with no temporary file left beside it.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConnectionError, InputError, TimeoutError, ValidationError } from '../../src/errors.js';
import { findIofSchema } from '../../src/iof/schema-path.js';
import { fetchIofSchema, IOF_SCHEMA_SOURCES, type FetchIofSchemaOptions } from '../../src/jobs/fetch-schema.js';
import { iofGrammarPath } from '../helpers/files.js';
import { DTD, XSD, startSchemaServer, type SchemaServer } from '../helpers/schema-server.js';

let server: SchemaServer;
let dir: string;
let cache: string;
/** What the cache held before each test: the IOF's file with a comment added, so that its digest is its own. */
const OLD = Buffer.concat([XSD, Buffer.from('<!-- an older copy -->\n')]);

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

beforeAll(async () => {
  server = await startSchemaServer();
  dir = mkdtempSync(join(tmpdir(), 'lb-schema-fetch-'));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  cache = join(dir, `cache-${Math.random().toString(36).slice(2)}`);
  mkdirSync(cache, { recursive: true });
  writeFileSync(join(cache, 'IOF.xsd'), OLD);
});

function fetchFrom(path: string, options: FetchIofSchemaOptions = {}) {
  return fetchIofSchema({ from: `${server.url}${path}`, cacheDir: cache, retry: { maxRetries: 0 }, ...options });
}

/** The failure, after checking that the cache holds the old copy untouched and nothing else. */
async function failure(pending: Promise<unknown>): Promise<unknown> {
  const error = await pending.then(
    () => new Error('the fetch succeeded'),
    (e: unknown) => e,
  );
  expect(readdirSync(cache)).toEqual(['IOF.xsd']);
  expect(readFileSync(join(cache, 'IOF.xsd')).equals(OLD)).toBe(true);
  return error;
}

describe('fetchIofSchema', { timeout: 30_000 }, () => {
  it("pins the IOF's files: the digests are those of the IOF's IOF.xsd and 2.0.3 DTD", () => {
    expect(IOF_SCHEMA_SOURCES.xsd.sha256).toBe(sha256(readFileSync(iofGrammarPath('IOF.xsd'))));
    expect(IOF_SCHEMA_SOURCES.dtd.sha256).toBe(sha256(readFileSync(iofGrammarPath('IOFdata-2.0.3.dtd'))));
    expect(IOF_SCHEMA_SOURCES.xsd.url).toContain(`/datastandard-v3/${IOF_SCHEMA_SOURCES.xsd.commit}/IOF.xsd`);
    expect(IOF_SCHEMA_SOURCES.dtd.url).toContain(`/XML-V2/${IOF_SCHEMA_SOURCES.dtd.commit}/IOFdata.dtd`);
  });

  it('downloads IOF.xsd, replaces the cached copy atomically, and says its sha256', async () => {
    const result = await fetchFrom('/IOF.xsd');
    expect(result).toEqual({
      kind: 'xsd',
      path: join(cache, 'IOF.xsd'),
      from: `${server.url}/IOF.xsd`,
      redirects: [],
      sha256: sha256(XSD),
      bytes: XSD.byteLength,
      verified: false,
      status: 'written',
      replaced: true,
    });
    expect(readFileSync(join(cache, 'IOF.xsd')).equals(XSD)).toBe(true);
    expect(readdirSync(cache)).toEqual(['IOF.xsd']);
    // Fetched again: the same bytes are there already.
    expect(await fetchFrom('/IOF.xsd')).toMatchObject({ status: 'unchanged', replaced: false });
  });

  it('writes where the lookup then finds it: $XDG_CACHE_HOME/livelox-bridge, created when missing', async () => {
    const xdg = join(dir, 'xdg');
    const env = { XDG_CACHE_HOME: xdg };
    const result = await fetchIofSchema({ from: `${server.url}/IOF.xsd`, env });
    expect(result.path).toBe(join(xdg, 'livelox-bridge', 'IOF.xsd'));
    expect(findIofSchema({ env, packageRoot: false })).toMatchObject({ source: 'cache', path: result.path });
  });

  it('follows a redirect, and names it', async () => {
    const result = await fetchFrom('/moved/IOF.xsd');
    expect(result).toMatchObject({ from: `${server.url}/moved/IOF.xsd`, redirects: [`${server.url}/IOF.xsd`] });
  });

  it('fetches the IOF 2.0.3 DTD into its own file, checked by translating and compiling it', async () => {
    const result = await fetchFrom('/IOFdata.dtd', { kind: 'dtd', sha256: IOF_SCHEMA_SOURCES.dtd.sha256 });
    expect(result).toMatchObject({ kind: 'dtd', verified: true, status: 'written', replaced: false });
    expect(readFileSync(join(cache, 'IOFdata-2.0.3.dtd')).equals(DTD)).toBe(true);
  });

  it('takes a local file (--from FILE), by path or file: URL', async () => {
    const result = await fetchIofSchema({ from: iofGrammarPath('IOF.xsd'), cacheDir: cache });
    expect(result).toMatchObject({ from: iofGrammarPath('IOF.xsd'), status: 'written', sha256: sha256(XSD) });
    const again = await fetchIofSchema({ from: `file://${iofGrammarPath('IOF.xsd')}`, cacheDir: cache });
    expect(again.status).toBe('unchanged');
    writeFileSync(join(cache, 'IOF.xsd'), OLD);
    const missing = await failure(fetchIofSchema({ from: join(dir, 'nothing.xsd'), cacheDir: cache }));
    expect(missing).toMatchObject({ reason: 'not_found', message: expect.stringContaining('there is no such file') });
  });

  it('checks a digest given: a match is verified, a mismatch writes nothing', async () => {
    expect(await fetchFrom('/IOF.xsd', { sha256: sha256(XSD).toUpperCase() })).toMatchObject({ verified: true });
    writeFileSync(join(cache, 'IOF.xsd'), OLD);
    const error = await failure(fetchFrom('/IOF.xsd', { sha256: 'ab'.repeat(32) }));
    expect(error).toBeInstanceOf(InputError);
    expect(error).toMatchObject({ reason: 'sha256_mismatch' });
    expect((error as Error).message).toContain(`has sha256 ${sha256(XSD)}, but ${'ab'.repeat(32)} was asked for`);
    await expect(fetchFrom('/IOF.xsd', { sha256: 'abc' })).rejects.toBeInstanceOf(ValidationError);
  });

  it('refuses a truncated file, saying so', async () => {
    const error = await failure(fetchFrom('/truncated.xsd'));
    expect(error).toMatchObject({ reason: 'truncated', message: expect.stringMatching(/the file is truncated/) });
    const dtd = await failure(fetchFrom('/truncated.dtd', { kind: 'dtd' }));
    expect(dtd).toMatchObject({ reason: 'truncated' });
  });

  it('refuses a connection that drops before the length it promised', async () => {
    const error = await failure(fetchFrom('/cut.xsd'));
    expect(error).toBeInstanceOf(ConnectionError);
  });

  it('refuses an HTML error page sent as a success', async () => {
    const error = await failure(fetchFrom('/error-page.xsd'));
    expect(error).toMatchObject({ reason: 'html_page', message: expect.stringContaining('an HTML page') });
  });

  it('names a 404', async () => {
    const error = await failure(fetchFrom('/not-here.xsd'));
    expect(error).toMatchObject({
      reason: 'not_found',
      source: `${server.url}/not-here.xsd`,
      message: expect.stringContaining('the server answered 404 Not Found'),
    });
  });

  it('stops a redirect loop, showing it', async () => {
    const error = await failure(fetchFrom('/loop-a'));
    expect(error).toMatchObject({ reason: 'redirect_loop' });
    expect((error as Error).message).toContain(
      `redirects in a loop: ${server.url}/loop-a -> ${server.url}/loop-b -> ${server.url}/loop-a`,
    );
    const limited = await failure(fetchFrom('/moved/IOF.xsd', { maxRedirects: 0 }));
    expect(limited).toMatchObject({ reason: 'too_many_redirects' });
  });

  it('gives up on a body that stalls, after the stall timeout', async () => {
    const error = await failure(fetchFrom('/stall.xsd', { bodyTimeoutMs: 300 }));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({
      message: expect.stringMatching(
        /^The file did not arrive in time \(UND_ERR_BODY_TIMEOUT\) \(GET http:.*stall\.xsd\)/,
      ),
      request: { method: 'GET', path: `${server.url}/stall.xsd` },
    });
  });

  it('says a server error with its status, after retrying', async () => {
    const error = await failure(fetchFrom('/server-error.xsd', { retry: { maxRetries: 1, baseDelayMs: 5 } }));
    expect(error).toMatchObject({ reason: 'http_error', message: expect.stringContaining('503 (tried 2 times)') });
  });

  it('stops reading a file larger than any schema', async () => {
    const error = await failure(fetchFrom('/huge.xsd'));
    expect(error).toMatchObject({ reason: 'too_large' });
  });

  it('refuses another schema: not the IOF 3.0 target namespace', async () => {
    const error = await failure(fetchFrom('/not-iof.xsd'));
    expect(error).toMatchObject({
      reason: 'not_iof_schema',
      message: expect.stringContaining("its target namespace is 'urn:other'"),
    });
    const dtdAsXsd = await failure(fetchFrom('/IOFdata.dtd'));
    expect(dtdAsXsd).toMatchObject({ reason: 'not_well_formed', message: expect.stringContaining('is not the IOF') });
  });
});
