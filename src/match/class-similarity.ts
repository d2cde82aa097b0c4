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
  const parts = partScore(a, b);
  let shared = parts.shared;
  let total = parts.total;
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
  return parts.oneSided ? Math.min(0.7, similarity) : similarity;
}

/** Highest similarity of two names that state a part differently (`classConflicts`): what no threshold reaches. */
const CONFLICT_SIMILARITY_CAP = 0.4;

/**
 * The recognised parts' share of `classSimilarity`: weights shared and in total, and whether a part only one side
 * states caps the score. Reads no words, so it is the same for every name with the same parts.
 */
function partScore(a: ParsedClassName, b: ParsedClassName): { shared: number; total: number; oneSided: boolean } {
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
  return { shared, total, oneSided };
}

/**
 * Every recognised part of a name, as one string: names with the same signature differ only in their other words, so
 * `partScore` and `classConflicts` are the same for all of them.
 */
function partSignature(p: ParsedClassName): string {
  return [p.gender, p.age, p.ageTo, p.level, p.length, p.open || undefined, p.number, p.course, p.leg]
    .concat([p.relay || undefined, wordNumbers(p)])
    .map((x) => (x === undefined ? '' : String(x)))
    .join('|');
}

interface Bucket<T> {
  /** A member's parsed name: its parts stand for every member's. */
  parts: ParsedClassName;
  members: T[];
  /** Most other words any member has, for the bound on the words' share. */
  maxWords: number;
}

/**
 * The classes of one side, grouped so that the classes of the other side at least `floor` alike a name are found
 * without comparing it with all of them: the pairwise comparison made mapping 100,000 classes take minutes.
 *
 * Exact, not a heuristic: a group is skipped only when no member can reach `floor`. Names that state a part
 * differently score at most `CONFLICT_SIMILARITY_CAP` (0.4), so with a floor above that the groups of another gender or
 * age are never looked at (looked up by gender and age); within the others, the parts' score is the same for the whole
 * group and the words can add at most their own weight, which bounds the group's best score. Equal keys score 1
 * whatever their parts, so the members with the name's key are always included.
 *
 * With n names per side, building is O(n); a look-up costs the groups of matching gender and age plus the members
 * returned: near-linear overall when names spread over genders, ages and levels as real classes do.
 */
export class SimilarityIndex<T extends { parsed: ParsedClassName; key: string }> {
  private readonly buckets = new Map<string, Bucket<T>>();
  /**
   * The groups by their values of the looked-up parts (`LOOKUP_PARTS`), once per subset of those parts: for a name that
   * states the parts of subset `d`, `byParts[d]` gives the groups whose values there are each the name's or none.
   */
  private readonly byParts = Array.from({ length: 1 << LOOKUP_PARTS.length }, () => new Map<string, Bucket<T>[]>());
  private readonly byKey = new Map<string, T[]>();
  private order: Map<T, number> | undefined;

  constructor(
    private readonly items: readonly T[],
    private readonly floor: number,
  ) {
    if (!(floor > CONFLICT_SIMILARITY_CAP)) throw new RangeError('the floor must be above the conflict cap');
    for (const item of items) {
      const signature = partSignature(item.parsed);
      let bucket = this.buckets.get(signature);
      if (bucket === undefined) {
        bucket = { parts: item.parsed, members: [], maxWords: 0 };
        this.buckets.set(signature, bucket);
        const values = lookupValues(item.parsed);
        this.byParts.forEach((map, subset) => push(map, projection(values, subset), bucket!));
      }
      bucket.members.push(item);
      bucket.maxWords = Math.max(bucket.maxWords, item.parsed.words.length);
      if (item.key !== '') push(this.byKey, item.key, item);
    }
  }

  /** The items that may be at least `floor` alike `name` (a superset of them), in the order they were given. */
  candidates(name: { parsed: ParsedClassName; key: string }): T[] {
    const p = name.parsed;
    const values = lookupValues(p);
    let subset = 0;
    values.forEach((v, k) => {
      if (v !== '') subset |= 1 << k;
    });
    // Each stated part may be matched by the same value or by none: 2^(parts stated) keys, at most 8.
    const groups: Bucket<T>[] = [];
    for (let blank = subset; ; blank = (blank - 1) & subset) {
      const key = projection(
        values.map((v, k) => (blank & (1 << k) ? '' : v)),
        subset,
      );
      groups.push(...(this.byParts[subset]!.get(key) ?? []));
      if (blank === 0) break;
    }
    const out = new Set<T>();
    for (const group of groups) {
      if (classConflicts(p, group.parts).length > 0) continue;
      const { shared, total } = partScore(p, group.parts);
      const words = p.words.length + group.maxWords;
      // (shared + x) / (total + x) grows with x, and the words add at most their weight x to both.
      if (total + words === 0 || (shared + words) / (total + words) < this.floor) continue;
      for (const member of group.members) out.add(member);
    }
    if (name.key !== '') for (const member of this.byKey.get(name.key) ?? []) out.add(member);
    if (out.size === 0) return [];
    const order = (this.order ??= new Map(this.items.map((item, i) => [item, i])));
    return [...out].sort((a, b) => order.get(a)! - order.get(b)!);
  }
}

/** Parts looked up rather than compared: those most names state, with many values (a wrong one is a conflict). */
const LOOKUP_PARTS = ['gender', 'age', 'numbers'] as const;

function lookupValues(p: ParsedClassName): string[] {
  return [p.gender ?? '', p.age === undefined ? '' : String(p.age), wordNumbers(p) ?? ''];
}

/** The values of the parts in `subset` (a bit per part), as a map key. */
function projection(values: readonly string[], subset: number): string {
  return values.map((v, k) => (subset & (1 << k) ? v : '*')).join('|');
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
