/**
 * Reading orienteering class names the way federations write them, so that one class written under two conventions
 * (`H21 Elit` in an event system, `M21E` on the service) is recognised as one, and two classes that only look alike
 * (`Öppen 1` and `Öppen 2`, `H21` and `H21E`) stay apart.
 *
 * A name is read into a few parts (gender, age, level, course length, open class, relay leg) and the words nothing
 * recognised; the key is built from those parts, so any two names that fold to the same text always share a key.
 * The words and letters it knows are the tables of `class-conventions.ts`. Pure: no I/O.
 *
 * Conventions that say different things stay different: the British junior `M16A` (A course) is not the Swedish `H16`,
 * nor the Swiss `HAL` (level A, long) the British `M21L` (21, long). Similarity (`class-similarity.ts`) ranks such
 * pairs; keys do not equate them.
 */
import {
  CODE_GENDER,
  CODE_LENGTH,
  CODE_LEVEL,
  COLOUR_WORDS,
  COURSE_WORDS,
  GENDER_WORDS,
  LEANING_GENDER_WORDS,
  LEG_WORDS,
  LENGTH_WORDS,
  LEVEL_WORDS,
  NOISE_WORDS,
  OPEN_WORDS,
  RELAY_WORDS,
  SAME_WORDS,
  UNDER_WORDS,
  type ClassGender,
  type ClassLength,
  type ClassLevel,
} from './class-conventions.js';
import { foldText } from '../core/fold.js';
import { isMark, isNumber, neighbour, readCode, tokenize, underAge } from './class-tokens.js';

export interface ParsedClassName {
  gender?: ClassGender;
  /** The age in the name (`21`, `16`, `35`; relay age sums such as `120`). Elite classes without one are 21. */
  age?: number;
  /** The upper end of an age range (`H13-16`). */
  ageTo?: number;
  /**
   * How the name marks its age, when it does: `under` for `H-16`, `U16`, `H16-`; `up` for `W35+`. Not part of the key:
   * every federation's junior numbers mean "and under" and its veteran numbers "and over", so the mark adds nothing.
   */
  ageMode?: 'up' | 'under';
  level?: ClassLevel;
  length?: ClassLength;
  /** An open class (Öppen, Åpen, Open, Offen, Avoin, Ouvert, Åben, Avatud, Aperto). */
  open?: boolean;
  /** Which open class: `1` of `Öppen 1`, `N` of `N-åpen` (upper case; numbers without leading zeros). */
  number?: string;
  /** The course that names the class: `A` of `Bahn A`, `3` of `Course 3` or `Rata 2` (upper case, no leading zeros). */
  course?: string;
  /** Relay leg named by a leg word (`leg 2`, `Sträcka 2`, `2. etappe`). */
  leg?: number;
  /** The name says relay (Stafett, Staffel, Relay, Viesti). Not part of the key: a relay event's H21 is its relay. */
  relay?: boolean;
  /** Folded words nothing above recognised, in order: `inskolning`, `yellow`, `familien`. */
  words: string[];
}

/** The letter or number after a course word at `i` (`Bahn A`, `Course-3`), and where it is. */
function courseName(tokens: readonly string[], i: number): { name: string; at: number } | undefined {
  let j = i + 1;
  while (isMark(tokens[j])) j++;
  const next = tokens[j];
  if (next === undefined) return undefined;
  if (isNumber(next)) return { name: String(Number(next)), at: j };
  return /^[a-z]$/.test(next) ? { name: next.toUpperCase(), at: j } : undefined;
}

