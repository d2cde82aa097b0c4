/**
 * The simulator's request journal over real HTTP: what each entry says of a request and its answer, the ring's cap,
 * the filters, the HAR export (checked against the HAR 1.2 JSON Schemas of the har-schema package with Ajv), the
 * JSON-lines file, and that no secret reaches any of them.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { connect } from 'node:net';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { Ajv } from 'ajv';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { LiveloxClient } from '../../src/client.js';
import type { SimJournalEntry, SimJournalFileStatus } from '../../src/simulator/journal.js';
import type { Simulator } from '../../src/simulator/server.js';
import { signedInClient } from '../helpers/oauth-login.js';
import { raw } from '../helpers/raw-http.js';
import { http, simulatorPerTest } from '../helpers/simulator.js';
import { fillDisk, mountSmallDisk, unmountSmallDisk } from '../helpers/small-disk.js';

const open = simulatorPerTest();
const dirs: string[] = [];
/** A real small disk for the journal file to fill (root only; skipped elsewhere with the reason). */
const smallDisk = mkdtempSync(join(tmpdir(), 'journal-disk-'));
const SMALL_DISK_SKIP = mountSmallDisk(smallDisk, '256k');
afterAll(() => {
  if (SMALL_DISK_SKIP === undefined) unmountSmallDisk(smallDisk);
  rmSync(smallDisk, { recursive: true, force: true });
});
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

async function journal(
  sim: Simulator,
  query = '',
): Promise<{ entries: SimJournalEntry[]; cap: number; dropped: number; file?: SimJournalFileStatus }> {
  const res = await http('GET', `${sim.info.controlUrl}/journal${query}`);
  expect(res.status).toBe(200);
  return res.json();
}

/** Signs in, calls the API and refreshes, so that every kind of secret has travelled; returns them all. */
async function oauthLogin(sim: Simulator): Promise<{ client: LiveloxClient; secrets: string[] }> {
  const { client, strategy, store, secrets } = await signedInClient(sim);
  await client.countries.list();
  // A refresh, so that the refresh token travels in a request body too.
  await strategy.refresh(client);
  const after = await store.load();
  if (after) secrets.push(after.accessToken, after.refreshToken!);
  return { client, secrets };
}

describe('journal entries', () => {
  it('record method, path, query, status, timing, sizes and who called, never the API key', async () => {
    const { sim, client } = await open({ events: 20 });
    await client.countries.list();
    await http('GET', `${sim.info.baseUrl}/events?countryCode=SE&from=2026-01-01`, {
      headers: { ApiKey: 'wrong-key-123' },
    });
    const { entries } = await journal(sim);
    const [countries, refused] = entries.slice(-2);
    expect(countries).toMatchObject({
      method: 'GET',
      path: '/api/countries',
      status: 200,
      auth: { kind: 'apiKey', subject: 'app:sim-app' },
      requestBytes: 0,
      responseContentType: 'application/json; charset=utf-8',
    });
    expect(countries!.responseBytes).toBeGreaterThan(10);
    expect(countries!.durationMs).toBeGreaterThanOrEqual(0);
    expect(Date.parse(countries!.startedAt)).not.toBeNaN();
    expect(countries!.requestHeaders.apikey).toBe('[redacted]');
    expect(refused).toMatchObject({
      path: '/api/events',
      query: { countryCode: 'SE', from: '2026-01-01' },
      status: 403,
      auth: { kind: 'apiKey', subject: 'unknown' },
    });
    expect(refused!.seq).toBe(countries!.seq + 1);
    expect(JSON.stringify(entries)).not.toContain(sim.info.apiKey);
    expect(JSON.stringify(entries)).not.toContain('wrong-key-123');
  });

  it('abbreviate route data and cap bodies', async () => {
    const { sim } = await open({ events: 5, importDelayMs: 0 });
    const data = Buffer.from('x'.repeat(30_000)).toString('base64');
    await http('POST', `${sim.info.baseUrl}/importableRoutes`, {
      headers: { ApiKey: sim.info.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ externalId: 'r1', fileName: 'a.gpx', data, person: { name: 'A' } }),
    });
    const [entry] = (await journal(sim, '?path=/api/importableRoutes')).entries;
    expect(entry!.requestBytes).toBeGreaterThan(40_000);
    expect(entry!.requestBody).toContain(`[${data.length} characters]`);
    expect(entry!.requestBody).not.toContain(data.slice(0, 100));
    expect(entry!.requestBody!.length).toBeLessThan(4200);
  });

  it('name an OAuth caller by user and never hold a code, verifier or token', async () => {
    const { sim } = await open({ events: 5 });
    const { client, secrets } = await oauthLogin(sim);
    await client.close();
    const { entries } = await journal(sim);
    expect(entries.find((e) => e.path === '/api/countries')?.auth).toEqual({
      kind: 'bearer',
      subject: 'user:sim-user-1',
    });
    const token = entries.filter((e) => e.path === '/auth/oauth2/token');
    expect(token).toHaveLength(2);
    expect(token[0]!.requestBody).toContain('code_verifier=[redacted]');
    expect(token[0]!.responseBody).toContain('"access_token":"[redacted]"');
    const text = JSON.stringify(entries);
    for (const s of secrets) expect(text).not.toContain(s);
    const har = (await http('GET', `${sim.info.controlUrl}/journal.har`)).text;
    for (const s of secrets) expect(har).not.toContain(s);
  });
});

