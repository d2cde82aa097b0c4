/**
 * GET /events answers from an index (columns, a sorted page selected before it is sorted) and from records cached per
 * event and variant. Both must give, byte for byte, what the plain way gives: filter every event, sort them all,
 * serialize each record afresh. Checked here over a generated dataset and several hundred queries, before and after
 * the world changes (churn, control edits and deletions, an import of courses, the clock moved): a cache that misses a
 * change answers the old bytes and fails. The journal's entry of each answer is checked against the journal's own
 * reading of the same text (it reads answers sent in pieces).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redactor } from '../../src/core/redact.js';
import { distanceM } from '../../src/geo/distance.js';
import { eventSearchQuerySchema, type EventSearchQuery } from '../../src/resources/events.js';
import { bodyText } from '../../src/simulator/journal.js';
import type { SimEvent } from '../../src/simulator/model.js';
import { eventRecord } from '../../src/simulator/records.js';
import { overlaps, wholeSeconds } from '../../src/simulator/search.js';
import { seeded } from '../helpers/georeference.js';
import { http, startHarness, type SimHarness } from '../helpers/simulator.js';

const DAY = 86_400_000;
const CULTURES = ['en-US', 'sv-SE', 'de-DE', 'fi-FI', 'nb-NO'];
const SORTS = ['time', 'duration', 'participantcount', 'distance'];

let h: SimHarness;
beforeAll(async () => {
  h = await startHarness({ events: 1500, seed: 21 });
  // Shapes the generator does not make: an event of no length, one without a position, one by the antimeridian.
  for (const extra of [
    { name: 'Ögonblicket', start: '2024-05-05T10:00:00Z', end: '2024-05-05T10:00:00Z' },
    { name: 'Utan plats', start: '2024-05-05T09:00:00Z', end: '2024-05-05T11:00:00Z', position: undefined },
    {
      name: 'Dateline Cup',
      start: '2024-05-06T09:00:00Z',
      end: '2024-05-06T11:00:00Z',
      position: { latitude: -16.5, longitude: 179.95 },
    },
  ]) {
    const res = await control('POST', '/events', {
      countryCode: 'SWE',
      organisers: ['OK Kanten'],
      classes: ['H21', 'D21'],
      position: { latitude: 59.3, longitude: 18.1 },
      isPublished: true,
      hasValidMapAndCourses: true,
      isSearchable: true,
      ...extra,
    });
    expect(res.status, res.text).toBe(201);
  }
});
afterAll(() => h.sim.close());

function control(method: string, path: string, body?: unknown) {
  return http(method, `${h.sim.info.controlUrl}${path}`, {
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

function iso(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19) + 'Z';
}

/** Queries of every kind the endpoint takes, some aimed at `focus` (the events a phase changed). */
function queries(seed: number, count: number, focus: readonly SimEvent[]): Array<Record<string, string>> {
  const rnd = seeded(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)]!;
  const events = h.sim.state.dataset.events;
  const swe = h.sim.state.countriesByCode.get('SWE')!;
  const out: Array<Record<string, string>> = [];
  for (let i = 0; i < count; i++) {
    const around = i % 3 === 0 && focus.length > 0 ? pick(focus) : pick(events);
    const q: Record<string, string> = {};
    const window = rnd();
    if (window < 0.4) {
      q.from = iso(around.startMs - Math.floor(rnd() * 60) * DAY);
      q.to = iso(around.startMs + (1 + Math.floor(rnd() * 60)) * DAY);
    } else if (window < 0.6) q.from = iso(around.startMs - Math.floor(rnd() * 400) * DAY);
    else if (window < 0.7) q.to = iso(around.endMs + DAY);
    else if (window < 0.8) q.modifiedSince = iso(around.modifiedMs - Math.floor(rnd() * 30) * DAY);
    const geo = rnd();
    let hasGeo = false;
    if (geo < 0.25 && around.position) {
      q.latitude = String(around.position.latitude);
      q.longitude = String(around.position.longitude);
      q.radius = String(pick([0, 500, 20_000, 150_000, 2_000_000]));
      hasGeo = true;
    } else if (geo < 0.35 && around.position) {
      const { latitude: lat, longitude: lng } = around.position;
      const w = pick([0.2, 2, 30]);
      q.south = String(Math.max(-90, lat - w));
      q.north = String(Math.min(90, lat + w));
      // A box over the antimeridian sometimes: west east of east.
      q.west = String(lng - w < -180 ? lng - w + 360 : lng - w);
      q.east = String(lng + w > 180 ? lng + w - 360 : lng + w);
      hasGeo = true;
    }
    if (Object.keys(q).length === 0 || rnd() < 0.5)
      q.paging = `${pick([0, 0, 1, 3, 40])}:${pick([1, 7, 50, 100, 500])}`;
    if (rnd() < 0.2) q.countryId = rnd() < 0.5 ? around.countryCode.toLowerCase() : String(swe.id);
    if (rnd() < 0.2) {
      const name = rnd() < 0.7 ? around.name : (around.organisers[0]?.name ?? 'cup');
      const start = Math.floor(rnd() * Math.max(1, name.length - 3));
      q.q = rnd() < 0.3 ? 'cup' : name.slice(start, start + 3 + Math.floor(rnd() * 5)).toUpperCase();
    }
    for (const flag of ['onlySearchable', 'onlyPublished', 'onlyHavingValidMapAndCourses']) {
      if (rnd() < 0.15) q[flag] = String(rnd() < 0.7);
    }
    if (rnd() < 0.6) {
      const by = pick(hasGeo ? SORTS : SORTS.slice(0, 3));
      q.sorting = rnd() < 0.3 ? by : `${by}:${pick(['ascending', 'descending'])}`;
    }
    for (const flag of ['includeClasses', 'includeProperties', 'includeUrls']) {
      if (rnd() < 0.25) q[flag] = String(rnd() < 0.5);
    }
    if (rnd() < 0.4) q.cultureCode = pick(CULTURES);
    out.push(q);
  }
  return out;
}

