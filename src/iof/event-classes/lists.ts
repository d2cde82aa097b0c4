/**
 * The lists part of the event-and-classes reader: classes as class lists and the event define them, and what entry,
 * start and result lists say of them: entries, legs, the courses their competitors run, split times. Counts persons
 * and teams on the way. It handles the contexts of the second run in `contexts.ts`.
 */
import { DECIMAL, LENGTH_UNITS, scaled } from '../numbers.js';
import { parseAttributes } from '../../xml/tokenizer.js';
import { addCourse, type ClassDraft, type ClassRecord, type ClassRegistry } from './classes.js';
import {
  CLASS,
  CLASS_BLOCK,
  CLASS_ID,
  CLASS_LEG,
  CLASS_NAME,
  CLASS_SHORT,
  COMPETITOR_STATUS,
  COURSE_CLIMB,
  COURSE_CONTROL_COUNT,
  COURSE_ID,
  COURSE_LENGTH,
  COURSE_NAME,
  COURSE_REF,
  ENTRY2,
  ENTRY2_PERSON,
  ENTRY2_TEAM_NAME,
  LEG_NUMBER,
  MEMBER,
  MEMBER_RACE,
  PERSON,
  PERSON_ENTRY,
  PERSON_RACE,
  RESULT_STATUS,
  SKIP,
  SPLIT,
  TEAM,
  TEAM_ENTRY,
  TEAM_ENTRY_PERSON,
} from './contexts.js';
import { CourseTally, type CourseSeen } from './course-tally.js';
import type { SplitTimes } from './splits.js';

/** A `ClassStart` / `ClassResult` being read. */
interface Block {
  draft: ClassDraft;
  entries: number;
  courseIds: Set<string>;
  courseNames: Set<string>;
  course: CourseTally;
  /** Highest leg number seen, and most members seen in one team. */
  maxLeg: number;
  maxMembers: number;
}

/** An entry (3.0 `PersonEntry`/`TeamEntry`, 2.0.3 `Entry`) being read: its classes and, for teams, its members. */
interface Entry {
  classes: ClassRecord[];
  team: boolean;
  members: number;
  maxLeg: number;
}

const EMPTY_DRAFT: ClassDraft = {};

export class ListsPart {
  persons = 0;
  teams = 0;

  /** The class element being read (a 2.0.3 `EventClass` holds a `Class`: both fill one draft), and their nesting. */
  private draft: ClassDraft | undefined;
  private draftDepth = 0;
  private block: Block | undefined;
  private entry: Entry | undefined;
  private members = 0;
  /** The course element being read, or what a 2.0.3 result says of its course without one. */
  private course: CourseSeen = {};
  /** Metres per unit of the length being read (2.0.3 `unit`); `undefined` for a unit not known. */
  private metresPerUnit: number | undefined = 1;
  /** Whether the individual result being read has status OK. */
  private resultOk = false;

  constructor(
    private readonly classes: ClassRegistry,
    /** The split times of the individual result being read; the handler gives it their control codes directly. */
    private readonly splits: SplitTimes,
  ) {}

  /** Starts what an element begins and reads the attributes it needs; split times that cannot matter are skipped. */
  enter(context: number, attributes: string): number {
    switch (context) {
      case CLASS:
        // A class inside a start or result block describes the block's class; a 2.0.3 EventClass holding a Class
        // describes one class with both.
        if (this.draftDepth++ === 0) this.draft = this.block?.draft ?? {};
        return context;
      case CLASS_BLOCK:
        this.block = {
          draft: {},
          entries: 0,
          courseIds: new Set(),
          courseNames: new Set(),
          course: new CourseTally(),
          maxLeg: 0,
          maxMembers: 0,
        };
        this.draft = this.block.draft;
        return context;
      case PERSON:
        this.persons++;
        if (this.block) this.block.entries++;
        return context;
      case TEAM:
        this.teams++;
        this.members = 0;
        if (this.block) this.block.entries++;
        return context;
      case MEMBER:
        this.persons++;
        this.members++;
        return context;
      case COURSE_REF:
        this.course = {};
        return context;
      case PERSON_RACE:
        this.course = {};
        this.resultOk = false;
        this.splits.begin(this.block?.course);
        return context;
      case MEMBER_RACE:
        this.course = {};
        return context;
      case COURSE_LENGTH:
      case COURSE_CLIMB:
        this.metresPerUnit = attributes === '' ? 1 : LENGTH_UNITS[parseAttributes(attributes)['unit'] ?? 'm'];
        return context;
      case COMPETITOR_STATUS:
        this.resultOk = attributes !== '' && parseAttributes(attributes)['value'] === 'OK';
        return context;
      case SPLIT:
        // The status comes before the split times in both versions: those of a result that is not OK are skipped.
        if (!this.splits.wanted || !this.resultOk) return SKIP;
        // Punched, but not on the course (3.0): it says nothing of the course's controls.
        if (attributes.includes('Additional') && parseAttributes(attributes)['status'] === 'Additional') return SKIP;
        this.splits.split();
        return context;
      case PERSON_ENTRY:
      case TEAM_ENTRY:
      case ENTRY2:
        this.entry = { classes: [], team: context === TEAM_ENTRY, members: 0, maxLeg: 0 };
        return context;
      case TEAM_ENTRY_PERSON:
      case ENTRY2_PERSON:
        if (this.entry) this.entry.members++;
        return context;
      default:
        return context;
    }
  }