describe('secrets in bodies that are not what they claim', () => {
  it('are redacted wherever they stand: a form sent as JSON, JSON broken or with junk after it, a token in plain text', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'journal-'));
    dirs.push(dir);
    const { sim } = await open({ events: 5, journalFile: join(dir, 'j.jsonl') });
    const secrets = ['CODE7a8b9c0d1e2f', 'VERIFIER3g4h5i6j7k8l', 'REFRESH9m0n1o2p3q4r', 'PASSWORD5s6t7u8v'];
    const [code, verifier, refresh, password] = secrets;
    const sends: Array<[string, string, string]> = [
      [
        '/auth/oauth2/token',
        'application/json',
        `grant_type=authorization_code&code=${code}&code_verifier=${verifier}`,
      ],
      ['/auth/oauth2/token', 'text/plain', `grant_type=refresh_token\nrefresh_token=${refresh}`],
      ['/auth/oauth2/token', 'application/json', `{refresh_token: "${refresh}", "x": undefined}`],
      ['/auth/oauth2/token', 'application/json', `{"code_verifier":"${verifier}"} trailing`],
      ['/auth/oauth2/token', 'application/x-www-form-urlencoded', `{"code":"${code}","password":"${password}"}`],
      ['/api/importableRoutes', 'application/json', `{'password': '${password}', "refreshToken" : "${refresh}"`],
    ];
    const origin = new URL(sim.info.baseUrl).origin;
    for (const [path, type, body] of sends) {
      await http('POST', `${origin}${path}`, { headers: { 'content-type': type, ApiKey: sim.info.apiKey }, body });
    }
    const { entries } = await journal(sim);
    expect(entries.filter((e) => e.method === 'POST')).toHaveLength(sends.length);
    const har = await http('GET', `${sim.info.controlUrl}/journal.har`);
    for (const text of [JSON.stringify(entries), har.text, readFileSync(join(dir, 'j.jsonl'), 'utf8')]) {
      for (const secret of secrets) expect(text).not.toContain(secret);
    }
    // What is not secret stays readable.
    expect(entries[0]!.requestBody).toContain('grant_type=authorization_code');
  });

  it('cuts any key, token or code the simulator issued wherever a client put it: a path, another parameter, a field', async () => {
    const { sim } = await open({ events: 5 });
    const { client, secrets } = await oauthLogin(sim);
    await client.close();
    const [, code, access] = secrets as [string, string, string];
    const origin = new URL(sim.info.baseUrl).origin;
    const key = { ApiKey: sim.info.apiKey };
    await http('GET', `${sim.info.baseUrl}/events/${access}`, { headers: key });
    await http('GET', `${sim.info.baseUrl}/countries?x=${access}&y=${sim.info.limitedApiKey}`, { headers: key });
    await http('POST', `${origin}/auth/oauth2/token`, {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ Authorization: `Bearer ${access}`, bearer: access }),
    });
    await http(
      'GET',
      `${sim.info.authUrl}/oauth2/authorize?redirect_uri=${encodeURIComponent(`http://x.example/cb?code=${code}`)}`,
    );
    const { entries } = await journal(sim);
    const text = JSON.stringify(entries);
    for (const secret of [...secrets, sim.info.limitedApiKey]) expect(text).not.toContain(secret);
    expect(entries.some((e) => e.path === '/api/events/[redacted]')).toBe(true);
  });

  it('cuts secrets under names written other ways, in parameter names, and glued to other letters', async () => {
    const { sim } = await open({ events: 5 });
    const { client, secrets } = await oauthLogin(sim);
    await client.close();
    const [verifier, , access, refresh] = secrets as [string, string, string, string];
    const origin = new URL(sim.info.baseUrl).origin;
    const send = (type: string, body: string) =>
      http('POST', `${origin}/auth/oauth2/token`, { headers: { 'content-type': type }, body });
    await send('application/json', `{"\\u0070assword": "hunter2-secret", "pkce_verifier": "${verifier}"} junk`);
    await send('text/plain', `code%5Fverifier=${verifier}&X-Api-Key: ${sim.info.limitedApiKey}`);
    await send('text/plain', `Authorization: Bearer ${refresh}\nuser_password=hunter3-secret`);
    await http('GET', `${sim.info.baseUrl}/countries?${access}&refresh_token%3D${refresh}=1&q=x${access}y`, {
      headers: { ApiKey: sim.info.apiKey },
    });
    const { entries } = await journal(sim);
    const text = JSON.stringify(entries);
    for (const secret of [...secrets, sim.info.limitedApiKey, 'hunter2-secret', 'hunter3-secret']) {
      expect(text).not.toContain(secret);
    }
  });

  it('shows no part of a token that a long string starts with or that the cap cuts', async () => {
    const { sim } = await open({ events: 5 });
    const { client, secrets } = await oauthLogin(sim);
    await client.close();
    const access = secrets[2]!;
    const origin = new URL(sim.info.baseUrl).origin;
    const post = (type: string, body: string) =>
      http('POST', `${origin}/api/importableRoutes`, {
        headers: { 'content-type': type, ApiKey: sim.info.apiKey },
        body,
      });
    await post('application/json', JSON.stringify({ note: `${access}${'a'.repeat(300)}` }));
    // A secret the simulator never issued, which the cap cuts in two (the request's own key, redacted before it,
    // shortens the text to `key=[redacted] `: 15 characters).
    const unknown = 'Zq7' + 'Kx9_'.repeat(10);
    await post('text/plain', `key=${sim.info.apiKey} ${'q'.repeat(4096 - 15 - 1 - 20)} ${unknown}`);
    // A token the window read for redaction cuts, before a secret value's redaction shortens what precedes it.
    await post('text/plain', `token=${'q'.repeat(4570)} ${access}`);
    const { entries } = await journal(sim);
    const bodies = entries.map((e) => e.requestBody ?? '');
    expect(bodies.at(-1)).toMatch(/^token=\[redacted\] /);
    for (let n = 8; n <= access.length; n++) expect(bodies.join('\n')).not.toContain(access.slice(0, n));
    expect(bodies.at(-2)).toMatch(/^key=\[redacted\] q+ \.\.\. \[cut at 4096 characters/);
    expect(bodies.at(-2)).not.toContain('Zq7Kx9');
  });

  it('keeps the codes of countries in API answers: a code is a secret only where OAuth carries one', async () => {
    const { sim } = await open({ events: 5 });
    await http('GET', `${sim.info.baseUrl}/countries`, { headers: { ApiKey: sim.info.apiKey } });
    const { entries } = await journal(sim);
    expect(entries[0]!.responseBody).toMatch(/"code":"[A-Z]{3}"/);
    expect(entries[0]!.responseBody).not.toContain('[redacted]');
  });
});