/** The plain way: every event filtered, all matches sorted, each record serialized afresh. */
function plainAnswer(raw: Record<string, string>): string {
  const q: EventSearchQuery = eventSearchQuerySchema.parse(raw);
  const state = h.sim.state;
  const country =
    q.countryId === undefined
      ? undefined
      : 'id' in q.countryId
        ? state.countriesById.get(q.countryId.id)
        : state.countriesByCode.get(q.countryId.code);
  const circle = q.latitude !== undefined ? { lat: q.latitude, lng: q.longitude! } : undefined;
  const box = q.south !== undefined ? { s: q.south, n: q.north!, w: q.west!, e: q.east! } : undefined;
  const needle = q.q?.toLocaleLowerCase('en-US');
  const matches = state.dataset.events.filter((e) => {
    if (!overlaps(e, q.from, q.to)) return false;
    if (q.modifiedSince !== undefined && !(wholeSeconds(e.modifiedMs) > q.modifiedSince)) return false;
    if (country && e.countryCode !== country.code) return false;
    if (q.onlySearchable && !e.isSearchable) return false;
    if (q.onlyPublished && !e.isPublished) return false;
    if (q.onlyHavingValidMapAndCourses && !e.hasValidMapAndCourses) return false;
    if (circle || box) {
      if (!e.position) return false;
      const { latitude: lat, longitude: lng } = e.position;
      if (circle && distanceM(circle, { lat, lng }) > q.radius!) return false;
      if (box && (lat < box.s || lat > box.n)) return false;
      if (box && !(box.w <= box.e ? lng >= box.w && lng <= box.e : lng >= box.w || lng <= box.e)) return false;
    }
    const texts = [e.name, ...e.organisers.map((o) => o.name)].map((t) => t.toLocaleLowerCase('en-US'));
    return needle === undefined || texts.some((t) => t.includes(needle));
  });
  const centre =
    circle ??
    (box && {
      lat: (box.s + box.n) / 2,
      lng: (() => {
        const lng = box.w + (box.w <= box.e ? box.e - box.w : box.e + 360 - box.w) / 2;
        return lng > 180 ? lng - 360 : lng;
      })(),
    });
  const key = (e: SimEvent): number => {
    switch (q.sorting?.by ?? 'time') {
      case 'time':
        return e.startMs;
      case 'duration':
        return e.endMs - e.startMs;
      case 'participantcount':
        return e.participantCount;
      default:
        return distanceM(centre!, { lat: e.position!.latitude, lng: e.position!.longitude });
    }
  };
  const sign = q.sorting?.order === 'descending' ? -1 : 1;
  matches.sort((a, b) => sign * (key(a) - key(b)) || a.id - b.id);
  const page = q.paging ? matches.slice(q.paging.index * q.paging.size, (q.paging.index + 1) * q.paging.size) : matches;
  const options = {
    includeClasses: q.includeClasses ?? true,
    includeProperties: q.includeProperties ?? true,
    includeUrls: q.includeUrls ?? true,
    cultureCode: q.cultureCode ?? 'en-US',
    viewerUrl: h.sim.info.viewerUrl,
  };
  return `[${page.map((e) => JSON.stringify(eventRecord(e, state, options))).join(',')}]`;
}