  /** Ends an element; `value` is its text, trimmed, for the contexts whose text is read. */
  leave(context: number, value: string): void {
    switch (context) {
      case CLASS_ID:
        if (this.draft && value !== '') this.draft.id ??= value;
        return;
      case CLASS_NAME:
        if (this.draft && value !== '') this.draft.name ??= value;
        return;
      case CLASS_SHORT:
        if (this.draft && value !== '') this.draft.shortName ??= value;
        return;
      case CLASS_LEG:
        if (this.draft) this.draft.legs = (this.draft.legs ?? 0) + 1;
        return;
      case CLASS:
        this.closeClass();
        return;
      case COURSE_ID:
        if (value !== '') this.course.id = value;
        return;
      case COURSE_NAME:
        if (value !== '') this.course.name = value;
        return;
      case COURSE_LENGTH: {
        const length = metres(value, this.metresPerUnit);
        if (length !== undefined) this.course.length = length;
        return;
      }
      case COURSE_CLIMB: {
        const climb = metres(value, this.metresPerUnit);
        if (climb !== undefined) this.course.climb = climb;
        return;
      }
      case COURSE_CONTROL_COUNT:
        if (/^\d+$/.test(value)) this.course.numberOfControls = Number(value);
        return;
      case COURSE_REF:
        this.noteCourse(this.course);
        this.course = {};
        return;
      case RESULT_STATUS:
        this.resultOk = value === 'OK';
        return;
      case PERSON_RACE:
        // A 2.0.3 CourseVariationId or CourseLength directly in the result.
        this.noteCourse(this.course);
        this.course = {};
        this.splits.close();
        return;
      case MEMBER_RACE:
        this.noteCourse(this.course);
        this.course = {};
        return;
      case LEG_NUMBER:
        if (/^\d+$/.test(value)) {
          const leg = Number(value);
          if (this.block) this.block.maxLeg = Math.max(this.block.maxLeg, leg);
          if (this.entry) this.entry.maxLeg = Math.max(this.entry.maxLeg, leg);
        }
        return;
      case TEAM:
        if (this.block) this.block.maxMembers = Math.max(this.block.maxMembers, this.members);
        return;
      case CLASS_BLOCK:
        this.closeBlock();
        return;
      case ENTRY2_TEAM_NAME:
        if (this.entry) this.entry.team = true;
        return;
      case PERSON_ENTRY:
      case TEAM_ENTRY:
      case ENTRY2:
        this.closeEntry();
        return;
      default:
        return;
    }
  }

  /** A class element ends: a definition registers the class, a reference in an entry is noted there. */
  private closeClass(): void {
    if (--this.draftDepth > 0) return;
    if (this.block) return; // the block's draft, resolved when the block ends
    const draft = this.draft ?? EMPTY_DRAFT;
    this.draft = undefined;
    const cls = this.classes.resolve(draft);
    if (cls && this.entry && !this.entry.classes.includes(cls)) this.entry.classes.push(cls);
  }

  private closeBlock(): void {
    const block = this.block;
    this.block = undefined;
    this.draft = undefined;
    this.draftDepth = 0;
    if (block === undefined) return;
    const cls = this.classes.resolve(block.draft);
    if (cls === undefined) return;
    cls.entries += block.entries;
    for (const id of block.courseIds) cls.courseIds.add(id);
    for (const name of block.courseNames) cls.courseNames.add(name);
    (cls.course ??= new CourseTally()).merge(block.course);
    const legs = block.maxLeg > 0 ? block.maxLeg : block.maxMembers;
    cls.legs = Math.max(cls.legs, legs, block.draft.legs ?? 0);
  }

  private closeEntry(): void {
    const entry = this.entry;
    this.entry = undefined;
    if (entry === undefined) return;
    if (entry.team) {
      this.teams++;
      this.persons += entry.members;
    } else {
      this.persons++;
    }
    for (const cls of entry.classes) {
      cls.entries++;
      if (entry.team) cls.legs = Math.max(cls.legs, entry.maxLeg > 0 ? entry.maxLeg : entry.members);
    }
  }

  /** A course shown for the current block's class, or (entry lists) for the entry's classes. */
  private noteCourse(course: CourseSeen): void {
    const { id, name } = course;
    if (this.block) {
      addCourse(this.block, id, name);
      this.block.course.see(course);
    } else if (this.entry) {
      for (const cls of this.entry.classes) {
        addCourse(cls, id, name);
        (cls.course ??= new CourseTally()).see(course);
      }
    }
  }
}

/**
 * Metres from a length as written, in `metresPerUnit`; `undefined` for what is not a finite, non-negative number
 * (this reader passes over bad values rather than refusing a whole export for one).
 */
function metres(text: string, metresPerUnit: number | undefined): number | undefined {
  if (metresPerUnit === undefined || !DECIMAL.test(text)) return undefined;
  const n = Number(text);
  if (!Number.isFinite(n) || n < 0) return undefined;
  return scaled(n, metresPerUnit);
}