describe('the ring and its filters', () => {
  it('keeps the newest entries up to the cap and counts those dropped', async () => {
    const { sim, client } = await open({ events: 5, journalEntries: 3 }, { cache: false });
    for (let i = 0; i < 5; i++) await client.countries.list().catch(() => undefined);
    await http('GET', `${sim.info.viewerUrl}/nothing-here`);
    const j = await journal(sim);
    expect(j.cap).toBe(3);
    expect(j.entries.map((e) => e.seq)).toEqual([4, 5, 6]);
    expect(j.dropped).toBe(3);
  });

  it('filters by since (a seq or a time), path prefix and status or class', async () => {
    const { sim } = await open({ events: 5 });
    const key = { ApiKey: sim.info.apiKey };
    await http('GET', `${sim.info.baseUrl}/countries`, { headers: key });
    const between = new Date();
    await new Promise((r) => setTimeout(r, 5));
    await http('GET', `${sim.info.baseUrl}/events?countryCode=ZZZ`, { headers: key });
    await http('GET', `${sim.info.baseUrl}/countries`, { headers: {} });
    await http('GET', `${sim.info.viewerUrl}/`);
    const all = (await journal(sim)).entries;
    expect(all).toHaveLength(4);
    expect((await journal(sim, '?since=1')).entries.map((e) => e.seq)).toEqual([2, 3, 4]);
    expect((await journal(sim, `?since=${encodeURIComponent(between.toISOString())}`)).entries).toHaveLength(3);
    expect((await journal(sim, '?path=/api/countries')).entries.map((e) => e.seq)).toEqual([1, 3]);
    expect((await journal(sim, '?status=403')).entries.map((e) => e.seq)).toEqual([3]);
    const failed = all.filter((e) => typeof e.status === 'number' && e.status >= 400 && e.status < 500);
    expect(failed.length).toBeGreaterThanOrEqual(2);
    expect((await journal(sim, '?status=4xx')).entries).toEqual(failed);
  });

  it('answers a bad filter 400 naming it, and clears on DELETE', async () => {
    const { sim } = await open({ events: 5 });
    const bad = await http('GET', `${sim.info.controlUrl}/journal?since=yesterday&status=4&color=red`);
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.json().errors).sort()).toEqual(['color', 'since', 'status']);
    await http('GET', `${sim.info.baseUrl}/countries`, { headers: { ApiKey: sim.info.apiKey } });
    const cleared = await http('DELETE', `${sim.info.controlUrl}/journal`);
    expect(cleared.json()).toEqual({ entries: [], dropped: 1 });
    expect((await journal(sim)).entries).toEqual([]);
  });
});

