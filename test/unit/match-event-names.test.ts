/**
 * Name evidence (initials, cut-short words, one word in two languages), the lift of a weak name by the rest of the
 * evidence, what counts as a plausible candidate, and the labels under which exports give Eventor ids.
 */
import { describe, expect, it } from 'vitest';
import { eventorLabel, eventorSwedenLookupId } from '../../src/ems/eventor-ids.js';
import type { EmsEvent } from '../../src/ems/source.js';
import { canonicalWord, initialsOf, nameWords, spellOutName } from '../../src/match/event-names.js';
import { kindConflict } from '../../src/match/name-kinds.js';
import {
  chooseEvent,
  dateMismatch,
  isPlausible,
  nameSimilarity,
  scoreEvents,
  type ScoredEvent,
} from '../../src/match/event.js';

describe('names written differently', () => {
  it('reads initials against the words they stand for, both ways', () => {
    expect(nameSimilarity('KLM-Cup 2024', 'Karl-Ludwig-Meyer-Pokal 2024')).toBeGreaterThan(0.8);
    expect(nameSimilarity('OR 2025', 'O-Ringen 2025')).toBeGreaterThan(0.8);
    expect(nameSimilarity('Junior World Ski Orienteering Championships', 'JWSOC')).toBeGreaterThan(0.8);
    expect(initialsOf('klm', nameWords('Karl-Ludwig-Meyer-Pokal'))).toEqual([0, 1, 2]);
    // A word the other name has is that word, not initials; one letter is no initials.
    expect(initialsOf('ok', nameWords('OK Orion Klubb'))).toBeUndefined();
    expect(initialsOf('k', nameWords('Karl Ludwig'))).toBeUndefined();
    // Initials that spell no run of the other name's words are nothing.
    expect(nameSimilarity('NSC', 'Vårserien deltävling 3')).toBeLessThan(0.2);
  });

  it('reads one word in two languages as one, and a word cut short as that word', () => {
    expect(canonicalWord('semaine')).toBe(canonicalWord('week'));
    expect(canonicalWord('suisse')).toBe(canonicalWord('swiss'));
    expect(nameSimilarity('Swiss O Week 2025', "Semaine suisse d'orientation 2025")).toBeGreaterThan(0.6);
    expect(nameSimilarity('Int. Sprint Champ.', 'International Sprint Championships')).toBeGreaterThan(0.8);
    expect(nameWords('SKIO2016 Sprint')).toEqual(['skio', '2016', 'sprint']);
    expect(nameWords('H21E 5days')).toEqual(['h21e', '5days']);
  });

  it('leaves unrelated names unrelated', () => {
    expect(nameSimilarity('Nattcupen 4', 'Vårserien deltävling 3')).toBeLessThan(0.2);
    expect(nameSimilarity('Vårsprint', 'Nattcupen')).toBeLessThan(0.2);
    expect(nameSimilarity('Swiss O Week', 'Danish Spring Cup')).toBeLessThan(0.3);
  });
});

const candidate = (id: number, parts: ScoredEvent['parts'], score: number): ScoredEvent => ({
  event: { id, name: `Event ${id}`, timeInterval: { start: '2025-04-05T08:00:00Z', end: '2025-04-05T12:00:00Z' } },
  score,
  parts,
});
const agrees = { date: 1, organiser: 1, classes: 1 };

