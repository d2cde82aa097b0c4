/**
 * The conventions federations write class names in, as data: the words for gender, level, course length, open
 * classes and relay legs in each language, and the letters of compact codes (`H21E`, `DAK`). Kept apart from the
 * reader (`class-names.ts`) so that a new language or federation letter is a change to a table, not to the parser.
 * Words are folded (`foldText`): lower case, accents removed, ø -> o.
 */

/** `M` men/boys, `W` women/girls, `X` both (mixed relays, `HD` classes, "Herrer/Damer"). */
export type ClassGender = 'M' | 'W' | 'X';

/**
 * Performance level: `E` elite, `A`/`B`/`C` ranked levels (Czech, Finnish, Danish, Swiss, French), `N` newcomers
 * (Czech nábor, beginners), `R` recreational (Swedish Motion, Norwegian mosjon, trim).
 */
export type ClassLevel = 'E' | 'A' | 'B' | 'C' | 'N' | 'R';

/** Course length within a class family: long, medium, short (Swedish Kort, British S, Swiss kurz). */
export type ClassLength = 'L' | 'M' | 'S';

export const GENDER_WORDS: Readonly<Record<string, ClassGender>> = Object.fromEntries([
  ...[
    'men mens man male herr herrar herre herrer herren heren menn mann maend mand hommes homme uomini miehet mehed muzi',
    'boys boy pojkar pojat gutter gutt drenge dreng jungen garcons chlapci',
  ]
    .join(' ')
    .split(' ')
    .map((w) => [w, 'M'] as const),
  ...[
    'women womens woman female ladies dam damer damen dames dame damor kvinner kvinne kvinder kvinde femmes femme donne',
    'naiset naised zeny girls girl flickor tytot jenter jente piger pige madchen filles divky',
  ]
    .join(' ')
    .split(' ')
    .map((w) => [w, 'W'] as const),
  ...'mixed mix mixte mixt'.split(' ').map((w) => [w, 'X'] as const),
]);

export const LEVEL_WORDS: Readonly<Record<string, ClassLevel>> = Object.fromEntries([
  ...'elit elite elita eliitti'.split(' ').map((w) => [w, 'E'] as const),
  ...'motion motionsklass motionar motionsklasse mosjon trim kuntorata'.split(' ').map((w) => [w, 'R'] as const),
  ...'nyborjare nybegynner begynder beginner beginners anfanger debutant debutants aloittelija algaja novice'
    .split(' ')
    .map((w) => [w, 'N'] as const),
]);

export const LENGTH_WORDS: Readonly<Record<string, ClassLength>> = Object.fromEntries([
  ...'kort korta kurz kurze short court courte corto corta lyhyt luhike kratka kratky'
    .split(' ')
    .map((w) => [w, 'S'] as const),
  ...'lang lange long longue lungo lunga pitka pikk dlouha dlouhy'.split(' ').map((w) => [w, 'L'] as const),
  ...'mittel medium middle mellem mellan mellom moyen moyenne medio media keski stredni'
    .split(' ')
    .map((w) => [w, 'M'] as const),
]);

export const OPEN_WORDS: ReadonlySet<string> = new Set(
  'oppen apen open offen avoin ouvert ouverte aben avatud aperto aperta abierto'.split(' '),
);
export const LEG_WORDS: ReadonlySet<string> = new Set(
  'leg stracka strackan etapp etappe etape etapa etappi strecke runde tur osuus usek'.split(' '),
);
export const RELAY_WORDS: ReadonlySet<string> = new Set(
  'stafett stafet staffel relay relais viesti stafeta staffetta'.split(' '),
);
// Words that only say "this is a class".
export const NOISE_WORDS: ReadonlySet<string> = new Set(
  'class klass klasse classe luokka kategorie kategoria category trida'.split(' '),
);

// The letters of compact codes (`H21E`, `D16K`, `HD10`, the Swiss `DAK`): `N` is the Finnish and Estonian naiset,
// `F` the French femmes.
export const CODE_GENDER: Readonly<Record<string, ClassGender>> = {
  h: 'M',
  m: 'M',
  d: 'W',
  w: 'W',
  n: 'W',
  f: 'W',
  hd: 'X',
  dh: 'X',
};
export const CODE_LEVEL: Readonly<Record<string, ClassLevel>> = { e: 'E', a: 'A', b: 'B', c: 'C', n: 'N' };
export const CODE_LENGTH: Readonly<Record<string, ClassLength>> = { l: 'L', m: 'M', k: 'S', s: 'S' };

/** Words that put the next number as an upper age limit without saying a gender: `Under 16`. */
export const UNDER_WORDS: ReadonlySet<string> = new Set(['under', 'unter']);
