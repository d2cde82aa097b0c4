/**
 * Mapping an event system's classes to the service's classes of the same event. Pure: the caller hands in both lists
 * (and, when it has them, the service's courses).
 *
 * Steps, each only for the classes the earlier ones left: exact names (the event system's short name too), then
 * normalised names (`classKey`), then courses (same controls, or same course name and length), then similar names,
 * then relay legs kept as classes of their own (named by a leg word, or numbered after the relay's name). Every step maps only what it can tell apart: a key or course shared by
 * several classes is reported, with the candidates, rather than guessed; a service class is never given two event
 * system classes (but for the legs of one relay). This file runs the steps and words what is left; each step is a file
 * of its own, and the types and thresholds they share are in `class-mapping.ts`.
 *
 * Complexity, with n classes on each side (up to 100,000, the most an export may name): O(n log n) plus the pairs that
 * can matter. No step compares every pair: names and keys are looked up in maps (`emsByKey`, `serviceByKey`), courses
 * by their controls and names, and the similar names through `SimilarityIndex`, which finds every pair alike enough to
 * decide anything (0.65 and up; 0.5 for candidates) among the classes of compatible gender, age and numbers, and skips
 * the rest exactly (see there). Linear in practice: 100,000 classes take about 10x as long as 10,000
 * (`npm run bench link`). Only a similarity step left with more than `ALL_PAIRS` (20,000) open x free pairs uses the
 * index; below that every pair is compared as before, so small mappings word their reasons exactly as they did.
 */
import type { EmsClass } from '../ems/source.js';
import type { RaceCourseData } from '../iof/model.js';
import {
  CLASS_MATCHING,
  startMapping,
  type ClassMapping,
  type ClassMatch,
  type ServiceClass,
  type UnmatchedEmsClass,
} from './class-mapping.js';
import { namesRelay } from './event-names.js';
import { SimilarityIndex, classSimilarity } from './class-similarity.js';
import { matchByCourse } from './classes-by-course.js';
import {
  matchExactNames,
  matchBareGenders,
  matchNormalisedNames,
  matchNormalisedShortNames,
  matchNumberedLegs,
  matchRelayLegs,
  reportDuplicateNames,
} from './classes-by-name.js';
import { matchBySimilarity } from './classes-by-similarity.js';
import { round2 } from './round.js';

export interface MatchClassesOptions {
  /**
   * The service's courses of the event, parsed: `courses` and `classAssignments` whose `classId` is the service class
   * id as a string (an assignment without `classId` counts for the service class of that exact `className`). Without
   * it the course step is skipped.
   */
  serviceCourses?: RaceCourseData;
  /** Least name similarity (0..1) for the last step. Default 0.75 (`CLASS_MATCHING.minSimilarity`). */
  minSimilarity?: number;
  /**
   * The event is known to be a relay (the export or the service says so: a relay word in the event's name, which
   * `parseClassName(name).relay` reads, or the service event's discipline). Lets gender classes numbered after their
   * name (`H21-1`, `H21-2`) be read as the legs of one relay class; without it (the default, false) each numbered
   * class needs relay evidence of its own, since heats and start groups of individual races are numbered the same way.
   */
  relayEvent?: boolean;
}

/** Maps the event system's classes to the service's. See the module comment for the steps. */
export function matchClasses(
  emsClasses: readonly EmsClass[],
  serviceClasses: readonly ServiceClass[],
  options: MatchClassesOptions = {},
): ClassMapping {
  const minSimilarity = options.minSimilarity ?? CLASS_MATCHING.minSimilarity;
  const state = startMapping(emsClasses, serviceClasses);
  const { service, issues, matchOf, notes } = state;

  reportDuplicateNames(state);
  // 1. Exact names, then the event system's short names against the service's names.
  matchExactNames(state);
  // 2. Normalised names: one key on each side, or nothing; then the event system's short names read the same way.
  matchNormalisedNames(state);
  matchNormalisedShortNames(state);
  // 3. Courses.
  if (options.serviceCourses) matchByCourse(state, options.serviceCourses);
  // 4. Similar names, only when clear on both sides.
  matchBySimilarity(state, minSimilarity);
  // 5. Relay legs kept as classes against the relay the service keeps as one.
  matchRelayLegs(state);
  matchNumberedLegs(state, options.relayEvent ?? false);
  // 6. A championship's bare Men / Women against the one elite class of that gender.
  matchBareGenders(state);

  // 7. What is left.
  const unmatchedEms: UnmatchedEmsClass[] = [];
  const left = state.free();
  // Only the classes that may reach the candidate floor are compared (exact: see `SimilarityIndex`).
  const nearLeft = new SimilarityIndex(left, CLASS_MATCHING.candidateFloor);
  for (const e of state.open()) {
    const had = notes.get(e.index);
    const similar = nearLeft
      .candidates(e)
      .map((s) => ({ s, similarity: classSimilarity(e.parsed, s.parsed) }))
      .filter((x) => x.similarity >= CLASS_MATCHING.candidateFloor)
      .sort((a, b) => b.similarity - a.similarity || a.s.index - b.s.index);
    const candidates = [...(had?.candidates ?? [])];
    for (const { s } of similar) if (!candidates.includes(s.index)) candidates.push(s.index);
    const reason =
      had?.reason ??
      (service.length === 0
        ? 'the service has no classes in this event'
        : left.length === 0
          ? 'every service class is already matched to another class'
          : similar[0]
            ? `no service class is clearly it: the nearest, '${similar[0].s.item.name}', is only ${round2(similar[0].similarity)} alike`
            : `no service class has this name or a similar one${options.serviceCourses && e.item.course ? ', or its course' : ''}`);
    unmatchedEms.push({
      ems: e.item,
      reason,
      candidates: candidates.slice(0, CLASS_MATCHING.maxCandidates).map((s) => service[s]!.item),
    });
  }

  return {
    matches: matchOf.filter((m): m is ClassMatch => m !== undefined),
    unmatchedEms,
    unmatchedService: left.map((s) => s.item),
    issues,
  };
}

/**
 * Whether an event is a relay, for `MatchClassesOptions.relayEvent`: a relay word in the export's or the service's event
 * name, or the service event's `discipline` property saying `Relay` (the simulator sets it; whether the real service
 * does is not known, so it can only add evidence, never be needed).
 */
export function isRelayEvent(
  emsEventName: string | undefined,
  event: { name: string; properties?: ReadonlyArray<{ key: string; value: string }> | undefined },
): boolean {
  return (
    (emsEventName !== undefined && namesRelay(emsEventName)) ||
    namesRelay(event.name) ||
    (event.properties ?? []).some((p) => p.key === 'discipline' && p.value.toLowerCase() === 'relay')
  );
}
