/**
 * Words of event names that tell two events of one day, one series or one place apart, by kind: the format (a
 * sprint, a middle), the region or direction (Nord-Est, Sud-Est), the level (national, regional) and the round of a
 * series (round 2, round 3). Two names that each name a value of one kind and disagree on it name two events, however
 * many other words (the series, the year, "middle distance") they share: a word of this kind vetoes, it does not
 * merely dilute the score. Every kind vetoes the same way (`kindConflict`); only how a kind's words are read and how
 * two sets of them are compared differ.
 */

/**
 * A kind's values, each with its folded spellings in the languages of the exports we read. `affix`: a spelling of
 * four letters or more also names its value at the start or end of a joined word ("Klubbsprint", "Nattcupen").
 * `compare`: `share` (the names disagree when no value is shared: a "Sprint Relay" is a relay) or `equal` (they
 * disagree unless the sets are the same: "Nord-Est" and "Sud-Est" share east and are still two regions).
 */
interface Kind {
  kind: NameKind;
  values: ReadonlyArray<readonly [string, readonly string[]]>;
  affix: boolean;
  compare: 'share' | 'equal';
}

export type NameKind = 'format' | 'direction' | 'level' | 'round';

/** Ultralong is read before long, which its words end with. */
const FORMATS: Kind = {
  kind: 'format',
  affix: true,
  compare: 'share',
  values: [
    ['ultralong', ['ultralong', 'ultralang', 'ultralangdistans', 'ultralangdistanse']],
    ['sprint', ['sprint', 'sprinten', 'sprintti']],
    [
      'middle',
      ['middle', 'mittel', 'mitteldistanz', 'moyenne', 'medel', 'medeldistans', 'mellom', 'mellomdistanse', 'mellem'],
    ],
    ['long', ['long', 'longue', 'lunga', 'lang', 'langdistans', 'langdistanse', 'langdistanz', 'pitka', 'pitkamatka']],
    ['night', ['night', 'nacht', 'nuit', 'notte', 'natt', 'yo', 'noc']],
    [
      'relay',
      ['relay', 'staffel', 'relais', 'staffetta', 'stafett', 'stafetten', 'viesti', 'estafette', 'stafeta', 'kavle'],
    ],
  ],
};

/**
 * Compass words, whole words only: "Västerås" and "Östersund" are towns, not directions. Joined forms ("Nordost",
 * "Sydväst") and the two-letter abbreviations (NE, SE, NW, SW) name two directions. Finnish and Czech adjectives are
 * written as their stems (Pohjois-Savo folds to "pohjois savo").
 */
const DIRECTIONS: Kind = {
  kind: 'direction',
  affix: false,
  compare: 'equal',
  values: [
    ['north', ['north', 'nord', 'norra', 'norr', 'nordre', 'pohjois', 'sever', 'severni', 'nordost', 'nordvast']],
    ['south', ['south', 'sud', 'syd', 'sodra', 'soder', 'sondre', 'etela', 'jih', 'jizni', 'sudost', 'sydost']],
    ['east', ['east', 'est', 'ost', 'ostra', 'oster', 'ita', 'vychod', 'vychodni', 'nordost', 'sudost', 'sydost']],
    ['west', ['west', 'ouest', 'ovest', 'vast', 'vastra', 'vaster', 'lansi', 'zapad', 'zapadni', 'nordvast']],
    ['north', ['ne', 'nw', 'nordwest', 'sydvast']],
    ['south', ['se', 'sw', 'sudwest', 'sydvast']],
    ['east', ['ne', 'se']],
    ['west', ['nw', 'sw', 'nordwest', 'sudwest']],
  ],
};

/** The scope an event is held at. "International" is a level too: a national race beside an international one. */
const LEVELS: Kind = {
  kind: 'level',
  affix: false,
  compare: 'share',
  values: [
    [
      'international',
      ['international', 'internationale', 'internazionale', 'internationell', 'internasjonal', 'mezinarodni'],
    ],
    [
      'national',
      ['national', 'nationale', 'nationaux', 'nazionale', 'nationell', 'nasjonal', 'kansallinen', 'narodni'],
    ],
    [
      'regional',
      [
        'regional',
        'regionale',
        'regionali',
        'regionaux',
        'regionala',
        'regionalt',
        'alueellinen',
        'oblastni',
        'krajsky',
      ],
    ],
    ['district', ['district', 'distrikt', 'distrikts', 'piiri', 'piirin']],
    ['local', ['local', 'locale', 'lokal', 'lokale']],
  ],
};

