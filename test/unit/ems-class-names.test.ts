import { describe, expect, it } from 'vitest';
import { classKey, describeClassName, parseClassName } from '../../src/match/class-names.js';
import { classConflicts, classSimilarity } from '../../src/match/class-similarity.js';

/** Every name of a group must share one key. */
function expectSameKey(names: readonly string[]): void {
  const keys = names.map((n) => [n, classKey(n)] as const);
  for (const [name, key] of keys) expect({ name, key }).toEqual({ name, key: keys[0]![1] });
}

const similarity = (a: string, b: string) => classSimilarity(parseClassName(a), parseClassName(b));

describe('classKey: gender conventions', () => {
  it('reads H/D (Nordic, Swiss, German, Czech) and M/W (IOF, British) as one gender', () => {
    expectSameKey(['H21', 'M21']);
    expectSameKey(['D21', 'W21']);
  });

  it('reads gender words of many languages', () => {
    expectSameKey(['H21', 'Men 21', 'Herrar 21', 'Herrer 21', 'Herren 21', 'Heren 21', 'Hommes 21']);
    expectSameKey(['D21', 'Women 21', 'Damer 21', 'Damen 21', 'Dames 21', 'Femmes 21']);
  });

  it("reads possessive Men's and Women's like Men and Women", () => {
    expectSameKey(["Men's Open", 'Mens Open', 'Men Open']);
    expectSameKey(["Women's Open", 'Women Open']);
    expect(classKey("Men's Open")).not.toBe(classKey("Women's Open"));
  });

  it('reads the Finnish and Estonian N (naiset) as women only with an age', () => {
    expectSameKey(['N21', 'D21', 'W21']);
    expectSameKey(['N35', 'D35']);
    expectSameKey(['N21E', 'D21E']);
  });

  it("keeps Norway's N-åpen a newcomers' open class, not a women's class", () => {
    const parsed = parseClassName('N-åpen');
    expect(parsed.gender).toBeUndefined();
    expect(parsed).toMatchObject({ open: true, number: 'N' });
    expect(classKey('N-åpen')).not.toBe(classKey('D-åpen'));
    expect(classKey('N-åpen')).not.toBe(classKey('C-åpen'));
    expect(classKey('N-åpen')).not.toBe(classKey('Åpen'));
  });

  it('reads a gender letter before an open word as the gender (HELGA H. Open, D Open), other letters as the class', () => {
    expect(classKey('H. Open')).toBe(classKey('Men Open'));
    expect(classKey('D Open')).toBe(classKey('Dames Open'));
    expect(classKey('H. Open')).not.toBe(classKey('D Open'));
    expect(classKey('C-åpen')).not.toBe(classKey('Men Open'));
  });

  it('reads girls and boys with an age as women and men', () => {
    expectSameKey(['Girls 14', 'D14', 'W14']);
    expectSameKey(['Boys 12', 'H12']);
  });

  it('reads F with an age as women, and mixed classes as X', () => {
    expectSameKey(['F21', 'D21']);
    expectSameKey(['Mix', 'Mixte', 'Mixed']);
    expect(parseClassName('HD165')).toMatchObject({ gender: 'X', age: 165 });
    expect(parseClassName('Herrer/Damer 10')).toMatchObject({ gender: 'X', age: 10 });
  });

  it('reads Norwegian Menn, Kvinner, Gutter and Jenter as men, women, boys and girls', () => {
    expectSameKey(['Menn 21', 'H21', 'M21']);
    expectSameKey(['Kvinner 21', 'D21', 'W21']);
    expectSameKey(['Gutter 12', 'H12']);
    expectSameKey(['Jenter 12', 'D12']);
    expectSameKey(['Menn Elite', 'H21E']);
  });

  it('reads Danish Herre, Herrer, Mænd, Dame, Damer, Kvinder, Drenge and Piger', () => {
    expectSameKey(['Herre 21', 'Herrer 21', 'Mænd 21', 'H21']);
    expectSameKey(['Dame 21', 'Damer 21', 'Kvinder 21', 'D21']);
    expectSameKey(['Drenge 12', 'H12']);
    expectSameKey(['Piger 12', 'D12']);
  });

  it('reads Swedish singular Herr and Dam with an age as men and women, not as the Swiss code DAM', () => {
    expectSameKey(['Herr 21', 'Herrar 21', 'M21']);
    expectSameKey(['Dam 21', 'Damer 21', 'W21']);
    expect(parseClassName('Dam 21')).toMatchObject({ gender: 'W', age: 21, words: [] });
    expect(parseClassName('Dam 21').level).toBeUndefined();
    expectSameKey(['Dam Elit', 'D21E']);
  });

  it('reads a three-letter Swiss code only as a lone word without a number after it', () => {
    expect(parseClassName('DAM')).toMatchObject({ gender: 'W', level: 'A', length: 'M' });
    expect(parseClassName('Klass DAM')).toMatchObject({ gender: 'W', level: 'A', length: 'M' });
    expect(parseClassName('HAL 21').level).toBeUndefined();
    expect(classKey('HAL 21')).not.toBe(classKey('HAL'));
    expect(classKey('Dam 21')).not.toBe(classKey('DAM'));
  });

  it('reads combined gender codes H/D, D/H, M/W and HD with an age as the mixed class of that age', () => {
    expectSameKey(['H/D 10', 'HD10', 'HD 10', 'M/W 10', 'D/H 10', 'W/M10', 'Herrer/Damer 10']);
    expect(parseClassName('M/W 12')).toMatchObject({ gender: 'X', age: 12, words: [] });
    expectSameKey(['D/H 12', 'H/D 12', 'Gutter/Jenter 12']);
    expect(classKey('H/D 10')).not.toBe(classKey('H/D 12'));
    expect(classKey('H/D 10')).not.toBe(classKey('H10'));
    expect(classKey('H/D 10')).not.toBe(classKey('D10'));
  });
});

