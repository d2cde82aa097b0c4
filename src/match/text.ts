/**
 * Text comparison shared by event and class matching: words of folded text (core/fold.ts) and similarity measures
 * that tolerate word order and small spelling differences.
 */
import { foldText } from '../core/fold.js';

/** The words of folded text, letters and digits split apart (`h21e` stays one word; `2025` is its own). */
export function words(text: string): string[] {
  const folded = foldText(text);
  return folded === '' ? [] : folded.split(' ');
}

function bigrams(text: string): Map<string, number> {
  const padded = ` ${text} `;
  const out = new Map<string, number>();
  for (let i = 0; i < padded.length - 1; i++) {
    const g = padded.slice(i, i + 2);
    out.set(g, (out.get(g) ?? 0) + 1);
  }
  return out;
}

/** Sørensen-Dice similarity of character bigrams, 0..1, on already folded text: tolerant of small misspellings. */
export function diceSimilarity(a: string, b: string): number {
  if (a === b) return a === '' ? 0 : 1;
  if (a === '' || b === '') return 0;
  const ga = bigrams(a);
  const gb = bigrams(b);
  let shared = 0;
  let total = 0;
  for (const n of ga.values()) total += n;
  for (const n of gb.values()) total += n;
  for (const [g, n] of ga) shared += Math.min(n, gb.get(g) ?? 0);
  return (2 * shared) / total;
}

/**
 * Weighted word-set similarity, 0..1: each word of either side counts with `weight(word)`; a word counts as shared
 * when the other side has it, or a word at least 0.8 Dice-similar (a misspelling, an inflection such as a genitive -s).
 * Word order does not matter.
 */
export function weightedWordSimilarity(
  a: readonly string[],
  b: readonly string[],
  weight: (word: string) => number = () => 1,
): number {
  const total = [...a, ...b].reduce((sum, w) => sum + weight(w), 0);
  if (total === 0) return 0;
  const matched = (word: string, other: readonly string[]) =>
    other.includes(word) || other.some((o) => diceSimilarity(word, o) >= 0.8);
  let shared = 0;
  for (const w of a) if (matched(w, b)) shared += weight(w);
  for (const w of b) if (matched(w, a)) shared += weight(w);
  return shared / total;
}
