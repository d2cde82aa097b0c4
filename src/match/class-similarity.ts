/**
 * How alike two parsed class names are, and where they disagree: what ranks candidates when the keys of
 * `class-names.ts` differ. Recognised parts weigh more than other words, and a part stated differently caps the score,
 * so `H21` and `D21` never pass for one class however alike they look.
 */
import { classKeyOf, type ParsedClassName } from './class-names.js';
import { diceSimilarity, weightedWordSimilarity } from './text.js';

/** `Course 5` and `Course 6`, `T3` and `T5`: a number among the other words names the class. */
function wordNumbers(p: ParsedClassName): string | undefined {
  const numbers = p.words.filter((w) => /^\d+$/.test(w));
  return numbers.length === 0 ? undefined : numbers.sort().join(' ');
}

/**
 * Parts two parsed names both state, differently: `gender`, `age`, `level`, `length`, `open class`, `course`, `leg`,
 * and `number` for the numbers among their other words.
 */
export function classConflicts(a: ParsedClassName, b: ParsedClassName): string[] {
  const out: string[] = [];
  const differ = <T>(x: T | undefined, y: T | undefined) => x !== undefined && y !== undefined && x !== y;
  if (differ(a.gender, b.gender)) out.push('gender');
  if (differ(a.age, b.age) || differ(a.ageTo, b.ageTo)) out.push('age');
  if (differ(a.level, b.level)) out.push('level');
  if (differ(a.length, b.length)) out.push('length');
  if (differ(a.number, b.number)) out.push('open class');
  if (differ(a.course, b.course)) out.push('course');
  if (differ(a.leg, b.leg)) out.push('leg');
  if (differ(wordNumbers(a), wordNumbers(b))) out.push('number');
  return out;
}

// Weights of the recognised parts against a weight of 1 for each other word.
const PART_WEIGHTS = {
  gender: 3,
  age: 3,
  level: 2,
  length: 2,
  open: 2,
  number: 2,
  course: 2,
  leg: 2,
  relay: 1,
} as const;

/**
 * Similarity of two parsed names, 0..1: the recognised parts compared exactly, the other words tolerating
 * misspellings. 1 for equal keys. Names that state a part differently (`H21`/`D21`, `Öppen 1`/`Öppen 3`) score at most
 * 0.4; names where one states a level, length, open class, course, leg or number the other lacks (`H21`/`H21E`, `H21`/`H21-2`)
 * at most 0.7, below the default least similarity of class matching.
 */
export function classSimilarity(a: ParsedClassName, b: ParsedClassName): number {
  const keyA = classKeyOf(a, '');
  if (keyA !== '' && keyA === classKeyOf(b, '')) return 1;
  let shared = 0;
  let total = 0;
  let oneSided = false;
  const part = (weight: number, x: unknown, y: unknown, strict: boolean) => {
    if (x === undefined && y === undefined) return;
    if (x !== undefined && y !== undefined) {
      total += 2 * weight;
      if (x === y) shared += 2 * weight;
    } else {
      total += weight;
      if (strict) oneSided = true;
    }
  };
  part(PART_WEIGHTS.gender, a.gender, b.gender, false);
  part(
    PART_WEIGHTS.age,
    a.age === undefined ? undefined : `${a.age}-${a.ageTo}`,
    b.age === undefined ? undefined : `${b.age}-${b.ageTo}`,
    false,
  );
  part(PART_WEIGHTS.level, a.level, b.level, true);
  part(PART_WEIGHTS.length, a.length, b.length, true);
  part(PART_WEIGHTS.open, a.open || undefined, b.open || undefined, true);
  part(PART_WEIGHTS.number, a.number, b.number, true);
  part(PART_WEIGHTS.course, a.course, b.course, true);
  part(PART_WEIGHTS.leg, a.leg, b.leg, true);
  part(PART_WEIGHTS.relay, a.relay || undefined, b.relay || undefined, false);
  if ((wordNumbers(a) === undefined) !== (wordNumbers(b) === undefined)) oneSided = true;
  const restTotal = a.words.length + b.words.length;
  if (restTotal > 0) {
    // Word by word, or as one text when the words are split differently (`Lightgreen`, `Light Green`).
    const asText = 0.9 * diceSimilarity(a.words.join(' '), b.words.join(' '));
    shared += Math.max(weightedWordSimilarity(a.words, b.words), asText) * restTotal;
    total += restTotal;
  }
  if (total === 0) return 0;
  const similarity = shared / total;
  if (classConflicts(a, b).length > 0) return Math.min(0.4, similarity * 0.4);
  return oneSided ? Math.min(0.7, similarity) : similarity;
}
