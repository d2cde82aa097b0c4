import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { distanceM } from '../../src/geo/distance.js';
import type { SimEvent } from '../../src/simulator/model.js';
import { eventListSchema, eventSchema } from '../../src/resources/events.js';
import { findCountry } from '../../src/simulator/countries.js';
import { makeDataset, makeEvent } from '../helpers/dataset.js';
import { http, startHarness, type SimHarness } from '../helpers/simulator.js';

const events = [
  makeEvent({
    id: 1001,
    name: 'Göteborgs 2-dagars, etapp 1',
    start: '2025-07-05T07:00:00Z',
    end: '2025-07-05T13:00:00Z',
    organisers: [{ name: 'IFK Göteborg' }],
    position: { latitude: 57.7, longitude: 11.97 },
    participantCount: 2000,
    modifiedMs: Date.parse('2025-07-10T00:00:00Z'),
  }),
  makeEvent({
    id: 1002,
    name: 'Göteborgs 2-dagars, etapp 2',
    start: '2025-07-06T07:00:00Z',
    end: '2025-07-06T13:00:00Z',
    organisers: [{ name: 'IFK Göteborg' }],
    position: { latitude: 57.72, longitude: 11.95 },
    participantCount: 1900,
    modifiedMs: Date.parse('2025-07-06T20:00:00Z'),
  }),
  makeEvent({
    id: 1003,
    name: 'Nordmarkstreffen',
    start: '2025-07-06T08:00:00Z',
    end: '2025-07-06T12:00:00Z',
    countryCode: 'NOR',
    organisers: [{ name: 'Fossum IF' }],
    position: { latitude: 59.98, longitude: 10.68 },
    participantCount: 500,
    isSearchable: false,
    modifiedMs: Date.parse('2025-07-06T12:00:00Z'),
  }),
  makeEvent({
    id: 1004,
    name: 'Harvester Relays',
    start: '2025-07-05T20:00:00Z',
    end: '2025-07-06T06:00:00Z',
    countryCode: 'GBR',
    organisers: [{ name: 'South Yorkshire Orienteers' }],
    position: { latitude: 53.3, longitude: -1.6 },
    participantCount: 800,
    isPublished: false,
  }),
  makeEvent({
    id: 1005,
    name: 'Instant',
    start: '2025-07-07T00:00:00Z',
    end: '2025-07-07T00:00:00Z',
    participantCount: 1,
    hasValidMapAndCourses: false,
    isSearchable: false,
  }),
  makeEvent({
    id: 1006,
    name: 'Aleutian Cup West',
    start: '2025-08-01T20:00:00Z',
    end: '2025-08-02T02:00:00Z',
    countryCode: 'USA',
    position: { latitude: 52.0, longitude: 179.5 },
    participantCount: 20,
  }),
  makeEvent({
    id: 1007,
    name: 'Aleutian Cup East',
    start: '2025-08-02T20:00:00Z',
    end: '2025-08-03T02:00:00Z',
    countryCode: 'USA',
    position: { latitude: 52.0, longitude: -179.6 },
    participantCount: 30,
  }),
];
// The instant event has no position: geo searches must never return it.
delete (events[4] as { position?: unknown }).position;

const toLatLng = (e: SimEvent) => ({ lat: e.position!.latitude, lng: e.position!.longitude });

let h: SimHarness;
beforeAll(async () => {
  h = await startHarness({ dataset: makeDataset(events) });
});
afterAll(() => h.sim.close());

const ALL = '2020-01-01T00:00:00Z';
async function ids(query: Record<string, string>): Promise<number[]> {
  const res = await h.events(query);
  expect(res.status, res.text).toBe(200);
  return (res.json() as Array<{ id: number }>).map((e) => e.id);
}
async function errorsOf(query: Record<string, string>): Promise<Record<string, string[]>> {
  const res = await h.events(query);
  expect(res.status, res.text).toBe(400);
  const body = res.json();
  expect(body.title).toBe('One or more validation errors occurred.');
  expect(typeof body.message).toBe('string');
  return body.errors as Record<string, string[]>;
}

