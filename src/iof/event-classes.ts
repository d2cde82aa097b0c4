/**
 * The event and classes of any IOF message (class, entry, start and result lists, course data; IOF 3.0 and 2.0.3),
 * read as a stream: a 50 MB result list from an event system is read in bounded memory, without a tree, keeping only
 * the classes, their entry counts and course names.
 *
 * One table of element contexts serves both versions: their element names differ where their structures differ
 * (3.0 `Class/Id` against 2.0.3 `ClassId`, `TeamMemberResult` against a 2.0.3 `PersonResult` inside a `TeamResult`), so
 * the reader follows whichever it meets and only the reported version needs the version cues.
 */
import { InputError } from '../errors.js';
import { assertMayBeXml, judgeIofRoot, versionFromElement } from './identify.js';
import type { EventInfo, IofClass, IofEventClasses, IofMessageType, IofVersion, RaceInfo } from './model.js';
import { streamXml, type XmlHandler, type XmlInput, type XmlTokenizer } from './stream.js';

export interface ReadEventClassesOptions {
  /** Name of the input in errors. Default: the path, or `input`. */
  source?: string;
  /** Cancels the reading; the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Largest document accepted, in bytes. Default 512 MiB. */
  maxBytes?: number;
}

/** Most distinct classes kept: real events have hundreds; a document naming more is refused rather than hoarded. */
export const MAX_CLASSES = 100_000;

/* ------------------------------------------------------------------------------------------------------ contexts */

// Where the reader is. Elements without a context of their own (and all below them) are skipped.
const SKIP = 0;
const ROOT = 1;
const EVENT = 2;
const EVENT_ID = 3;
const EVENT_NAME = 4;
const EVENT_START = 5;
const EVENT_END = 6;
const START_DATE = 7;
const START_TIME = 8;
const END_DATE = 9;
const END_TIME = 10;
const ORGANISER = 11;
const ORGANISER_CLUB = 12;
const ORGANISER_NAME = 13;
const ORGANISER_SHORT = 14;
const RACE = 15;
const RACE_NUMBER = 16;
const RACE_NAME = 17;
const RACE_START = 18;
const RACE_DATE = 19;
const RACE_TIME = 20;
/** A class definition (event, class list) or reference (entry, start, result): its id, names, legs. */
const CLASS = 21;
const CLASS_ID = 22;
const CLASS_NAME = 23;
const CLASS_SHORT = 24;
const CLASS_LEG = 25;
/** `ClassStart` / `ClassResult`: one class and its entries. */
const CLASS_BLOCK = 26;
const PERSON = 27;
const PERSON_RACE_WRAP = 28;
const PERSON_RACE = 29;
const TEAM = 30;
const MEMBER = 31;
const MEMBER_RACE_WRAP = 32;
const MEMBER_RACE = 33;
const LEG_NUMBER = 34;
const COURSE_REF = 35;
const COURSE_ID = 36;
const COURSE_NAME = 37;
const PERSON_ENTRY = 38;
const TEAM_ENTRY = 39;
const TEAM_ENTRY_PERSON = 40;
const CLUB_ENTRY = 41;
const ENTRY2 = 42;
const ENTRY2_TEAM_NAME = 43;
const ENTRY2_PERSON = 44;
const RACE_COURSE_DATA = 45;
const CONTROL3 = 46;
const COURSE3 = 47;
const ASSIGNMENT = 48;
const ASSIGNMENT_COURSE = 49;
const ASSIGNMENT_LEG = 50;
const CONTROL2 = 51;
const CONTROL2_CODE = 52;
const COURSE2 = 53;
const COURSE2_NAME = 54;
const COURSE2_ID = 55;
const COURSE2_CLASS_ID = 56;
const COURSE2_CLASS_SHORT = 57;
const VARIATION2 = 58;
const COURSE_CONTROL2 = 59;
const LAST_CONTEXT = COURSE_CONTROL2;

