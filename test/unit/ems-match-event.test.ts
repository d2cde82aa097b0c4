import { describe, expect, it } from 'vitest';
import type { EmsEvent } from '../../src/ems/source.js';
import { eventDays, writtenDateMs, writtenOffsetHours } from '../../src/ems/dates.js';
import { distinctiveWord, searchWindow } from '../../src/jobs/find-event.js';
import { chooseEvent, nameSimilarity, scoreEvents } from '../../src/match/event.js';
import type { LiveloxEvent } from '../../src/resources/events.js';

function event(id: number, name: string, start: string, end: string, extra: Partial<LiveloxEvent> = {}): LiveloxEvent {
  return { id, name, timeInterval: { start, end }, ...extra };
}

const ems = (e: Partial<EmsEvent> & { name: string }): EmsEvent => ({ organisers: [], ...e });
const STANDARD = ['H21', 'D21', 'H35', 'D35', 'H50', 'D50', 'Öppen 1', 'Öppen 2'];
const classes = (names: string[]) => names.map((name, i) => ({ id: i + 1, name }));

describe('event names', () => {
  it('weigh years and filler words down, and fold accents', () => {
    expect(nameSimilarity('OK Linnés Vårtävling 2025', 'OK Linnés vartavling')).toBeGreaterThan(0.9);
    expect(nameSimilarity('Nattcupen 4', 'Vårserien deltävling 3')).toBeLessThan(0.2);
    // Stage numbers count: day 1 is not day 2.
    expect(nameSimilarity('JK 2022, Day 2', 'JK 2022, Day 2')).toBe(1);
    expect(nameSimilarity('JK 2022, Day 2', 'JK 2022, Day 1')).toBeLessThan(
      nameSimilarity('JK 2022, Day 2', 'JK 2022 Day 2'),
    );
  });

  it('search for the most telling word in its original spelling', () => {
    expect(distinctiveWord('Stockholms 2-dagars 2022, etapp 2')).toBe('Stockholms');
    expect(distinctiveWord('Närtävling')).toBe('Närtävling');
    expect(distinctiveWord('OL 2024')).toBeUndefined();
  });
});

describe('choosing an event', () => {
  it('never takes the only event of the day when its name is another event', () => {
    const scored = scoreEvents(
      ems({ name: 'Nattcupen 4', start: '2024-10-12' }),
      STANDARD.map((name) => ({ name })),
      [
        event(1, 'Vårserien deltävling 3', '2024-10-12T16:00:00Z', '2024-10-12T19:00:00Z', {
          classes: classes(STANDARD),
        }),
      ],
    );
    expect(scored[0]!.parts).toMatchObject({ date: 1, classes: 1 });
    const choice = chooseEvent(scored);
    // Not found, not "ambiguous": one candidate whose name is another event's competes with nothing (issue 12).
    expect(choice.status).toBe('not_found');
    expect(choice.reason).toMatch(/name/);
  });

  it("takes the only event of the day when its name is the export's", () => {
    const scored = scoreEvents(
      ems({ name: 'Nattcupen, deltävling 4', start: '2024-10-12' }),
      [],
      [event(1, 'Nattcupen 4', '2024-10-12T16:00:00Z', '2024-10-12T19:00:00Z')],
    );
    expect(chooseEvent(scored).status).toBe('matched');
  });

  it('does not choose for an export without a name unless an id settles it', () => {
    const day = [
      event(1, 'Sprint', '2024-10-12T08:00:00Z', '2024-10-12T12:00:00Z', {
        properties: [{ key: 'eventorId', value: '7' }],
      }),
    ];
    expect(chooseEvent(scoreEvents(ems({ name: '', start: '2024-10-12' }), [], day)).reason).toMatch(/names no event/);
    const withId = scoreEvents(ems({ name: '', start: '2024-10-12', externalIds: { eventor: '7' } }), [], day);
    expect(chooseEvent(withId).status).toBe('matched');
  });

  it('halves the score of an event whose federation id is another', () => {
    const [scored] = scoreEvents(
      ems({ name: 'Sprint', start: '2024-10-12', externalIds: { eventor: '8' } }),
      [],
      [
        event(1, 'Sprint', '2024-10-12T08:00:00Z', '2024-10-12T12:00:00Z', {
          properties: [{ key: 'eventorId', value: '7' }],
        }),
      ],
    );
    expect(scored!.parts.externalId).toBe(0);
    expect(scored!.score).toBe(0.5);
  });

  it("reads the export's local day by its own UTC offset, far from Europe too", () => {
    const service = [event(1, 'Summer Series 3', '2024-01-05T20:00:00Z', '2024-01-05T23:00:00Z')];
    // 09:00 on the 6th in New Zealand is 20:00 on the 5th in UTC.
    const [nz] = scoreEvents(ems({ name: 'Summer Series 3', start: '2024-01-06T09:00:00+13:00' }), [], service);
    expect(nz!.parts.date).toBe(1);
    const [us] = scoreEvents(ems({ name: 'Summer Series 3', start: '2024-01-05T12:00:00-08:00' }), [], service);
    expect(us!.parts.date).toBe(1);
  });
});

describe('dates as exports write them', () => {
  it('refuses days that do not exist, and reads offsets', () => {
    expect(writtenDateMs('2025-02-30')).toBeUndefined();
    expect(writtenDateMs('2024-02-29')).toBe(Date.UTC(2024, 1, 29));
    expect(writtenOffsetHours('2024-01-06T09:00:00+13:00')).toBe(13);
    expect(writtenOffsetHours('2024-01-06T09:00:00-0330')).toBe(-3.5);
    expect(writtenOffsetHours('2024-01-06T09:00:00Z')).toBe(0);
    expect(writtenOffsetHours('2024-01-06T09:00:00')).toBeUndefined();
    expect(writtenOffsetHours('2024-01-06')).toBeUndefined();
  });

  it('searches every written day, whichever order start and end come in, or from the end alone', () => {
    const days = (s?: string, e?: string) => {
      const w = searchWindow(ems({ name: 'x', ...(s ? { start: s } : {}), ...(e ? { end: e } : {}) }));
      return w && [w.from.toISOString().slice(0, 10), w.to.toISOString().slice(0, 10)];
    };
    expect(days('2024-01-06', '2024-01-08')).toEqual(['2024-01-05', '2024-01-10']);
    expect(days('2024-01-08', '2024-01-06')).toEqual(['2024-01-05', '2024-01-10']);
    expect(days(undefined, '2024-01-08')).toEqual(['2024-01-07', '2024-01-10']);
    expect(days()).toBeUndefined();
    expect(eventDays('2024-01-08', '2024-01-06')).toEqual(eventDays('2024-01-06', '2024-01-08'));
  });
});
