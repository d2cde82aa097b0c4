/**
 * The link job over real HTTP against the simulator: the shipped export against the default dataset, and look-alike
 * events (same organiser a week apart, one name in two countries, the days of a multi-day event, a shared federation
 * id) that must be told apart or reported ambiguous, never guessed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveloxClient } from '../../src/client.js';
import type { EmsClass, EmsEvent } from '../../src/ems/source.js';
import { findEvent } from '../../src/jobs/find-event.js';
import { iofEmsSource } from '../../src/ems/iof-source.js';
import { objectEmsSource } from '../../src/ems/json-source.js';
import { ValidationError } from '../../src/errors.js';
import { linkJob } from '../../src/jobs/link.js';
import { makeDataset, makeEvent } from '../helpers/dataset.js';
import { fixturePath } from '../helpers/files.js';
import { clientFor, startHarness, type SimHarness } from '../helpers/simulator.js';

describe('link on the default dataset with the shipped export', () => {
  let h: SimHarness;
  let client: LiveloxClient;
  beforeAll(async () => {
    h = await startHarness();
    client = clientFor(h.sim);
  });
  afterAll(async () => {
    await client.close();
    await h.sim.close();
  });

  it('finds stage 2 of the two-day event and links all 52 classes to the classes of the same name in Swedish', async () => {
    const result = await linkJob({
      client,
      source: iofEmsSource(fixturePath('ems/stockholm-2-days-stage2.StartList.xml')),
    });
    expect(result.status).toBe('linked');
    expect(result.event.chosen).toMatchObject({ id: 104002, name: 'Stockholms 2-dagars, etapp 2' });
    // Stage 1 (same organiser, place and Eventor id, one day earlier) is the runner-up, not a tie.
    expect(result.event.candidates[1]).toMatchObject({ id: 104001 });
    expect(result.links).toHaveLength(52);
    expect(result.unmatchedEms).toEqual([]);
    expect(result.unmatchedService).toEqual([]);
    // The export writes the IOF convention; the service the Swedish one. Undo the one to get the other.
    const swedish = (name: string) =>
      name
        .replace(/^Men 21 Elite$/, 'H21E')
        .replace(/^Women 21 Elite$/, 'D21E')
        .replace(/^M(\d+)/, 'H$1')
        .replace(/^W(\d+)/, 'D$1')
        .replace(/ Short$/, ' Kort')
        .replace(/^Open /, 'Öppen ');
    const event = h.sim.state.dataset.events.find((e) => e.id === 104002)!;
    for (const link of result.links) {
      const cls = event.classes.find((c) => c.id === link.serviceClass.id)!;
      expect(cls.name, link.emsClass.name).toBe(swedish(link.emsClass.name));
      expect(link.urlFrom).toBe('service');
      const page = await fetch(link.url);
      expect(page.status, link.url).toBe(200);
    }
    // The country list, then one search: the window holds fewer events than a page.
    expect(result.requests).toBe(2);
    expect(result.event.searches).toHaveLength(1);
  });

  it('skips the search when the event id is given, and still scores the event for the report', async () => {
    const source = iofEmsSource(fixturePath('ems/stockholm-2-days-stage2.StartList.xml'));
    const result = await linkJob({ client, source, eventId: 104001 });
    expect(result.status).toBe('linked');
    expect(result.event.chosen).toMatchObject({ id: 104001 });
    expect(result.event.chosen!.parts.date).toBeLessThan(1);
    expect(result.event.searches).toEqual([]);
    expect(result.links).toHaveLength(52);
  });
});

const swe = { latitude: 59.86, longitude: 17.64 };

const events = [
  // The same club's spring event, a week apart at the same place.
  makeEvent({
    id: 501,
    name: 'OK Linnés vårtävling',
    start: '2025-04-26T08:00:00Z',
    end: '2025-04-26T13:00:00Z',
    organisers: [{ name: 'OK Linné' }],
    position: swe,
  }),
  makeEvent({
    id: 502,
    name: 'OK Linnés vårtävling',
    start: '2025-05-03T08:00:00Z',
    end: '2025-05-03T13:00:00Z',
    organisers: [{ name: 'OK Linné' }],
    position: swe,
  }),
  // Another club's event that day, 50 km from Linné's.
  makeEvent({
    id: 503,
    name: 'Täby OK:s vårsprint',
    start: '2025-05-03T09:00:00Z',
    end: '2025-05-03T12:00:00Z',
    organisers: [{ name: 'Täby OK' }],
    position: { latitude: 59.44, longitude: 18.07 },
  }),
  // One name, one day, two countries.
  makeEvent({
    id: 601,
    name: 'Nordic Sprint Cup',
    start: '2025-06-07T09:00:00Z',
    end: '2025-06-07T12:00:00Z',
    organisers: [{ name: 'Nordic Orienteering' }],
    countryCode: 'SWE',
    position: { latitude: 59.33, longitude: 18.06 },
  }),
  makeEvent({
    id: 602,
    name: 'Nordic Sprint Cup',
    start: '2025-06-07T09:00:00Z',
    end: '2025-06-07T12:00:00Z',
    organisers: [{ name: 'Nordic Orienteering' }],
    countryCode: 'NOR',
    position: { latitude: 59.91, longitude: 10.75 },
  }),
  // A two-day event: one service event per day, sharing the federation's id.
  ...[1, 2].map((day) =>
    makeEvent({
      id: 700 + day,
      name: `Västerås 2-dagars, etapp ${day}`,
      start: `2025-09-${12 + day}T08:00:00Z`,
      end: `2025-09-${12 + day}T13:00:00Z`,
      organisers: [{ name: 'IFK Västerås' }],
      position: { latitude: 59.61, longitude: 16.55 },
      properties: [{ key: 'eventorId', value: '51234' }],
    }),
  ),
  // Two events on one day nearby whose names say little; only the Eventor id tells them apart.
  makeEvent({
    id: 801,
    name: 'Närtävling',
    start: '2025-10-04T08:00:00Z',
    end: '2025-10-04T12:00:00Z',
    organisers: [{ name: 'Täby OK' }],
    position: { latitude: 59.44, longitude: 18.07 },
    properties: [{ key: 'eventorId', value: '52001' }],
  }),
  makeEvent({
    id: 802,
    name: 'Närtävling',
    start: '2025-10-04T08:00:00Z',
    end: '2025-10-04T12:00:00Z',
    organisers: [{ name: 'Täby OK' }],
    position: { latitude: 59.45, longitude: 18.08 },
    properties: [{ key: 'eventorId', value: '52002' }],
  }),
  // Other events that day: the window holds more than a small page.
  ...['Stockholm City Cup', 'Upsala IF:s höstmedel', 'Göteborgs nattcup'].map((name, i) =>
    makeEvent({
      id: 810 + i,
      name,
      start: '2025-10-04T09:00:00Z',
      end: '2025-10-04T12:00:00Z',
      organisers: [{ name: 'Another club' }],
      position: { latitude: 57 + i, longitude: 12 + i },
    }),
  ),
];

describe('look-alike events', () => {
  let h: SimHarness;
  let client: LiveloxClient;
  beforeAll(async () => {
    h = await startHarness({ dataset: makeDataset(events) });
    client = clientFor(h.sim);
  });
  afterAll(async () => {
    await client.close();
    await h.sim.close();
  });

  const classes: EmsClass[] = [{ name: 'Herrar 21' }, { name: 'Damer 21' }];
  const link = (event: Partial<EmsEvent> & { name: string }, options: { country?: string; cls?: EmsClass[] } = {}) =>
    linkJob({
      client,
      source: objectEmsSource({ event: { organisers: [], ...event }, classes: options.cls ?? classes }),
      country: options.country,
    });

  it("tells the same organiser's events a week apart by their date", async () => {
    for (const [start, id] of [
      ['2025-04-26', 501],
      ['2025-05-03', 502],
    ] as const) {
      const r = await link({ name: 'OK Linnés Vårtävling 2025', start, organisers: ['OK Linné'], country: 'SWE' });
      expect(r.status).toBe('linked');
      expect(r.event.chosen?.id).toBe(id);
      expect(r.event.chosen?.parts).toMatchObject({ date: 1, organiser: 1 });
      expect(r.links.map((l) => l.serviceClass.name)).toEqual(['H21', 'D21']);
    }
  });

  it('tells one name in two countries apart by the country, and calls it ambiguous without one', async () => {
    const norway = await link({ name: 'Nordic Sprint Cup', start: '2025-06-07' }, { country: 'Norway' });
    expect(norway.status).toBe('linked');
    expect(norway.event.chosen?.id).toBe(602);
    expect(norway.event.country).toMatchObject({ code: 'NOR' });

    const nowhere = await link({ name: 'Nordic Sprint Cup', start: '2025-06-07' });
    expect(nowhere.status).toBe('ambiguous');
    expect(nowhere.event.chosen).toBeUndefined();
    expect(nowhere.event.candidates.map((c) => c.id).sort()).toEqual([601, 602]);
    expect(nowhere.event.candidates[0]!.score).toBe(nowhere.event.candidates[1]!.score);
    expect(nowhere.links).toEqual([]);
  });

  it("searches an undated export by its name, and calls two countries' events of that name ambiguous", async () => {
    const anywhere = await link({ name: 'Nordic Sprint Cup' });
    expect(anywhere.event.searches.map((s) => s.query)).toEqual(['q=Nordic']);
    expect(anywhere.status).toBe('ambiguous');
    expect(anywhere.event.candidates.map((c) => c.id).sort()).toEqual([601, 602]);
    const norway = await link({ name: 'Nordic Sprint Cup' }, { country: 'NOR' });
    expect(norway.status).toBe('linked');
    expect(norway.event.chosen?.id).toBe(602);
  });

  it('tells one name in two countries apart by the position when the export has one', async () => {
    const r = await link({
      name: 'Nordic Sprint Cup',
      start: '2025-06-07',
      position: { latitude: 59.9, longitude: 10.7 },
    });
    expect(r.status).toBe('linked');
    expect(r.event.chosen?.id).toBe(602);
  });

  it('calls a two-day export ambiguous between its days, and takes the day it is given', async () => {
    const both = await link({
      name: 'Västerås 2-dagars',
      start: '2025-09-13',
      end: '2025-09-14',
      country: 'SWE',
      externalIds: { eventor: '51234' },
    });
    expect(both.status).toBe('ambiguous');
    expect(
      both.event.candidates
        .slice(0, 2)
        .map((c) => c.id)
        .sort(),
    ).toEqual([701, 702]);
    const day2 = await link({
      name: 'Västerås 2-dagars, etapp 2',
      start: '2025-09-14',
      country: 'SWE',
      externalIds: { eventor: '51234' },
    });
    expect(day2.status).toBe('linked');
    expect(day2.event.chosen?.id).toBe(702);
  });

  it('settles near-identical events by a shared Eventor id, and is ambiguous without it', async () => {
    const event = { name: 'Närtävling', start: '2025-10-04', organisers: ['Täby OK'], country: 'SWE' };
    expect((await link(event)).status).toBe('ambiguous');
    const byId = await link({ ...event, externalIds: { eventor: '52002' } });
    expect(byId.status).toBe('linked');
    expect(byId.event.chosen).toMatchObject({ id: 802, parts: { externalId: 1 } });
  });

  it("narrows a window fuller than a page by the name's most telling word, then the organiser's", async () => {
    const ems = { name: 'Täby närtävling 2025', start: '2025-10-04', organisers: ['Täby OK'], country: 'SWE' };
    // Pages of two: the first search is full, so the name and the organiser are searched for.
    const found = await findEvent(client, ems, [], { pageSize: 2 });
    expect(found.searches.map((s) => s.query.replace(/^.*countryId=\d+ ?/, ''))).toEqual([
      '',
      'q=närtävling',
      'q=Täby',
    ]);
    expect(found.status).toBe('ambiguous');
    expect(found.candidates.map((c) => c.event.id).sort()).toEqual([801, 802]);
  });

  it('reports not found when nothing is on the date', async () => {
    const r = await link({ name: 'OK Linnés vårtävling', start: '2025-04-12', country: 'SWE' });
    expect(r.status).toBe('not_found');
    expect(r.event.chosen).toBeUndefined();
    expect(r.event.candidates).toEqual([]);
    expect(r.event.reason).toBe('the search found no event');
  });

  it("looks beyond the circle when the events inside it are not the export's", async () => {
    // The export puts Linné's event at Täby, 50 km off: the circle holds only Täby OK's event of that day, which is
    // not it, so the whole country is searched next.
    const r = await link({
      name: 'OK Linnés vårtävling',
      start: '2025-05-03',
      country: 'SWE',
      position: { latitude: 59.44, longitude: 18.07 },
    });
    expect(r.event.searches.map((s) => [/circle=/.test(s.query), s.found])).toEqual([
      [true, 1],
      [false, 2],
    ]);
    expect(r.status).toBe('linked');
    expect(r.event.chosen?.id).toBe(502);
  });

  it('searches every country, with a note, when the export names a country the service does not know', async () => {
    const r = await link({
      name: 'Nordic Sprint Cup',
      start: '2025-06-07',
      country: 'Atlantis',
      position: { latitude: 59.9, longitude: 10.7 },
    });
    expect(r.status).toBe('linked');
    expect(r.event.chosen?.id).toBe(602);
    expect(r.event.country).toBeUndefined();
    expect(r.issues).toContainEqual(
      expect.objectContaining({ code: 'search_widened', message: expect.stringContaining("'Atlantis'") }),
    );
  });

  it('refuses an export with neither date nor name, asking for the event id', async () => {
    await expect(link({ name: '' })).rejects.toThrow(ValidationError);
    await expect(link({ name: '' })).rejects.toMatchObject({
      issues: [expect.objectContaining({ hint: expect.objectContaining({ code: 'event_id' }) })],
    });
  });

  it('refuses a country the service does not know, naming it', async () => {
    await expect(link({ name: 'X', start: '2025-04-26' }, { country: 'Atlantis' })).rejects.toThrow(/'Atlantis'/);
  });
});