/** Contexts whose text is read. */
const TEXT_CONTEXT_LIST = [
  EVENT_ID,
  EVENT_NAME,
  START_DATE,
  START_TIME,
  END_DATE,
  END_TIME,
  ORGANISER_NAME,
  ORGANISER_SHORT,
  RACE_NUMBER,
  RACE_NAME,
  RACE_DATE,
  RACE_TIME,
  CLASS_ID,
  CLASS_NAME,
  CLASS_SHORT,
  LEG_NUMBER,
  COURSE_ID,
  COURSE_NAME,
  ENTRY2_TEAM_NAME,
  ASSIGNMENT_COURSE,
  ASSIGNMENT_LEG,
  CONTROL2_CODE,
  COURSE2_NAME,
  COURSE2_ID,
  COURSE2_CLASS_ID,
  COURSE2_CLASS_SHORT,
];
/** 1 for contexts whose text is read, by context: an array look-up runs for every element of the document. */
const TEXT_CONTEXTS = new Uint8Array(LAST_CONTEXT + 1);
for (const context of TEXT_CONTEXT_LIST) TEXT_CONTEXTS[context] = 1;

type Children = Readonly<Record<string, number>>;

const CLASS_CHILDREN: Children = {
  Id: CLASS_ID,
  ClassId: CLASS_ID,
  Name: CLASS_NAME,
  ShortName: CLASS_SHORT,
  ClassShortName: CLASS_SHORT,
  Leg: CLASS_LEG,
  // 2.0.3 EventClass holds (ClassId | Class); EntryClass holds (ClassId | ClassShortName | EventClass).
  Class: CLASS,
  EventClass: CLASS,
};
const COURSE_REF_CHILDREN: Children = { Id: COURSE_ID, CourseVariationId: COURSE_ID, Name: COURSE_NAME };
const RACE_RESULT_CHILDREN: Children = {
  Course: COURSE_REF,
  CourseVariation: COURSE_REF,
  CourseVariationId: COURSE_ID,
};
const MEMBER_RACE_CHILDREN: Children = { ...RACE_RESULT_CHILDREN, Leg: LEG_NUMBER, TeamSequence: LEG_NUMBER };
const DATE_TIME_START: Children = { Date: START_DATE, Time: START_TIME, Clock: START_TIME };
const DATE_TIME_END: Children = { Date: END_DATE, Time: END_TIME, Clock: END_TIME };

