/**
 * Name evidence beyond shared words, as an orienteer reads two event names: initials against the words they stand
 * for ("KLM-Cup" and "Karl-Ludwig-Meyer-Pokal", "OR" and "O-Ringen", "JWSOC" and "Junior World Ski Orienteering
 * Championships"), a word cut short ("Int." for "International"), and the same word in another language ("Semaine
 * suisse" and "Swiss Week"). Kept apart from `event.ts` so that the plain word score stays what it was: this one is
 * only ever taken when it is higher.
 */
import { foldText } from '../core/fold.js';
import { FORMAT_WORDS, formatsOfWord, kindConflict, type NameKind } from './name-kinds.js';

/**
 * Words of event names that mean the same in the languages of the federations whose exports we read (English,
 * German, French, Italian, Swedish, Norwegian, Danish, Finnish, Dutch, Czech), each group spelt as `foldText` gives
 * it. Only words that name what an event is (its kind, its span, its scope, the nation a series is named for, as in
 * "Swiss O Week"), never place names: a town's name is its own in every language an export is written in. A spelling
 * that is an everyday word, a surname or a place in another of those languages is left out even when it is right
 * ("var" is spring in Swedish and a French département, "fall", "host", "lag", "stad", "lang", "media", "estate"
 * are English or German words): a translation counts as the same word, so a false one would name another event.
 */
const SYNONYMS: readonly string[] = [
  'week woche semaine settimana semana vecka veckan uke viikko tyden',
  'days tage jours giorni dagar dager dage paivat dny',
  'swiss schweizer schweizerische suisse svizzera svizzero schweiziska sveitsiske',
  'championships championship meisterschaft meisterschaften championnat championnats campionato campionati mastare mesterskap mesterskab mestaruus mestaruuskilpailut kampioenschap kampioenschappen mistrovstvi',
  'relay staffel relais staffetta stafett stafetten viesti estafette stafeta',
  'night nacht nuit notte natt noc',
  'world welt monde mondiale mondiali varlds verdens maailman svet',
  'european europa europe europeen europeenne europeo europeiska europeiske euroopan evropy',
  'junior junioren juniors juniores juniori',
  'youth jugend jeunesse giovanile ungdom ungdoms nuorten mladez',
  'national nationale nazionale nationell nasjonal kansallinen narodni',
  'international internationale internazionale internationell internasjonal kansainvalinen mezinarodni',
  'spring fruhling printemps primavera kevat jaro',
  'autumn herbst automne autunno haust syksy podzim',
  'winter hiver inverno vinter talvi zima',
  'summer sommer sommar kesa leto',
  'city ville citta kaupunki',
  'ski skid skiing hiihto',
  'team mannschaft equipe squadra joukkue druzstvo',
  'cup pokal coupe trophy trofeo trophee pohar cupen',
  'middle mittel moyenne medel mellom mellem keski',
  'long longue lunga pitka',
];

/** One spelling per meaning: every word of a group maps to the group's first word. */
const CANONICAL = new Map<string, string>();
for (const group of SYNONYMS) {
  const ws = group.split(' ');
  for (const w of ws) if (!CANONICAL.has(w)) CANONICAL.set(w, ws[0]!);
}

/** A word's meaning across languages (itself when we know no other spelling). */
export function canonicalWord(word: string): string {
  return CANONICAL.get(word) ?? word;
}

/**
 * A name spelt out as words. A date in it (`20250518`, `2025-05-18`) is read as its year: its month and day are not
 * the event's round. A name written like a file name (underscores, or no space at all: "20250518_NEOA_Race3_Durham",
 * "NordEstRanking2025") also has its camel case and a race number glued to a word of three letters or more taken
 * apart: its parts are the event's words. Names written with spaces keep their joined words ("VeNotte", "WRE2").
 */
export function spellOutName(name: string): string {
  let out = name
    .replace(/\b((?:19|20)\d\d)-?(0[1-9]|1[0-2])-?([0-2]\d|3[01])\b/g, ' $1 ')
    .replace(/((?:19|20)\d\d)(0[1-9]|1[0-2])([0-2]\d|3[01])(?=\D|$)/g, ' $1 ');
  if (name.includes('_') || !/\s/.test(name.trim())) {
    out = out
      .replace(/_/g, ' ')
      .replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2')
      .replace(/(\p{L}{3,})(\d{1,3})(?!\d)/gu, '$1 $2');
  }
  return out.replace(/\s+/g, ' ').trim();
}