describe('a weak name lifted by the rest of the evidence', () => {
  it('links the one candidate agreeing on date, organiser and every class when its name is weak', () => {
    const choice = chooseEvent([candidate(1, { name: 0.33, ...agrees }, 0.7)], { emsClassCount: 6 });
    expect(choice).toMatchObject({ status: 'matched', code: 'matched' });
    expect(choice.reason).toContain('date, organiser and classes agree');
  });

  it('does not lift without the classes, with too few of them, or below the name floor', () => {
    expect(chooseEvent([candidate(1, { name: 0.33, ...agrees }, 0.7)]).status).not.toBe('matched');
    expect(chooseEvent([candidate(1, { name: 0.33, ...agrees }, 0.7)], { emsClassCount: 2 }).status).not.toBe(
      'matched',
    );
    expect(
      chooseEvent([candidate(1, { name: 0.33, date: 1, organiser: 1, classes: 0.5 }, 0.6)], { emsClassCount: 6 })
        .status,
    ).not.toBe('matched');
    expect(chooseEvent([candidate(1, { name: 0.2, ...agrees }, 0.66)], { emsClassCount: 6 }).status).not.toBe(
      'matched',
    );
  });

  it("does not lift when another candidate agrees as well: the club's other event that day", () => {
    const choice = chooseEvent(
      [candidate(1, { name: 0.35, ...agrees }, 0.7), candidate(2, { name: 0.1, ...agrees }, 0.62)],
      { emsClassCount: 6 },
    );
    expect(choice.status).toBe('ambiguous');
    expect(choice.code).toBe('ambiguous');
  });

  it('lists only plausible candidates when nothing matched, and says why as data', () => {
    const unrelated = candidate(3, { name: 0.05, date: 1 }, 0.16);
    expect(isPlausible(unrelated)).toBe(false);
    const choice = chooseEvent([unrelated]);
    expect(choice).toMatchObject({ status: 'not_found', code: 'none_plausible', candidates: [] });
    expect(chooseEvent([])).toMatchObject({ status: 'not_found', code: 'no_events_in_window' });
    const twins = chooseEvent([candidate(4, { name: 1, date: 1 }, 1), candidate(5, { name: 1, date: 1 }, 1)]);
    expect(twins).toMatchObject({ status: 'ambiguous', code: 'ambiguous' });
    expect(twins.candidates).toHaveLength(2);
  });
});

describe('dates of an event given by id', () => {
  const ems = (start: string, end?: string): EmsEvent => ({
    name: 'x',
    organisers: [],
    start,
    ...(end ? { end } : {}),
  });
  const event = {
    id: 1,
    name: 'x',
    timeInterval: { start: '2025-03-08T08:00:00Z', end: '2025-03-08T13:00:00Z' },
    position: { latitude: 59, longitude: 18 },
  };
  it("names the export's days against the event's only when they do not overlap", () => {
    expect(dateMismatch(ems('2025-03-15'), event)).toEqual({ export: '2025-03-15', event: '2025-03-08' });
    expect(dateMismatch(ems('2025-03-08'), event)).toBeUndefined();
    expect(dateMismatch(ems('2025-03-07', '2025-03-09'), event)).toBeUndefined();
    expect(dateMismatch(ems('2025-03-01', '2025-03-02'), event)).toEqual({
      export: '2025-03-01 to 2025-03-02',
      event: '2025-03-08',
    });
  });
});