/** Every query answered over HTTP as the plain way answers it; the number of events answered in all. */
async function expectPlainAnswers(list: Array<Record<string, string>>): Promise<number> {
  let answered = 0;
  for (const q of list) {
    const res = await h.events(q);
    expect(res.status, `${new URLSearchParams(q).toString()}: ${res.text.slice(0, 300)}`).toBe(200);
    const plain = plainAnswer(q);
    if (res.text !== plain) expect(res.text, new URLSearchParams(q).toString()).toBe(plain);
    answered += (JSON.parse(res.text) as unknown[]).length;
  }
  return answered;
}

async function expectPlainDetails(events: readonly SimEvent[]): Promise<void> {
  for (const e of events) {
    for (const cultureCode of ['en-US', 'sv-SE']) {
      const res = await h.api(`/events/${e.id}?cultureCode=${cultureCode}&includeUrls=false`);
      const options = {
        includeClasses: true,
        includeProperties: true,
        includeUrls: false,
        cultureCode,
        viewerUrl: h.sim.info.viewerUrl,
      };
      expect(res.text).toBe(JSON.stringify(eventRecord(e, h.sim.state, options)));
    }
  }
}

describe('GET /events: the index and the record cache answer as the plain way does', () => {
  it('over several hundred queries of every kind on the generated dataset', async () => {
    // By the antimeridian, by a pole, and a circle that only just reaches an event: what a grid could get wrong.
    const dateline = { latitude: '-16.4', longitude: '-179.9', paging: '0:500' };
    await expectPlainAnswers([
      { ...dateline, radius: '150000', sorting: 'distance' },
      { ...dateline, radius: '30000' },
      { south: '-17', north: '-16', west: '179.5', east: '-179.5', paging: '0:10' },
      { latitude: '89.9', longitude: '0', radius: '3000000', paging: '0:5' },
      { latitude: '59.3', longitude: '18.1', radius: '1', from: '2024-05-05T00:00:00Z', to: '2024-05-06T00:00:00Z' },
      // Across the end of a name and the start of its organiser's: in neither text, so no match.
      { q: 'cket\u0000ok k', paging: '0:50' },
      { q: 'cket', paging: '0:50' },
    ]);
    const answered = await expectPlainAnswers(queries(1, 400, []));
    // Not a test of empty answers.
    expect(answered).toBeGreaterThan(5000);
  });

  it('after churn: every changed, created and deleted event answered as it is now', async () => {
    const before = h.sim.world.changes().length;
    await expectPlainAnswers(queries(2, 60, h.sim.state.dataset.events.slice(0, 50)));
    expect((await control('PUT', '/churn', { rate: 0.2 })).status).toBe(200);
    expect((await control('POST', '/clock', { advanceMs: 3 * DAY })).status).toBe(200);
    expect((await control('PUT', '/churn', { rate: 0 })).status).toBe(200);
    const changes = h.sim.world.changes().slice(before);
    expect(changes.length).toBeGreaterThan(50);
    const touched = changes.map((c) => h.sim.state.eventsById.get(c.eventId)).filter((e) => e !== undefined);
    await expectPlainAnswers(queries(3, 300, touched));
    await expectPlainDetails(touched.slice(0, 20));
  });

  it('after each control edit, deletion and import of courses alone, with the old answers cached first', async () => {
    const [a, b, c, d] = h.sim.state.dataset.events.filter((e) => e.classes.length >= 2 && e.position).slice(40);
    const aimed = queries(4, 100, [a!, b!, c!, d!]);
    await expectPlainAnswers(aimed);
    await expectPlainDetails([a!, b!, c!, d!]);
    // One change at a time, each followed by the questions: a deletion also rebuilds what an edit alone must.
    const steps: Array<[string, () => Promise<void>, number]> = [
      [
        'name, dates, a class and the count',
        async () => {
          const res = await control('PATCH', `/events/${a!.id}`, {
            name: `${a!.name} (flyttad)`,
            start: iso(a!.startMs + 40 * DAY),
            renameClasses: [{ id: a!.classes[0]!.id, name: 'Öppen Kort' }],
            participantCount: a!.participantCount + 7,
          });
          expect(res.status, res.text).toBe(200);
        },
        a!.id,
      ],
      [
        'flags and properties',
        async () => {
          const res = await control('PATCH', `/events/${b!.id}`, {
            hasValidMapAndCourses: false,
            isPublished: !b!.isPublished,
            properties: [{ key: 'discipline', value: 'Natt' }],
          });
          expect(res.status, res.text).toBe(200);
        },
        b!.id,
      ],
      [
        'courses imported',
        async () => {
          await control('PATCH', `/events/${d!.id}`, { hasValidMapAndCourses: false });
          await expectPlainAnswers(aimed);
          expect(
            h.sim.world.setCourses(d!.id, { maps: [], controls: [], courses: [], classAssignments: [] }),
          ).toBeDefined();
        },
        d!.id,
      ],
      [
        'deleted',
        async () => {
          expect((await control('DELETE', `/events/${c!.id}`)).status).toBe(200);
        },
        c!.id,
      ],
    ];
    for (const [, change, id] of steps) {
      await change();
      const event = h.sim.state.eventsById.get(id);
      await expectPlainAnswers(aimed);
      await expectPlainAnswers(queries(id, 40, event ? [event] : []));
      if (event) await expectPlainDetails([event]);
    }
    expect((await h.api(`/events/${c!.id}`)).status).toBe(404);
  });

  it('after the clock is moved without churn', async () => {
    const list = queries(6, 80, []);
    await expectPlainAnswers(list);
    expect((await control('POST', '/clock', { advanceMs: 400 * DAY })).status).toBe(200);
    await expectPlainAnswers(list);
  });
});