/**
 * The words of a name for this comparison: folded, with a year written onto a word split off ("SKIO2016" is "skio"
 * and "2016", "WOC2025" is "woc" and "2025"). Other letter-digit words stay whole: "H21E" is a class, "5days" a name.
 */
export function nameWords(name: string): string[] {
  const folded = foldText(name);
  if (folded === '') return [];
  return folded.split(' ').flatMap((w) => {
    const m = /^([a-z]{2,})((?:19|20)\d\d)$/.exec(w);
    return m ? [m[1]!, m[2]!] : [w];
  });
}

// Small words acronyms may leave out: "Championnat de France" is "CF" as often as "CdF".
const SKIPPABLE = new Set('of the de du des la le di del della and und et och og i a en'.split(' '));

/**
 * Where `short` spells the initials of consecutive words of `words` starting at `from`: the index after the last
 * word used, or -1. Small joining words may be spelt or skipped.
 */
function initialsEnd(short: string, words: readonly string[], from: number): number {
  const step = (i: number, j: number): number => {
    if (i === short.length) return j;
    if (j >= words.length) return -1;
    const w = words[j]!;
    if (w[0] === short[i]) {
      const taken = step(i + 1, j + 1);
      if (taken >= 0) return taken;
    }
    return SKIPPABLE.has(w) && i > 0 ? step(i, j + 1) : -1;
  };
  return step(0, from);
}

/**
 * The words of `other` a word of letters stands for as initials (at least two of them, the first spelt), or
 * undefined. The word must not be one of `other`'s own words: "ok" is a club, not the initials of "Orienteering
 * Klubb" when the other name says "OK". Two letters are read as initials only by `readNames`, and only when they
 * are the whole name.
 */
export function initialsOf(word: string, other: readonly string[]): number[] | undefined {
  if (!/^[a-z]{2,6}$/.test(word) || other.includes(word)) return undefined;
  for (let from = 0; from < other.length; from++) {
    const end = initialsEnd(word, other, from);
    if (end >= 0 && end - from >= 2) return Array.from({ length: end - from }, (_, k) => from + k);
  }
  return undefined;
}

/**
 * Words names cut short without a dot, each with the words it stands for. Any other word is cut short only when
 * written with a dot ("Champ."): a word that merely begins another ("Väst" and "Västerås", "Lång" and "Långloppet")
 * is another word as often as not.
 */
const ABBREVIATIONS: Readonly<Record<string, readonly string[]>> = {
  int: ['international', 'internationale', 'internazionale', 'internationell', 'internasjonal'],
  intl: ['international'],
  champ: ['championships', 'championship', 'championnat', 'championnats'],
  champs: ['championships'],
};

/** The folded words a name writes with a dot after them ("Int." gives "int"): its own cut-short words. */
function dottedWords(name: string): Set<string> {
  const out = new Set<string>();
  for (const m of name.matchAll(/(\p{L}+)\./gu)) out.add(foldText(m[1]!));
  return out;
}

/** Whether `short` is `long` cut short, as names abbreviate: written with a dot, or a known abbreviation. */
function isCutShort(short: string, long: string, dotted: ReadonlySet<string>): boolean {
  if (ABBREVIATIONS[short]?.includes(long)) return true;
  return (
    dotted.has(short) &&
    short.length >= 3 &&
    long.length >= short.length + 2 &&
    /^[a-z]+$/.test(short) &&
    long.startsWith(short)
  );
}

/** Whether an event's name says it is a relay, also inside a joined word ("Mälardalsstafetten", "Klubbstafett"). */
export function namesRelay(name: string): boolean {
  return nameWords(name).some((w) => formatsOfWord(w).includes('relay'));
}

/** How a word of one side is found on the other: 1 the same word or meaning, less for weaker evidence, 0 not at all. */
export const NAME_EVIDENCE = {
  /** Initials standing for words: a person reads them at a glance, but two names can share initials by chance. */
  initials: 0.9,
  /** A word cut short. */
  cutShort: 0.8,
} as const;

