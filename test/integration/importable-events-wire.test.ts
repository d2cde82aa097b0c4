/**
 * What client.importableEvents puts on the wire and how it reads answers the simulator does not give: a loopback
 * server started here records every request (method, path, headers, body) and answers what each test sets, raw bodies
 * included. The simulator's side of the same flow is in importable-events.test.ts.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiKey } from '../../src/auth/api-key.js';
import { LiveloxClient } from '../../src/client.js';
import { ServerError } from '../../src/errors.js';
import { MAY_HAVE_CREATED_EVENT } from '../../src/resources/importable-events.js';
import { courseFile, importableEvent, uploads } from '../helpers/importable-events.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

let server: Server;
let client: LiveloxClient;
const seen: Seen[] = [];
/** What the server answers next: status, content type and body (the same for every request until changed). */
let answer: { status: number; type?: string; body: string } = { status: 200, body: '{}' };

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(answer.status, { 'content-type': answer.type ?? 'application/json' });
      res.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  client = new LiveloxClient({
    auth: apiKey('wire-test-key'),
    baseUrl: `${base}/api`,
    viewerUrl: `${base}/viewer`,
    ratePerSecond: 0,
    retry: { baseDelayMs: 1, maxDelayMs: 5 },
  });
});
afterAll(async () => {
  await client.close();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  seen.length = 0;
  answer = { status: 200, body: '{}' };
});

const LINK = JSON.stringify({ id: 'ev-1', liveloxImportEventUrl: 'https://x/import', liveloxShowEventUrl: null });

describe('requests', () => {
  it('creates with a camelCase JSON body and Accept: application/json', async () => {
    answer = { status: 200, body: LINK };
    const xml = courseFile();
    await client.importableEvents.create(importableEvent(xml));
    const [req] = seen;
    expect(req).toMatchObject({ method: 'POST', url: '/api/importableEvents' });
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.headers.accept).toBe('application/json');
    expect(req!.headers.apikey).toBe('wire-test-key');
    const body = JSON.parse(req!.body.toString('utf8'));
    expect(Object.keys(body)).toEqual(['name', 'timeInterval', 'maps', 'courseDataFileNames']);
    expect(Object.keys(body.maps[0])).toContain('georeference');
  });

  it('uploads one files.zip without Content-Type or Accept, flat, names as the object gives them', async () => {
    const xml = courseFile();
    await client.importableEvents.uploadFiles('ev 1/ä', uploads(xml));
    expect(seen).toHaveLength(1);
    const [req] = seen;
    expect(req).toMatchObject({ method: 'POST', url: '/api/importableEvents/ev%201%2F%C3%A4/files/files.zip' });
    expect(req!.headers['content-type']).toBeUndefined();
    expect(req!.headers.accept).toBeUndefined();
    expect(Number(req!.headers['content-length'])).toBe(req!.body.length);
    expect(Object.keys(unzipSync(new Uint8Array(req!.body))).sort()).toEqual(['CourseData.xml', 'map.png']);
  });

  it('uploads one request per file as application/octet-stream, the name URL-encoded', async () => {
    const files = [
      { name: 'Kurser & banor.xml', bytes: new TextEncoder().encode('<CourseData/>') },
      { name: 'karta.png', bytes: new Uint8Array([1, 2, 3]) },
    ];
    const result = await client.importableEvents.uploadFiles('ev-1', files, { mode: 'per-file' });
    expect(result).toEqual({ requests: 2, sent: ['Kurser & banor.xml', 'karta.png'] });
    expect(seen.map((r) => r.url)).toEqual([
      '/api/importableEvents/ev-1/files/Kurser%20%26%20banor.xml',
      '/api/importableEvents/ev-1/files/karta.png',
    ]);
    for (const r of seen) expect(r.headers['content-type']).toBe('application/octet-stream');
    expect([...seen[1]!.body]).toEqual([1, 2, 3]);
  });

  it('imports with a PUT of no body: Content-Length 0, no Content-Type', async () => {
    answer = { status: 200, body: LINK };
    await client.importableEvents.import('ev-1');
    const [req] = seen;
    expect(req).toMatchObject({ method: 'PUT', url: '/api/importableEvents/ev-1/import' });
    expect(req!.headers['content-length']).toBe('0');
    expect(req!.headers['content-type']).toBeUndefined();
    expect(req!.body.length).toBe(0);
  });

  it('asks for the imported event by default, and not when told', async () => {
    answer = { status: 200, body: '{"name": "x"}' };
    await client.importableEvents.get('ev-1');
    await client.importableEvents.get('ev-1', { includeImportedEvent: false });
    expect(seen.map((r) => r.url)).toEqual([
      '/api/importableEvents/ev-1?includeImportedEvent=true',
      '/api/importableEvents/ev-1?includeImportedEvent=false',
    ]);
  });

  it('refuses bad input before sending anything', async () => {
    await expect(client.importableEvents.create({ ...importableEvent(courseFile()), name: ' ' })).rejects.toMatchObject(
      { code: 'validation' },
    );
    await expect(
      client.importableEvents.uploadFiles('ev-1', [{ name: '../x.xml', bytes: new Uint8Array(1) }]),
    ).rejects.toMatchObject({ reason: 'bad_file_name' });
    await expect(client.importableEvents.uploadFiles('ev-1', [])).rejects.toMatchObject({ code: 'validation' });
    await expect(client.importableEvents.get('')).rejects.toMatchObject({ code: 'validation' });
    expect(seen).toHaveLength(0);
  });
});

