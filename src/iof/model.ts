/**
 * The typed model of IOF course data that readers produce and writers consume. Ids stay strings (`031` is not 31).
 * Positions are WGS84 degrees unless a field says otherwise.
 */
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
  id?: string;
  name: string;
  /** ISO 8601 as written in the file: a date, or a date-time with or without offset. */
  start?: string;
  end?: string;
  organisers: string[];
}

export interface CourseData {
  iofVersion: IofVersion;
  creator?: string;
  createTime?: string;
  event: EventInfo;
  races: RaceCourseData[];
}