describe('HAR export', () => {
  it('is a valid HAR 1.2 log (har-schema under Ajv) with whole URLs and redacted headers', async () => {
    const { sim, client } = await open({ events: 5, importDelayMs: 0 });
    await client.countries.list();
    await http('GET', `${sim.info.baseUrl}/events?countryCode=SE`, { headers: { ApiKey: sim.info.apiKey } });
    await http('GET', `${sim.info.baseUrl}/countries`, {
      headers: { ApiKey: sim.info.apiKey, 'x-simulator-scenario': 'reset' },
    }).catch(() => undefined);
    const res = await http('GET', `${sim.info.controlUrl}/journal.har`);
    expect(res.status).toBe(200);
    const har = res.json();
    const require = createRequire(import.meta.url);
    const schemas = require('har-schema') as Record<string, { $id: string }>;
    const ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });
    ajv.addMetaSchema(require('ajv/dist/refs/json-schema-draft-06.json'));
    for (const schema of Object.values(schemas)) ajv.addSchema(schema);
    const validate = ajv.getSchema('har.json#')!;
    expect(validate(har), JSON.stringify(validate.errors)).toBe(true);
    // The check is real: a log without its version fails it.
    expect(validate({ log: { ...har.log, version: undefined } })).toBe(false);
    const entries = har.log.entries as Array<any>;
    expect(har.log.version).toBe('1.2');
    expect(entries[1].request.url).toBe(`${sim.info.baseUrl}/events?countryCode=SE`);
    expect(entries[1].request.queryString).toEqual([{ name: 'countryCode', value: 'SE' }]);
    expect(entries[1].request.headers).toContainEqual({ name: 'apikey', value: '[redacted]' });
    expect(entries.at(-1)).toMatchObject({ response: { status: 0, _error: 'reset' }, _scenario: 'reset' });
    expect(res.text).not.toContain(sim.info.apiKey);
  });
});

