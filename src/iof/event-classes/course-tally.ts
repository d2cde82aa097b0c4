/**
 * `IofClass.course`: what the course elements and split times of one class agree on, tallied while a document streams
 * by. A module of its own because the class blocks, entries, split times and the class registry all hold or feed one.
 */
import type { IofClass } from '../model.js';

export type ClassCourse = NonNullable<IofClass['course']>;

/** What one course element (or a 2.0.3 result's bare `CourseVariationId`/`CourseLength`) says. */
export type CourseSeen = Omit<ClassCourse, 'controls'>;

const COURSE_ID_BIT = 1;
const COURSE_NAME_BIT = 2;
const COURSE_LENGTH_BIT = 4;
const COURSE_CLIMB_BIT = 8;
const COURSE_COUNT_BIT = 16;

/**
 * The course of one class as its course elements and split times show it, field by field: a field keeps the first
 * value given and is dropped once another course element gives a different one (forked courses, relay legs, the races
 * of a multi-race list), so what is left is what every competitor's course agrees on. Split times keep one sequence
 * and a flag, never one per competitor: memory stays O(classes).
 */
export class CourseTally {
  /** The first value of each field. */
  private readonly kept: CourseSeen = {};
  /** `COURSE_*_BIT`s of the fields given two different values. */
  private conflicts = 0;
  private controls: string[] | undefined;
  private controlsDiffer = false;

  see(course: CourseSeen): void {
    const kept = this.kept;
    if (course.id !== undefined) kept.id = this.agree(COURSE_ID_BIT, kept.id, course.id);
    if (course.name !== undefined) kept.name = this.agree(COURSE_NAME_BIT, kept.name, course.name);
    if (course.length !== undefined) kept.length = this.agree(COURSE_LENGTH_BIT, kept.length, course.length);
    if (course.climb !== undefined) kept.climb = this.agree(COURSE_CLIMB_BIT, kept.climb, course.climb);
    if (course.numberOfControls !== undefined) {
      kept.numberOfControls = this.agree(COURSE_COUNT_BIT, kept.numberOfControls, course.numberOfControls);
    }
  }

  /** Whether more split times can change the outcome: not once two sequences differed. */
  get wantsControls(): boolean {
    return !this.controlsDiffer;
  }

  /** The sequence the split times of the next results are compared with, once there is one. */
  get firstControls(): readonly string[] | undefined {
    return this.controls;
  }

  /** The control codes of one OK individual result, in order; copied only when they are the first sequence seen. */
  seeControls(codes: readonly string[]): void {
    if (this.controlsDiffer) return;
    if (this.controls === undefined) this.controls = codes.slice();
    else if (!sameCodes(this.controls, codes)) this.controlsDiffer = true;
  }

  /** An OK result whose split times differ from `firstControls`. */
  controlsDisagree(): void {
    this.controlsDiffer = true;
  }

  /** Adds what another tally of the same class saw (a class block closing into its class). */
  merge(other: CourseTally): void {
    this.conflicts |= other.conflicts;
    this.see(other.kept);
    if (other.controlsDiffer) this.controlsDiffer = true;
    else if (other.controls !== undefined) this.seeControls(other.controls);
  }

  /** The agreed fields; `undefined` when none is left. */
  result(): ClassCourse | undefined {
    const { kept, conflicts } = this;
    const course: ClassCourse = {};
    if (kept.id !== undefined && (conflicts & COURSE_ID_BIT) === 0) course.id = kept.id;
    if (kept.name !== undefined && (conflicts & COURSE_NAME_BIT) === 0) course.name = kept.name;
    if (kept.length !== undefined && (conflicts & COURSE_LENGTH_BIT) === 0) course.length = kept.length;
    if (kept.climb !== undefined && (conflicts & COURSE_CLIMB_BIT) === 0) course.climb = kept.climb;
    if (kept.numberOfControls !== undefined && (conflicts & COURSE_COUNT_BIT) === 0) {
      course.numberOfControls = kept.numberOfControls;
    }
    // One sequence stands for the class's course only when the document shows one course: any field given two
    // values means several (forks, races). A count that differs from the sequence means the split times are not the
    // whole course (OE2010 exports only its radio controls).
    const controls = this.controls;
    if (
      controls !== undefined &&
      !this.controlsDiffer &&
      conflicts === 0 &&
      (course.numberOfControls === undefined || course.numberOfControls === controls.length)
    ) {
      course.numberOfControls = controls.length;
      course.controls = controls;
    }
    return Object.keys(course).length === 0 ? undefined : course;
  }

  private agree<T>(bit: number, kept: T | undefined, value: T): T {
    if (kept === undefined) return value;
    if (kept !== value) this.conflicts |= bit;
    return kept;
  }
}

function sameCodes(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
