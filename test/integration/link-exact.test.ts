/**
 * Issue 12's event matching over real HTTP against the simulator: names written differently (initials, another
 * language) linked when the rest agrees while same-day look-alikes stay ambiguous; exact links before any search
 * (the stored service id, the lookup by Eventor id that real clients are observed to use, every label an export gives
 * an Eventor id); `eventLinksJob` for a known event without an export; the date warning for an event given by id; and
 * "nothing matched" told as data, with no unrelated event suggested.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKey } from '../../src/auth/api-key.js';
import type { LiveloxClient } from '../../src/client.js';
import { iofEmsSource } from '../../src/ems/iof-source.js';
import { objectEmsSource } from '../../src/ems/json-source.js';
import type { EmsClass, EmsEvent, EmsExport, EmsSource } from '../../src/ems/source.js';
import { NotFoundError } from '../../src/errors.js';
import { eventLinksJob, linkJob } from '../../src/jobs/link.js';
import { eventorSwedenId } from '../../src/resources/events.js';
import { makeDataset, makeEvent } from '../helpers/dataset.js';
import { realdataPath } from '../helpers/files.js';
import { clientFor, startHarness, type SimHarness } from '../helpers/simulator.js';

const CLASSES = ['H21', 'D21', 'H35', 'D35', 'H50', 'D50'];
let classId = 70_000;
const serviceClasses = (names: readonly string[] = CLASSES) => names.map((name) => ({ id: ++classId, name }));
const day = (date: string) => ({ start: `${date}T08:00:00Z`, end: `${date}T13:00:00Z` });
const here = { latitude: 59.3, longitude: 18.0 };

const events = [
  // Known by its founder's initials in the export.
  makeEvent({
    id: 2001,
    name: 'Karl-Ludwig-Meyer-Pokal 2025',
    ...day('2025-03-08'),
    organisers: [{ name: 'OLV Uslar' }],
    classes: serviceClasses(),
    position: here,
  }),
  // Written in French on the service, in English in the export.
  makeEvent({
    id: 2002,
    name: "Semaine suisse d'orientation 2025",
    ...day('2025-07-12'),
    organisers: [{ name: 'OL Regio Zürich' }],
    countryCode: 'CHE',
    classes: serviceClasses(),
    position: { latitude: 46.5, longitude: 8.0 },
  }),
  // A club's two events the same day: morning and evening, same classes, same organiser.
  makeEvent({
    id: 2003,
    name: 'Vårsprinten',
    ...day('2025-04-05'),
    organisers: [{ name: 'Järfälla OK' }],
    classes: serviceClasses(),
    position: here,
  }),
  makeEvent({
    id: 2004,
    name: 'Nattcupen',
    start: '2025-04-05T18:00:00Z',
    end: '2025-04-05T21:00:00Z',
    organisers: [{ name: 'Järfälla OK' }],
    classes: serviceClasses(),
    position: here,
  }),
  // Two look-alikes the same day, both known only by a long name the export abbreviates.
  ...[2005, 2006].map((id) =>
    makeEvent({
      id,
      name: 'Nordic Sprint Cup',
      ...day('2025-05-10'),
      organisers: [{ name: 'Nordic Orienteering' }],
      classes: serviceClasses(),
      position: here,
    }),
  ),
  // Eventor ids: a one-day event, and the two stages of a two-day event sharing their Eventor id.
  makeEvent({
    id: 2010,
    name: 'Täby Ultrasprint',
    ...day('2025-06-01'),
    organisers: [{ name: 'Täby OK' }],
    classes: serviceClasses(),
    properties: [{ key: 'eventorId', value: '48001' }],
  }),
  ...[1, 2].map((stage) =>
    makeEvent({
      id: 2010 + stage,
      name: `Sörmlandskavlen, etapp ${stage}`,
      ...day(`2025-06-0${6 + stage}`),
      organisers: [{ name: 'OK Tyr' }],
      classes: serviceClasses(),
      properties: [
        { key: 'eventorId', value: '48002' },
        { key: 'stage', value: `${stage}/2` },
      ],
    }),
  ),
  // A Norwegian event whose Norwegian Eventor id is the same number as a Swedish one.
  makeEvent({
    id: 2020,
    name: 'Holmenkollstafetten',
    ...day('2025-06-01'),
    organisers: [{ name: 'IL Tyrving' }],
    countryCode: 'NOR',
    position: { latitude: 59.95, longitude: 10.67 },
    properties: [{ key: 'eventorId', value: '48001' }],
  }),
  // Nothing else in the window: an event in another country, a week after everything.
  makeEvent({
    id: 2030,
    name: 'Danish Spring Cup',
    ...day('2025-08-16'),
    organisers: [{ name: 'OK Pan' }],
    countryCode: 'DNK',
    position: { latitude: 56.1, longitude: 10.2 },
  }),
  // The real export's event as the service holds it: by the championships' full name, not the export's initials.
  makeEvent({
    id: 2040,
    name: 'Junior World Ski Orienteering Championships 2016 - Sprint',
    start: '2016-03-01T10:00:00Z',
    end: '2016-03-01T13:00:00Z',
    organisers: [],
    countryCode: 'AUT',
    position: { latitude: 47.1, longitude: 13.6 },
    classes: serviceClasses(['H', 'D']),
  }),
];

let h: SimHarness;
let client: LiveloxClient;
const dir = mkdtempSync(join(tmpdir(), 'lb-link-exact-'));

beforeAll(async () => {
  h = await startHarness({ dataset: makeDataset(events) });
  client = clientFor(h.sim);
});
afterAll(async () => {
  await client.close();
  await h.sim.close();
});

const emsClasses: EmsClass[] = CLASSES.map((name) => ({ name }));
const link = (event: Partial<EmsEvent> & { name: string }, cls: EmsClass[] = emsClasses) =>
  linkJob({ client, source: objectEmsSource({ event: { organisers: [], ...event }, classes: cls }) });

/** An IOF 3.0 start list whose event carries `<Id type="...">` ids and, when given, a race number. */
function iofExport(name: string, ids: ReadonlyArray<[string, string]>, date: string, race?: number): string {
  const path = join(
    dir,
    `${name.replace(/\W+/g, '-')}-${ids
      .map(([t]) => t)
      .join('-')
      .replace(/\W+/g, '')}.xml`,
  );
  const raceXml = race === undefined ? '' : `<Race><RaceNumber>${race}</RaceNumber><Name>Etapp ${race}</Name></Race>`;
  writeFileSync(
    path,
    `<?xml version="1.0" encoding="UTF-8"?>
<StartList xmlns="http://www.orienteering.org/datastandard/3.0" iofVersion="3.0">
  <Event>${ids.map(([type, id]) => `<Id type="${type}">${id}</Id>`).join('')}<Name>${name}</Name>
    <StartTime><Date>${date}</Date></StartTime>${raceXml}</Event>
  ${CLASSES.map((c, i) => `<ClassStart><Class><Id>${i + 1}</Id><Name>${c}</Name></Class></ClassStart>`).join('\n  ')}
</StartList>`,
  );
  return path;
}