describe('GET /events: the at-least-one rule and formats', () => {
  it('answers 400 naming the rule when no time, geo or paging parameter is given', async () => {
    expect(Object.keys(await errorsOf({}))).toEqual(['parameters']);
    const errors = await errorsOf({ q: 'Göteborg', countryId: 'SWE' });
    expect(errors.parameters![0]).toMatch(/at least one of from, to, modifiedSince/);
  });

  it('accepts each member of the at-least-one list on its own', async () => {
    expect((await ids({ from: ALL })).length).toBe(7);
    expect((await ids({ to: '2030-01-01T00:00:00Z' })).length).toBe(7);
    expect((await ids({ modifiedSince: ALL })).length).toBe(7);
    expect(await ids({ latitude: '57.7', longitude: '11.97', radius: '100' })).toEqual([1001]);
    expect(await ids({ south: '59', north: '61', west: '10', east: '11' })).toEqual([1003]);
    expect((await ids({ paging: '0:100' })).length).toBe(7);
  });

  it.each([
    ['from', '2025-07-06'],
    ['from', '2025-07-06T00:00:00+02:00'],
    ['to', '2025-02-30T00:00:00Z'],
    ['modifiedSince', '2025-07-06T00:00:00.000Z'],
    ['to', '2025-07-06 00:00:00Z'],
  ])('answers 400 naming %s for the datetime %s', async (name, value) => {
    const errors = await errorsOf({ [name]: value });
    expect(errors[name]![0]).toContain('yyyy-mm-ddThh:mm:ssZ');
  });

  it('refuses unknown and repeated parameters by name', async () => {
    expect(Object.keys(await errorsOf({ from: ALL, pageSize: '10' }))).toEqual(['pageSize']);
    const res = await h.api('/events?from=2025-01-01T00:00:00Z&from=2025-02-01T00:00:00Z');
    expect(res.status).toBe(400);
    expect(res.json().errors.from[0]).toMatch(/more than once/);
  });

  it('matches parameter names case-insensitively, as the service framework does', async () => {
    expect((await ids({ FROM: ALL, onlypublished: 'TRUE' })).length).toBe(6);
  });

  it('refuses a to that is not later than from', async () => {
    expect((await errorsOf({ from: '2025-07-06T00:00:00Z', to: '2025-07-06T00:00:00Z' })).to).toBeDefined();
  });
});

describe('GET /events: time interval [from, to)', () => {
  it('returns the events whose interval overlaps [from, to), night events crossing midnight included', async () => {
    expect(await ids({ from: '2025-07-06T00:00:00Z', to: '2025-07-07T00:00:00Z' })).toEqual([1004, 1002, 1003]);
  });

  it('excludes an event starting exactly at to and one ending exactly at from', async () => {
    expect(await ids({ from: '2025-07-05T00:00:00Z', to: '2025-07-05T07:00:00Z' })).toEqual([]);
    expect(await ids({ from: '2025-07-05T13:00:00Z', to: '2025-07-05T19:00:00Z' })).toEqual([]);
  });

  it('includes a zero-length event whose instant equals from', async () => {
    expect(await ids({ from: '2025-07-07T00:00:00Z', to: '2025-07-08T00:00:00Z' })).toEqual([1005]);
  });

  it('treats from alone and to alone as open-ended', async () => {
    expect(await ids({ from: '2025-08-01T00:00:00Z' })).toEqual([1006, 1007]);
    expect(await ids({ to: '2025-07-05T20:00:01Z' })).toEqual([1001, 1004]);
  });
});