/** Child contexts by parent context and local name: IOF 3.0 and 2.0.3 names side by side. */
const CHILDREN: Readonly<Record<number, Children>> = {
  [ROOT]: {
    Event: EVENT,
    Class: CLASS, // 3.0 ClassList, 2.0.3 ClassData
    ClassStart: CLASS_BLOCK,
    ClassResult: CLASS_BLOCK,
    PersonEntry: PERSON_ENTRY,
    TeamEntry: TEAM_ENTRY,
    ClubEntry: CLUB_ENTRY,
    RaceCourseData: RACE_COURSE_DATA,
    StartPoint: CONTROL2,
    Control: CONTROL2,
    CrossingPoint: CONTROL2,
    FinishPoint: CONTROL2,
    Course: COURSE2,
  },
  [EVENT]: {
    Id: EVENT_ID,
    EventId: EVENT_ID,
    Name: EVENT_NAME,
    StartTime: EVENT_START,
    StartDate: EVENT_START,
    EndTime: EVENT_END,
    FinishDate: EVENT_END,
    Organiser: ORGANISER,
    Race: RACE,
    EventRace: RACE,
    Class: CLASS,
    EventClass: CLASS,
  },
  [EVENT_START]: DATE_TIME_START,
  [EVENT_END]: DATE_TIME_END,
  [ORGANISER]: { Name: ORGANISER_NAME, Club: ORGANISER_CLUB },
  [ORGANISER_CLUB]: { Name: ORGANISER_NAME, ShortName: ORGANISER_SHORT },
  [RACE]: { RaceNumber: RACE_NUMBER, Name: RACE_NAME, StartTime: RACE_START, RaceDate: RACE_START },
  [RACE_START]: { Date: RACE_DATE, Time: RACE_TIME, Clock: RACE_TIME },
  [CLASS]: CLASS_CHILDREN,
  [CLASS_BLOCK]: {
    Class: CLASS,
    EventClass: CLASS,
    ClassId: CLASS_ID,
    ClassShortName: CLASS_SHORT,
    Course: COURSE_REF,
    PersonStart: PERSON,
    PersonResult: PERSON,
    TeamStart: TEAM,
    TeamResult: TEAM,
  },
  [PERSON]: {
    Start: PERSON_RACE,
    Result: PERSON_RACE,
    RaceStart: PERSON_RACE_WRAP,
    RaceResult: PERSON_RACE_WRAP,
  },
  [PERSON_RACE_WRAP]: { Start: PERSON_RACE, Result: PERSON_RACE },
  [PERSON_RACE]: RACE_RESULT_CHILDREN,
  [TEAM]: {
    TeamMemberStart: MEMBER,
    TeamMemberResult: MEMBER,
    PersonStart: MEMBER,
    PersonResult: MEMBER,
  },
  [MEMBER]: {
    Start: MEMBER_RACE,
    Result: MEMBER_RACE,
    RaceStart: MEMBER_RACE_WRAP,
    RaceResult: MEMBER_RACE_WRAP,
  },
  [MEMBER_RACE_WRAP]: { Start: MEMBER_RACE, Result: MEMBER_RACE },
  [MEMBER_RACE]: MEMBER_RACE_CHILDREN,
  [COURSE_REF]: COURSE_REF_CHILDREN,
  [PERSON_ENTRY]: { Class: CLASS, Course: COURSE_REF },
  [TEAM_ENTRY]: { Class: CLASS, TeamEntryPerson: TEAM_ENTRY_PERSON },
  [TEAM_ENTRY_PERSON]: { Leg: LEG_NUMBER },
  [CLUB_ENTRY]: { Entry: ENTRY2 },
  [ENTRY2]: { TeamName: ENTRY2_TEAM_NAME, Person: ENTRY2_PERSON, PersonId: ENTRY2_PERSON, EntryClass: CLASS },
  [RACE_COURSE_DATA]: { Control: CONTROL3, Course: COURSE3, ClassCourseAssignment: ASSIGNMENT },
  [ASSIGNMENT]: {
    ClassId: CLASS_ID,
    ClassName: CLASS_NAME,
    CourseName: ASSIGNMENT_COURSE,
    AllowedOnLeg: ASSIGNMENT_LEG,
  },
  [CONTROL2]: { StartPointCode: CONTROL2_CODE, ControlCode: CONTROL2_CODE, FinishPointCode: CONTROL2_CODE },
  [COURSE2]: {
    CourseName: COURSE2_NAME,
    CourseId: COURSE2_ID,
    ClassId: COURSE2_CLASS_ID,
    ClassShortName: COURSE2_CLASS_SHORT,
    CourseVariation: VARIATION2,
  },
  [VARIATION2]: { StartPoint: CONTROL2, FinishPoint: CONTROL2, CourseControl: COURSE_CONTROL2 },
  [COURSE_CONTROL2]: { Control: CONTROL2 },
};

/* ---------------------------------------------------------------------------------------------------- the reader */

/** What a class element (or a class block's direct 2.0.3 children) says, until it is closed. */
interface ClassDraft {
  id?: string;
  name?: string;
  shortName?: string;
  legs?: number;
}

/** A class as collected: the public shape plus sets that become lists at the end. */
interface ClassRecord {
  id: string | undefined;
  name: string;
  shortName: string | undefined;
  entries: number;
  legs: number;
  courseIds: Set<string>;
  courseNames: Set<string>;
}