describe('the journal of answers written in pieces', () => {
  it('shows each answer as the journal reads the same text', async () => {
    const since = h.sim.journal.entries().at(-1)?.seq ?? 0;
    const list = queries(7, 40, []);
    const texts: string[] = [];
    for (const q of list) texts.push((await h.events(q)).text);
    const entries = h.sim.journal.entries({ since, pathPrefix: '/api/events' });
    expect(entries).toHaveLength(list.length);
    const redactor = new Redactor();
    redactor.add(h.sim.info.apiKey);
    entries.forEach((entry, i) => {
      expect(entry.responseBytes).toBe(Buffer.byteLength(texts[i]!));
      expect(entry.responseBody).toBe(bodyText(entry.responseContentType!, texts[i]!, redactor));
    });
    expect(entries.some((e) => e.responseBytes > 20_000)).toBe(true);
  });
});

describe('an answer in pieces cut short', () => {
  it('declares its whole length and sends the bytes asked for, the start of the whole answer', async () => {
    const query = { from: '2023-01-01T00:00:00Z', to: '2024-01-01T00:00:00Z', paging: '0:100' };
    const whole = Buffer.from((await h.events(query)).text);
    expect(whole.length).toBeGreaterThan(50_000);
    const since = h.sim.journal.entries().at(-1)?.seq ?? 0;
    const url = `${h.sim.info.baseUrl}/events?${new URLSearchParams(query).toString()}`;
    // The client sees the connection close before the declared length: the read fails, the bytes sent are journalled.
    await expect(http('GET', url, { headers: { ...h.key, 'x-simulator-scenario': 'cut=30000' } })).rejects.toThrow();
    // Journalled when the server's side of the connection closes, which may come just after the client's error.
    let [entry] = h.sim.journal.entries({ since, pathPrefix: '/api/events' });
    for (let i = 0; i < 100 && !entry; i++) {
      await new Promise((r) => setTimeout(r, 20));
      [entry] = h.sim.journal.entries({ since, pathPrefix: '/api/events' });
    }
    expect(entry!.responseHeaders['content-length']).toBe(String(whole.length));
    expect(entry!.responseBytes).toBe(30_000);
    const redactor = new Redactor();
    redactor.add(h.sim.info.apiKey);
    expect(entry!.responseBody).toBe(bodyText('application/json', whole.subarray(0, 30_000), redactor));
  });
});