describe('classKey: ages', () => {
  it('reads H21, H 21, H-21, M21-, Men 21 and Herrar 21 as one class', () => {
    expectSameKey(['H21', 'H 21', 'H-21', 'M21-', 'Men 21', 'Herrar 21', 'h21']);
  });

  it('reads H-16, H16, U16 Men and Boys U16 as one class, keeping the under mark in the parse', () => {
    expectSameKey(['H-16', 'H16', 'U16 Men', 'Boys U16', 'H16-']);
    expect(parseClassName('H-16').ageMode).toBe('under');
    expect(parseClassName('U16 Men').ageMode).toBe('under');
    expect(parseClassName('H16').ageMode).toBeUndefined();
  });

  it('reads veteran styles H35, M35, W35+ and D 35', () => {
    expectSameKey(['H35', 'M35', 'Men 35']);
    expectSameKey(['W35+', 'D 35', 'D35', 'Damer 35']);
    expect(parseClassName('W35+').ageMode).toBe('up');
  });

  it('reads an age range as a class of its own', () => {
    expect(parseClassName('H13-16')).toMatchObject({ gender: 'M', age: 13, ageTo: 16 });
    expect(classKey('H13-16')).not.toBe(classKey('H16'));
    expect(classKey('H13-16')).not.toBe(classKey('H-16'));
  });

  it('keeps Swedish U1 and U2 youth classes as words, not ages', () => {
    expect(parseClassName('U1')).toMatchObject({ words: ['u', '1'] });
    expect(parseClassName('U1').age).toBeUndefined();
    expect(classKey('U1')).not.toBe(classKey('U2'));
    expectSameKey(['U1', 'u 1']);
    expect(parseClassName('Under 1').age).toBeUndefined();
  });

  it('keeps the age of U12, U 16 and Under 16 without a gender, so U16 = U 16 = Under 16', () => {
    expect(parseClassName('U12')).toMatchObject({ age: 12, ageMode: 'under', words: [] });
    expect(parseClassName('U12').gender).toBeUndefined();
    expectSameKey(['U16', 'U 16', 'Under 16', 'U-16', 'under 16']);
    expect(parseClassName('Under 16')).toMatchObject({ age: 16, ageMode: 'under', words: [] });
    expect(classKey('U16')).not.toBe(classKey('U18'));
    expect(classKey('U16')).not.toBe(classKey('H16'));
    expect(classKey('U16')).not.toBe(classKey('16'));
    expect(classKey('Under 16')).not.toBe(classKey('Under'));
  });

  it('reads Under 16 Men and Men Under 16 as H-16', () => {
    expectSameKey(['H-16', 'Under 16 Men', 'Men Under 16', 'U 16 Men', 'M16']);
    expect(parseClassName('Men Under 16')).toMatchObject({ gender: 'M', age: 16, ageMode: 'under', words: [] });
    expectSameKey(['Under 14 Women', 'D-14']);
  });

  it('keeps relay age sums (H120, HD165) as ages', () => {
    expect(parseClassName('H120')).toMatchObject({ gender: 'M', age: 120 });
    expect(classKey('H120')).not.toBe(classKey('D120'));
  });
});

