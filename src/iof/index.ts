/** `livelox-bridge/iof`: read, validate, lint, inspect and write IOF XML, without any network. */
export { decodeXml } from './read.js';
export type { DecodedXml, XmlEncoding } from './read.js';
export { identifyIof } from './identify.js';
export { readEventAndClasses } from './event-classes.js';
export { parseCourseData } from './course-data.js';
export { writeCourseData } from './write-course-data.js';
export { createIofValidator, validate, validateIofXml } from './validate.js';
export type { IofValidationResult, IofValidator, IofValidatorOptions, ValidateOptions } from './validate.js';
export { lintCourseData, LINT_SEVERITY } from './lint.js';
export type { LintCode, LintIssue, LintOptions } from './lint.js';
export { inspectIof } from './inspect.js';
export type { InspectOptions, InspectSummary } from './inspect.js';
export { iofSchemaPath } from './schema-path.js';
export { projectCourseData, unprojectCourseData, guessProjections } from '../geo/course-projection.js';
export { getProjection, isSupportedEpsg, listProjections } from '../geo/projection.js';
export type { Projection, ProjectedPoint } from '../geo/projection.js';
export type {
  IofVersion,
  ControlType,
  GeoPosition,
  MapPosition,
  Control,
  CourseControl,
  Course,
  ClassCourseAssignment,
  MapInfo,
  RaceCourseData,
  EventInfo,
  CourseData,
  IofMessageType,
  IofIdentity,
  RaceInfo,
  IofClass,
  IofEventClasses,
} from './model.js';
