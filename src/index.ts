/** livelox-bridge: the public surface. Explicit named exports only (STYLE.md #1). */
export { LiveloxClient } from './client.js';
export type { LiveloxClientOptions, RequestOptions } from './client.js';
export { apiKey } from './auth/api-key.js';
export { AuthorizationError, LoginRequiredError, oauth } from './auth/oauth.js';
export type {
  AuthorizationFailure,
  AuthorizationRequest,
  LoginRequiredReason,
  OAuthCallOptions,
  OAuthOptions,
  OAuthStrategy,
  TokenInfo,
  UserInfo,
} from './auth/oauth.js';
export { createPkce, pkceChallenge, randomState } from './auth/pkce.js';
export type { Pkce } from './auth/pkce.js';
export { FileTokenStore, MemoryTokenStore } from './auth/token-store.js';
export type { OAuthTokens, TokenStore } from './auth/token-store.js';
export type { AuthContext, AuthFailure, AuthStrategy } from './auth/strategy.js';
export { MemoryCache } from './core/cache.js';
export type { Cache } from './core/cache.js';
export { DEFAULT_RETRY } from './core/retry.js';
export type { RetryPolicy } from './core/retry.js';
export type { TransportOptions } from './core/transport.js';
export { DEFAULT_AUTH_URL, DEFAULT_BASE_URL, DEFAULT_VIEWER_URL, ENV, joinUrl } from './config.js';
export type { ServiceAddresses } from './config.js';
export {
  AuthError,
  BadRequestError,
  ConnectionError,
  HttpError,
  InputError,
  LiveloxError,
  NotFoundError,
  RateLimitError,
  ResponseShapeError,
  ScopeError,
  ServerError,
  TimeoutError,
  ValidationError,
  errorFromResponse,
  formatIssue,
} from './errors.js';
export type { ErrorCode, Issue, RequestInfo } from './errors.js';
export {
  eventSchema,
  eventListSchema,
  eventSearchQuery,
  eventSearchQuerySchema,
  MAX_PAGE_SIZE,
  SORT_PROPERTIES,
} from './resources/events.js';
export type {
  EventDetailsParams,
  EventSearchParams,
  EventSearchQuery,
  LiveloxEvent,
  SortOrder,
  SortProperty,
} from './resources/events.js';
export { countrySchema, countryListSchema, foldName } from './resources/countries.js';
export type { Country, CountryQuery } from './resources/countries.js';
export type { CoursesParams } from './resources/courses.js';
export {
  contentRouteId,
  importRecordSchema,
  importableRouteRequestSchema,
  MAX_ROUTE_FILE_BYTES,
  MAX_ROUTE_ID_LENGTH,
} from './resources/routes.js';
export type {
  ImportRecord,
  ImportStatus,
  ImportableRouteRequest,
  RouteImportInput,
  RouteImportResult,
  WaitOptions,
} from './resources/routes.js';
export { formatContractDatetime, parseContractDatetime } from './resources/params.js';
export { sniffGpsFormat, parseTrack, writeFit, writeGpx, writeTcx } from './gps/index.js';
export type { GpsFormat, Track, TrackPoint } from './gps/index.js';
// ---- The main job and its parts: event-system sources, event and class matching, viewer links, course checks.
export { linkJob } from './jobs/link.js';
export type { ClassLink, EventSummary, LinkJobOptions, LinkResult, LinkStep } from './jobs/link.js';
export { checkCourses } from './jobs/check-courses.js';
export type { CheckCoursesOptions, CheckCoursesResult } from './jobs/check-courses.js';
export { compareCourses, COURSE_FINDING_KINDS } from './iof/compare-courses.js';
export type {
  CompareCoursesOptions,
  CourseComparison,
  CourseFinding,
  CourseFindingKind,
} from './iof/compare-courses.js';
export type { EmsClass, EmsCourse, EmsEvent, EmsExport, EmsSource } from './ems/adapter.js';
export { iofEmsSource } from './ems/iof-source.js';
export type { IofSourceOptions } from './ems/iof-source.js';
export { EMS_JSON_FORMAT_VERSION, jsonEmsSource, objectEmsSource, parseEmsJson } from './ems/json-source.js';
export type { EmsObject } from './ems/json-source.js';
export { openEmsFile } from './ems/open.js';
export { findEvent, searchWindow } from './ems/find-event.js';
export type { EventSearchStep, FindEventOptions, FoundEvent } from './ems/find-event.js';
export { chooseEvent, EVENT_MATCHING, scoreEvents } from './ems/match-event.js';
export type { EventChoice, EventScoreParts, ScoredEvent } from './ems/match-event.js';
export { CLASS_MATCHING, matchClasses } from './ems/match-classes.js';
export type {
  ClassMapping,
  ClassMatch,
  ClassMatchMethod,
  MatchClassesOptions,
  ServiceClass,
  UnmatchedEmsClass,
} from './ems/match-classes.js';
export { classKey, parseClassName } from './ems/class-names.js';
export type { ParsedClassName } from './ems/class-names.js';
export { checkLinkTemplate, classLink, DEFAULT_LINK_TEMPLATE, LINK_FORMATS, renderLinks } from './ems/links.js';
export type { LinkFormat, LinkRow, LinkValues } from './ems/links.js';
