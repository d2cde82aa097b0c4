/**
 * The class-name conventions of issue 12, one describe per convention family: German and Swiss words and long forms,
 * abbreviated open and beginner classes, course-named classes, relay legs numbered after the relay's name, and level
 * letters written apart. Each family has its look-alikes that must stay apart (unmapped rather than wrong).
 */
import { describe, expect, it } from 'vitest';
import type { EmsClass } from '../../src/ems/source.js';
import type { ClassMapping, ServiceClass } from '../../src/match/class-mapping.js';
import { classKey, describeClassName, parseClassName } from '../../src/match/class-names.js';
import { classConflicts } from '../../src/match/class-similarity.js';
import { isRelayEvent, matchClasses } from '../../src/match/classes.js';

function expectSameKey(names: readonly string[]): void {
  const keys = names.map((n) => [n, classKey(n)] as const);
  for (const [name, key] of keys) expect({ name, key }).toEqual({ name, key: keys[0]![1] });
}

function expectApart(pairs: readonly (readonly [string, string])[]): void {
  for (const [a, b] of pairs) expect({ a, b, same: classKey(a) === classKey(b) }).toEqual({ a, b, same: false });
}

const serviceClasses = (...names: string[]): ServiceClass[] => names.map((name, i) => ({ id: 101 + i, name }));
const emsClasses = (...names: string[]): EmsClass[] => names.map((name) => ({ name }));
const pairs = (mapping: ClassMapping): Record<string, string> =>
  Object.fromEntries(mapping.matches.map((m) => [m.ems.name, m.service.name]));

describe('German and Swiss gender and age-group words', () => {
  it('reads Herren/Damen, Männer/Frauen, Junioren/Juniorinnen, Senioren/Seniorinnen, Knaben/Mädchen as genders', () => {
    expectSameKey(['H21', 'Herren 21', 'Männer 21', 'Maenner 21']);
    expectSameKey(['D35', 'Damen 35', 'Frauen 35']);
    expectSameKey(['H18', 'Junioren 18']);
    expectSameKey(['D18', 'Juniorinnen 18']);
    expectSameKey(['H45', 'Senioren 45']);
    expectSameKey(['D45', 'Seniorinnen 45']);
    expectSameKey(['H14', 'Knaben 14']);
    expectSameKey(['D14', 'Mädchen 14', 'Maedchen 14']);
  });

  it('reads the long form printed beside the code as the same class, not as extra words', () => {
    expectSameKey(['H21', 'H21 (Herren 21)', 'Herren 21 (H21)', 'H21 - Herren 21']);
    expectSameKey(['D45', 'D45 Damen 45']);
    expectSameKey(['H21E', 'HE (Herren Elite)', 'Herren Elite', 'H Elite', 'H21E Herren 21 Elite']);
    expectSameKey(['D21E', 'D Elite', 'Damen Elite']);
  });

  it('reads the Swiss level-and-length codes and their long forms alike', () => {
    expectSameKey(['HAL', 'Herren A lang', 'HAL (Herren A Lang)']);
    expectSameKey(['DAK', 'Damen A kurz']);
    expectSameKey(['HAM', 'Herren A mittel']);
    expectSameKey(['HB', 'Herren B']);
    expectSameKey(['OK', 'Offen kurz']);
    expectSameKey(['OL', 'Offen lang']);
  });

  it('keeps classes whose long form says another gender, age, level or length apart', () => {
    expectApart([
      ['Herren 21', 'Damen 21'],
      ['Junioren 18', 'Juniorinnen 18'],
      ['Senioren 45', 'Seniorinnen 45'],
      ['Knaben 14', 'Mädchen 14'],
      ['H21 (Herren 21)', 'H20'],
      ['HAL', 'Herren A kurz'],
      ['HAL', 'Herren B'],
      ['Herren Elite', 'Herren 21'],
      ['OK', 'OL'],
      ['H35 Herren 40', 'H35'],
    ]);
  });

  it('maps a Belgian export to German long forms and Swiss codes on the service', () => {
    const mapping = matchClasses(
      emsClasses('H21', 'D21', 'HE', 'DE', 'H-16', 'D-16', 'H45', 'D45'),
      serviceClasses(
        'Herren 21',
        'Damen 21',
        'Herren Elite',
        'Damen Elite',
        'H16 (Knaben 16)',
        'D16 (Mädchen 16)',
        'H45 Senioren 45',
        'D45 Seniorinnen 45',
      ),
    );
    expect(pairs(mapping)).toEqual({
      H21: 'Herren 21',
      D21: 'Damen 21',
      HE: 'Herren Elite',
      DE: 'Damen Elite',
      'H-16': 'H16 (Knaben 16)',
      'D-16': 'D16 (Mädchen 16)',
      H45: 'H45 Senioren 45',
      D45: 'D45 Seniorinnen 45',
    });
  });
});

