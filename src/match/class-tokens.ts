/**
 * The words of a class name as the class-name reader (`class-names.ts`) sees them: tokens with the age marks `-`/`+`
 * kept, and the compact codes (`H21E`, `DAK`, `U16`) recognised. Apart from the reader so that each stays a size one
 * can read whole; nothing here decides what a name means beyond what one token says.
 */
import {
  CODE_GENDER,
  CODE_LENGTH,
  CODE_LEVEL,
  type ClassGender,
  type ClassLength,
  type ClassLevel,
} from './class-conventions.js';
import { words } from './text.js';

interface Code {
  gender: ClassGender;
  age?: number;
  level?: ClassLevel;
  length?: ClassLength;
  /** Letters after the age that are no level or length (`tr` of the Finnish `H12TR`). */
  extra?: string;
}

/**
 * A compact class code: gender letter(s), age, then a level and a length letter (`h21e`, `d21k`, `m21s`, `dal`, `he`,
 * `hd165`). Without an age only the first word of a name is read as a code (the Swiss `HAL`, British `ME`): later on,
 * two or three letters are too likely an ordinary word. `N` (Finnish/Estonian naiset) and `F` need a two-digit age:
 * alone they are Norway's newcomer open class and a finish.
 */
export function readCode(token: string, first: boolean): Code | undefined {
  const m = /^(hd|dh|h|d|m|w|n|f)(\d{1,3})?([a-z]*)$/.exec(token);
  if (!m) return undefined;
  const [, letters = '', digits, suffix = ''] = m;
  const gender = CODE_GENDER[letters];
  if (gender === undefined) return undefined;
  if ((letters === 'n' || letters === 'f') && (digits === undefined || digits.length !== 2)) return undefined;
  const age = digits === undefined ? undefined : Number(digits);
  if (age === 0) return undefined;
  if (age === undefined && !first) return undefined;
  const parts = /^([eabcn])?([lmks])?$/.exec(suffix);
  if (!parts) {
    // `H12TR` is men 12 with a word the reader does not know; `hej` or `men` is no code at all.
    return age === undefined ? undefined : { gender, age, extra: suffix };
  }
  const level = parts[1] === undefined ? undefined : CODE_LEVEL[parts[1]];
  const length = parts[2] === undefined ? undefined : CODE_LENGTH[parts[2]];
  if (age === undefined && level === undefined && length === undefined && gender !== 'X') return undefined;
  return {
    gender,
    ...(age === undefined ? {} : { age }),
    ...(level === undefined ? {} : { level }),
    ...(length === undefined ? {} : { length }),
  };
}

/** The age of `u16` (8 to 23: Swedish `U1`, `U2` are youth classes, not ages). */
export function underAge(token: string): number | undefined {
  const m = /^u(\d{1,2})$/.exec(token);
  const age = m ? Number(m[1]) : undefined;
  return age !== undefined && age >= 8 && age <= 23 ? age : undefined;
}

export const isNumber = (token: string | undefined): boolean => token !== undefined && /^\d+$/.test(token);
export const isMark = (token: string | undefined) => token === '-' || token === '+';

/**
 * The name as tokens: folded words, with `-` and `+` kept as tokens of their own (they mark ages: `H-16`, `W35+`,
 * `H13-16`), letters split from digits unless the word is a class code (`Open1` -> `open 1`, `h21e` stays), and
 * ordinal endings dropped (`2nd`, `2:a`).
 */
export function tokenize(name: string): string[] {
  const prepared = name
    // `H/D 10`, `M/W12`, `D/H 12`: one code for both genders, as `HD10` writes it.
    .replace(/(?<![\p{L}\p{N}])(?:[hm]\s*\/\s*[dwf]|[dwf]\s*\/\s*[hm])(?!\p{L})/giu, 'HD')
    .replace(/['’`´]s\b/gi, 's')
    .replace(/(\d+)\s*:\s*[ae]\b/gi, '$1')
    .replace(/[+\-–—]/g, (c) => ` ${c === '+' ? '+' : '-'} `);
  const out: string[] = [];
  for (const chunk of prepared.split(/\s+/)) {
    if (chunk === '+' || chunk === '-') {
      out.push(chunk);
      continue;
    }
    for (const word of words(chunk)) {
      if (readCode(word, true) || underAge(word) !== undefined) {
        out.push(word);
        continue;
      }
      const pieces = word.match(/[a-z]+|\d+/g) ?? [];
      for (let i = 0; i < pieces.length; i++) {
        const piece = pieces[i]!;
        if (i > 0 && isNumber(pieces[i - 1]) && /^(st|nd|rd|th)$/.test(piece)) continue;
        out.push(piece);
      }
    }
  }
  return out;
}

/** The next word that is not a `-`/`+` mark, looking forwards (step 1) or backwards (step -1). */
export function neighbour(tokens: readonly string[], i: number, step: 1 | -1): string | undefined {
  let j = i + step;
  while (isMark(tokens[j])) j += step;
  return tokens[j];
}
