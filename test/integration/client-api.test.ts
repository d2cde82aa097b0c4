import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKey } from '../../src/auth/api-key.js';
import type { LiveloxClient } from '../../src/client.js';
import {
  AuthError,
  BadRequestError,
  InputError,
  NotFoundError,
  ScopeError,
  TimeoutError,
  ValidationError,
} from '../../src/errors.js';
import { writeGpx } from '../../src/gps/write.js';
import { parseCourseData } from '../../src/iof/read-course-data.js';
import { validateIofXml } from '../../src/iof/validate/validate.js';
import { contentRouteId } from '../../src/resources/routes.js';
import { findCountry } from '../../src/simulator/countries.js';
import type { Simulator } from '../../src/simulator/server.js';
import { clientFor, startHarness } from '../helpers/simulator.js';
import { routableEvents, runCourse, wander } from '../helpers/tracks.js';

let sim: Simulator;
let client: LiveloxClient;
beforeAll(async () => {
  sim = (await startHarness({ seed: 4, events: 400, importDelayMs: 150 })).sim;
  client = clientFor(sim);
});
afterAll(async () => {
  await client.close();
  await sim.close();
});

const requests = (endpoint: string) => sim.stats.count(endpoint);
const events = () => sim.state.dataset.events;

describe('client.events.search', () => {
  it('sends typed parameters in the contract form and returns parsed records', async () => {
    const list = await client.events.search({
      from: new Date('2024-05-01T00:00:00Z'),
      to: new Date('2024-06-01T00:00:00.000Z'),
      countryId: 'SWE',
      sorting: { by: 'participantcount', order: 'descending' },
    });
    const expected = events().filter(
      (e) => e.countryCode === 'SWE' && e.startMs < Date.parse('2024-06-01') && e.endMs > Date.parse('2024-05-01'),
    );
    expect(list.map((e) => e.id).sort()).toEqual(expected.map((e) => e.id).sort());
    const counts = list.map((e) => e.participantCount!);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    expect(list[0]!.classes?.[0]?.url).toContain(sim.info.viewerUrl);
  });

  it('sends circle and box groups and distance sorting', async () => {
    const e = events().find((x) => x.position)!;
    const near = await client.events.search({
      circle: { latitude: e.position!.latitude, longitude: e.position!.longitude, radius: 1 },
      sorting: { by: 'distance' },
    });
    expect(near.map((x) => x.id)).toContain(e.id);
    const box = await client.events.search({
      box: {
        south: e.position!.latitude - 0.01,
        north: e.position!.latitude + 0.01,
        west: e.position!.longitude - 0.01,
        east: e.position!.longitude + 0.01,
      },
    });
    expect(box.map((x) => x.id)).toContain(e.id);
  });

  it('refuses a search breaking the at-least-one rule locally, without sending anything', async () => {
    const before = requests('GET /events');
    const err = await client.events.search({ q: 'cup', countryId: 'SWE' }).catch((x: unknown) => x);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).issues[0]).toMatchObject({
      path: 'parameters',
      message: expect.stringMatching(/at least one of/),
    });
    expect(requests('GET /events')).toBe(before);
  });

  it('lists every problem of a bad search in one ValidationError', async () => {
    const err = (await client.events
      .search({
        circle: { latitude: 95, longitude: 18 } as never,
        paging: { index: 0, size: 5000 },
        sorting: { by: 'name' as never },
        from: 'yesterday',
      })
      .catch((x: unknown) => x)) as ValidationError;
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.issues.map((i) => i.path).sort()).toEqual(['from', 'latitude', 'paging', 'radius', 'sorting']);
  });

  it('turns a 400 from the service into a BadRequestError naming the parameter', async () => {
    const err = await client.events.search({ from: new Date('2024-01-01'), countryId: 'XXX' }).catch((x: unknown) => x);
    expect(err).toBeInstanceOf(BadRequestError);
    expect((err as BadRequestError).issues[0]).toMatchObject({ path: 'countryId' });
  });
});

describe('client.events.searchAll', () => {
  it('iterates every page and stops at the first short page', async () => {
    const from = new Date('2023-01-01T00:00:00Z');
    const to = new Date('2025-01-01T00:00:00Z');
    const all = await client.events.search({ from, to });
    const before = requests('GET /events');
    const seen: number[] = [];
    for await (const e of client.events.searchAll({ from, to }, { pageSize: 40 })) seen.push(e.id);
    expect(seen).toEqual(all.map((e) => e.id));
    expect(requests('GET /events') - before).toBe(Math.floor(all.length / 40) + 1);
  });
});

