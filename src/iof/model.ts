/**
 * The typed model of IOF course data that readers produce and writers consume. Ids stay strings (`031` is not 31).
 * Positions are WGS84 degrees unless a field says otherwise.
 */
import type { XmlEncoding } from '../xml/decode.js';

export type IofVersion = '3.0' | '2.0.3';

export type ControlType = 'Control' | 'Start' | 'Finish' | 'CrossingPoint' | 'EndOfMarkedRoute';

export interface GeoPosition {
  lat: number;
  lng: number;
  alt?: number;
}

export interface MapPosition {
  x: number;
  y: number;
  /** IOF 3.0 allows `mm` (default) and `px`. */
  unit: 'mm' | 'px';
}

export interface Control {
  /** The control code as printed (`31`, `S1`, `F`). */
  id: string;
  type: ControlType;
  position?: GeoPosition;
  mapPosition?: MapPosition;
}

export interface CourseControl {
  /** Id of a `Control` of the same race. */
  controlId: string;
  type: ControlType;
  /** Metres from the previous control. */
  legLength?: number;
  mapText?: string;
  score?: number;
}

export interface Course {
  id?: string;
  name: string;
  courseFamily?: string;
  /** Metres. */
  length?: number;
  /** Metres. */
  climb?: number;
  numberOfControls?: number;
  /** Ordered, start and finish included when the file has them. */
  controls: CourseControl[];
}

export interface ClassCourseAssignment {
  classId?: string;
  className?: string;
  courseName: string;
  courseFamily?: string;
  /** Relay legs the course may be run on (1-based). */
  allowedOnLegs?: number[];
}

export interface MapInfo {
  id?: string;
  scale?: number;
  mapPositionTopLeft?: MapPosition;
  mapPositionBottomRight?: MapPosition;
}

export interface RaceCourseData {
  raceNumber?: number;
  maps: MapInfo[];
  controls: Control[];
  courses: Course[];
  classAssignments: ClassCourseAssignment[];
}

export interface EventInfo {
  /** The event's first id (3.0 `Event/Id`, 2.0.3 `EventId`). */
  id?: string;
  name: string;
  /** ISO 8601 as written in the file: a date, or a date-time with or without offset. */
  start?: string;
  end?: string;
  organisers: string[];
  /**
   * Every id of the event, in order, with who issued it, to find the event on the service that issued it: 3.0
   * `Event/Id` and its `type` (`Eventor`), 2.0.3 `EventId` and its `idManager` (`SWE`), else its `type` (`nat`).
   * Absent when the event has no id. Only `readEventAndClasses` gives it.
   */
  externalIds?: Array<{ type?: string; id: string }>;
  /**
   * Distinct three-letter country codes of the event's organisers, upper-cased, in order of appearance, to narrow a
   * search for the event by country: 3.0 `Country/@code` of `Event/Organiser` and `Event/Race/Organiser`, 2.0.3
   * `CountryId/@value` of `Organiser/Club` (directly or in its `Country`). IOF files write IOC codes (`GER`, `SUI`),
   * which differ from ISO 3166 alpha-3 for some countries (`DEU`, `CHE`). Absent when none is given. Only
   * `readEventAndClasses` gives it.
   */
  countries?: string[];
}

export interface CourseData {
  iofVersion: IofVersion;
  creator?: string;
  createTime?: string;
  event: EventInfo;
  races: RaceCourseData[];
}

/**
 * What an IOF XML document is, by its root element. The IOF 3.0 roots; an IOF 2.0.3 root has the 3.0 name where the
 * message exists in both (2.0.3 `ClassData` is a `ClassList`, `ClubList` an `OrganisationList`), and keeps its own name
 * where 3.0 dropped the message (`PersonList`, `RankList`, `BadgeList`, `PressList`, `TransactionList`, `CountryList`).
 */
export type IofMessageType =
  | 'CourseData'
  | 'ClassList'
  | 'EntryList'
  | 'StartList'
  | 'ResultList'
  | 'EventList'
  | 'CompetitorList'
  | 'OrganisationList'
  | 'ServiceRequestList'
  | 'ControlCardList'
  | 'PersonList'
  | 'RankList'
  | 'BadgeList'
  | 'PressList'
  | 'TransactionList'
  | 'CountryList';