/** A `ClassStart` / `ClassResult` being read. */
interface Block {
  draft: ClassDraft;
  entries: number;
  courseIds: Set<string>;
  courseNames: Set<string>;
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

class EventClassesReader implements XmlHandler {
  messageType: IofMessageType | undefined;
  version: IofVersion | undefined;
  private doctypeSeen: { name: string; systemId: string | undefined } | undefined;

  private readonly contexts: number[] = [];
  private collected = '';

  event: EventInfo | undefined;
  private eventStart = { date: '', time: '' };
  private eventEnd = { date: '', time: '' };
  readonly races: RaceInfo[] = [];
  private race: RaceInfo & { date?: string; time?: string } = {};
  private organiserName: string | undefined;
  private organiserShort: string | undefined;

  private readonly classes: ClassRecord[] = [];
  private readonly byId = new Map<string, ClassRecord>();
  private readonly byName = new Map<string, ClassRecord>();
  private readonly byShortName = new Map<string, ClassRecord>();
  /** Class elements being read, innermost last (a 2.0.3 `EventClass` holds a `Class`: both fill one draft). */
  private draft: ClassDraft | undefined;
  private draftDepth = 0;

  private block: Block | undefined;
  private entry: Entry | undefined;
  private members = 0;
  private courseId: string | undefined;
  private courseName: string | undefined;
  private assignment: { courseName?: string; maxLeg: number } | undefined;
  private course2: { name?: string; id?: string; classIds: string[]; classShortNames: string[]; variations: number } = {
    classIds: [],
    classShortNames: [],
    variations: 0,
  };
  private readonly controlCodes = new Set<string>();

  persons = 0;
  teams = 0;
  courses = 0;
  private controls3 = 0;

  constructor(
    private readonly tokenizer: XmlTokenizer,
    private readonly source: string,
  ) {}

  doctype(name: string, systemId: string | undefined): void {
    this.doctypeSeen = { name, systemId };
  }

  startElement(name: string, attributes: string, qualified: string): void {
    const depth = this.contexts.length;
    if (depth === 0) {
      const root = judgeIofRoot(name, qualified, attributes, this.doctypeSeen, this.source);
      this.messageType = root.messageType;
      this.version = root.version;
      this.contexts.push(ROOT);
      return;
    }
    if (this.version === undefined) this.version = versionFromElement(name, attributes, this.source);
    const parent = this.contexts[depth - 1]!;
    let context = parent === SKIP ? SKIP : (CHILDREN[parent]?.[name] ?? SKIP);
    if (context !== SKIP) context = this.enter(context);
    this.contexts.push(context);
    if (TEXT_CONTEXTS[context] === 1) {
      this.collected = '';
      this.tokenizer.captureText = true;
    }
  }

  text(text: string): void {
    this.collected += text;
  }

  endElement(): void {
    const context = this.contexts.pop();
    if (context === undefined || context === SKIP) return;
    this.leave(context, TEXT_CONTEXTS[context] === 1 ? this.collected.trim() : '');
  }

  /** Starts what an element begins; may turn the context into `SKIP` (a second event of an event list). */
  private enter(context: number): number {
    switch (context) {
      case EVENT:
        // An event list: the first event only.
        if (this.event !== undefined) return SKIP;
        this.event = { name: '', organisers: [] };
        return context;
      case RACE:
        this.race = {};
        return context;
      case ORGANISER_CLUB:
      case ORGANISER:
        this.organiserName = undefined;
        this.organiserShort = undefined;
        return context;
      case CLASS:
        // A class inside a start or result block describes the block's class; a 2.0.3 EventClass holding a Class
        // describes one class with both.
        if (this.draftDepth++ === 0) this.draft = this.block?.draft ?? {};
        return context;
      case ASSIGNMENT:
        this.draft = {};
        this.assignment = { maxLeg: 0 };
        return context;
      case CLASS_BLOCK:
        this.block = { draft: {}, entries: 0, courseIds: new Set(), courseNames: new Set(), maxLeg: 0, maxMembers: 0 };
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
        this.courseId = undefined;
        this.courseName = undefined;
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
      case CONTROL3:
        this.controls3++;
        return context;
      case COURSE3:
        this.courses++;
        return context;
      case COURSE2:
        this.course2 = { classIds: [], classShortNames: [], variations: 0 };
        return context;
      case VARIATION2:
        this.course2.variations++;
        return context;
      default:
        return context;
    }
  }