describe('client.events.get', () => {
  it('returns one event and serves repeats from the cache', async () => {
    const id = events()[3]!.id;
    const before = requests('GET /events/{eventId}');
    const a = await client.events.get(id);
    const b = await client.events.get(id);
    expect(a.id).toBe(id);
    expect(b).toEqual(a);
    expect(requests('GET /events/{eventId}') - before).toBe(1);
    await client.events.get(id, { fresh: true });
    expect(requests('GET /events/{eventId}') - before).toBe(2);
  });

  it('raises NotFoundError for an unknown id and ValidationError for a malformed one', async () => {
    await expect(client.events.get(1)).rejects.toBeInstanceOf(NotFoundError);
    await expect(client.events.get(-5)).rejects.toBeInstanceOf(ValidationError);
  });
});

describe('client.countries', () => {
  it('lists countries once and then from the cache', async () => {
    const fresh = clientFor(sim);
    const before = requests('GET /countries');
    expect((await fresh.countries.list()).length).toBeGreaterThanOrEqual(249);
    await fresh.countries.list();
    expect(requests('GET /countries') - before).toBe(1);
    await fresh.close();
  });

  it.each([['SWE'], ['swe'], ['SE'], ['Sweden'], ['  sweden '], [752], ['752']])('resolves %j to Sweden', async (q) => {
    expect((await client.countries.resolve(q)).code).toBe('SWE');
  });

  it('resolves names in another culture, internal ids and explicit forms', async () => {
    expect((await client.countries.resolve('Sverige', { cultureCode: 'sv-SE' })).code).toBe('SWE');
    expect((await client.countries.resolve('Schweiz', { cultureCode: 'sv-SE' })).code).toBe('CHE');
    const norway = findCountry('NOR')!;
    expect((await client.countries.resolve({ id: norway.id })).code).toBe('NOR');
    expect((await client.countries.resolve({ numeric: 578 })).code).toBe('NOR');
  });

  it.each([
    ['Aland Islands', undefined, 'ALA'],
    ['curacao', undefined, 'CUW'],
    ["Cote d'Ivoire", undefined, 'CIV'],
    // Norwegian and Danish names with letters Unicode does not decompose (ø, æ), typed without them and with them.
    ['Osterrike', 'nb-NO', 'AUT'],
    ['Faeroyene', 'nb-NO', 'FRO'],
    ['ØSTRIG', 'da-DK', 'AUT'],
    ['Faerøerne', 'da-DK', 'FRO'],
  ])('resolves %j (culture %s) to %s, folding special letters', async (name, cultureCode, code) => {
    const options = cultureCode === undefined ? {} : { cultureCode };
    expect((await client.countries.resolve(name, options)).code).toBe(code);
  });

  it('refuses a bare number that is an internal id of one country and the ISO code of another', async () => {
    // 4 is Afghanistan's ISO numeric code; internal id 4 belongs to another country here.
    expect(findCountry(4)!.code).not.toBe('AFG');
    const err = (await client.countries.resolve(4).catch((x: unknown) => x)) as ValidationError;
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.issues[0]).toMatchObject({ code: 'ambiguous' });
  });

  it('says which names come close when nothing matches', async () => {
    const err = (await client.countries.resolve('Swedn').catch((x: unknown) => x)) as ValidationError;
    expect(err.message).toMatch(/did you mean .*Sweden SWE/);
  });
});

describe('client.courses', () => {
  const published = () => events().find((e) => e.isPublished && e.hasValidMapAndCourses && e.courses)!;

  it('fetches IOF XML that validates and parses into the event courses', async () => {
    const e = published();
    const bytes = await client.courses.getIofXmlBytes({ eventId: e.id });
    const [verdict] = await validateIofXml([{ name: 'service', bytes }]);
    expect(verdict!.valid).toBe(true);
    const xml = await client.courses.getIofXml({ eventId: e.id, projectionEpsgCode: 3006, includeClasses: false });
    const parsed = parseCourseData(Buffer.from(xml));
    expect(parsed.races[0]!.courses.length).toBe(e.courses!.courses.length);
    expect(parsed.races[0]!.controls[0]!.position!.lat).toBeGreaterThan(1000);
  });

  it('raises ScopeError naming courses.read for a key without course access', async () => {
    const limited = clientFor(sim, { auth: apiKey(sim.info.limitedApiKey) });
    const err = (await limited.courses.getIofXml({ eventId: published().id }).catch((x: unknown) => x)) as ScopeError;
    expect(err).toBeInstanceOf(ScopeError);
    expect(err.scope).toBe('courses.read');
    expect(err.message).not.toContain(sim.info.limitedApiKey);
    await limited.close();
  });

  it('raises NotFoundError for an unknown event and ValidationError for a bad projection code', async () => {
    await expect(client.courses.getIofXml({ eventId: 1 })).rejects.toBeInstanceOf(NotFoundError);
    await expect(client.courses.getIofXml({ eventId: 1.5 })).rejects.toBeInstanceOf(ValidationError);
  });
});

