/**
 * Where the event-and-classes reader is in a document: one number per kind of element it reads, and which child
 * elements lead to which context. One table serves IOF 3.0 and 2.0.3: their element names differ where their
 * structures differ (3.0 `Class/Id` against 2.0.3 `ClassId`, `TeamMemberResult` against a 2.0.3 `PersonResult` inside a
 * `TeamResult`), so the reader follows whichever it meets.
 *
 * Contexts are numbered in three runs, one per part of the reader that handles them (`event.ts`, `lists.ts`,
 * `course-data.ts`), so the handler routes an element by comparing its context with a run's last number. Numbers are
 * used instead of strings because a table look-up by number runs for every element of a 50 MB result list.
 */

// Elements without a context of their own (and all below them) are skipped.
export const SKIP = 0;
export const ROOT = 1;

/* The event, its organisers and races (event.ts). */
export const EVENT = 2;
export const EVENT_ID = 3;
export const EVENT_NAME = 4;
const EVENT_START = 5;
const EVENT_END = 6;
export const START_DATE = 7;
export const START_TIME = 8;
export const END_DATE = 9;
export const END_TIME = 10;
export const ORGANISER = 11;
export const ORGANISER_CLUB = 12;
export const ORGANISER_NAME = 13;
export const ORGANISER_SHORT = 14;
/** An organiser's country: 3.0 `Country` (attribute `code`), 2.0.3 `CountryId` (attribute `value`). */
export const ORGANISER_COUNTRY = 15;
/** 2.0.3 `Club/Country`, which holds a `CountryId`. */
const ORGANISER_COUNTRY_WRAP = 16;
export const RACE = 17;
export const RACE_NUMBER = 18;
export const RACE_NAME = 19;
const RACE_START = 20;
export const RACE_DATE = 21;
export const RACE_TIME = 22;
const RACE_ORGANISER = 23;
export const RACE_POSITION = 24;
/** A 3.0 start's or result's `StartTime` (date and time in one), of persons and team members alike. */
export const COMPETITOR_START = 25;
/**
 * The event part's contexts end here: the handler routes an element by comparing its context with these bounds.
 * @alias
 */
export const LAST_EVENT_CONTEXT = COMPETITOR_START;

/* Classes and what class, entry, start and result lists say of them (lists.ts). */
/** A class definition (event, class list) or reference (entry, start, result): its id, names, legs. */
export const CLASS = 26;
export const CLASS_ID = 27;
export const CLASS_NAME = 28;
export const CLASS_SHORT = 29;
export const CLASS_LEG = 30;
/** `ClassStart` / `ClassResult`: one class and its entries. */
export const CLASS_BLOCK = 31;
export const PERSON = 32;
const PERSON_RACE_WRAP = 33;
export const PERSON_RACE = 34;
export const TEAM = 35;
export const MEMBER = 36;
const MEMBER_RACE_WRAP = 37;
export const MEMBER_RACE = 38;
export const LEG_NUMBER = 39;
export const COURSE_REF = 40;
export const COURSE_ID = 41;
export const COURSE_NAME = 42;
export const COURSE_LENGTH = 43;
export const COURSE_CLIMB = 44;
export const COURSE_CONTROL_COUNT = 45;
/** An individual result's 3.0 `Status` (text) or 2.0.3 `CompetitorStatus` (attribute `value`). */
export const RESULT_STATUS = 46;
export const COMPETITOR_STATUS = 47;
export const SPLIT = 48;
/** 2.0.3 `SplitTime/Control`, which holds a `ControlCode`. */
export const SPLIT_CONTROL = 49;
export const SPLIT_CODE = 50;
export const PERSON_ENTRY = 51;
export const TEAM_ENTRY = 52;
export const TEAM_ENTRY_PERSON = 53;
const CLUB_ENTRY = 54;
export const ENTRY2 = 55;
export const ENTRY2_TEAM_NAME = 56;
export const ENTRY2_PERSON = 57;
/**
 * The lists part's contexts end here (see `LAST_EVENT_CONTEXT`).
 * @alias
 */
export const LAST_LIST_CONTEXT = ENTRY2_PERSON;

/* Course data: its controls, courses and class assignments (course-data.ts). */
const RACE_COURSE_DATA = 58;
export const CONTROL3 = 59;
export const COURSE3 = 60;
export const ASSIGNMENT = 61;
export const ASSIGNMENT_CLASS_ID = 62;
export const ASSIGNMENT_CLASS_NAME = 63;
export const ASSIGNMENT_COURSE = 64;
export const ASSIGNMENT_LEG = 65;
const CONTROL2 = 66;
export const CONTROL2_CODE = 67;
export const COURSE2 = 68;
export const COURSE2_NAME = 69;
export const COURSE2_ID = 70;
export const COURSE2_CLASS_ID = 71;
export const COURSE2_CLASS_SHORT = 72;
export const VARIATION2 = 73;
const COURSE_CONTROL2 = 74;
const LAST_CONTEXT = COURSE_CONTROL2;

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
  ASSIGNMENT_CLASS_ID,
  ASSIGNMENT_CLASS_NAME,
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
export const TEXT_CONTEXTS = new Uint8Array(LAST_CONTEXT + 1);
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
    ClassId: ASSIGNMENT_CLASS_ID,
    ClassName: ASSIGNMENT_CLASS_NAME,
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
export const CHILDREN: ReadonlyArray<ReadonlyMap<string, number> | undefined> = Array.from(
  { length: LAST_CONTEXT + 1 },
  (_, c) => {
    const children = CHILDREN_BY_NAME[c];
    return children === undefined ? undefined : new Map(Object.entries(children));
  },
);