describe('GET /events: q, modifiedSince, country and flags', () => {
  it('matches q case-insensitively on names (with accents) and on organiser names', async () => {
    expect(await ids({ from: ALL, q: 'GÖTEBORGS' })).toEqual([1001, 1002]);
    expect(await ids({ from: ALL, q: 'yorkshire' })).toEqual([1004]);
    expect(await ids({ from: ALL, q: 'no such event' })).toEqual([]);
  });

  it('returns only events modified strictly later than modifiedSince', async () => {
    expect((await ids({ modifiedSince: '2025-07-06T12:00:00Z' })).sort()).toEqual([1001, 1002, 1006, 1007]);
  });

  it('filters by countryId given as alpha-3 in any case or as the internal id', async () => {
    const norway = findCountry('NOR')!;
    expect(norway.id).not.toBe(578);
    expect(await ids({ from: ALL, countryId: 'NOR' })).toEqual([1003]);
    expect(await ids({ from: ALL, countryId: 'nor' })).toEqual([1003]);
    expect(await ids({ from: ALL, countryId: String(norway.id) })).toEqual([1003]);
  });

  it('answers 400 for a countryId that names no country or is malformed', async () => {
    expect((await errorsOf({ from: ALL, countryId: 'XXX' })).countryId![0]).toMatch(/no country/);
    expect((await errorsOf({ from: ALL, countryId: 'SE' })).countryId).toBeDefined();
    expect((await errorsOf({ from: ALL, countryId: '99999' })).countryId).toBeDefined();
  });

  it('applies onlySearchable, onlyPublished and onlyHavingValidMapAndCourses', async () => {
    expect(await ids({ from: ALL, onlySearchable: 'true' })).not.toContain(1003);
    expect(await ids({ from: ALL, onlySearchable: 'true' })).not.toContain(1005);
    expect(await ids({ from: ALL, onlyPublished: 'true' })).not.toContain(1004);
    expect(await ids({ from: ALL, onlyHavingValidMapAndCourses: 'true' })).toEqual([
      1001, 1004, 1002, 1003, 1006, 1007,
    ]);
    expect((await ids({ from: ALL, onlySearchable: 'false' })).length).toBe(7);
    expect((await errorsOf({ from: ALL, onlyPublished: 'yes' })).onlyPublished![0]).toMatch(/not a boolean/);
  });

  it('includes classes (with viewer urls) and properties by default and leaves them out when asked', async () => {
    const full = (await h.events({ from: ALL })).json();
    expect(full[0].classes[0]).toMatchObject({
      id: expect.any(Number),
      name: 'H21',
      url: expect.stringContaining(h.sim.info.viewerUrl),
    });
    expect(full[0].properties).toEqual([{ key: 'discipline', value: 'Long' }]);
    const bare = (await h.events({ from: ALL, includeClasses: 'false', includeProperties: 'false' })).json();
    expect(bare[0]).not.toHaveProperty('classes');
    expect(bare[0]).not.toHaveProperty('properties');
    // Observed, not published: includeUrls=false drops the class urls.
    const noUrls = (await h.events({ from: ALL, includeUrls: 'false' })).json();
    expect(noUrls[0].classes[0]).not.toHaveProperty('url');
  });

  it('names countries in the culture asked for', async () => {
    const sv = (await h.events({ from: ALL, countryId: 'NOR', cultureCode: 'sv-SE' })).json();
    expect(sv[0].country).toMatchObject({ code: 'NOR', name: 'Norge' });
    const en = (await h.events({ from: ALL, countryId: 'NOR' })).json();
    expect(en[0].country.name).toBe('Norway');
    expect((await errorsOf({ from: ALL, cultureCode: 'not a culture' })).cultureCode).toBeDefined();
  });

  it('answers records that the client schema accepts, with the field names real clients use', async () => {
    const list = eventListSchema.parse((await h.events({ from: ALL })).json());
    const e = list.find((x) => x.id === 1003)!;
    expect(e).toMatchObject({
      name: 'Nordmarkstreffen',
      timeInterval: { start: '2025-07-06T08:00:00Z', end: '2025-07-06T12:00:00Z' },
      organisers: [{ name: 'Fossum IF' }],
      country: { code: 'NOR' },
      position: { latitude: 59.98, longitude: 10.68 },
      participantCount: 500,
      isSearchable: false,
      isPublished: true,
      hasValidMapAndCourses: true,
      modifiedTime: '2025-07-06T12:00:00Z',
    });
  });

  it('gives class urls that open a viewer page for that class', async () => {
    const [first] = (await h.events({ from: ALL })).json();
    const page = await http('GET', first.classes[0].url);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`data-class-id="${first.classes[0].id}"`);
    expect((await http('GET', `${h.sim.info.viewerUrl}/Viewer?classId=1`)).status).toBe(404);
  });
});

describe('GET /events: circle and box', () => {
  it('returns events within the circle radius in metres', async () => {
    expect(await ids({ latitude: '57.7', longitude: '11.97', radius: '5000' })).toEqual([1001, 1002]);
    expect(await ids({ latitude: '57.7', longitude: '11.97', radius: '1000' })).toEqual([1001]);
  });

  it('answers 400 naming each missing member of an incomplete circle or box', async () => {
    expect(Object.keys(await errorsOf({ latitude: '57.7', longitude: '11.97' }))).toEqual(['radius']);
    expect(Object.keys(await errorsOf({ south: '57', north: '58' })).sort()).toEqual(['east', 'west']);
    expect(Object.keys(await errorsOf({ from: ALL, radius: '10' })).sort()).toEqual(['latitude', 'longitude']);
  });

  it('answers 400 for coordinates out of range and a box whose south is north of its north', async () => {
    expect((await errorsOf({ latitude: '91', longitude: '0', radius: '1' })).latitude).toBeDefined();
    expect((await errorsOf({ south: '58', north: '57', west: '11', east: '12' })).south).toBeDefined();
    expect((await errorsOf({ latitude: 'north', longitude: '0', radius: '1' })).latitude![0]).toMatch(/not a latitude/);
  });

  it('returns events in a box, also one that crosses the antimeridian', async () => {
    expect(await ids({ south: '57', north: '58', west: '11', east: '12.5' })).toEqual([1001, 1002]);
    expect(await ids({ south: '51', north: '53', west: '179', east: '-179' })).toEqual([1006, 1007]);
  });
});