/** Reads a class name into its parts. Never fails: what it does not recognise ends up in `words`. */
export function parseClassName(name: string): ParsedClassName {
  const tokens = tokenize(name);
  const rest: string[] = [];
  const p: ParsedClassName = { words: rest };
  // Set by a word that only leans to a gender: German `Junioren`/`Senioren` are the men's classes, but in Dutch (and
  // beside `Damen`) the same words are juniors and seniors of either gender; a gender said otherwise overrules it.
  let leaning = false;
  const setGender = (g: ClassGender, lean = false) => {
    if (lean && p.gender !== undefined) return;
    p.gender = p.gender === undefined || p.gender === g || leaning ? g : 'X';
    leaning = lean;
  };
  // What the previous word was, for the numbers that follow it.
  // `gender` after a gender word, so that the long form's age repeating the code's (`H21 (Herren 21)`) is no new part.
  let last: 'age' | 'open' | 'leg' | 'gender' | 'other' = 'other';
  // `H-16`: a `-` before the number marks it as an upper limit, once a gender has made it an age.
  let underMark = false;
  // `U 16`, `Under 16`: the word makes the next number an age, gender or not.
  let underWord = false;
  // Codes without an age (`HE`, `DAL`) and lone gender letters (`H 21`) are read only as the name's first word.
  const firstWord = tokens.findIndex((t) => !isMark(t) && !NOISE_WORDS.has(t));
  const wordCount = tokens.filter((t) => !isMark(t) && !NOISE_WORDS.has(t)).length;

  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const next = tokens[i + 1];

    if (token === '+') {
      if (last === 'age') p.ageMode = 'up';
      continue;
    }
    if (token === '-') {
      if (last === 'age' && p.age !== undefined) {
        if (isNumber(next) && p.ageTo === undefined && Number(next) > p.age && Number(next) < 100) {
          p.ageTo = Number(next);
          i++;
        } else if (!isNumber(next) && p.age < 21) {
          p.ageMode = 'under';
        }
        // `H21-2` is not a range; what follows is read on its own.
        last = 'other';
      } else if (p.age === undefined && isNumber(next)) {
        underMark = true;
      }
      continue;
    }

    const setAge = (age: number, mode?: 'under'): 'age' => {
      p.age = age;
      if ((mode === 'under' || underMark || underWord) && age < 21) p.ageMode = 'under';
      underMark = false;
      underWord = false;
      return 'age';
    };

    const gender = GENDER_WORDS[token];
    // Swedish `Dam` is women, but the name `DAM` alone is the Swiss code (women, level A, medium).
    if (gender !== undefined && !(wordCount === 1 && readCode(token, true) !== undefined)) {
      setGender(gender, LEANING_GENDER_WORDS.has(token));
      last = 'gender';
      continue;
    }
    const courseAt = COURSE_WORDS.has(token) && p.course === undefined ? courseName(tokens, i) : undefined;
    if (courseAt !== undefined) {
      // `Bahn A`, `Course 3`: the letter or number names the course, it is no level letter nor age.
      p.course = courseAt.name;
      i = courseAt.at;
      last = 'other';
      continue;
    }
    // `MOpen`, `WOpen`, `HOpen`: the gender letter glued to the open word, as the name's first word.
    const gluedOpen = i === firstWord ? /^([hdmw])(\p{L}+)$/u.exec(token) : null;
    if (gluedOpen && OPEN_WORDS.has(gluedOpen[2]!) && p.gender === undefined) {
      setGender(CODE_GENDER[gluedOpen[1]!]!);
      p.open = true;
      last = 'open';
      continue;
    }
    // Swedish `Ö1`..`Ö9` (Öppen 1..9) and the Finnish `AV` (avoin) as the first word; Swiss `OK`/`OM`/`OL` (Offen
    // kurz/mittel/lang) alone. Elsewhere these letters are too likely something else.
    const swissOpen = wordCount === 1 ? /^o([lmk])$/.exec(token) : null;
    const openLetters = i === firstWord && ((token === 'o' && isNumber(neighbour(tokens, i, 1))) || token === 'av');
    if (OPEN_WORDS.has(token) || openLetters || swissOpen) {
      if (swissOpen) p.length = CODE_LENGTH[swissOpen[1]!]!;
      p.open = true;
      last = 'open';
      continue;
    }
    if (LEG_WORDS.has(token)) {
      // `2. sträcka`: the number came first.
      const before = tokens[i - 1];
      if (p.leg === undefined && !isNumber(neighbour(tokens, i, 1)) && isNumber(before) && rest.at(-1) === before) {
        p.leg = Number(before);
        rest.pop();
        last = 'other';
      } else {
        last = 'leg';
      }
      continue;
    }
    if (RELAY_WORDS.has(token)) {
      p.relay = true;
      last = 'other';
      continue;
    }
    if (NOISE_WORDS.has(token)) continue;
    if (UNDER_WORDS.has(token) && p.age === undefined && underAge(`u${neighbour(tokens, i, 1)}`) !== undefined) {
      underWord = true;
      last = 'other';
      continue;
    }
    const level = LEVEL_WORDS[token];
    // A level or length said again (`HE Herren Elite`, `HAL Herren A lang`) is the long form of the code, no new part.
    if (level !== undefined && (p.level === undefined || p.level === level)) {
      p.level = level;
      last = 'other';
      continue;
    }
    const length = LENGTH_WORDS[token];
    if (length !== undefined && (p.length === undefined || p.length === length)) {
      p.length = length;
      last = 'other';
      continue;
    }

    const code = readCode(token, i === firstWord);
    // A Swiss level-and-length code (`HAL`, `DAK`) never carries an age: `HAL 21` is something else.
    const swissWithNumber =
      code?.age === undefined &&
      code?.level !== undefined &&
      code.length !== undefined &&
      isNumber(neighbour(tokens, i, 1));
    if (code && !swissWithNumber && (p.age === undefined || code.age === undefined || code.age === p.age)) {
      setGender(code.gender);
      last = code.age === undefined ? 'other' : setAge(code.age);
      if (code.level !== undefined) p.level ??= code.level;
      if (code.length !== undefined) p.length ??= code.length;
      if (code.extra) rest.push(code.extra);
      continue;
    }

    const under = underAge(token);
    if (under !== undefined && p.age === undefined) {
      last = setAge(under, 'under');
      continue;
    }

    if (isNumber(token)) {
      const n = Number(token);
      if (last === 'open' && p.number === undefined) {
        p.number = String(n);
        last = 'other';
      } else if (last === 'leg' && p.leg === undefined) {
        p.leg = n;
        last = 'other';
      } else if (p.age === undefined && (p.gender !== undefined || underWord) && n > 0 && n < 200) {
        last = setAge(n);
      } else if (last === 'gender' && n === p.age) {
        last = 'other';
      } else {
        rest.push(token);
        last = 'other';
      }
      continue;
    }

    if (token.length === 1) {
      const before = neighbour(tokens, i, -1);
      const after = neighbour(tokens, i, 1);
      const nearOpen =
        (before !== undefined && OPEN_WORDS.has(before)) || (after !== undefined && OPEN_WORDS.has(after));
      last = 'other';
      // `H. Open`, `D Open` (Belgian, French): a gender letter first is the gender, not the open class's letter.
      const genderFirst = 'hdmw'.includes(token) && i === firstWord && p.gender === undefined;
      if (nearOpen && !genderFirst && /[a-z]/.test(token) && p.number === undefined && !'klsu'.includes(token)) {
        // `N-åpen`, `C-åpen`, `Open A`: the letter names the open class.
        p.number = token.toUpperCase();
        continue;
      }
      if ('hdmwn'.includes(token) && p.gender === undefined && i === firstWord) {
        // `H 21`, `D-35`, `N 21` (naiset); a lone `H` or `D` too, but never a lone `N`.
        if (token !== 'n' || isNumber(after)) {
          setGender(CODE_GENDER[token]!);
          continue;
        }
      }
      if (token === 'u' && after !== undefined && underAge(`u${after}`) !== undefined && p.age === undefined) {
        underWord = true;
        continue;
      }
      const letterLevel = CODE_LEVEL[token];
      if (letterLevel !== undefined && (p.level === undefined || p.level === letterLevel)) {
        p.level = letterLevel;
        continue;
      }
      const letterLength = token === 'm' ? undefined : CODE_LENGTH[token];
      if (letterLength !== undefined && p.length === undefined) {
        p.length = letterLength;
        continue;
      }
    }

    rest.push(SAME_WORDS[token] ?? token);
    last = 'other';
  }

  // "Men Elite", Swiss `HE`: an elite class without an age is the 21 class.
  if (p.level === 'E' && p.age === undefined && p.gender !== undefined) p.age = 21;
  readColourCourse(p);
  return p;
}