describe('Eventor ids as exports label them', () => {
  it('reads the labels that name an Eventor, and which one', () => {
    expect(eventorLabel('Eventor')).toEqual({});
    expect(eventorLabel('EventorSweden')).toEqual({ instance: 'SWE' });
    expect(eventorLabel('Eventor Sweden')).toEqual({ instance: 'SWE' });
    expect(eventorLabel('SOFT')).toEqual({ instance: 'SWE' });
    expect(eventorLabel('NOF')).toEqual({ instance: 'NOR' });
    expect(eventorLabel('Eventor-NOR')).toEqual({ instance: 'NOR' });
    expect(eventorLabel('IOF')).toEqual({ instance: 'IOF' });
    expect(eventorLabel('orienteering.org')).toEqual({ instance: 'IOF' });
    expect(eventorLabel('Eventor Australia')).toEqual({ instance: 'AUS' });
  });

  it('reads no Eventor in a bare country code, an event system or an empty label', () => {
    for (const label of ['SWE', 'nat', 'MeOS', 'OLA', '']) expect(eventorLabel(label), label).toBeUndefined();
  });

  it('asks Sweden only for a Swedish or unnamed Eventor of a Swedish or unstated country, one race at a time', () => {
    const ev = (externalIds: Record<string, string>, extra: Partial<EmsEvent> = {}): EmsEvent => ({
      name: 'x',
      organisers: [],
      start: '2025-06-01',
      externalIds,
      ...extra,
    });
    expect(eventorSwedenLookupId(ev({ eventor: '48001' }), undefined)).toBe('EventorSweden:48001-1');
    expect(eventorSwedenLookupId(ev({ eventor: '48001' }), 3)).toBe('EventorSweden:48001-3');
    expect(eventorSwedenLookupId(ev({ eventor: '48001' }, { country: 'NOR' }), 1)).toBeUndefined();
    expect(eventorSwedenLookupId(ev({ eventor: '48001', 'eventor.nor': '48001' }), 1)).toBeUndefined();
    expect(eventorSwedenLookupId(ev({ 'eventor.iof': '7001' }), 1)).toBeUndefined();
    expect(eventorSwedenLookupId(ev({ eventor: '48001' }, { end: '2025-06-03' }), undefined)).toBeUndefined();
    expect(eventorSwedenLookupId(ev({ eventor: 'abc' }), 1)).toBeUndefined();
  });
});

describe('look-alike names of other events, scored with real names', () => {
  const STANDARD = ['H21', 'D21', 'H35', 'D35', 'H50', 'D50'];
  const falun = { latitude: 60.61, longitude: 15.63 };
  /** `km` north of Falun. */
  const north = (km: number) => ({ latitude: falun.latitude + km / 111.2, longitude: falun.longitude });
  const choose = (
    exportName: string,
    exportOrganiser: string,
    serviceName: string,
    serviceOrganiser: string,
    km: number,
  ) => {
    const ems: EmsEvent = { name: exportName, organisers: [exportOrganiser], start: '2025-05-10', position: falun };
    const service = {
      id: 1,
      name: serviceName,
      timeInterval: { start: '2025-05-10T08:00:00Z', end: '2025-05-10T13:00:00Z' },
      organisers: [{ name: serviceOrganiser }],
      position: north(km),
      classes: STANDARD.map((name) => ({ name })),
    };
    const scored = scoreEvents(
      ems,
      STANDARD.map((name) => ({ name })),
      [service],
    );
    return { scored: scored[0]!, choice: chooseEvent(scored, { emsClassCount: STANDARD.length }) };
  };

  const others: Array<[string, string, string, string, number]> = [
    // Another club's middle 20 km away: "DM" is not "Dalarna Medel", a sprint is not a middle.
    ['DM Sprint', 'Falu OK', 'Dalarna Medel', 'Borlänge OK', 20],
    // The same club, place and classes: a middle is still not a sprint.
    ['SM Medel', 'Falu OK', 'Sprint Mästerskap', 'Falu OK', 0],
    // "Is" spells "Idre Sprint", but another club's event agrees on nothing else.
    ['Is Cup', 'Mora OK', 'Idre Sprint Cup', 'Idre IF', 10],
    // "OK" is a club, and a sprint is not a middle, whatever else agrees.
    ['OK Sprint', 'Falu OK', 'Orienteering Klubb Medel', 'Falu OK', 0],
    // A club's sprint export and its middle alone on the service: same day, place, classes, organiser.
    ['Klubbsprint', 'Falu OK', 'Klubbmedel', 'Falu OK', 0],
    // "Väst" begins "Västerås", but is not it: another club 30 km away.
    ['Väst Sprint', 'OK Väst', 'Västerås Sprint', 'Västerås SOK', 30],
    // "Var" is spring in Swedish and a French département.
    ['Spring Cup', 'Falu OK', 'Raid du Var', 'Falu OK', 0],
    // "Lång" begins "Långloppet" without being it, even the club's own.
    ['Lång', 'Falu OK', 'Långloppet', 'Falu OK', 0],
  ];
  for (const [exportName, exportOrganiser, serviceName, serviceOrganiser, km] of others) {
    it(`does not link "${exportName}" to "${serviceName}"`, () => {
      const { scored, choice } = choose(exportName, exportOrganiser, serviceName, serviceOrganiser, km);
      expect(scored.parts.date).toBe(1);
      expect(scored.parts.classes).toBe(1);
      expect(choice.status, `${choice.reason} ${JSON.stringify(scored.parts)}`).not.toBe('matched');
    });
  }

  it('links initials, a translation and a dotted word when date, organiser, place and classes agree', () => {
    for (const [exportName, serviceName] of [
      ['OR 2025', 'O-Ringen 2025'],
      ['KLM-Cup 2025', 'Karl-Ludwig-Meyer-Pokal 2025'],
      ['Swiss O Week 2025', "Semaine suisse d'orientation 2025"],
      ['Int. Sprint Champ.', 'International Sprint Championships'],
    ] as const) {
      const { choice } = choose(exportName, 'Falu OK', serviceName, 'Falu OK', 0);
      expect(choice.status, `${exportName}: ${choice.reason}`).toBe('matched');
    }
  });

  it("does not take initials or a translation as the name when another club's event is far off", () => {
    for (const [exportName, serviceName] of [
      ['OR 2025', 'O-Ringen 2025'],
      ['KLM-Cup 2025', 'Karl-Ludwig-Meyer-Pokal 2025'],
    ] as const) {
      const { choice } = choose(exportName, 'Falu OK', serviceName, 'OK Linné', 45);
      expect(choice.status, exportName).not.toBe('matched');
    }
  });

  it('reads no initials of two letters beside other words, and no cut-short word without a dot', () => {
    expect(nameSimilarity('DM Sprint', 'Dalarna Medel')).toBeLessThan(0.2);
    expect(nameSimilarity('Is Cup Mora', 'Idre Sprint Cup')).toBeLessThan(0.4);
    expect(nameSimilarity('Lång', 'Långloppet')).toBeLessThan(0.5);
    expect(nameSimilarity('Spring Cup', 'Raid du Var')).toBeLessThan(0.2);
    expect(canonicalWord('var')).toBe('var');
    expect(canonicalWord('lag')).toBe('lag');
  });
});