/** Two names read word by word (`readNames`). */
export interface NameReading {
  /**
   * Weighted share of words found on the other side, 0..1: the same word or one meaning in two languages (1),
   * initials and the words they stand for (`NAME_EVIDENCE.initials`), a word and its cut-short form
   * (`NAME_EVIDENCE.cutShort`). 0 when the names conflict (`conflict`). Letter pairs never count here.
   */
  words: number;
  /** The names name two events by a word of one kind (`kindConflict`): two formats, regions, levels or rounds. */
  conflict: boolean;
  /** The kind of that word: `format`, `direction`, `level`, `round`. */
  conflictKind?: NameKind;
  /**
   * A side has telling words (not filler, years, numbers or a bare format word) and none of them is on the other side,
   * not even misspelt or in another language (initials aside): the names then name other things, however many letters
   * they share ("Väst Sprint" and "Västerås Sprint").
   */
  differ: boolean;
}

/** Whether `w` is on `other`'s side as a word: itself, its meaning in another language, misspelt, or cut short. */
function hasWord(
  w: string,
  other: readonly string[],
  dotted: { own: ReadonlySet<string>; other: ReadonlySet<string> },
  similar: (a: string, b: string) => number,
): boolean {
  const meaning = canonicalWord(w);
  return other.some(
    (o) =>
      canonicalWord(o) === meaning ||
      similar(w, o) >= 0.8 ||
      isCutShort(w, o, dotted.own) ||
      isCutShort(o, w, dotted.other),
  );
}

/**
 * Two names read word by word. `weight` says how much each word tells about the event (years and filler words
 * little); `similar` is the letter-pair similarity that tolerates a misspelt word.
 */
export function readNames(
  a: string,
  b: string,
  weight: (word: string) => number,
  similar: (a: string, b: string) => number,
): NameReading {
  const wa = nameWords(a);
  const wb = nameWords(b);
  if (wa.length === 0 || wb.length === 0) return { words: 0, conflict: false, differ: false };
  // Two formats, regions, levels or rounds: two events, whatever else the names share.
  const conflictKind = kindConflict(wa, wb);
  const conflict = conflictKind !== undefined;
  const da = dottedWords(a);
  const db = dottedWords(b);
  const telling = (ws: readonly string[]) => ws.filter((w) => weight(w) >= 1 && !FORMAT_WORDS.has(w));
  const unfound = (ws: readonly string[], other: readonly string[], own: Set<string>, theirs: Set<string>) => {
    const t = telling(ws);
    return t.length > 0 && !t.some((w) => hasWord(w, other, { own, other: theirs }, similar));
  };
  // One name written with other spacing ("Vårtävling", "Vår tävling") is the same name.
  const differ = wa.join('') !== wb.join('') && (unfound(wa, wb, da, db) || unfound(wb, wa, db, da));
  if (conflictKind) return { words: 0, conflict, conflictKind, differ };
  const found = (ws: readonly string[], other: readonly string[], own: Set<string>, theirs: Set<string>) => {
    const out = ws.map(() => 0);
    const otherMeanings = new Set(other.map(canonicalWord));
    ws.forEach((w, i) => {
      if (otherMeanings.has(canonicalWord(w))) out[i] = 1;
      else if (other.some((o) => isCutShort(w, o, own) || isCutShort(o, w, theirs))) out[i] = NAME_EVIDENCE.cutShort;
    });
    return out;
  };
  const fa = found(wa, wb, da, db);
  const fb = found(wb, wa, db, da);
  // Initials, both ways: the word of initials and the words it stands for are found. Two letters are too often a
  // word or a club's short name ("Is", "OK", "DM"): read as initials only when they are the whole name but for years,
  // numbers and filler ("OR 2025").
  for (const [ws, other, fw, fo] of [
    [wa, wb, fa, fb],
    [wb, wa, fb, fa],
  ] as const) {
    ws.forEach((w, i) => {
      if (fw[i]! >= NAME_EVIDENCE.initials) return;
      if (w.length === 2 && ws.some((x, k) => k !== i && weight(x) >= 1 && !/^\d+$/.test(x))) return;
      const stands = initialsOf(w, other);
      if (!stands) return;
      fw[i] = NAME_EVIDENCE.initials;
      for (const j of stands) fo[j] = Math.max(fo[j]!, NAME_EVIDENCE.initials);
    });
  }
  let shared = 0;
  let total = 0;
  wa.forEach((w, i) => {
    shared += weight(w) * fa[i]!;
    total += weight(w);
  });
  wb.forEach((w, i) => {
    shared += weight(w) * fb[i]!;
    total += weight(w);
  });
  return { words: total === 0 ? 0 : shared / total, conflict, differ };
}