describe('client.routes', () => {
  const wait = { initialDelayMs: 100, pollIntervalMs: 50, timeoutMs: 10_000 };

  it('imports a GPX file and waits until it is imported to the class run', async () => {
    const e = routableEvents(events())[0]!;
    const bytes = new TextEncoder().encode(writeGpx(runCourse(e, e.classes[0]!.id, e.startMs + 3600_000)));
    const { id, format } = await client.routes.import({ data: bytes, deviceModel: 'Forerunner' });
    expect(format).toBe('gpx');
    expect(id).toBe(contentRouteId(bytes));
    expect(id.length).toBeLessThanOrEqual(48);
    const record = await client.routes.waitForImport(id, wait);
    expect(record).toMatchObject({ status: 'imported', eventName: e.name });
    expect(record.viewerUrl).toContain(sim.info.viewerUrl);
  });

  it('gives the same file the same id, so importing it again overwrites', async () => {
    const bytes = new TextEncoder().encode(writeGpx(wander({ lat: 10, lng: 10 }, Date.parse('2024-01-01'))));
    const a = await client.routes.import({ data: bytes });
    const b = await client.routes.import({ data: bytes });
    expect(a.id).toBe(b.id);
    const stored = sim.routes().filter((r) => r.id === a.id);
    expect(stored).toHaveLength(1);
    expect(stored[0]!.postCount).toBe(2);
  });

  it('reads a file path, and returns a failed import as a record, not an exception', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lb-routes-'));
    const file = join(dir, 'nowhere.gpx');
    writeFileSync(file, writeGpx(wander({ lat: -40, lng: 100 }, Date.parse('2024-01-01'))));
    const { id } = await client.routes.import({ file, id: 'nowhere-1' });
    expect(id).toBe('nowhere-1');
    expect(await client.routes.waitForImport(id, wait)).toMatchObject({
      status: 'error',
      errorMessage: expect.stringMatching(/No event/),
    });
  });

  it('refuses files that are not GPS files before sending anything', async () => {
    const before = requests('POST /importableRoutes');
    await expect(client.routes.import({ data: new TextEncoder().encode('<CourseData/>') })).rejects.toMatchObject({
      reason: 'unknown_format',
    });
    await expect(client.routes.import({ data: new Uint8Array() })).rejects.toBeInstanceOf(InputError);
    await expect(client.routes.import({ file: '/no/such/file.gpx' })).rejects.toMatchObject({ reason: 'unreadable' });
    await expect(client.routes.import({ data: new Uint8Array([1]), id: 'x'.repeat(49) })).rejects.toBeInstanceOf(
      InputError,
    );
    expect(requests('POST /importableRoutes')).toBe(before);
  });

  it('refuses an id longer than 48 characters and a second source', async () => {
    const bytes = new TextEncoder().encode(writeGpx(wander({ lat: 1, lng: 1 }, 0)));
    const err = (await client.routes
      .import({ data: bytes, id: 'x'.repeat(49) })
      .catch((x: unknown) => x)) as ValidationError;
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.issues[0]!.path).toBe('id');
    await expect(client.routes.import({ data: bytes, file: 'a.gpx' })).rejects.toBeInstanceOf(ValidationError);
  });

  it('raises NotFoundError for an unknown id and TimeoutError when waiting too briefly', async () => {
    await expect(client.routes.status('never-posted')).rejects.toBeInstanceOf(NotFoundError);
    const slow = (await startHarness({ events: 5, importDelayMs: 60_000 })).sim;
    const c = clientFor(slow);
    try {
      const { id } = await c.routes.import({ data: new TextEncoder().encode(writeGpx(wander({ lat: 0, lng: 0 }, 0))) });
      await expect(
        c.routes.waitForImport(id, { initialDelayMs: 20, pollIntervalMs: 20, timeoutMs: 200 }),
      ).rejects.toBeInstanceOf(TimeoutError);
    } finally {
      await c.close();
      await slow.close();
    }
  });
});

describe('errors', () => {
  it('raises AuthError for a wrong key, naming the request but never the key', async () => {
    const secret = 'wrong-key-0123456789abcdef';
    const bad = clientFor(sim, { auth: apiKey(secret) });
    const err = (await bad.countries.list().catch((x: unknown) => x)) as AuthError;
    expect(err).toBeInstanceOf(AuthError);
    expect(err.status).toBe(403);
    expect(err.request).toEqual({ method: 'GET', path: '/countries' });
    for (const text of [err.message, String(err), JSON.stringify(err), err.body]) expect(text).not.toContain(secret);
    await bad.close();
  });

  it('refuses an empty API key at construction', () => {
    expect(() => apiKey('')).toThrow(ValidationError);
    expect(() => apiKey(undefined)).toThrow(/give an API key/);
    expect(() => apiKey(undefined)).toThrow(
      expect.objectContaining({
        issues: [expect.objectContaining({ hint: expect.objectContaining({ code: 'api_key' }) })],
      }),
    );
  });
});
