/**
 * The last name step of class mapping: similar names (`classSimilarity`), taken only when the pair is clear on both
 * sides, each the other's nearest by a lead of `CLASS_MATCHING.minLead`; otherwise the near names are noted as
 * candidates for the user.
 */
import { classSimilarity } from './class-similarity.js';
import { CLASS_MATCHING, type MappingState } from './class-mapping.js';
import { round2 } from './round.js';

/** Maps the clearly similar names among the classes the earlier steps left. */
export function matchBySimilarity(state: MappingState, minSimilarity: number): void {
  const open = state.open();
  const free = state.free();
  if (open.length === 0 || free.length === 0) return;
  const similarity = open.map((e) => free.map((s) => classSimilarity(e.parsed, s.parsed)));
  const ranked = (values: readonly number[]) => values.map((v, i) => ({ v, i })).sort((a, b) => b.v - a.v || a.i - b.i);

  for (const [ei, e] of open.entries()) {
    const row = ranked(similarity[ei]!);
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
    // The service class's side must be as clear: its nearest class here is this one, well ahead of the next.
    const [top, runnerUp] = ranked(open.map((_, i) => similarity[i]![best.i]!));
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
