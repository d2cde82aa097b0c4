/**
 * Courses on the two sides, matched by name with case and white space ignored: courses missing on either side, and for
 * each pair the control sequence, the length and the climb.
 */
import type { Course } from '../model.js';
import { capital, list, metres, note, ordinal, type Out, type Settings } from './report.js';

/** The default key for course and class names: case and white space do not count (`Brown 1` is `brown1`). */
export function foldName(name: string): string {
  return name.normalize('NFC').replace(/\s+/g, '').toLowerCase();
}

type Side = 'organiser' | 'service';

const SIDE_WORDS: Readonly<Record<Side, string>> = { organiser: "the organiser's file", service: 'the service' };

interface Keyed<T> {
  map: Map<string, T>;
  /** Names that appear more than once on the side (after folding). */
  duplicates: string[];
}

function keyed<T>(items: readonly T[], name: (t: T) => string, key: (n: string) => string): Keyed<T> {
  const map = new Map<string, T>();
  const duplicates: string[] = [];
  for (const item of items) {
    const k = key(name(item));
    if (map.has(k)) duplicates.push(name(item));
    else map.set(k, item);
  }
  return { map, duplicates };
}

export function compareCourseLists(
  orgCourses: readonly Course[],
  svcCourses: readonly Course[],
  settings: Settings,
  out: Out,
) {
  const org = keyed(orgCourses, (c) => c.name, foldName);
  const svc = keyed(svcCourses, (c) => c.name, foldName);
  for (const [side, k] of [
    ['organiser', org],
    ['service', svc],
  ] as const) {
    if (k.duplicates.length > 0) {
      note(
        out,
        'duplicate_course_name',
        `${capital(SIDE_WORDS[side])} has more than one course named ${list(k.duplicates)} (ignoring case and ` +
          'spaces): only the first of each was compared.',
      );
    }
  }

  for (const [key, o] of org.map) {
    const s = svc.map.get(key);
    if (s === undefined) {
      out.findings.push({
        kind: 'course_missing_on_service',
        course: o.name,
        message: `Course ${o.name} is in the organiser's file but not on the service.`,
      });
      continue;
    }
    compareSequences(o, s, out);
    compareNumber(
      o,
      s,
      'length',
      out,
      Math.max(settings.lengthToleranceM, settings.lengthToleranceRatio * (o.length ?? 0)),
    );
    compareNumber(o, s, 'climb', out, settings.climbToleranceM);
  }
  for (const [key, s] of svc.map) {
    if (org.map.has(key)) continue;
    out.findings.push({
      kind: 'course_missing_in_organiser',
      course: s.name,
      message: `Course ${s.name} is on the service but not in the organiser's file.`,
    });
  }
}

function compareSequences(o: Course, s: Course, out: Out): void {
  const a = o.controls.map((c) => c.controlId);
  const b = s.controls.map((c) => c.controlId);
  const length = Math.max(a.length, b.length);
  let i = 0;
  while (i < length && a[i] === b[i]) i++;
  if (i === length) return;
  const here = (x: string | undefined, whose: string): string =>
    x === undefined ? `${whose} course ends before it` : `${whose} has ${x}`;
  out.findings.push({
    kind: 'sequence_changed',
    course: o.name,
    message:
      `Course ${o.name}: the controls differ from the ${ordinal(i + 1)} on (${here(a[i], "the organiser's file")}, ` +
      `${here(b[i], 'the service')}). Organiser: ${a.join('-')}; service: ${b.join('-')}.`,
    organiser: a,
    service: b,
    position: i + 1,
  });
}

function compareNumber(o: Course, s: Course, what: 'length' | 'climb', out: Out, toleranceM: number): void {
  const a = o[what];
  const b = s[what];
  // A value only the service has is not a difference: the service may work out a length the file left out.
  if (a === undefined) return;
  const kind = what === 'length' ? 'length_changed' : 'climb_changed';
  const tolerance = Math.round(toleranceM * 10) / 10;
  if (b === undefined) {
    out.findings.push({
      kind,
      course: o.name,
      message: `Course ${o.name} has a ${what} of ${metres(a)} in the organiser's file but none on the service.`,
      organiser: a,
      toleranceM: tolerance,
    });
    return;
  }
  const diff = b - a;
  if (Math.abs(diff) <= toleranceM) return;
  out.findings.push({
    kind,
    course: o.name,
    message:
      `Course ${o.name} has a ${what} of ${metres(a)} in the organiser's file and ${metres(b)} on the service ` +
      `(${metres(Math.abs(diff))} ${diff > 0 ? 'more' : 'less'}; tolerance ${metres(tolerance)}).`,
    organiser: a,
    service: b,
    toleranceM: tolerance,
  });
}
