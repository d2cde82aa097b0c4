/**
 * The event and classes of any IOF message (class, entry, start and result lists, course data; IOF 3.0 and 2.0.3),
 * read as a stream: a 50 MB result list from an event system is read in bounded memory, without a tree, keeping only
 * the event, the classes, their entry counts and what their courses agree on (one split sequence per class, never one
 * per competitor).
 *
 * One table of element contexts serves both versions: their element names differ where their structures differ
 * (3.0 `Class/Id` against 2.0.3 `ClassId`, `TeamMemberResult` against a 2.0.3 `PersonResult` inside a `TeamResult`), so
 * the reader follows whichever it meets and only the reported version needs the version cues.
 */
import { DECIMAL, LENGTH_UNITS, scaled } from './numbers.js';
import { InputError } from '../errors.js';
import { assertMayBeXml, judgeIofRoot, versionFromElement } from './identify.js';
import type { EventInfo, IofClass, IofEventClasses, IofMessageType, IofVersion, RaceInfo } from './model.js';
import { parseAttributes, streamXml, type XmlHandler, type XmlInput, type XmlTokenizer } from './stream.js';

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
/** An organiser's country: 3.0 `Country` (attribute `code`), 2.0.3 `CountryId` (attribute `value`). */
const ORGANISER_COUNTRY = 60;
/** 2.0.3 `Club/Country`, which holds a `CountryId`. */
const ORGANISER_COUNTRY_WRAP = 61;
const RACE_ORGANISER = 62;
const RACE_POSITION = 63;
const COURSE_LENGTH = 64;
const COURSE_CLIMB = 65;
const COURSE_CONTROL_COUNT = 66;
/** An individual result's 3.0 `Status` (text) or 2.0.3 `CompetitorStatus` (attribute `value`). */
const RESULT_STATUS = 67;
const COMPETITOR_STATUS = 68;
const SPLIT = 69;
/** 2.0.3 `SplitTime/Control`, which holds a `ControlCode`. */
const SPLIT_CONTROL = 70;
const SPLIT_CODE = 71;
/** A 3.0 start's or result's `StartTime` (date and time in one), of persons and team members alike. */
const COMPETITOR_START = 72;
const LAST_CONTEXT = COMPETITOR_START;