describe('abbreviated open and beginner classes', () => {
  it('reads the Swedish Ö1..Ö9 and O1 as Öppen 1..9, and Norwegian lettered open classes', () => {
    expectSameKey(['Ö1', 'O1', 'Öppen 1', 'Åpen 1', 'Open 1']);
    expectSameKey(['Ö9', 'Öppen 9']);
    expectSameKey(['N-åpen', 'Åpen N', 'Open N']);
    expectSameKey(['C-åpen', 'Öppen C']);
    expectApart([
      ['Ö1', 'Ö2'],
      ['O1', 'Öppen 3'],
      ['N-åpen', 'C-åpen'],
      ['Ö1', 'Inskolning'],
    ]);
  });

  it('reads the Finnish AV (avoin), RR (rastiralli) and Kunto', () => {
    expectSameKey(['AV', 'Avoin', 'Open']);
    expectSameKey(['AV 2', 'Avoin 2', 'Öppen 2']);
    expectSameKey(['RR', 'Rastiralli']);
    expectSameKey(['Kunto', 'Motion']);
    expectApart([
      ['AV 1', 'AV 2'],
      ['RR', 'Inskolning'],
    ]);
  });

  it('reads the Danish, Swedish, Norwegian, German and English course difficulty words alike', () => {
    expectSameKey(['Let', 'Lätt', 'Lett', 'Leicht', 'Easy']);
    expectSameKey(['Mellemsvær', 'Medelsvår']);
    expectSameKey(['Svær', 'Svår', 'Schwer', 'Difficult']);
    expectSameKey(['Begynder', 'Nybörjare', 'Beginner']);
    expectApart([
      ['Let', 'Svær'],
      ['Let', 'Mellemsvær'],
      ['Begynder', 'Let'],
    ]);
  });

  it('reads the Swedish youth classes U1..U4 and Ungdom 1..4 alike, and keeps them apart from each other', () => {
    expectSameKey(['U1', 'Ungdom 1']);
    expectApart([
      ['U1', 'U2'],
      ['U1', 'Ö1'],
      ['Ungdom 2', 'H16'],
    ]);
  });

  it('maps Swedish abbreviations to Norwegian and English names on the service', () => {
    const mapping = matchClasses(
      emsClasses('Ö1', 'Ö2', 'Ö3', 'Let', 'Svær'),
      serviceClasses('Åpen 3', 'Open 1', 'Öppen 2', 'Easy', 'Difficult'),
    );
    expect(pairs(mapping)).toEqual({ Ö1: 'Open 1', Ö2: 'Öppen 2', Ö3: 'Åpen 3', Let: 'Easy', Svær: 'Difficult' });
  });
});

describe('course-named classes', () => {
  it('reads the course letter or number, whatever the language of the course word', () => {
    expectSameKey(['Bahn A', 'Course A', 'Bane A', 'Bana A', 'Parcours A', 'Rata A']);
    expectSameKey(['Course 3', 'Bana 3', 'Bane 3', 'Rata 3', 'Parcours 3', 'Bahn 3', 'COURSE-3', 'Course 03']);
    expect(parseClassName('Bahn A')).toMatchObject({ course: 'A', words: [] });
    expect(parseClassName('Bahn A').level).toBeUndefined();
    expect(describeClassName(parseClassName('Bane 5'))).toBe('course 5');
  });

  it('keeps courses of another letter or number apart, and a course apart from a level', () => {
    expectApart([
      ['Bahn A', 'Bahn B'],
      ['Course 3', 'Course 4'],
      ['Bahn A', 'Course 1'],
      ['Bahn A', 'H21A'],
      ['Course 3', 'Öppen 3'],
      ['Circuit jaune', 'Circuit A'],
    ]);
    expect(classConflicts(parseClassName('Bahn A'), parseClassName('Course B'))).toEqual(['course']);
  });

  it('maps a German course-named class to the English one of the same letter', () => {
    const mapping = matchClasses(emsClasses('Bahn A', 'Bahn B', 'Bahn C'), serviceClasses('Course C', 'Course A'));
    expect(pairs(mapping)).toEqual({ 'Bahn A': 'Course A', 'Bahn C': 'Course C' });
    expect(mapping.unmatchedEms.map((u) => u.ems.name)).toEqual(['Bahn B']);
  });

  it('leaves Bahn A and Bahn B unmapped rather than wrong when the service has only other courses', () => {
    const mapping = matchClasses(emsClasses('Bahn A', 'Bahn B'), serviceClasses('Course C', 'Course D'));
    expect(mapping.matches).toEqual([]);
  });
});

