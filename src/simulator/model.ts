/**
 * The simulator's in-memory world: what a dataset (generated or loaded from a file) holds. Times are epoch
 * milliseconds so that searching 10,000 events compares numbers, not strings.
 */
import type { RaceCourseData } from '../iof/model.js';

export interface SimOrganiser {
  name: string;
}

export interface SimClass {
  /** Service class id, unique across the whole dataset (routes name it as `classId`). */
  id: number;
  name: string;
  shortName?: string;
}

export interface SimProperty {
  key: string;
  value: string;
}

export interface SimEvent {
  id: number;
  name: string;
  startMs: number;
  endMs: number;
  organisers: SimOrganiser[];
  /** ISO 3166-1 alpha-3 code of the country the event is organised in. */
  countryCode: string;
  position?: { latitude: number; longitude: number };
  classes: SimClass[];
  properties: SimProperty[];
  participantCount: number;
  isSearchable: boolean;
  isPublished: boolean;
  hasValidMapAndCourses: boolean;
  modifiedMs: number;
  /**
   * Controls, courses and class assignments (`classAssignments[].classId` is the service class id as a string).
   * Absent when the event has no courses. Positions in WGS84 degrees.
   */
  courses?: RaceCourseData;
}

export interface SimCountry {
  /** The service's internal id (not the ISO numeric code). */
  id: number;
  /** ISO 3166-1 alpha-3. */
  code: string;
  /** ISO 3166-1 alpha-2, used for culture-specific names. */
  alpha2: string;
  /** ISO 3166-1 numeric. */
  numeric: number;
}

export interface SimDataset {
  events: SimEvent[];
  countries: SimCountry[];
}