describe('names written differently', () => {
  it("links a founder's initials when date, organiser and every class agree", async () => {
    const r = await link({ name: 'KLM-Cup 2025', start: '2025-03-08', organisers: ['OLV Uslar'], country: 'SWE' });
    expect(r.status, r.event.reason).toBe('linked');
    expect(r.event.chosen?.id).toBe(2001);
    expect(r.links).toHaveLength(CLASSES.length);
  });

  it('links a name in another language, and refuses it when the date is another day', async () => {
    const r = await link({ name: 'Swiss O Week 2025', start: '2025-07-12', country: 'CHE' });
    expect(r.status, r.event.reason).toBe('linked');
    expect(r.event.chosen?.id).toBe(2002);
    const dayAfter = await link({ name: 'Swiss O Week 2025', start: '2025-07-14', country: 'CHE' });
    expect(dayAfter.status).not.toBe('linked');
  });

  it("never lands a club's morning export on its evening event, though organiser and classes agree", async () => {
    const r = await link({ name: 'Morgonjakten', start: '2025-04-05', organisers: ['Järfälla OK'], country: 'SWE' });
    expect(r.status, JSON.stringify(r.event.candidates)).not.toBe('linked');
    expect(r.links).toEqual([]);
  });

  it('keeps two look-alikes of one day ambiguous when the export abbreviates their name', async () => {
    const r = await link({
      name: 'NSC 2025',
      start: '2025-05-10',
      organisers: ['Nordic Orienteering'],
      country: 'SWE',
    });
    expect(r.status).toBe('ambiguous');
    expect(r.event.code).toBe('ambiguous');
    expect(r.event.candidates.map((c) => c.id).sort()).toEqual([2005, 2006]);
  });

  it('links the real SKIO 2016 export, which names the championships by their initials', async () => {
    const r = await linkJob({
      client,
      source: iofEmsSource(realdataPath('iof3/liveresults_oe2010_ResultList_SKIO2016_tenths_cp1252.xml')),
      country: 'AUT',
    });
    expect(r.status, r.event.reason).toBe('linked');
    expect(r.event.chosen?.id).toBe(2040);
    expect(r.event.chosen!.parts.name).toBeGreaterThanOrEqual(0.4);
  });
});