describe('relay legs numbered after the relay name', () => {
  const withLegs = (legs: number, ...names: string[]): EmsClass[] => names.map((name) => ({ name, legs }));

  it('maps H21-1, H21-2, H21-3 to the relay class the service keeps as one when the export gives the legs', () => {
    const mapping = matchClasses(
      [...withLegs(3, 'H21-1', 'H21-2', 'H21-3'), ...withLegs(2, 'D21-1', 'D21-2')],
      serviceClasses('M21', 'W21'),
    );
    expect(pairs(mapping)).toEqual({
      'H21-1': 'M21',
      'H21-2': 'M21',
      'H21-3': 'M21',
      'D21-1': 'W21',
      'D21-2': 'W21',
    });
    expect(mapping.matches.every((m) => m.method === 'normalised')).toBe(true);
    expect(mapping.matches[1]!.reason).toContain("leg 2 of 3 (the number after 'H21')");
    expect(mapping.matches[1]!.reason).toContain("the event system gives 'H21-2' 3 legs");
    expect(mapping.unmatchedService).toEqual([]);
  });

  it('maps numbered gender classes as legs when the caller knows the event is a relay', () => {
    const names = emsClasses('H21-1', 'H21-2', 'D21 1', 'D21 2');
    const relay = matchClasses(names, serviceClasses('H21', 'D21'), { relayEvent: true });
    expect(pairs(relay)).toEqual({ 'H21-1': 'H21', 'H21-2': 'H21', 'D21 1': 'D21', 'D21 2': 'D21' });
    expect(relay.matches[0]!.reason).toContain('the event is a relay');
    // The same event not known to be a relay: the numbers may be heats, so nothing merges.
    expect(matchClasses(names, serviceClasses('H21', 'D21')).matches).toEqual([]);
  });

  it('maps legs written with a space or a spaced hyphen, and legs of a relay-word class', () => {
    const spaced = matchClasses(emsClasses('Herren 21 1', 'Herren 21 2'), serviceClasses('H21 Staffel'));
    expect(pairs(spaced)).toEqual({ 'Herren 21 1': 'H21 Staffel', 'Herren 21 2': 'H21 Staffel' });
    const hyphen = matchClasses(withLegs(2, 'D45 - 1', 'D45 - 2'), serviceClasses('Damen 45'));
    expect(pairs(hyphen)).toEqual({ 'D45 - 1': 'Damen 45', 'D45 - 2': 'Damen 45' });
    const relay = matchClasses(emsClasses('Youth-1', 'Youth-2'), serviceClasses('Youth Relay'));
    expect(pairs(relay)).toEqual({ 'Youth-1': 'Youth Relay', 'Youth-2': 'Youth Relay' });
    const word = matchClasses(emsClasses('H21 Stafett-1', 'H21 Stafett-2'), serviceClasses('H21'));
    expect(pairs(word)).toEqual({ 'H21 Stafett-1': 'H21', 'H21 Stafett-2': 'H21' });
    const declared = matchClasses(withLegs(2, 'Famille-1', 'Famille-2'), serviceClasses('Famille'));
    expect(pairs(declared)).toEqual({ 'Famille-1': 'Famille', 'Famille-2': 'Famille' });
    // The same names without a relay on either side are two classes.
    expect(matchClasses(emsClasses('Famille-1', 'Famille-2'), serviceClasses('Famille')).matches).toEqual([]);
  });

  it('keeps numbered individual classes (heats, start groups) unmapped rather than merged onto one class', () => {
    const individual: string[][] = [
      ['H21-1', 'H21-2'],
      ['H21 1', 'H21 2', 'D21 1', 'D21 2'],
      ['Herren 1', 'Herren 2'],
      ['H12-1', 'H12-2'],
      ['Herren 21 1', 'Herren 21 2'],
      ['D45 - 1', 'D45 - 2'],
    ];
    for (const names of individual) {
      const mapping = matchClasses(emsClasses(...names), serviceClasses('H21', 'D21', 'Herren', 'H12', 'Damen 45'));
      expect({ names, matches: mapping.matches.map((m) => `${m.ems.name} -> ${m.service.name}`) }).toEqual({
        names,
        matches: [],
      });
      // No service class ends up with two of them, whatever else maps.
      const taken = mapping.matches.map((m) => m.service.id);
      expect(new Set(taken).size).toBe(taken.length);
    }
  });

  it('does not read a numbered class as a leg past the legs the export gives, nor a one-leg class', () => {
    expect(matchClasses(withLegs(2, 'H21-1', 'H21-2', 'H21-3'), serviceClasses('H21')).matches).toEqual([]);
    expect(matchClasses(withLegs(1, 'H21-1', 'H21-2'), serviceClasses('H21')).matches).toEqual([]);
  });

  it('does not give a numbered class the service class an individual class of that name has', () => {
    const mapping = matchClasses(withLegs(2, 'H21', 'H21-1', 'H21-2'), serviceClasses('H21'));
    expect(pairs(mapping)).toEqual({ H21: 'H21' });
    expect(mapping.unmatchedEms.map((u) => u.ems.name)).toEqual(['H21-1', 'H21-2']);
  });

  it('does not read a lone numbered class, or numbers that are no set from 1, as relay legs', () => {
    expect(matchClasses(withLegs(3, 'H21-1'), serviceClasses('H21')).matches).toEqual([]);
    expect(matchClasses(withLegs(3, 'H21-2', 'H21-3'), serviceClasses('H21')).matches).toEqual([]);
  });

  it('does not read numbered classes without a gender or a relay as legs (Scuola 1..4 are four classes)', () => {
    const mapping = matchClasses(emsClasses('Scuola 1', 'Scuola 2', 'Scuola 3'), serviceClasses('Scuola'), {
      relayEvent: true,
    });
    expect(mapping.matches).toEqual([]);
  });

  it('keeps open and course numbers as what they are, not legs, even in a relay event', () => {
    const relayEvent = { relayEvent: true };
    expect(matchClasses(emsClasses('Öppen 1', 'Öppen 2'), serviceClasses('Öppen'), relayEvent).matches).toEqual([]);
    expect(matchClasses(emsClasses('Bana 1', 'Bana 2'), serviceClasses('Bana'), relayEvent).matches).toEqual([]);
  });

  it('does not map legs when the service has two classes of the relay name', () => {
    const mapping = matchClasses(withLegs(2, 'H21-1', 'H21-2'), serviceClasses('M21', 'Herren 21'));
    expect(mapping.matches).toEqual([]);
  });
});