describe('GET /events: sorting and paging', () => {
  it('sorts by time ascending by default and descending when asked', async () => {
    expect(await ids({ from: ALL })).toEqual([1001, 1004, 1002, 1003, 1005, 1006, 1007]);
    expect(await ids({ from: ALL, sorting: 'time:descending' })).toEqual([1007, 1006, 1005, 1003, 1002, 1004, 1001]);
  });

  it('sorts by duration and by participant count', async () => {
    expect((await ids({ from: ALL, sorting: 'duration' }))[0]).toBe(1005);
    expect(await ids({ from: ALL, sorting: 'participantcount:descending' })).toEqual([
      1001, 1002, 1004, 1003, 1007, 1006, 1005,
    ]);
    expect(await ids({ from: ALL, sorting: 'ParticipantCount:Ascending' })).toEqual([
      1005, 1006, 1007, 1003, 1004, 1002, 1001,
    ]);
  });

  it('sorts by distance from the circle centre or the box centre', async () => {
    expect(await ids({ latitude: '57.72', longitude: '11.95', radius: '2000000', sorting: 'distance' })).toEqual([
      1002, 1001, 1003, 1004,
    ]);
    const box = { south: '50', north: '61', west: '-2', east: '12' };
    const centre = { lat: 55.5, lng: 5 };
    const expected = events
      .filter((e) => [1001, 1002, 1003, 1004].includes(e.id))
      .sort((a, b) => distanceM(centre, toLatLng(a)) - distanceM(centre, toLatLng(b)))
      .map((e) => e.id);
    expect(await ids({ ...box, sorting: 'distance' })).toEqual(expected);
    expect(await ids({ ...box, sorting: 'distance:descending' })).toEqual([...expected].reverse());
  });

  it('answers 400 for distance sorting without a geo search and for unknown sort shapes', async () => {
    expect((await errorsOf({ from: ALL, sorting: 'distance' })).sorting![0]).toMatch(/geo search/);
    expect((await errorsOf({ from: ALL, sorting: 'name' })).sorting).toBeDefined();
    expect((await errorsOf({ from: ALL, sorting: 'time:up' })).sorting).toBeDefined();
  });

  it('pages with index:size, zero-based, without overlap or gaps', async () => {
    const all = await ids({ from: ALL });
    const pages = [
      await ids({ from: ALL, paging: '0:3' }),
      await ids({ from: ALL, paging: '1:3' }),
      await ids({ from: ALL, paging: '2:3' }),
    ];
    expect(pages.map((p) => p.length)).toEqual([3, 3, 1]);
    expect(pages.flat()).toEqual(all);
    expect(await ids({ from: ALL, paging: '3:3' })).toEqual([]);
  });

  it.each(['a:b', '0:0', '0:1001', '-1:10', '5'])('answers 400 for paging %s', async (paging) => {
    expect((await errorsOf({ from: ALL, paging })).paging).toBeDefined();
  });
});

describe('GET /events/{eventId}', () => {
  it('returns one event with classes and properties unless told otherwise', async () => {
    const res = await h.api('/events/1003?cultureCode=sv-SE');
    expect(res.status).toBe(200);
    const e = eventSchema.parse(res.json());
    expect(e).toMatchObject({ id: 1003, country: { name: 'Norge' } });
    expect(e.classes?.length).toBe(2);
    const bare = (await h.api('/events/1003?includeClasses=false&includeProperties=false')).json();
    expect(bare).not.toHaveProperty('classes');
    expect(bare).not.toHaveProperty('properties');
  });

  it('answers 404 for an unknown id and 400 for an id that is not an integer', async () => {
    expect((await h.api('/events/999')).status).toBe(404);
    const bad = await h.api('/events/abc');
    expect(bad.status).toBe(400);
    expect(bad.json().errors.eventId).toBeDefined();
    expect((await h.api('/events/1003?includeClasses=maybe')).status).toBe(400);
  });
});

describe('authorization of the event endpoints', () => {
  it('answers 403 without credentials and with an unknown key', async () => {
    expect((await h.events({ from: ALL }, {})).status).toBe(403);
    expect((await h.events({ from: ALL }, { ApiKey: 'wrong' })).status).toBe(403);
    expect((await h.api('/events/1001', { Authorization: 'Bearer nope' })).status).toBe(403);
  });
});

describe('routing', () => {
  it('answers unknown paths with a loud 404 and wrong methods with 405', async () => {
    const res = await h.api('/eventz');
    expect(res.status).toBe(404);
    expect(res.json().message).toMatch(/No such endpoint: GET \/api\/eventz/);
    expect((await http('GET', h.sim.info.baseUrl.replace('/api', '/events'))).status).toBe(404);
    expect((await h.post('/events', {})).status).toBe(405);
  });
});