describe('retries', () => {
  it('never repeats a create the service may have acted on (a 500), and says so', async () => {
    answer = { status: 500, body: '{"message": "boom"}' };
    const err = await client.importableEvents.create(importableEvent(courseFile())).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServerError);
    expect((err as ServerError).mayHaveTakenEffect).toBe(true);
    expect((err as Error).message).toContain(MAY_HAVE_CREATED_EVENT);
    expect(seen).toHaveLength(1);
  });

  it('repeats an update, an upload and a validation read after a 503, as any safe request', async () => {
    answer = { status: 503, body: '{}' };
    await expect(client.importableEvents.update('ev-1', importableEvent(courseFile()))).rejects.toBeInstanceOf(
      ServerError,
    );
    expect(seen.filter((r) => r.method === 'PUT')).toHaveLength(5);
    seen.length = 0;
    await expect(client.importableEvents.uploadFiles('ev-1', uploads(courseFile()))).rejects.toBeInstanceOf(
      ServerError,
    );
    expect(seen).toHaveLength(5);
  });
});

describe('answers read leniently', () => {
  it('reads a PascalCase link and imported event', async () => {
    answer = {
      status: 200,
      body: JSON.stringify({
        Name: 'Ellenbrook',
        ImportedEvent: { Id: 4711, Name: 'Ellenbrook', OwnerRoles: [{ RoleType: 1 }], HiddenUntil: null },
        Link: { Id: 'ev-1', LiveloxImportEventUrl: null, LiveloxEditEventUrl: 'https://x/edit' },
      }),
    };
    const got = await client.importableEvents.get('ev-1');
    expect(got.importedEvent?.id).toBe(4711);
    expect(got.importedEvent?.ownerRoles?.[0]?.roleType).toBe(1);
    expect(got.link).toMatchObject({ id: 'ev-1', liveloxEditEventUrl: 'https://x/edit' });
    expect((await client.importableEvents.state('ev-1')).state).toBe('imported');
  });

  it('reads a numeric link id as text', async () => {
    answer = { status: 200, body: '{"ID": 12, "LiveloxImportEventUrl": "https://x/i"}' };
    expect(await client.importableEvents.create(importableEvent(courseFile()))).toMatchObject({
      id: '12',
      liveloxImportEventUrl: 'https://x/i',
    });
  });

  it.each([
    ['the mock shape', '{"errors": ["a"], "warnings": ["b"]}', { errors: ['a'], warnings: ['b'] }],
    [
      'PascalCase with message objects',
      '{"Errors": [{"Message": "a"}], "Warnings": []}',
      { errors: ['a'], warnings: [] },
    ],
    ['a bare list', '["a", "b"]', { errors: ['a', 'b'], warnings: [] }],
    ['an empty body', '', { errors: [], warnings: [] }],
    ['plain text', 'Map is missing', { errors: [], warnings: [], raw: 'Map is missing' }],
    ['an HTML page', '<html><p>oops</p></html>', { errors: [], warnings: [], raw: '<html><p>oops</p></html>' }],
    [
      'lists beside something else',
      '{"errors": ["a"], "status": "invalid"}',
      { errors: ['a'], warnings: [], raw: '{"errors": ["a"], "status": "invalid"}' },
    ],
    ['an unreadable list', '{"errors": [1, 2]}', { errors: [], warnings: [], raw: '{"errors": [1, 2]}' }],
    ['an ASP.NET errors map', '{"errors": {"Maps[0]": ["no file"]}}', { errors: ['Maps[0]: no file'], warnings: [] }],
    ['JSON null', 'null', { errors: [], warnings: [], raw: 'null' }],
  ])('reads a validation answer of %s without failing', async (_what, body, expected) => {
    answer = { status: 200, type: 'text/plain', body };
    expect(await client.importableEvents.validationErrors('ev-1')).toEqual(expected);
  });
});