describe('level letters and elite markers written apart', () => {
  it('reads a level or length letter with or without a space or hyphen', () => {
    expectSameKey(['H21E', 'H21 E', 'H21-E', 'H 21 E', 'H 21 Elite', 'H21 Elite', 'H21-Elite']);
    expectSameKey(['D21A', 'D21 A', 'D21-A', 'D 21 A']);
    expectSameKey(['H21K', 'H21 K', 'H21-K', 'H21 Kort', 'H21 Kurz', 'H21-Kurz']);
    expectSameKey(['D10B', 'D10 B', 'D10-B']);
  });

  it('keeps the levels and lengths apart, and a level apart from none', () => {
    expectApart([
      ['H21-E', 'H21-A'],
      ['H21 A', 'H21 B'],
      ['H21-K', 'H21-L'],
      ['H21 E', 'H21'],
      ['D21-A', 'D21'],
    ]);
  });

  it('maps IOF-style codes to hyphenated level letters on the service', () => {
    const mapping = matchClasses(
      emsClasses('M21E', 'M21A', 'W21E', 'W21A', 'M21'),
      serviceClasses('H21-E', 'H21 A', 'D 21 Elite', 'D21-A', 'H 21'),
    );
    expect(pairs(mapping)).toEqual({
      M21E: 'H21-E',
      M21A: 'H21 A',
      W21E: 'D 21 Elite',
      W21A: 'D21-A',
      M21: 'H 21',
    });
  });
});

describe('words that only lean to a gender', () => {
  it('reads Junioren and Senioren beside another gender word as that gender (Dutch Dames Junioren)', () => {
    expectSameKey(['Dames Junioren 20', 'D20', 'Damen Junioren 20']);
    expectSameKey(['Heren Senioren 40', 'H40']);
    expect(parseClassName('Dames Junioren').gender).toBe('W');
    expect(parseClassName('Junioren Dames').gender).toBe('W');
    expect(parseClassName('Senioren').gender).toBe('M');
  });
});

describe('isRelayEvent: when numbered gender classes may be the legs of one relay class', () => {
  it('reads a relay word in either event name, or the service event discipline', () => {
    expect(isRelayEvent('Mälardalsstafetten', { name: 'Malardalen' })).toBe(true);
    expect(isRelayEvent(undefined, { name: 'Jukola Relay 2025' })).toBe(true);
    expect(
      isRelayEvent('Klubbkväll', { name: 'Klubbkväll', properties: [{ key: 'discipline', value: 'Relay' }] }),
    ).toBe(true);
  });

  it('is false for an individual race, so that heats numbered H21-1, H21-2 stay apart', () => {
    expect(
      isRelayEvent('Vårsprinten', { name: 'Vårsprinten', properties: [{ key: 'discipline', value: 'Sprint' }] }),
    ).toBe(false);
    const mapping = matchClasses(
      [{ name: 'H21-1' }, { name: 'H21-2' }],
      [
        { id: 1, name: 'H21' },
        { id: 2, name: 'D21' },
      ],
      { relayEvent: isRelayEvent('Vårsprinten', { name: 'Vårsprinten' }) },
    );
    expect(mapping.matches).toEqual([]);
  });
});