describe('classKey: levels and course lengths', () => {
  it('reads elite as E, with or without the age 21', () => {
    expectSameKey(['H21E', 'H21 Elit', 'M21E', 'Men Elite', 'Men 21 Elite', 'Herrar Elit', 'Herren Elite', 'HE', 'ME']);
    expectSameKey(['D21E', 'D21 Elit', 'W21E', 'Women Elite', 'Damer Elit', 'DE', 'WE']);
  });

  it('reads short as one length: K, Kort, S, Short, kurz', () => {
    expectSameKey(['H21K', 'H21 Kort', 'M21S', 'Men 21 Short', 'H21 kurz']);
    expectSameKey(['D21K', 'D21 Kort', 'W21S']);
  });

  it('reads long as one length: L, Lång, Lang, Long', () => {
    expectSameKey(['M21L', 'H21 Lång', 'H21 Lang', 'Men 21 Long']);
  });

  it('reads Swiss level-and-length classes (HAL lang, HAM mittel, HAK kurz) and their long forms', () => {
    expectSameKey(['HAL', 'Herren A lang', 'H A Lang']);
    expectSameKey(['DAL', 'Damen A lang']);
    expectSameKey(['HAM', 'Herren A mittel']);
    expectSameKey(['HAK', 'Herren A kurz']);
    expect(parseClassName('HAK')).toMatchObject({ gender: 'M', level: 'A', length: 'S' });
    expect(parseClassName('HAM')).toMatchObject({ gender: 'M', level: 'A', length: 'M' });
    expect(parseClassName('HB')).toMatchObject({ gender: 'M', level: 'B' });
    expect(parseClassName('DAM')).toMatchObject({ gender: 'W', level: 'A', length: 'M' });
  });

  it('reads Czech A/B/C levels and N newcomers', () => {
    expect(parseClassName('H21A')).toMatchObject({ gender: 'M', age: 21, level: 'A' });
    expect(parseClassName('D21C')).toMatchObject({ gender: 'W', age: 21, level: 'C' });
    expectSameKey(['H10N', 'H10 N']);
    expectSameKey(['H21 A', 'H21A']);
  });

  it('reads Norwegian A-kort and A-lang as level A with a length', () => {
    expect(parseClassName('A-kort')).toMatchObject({ level: 'A', length: 'S' });
    expect(classKey('A-kort')).not.toBe(classKey('A-lang'));
  });

  it('reads Motion and Motionsklass as the recreational level', () => {
    expectSameKey(['Motion', 'Motionsklass']);
    expectSameKey(['Motion Kort', 'Motionsklass kort']);
    expect(parseClassName('Motion').level).toBe('R');
  });

  it('keeps unknown letters after an age as a word (Finnish H12TR)', () => {
    expect(parseClassName('H12TR')).toMatchObject({ gender: 'M', age: 12, words: ['tr'] });
    expect(classKey('H12TR')).not.toBe(classKey('H12'));
  });
});