describe('Eventor ids of another federation in scoring', () => {
  const service = {
    id: 9,
    name: 'Holmenkollstafetten',
    timeInterval: { start: '2025-06-01T08:00:00Z', end: '2025-06-01T13:00:00Z' },
    properties: [{ key: 'eventorId', value: '48001' }],
  };
  const ems = (externalIds: Record<string, string>, country?: string): EmsEvent => ({
    name: 'Holmenkollstafetten',
    organisers: [],
    start: '2025-06-01',
    externalIds,
    ...(country ? { country } : {}),
  });
  it("never compares a Norwegian or Australian Eventor id with the service's Swedish eventorId", () => {
    for (const e of [
      ems({ eventor: '48001', 'eventor.nor': '48001' }),
      ems({ eventor: '48001' }, 'NOR'),
      ems({ eventor: '48001', 'eventor.aus': '48001' }),
      ems({ eventor: '7', 'eventor.nor': '7' }),
    ]) {
      const [s] = scoreEvents(e, [], [service]);
      expect(s!.parts.externalId, JSON.stringify(e.externalIds)).toBeUndefined();
      expect(s!.score).toBe(1);
    }
    const [swedish] = scoreEvents(ems({ eventor: '48001', 'eventor.swe': '48001' }), [], [service]);
    expect(swedish!.parts.externalId).toBe(1);
    const [bare] = scoreEvents(ems({ eventor: '7' }, 'SWE'), [], [service]);
    expect(bare!.parts.externalId).toBe(0);
  });
});

