/**
 * Name evidence beyond shared words, as an orienteer reads two event names: initials against the words they stand
 * for ("KLM-Cup" and "Karl-Ludwig-Meyer-Pokal", "OR" and "O-Ringen", "JWSOC" and "Junior World Ski Orienteering
 * Championships"), a word cut short ("Int." for "International"), and the same word in another language ("Semaine
 * suisse" and "Swiss Week"). Kept apart from `event.ts` so that the plain word score stays what it was: this one is
 * only ever taken when it is higher.
 */
import { foldText } from '../core/fold.js';

/**
 * Words of event names that mean the same in the languages of the federations whose exports we read (English,
 * German, French, Italian, Swedish, Norwegian, Danish, Finnish, Dutch, Czech), each group spelt as `foldText` gives
 * it. Only words that name what an event is (its kind, its span, its scope, the nation a series is named for, as in
 * "Swiss O Week"), never place names: a town's name is its own in every language an export is written in.
 */
const SYNONYMS: readonly string[] = [
  'week woche semaine settimana semana vecka veckan uke viikko tyden',
  'days tage jours giorni dagar dager dage paivat dny',
  'swiss schweizer schweizerische suisse svizzera svizzero schweiziska sveitsiske',
  'championships championship meisterschaft meisterschaften championnat championnats campionato campionati mastare mesterskap mesterskab mestaruus mestaruuskilpailut kampioenschap kampioenschappen mistrovstvi',
  'relay staffel relais staffetta stafett stafetten viesti estafette stafeta',
  'night nacht nuit notte natt yo noc nat',
  'world welt monde mondiale mondiali varlds verdens maailman svet',
  'european europa europe europeen europeenne europeo europeiska europeiske euroopan evropy',
  'junior junioren juniors juniores juniori',
  'youth jugend jeunesse giovanile ungdom ungdoms nuorten mladez',
  'national nationale nazionale nationell nasjonal kansallinen narodni',
  'international internationale internazionale internationell internasjonal kansainvalinen mezinarodni',
  'spring fruhling printemps primavera var kevat jaro',
  'autumn fall herbst automne autunno host haust syksy podzim',
  'winter hiver inverno vinter talvi zima',
  'summer sommer ete estate sommar kesa leto',
  'city stadt ville citta stad kaupunki mesto',
  'ski skid skiing hiihto',
  'team mannschaft equipe squadra lag joukkue druzstvo',
  'cup pokal coupe trophy trofeo trophee pohar cupen',
  'middle mittel moyenne media medel mellom mellem keski',
  'long lang longue lunga lange pitka',
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
 * Klubb" when the other name says "OK".
 */
export function initialsOf(word: string, other: readonly string[]): number[] | undefined {
  if (!/^[a-z]{2,6}$/.test(word) || other.includes(word)) return undefined;
  for (let from = 0; from < other.length; from++) {
    const end = initialsEnd(word, other, from);
    if (end >= 0 && end - from >= 2) return Array.from({ length: end - from }, (_, k) => from + k);
  }
  return undefined;
}

/** Whether `short` is `long` cut short, as names abbreviate ("int" for "international", "champ" for "championships"). */
function isCutShort(short: string, long: string): boolean {
  return short.length >= 3 && long.length >= short.length + 2 && /^[a-z]+$/.test(short) && long.startsWith(short);
}

/** How a word of one side is found on the other: 1 the same word or meaning, less for weaker evidence, 0 not at all. */
export const NAME_EVIDENCE = {
  /** Initials standing for words: a person reads them at a glance, but two names can share initials by chance. */
  initials: 0.9,
  /** A word cut short. */
  cutShort: 0.8,
} as const;

/**
 * Weighted similarity of two names, 0..1, counting as shared: the same word or one meaning in two languages (1),
 * initials and the words they stand for (`NAME_EVIDENCE.initials`), a word and its cut-short form
 * (`NAME_EVIDENCE.cutShort`). `weight` says how much each word tells about the event (years and filler words little).
 */
export function nameEvidence(a: string, b: string, weight: (word: string) => number): number {
  const wa = nameWords(a);
  const wb = nameWords(b);
  if (wa.length === 0 || wb.length === 0) return 0;
  const found = (ws: readonly string[], other: readonly string[]): number[] => {
    const out = ws.map(() => 0);
    const otherMeanings = new Set(other.map(canonicalWord));
    ws.forEach((w, i) => {
      if (otherMeanings.has(canonicalWord(w))) out[i] = 1;
      else if (other.some((o) => isCutShort(w, o) || isCutShort(o, w))) out[i] = NAME_EVIDENCE.cutShort;
    });
    return out;
  };
  const fa = found(wa, wb);
  const fb = found(wb, wa);
  // Initials, both ways: the word of initials and the words it stands for are found.
  for (const [ws, other, fw, fo] of [
    [wa, wb, fa, fb],
    [wb, wa, fb, fa],
  ] as const) {
    ws.forEach((w, i) => {
      if (fw[i]! >= NAME_EVIDENCE.initials) return;
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
  return total === 0 ? 0 : shared / total;
}