/** Contexts whose text is read. */
const TEXT_CONTEXT_LIST = [
  COMPETITOR_START,
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
  COURSE_LENGTH,
  COURSE_CLIMB,
  COURSE_CONTROL_COUNT,
  RESULT_STATUS,
  SPLIT_CODE,
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
/** 3.0 `Course` (SimpleCourse) and 2.0.3 `CourseVariation` side by side. */
const COURSE_REF_CHILDREN: Children = {
  Id: COURSE_ID,
  CourseVariationId: COURSE_ID,
  Name: COURSE_NAME,
  Length: COURSE_LENGTH,
  CourseLength: COURSE_LENGTH,
  Climb: COURSE_CLIMB,
  CourseClimb: COURSE_CLIMB,
  NumberOfControls: COURSE_CONTROL_COUNT,
};
/** The course of a start or result: a 3.0 `Course`, or 2.0.3 `CourseVariationId | CourseVariation | CourseLength`. */
const RACE_COURSE_CHILDREN: Children = {
  Course: COURSE_REF,
  CourseVariation: COURSE_REF,
  CourseVariationId: COURSE_ID,
  CourseLength: COURSE_LENGTH,
};
// Only individual results give split times for the class's course: a team member's are those of one leg.
const PERSON_RACE_CHILDREN: Children = {
  ...RACE_COURSE_CHILDREN,
  Status: RESULT_STATUS,
  CompetitorStatus: COMPETITOR_STATUS,
  SplitTime: SPLIT,
  StartTime: COMPETITOR_START,
};
const MEMBER_RACE_CHILDREN: Children = {
  ...RACE_COURSE_CHILDREN,
  Leg: LEG_NUMBER,
  TeamSequence: LEG_NUMBER,
  StartTime: COMPETITOR_START,
};
const DATE_TIME_START: Children = { Date: START_DATE, Time: START_TIME, Clock: START_TIME };
const DATE_TIME_END: Children = { Date: END_DATE, Time: END_TIME, Clock: END_TIME };

/** Child contexts by parent context and local name: IOF 3.0 and 2.0.3 names side by side. */
const CHILDREN_BY_NAME: Readonly<Record<number, Children>> = {
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
  [ORGANISER]: { Name: ORGANISER_NAME, Club: ORGANISER_CLUB, Country: ORGANISER_COUNTRY },
  [ORGANISER_CLUB]: {
    Name: ORGANISER_NAME,
    ShortName: ORGANISER_SHORT,
    CountryId: ORGANISER_COUNTRY,
    Country: ORGANISER_COUNTRY_WRAP,
  },
  [ORGANISER_COUNTRY_WRAP]: { CountryId: ORGANISER_COUNTRY },
  [RACE]: {
    RaceNumber: RACE_NUMBER,
    Name: RACE_NAME,
    StartTime: RACE_START,
    RaceDate: RACE_START,
    Position: RACE_POSITION,
    Organiser: RACE_ORGANISER,
  },
  // A race's organisers add their countries only: the event's organiser names stay those of the event.
  [RACE_ORGANISER]: { Country: ORGANISER_COUNTRY },
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
  [PERSON_RACE]: PERSON_RACE_CHILDREN,
  [SPLIT]: { ControlCode: SPLIT_CODE, Control: SPLIT_CONTROL },
  [SPLIT_CONTROL]: { ControlCode: SPLIT_CODE },
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

/**
 * `CHILDREN_BY_NAME` as maps, by parent context. Every element name comes fresh from the text: a property look-up
 * interns it first, a map only hashes it, at half the cost, and a result list looks up a name for most of its elements.
 */
const CHILDREN: ReadonlyArray<ReadonlyMap<string, number> | undefined> = Array.from(
  { length: LAST_CONTEXT + 1 },
  (_, c) => {
    const children = CHILDREN_BY_NAME[c];
    return children === undefined ? undefined : new Map(Object.entries(children));
  },
);

/* ------------------------------------------------------------------------------------------------------- courses */

type ClassCourse = NonNullable<IofClass['course']>;

/** What one course element (or a 2.0.3 result's bare `CourseVariationId`/`CourseLength`) says. */
type CourseSeen = Omit<ClassCourse, 'controls'>;

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
class CourseTally {
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

const COUNTRY_CODE = /^[A-Za-z]{3}$/;

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

/** A GeoPosition's `lat`/`lng` as degrees, or `undefined` when either is missing, not a number or out of range. */
function degrees(attributes: string): { lat: number; lng: number } | undefined {
  const a = parseAttributes(attributes);
  const lat = a['lat']?.trim();
  const lng = a['lng']?.trim();
  if (lat === undefined || lng === undefined || !DECIMAL.test(lat) || !DECIMAL.test(lng)) return undefined;
  const position = { lat: Number(lat), lng: Number(lng) };
  // Condes writes grid eastings and northings here: out of range, so not degrees.
  if (Math.abs(position.lat) > 90 || Math.abs(position.lng) > 180) return undefined;
  return position;
}

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
  /** Made at the first course element or split times of the class. */
  course: CourseTally | undefined;
}

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
  /** The `type` (3.0) or `idManager`/`type` (2.0.3) of the event id being read. */
  private eventIdType: string | undefined;
  private readonly countries = new Set<string>();

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
  /** The course element being read, or what a 2.0.3 result says of its course without one. */
  private course: CourseSeen = {};
  /** Metres per unit of the length being read (2.0.3 `unit`); `undefined` for a unit not known. */
  private metresPerUnit: number | undefined = 1;
  /** Whether the individual result being read has status OK. */
  private resultOk = false;
  /** The earliest competitor start time met, as written, and as epoch milliseconds to compare. */
  private firstStart: string | undefined;
  private firstStartMs: number | undefined;
  /**
   * Where the split times of the individual result being read go: the tally of its class block, unless there is none
   * or its split times can no longer matter. Until the class has a sequence its codes are collected in `splitCodes`;
   * after, each is compared with the class's sequence as it comes, so a 50 MB result list costs no array per result.
   */
  private splitTally: CourseTally | undefined;
  private splitReference: readonly string[] | undefined;
  private readonly splitCodes: string[] = [];
  /** Split times on the course, control codes read, and whether those codes match `splitReference` so far. */
  private splitCount = 0;
  private codeCount = 0;
  private splitsMatch = true;
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
    let context = SKIP;
    if (parent === SPLIT) {
      // Split times are most of the elements of a result list: their children are told apart by comparing names (a
      // table look-up by a name fresh from the text hashes it) and have nothing to start.
      if (name === 'ControlCode') context = SPLIT_CODE;
      else if (name === 'Control') context = SPLIT_CONTROL;
    } else if (parent !== SKIP) {
      context = CHILDREN[parent]?.get(name) ?? SKIP;
      if (context !== SKIP) context = this.enter(context, attributes);
    }
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
    // Outside the big switch: this runs for every split time.
    if (context === SPLIT_CODE) this.splitCode(this.collected.trim());
    else this.leave(context, TEXT_CONTEXTS[context] === 1 ? this.collected.trim() : '');
  }

  /**
   * Starts what an element begins and reads the attributes it needs; may turn the context into `SKIP` (a second event
   * of an event list).
   */
  private enter(context: number, attributes: string): number {
    switch (context) {
      case EVENT:
        // An event list: the first event only.
        if (this.event !== undefined) return SKIP;
        this.event = { name: '', organisers: [] };
        return context;
      case EVENT_ID: {
        // 2.0.3: idManager names who issued the id (`SWE`), as 3.0's type does; its type is only a scope (`nat`).
        const a = attributes === '' ? undefined : parseAttributes(attributes);
        this.eventIdType = (a?.['idManager'] ?? a?.['type'])?.trim() || undefined;
        return context;
      }
      case ORGANISER_COUNTRY: {
        if (attributes === '') return context;
        const a = parseAttributes(attributes);
        const code = (a['code'] ?? a['value'])?.trim();
        if (code !== undefined && COUNTRY_CODE.test(code)) this.countries.add(code.toUpperCase());
        return context;
      }
      case RACE:
        this.race = {};
        return context;
      case RACE_POSITION: {
        const position = degrees(attributes);
        if (position !== undefined) this.race.position = position;
        return context;
      }
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
      case PERSON_RACE: {
        this.course = {};
        this.resultOk = false;
        const tally = this.block?.course;
        this.splitTally = tally?.wantsControls ? tally : undefined;
        this.splitReference = this.splitTally?.firstControls;
        this.splitCodes.length = 0;
        this.splitCount = 0;
        this.codeCount = 0;
        this.splitsMatch = true;
        return context;
      }
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
        if (this.splitTally === undefined || !this.resultOk) return SKIP;
        // Punched, but not on the course (3.0): it says nothing of the course's controls.
        if (attributes.includes('Additional') && parseAttributes(attributes)['status'] === 'Additional') return SKIP;
        this.splitCount++;
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
        if (this.event && value !== '') {
          this.event.id ??= value;
          const externalId = this.eventIdType === undefined ? { id: value } : { type: this.eventIdType, id: value };
          (this.event.externalIds ??= []).push(externalId);
        }
        return;
      case EVENT_NAME:
        if (this.event) this.event.name = value;
        return;
      case COMPETITOR_START: {
        // Only a full date-time (3.0); a 2.0.3 clock time alone says nothing of the day.
        const ms = /^\d{4}-\d{2}-\d{2}T/.test(value) ? Date.parse(value) : Number.NaN;
        if (!Number.isNaN(ms) && (this.firstStartMs === undefined || ms < this.firstStartMs)) {
          this.firstStartMs = ms;
          this.firstStart = value;
        }
        return;
      }
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
        this.closeSplits();
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

  /** The control code of a split time of an OK individual result. */
  private splitCode(code: string): void {
    if (code === '') return;
    const reference = this.splitReference;
    if (reference === undefined) this.splitCodes.push(code);
    else if (reference[this.codeCount] !== code) this.splitsMatch = false;
    this.codeCount++;
  }

  /**
   * The split times of an OK individual result, once it ends. A split time without a control code (2.0.3 allows it)
   * leaves the result's sequence unknown: it neither sets nor contradicts the class's.
   */
  private closeSplits(): void {
    const tally = this.splitTally;
    this.splitTally = undefined;
    if (tally === undefined || this.splitCount === 0 || this.codeCount !== this.splitCount) return;
    const reference = this.splitReference;
    if (reference === undefined) tally.seeControls(this.splitCodes);
    else if (!this.splitsMatch || this.codeCount !== reference.length) tally.controlsDisagree();
  }

  private finishEvent(): void {
    const event = this.event;
    if (event === undefined) return;
    if (this.countries.size > 0) event.countries = [...this.countries];
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

  /** A course shown for the current block's class, or (entry lists) for the entry's classes. */
  private noteCourse(course: CourseSeen): void {
    const { id, name } = course;
    if (this.block) {
      if (id !== undefined) this.block.courseIds.add(id);
      if (name !== undefined) this.block.courseNames.add(name);
      this.block.course.see(course);
    } else if (this.entry) {
      for (const cls of this.entry.classes) {
        this.noteCourseOn(cls, id, name);
        (cls.course ??= new CourseTally()).see(course);
      }
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
        course: undefined,
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
    // Course data is read in full by parseCourseData; the course of a class there is the assigned course's.
    const withCourse = this.messageType !== 'CourseData';
    const classes = this.classes.map((c): IofClass => {
      const course = withCourse ? c.course?.result() : undefined;
      return {
        ...(c.id === undefined ? {} : { id: c.id }),
        name: c.name,
        ...(c.shortName === undefined ? {} : { shortName: c.shortName }),
        ...(c.courseIds.size === 0 ? {} : { courseIds: [...c.courseIds] }),
        ...(c.courseNames.size === 0 ? {} : { courseNames: [...c.courseNames] }),
        ...(course === undefined ? {} : { course }),
        entries: c.entries,
        ...(c.legs === 0 ? {} : { legs: c.legs }),
      };
    });
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
      ...(this.firstStart === undefined ? {} : { firstStart: this.firstStart }),
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
 * path, in bounded memory (nothing but the event and the classes is kept, with at most one control sequence per class;
 * a 50 MB result list needs a few MB).
 *
 * - Classes come from class lists (`Class`), the event's class definitions, entry lists (the `Class` of each
 *   `PersonEntry`/`TeamEntry`, 2.0.3 `EntryClass`), start and result lists (`ClassStart`/`ClassResult`, 2.0.3 by
 *   `ClassId`/`ClassShortName`/`EventClass`) and course data (`ClassCourseAssignment`, 2.0.3 `Course/ClassShortName`).
 *   A class met in several places is one class (matched by id, else name, else short name).
 * - `entries` counts the persons or teams of the class in this document; `courseIds`/`courseNames` collect the
 *   courses named for it (class-level `Course`, each competitor's `Course`, 2.0.3 `CourseVariation`, assignments);
 *   `legs` comes from `Class/Leg` definitions, team members' leg numbers (2.0.3 `TeamSequence`), `AllowedOnLeg`, or
 *   failing those the most members of one team.
 * - `course` is what every course element of the class agrees on (id, name, length, climb, number of controls), and
 *   `course.controls` the control codes of its OK individual results' split times when they all give the same
 *   sequence; left out for course data. See `IofClass.course`.
 * - The event also gives `externalIds` (every `Event/Id` with its `type`, 2.0.3 `EventId` with its `idManager`) and
 *   `countries` (the organisers' country codes), and each 3.0 race its arena `position`, so the event can be looked
 *   up on the service that issued its id and matched by place.
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