describe('exact links before any search', () => {
  it('answers GET /events/EventorSweden%3A{id}-{race} for Swedish events, and 404 for unknown ids', async () => {
    const one = await h.api('/events/EventorSweden%3A48001-1');
    expect(one.status).toBe(200);
    expect(one.json()).toMatchObject({ id: 2010 });
    expect((await h.api('/events/EventorSweden%3A48002-2')).json()).toMatchObject({ id: 2012 });
    expect((await h.api('/events/EventorSweden%3A48002-3')).status).toBe(404);
    expect((await h.api('/events/EventorSweden%3A99999-1')).status).toBe(404);
    // The Norwegian event shares the number, but Sweden's Eventor did not give it.
    expect((await h.api('/events/EventorSweden%3A48001-1')).json()).not.toMatchObject({ id: 2020 });
    expect((await h.api('/events/Eventor%3A%2F48001')).status).toBe(400);
    await expect(client.events.getByExternalId(eventorSwedenId(48002, 1))).resolves.toMatchObject({ id: 2011 });
    await expect(client.events.getByExternalId(eventorSwedenId(1, 1))).rejects.toThrow(NotFoundError);
  });

  for (const label of ['Eventor', 'EventorSweden', 'Eventor Sweden', 'SOFT']) {
    it(`links by the lookup of an Eventor id labelled "${label}", with one request and no search`, async () => {
      const path = iofExport('Ultrasprinten', [[label, '48001']], '2025-06-01', 1);
      const r = await linkJob({ client, source: iofEmsSource(path) });
      expect(r.status, r.event.reason).toBe('linked');
      expect(r.event).toMatchObject({ via: 'external_id_lookup', code: 'matched_by_id', chosen: { id: 2010 } });
      expect(r.event.searches).toEqual([]);
      expect(r.requests).toBe(1);
    });
  }

  it('takes the race the export names, and asks for race 1 only after a search that does not settle it', async () => {
    const stage2 = iofExport('Kavlen', [['Eventor', '48002']], '2025-06-08', 2);
    const r = await linkJob({ client, source: iofEmsSource(stage2) });
    expect(r.event).toMatchObject({ via: 'external_id_lookup', chosen: { id: 2012 } });
    expect(r.event.lookups).toEqual([{ externalId: 'EventorSweden:48002-2', found: true }]);
    // Without a race number the search goes first; the id both sides carry settles it, and no lookup is spent.
    const unnumbered = iofExport('Kavlen dag 2', [['Eventor', '48002']], '2025-06-08');
    const s = await linkJob({ client, source: iofEmsSource(unnumbered) });
    expect(s.event).toMatchObject({ via: 'search', code: 'matched_by_id', chosen: { id: 2012 }, lookups: [] });
  });

  it('does not look a Norwegian or IOF Eventor id up in Sweden, and keeps an id naming no Eventor as it is', async () => {
    for (const label of ['NOF', 'Eventor-NOR', 'IOF', 'orienteering.org', 'MeOS']) {
      const path = iofExport('Holmenkollstafetten', [[label, '48001']], '2025-06-01', 1);
      const source = iofEmsSource(path);
      const ems = await source.read();
      const r = await linkJob({ client, source });
      expect(r.event.lookups, label).toEqual([]);
      expect(r.event.chosen?.id, label).not.toBe(2010);
      const isEventor = !['MeOS', 'IOF', 'orienteering.org'].includes(label);
      expect(ems.event.externalIds?.eventor, label).toBe(isEventor ? '48001' : undefined);
    }
  });

  /** An export of a portal that states its race, with a bare "Eventor" id or Sweden's, as `source` gives it. */
  const portal = (event: EmsEvent, cls: EmsClass[]): EmsSource => ({
    source: 'portal',
    read: async (): Promise<EmsExport> => ({ event, classes: cls, format: 'object', source: 'portal', race: 1 }),
  });

  it("does not take the lookup's answer when neither its name nor its classes are the export's", async () => {
    // A bare "Eventor" id of no stated country is asked of Sweden: here Norway's number, which Sweden gave Täby.
    const r = await linkJob({
      client,
      source: portal(
        {
          name: 'Holmenkollstafetten',
          start: '2025-06-01',
          organisers: ['IL Tyrving'],
          externalIds: { eventor: '48001' },
        },
        [{ name: 'Elite menn' }, { name: 'Elite kvinner' }, { name: 'Veteraner' }],
      ),
    });
    expect(r.event.lookups).toEqual([{ externalId: 'EventorSweden:48001-1', found: true }]);
    expect(r.event.via).toBe('search');
    // The search finds the export's own event by its name.
    expect(r.event.chosen?.id).toBe(2020);
  });

  it("compares a two-letter country of the export with the lookup's answer", async () => {
    const r = await linkJob({
      client,
      source: portal(
        {
          name: 'Täby Ultrasprint',
          start: '2025-06-01',
          organisers: [],
          country: 'DK',
          externalIds: { eventor: '48001', 'eventor.swe': '48001' },
        },
        emsClasses,
      ),
    });
    expect(r.event.lookups).toEqual([{ externalId: 'EventorSweden:48001-1', found: true }]);
    expect(r.event.via).toBe('search');
    expect(r.event.chosen?.id).not.toBe(2010);
  });

  it('falls back to the search when the lookup answers 404', async () => {
    const path = iofExport('Täby Ultrasprint', [['Eventor', '47000']], '2025-06-01', 1);
    const r = await linkJob({ client, source: iofEmsSource(path) });
    expect(r.event.lookups).toEqual([{ externalId: 'EventorSweden:47000-1', found: false }]);
    expect(r.event.via).toBe('search');
    expect(r.event.searches.length).toBeGreaterThan(0);
  });

  it('surfaces a lookup failure that is not a 404', async () => {
    const refused = clientFor(h.sim, { auth: apiKey('not-the-key') });
    const path = iofExport('Täby Ultrasprint', [['Eventor', '48001']], '2025-06-01', 1);
    await expect(linkJob({ client: refused, source: iofEmsSource(path) })).rejects.toMatchObject({ status: 403 });
    await refused.close();
  });

  it('takes the service event id the event system stores before any lookup or search, and searches on a 404', async () => {
    const stored = (serviceEventId: number): EmsSource => ({
      source: 'portal',
      read: async (): Promise<EmsExport> => ({
        event: { name: 'Täby Ultrasprint', start: '2025-06-01', organisers: [], externalIds: { eventor: '48001' } },
        classes: emsClasses,
        format: 'object',
        source: 'portal',
        serviceEventId,
        race: 1,
      }),
    });
    const r = await linkJob({ client, source: stored(2010) });
    expect(r.event).toMatchObject({ via: 'stored_id', chosen: { id: 2010 }, lookups: [], searches: [] });
    const gone = await linkJob({ client, source: stored(999_999) });
    expect(gone.event.via).toBe('external_id_lookup');
    expect(gone.issues.map((i) => i.message).join(' ')).toContain('999999');
  });

  it("links an EventList's race by the Livelox id Eventor stores for it, and by the lookup when that id is gone", async () => {
    const list = (config: string) => {
      const path = join(dir, `list-${config.replace(/\W+/g, '_')}.xml`);
      writeFileSync(
        path,
        `<?xml version="1.0" encoding="UTF-8"?>
<EventList xmlns="http://www.orienteering.org/datastandard/3.0" iofVersion="3.0">
  <Event><Id type="Eventor">48002</Id><Name>Sörmlandskavlen</Name>
    <StartTime><Date>2025-06-07</Date></StartTime><EndTime><Date>2025-06-08</Date></EndTime>
    <Organiser><Name>OK Tyr</Name><Country code="SWE">Sweden</Country></Organiser>
    ${CLASSES.map((c) => `<Class><Name>${c}</Name></Class>`).join('')}
    <Race><RaceNumber>1</RaceNumber><Name>Etapp 1</Name><StartTime><Date>2025-06-07</Date></StartTime></Race>
    <Race><RaceNumber>2</RaceNumber><Name>Etapp 2</Name><StartTime><Date>2025-06-08</Date></StartTime></Race>
    <Extensions><HashTableEntry><Key>Eventor_LiveloxEventConfigurations</Key><Value>${config}</Value></HashTableEntry></Extensions>
  </Event>
</EventList>`,
      );
      return path;
    };
    const stored = await linkJob({ client, source: iofEmsSource(list('2011,1;2012,1'), { race: 2 }) });
    expect(stored.event).toMatchObject({ via: 'stored_id', chosen: { id: 2012 }, lookups: [], searches: [] });
    expect(stored.links).toHaveLength(CLASSES.length);
    const gone = await linkJob({ client, source: iofEmsSource(list('2011,1;987654,1'), { race: 2 }) });
    expect(gone.event).toMatchObject({ via: 'external_id_lookup', chosen: { id: 2012 } });
    expect(gone.issues).toContainEqual(expect.objectContaining({ message: expect.stringContaining('987654') }));
  });
});