  private leave(context: number, value: string): void {
    switch (context) {
      case EVENT_ID:
        if (this.event && value !== '') this.event.id = value;
        return;
      case EVENT_NAME:
        if (this.event) this.event.name = value;
        return;
      case START_DATE:
        this.eventStart.date = value;
        return;
      case START_TIME:
        this.eventStart.time = value;
        return;
      case END_DATE:
        this.eventEnd.date = value;
        return;
      case END_TIME:
        this.eventEnd.time = value;
        return;
      case ORGANISER_NAME:
        this.organiserName = value;
        return;
      case ORGANISER_SHORT:
        this.organiserShort = value;
        return;
      case ORGANISER_CLUB:
      case ORGANISER: {
        const name = this.organiserName || this.organiserShort;
        if (name && this.event) this.event.organisers.push(name);
        this.organiserName = undefined;
        this.organiserShort = undefined;
        return;
      }
      case RACE_NUMBER: {
        const n = /^\d+$/.test(value) ? Number(value) : undefined;
        if (n !== undefined) this.race.number = n;
        return;
      }
      case RACE_NAME:
        if (value !== '') this.race.name = value;
        return;
      case RACE_DATE:
        this.race.date = value;
        return;
      case RACE_TIME:
        this.race.time = value;
        return;
      case RACE: {
        const { date, time, ...race } = this.race;
        const start = dateTime(date, time);
        this.races.push(start === undefined ? race : { ...race, start });
        return;
      }
      case EVENT:
        this.finishEvent();
        return;
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
      case ASSIGNMENT_COURSE:
        if (this.assignment && value !== '') this.assignment.courseName = value;
        return;
      case ASSIGNMENT_LEG:
        if (this.assignment && /^\d+$/.test(value))
          this.assignment.maxLeg = Math.max(this.assignment.maxLeg, Number(value));
        return;
      case ASSIGNMENT: {
        const draft = this.draft ?? EMPTY_DRAFT;
        this.draft = undefined;
        const cls = this.resolve(draft);
        if (cls && this.assignment) {
          if (this.assignment.courseName !== undefined) cls.courseNames.add(this.assignment.courseName);
          cls.legs = Math.max(cls.legs, this.assignment.maxLeg);
        }
        this.assignment = undefined;
        return;
      }
      case COURSE_ID:
        if (value !== '') this.courseId = value;
        return;
      case COURSE_NAME:
        if (value !== '') this.courseName = value;
        return;
      case COURSE_REF:
        this.noteCourse(this.courseId, this.courseName);
        this.courseId = undefined;
        this.courseName = undefined;
        return;
      case PERSON_RACE:
      case MEMBER_RACE:
        // A 2.0.3 CourseVariationId directly in the result.
        if (this.courseId !== undefined) this.noteCourse(this.courseId, undefined);
        this.courseId = undefined;
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
      case CONTROL2_CODE:
        if (value !== '') this.controlCodes.add(value);
        return;
      case COURSE2_NAME:
        if (value !== '') this.course2.name = value;
        return;
      case COURSE2_ID:
        if (value !== '') this.course2.id = value;
        return;
      case COURSE2_CLASS_ID:
        if (value !== '') this.course2.classIds.push(value);
        return;
      case COURSE2_CLASS_SHORT:
        if (value !== '') this.course2.classShortNames.push(value);
        return;
      case COURSE2:
        this.closeCourse2();
        return;
      default:
        return;
    }
  }