describe('words of one kind that veto', () => {
  const conflict = (a: string, b: string) => kindConflict(nameWords(a), nameWords(b));

  it('names the kind on which two names contradict', () => {
    expect(conflict('Ranking Nord-Est MD', 'Ranking Sud-Est MD')).toBe('direction');
    expect(conflict('Ranking NE 2025', 'Ranking SE 2025')).toBe('direction');
    expect(conflict('Ungdomsserien Väst', 'Ungdomsserien Öst')).toBe('direction');
    expect(conflict('Sachsen-Cup West', 'Sachsen-Cup Ost')).toBe('direction');
    expect(conflict('North West Night League', 'North East Night League')).toBe('direction');
    expect(conflict('Course nationale Vercors', 'Course régionale Vercors')).toBe('level');
    expect(conflict('Night League Round 2', 'Night League Round 3')).toBe('round');
    expect(conflict('Sachsen-Cup, 3. Lauf', 'Sachsen-Cup, 2. Lauf')).toBe('round');
    expect(conflict('Klubbsprint', 'Klubbmedel')).toBe('format');
    // The day's sprint and the night sprint that evening at the same resort.
    expect(conflict('Sprint - Les Ruires', 'Sprint de nuit - Les Ruires')).toBe('format');
    expect(conflict('Nattsprint Tyresö', 'Sprint Tyresö')).toBe('format');
  });

  it('finds no contradiction where one side is silent, agrees, or writes a year, a date, a span or a town', () => {
    expect(conflict('Ranking Nord-Est', 'Ranking Nord-Est 2025')).toBeUndefined();
    expect(conflict('Nattcupen', 'Nattcupen 3')).toBeUndefined();
    // A name with no distance says nothing about night: the night cup's sprint round is still the night cup's.
    expect(conflict('Nattcupen 3', 'Nattcupen 3 sprint')).toBeUndefined();
    expect(conflict('Night Sprint Relay', 'Night Relay')).toBeUndefined();
    expect(conflict('Stockholms 2-dagars, etapp 1', 'Stockholms 2-dagars etapp 1')).toBeUndefined();
    expect(conflict('Stockholms 2-dagars', 'Stockholms 2-dagars, etapp 2')).toBeUndefined();
    expect(conflict('Västerås Sprint', 'Östersund Sprint')).toBeUndefined();
    expect(conflict('Swiss O Week 2025', 'Swiss O Week 2024')).toBeUndefined();
    expect(conflict('Stockholm 0 pwned', 'Stockholm, etapp 2')).toBeUndefined();
  });

  it('reads a file-like name as words and a date in a name as its year', () => {
    expect(spellOutName('20250518_NEOA_Race3_Durham')).toBe('2025 NEOA Race 3 Durham');
    expect(spellOutName('NordEstRanking2025')).toBe('Nord Est Ranking2025');
    expect(spellOutName('Sprint - Les Ruires 2024-06-22')).toBe('Sprint - Les Ruires 2024');
    // Names written with spaces keep their joined words.
    expect(spellOutName('VeNotte 2020')).toBe('VeNotte 2020');
    expect(spellOutName('WRE2 Middle')).toBe('WRE2 Middle');
  });
});

describe('a vetoed candidate, said', () => {
  it('says which kind of word tells the export from the only candidate', () => {
    const ems: EmsEvent = {
      name: 'Ungdomsserien Väst, deltävling 2',
      start: '2025-04-27',
      organisers: ['Stockholms OF'],
    };
    const classes = ['H21', 'D21', 'H16', 'D16'].map((name) => ({ name }));
    const scored = scoreEvents(ems, classes, [
      {
        id: 1,
        name: 'Ungdomsserien Öst, deltävling 2',
        timeInterval: { start: '2025-04-27T08:00:00Z', end: '2025-04-27T12:00:00Z' },
        organisers: [{ name: 'Stockholms OF' }],
        classes,
      },
    ]);
    const choice = chooseEvent(scored, { emsClassCount: classes.length });
    expect(choice.status).toBe('not_found');
    expect(choice.reason).toContain('names another region');
  });
});