describe('journal file', () => {
  it('appends one JSON line per request, mode 0600, without the API key, tokens or the PKCE verifier', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'journal-'));
    dirs.push(dir);
    const file = join(dir, 'journal.jsonl');
    const { sim } = await open({ events: 5, journalFile: file, journalEntries: 1 });
    await http('GET', `${sim.info.baseUrl}/countries`, { headers: { ApiKey: sim.info.apiKey } });
    const { client, secrets } = await oauthLogin(sim);
    await client.close();
    await sim.close();
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    // Every request, though memory kept one.
    expect(lines.length).toBeGreaterThanOrEqual(5);
    const parsed = lines.map((l) => JSON.parse(l) as SimJournalEntry);
    expect(parsed.map((e) => e.seq)).toEqual(parsed.map((_, i) => i + 1));
    const text = readFileSync(file, 'utf8');
    for (const s of [sim.info.apiKey, ...secrets]) expect(text).not.toContain(s);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it.skipIf(SMALL_DISK_SKIP !== undefined)(
    `keeps answering and journalling in memory when the file's disk fills, and says what stopped the file${SMALL_DISK_SKIP === undefined ? '' : ` (skipped: ${SMALL_DISK_SKIP})`}`,
    async () => {
      const file = join(smallDisk, 'journal.jsonl');
      const { sim } = await open({ events: 5, journalFile: file });
      const filler = fillDisk(smallDisk, 16 * 1024, 'filler');
      try {
        for (let i = 0; i < 40; i++) {
          const res = await http('GET', `${sim.info.baseUrl}/countries`, { headers: { ApiKey: sim.info.apiKey } });
          expect(res.status).toBe(200);
        }
        // The write's failure arrives after the answer: wait for the stream to report it.
        await expect.poll(async () => (await journal(sim)).file?.stoppedBy, { timeout: 5000 }).toBe('ENOSPC');
        const read = await journal(sim);
        expect(read.entries).toHaveLength(40);
        expect(read.file).toMatchObject({ path: file });
        expect(read.file!.lines).toBeLessThan(40);
        // What reached the disk is whole lines, the one cut by the full disk taken back, and in order.
        const text = readFileSync(file, 'utf8');
        expect(text.endsWith('\n')).toBe(true);
        const whole = text
          .trimEnd()
          .split('\n')
          .map((l) => JSON.parse(l) as SimJournalEntry);
        expect(whole.length).toBe(read.file!.lines);
        expect(whole.map((e) => e.seq)).toEqual(whole.map((_, i) => i + 1));
      } finally {
        rmSync(filler);
      }
    },
  );

  it('opens the file again at its path when it is removed or replaced (a log rotated), and loses no line', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'journal-'));
    dirs.push(dir);
    const file = join(dir, 'journal.jsonl');
    const { sim } = await open({ events: 5, journalFile: file });
    const get = () => http('GET', `${sim.info.baseUrl}/countries`, { headers: { ApiKey: sim.info.apiKey } });
    await get();
    await get();
    renameSync(file, `${file}.1`);
    await get();
    await get();
    await get();
    const read = await journal(sim);
    expect(read.file).toMatchObject({ path: file, lines: 5, reopened: 1 });
    expect(read.file!.stoppedBy).toBeUndefined();
    const seqsIn = (f: string) =>
      readFileSync(f, 'utf8')
        .trimEnd()
        .split('\n')
        .map((l) => (JSON.parse(l) as SimJournalEntry).seq);
    expect(seqsIn(`${file}.1`)).toEqual([1, 2]);
    expect(seqsIn(file)).toEqual([3, 4, 5]);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('refuses a named pipe as the journal file at once, instead of waiting for a reader', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'journal-'));
    dirs.push(dir);
    const fifo = join(dir, 'journal.fifo');
    execFileSync('mkfifo', [fifo]);
    await expect(open({ journalFile: fifo })).rejects.toThrow(/journalFile.*cannot be opened for appending/);
  });

  it('journals a target refused before it was read with its query redacted, never as sent', async () => {
    const { sim } = await open({ events: 5 });
    const port = Number(new URL(sim.info.baseUrl).port);
    const secret = 'SECRETREFRESH1234567890';
    const target = `/api/countries?refresh_token=${secret}&code=SECRETCODE1234567&x=1`;
    const answer = await raw(port, `GET ${target} HTTP/1.1\r\nHost: a b\r\nConnection: close\r\n\r\n`);
    expect(answer.status).toBe(400);
    const { entries } = await journal(sim);
    const entry = entries.at(-1)!;
    expect(entry.path).toBe('/api/countries');
    expect(entry.query).toEqual({ refresh_token: '[redacted]', code: '[redacted]', x: '1' });
    expect(JSON.stringify(entries)).not.toContain('SECRET');
  });

  it('refuses a journal file that cannot be opened when the simulator starts', async () => {
    await expect(open({ journalFile: '/nonexistent-dir/j.jsonl' })).rejects.toThrow(/journalFile/);
  });
});

