/**
 * The conventions federations write class names in, as data: the words for gender, level, course length, open
 * classes and relay legs in each language, and the letters of compact codes (`H21E`, `DAK`). Kept apart from the
 * reader (`class-names.ts`) so that a new language or federation letter is a change to a table, not to the parser.
 * Words are folded (`foldText`): lower case, accents removed, ø -> o.
 *
 * German-language words follow the class rules as the federations publish them, read for this table (not fetched
 * here): Swiss Orienteering's Wettkampfordnung (H/D with an age, `HE`/`DE` elite, `HAL`/`HAM`/`HAK` and `DAL`/`DAM`/
 * `DAK` for level A long/medium/short, `HB`/`DB`, the open `Offen kurz/mittel/lang`, written `OK`/`OM`/`OL`), and the
 * German DOSB Wettkampfordnung Orientierungslauf (D/H -10 .. 21 .. 80, `21E`/`21A`/`21B`/`21K`, Bahn-named open
 * classes). The long forms both print beside the code are "Herren/Damen", "Männer/Frauen", "Junioren/Juniorinnen",
 * "Senioren/Seniorinnen", "Knaben/Mädchen" (`H21 (Herren 21)`, `D45 Damen 45`). Danish difficulty words follow Dansk
 * Orienterings-Forbund's course levels (Begynder, Let, Mellemsvær, Svær); Finnish `RR` is the rastiralli beginners'
 * class and `AV` an avoin (open) class, as Finnish results services print them.
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
    // German and Swiss: men, juniors, seniors (the masculine forms), boys.
    'manner maenner junioren senioren knaben',
    'boys boy pojkar pojat gutter gutt drenge dreng jungen garcons chlapci',
  ]
    .join(' ')
    .split(' ')
    .map((w) => [w, 'M'] as const),
  ...[
    'women womens woman female ladies dam damer damen dames dame damor kvinner kvinne kvinder kvinde femmes femme donne',
    'naiset naised zeny girls girl flickor tytot jenter jente piger pige madchen filles divky',
    'frauen juniorinnen seniorinnen maedchen',
  ]
    .join(' ')
    .split(' ')
    .map((w) => [w, 'W'] as const),
  ...'mixed mix mixte mixt'.split(' ').map((w) => [w, 'X'] as const),
]);

/** Gender words that are the men's classes only in German: a gender said otherwise in the name wins. */
export const LEANING_GENDER_WORDS: ReadonlySet<string> = new Set(['junioren', 'senioren']);

export const LEVEL_WORDS: Readonly<Record<string, ClassLevel>> = Object.fromEntries([
  ...'elit elite elita eliitti'.split(' ').map((w) => [w, 'E'] as const),
  ...'motion motionsklass motionar motionsklasse mosjon trim kuntorata kunto'.split(' ').map((w) => [w, 'R'] as const),
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
/**
 * Words a course is named with: `Bahn A`, `Course 3`, `Bane 5`, `Rata 2`, `Parcours 4`, `Bana 3` are classes named
 * by their course, and the course's letter or number is what names them.
 */
/**
 * Colours that name courses: the French federation's circuits (Fédération française de course d'orientation: blanc,
 * jaune, orange, vert, bleu, violet, noir, marron) and the British colour-coded courses (white, yellow, orange, light
 * green, green, blue, brown, black). One colour word names one course; a colour is never translated (a French
 * `Bleu` and a British `Blue` are courses of two systems).
 */
export const COLOUR_WORDS: ReadonlySet<string> = new Set(
  'blanc jaune orange vert bleu violet noir marron rose rouge white yellow green blue brown black purple red'.split(
    ' ',
  ),
);
export const COURSE_WORDS: ReadonlySet<string> = new Set(
  'course bana bane rata bahn parcours circuit trat rada percorso'.split(' '),
);
/**
 * Words that say one thing in several languages, read as one word: the technical difficulty of beginners' and open
 * courses (Danish Let/Mellemsvær/Svær, Swedish Lätt/Medelsvår/Svår, German leicht/schwer, Finnish helppo/vaikea),
 * the Swedish youth `Ungdom` classes written `U`, the Finnish rastiralli written `RR`.
 */
export const SAME_WORDS: Readonly<Record<string, string>> = Object.fromEntries([
  ...'let lett latt leicht helppo facile easy'.split(' ').map((w) => [w, 'easy'] as const),
  ...'mellemsvaer medelsvar mellomvanskelig keskivaikea'.split(' ').map((w) => [w, 'moderate'] as const),
  ...'svaer svar vanskelig schwer vaikea difficile difficult hard'.split(' ').map((w) => [w, 'hard'] as const),
  ...'ungdom ungdomsklass'.split(' ').map((w) => [w, 'u'] as const),
  ['rr', 'rastiralli'],
]);

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