describe('an event id without an export, and with an export of another day', () => {
  it('links every class of the service event', async () => {
    const r = await eventLinksJob({ client, eventId: 2001 });
    expect(r.event.chosen).toMatchObject({ id: 2001, name: 'Karl-Ludwig-Meyer-Pokal 2025' });
    expect(r.links.map((l) => l.serviceClass.name)).toEqual(CLASSES);
    for (const l of r.links) expect(l.url).toMatch(/^http/);
    expect(r.requests).toBe(1);
    await expect(eventLinksJob({ client, eventId: 999_999 })).rejects.toThrow(NotFoundError);
  });

  it("warns when the export's date is not the given event's, naming both dates", async () => {
    const other = await linkJob({
      client,
      source: objectEmsSource({ event: { name: 'KLM-Cup', start: '2025-03-15', organisers: [] }, classes: emsClasses }),
      eventId: 2001,
    });
    expect(other.status).toBe('linked');
    expect(other.event.dateMismatch).toEqual({ export: '2025-03-15', event: '2025-03-08' });
    const warning = other.issues.find((i) => i.code === 'date_differs');
    expect(warning?.message).toContain('2025-03-15');
    expect(warning?.message).toContain('2025-03-08');
    const same = await linkJob({
      client,
      source: objectEmsSource({ event: { name: 'KLM-Cup', start: '2025-03-08', organisers: [] }, classes: emsClasses }),
      eventId: 2001,
    });
    expect(same.event.dateMismatch).toBeUndefined();
    expect(same.issues.filter((i) => i.code === 'date_differs')).toEqual([]);
  });
});

describe('when nothing matches', () => {
  it('says no event is in the window', async () => {
    const r = await link({ name: 'Höstjakten', start: '2025-11-01', country: 'SWE' });
    expect(r.status).toBe('not_found');
    expect(r.event.code).toBe('no_events_in_window');
    expect(r.event.candidates).toEqual([]);
  });

  it('says the window has events but none in the country, and suggests none of them', async () => {
    const r = await link({ name: 'Vårjakten', start: '2025-08-16', country: 'SWE' });
    expect(r.status).toBe('not_found');
    expect(r.event.code).toBe('none_in_country');
    expect(r.event.reason).toContain('Sweden');
    expect(r.event.candidates).toEqual([]);
  });

  it('lists no unrelated event of another country as a candidate when the export names none', async () => {
    const r = await link({ name: 'Kalmar Nattorientering', start: '2025-08-16' }, [{ name: 'Elit' }]);
    expect(r.status).not.toBe('linked');
    expect(r.event.code).toMatch(/^(none_plausible|unsure)$/);
    expect(r.event.candidates.map((c) => c.id)).not.toContain(2030);
  });
});