describe('journal filters, their edges', () => {
  it('answers a parameter given twice 400 naming it, rather than reading only the first', async () => {
    const { sim } = await open({ events: 5 });
    const twice = await http('GET', `${sim.info.controlUrl}/journal?status=429&status=abc&path=/api&path=/auth`);
    expect(twice.status).toBe(400);
    expect(twice.json().errors).toEqual({
      status: ['is given 2 times; give it once'],
      path: ['is given 2 times; give it once'],
    });
    const har = await http('GET', `${sim.info.controlUrl}/journal.har?since=1&since=2`);
    expect(har.status).toBe(400);
    expect(Object.keys(har.json().errors)).toEqual(['since']);
  });

  it('refuses a since that is not on the calendar (2026-02-30), and takes a real date', async () => {
    const { sim } = await open({ events: 5 });
    for (const since of ['2026-02-30', '2026-02-29T00:00:00Z', '2026-04-31T10:00:00Z']) {
      const bad = await http('GET', `${sim.info.controlUrl}/journal?since=${encodeURIComponent(since)}`);
      expect(bad.status, since).toBe(400);
      expect(bad.json().errors.since).toEqual([`'${since}' is neither an entry's seq nor an ISO 8601 time`]);
    }
    await http('GET', `${sim.info.baseUrl}/countries`, { headers: { ApiKey: sim.info.apiKey } });
    expect((await journal(sim, '?since=2024-02-29')).entries).toHaveLength(1);
    expect((await journal(sim, '?since=2999-12-31T23:59:59Z')).entries).toHaveLength(0);
  });

  it('selects the requests that got no answer by status=reset, stall or aborted', async () => {
    const { sim } = await open({ events: 5 });
    const key = { ApiKey: sim.info.apiKey };
    await http('GET', `${sim.info.baseUrl}/countries`, { headers: key });
    await expect(
      http('GET', `${sim.info.baseUrl}/countries`, { headers: { ...key, 'X-Simulator-Scenario': 'reset' } }),
    ).rejects.toThrow();
    await expect(
      http('GET', `${sim.info.baseUrl}/countries`, { headers: { ...key, 'X-Simulator-Scenario': 'stall=10' } }),
    ).rejects.toThrow();
    // A client gone before its body was sent: the request never reached an answer.
    const { port, hostname } = new URL(sim.info.baseUrl);
    await new Promise<void>((resolve, reject) => {
      const socket = connect(Number(port), hostname, () => {
        const head = [`POST /api/importableRoutes HTTP/1.1`, `Host: ${hostname}:${port}`, `ApiKey: ${sim.info.apiKey}`];
        socket.write(`${head.join('\r\n')}\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\nab`);
        setTimeout(() => socket.destroy(), 50);
      });
      socket.on('close', () => resolve());
      socket.on('error', reject);
    });
    await expect.poll(async () => (await journal(sim)).entries.length).toBe(4);
    const seqs = async (status: string) => (await journal(sim, `?status=${status}`)).entries.map((e) => e.status);
    expect(await seqs('reset')).toEqual(['reset']);
    expect(await seqs('stall')).toEqual(['stall']);
    expect(await seqs('aborted')).toEqual(['aborted']);
    expect(await seqs('2xx')).toEqual([200]);
    const bad = await http('GET', `${sim.info.controlUrl}/journal?status=dropped`);
    expect(bad.json().errors.status).toEqual([
      "'dropped' is neither a status (429), a class (4xx) nor reset, stall, aborted",
    ]);
  });
});