/**
 * A course named by its colour, as the French federation's circuits are (`Circuit Violet`, `Open Violet`, `Violet`)
 * and British colour courses (`Orange`): the colour is the name, whichever word says it is a course or an open one,
 * so all three read as the colour. Only for names without a gender or an age (an `H21 Jaune` is a class of its own).
 * Not a course part: a course's letter or number (`Course 5`) says nothing against its colour.
 */
function readColourCourse(p: ParsedClassName): void {
  if (p.gender !== undefined || p.age !== undefined || p.course !== undefined || p.number !== undefined) return;
  const colours = p.words.filter((w) => COLOUR_WORDS.has(w));
  const others = p.words.filter((w) => !COLOUR_WORDS.has(w) && !COURSE_WORDS.has(w));
  if (colours.length !== 1 || others.length > 0) return;
  p.words.splice(0, p.words.length, colours[0]!);
  delete p.open;
}

function codeOf(p: ParsedClassName): string | undefined {
  if (p.gender === undefined && p.age === undefined && p.level === undefined && p.length === undefined)
    return undefined;
  const ages = p.age === undefined ? '' : `${p.age}${p.ageTo === undefined ? '' : `-${p.ageTo}`}`;
  return `${p.gender ?? '?'}${ages}${p.level ?? ''}${p.length ?? ''}`;
}

