/**
 * What livelox-bridge needs from an event management system (MeOS, OLA, OE, HELGA, SportOrg, an Eventor-style
 * portal): the event, to find it on the service, and its classes, to map them to the service's classes. Every source
 * (IOF XML files, the JSON format, plain objects) produces this one shape; matching never sees where it came from.
 */
import type { ClassCourse } from '../iof/model.js';

/**
 * A course as the event system knows it for a class: the same shape the IOF reader gives a list's classes. Every field
 * is optional, as exports say more or less; `controls` come from course data or from the split times of complete
 * results.
 */
export type EmsCourse = ClassCourse;

export interface EmsClass {
  /** The event system's own id of the class, when it has one. */
  id?: string;
  name: string;
  shortName?: string;
  /** The class's course, when the export tells it (course data, result lists with courses, the JSON format). */
  course?: EmsCourse;
  /** Relay legs, when the class is a relay. */
  legs?: number;
  /** Entries, starts or results of the class in the export (0 in class lists). */
  entries?: number;
}

export interface EmsEvent {
  name: string;
  /** ISO 8601: a date (`2025-04-26`) or a date-time with or without offset, as the export writes it. */
  start?: string;
  end?: string;
  organisers: string[];
  /** The country the event is held in: ISO 3166-1 alpha-3 or alpha-2, or a country name. */
  country?: string;
  /** Where the event is held (WGS84 degrees), when known. */
  position?: { latitude: number; longitude: number };
  /**
   * Ids of the event in other systems, by system (`{ eventor: '49812' }`); `ems` is the exporting system's own. An
   * Eventor id is under `eventor` whatever label the export gave it, with `eventor.swe` (`.nor`, `.aus`, `.iof`)
   * beside it when the label names the installation (ems/eventor-ids.ts); the IOF's Eventor only under `eventor.iof`,
   * since it numbers events apart from the federations' Eventors.
   */
  externalIds?: Record<string, string>;
}

/** An event and its classes as read from one source. */
export interface EmsExport {
  event: EmsEvent;
  classes: EmsClass[];
  /** What was read, for reports (`MeOS ResultList (IOF 3.0)`, `JSON`, `object`). */
  format: string;
  /** Where it was read from (a path, or a description). */
  source: string;
  /**
   * The service event id the event system stores for the event (Eventor's Livelox configuration in an EventList):
   * an exact link, taken before any search.
   */
  serviceEventId?: number;
  /**
   * The race's number (stage, day; 1-based) when the export says which race it is: the one asked for of a multi-race
   * file, or the only race a file numbers. Absent when unknown.
   */
  race?: number;
}

/** A source of an event system's event and classes. */
export interface EmsSource {
  /** Where the data comes from, for messages. */
  readonly source: string;
  read(options?: { signal?: AbortSignal | undefined }): Promise<EmsExport>;
}
