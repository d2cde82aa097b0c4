/**
 * One event entered twice on the service: the same organiser, day and classes, under names that differ only by an
 * inflected or suffixed form of a word ("Vårsprint" and "Vårsprinten", "Stockholm" and "Stockholms") or a number one
 * side leaves out ("Nattcupen" and "Nattcupen 3"). Choosing one of them is a coin toss, and the routes may be on the
 * other: the choice is then the user's (`ambiguous`), unless an id settles it.
 */
import { foldText } from '../core/fold.js';
import { DAY_MS } from '../ems/dates.js';
import { classKey } from './class-names.js';
import { nameWords } from './event-names.js';
import { diceSimilarity } from './text.js';

/** What this reads of a service event (a `CandidateEvent`; not imported, since `event.ts` asks this module). */
interface Listed {
  name: string;
  timeInterval: { start: string };
  organisers?: ReadonlyArray<{ name: string }> | undefined;
  classes?: ReadonlyArray<{ name: string }> | undefined;
}

/** What this reads of a scored candidate (a `ScoredEvent`). */
interface Scored {
  event: Listed;
  parts: { date?: number; externalId?: number };
  nameReading?: { conflict: boolean };
}

/** Share of class keys two events have in common (of the larger list) for their classes to be the same. */
const SAME_CLASSES = 0.8;

/** Whether two words are one word in another form: equal, one the other with a suffix, or misspelt. */
function sameWordForm(a: string, b: string): boolean {
  if (a === b) return true;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  // A suffix of up to three letters on a stem of four or more: a genitive, a definite form, a plural.
  if (short.length >= 4 && long.startsWith(short) && long.length - short.length <= 3) return true;
  return !/\d/.test(a + b) && diceSimilarity(a, b) >= 0.8;
}

/** Whether two names are one name but for word forms and a number only one of them gives. */
function sameNameBarForms(a: string, b: string): boolean {
  const wa = nameWords(a);
  const wb = nameWords(b);
  const number = (w: string) => /^\d+$/.test(w);
  const keep = (ws: string[], other: string[]) => ws.filter((w) => !number(w) || other.includes(w));
  const ka = keep(wa, wb);
  const kb = keep(wb, wa);
  if (ka.length === 0 || ka.length !== kb.length) return false;
  return ka.every((w, i) => sameWordForm(w, kb[i]!));
}

function organisersOf(e: Listed): string {
  return (e.organisers ?? [])
    .map((o) => foldText(o.name))
    .sort()
    .join('|');
}

function sameClasses(a: Listed, b: Listed): boolean {
  const ka = new Set((a.classes ?? []).map((c) => classKey(c.name)));
  const kb = new Set((b.classes ?? []).map((c) => classKey(c.name)));
  if (ka.size === 0 && kb.size === 0) return true;
  let shared = 0;
  for (const k of ka) if (kb.has(k)) shared++;
  return shared >= SAME_CLASSES * Math.max(ka.size, kb.size);
}

/**
 * A candidate that is `best` entered a second time (same day, organiser, classes, name but for forms and a number),
 * whose name the export's does not contradict; undefined when there is none.
 */
export function duplicateOf<S extends Scored>(best: S, candidates: readonly S[]): S | undefined {
  const start = Date.parse(best.event.timeInterval.start);
  return candidates.find(
    (c) =>
      c !== best &&
      c.nameReading?.conflict !== true &&
      c.parts.externalId !== 0 &&
      c.parts.date === best.parts.date &&
      Math.abs(Date.parse(c.event.timeInterval.start) - start) < DAY_MS &&
      organisersOf(c.event) === organisersOf(best.event) &&
      sameClasses(c.event, best.event) &&
      sameNameBarForms(c.event.name, best.event.name),
  );
}
