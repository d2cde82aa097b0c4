/**
 * "Did you mean ...?" for a mistyped command or option: the closest known word within a small edit distance, so that
 * `--fromat` points at `--format` and a word far from every known one gets no guess (a wrong guess misleads more than
 * none).
 */

/** Optimal string alignment distance: insertions, deletions, substitutions and swaps of two neighbours each cost 1. */
function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
      }
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The known word closest to `typed`: one edit away (a typo, two letters swapped), else the one known word `typed`
 * begins (`--tol` for `--tolerance-m`), else within 2 edits for words over 4 letters. Undefined when nothing is close
 * or two words are equally close.
 */
export function closest(typed: string, known: readonly string[]): string | undefined {
  const word = typed.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  let tie = false;
  for (const k of known) {
    const distance = editDistance(word, k.toLowerCase());
    if (distance < bestDistance) {
      [best, bestDistance, tie] = [k, distance, false];
    } else if (distance === bestDistance) {
      tie = true;
    }
  }
  if (bestDistance <= 1) return tie ? undefined : best;
  const prefixed = known.filter((k) => word.length >= 3 && k.toLowerCase().startsWith(word));
  if (prefixed.length === 1) return prefixed[0];
  return bestDistance <= (word.length <= 4 ? 1 : 2) && !tie ? best : undefined;
}