  private finishEvent(): void {
    const event = this.event;
    if (event === undefined) return;
    const start = dateTime(this.eventStart.date, this.eventStart.time);
    const end = dateTime(this.eventEnd.date, this.eventEnd.time);
    if (start !== undefined) event.start = start;
    if (end !== undefined) event.end = end;
  }

  /** A class element ends: a definition registers the class, a reference in an entry is noted there. */
  private closeClass(): void {
    if (--this.draftDepth > 0) return;
    if (this.block) return; // the block's draft, resolved when the block ends
    const draft = this.draft ?? EMPTY_DRAFT;
    this.draft = undefined;
    const cls = this.resolve(draft);
    if (cls && this.entry && !this.entry.classes.includes(cls)) this.entry.classes.push(cls);
  }

  private closeBlock(): void {
    const block = this.block;
    this.block = undefined;
    this.draft = undefined;
    this.draftDepth = 0;
    if (block === undefined) return;
    const cls = this.resolve(block.draft);
    if (cls === undefined) return;
    cls.entries += block.entries;
    for (const id of block.courseIds) cls.courseIds.add(id);
    for (const name of block.courseNames) cls.courseNames.add(name);
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

  private closeCourse2(): void {
    const course = this.course2;
    this.courses += Math.max(1, course.variations);
    const drafts: ClassDraft[] = [
      ...course.classIds.map((id) => ({ id })),
      ...course.classShortNames.map((shortName) => ({ shortName })),
    ];
    for (const draft of drafts) {
      const cls = this.resolve(draft);
      if (cls) this.noteCourseOn(cls, course.id, course.name);
    }
  }

  /** A course named for the current block's class, or (entry lists) for the entry's classes. */
  private noteCourse(id: string | undefined, name: string | undefined): void {
    if (this.block) {
      if (id !== undefined) this.block.courseIds.add(id);
      if (name !== undefined) this.block.courseNames.add(name);
    } else if (this.entry) {
      for (const cls of this.entry.classes) this.noteCourseOn(cls, id, name);
    }
  }

  private noteCourseOn(cls: ClassRecord, id: string | undefined, name: string | undefined): void {
    if (id !== undefined) cls.courseIds.add(id);
    if (name !== undefined) cls.courseNames.add(name);
  }

  /**
   * The class a draft names, created on first sight. Found by id, else by name, else by short name; a class found by
   * name but carrying another id is another class.
   */
  private resolve(draft: ClassDraft): ClassRecord | undefined {
    const { id, shortName } = draft;
    // 2.0.3 names classes by short name: it is their name when no Name is given.
    const name = draft.name ?? shortName;
    if (id === undefined && name === undefined && shortName === undefined) return undefined;
    let cls = id !== undefined ? this.byId.get(id) : undefined;
    if (cls === undefined && name !== undefined) {
      const byName = this.byName.get(name);
      if (byName !== undefined && (byName.id === undefined || id === undefined || byName.id === id)) cls = byName;
    }
    if (cls === undefined && shortName !== undefined) {
      const byShort = this.byShortName.get(shortName);
      if (byShort !== undefined && (byShort.id === undefined || id === undefined || byShort.id === id)) cls = byShort;
    }
    if (cls === undefined) {
      if (this.classes.length >= MAX_CLASSES) {
        throw new InputError(this.source, 'too_large', `the document names more than ${MAX_CLASSES} classes.`);
      }
      cls = {
        id,
        name: name ?? '',
        shortName,
        entries: 0,
        legs: 0,
        courseIds: new Set(),
        courseNames: new Set(),
      };
      this.classes.push(cls);
    } else {
      cls.id ??= id;
      if (cls.name === '' && name !== undefined) cls.name = name;
      cls.shortName ??= shortName;
    }
    if (cls.id !== undefined && !this.byId.has(cls.id)) this.byId.set(cls.id, cls);
    if (cls.name !== '' && !this.byName.has(cls.name)) this.byName.set(cls.name, cls);
    if (cls.shortName !== undefined && !this.byShortName.has(cls.shortName)) this.byShortName.set(cls.shortName, cls);
    if (draft.legs !== undefined) cls.legs = Math.max(cls.legs, draft.legs);
    return cls;
  }

  result(encoding: IofEventClasses['encoding']): IofEventClasses {
    if (this.messageType === undefined) {
      throw new InputError(this.source, 'not_well_formed', 'not well-formed XML: no root element found.');
    }
    const classes = this.classes.map((c): IofClass => ({
      ...(c.id === undefined ? {} : { id: c.id }),
      name: c.name,
      ...(c.shortName === undefined ? {} : { shortName: c.shortName }),
      ...(c.courseIds.size === 0 ? {} : { courseIds: [...c.courseIds] }),
      ...(c.courseNames.size === 0 ? {} : { courseNames: [...c.courseNames] }),
      entries: c.entries,
      ...(c.legs === 0 ? {} : { legs: c.legs }),
    }));
    const counts: IofEventClasses['counts'] = { persons: this.persons, teams: this.teams };
    if (this.messageType === 'CourseData') {
      counts.courses = this.courses;
      counts.controls = this.controls3 + this.controlCodes.size;
    }
    return {
      version: this.version ?? '3.0',
      messageType: this.messageType,
      encoding,
      ...(this.event === undefined ? {} : { event: this.event }),
      races: this.races,
      classes,
      counts,
    };
  }
}

/** `Date` and an optional time as one ISO 8601 string, as written (offset kept, none invented). */
function dateTime(date: string | undefined, time: string | undefined): string | undefined {
  if (date === undefined || date === '') return undefined;
  return time === undefined || time === '' ? date : `${date}T${time}`;
}

/**
 * Reads the event and the classes of any IOF XML message, IOF 3.0 or 2.0.3, from bytes, a stream of chunks or a file
 * path, in bounded memory (nothing but the classes is kept; a 50 MB result list needs a few MB).
 *
 * - Classes come from class lists (`Class`), the event's class definitions, entry lists (the `Class` of each
 *   `PersonEntry`/`TeamEntry`, 2.0.3 `EntryClass`), start and result lists (`ClassStart`/`ClassResult`, 2.0.3 by
 *   `ClassId`/`ClassShortName`/`EventClass`) and course data (`ClassCourseAssignment`, 2.0.3 `Course/ClassShortName`).
 *   A class met in several places is one class (matched by id, else name, else short name).
 * - `entries` counts the persons or teams of the class in this document; `courseIds`/`courseNames` collect the
 *   courses named for it (class-level `Course`, each competitor's `Course`, 2.0.3 `CourseVariation`, assignments);
 *   `legs` comes from `Class/Leg` definitions, team members' leg numbers (2.0.3 `TeamSequence`), `AllowedOnLeg`, or
 *   failing those the most members of one team.
 * - Entries of a block without any class (a schema-invalid `ClassResult` with no `Class`) are counted in `counts`
 *   only. Event lists give their first event.
 *
 * Throws `InputError` with reason `not_iof`, `unsupported_version`, `empty`, `unreadable`, `too_large`,
 * `unsupported_encoding`, `bad_encoding`, `not_well_formed`, `entity_declaration` or `too_deep` (with line and column
 * where there is one); rejects with the signal's reason when aborted.
 */
export async function readEventAndClasses(
  input: XmlInput,
  options: ReadEventClassesOptions = {},
): Promise<IofEventClasses> {
  const source = options.source ?? (typeof input === 'string' ? input : 'input');
  let reader: EventClassesReader | undefined;
  const info = await streamXml(
    input,
    (tokenizer) => {
      reader = new EventClassesReader(tokenizer, source);
      return reader;
    },
    {
      source,
      inspectHead: (head) => assertMayBeXml(head, source),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(options.maxBytes === undefined ? {} : { maxBytes: options.maxBytes }),
    },
  );
  if (reader === undefined) throw new InputError(source, 'empty', 'the file is empty (0 bytes).');
  return reader.result(info.encoding);
}
