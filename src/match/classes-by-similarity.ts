/**
 * The last name step of class mapping: similar names (`classSimilarity`), taken only when the pair is clear on both
 * sides, each the other's nearest by a lead of `CLASS_MATCHING.minLead`; otherwise the near names are noted as
 * candidates for the user.
 *
 * Only the pairs that can matter are compared: a decision reads similarities of at least `minSimilarity - minLead`
 * (0.65), and `SimilarityIndex` finds every pair above its floor without looking at the others. Small mappings (under
 * `ALL_PAIRS` pairs) still compare every pair, so that the "next nearest" named in a reason may be any class, however
 * unlike; in large ones it is the nearest that could be a match at all.
 */
import { SimilarityIndex, classSimilarity } from './class-similarity.js';
import { CLASS_MATCHING, type Entry, type MappingState, type ServiceClass } from './class-mapping.js';
import type { EmsClass } from '../ems/source.js';
import { round2 } from './round.js';

/** Up to this many open x free pairs, every pair is compared (140 classes left unmapped on each side, far more than real events leave). */
const ALL_PAIRS = 20_000;

/** A service class's similarity to an open class: `i` is its place among the free classes (the tie-break). */
interface Scored {
  v: number;
  i: number;
}

const byValue = (a: Scored, b: Scored) => b.v - a.v || a.i - b.i;

/** Maps the clearly similar names among the classes the earlier steps left. */
export function matchBySimilarity(state: MappingState, minSimilarity: number): void {
  const open = state.open();
  const free = state.free();
  if (open.length === 0 || free.length === 0) return;
  // A little under the least that decides, so that rounding in the subtraction never drops a pair that does.
  const rows = similarityRows(open, free, minSimilarity - CLASS_MATCHING.minLead - 0.01);
  // Each free class's similarities to the open classes, for its side of the decision (`i`: place among the open).
  const columns: Scored[][] = free.map(() => []);
  rows.forEach((row, ei) => {
    for (const { v, i } of row) if (v > 0) columns[i]!.push({ v, i: ei });
  });

  for (const [ei, e] of open.entries()) {
    const row = rows[ei]!;
    const [best, second] = row;
    if (!best || best.v < minSimilarity) continue;
    const s = free[best.i]!;
    if (second && best.v - second.v < CLASS_MATCHING.minLead) {
      state.note(
        e.index,
        `the service's '${s.item.name}' (${round2(best.v)}) and '${free[second.i]!.item.name}' (${round2(second.v)}) ` +
          'are about equally alike',
        row.filter((x) => best.v - x.v < CLASS_MATCHING.minLead).map((x) => free[x.i]!.index),
      );
      continue;
    }
    // The service class's side must be as clear: its nearest class here is this one, well ahead of the next. Classes
    // not in the column are less alike than any that could decide (or, compared with all, 0).
    const [top, runnerUp] = columns[best.i]!.sort(byValue);
    const mine = top!.i === ei;
    if (!mine || (runnerUp && top!.v - runnerUp.v < CLASS_MATCHING.minLead)) {
      const other = open[mine ? runnerUp!.i : top!.i]!;
      state.note(e.index, `the service's '${s.item.name}' is at least as alike '${other.item.name}' here`, [s.index]);
      continue;
    }
    const next =
      second && second.v > 0 ? `; the next nearest, '${free[second.i]!.item.name}', is ${round2(second.v)}` : '';
    state.map(
      e.index,
      s.index,
      'similar',
      best.v * CLASS_MATCHING.confidence.similar,
      `named '${e.item.name}' here and '${s.item.name}' on the service, ${round2(best.v)} alike${next}`,
    );
  }
}

/**
 * For each open class, the free classes' similarities to it, best first: every free class when there are few pairs,
 * else those `SimilarityIndex` finds at least `floor` alike (and any others it returns).
 */
function similarityRows(
  open: readonly Entry<EmsClass>[],
  free: readonly Entry<ServiceClass>[],
  floor: number,
): Scored[][] {
  const place = new Map(free.map((s, i) => [s, i]));
  const index = open.length * free.length > ALL_PAIRS ? new SimilarityIndex(free, floor) : undefined;
  return open.map((e) =>
    (index ? index.candidates(e) : free)
      .map((s) => ({ v: classSimilarity(e.parsed, s.parsed), i: place.get(s)! }))
      .sort(byValue),
  );
}
