/**
 * What every step of a comparison shares: the settings it works under (resolved once by `compareCourses`), where it
 * puts its findings and notes, and the words its messages are written with, so that all steps count and list alike.
 */
import type { Hint } from '../../errors.js';
import type { Projection } from '../../geo/projection.js';
import type { CompareNote, CompareNoteCode, CourseFinding, GeoreferenceFit } from './types.js';

/** At most this many codes are named in one note; the rest are counted. */
const LIST_MAX = 8;

export interface Settings {
  toleranceM: number;
  lengthToleranceM: number;
  lengthToleranceRatio: number;
  climbToleranceM: number;
  classKey: (name: string) => string;
  serviceProjection: Projection | undefined;
  organiserProjection: Projection | undefined;
}

export interface Out {
  findings: CourseFinding[];
  notes: CompareNote[];
  /** The controls' georeferencing fit, when there were enough controls to fit one. */
  georeference?: GeoreferenceFit;
}

export function note(out: Out, code: CompareNoteCode, message: string, hint?: Hint): void {
  const n: CompareNote = { code, message };
  if (hint !== undefined) n.hint = hint;
  out.notes.push(n);
}

export function metres(n: number): string {
  return `${Math.round(n * 10) / 10} m`;
}

export function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

/** `a, b and 3 more`: at most LIST_MAX items named. */
export function list(items: readonly string[]): string {
  const shown = items.slice(0, LIST_MAX);
  const more = items.length - shown.length;
  if (more > 0) return `${shown.join(', ')} and ${more} more`;
  if (shown.length <= 1) return shown.join('');
  return `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]!}`;
}

/** Courses a class runs: one, or several (forked courses) that it runs one of. */
export function orList(items: readonly string[]): string {
  if (items.length === 0) return 'no course';
  if (items.length === 1) return items[0]!;
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]!}`;
}