describe('classKey: open classes', () => {
  it('reads Öppen, Åpen, Open, Offen, Avoin, Ouvert and Åben with a number as one class', () => {
    expectSameKey(['Öppen 1', 'Open 1', 'Åpen 1', 'Offen 1', 'Avoin 1', 'Ouvert 1', 'Åben 1']);
  });

  it('ignores case, accents and the space between word and number', () => {
    expectSameKey(['Öppen 1', 'oppen 1', 'ÖPPEN1', 'Open1', 'OPEN 01']);
  });

  it('reads a letter next to the open word as the open class', () => {
    expectSameKey(['C-åpen', 'Open C', 'Öppen C']);
    expect(parseClassName('B-åpen')).toMatchObject({ open: true, number: 'B' });
  });

  it('reads open classes named by length alike across languages', () => {
    expectSameKey(['Offen kurz', 'Avatud lühike', 'Ouvert court', 'Open Short']);
    expect(classKey('Offen kurz')).not.toBe(classKey('Offen lang'));
  });

  it('keeps words it does not know, folded: Inskolning, Familien, Direkt', () => {
    expect(classKey('Inskolning')).toBe('inskolning');
    expect(classKey('Familien')).toBe('familien');
    expect(classKey('Direkt')).toBe('direkt');
    expect(parseClassName('Circuit de découverte').words).toEqual(['circuit', 'de', 'decouverte']);
  });

  it('reads a French circuit by its colour, however it is said: Circuit Violet, Open Violet, Violet', () => {
    for (const colour of ['Blanc', 'Jaune', 'Orange', 'Vert', 'Bleu', 'Violet', 'Noir'])
      expectSameKey([`Circuit ${colour}`, `Open ${colour}`, colour, `circuit ${colour.toLowerCase()}`]);
    expect(classKey('Circuit Violet')).not.toBe(classKey('Circuit Orange'));
    // A colour beside a gender and an age, or beside another word, is a class of its own.
    expect(classKey('H21 Jaune')).not.toBe(classKey('Jaune'));
    expect(classKey('Light Green')).not.toBe(classKey('Green'));
  });

  it('reads the gender letter glued to Open: MOpen, WOpen', () => {
    expectSameKey(['MOpen', 'Men Open', 'H Open', 'H. Open']);
    expectSameKey(['WOpen', 'Women Open', 'D Open']);
    expect(classKey('MOpen')).not.toBe(classKey('WOpen'));
  });
});

describe('classKey: relays', () => {
  it('carries a leg named by a leg word, in any of several languages', () => {
    expectSameKey(['H21 leg 2', 'H21 - Sträcka 2', 'H21 Etappe 2', 'H21 etappi 2', 'H21 Strecke 2', 'H21 Runde 2']);
    expectSameKey(['H21 tur 2', 'H21 2. sträcka', 'Men 21 Leg 2nd', 'H21 2:a sträckan']);
    expect(parseClassName('H21 leg 2')).toMatchObject({ gender: 'M', age: 21, leg: 2 });
  });

  it('tells legs apart, and a leg from the whole class', () => {
    expect(classKey('H21 leg 1')).not.toBe(classKey('H21 leg 2'));
    expect(classKey('H21 leg 1')).not.toBe(classKey('H21'));
  });

  it('does not read H21-2 as a leg: only leg words name legs', () => {
    expect(parseClassName('H21-2').leg).toBeUndefined();
    expect(classKey('H21-2')).not.toBe(classKey('H21'));
    expect(classKey('H21-2')).not.toBe(classKey('H21 leg 2'));
  });

  it('keeps H21-1 and D21-2 apart from the whole class and from leg 1, whose leg-word forms share a key', () => {
    expect(classKey('H21-1')).not.toBe(classKey('H21'));
    expect(classKey('H21-1')).not.toBe(classKey('H21-2'));
    expect(classKey('H21-1')).not.toBe(classKey('H21 Leg 1'));
    expect(classKey('D21-2')).not.toBe(classKey('D21 leg 2'));
    expectSameKey(['H21 Leg 1', 'H21 - Sträcka 1', 'H21, 1. sträcka', 'Herr 21 leg 1']);
  });

  it('reads a relay word as relay, not as a different class', () => {
    expect(parseClassName('H21 Stafett')).toMatchObject({ gender: 'M', age: 21, relay: true });
    expectSameKey(['H21 Stafett', 'H21 stafet', 'H21 viesti', 'H21 Relay', 'H21']);
    expectSameKey(['Åpen stafett', 'Öppen stafett', 'Åben stafet']);
  });

  it('keys a name of nothing but a relay word as its folded text, never as empty', () => {
    expect(classKey('Stafett')).toBe('stafett');
    expect(classKey('Relay')).not.toBe('');
  });
});