/** An IOF document identified from its first bytes. */
export interface IofIdentity {
  version: IofVersion;
  messageType: IofMessageType;
  encoding: XmlEncoding;
  /** Whether the bytes start with a byte order mark. */
  bom: boolean;
  /** Whether the root element is in the IOF 3.0 namespace (OCAD 11 and IOF 2.0.3 files have none). */
  namespace: boolean;
}

/** A race (stage, day) of an event. */
export interface RaceInfo {
  /** IOF 3.0 `RaceNumber` (2.0.3 event races have ids, not numbers). */
  number?: number;
  name?: string;
  /** ISO 8601 as written: a date, or a date-time with or without offset. */
  start?: string;
  /**
   * Where the arena is, to find the race on a map: 3.0 `Race/Position` (`lat`, `lng`), kept only when both are
   * numbers in range (Condes writes grid eastings and northings there). 2.0.3 races have no position.
   */
  position?: { lat: number; lng: number };
}

/** A class's course as an entry, start or result list or an event system tells it; every field optional. */
export interface ClassCourse {
  id?: string;
  name?: string;
  /** Metres (2.0.3 lengths in `km` or `ft` are converted). */
  length?: number;
  /** Metres. */
  climb?: number;
  /** Controls to punch, start and finish excluded. */
  numberOfControls?: number;
  /** Control codes in running order, start and finish excluded (`['31', '45', '100']`). */
  controls?: string[];
}

/** A class as an event, entry, start or result list or course data names it, with what the document says of it. */
export interface IofClass {
  id?: string;
  /** The class name; a 2.0.3 list naming classes by `ClassShortName` only gives that; `''` when only an id is known. */
  name: string;
  shortName?: string;
  /** Ids of the courses the document assigns to the class (class level, or per competitor), in order of appearance. */
  courseIds?: string[];
  /** Names of those courses (course data: the assigned `CourseName`s). */
  courseNames?: string[];
  /**
   * The class's course as a start or result list shows it, to match the class to a course of the course-setting
   * file: 3.0 `Course` (class level `ClassStart/Course`, `ClassResult/Course`, or each competitor's `Start/Course`,
   * `Result/Course`, team members' included), 2.0.3 `CourseVariation` (`CourseVariationId`, `Name`, `CourseLength`,
   * `CourseClimb`) or a bare `CourseVariationId`/`CourseLength` of a start or result. Each field is the value every
   * course element of the class agrees on: where they differ (forked courses, relay legs, the races of a multi-race
   * list) the field is left out. Absent when nothing is agreed, and for course data (read it with `parseCourseData`).
   * `controls` come from the `SplitTime/ControlCode`s of the class's OK individual results (3.0 `Status` `OK`, 2.0.3
   * `CompetitorStatus` `OK`; 3.0 `Additional` splits left out), only when every such result with split times has the same
   * sequence, no course field was given two values, and the sequence has `numberOfControls` codes when the document
   * gives that: never for forked or score courses, relays, or exports of radio controls only.
   */
  course?: ClassCourse;
  /** Persons or teams entered, started or placed in the class in this document; 0 in class lists and course data. */
  entries: number;
  /** Relay legs, when the document shows any (leg definitions, leg numbers of team members, allowed legs). */
  legs?: number;
}

/** The event and classes of any IOF message, read without building a tree. */
export interface IofEventClasses {
  version: IofVersion;
  messageType: IofMessageType;
  encoding: XmlEncoding;
  /** The message's event (the first one of an event list); absent when the message has none. */
  event?: EventInfo;
  races: RaceInfo[];
  /** In order of first appearance; a class named in several places (event, result list) is one class. */
  classes: IofClass[];
  /**
   * The earliest start time of a competitor in a 3.0 start or result list, as written (`2016-03-01T12:24:35.200`):
   * the day of the event when the export leaves the event's own date out, as OE2010 does.
   */
  firstStart?: string;
  counts: {
    /** Persons: individual entries, starts and results, and team members. */
    persons: number;
    /** Teams: relay or team entries, starts and results. */
    teams: number;
    /** Course data only: courses (a 2.0.3 course with variations counts each variation). */
    courses?: number;
    /** Course data only: control definitions, start and finish points included. */
    controls?: number;
  };
}