/**
 * `classKey` is pure and called for every class of every candidate event of every portal event a sync scores: the
 * parse is what costs, and class names repeat (H21, D21, ...), so keys are remembered by name.
 */
const KEYS = new Map<string, string>();
const MAX_KEYS = 20_000;

/**
 * The canonical key of a class name: equal for one class written under different conventions (`H21E`, `H21 Elit`,
 * `M21E`, `Men Elite`, `Herrar 21 Elit`), different for different classes (`H21`/`H21E`, `Öppen 1`/`Öppen 2`).
 *
 * Recognised parts become upper-case markers (`M21E`, `OPEN:1`, `LEG:2`, `?S` for a length without gender); the
 * remaining folded words follow, sorted, so word order does not count. A name of nothing but relay or noise words keys
 * as its folded text. `''` for an empty name.
 */
export function classKey(name: string): string {
  let key = KEYS.get(name);
  if (key === undefined) {
    // Bounded: a sync of a large portal asks for the same few hundred class names millions of times.
    if (KEYS.size >= MAX_KEYS) KEYS.clear();
    key = classKeyOf(parseClassName(name), name);
    KEYS.set(name, key);
  }
  return key;
}

/** `classKey` of an already parsed name; `name` is the text it was parsed from. */
export function classKeyOf(p: ParsedClassName, name: string): string {
  const parts: string[] = [];
  const code = codeOf(p);
  if (code !== undefined) parts.push(code);
  if (p.open) parts.push(p.number === undefined ? 'OPEN' : `OPEN:${p.number}`);
  if (p.course !== undefined) parts.push(`COURSE:${p.course}`);
  if (p.leg !== undefined) parts.push(`LEG:${p.leg}`);
  parts.push(...[...p.words].sort());
  return parts.length > 0 ? parts.join(' ') : foldText(name);
}

const GENDER_TEXT: Readonly<Record<ClassGender, string>> = { M: 'men', W: 'women', X: 'mixed' };
const LEVEL_TEXT: Readonly<Record<ClassLevel, string>> = {
  E: 'elite',
  A: 'level A',
  B: 'level B',
  C: 'level C',
  N: 'newcomers',
  R: 'recreational',
};
const LENGTH_TEXT: Readonly<Record<ClassLength, string>> = { L: 'long', M: 'medium', S: 'short' };

/** The parts in plain words for messages: `men 21 elite`, `women 16 short`, `open 1`, `men 21 leg 2`. */
export function describeClassName(p: ParsedClassName): string {
  const out: string[] = [];
  if (p.gender !== undefined) out.push(GENDER_TEXT[p.gender]);
  if (p.age !== undefined) {
    out.push(p.ageTo !== undefined ? `${p.age}-${p.ageTo}` : p.ageMode === 'up' ? `${p.age}+` : String(p.age));
  }
  if (p.level !== undefined) out.push(LEVEL_TEXT[p.level]);
  if (p.length !== undefined) out.push(LENGTH_TEXT[p.length]);
  if (p.open) out.push(p.number === undefined ? 'open' : `open ${p.number}`);
  if (p.course !== undefined) out.push(`course ${p.course}`);
  if (p.leg !== undefined) out.push(`leg ${p.leg}`);
  out.push(...p.words);
  if (p.relay) out.push('relay');
  return out.join(' ');
}