const KINDS: readonly Kind[] = [FORMATS, DIRECTIONS, LEVELS];

/** The values of a kind a folded word names (none for most words). */
function valuesOfWord(kind: Kind, word: string): string[] {
  const out: string[] = [];
  for (const [value, spellings] of kind.values) {
    const names = spellings.some(
      (f) => word === f || (kind.affix && f.length >= 4 && (word.startsWith(f) || word.endsWith(f))),
    );
    if (names && !out.includes(value)) out.push(value);
    // "Ultralång" is ultralong, not long as well.
    if (value === 'ultralong' && names) return out;
  }
  return out;
}

/** Every spelling of a kind's values: such words are the kind's evidence, not the name's telling words. */
export const FORMAT_WORDS: ReadonlySet<string> = new Set(FORMATS.values.flatMap(([, ws]) => ws));

/** The formats a folded word names (none for most words). */
export function formatsOfWord(word: string): string[] {
  return valuesOfWord(FORMATS, word);
}

/** Words that say a number counts days or members ("2-dagars", "5 days", "25manna"): a span, not a round. */
const SPAN_WORD = /^(dag|day|tage|jour|giorn|dny|paiv|manna|mila)/;
/** An ordinal as names write it: "3rd", "2nd", "2e", "2eme", "3er", "2a". */
const ORDINAL = /^(\d{1,2})(st|nd|rd|th|e|eme|er|ere|a|o)$/;

/**
 * The round numbers a name gives: numbers of one to three digits (years and spans excluded), and ordinals. "Nattcupen
 * 3", "Round 2", "3e manche", "etapp 2".
 */
function roundsOf(words: readonly string[]): Set<string> {
  const out = new Set<string>();
  words.forEach((w, i) => {
    const next = words[i + 1] ?? '';
    // No round 0: a zero is a code's or a stray character's, never a race of a series.
    if (/^\d{1,3}$/.test(w) && Number(w) > 0 && !SPAN_WORD.test(next)) out.add(String(Number(w)));
    const o = ORDINAL.exec(w);
    if (o && Number(o[1]) > 0) out.add(String(Number(o[1])));
  });
  return out;
}

function setsConflict(a: ReadonlySet<string>, b: ReadonlySet<string>, compare: Kind['compare']): boolean {
  if (a.size === 0 || b.size === 0) return false;
  if (compare === 'share') return ![...a].some((v) => b.has(v));
  return a.size !== b.size || [...a].some((v) => !b.has(v));
}

/**
 * Night says when, not how far: a club runs its sprint by day and a night sprint that evening at the same place. So
 * two names that both give a distance or a relay disagree when only one says night ("Sprint" / "Sprint de nuit"); a
 * name with no distance ("Nattcupen") says nothing about it.
 */
function nightConflict(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  const distance = (s: ReadonlySet<string>) => [...s].some((v) => v !== 'night');
  return distance(a) && distance(b) && a.has('night') !== b.has('night');
}

/**
 * The first kind on which two names (as folded words) disagree, or undefined: both name a value of it, and the values
 * contradict (`Kind.compare`). Then no other evidence makes them one event.
 */
export function kindConflict(a: readonly string[], b: readonly string[]): NameKind | undefined {
  for (const kind of KINDS) {
    const va = new Set(a.flatMap((w) => valuesOfWord(kind, w)));
    const vb = new Set(b.flatMap((w) => valuesOfWord(kind, w)));
    if (setsConflict(va, vb, kind.compare) || (kind === FORMATS && nightConflict(va, vb))) return kind.kind;
  }
  return setsConflict(roundsOf(a), roundsOf(b), 'share') ? 'round' : undefined;
}