describe('classKey: classes that must stay apart', () => {
  const pairs: [string, string][] = [
    ['H21', 'D21'],
    ['H21', 'H21E'],
    ['H21E', 'H21K'],
    ['H21E', 'H21L'],
    ['H21K', 'H21L'],
    ['H21A', 'H21B'],
    ['Öppen 1', 'Öppen 2'],
    ['Öppen 1', 'Öppen 3'],
    ['H16', 'H18'],
    ['H10A', 'H10B'],
    ['Short', 'Long'],
    ['HE', 'DE'],
    ['HAL', 'HAK'],
    ['HAL', 'DAL'],
    ['M21L', 'HAL'],
    ['H21', 'H21 leg 2'],
    ['N21', 'H21'],
    ['Men Elite', 'Women Elite'],
    ['Short Brown', 'Brown'],
    ['Short Green', 'Light Green'],
    ['Yellow', 'Orange'],
    ['Inskolning', 'Öppen 1'],
    ['T3', 'T5'],
    ['Menn 21', 'Kvinner 21'],
    ['Herr 21', 'Dam 21'],
    ['Dam 21', 'DAM'],
    ['H/D 10', 'H10'],
    ['U16', 'U2'],
    ['U16', 'H16'],
    ['Under 16 Men', 'Under 16 Women'],
  ];
  for (const [a, b] of pairs) {
    it(`${a} is not ${b}`, () => {
      expect(classKey(a)).not.toBe(classKey(b));
    });
  }
});

describe('classKey: fallbacks', () => {
  it('gives one key to names that are the same after folding, structure or not', () => {
    for (const [a, b] of [
      ['Bösläktet', 'BOSLAKTET'],
      ['Familien!', 'familien'],
      ['Circuit  jaune', 'circuit jaune'],
      ['Course 5', 'COURSE-5'],
      ['Kort bana', 'kort   bana'],
    ] as const) {
      expect(classKey(a)).toBe(classKey(b));
    }
  });

  it('gives the empty key only to an empty name', () => {
    expect(classKey('')).toBe('');
    expect(classKey('   ')).toBe('');
    expect(classKey('-')).toBe('');
  });

  it('does not read ordinary words as class codes', () => {
    expect(parseClassName('White').gender).toBeUndefined();
    expect(parseClassName('Brown Men').words).toEqual(['brown']);
    expect(parseClassName('Orange de').gender).toBeUndefined();
    expect(parseClassName('Circuit de base').gender).toBeUndefined();
  });
});

describe('describeClassName', () => {
  it('says the parts in plain words', () => {
    expect(describeClassName(parseClassName('H21E'))).toBe('men 21 elite');
    expect(describeClassName(parseClassName('W35+'))).toBe('women 35+');
    expect(describeClassName(parseClassName('DAL'))).toBe('women level A long');
    expect(describeClassName(parseClassName('Öppen 1'))).toBe('open 1');
    expect(describeClassName(parseClassName('H21 Stafett Sträcka 2'))).toBe('men 21 leg 2 relay');
    expect(describeClassName(parseClassName('Inskolning'))).toBe('inskolning');
  });
});

describe('classSimilarity and classConflicts', () => {
  it('is 1 for names with one key', () => {
    expect(similarity('H21 Elit', 'Men Elite')).toBe(1);
  });

  it('tolerates a misspelt word', () => {
    expect(similarity('Inskoling', 'Inskolning')).toBeGreaterThan(0.9);
  });

  it('stays low when the names state a part differently', () => {
    expect(similarity('H21', 'D21')).toBeLessThanOrEqual(0.4);
    expect(similarity('Öppen 1', 'Öppen 3')).toBeLessThanOrEqual(0.4);
    expect(similarity('H16', 'H18')).toBeLessThanOrEqual(0.4);
    expect(classConflicts(parseClassName('H21'), parseClassName('D35'))).toEqual(['gender', 'age']);
  });

  it('stays below the default 0.75 when only one name states a level, length, open class or leg', () => {
    expect(similarity('H21', 'H21E')).toBeLessThan(0.75);
    expect(similarity('H21', 'H21 Lång')).toBeLessThan(0.75);
    expect(similarity('Öppen', 'Öppen 1')).toBeLessThan(0.75);
    expect(similarity('H21', 'H21 leg 1')).toBeLessThan(0.75);
    expect(similarity('H21', 'H21-2')).toBeLessThan(0.75);
    expect(similarity('Inskolning', 'Inskolning 2')).toBeLessThan(0.75);
    expect(classConflicts(parseClassName('H21'), parseClassName('H21E'))).toEqual([]);
  });

  it('ranks a name with the same gender above one with another gender', () => {
    expect(similarity('Herrar', 'H21')).toBeGreaterThan(similarity('Herrar', 'D35'));
    expect(similarity('Herrar', 'H21')).toBeGreaterThan(0.5);
  });

  it('is 0 for names with nothing in common', () => {
    expect(similarity('Yellow', 'Course 5')).toBe(0);
  });
});
