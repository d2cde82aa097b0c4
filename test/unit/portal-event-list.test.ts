import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { EVENTOR_LIVELOX_KEY, liveloxEventIds } from '../../src/ems/event-list.js';
import { readPortal } from '../../src/ems/portal.js';
import { readEventList } from '../../src/iof/event-classes/event-list.js';
import { fixturePath } from '../helpers/files.js';

const LIST = fixturePath('portal/eventor.EventList.xml');
const NS = 'xmlns="http://www.orienteering.org/datastandard/3.0" iofVersion="3.0"';
const dir = mkdtempSync(join(tmpdir(), 'portal-event-list-'));

function bytes(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

/** An Eventor-style extension entry, in a namespace of its own as IOF's Extensions asks. */
function entry(key: string, value: string): string {
  return `<e:Entry xmlns:e="urn:test"><e:Key>${key}</e:Key><e:Value>${value}</e:Value></e:Entry>`;
}

describe('readEventList: every event of an IOF EventList', () => {
  it('reads each event with its ids, races, classes and the extension entries asked for', async () => {
    const list = await readEventList(LIST, { extensionKeys: [EVENTOR_LIVELOX_KEY] });
    expect(list.version).toBe('3.0');
    expect(list.events.map((e) => e.event.name)).toEqual([
      'Stockholm 3-dagars',
      'Vårsprinten',
      'Nattcupen 3',
      'Höstklassikern',
      'Klubbträning',
    ]);
    const first = list.events[0]!;
    expect(first.event.externalIds).toEqual([{ type: 'Eventor', id: '49812' }]);
    expect(first.event.countries).toEqual(['SWE']);
    expect(first.races.map((r) => [r.number, r.name, r.start])).toEqual([
      [1, 'Etapp 1', '2025-07-04T10:00:00+02:00'],
      [2, 'Etapp 2', '2025-07-05'],
      [3, 'Etapp 3', '2025-07-06'],
    ]);
    expect(first.classes).toEqual([
      { id: '101', name: 'H21', entries: 0 },
      { id: '102', name: 'D21', entries: 0 },
      { id: '103', name: 'Öppen 1', shortName: 'Ö1', entries: 0 },
    ]);
    // Key and value trimmed; the other entry (a host message) not kept.
    expect(first.extensions).toEqual({ [EVENTOR_LIVELOX_KEY]: '193998,1; 193999 ;194000,1' });
    expect(list.events.map((e) => e.extensions?.[EVENTOR_LIVELOX_KEY])).toEqual([
      '193998,1; 193999 ;194000,1',
      undefined,
      '98588,1',
      ';201002,1',
      undefined,
    ]);
  });

  it('keeps no extension entries unless asked, and the first of a repeated key', async () => {
    const doc = `<EventList ${NS}><Event><Name>E</Name><Extensions>${entry('K', '1')}${entry('K', '2')}${entry(
      'L',
      '3',
    )}</Extensions></Event></EventList>`;
    expect((await readEventList(bytes(doc))).events[0]!.extensions).toBeUndefined();
    expect((await readEventList(bytes(doc), { extensionKeys: ['K'] })).events[0]!.extensions).toEqual({ K: '1' });
  });

  it('reads only the values of the keys asked for: a long host message is passed over', async () => {
    const long = 'x'.repeat(100_000);
    const doc = `<EventList ${NS}><Event><Name>E</Name><Extensions>${entry('Eventor_Message', long)}${entry(
      EVENTOR_LIVELOX_KEY,
      '5,1',
    )}</Extensions></Event></EventList>`;
    const list = await readEventList(bytes(doc), { extensionKeys: [EVENTOR_LIVELOX_KEY] });
    expect(list.events[0]!.extensions).toEqual({ [EVENTOR_LIVELOX_KEY]: '5,1' });
  });

  it('takes entries only from the event’s own Extensions, not from a race’s or the list’s', async () => {
    const doc = `<EventList ${NS}><Event><Name>E</Name><Race><RaceNumber>1</RaceNumber><Extensions>${entry(
      'K',
      'race',
    )}</Extensions></Race></Event><Extensions>${entry('K', 'list')}</Extensions></EventList>`;
    const list = await readEventList(bytes(doc), { extensionKeys: ['K'] });
    expect(list.events).toHaveLength(1);
    expect(list.events[0]!.extensions).toBeUndefined();
  });

  it('refuses another IOF message, and what is not IOF', async () => {
    const start = readEventList(bytes(`<StartList ${NS}><Event><Name>E</Name></Event></StartList>`), {
      source: 's.xml',
    });
    await expect(start).rejects.toMatchObject({ reason: 'wrong_message_type', source: 's.xml' });
    await expect(readEventList(bytes('{"formatVersion":1}'))).rejects.toBeInstanceOf(InputError);
    await expect(readEventList(bytes(`<EventList ${NS}><Event>`))).rejects.toMatchObject({
      reason: 'not_well_formed',
    });
  });

  it('refuses more events than maxEvents', async () => {
    const doc = `<EventList ${NS}>${'<Event><Name>E</Name></Event>'.repeat(3)}</EventList>`;
    await expect(readEventList(bytes(doc), { maxEvents: 2 })).rejects.toMatchObject({ reason: 'too_large' });
  });
});

describe('liveloxEventIds: Eventor’s per-race configuration', () => {
  it('gives one id per race in stage order, tolerating blanks and a missing flag', () => {
    expect(liveloxEventIds('193998,1;193999,1')).toEqual([193998, 193999]);
    expect(liveloxEventIds(' 193998,1 ; 193999 ;194000,0')).toEqual([193998, 193999, 194000]);
    expect(liveloxEventIds('98588')).toEqual([98588]);
  });

  it('keeps the place of a part without a usable id', () => {
    expect(liveloxEventIds(';201002,1')).toEqual([undefined, 201002]);
    expect(liveloxEventIds('abc,1;0,1; ,1;7,1;')).toEqual([undefined, undefined, undefined, 7, undefined]);
    expect(liveloxEventIds('')).toEqual([undefined]);
  });
});

describe('readPortal: an EventList as Eventor writes it', () => {
  it('gives one portal event per race, each with its own Livelox event', async () => {
    const { events, problems } = await readPortal([LIST]);
    expect(problems).toEqual([]);
    expect(events.map((e) => [e.key, e.serviceEventId])).toEqual([
      ['eventor:49812-1', 193998],
      ['eventor:49812-2', 193999],
      ['eventor:49812-3', 194000],
      ['eventor:50001', undefined],
      ['eventor:50002', 98588],
      ['eventor:50003-1', undefined],
      ['eventor:50003-2', 201002],
      [`${LIST}#event 5`, undefined],
    ]);
    expect(events.map((e) => e.origin).slice(0, 4)).toEqual([
      `${LIST} event 1 race 1`,
      `${LIST} event 1 race 2`,
      `${LIST} event 1 race 3`,
      `${LIST} event 2`,
    ]);
  });

  it('dates and places each race, and keeps the event’s organisers, country and classes', async () => {
    const { events } = await readPortal([LIST]);
    const [day1, day2, day3, sprint] = events;
    expect(day1!.export.event).toEqual({
      name: 'Stockholm 3-dagars, Etapp 1',
      start: '2025-07-04T10:00:00+02:00',
      end: '2025-07-04T10:00:00+02:00',
      organisers: ['OK Ravinen'],
      country: 'SWE',
      position: { latitude: 59.37, longitude: 18.015 },
      externalIds: { eventor: '49812' },
    });
    expect(day2!.export.event.start).toBe('2025-07-05');
    expect(day2!.export.event.position).toBeUndefined();
    expect(day3!.export.event.position).toEqual({ latitude: 59.3257, longitude: 18.1692 });
    expect(day3!.export.classes.map((c) => c.name)).toEqual(['H21', 'D21', 'Öppen 1']);
    expect(day3!.export.format).toBe('IOF 3.0 EventList');
    // A one-race event is the event itself: its name is not doubled by the race's.
    expect(sprint!.export.event).toMatchObject({ name: 'Vårsprinten', start: '2025-04-26' });
    expect(sprint!.export.classes).toEqual([
      { id: '201', name: 'H21', entries: 0 },
      { id: '202', name: 'D21', entries: 0 },
    ]);
  });

  it('gives race n the n-th configured id by race number, whatever the order the races are listed in', async () => {
    const path = join(dir, 'reordered.xml');
    writeFileSync(
      path,
      `<EventList ${NS}><Event><Id type="Eventor">9</Id><Name>E</Name>` +
        '<Race><RaceNumber>2</RaceNumber><Name>B</Name></Race><Race><RaceNumber>1</RaceNumber><Name>A</Name></Race>' +
        `<Extensions>${entry(EVENTOR_LIVELOX_KEY, '11,1;22,1')}</Extensions></Event></EventList>`,
    );
    const { events } = await readPortal([path]);
    expect(events.map((e) => [e.key, e.serviceEventId])).toEqual([
      ['eventor:9-2', 22],
      ['eventor:9-1', 11],
    ]);
  });

  it('streams a list of 5,000 events and reads every one', async () => {
    const path = join(dir, 'big.EventList.xml');
    const parts = [`<?xml version="1.0" encoding="UTF-8"?>\n<EventList ${NS}>\n`];
    for (let i = 1; i <= 5000; i++) {
      const races =
        i % 10 === 0
          ? '<Race><RaceNumber>1</RaceNumber><Name>Dag 1</Name></Race><Race><RaceNumber>2</RaceNumber><Name>Dag 2</Name></Race>'
          : '<Race><RaceNumber>1</RaceNumber></Race>';
      const ids = i % 10 === 0 ? `${i}1,1;${i}2,1` : `${i},1`;
      parts.push(
        `<Event><Id type="Eventor">${i}</Id><Name>Tävling ${i}</Name><StartTime><Date>2025-06-01</Date></StartTime>` +
          `<Organiser><Name>Klubb ${i % 97}</Name><Country code="SWE">Sweden</Country></Organiser>` +
          `<Class><Id>1</Id><Name>H21</Name></Class><Class><Id>2</Id><Name>D21</Name></Class>${races}` +
          `<Extensions>${entry(EVENTOR_LIVELOX_KEY, ids)}</Extensions></Event>\n`,
      );
    }
    parts.push('</EventList>\n');
    writeFileSync(path, parts.join(''));
    const { events, problems } = await readPortal([path]);
    expect(problems).toEqual([]);
    // 4,500 one-race events and 500 two-race ones.
    expect(events).toHaveLength(5500);
    expect(new Set(events.map((e) => e.key)).size).toBe(5500);
    expect(events.at(-1)).toMatchObject({ key: 'eventor:5000-2', serviceEventId: 50002 });
    expect(events.find((e) => e.key === 'eventor:4999')).toMatchObject({
      serviceEventId: 4999,
      export: { event: { name: 'Tävling 4999', organisers: ['Klubb 52'] } },
    });
    expect(events.every((e) => e.export.classes.length === 2)).toBe(true);
  });
});
