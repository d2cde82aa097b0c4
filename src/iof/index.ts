/**
 * `livelox-bridge/iof`: read, validate, lint, inspect, compare and write IOF XML, without any network. Every name is
 * listed in docs/api.md.
 */
export { decodeXml } from '../xml/decode.js';
export type { DecodedXml, XmlEncoding } from '../xml/decode.js';
export { identifyIof } from './identify.js';
export { readEventAndClasses } from './event-classes/read.js';
export type { ReadEventClassesOptions } from './event-classes/read.js';
export { parseCourseData } from './read-course-data.js';
export { writeCourseData } from './write-course-data.js';
export type { WriteCourseDataOptions } from './write-course-data.js';
export { createIofValidator, validate } from './validate/validate.js';
export type {
  DocumentIofVersion,
  IofValidationResult,
  IofValidator,
  IofValidatorOptions,
  IofValidatorStats,
  ValidateOptions,
  XmlDocumentInput,
} from './validate/validate.js';
export { lintCourseData, LINT_SEVERITY } from './lint.js';
export type { LintCode, LintIssue, LintOptions, LintSeverity } from './lint.js';
export { inspectIof } from './inspect.js';
export type { InspectClass, InspectControl, InspectCourse, InspectOptions, InspectSummary } from './inspect.js';
export { compareCourses, COURSE_FINDING_KINDS } from './compare-courses/compare.js';
export type {
  CompareCoursesOptions,
  CompareNote,
  CompareNoteCode,
  CourseComparison,
  CourseFinding,
  CourseFindingKind,
  FindingValue,
  GeoreferenceFit,
  Position,
} from './compare-courses/compare.js';
export { findIofSchema, iofSchemaPath } from './schema-path.js';
export type {
  IofGrammarKind,
  IofSchemaLookup,
  IofSchemaLookupOptions,
  IofSchemaLookupStep,
  IofSchemaSource,
} from './schema-path.js';
export { projectCourseData, unprojectCourseData, guessProjections } from './course-projection.js';
export type { ProjectionGuess } from './course-projection.js';
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
