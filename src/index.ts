/**
 * livelox-bridge: the public surface, chosen name by name and listed with one line each in docs/api.md (a test keeps
 * the two equal). What a library user needs: the client and its options, auth, errors, the shapes of what the service
 * answers, each job with its options and the result it returns, the sources jobs read, link rendering and GPS files.
 * IOF XML lives at `livelox-bridge/iof`, the simulator at `livelox-bridge/simulator`. A job's steps, its state's rows
 * and its intermediate shapes stay inside: a type a result holds is named here only when a user has reason to write
 * its name (test/types/*.test-d.ts shows what a user writes).
 */
// ---- The client
export { LiveloxClient } from './client.js';
export type { LiveloxClientOptions } from './client.js';
export type { RequestOptions } from './resources/requester.js';
export { DEFAULT_AUTH_URL, DEFAULT_BASE_URL, DEFAULT_VIEWER_URL } from './config.js';
export type { ServiceAddresses } from './config.js';
export type { RetryNotice, TransportOptions } from './core/transport.js';
export type { ProxySettings } from './core/proxy.js';
export type { RetryPolicy } from './core/retry.js';
export { MemoryCache } from './core/cache.js';
export type { Cache } from './core/cache.js';

// ---- Authorization
export { apiKey } from './auth/api-key.js';
export { oauth } from './auth/oauth.js';
export type { AuthorizationRequest, OAuthCallOptions, OAuthOptions, OAuthStrategy, TokenInfo } from './auth/oauth.js';
export type { UserInfo } from './auth/oauth-wire.js';
export { FileTokenStore, MemoryTokenStore } from './auth/token-store.js';
export type {
  FileTokenStoreOptions,
  LockedTokenStore,
  OAuthTokens,
  TokenIssuer,
  TokenStore,
} from './auth/token-store.js';
export type { AuthStrategy } from './auth/strategy.js';

// ---- Errors
export {
  AuthError,
  AuthorizationError,
  BadRequestError,
  ConnectionError,
  formatIssue,
  HttpError,
  InputError,
  LiveloxError,
  LoginRequiredError,
  NotEventAdministratorError,
  NotFoundError,
  RateLimitError,
  ResponseShapeError,
  ScopeError,
  ServerError,
  StateError,
  TimeoutError,
  ValidationError,
} from './errors.js';
export type {
  AuthorizationFailure,
  ErrorCode,
  Hint,
  HintCode,
  Issue,
  LiveloxErrorOptions,
  LoginRequiredReason,
  RequestInfo,
  StateFailure,
} from './errors.js';

// ---- What the service answers, and the contract's limits
export { MAX_PAGE_SIZE } from './resources/events.js';
export type {
  EventDetailsParams,
  EventSearchParams,
  LiveloxEvent,
  SortOrder,
  SortProperty,
} from './resources/events.js';
export type { Country, CountryQuery } from './resources/countries.js';
export type { CoursesParams } from './resources/courses.js';
export { contentRouteId, MAX_ROUTE_BODY_BYTES, MAX_ROUTE_FILE_BYTES, MAX_ROUTE_ID_LENGTH } from './resources/routes.js';
export type {
  ImportRecord,
  ImportStatus,
  RouteImportInput,
  RouteImportResult,
  WaitOptions,
} from './resources/routes.js';
export { IMPORTABLE_EVENTS_SCOPE, importableEventState } from './resources/importable-event-schemas.js';
export type {
  ImportableEvent,
  ImportableEventInput,
  ImportableEventLink,
  ImportableEventMap,
  ImportableEventState,
  ImportableEventValidation,
} from './resources/importable-event-schemas.js';
export { MAX_UPLOAD_BYTES, prepareUpload } from './resources/importable-events.js';
export type { PreparedUpload, UploadFile, UploadOptions, UploadResult } from './resources/importable-events.js';

// ---- GPS route files
export { MAX_TRACK_BYTES, MAX_TRACK_BYTES_LIMIT, parseTrack, parseTrackFile } from './gps/track.js';
export type { ParseTrackFileOptions, ParseTrackOptions } from './gps/track.js';
export { sniffGpsFormat } from './gps/sniff.js';
export { writeGpx, writeTcx } from './gps/write.js';
export { writeFit } from './gps/fit-write.js';
export type { GpsFormat, Track, TrackPoint } from './gps/types.js';

// ---- Event-system sources
export type { EmsClass, EmsCourse, EmsEvent, EmsExport, EmsSource } from './ems/source.js';
export { iofEmsSource } from './ems/iof-source.js';
export type { IofSourceOptions } from './ems/iof-source.js';
export { EMS_JSON_FORMAT_VERSION, jsonEmsSource, objectEmsSource, parseEmsJson } from './ems/json-source.js';
export type { EmsObject } from './ems/json-source.js';
export { openEmsFile } from './ems/open.js';
export { portalFromSources, readPortal } from './ems/portal.js';
export type {
  PortalEvent,
  PortalFromSourcesOptions,
  PortalProblem,
  PortalRead,
  ReadPortalOptions,
} from './ems/portal.js';

// ---- Jobs: link an export to the service event, check courses
export { eventLinksJob, linkJob } from './jobs/link.js';
export type {
  ClassLink,
  EventLinksOptions,
  EventLinksResult,
  EventSummary,
  LinkJobOptions,
  LinkResult,
  LinkStep,
} from './jobs/link.js';
export type { FoundVia } from './jobs/find-event.js';
export type { EventChoiceCode, EventScoreParts } from './match/event.js';
export type { ClassMatchMethod, ServiceClass } from './match/class-mapping.js';
export { fetchCourses } from './jobs/fetch-courses.js';
export type { FetchCoursesOptions, FetchedCourses } from './jobs/fetch-courses.js';
export { checkCourses } from './jobs/check-courses.js';
export type { CompareVerdict, GeoreferenceFit, PositionCheck } from './iof/compare-courses/compare.js';
export type {
  CheckCoursesOptions,
  CheckCoursesResult,
  CheckedFile,
  CheckNote,
  CheckNoteCode,
  CheckVerdict,
  CoursePublication,
  SchemaCheck,
} from './jobs/check-courses.js';

// ---- The IOF's schema files in the user's cache (the lookup itself is in livelox-bridge/iof)
export { fetchIofSchema } from './jobs/fetch-schema.js';
export type { FetchIofSchemaOptions, FetchedIofSchema } from './jobs/fetch-schema.js';

// ---- Sync: a portal's events kept linked night after night, with its state in SQLite
export { syncJob } from './jobs/sync/sync.js';
export type { SyncJobOptions, SyncProgress, SyncResult } from './jobs/sync/sync.js';
export type { SyncChange, SyncChangeKind } from './jobs/sync/changes.js';
export { openSqliteStore } from './store/sqlite.js';
export type { SyncStateFile } from './store/sqlite.js';
export type { LinkMethod, LinkRecord, LinkStatus } from './store/sync-state.js';

// ---- Bulk route import: folders of GPS files, exactly once across crashes, with a journal in SQLite
export { importRoutesJob } from './jobs/import-routes/job.js';
export type {
  ImportProgress,
  ImportRoutesOptions,
  ImportRoutesResult,
  RouteReport,
  RouteStatus,
  RouteToImport,
} from './jobs/import-routes/job.js';
export type { EarlierVersion, ImportDecision } from './jobs/import-routes/decision.js';
export { routeId } from './jobs/import-routes/route-id.js';
export type { RouteIdOptions } from './jobs/import-routes/route-id.js';
export { openImportJournal } from './store/import-journal.js';
export type { ImportJournalFile, OpenImportJournalOptions } from './store/import-journal.js';

// ---- Viewer links for portals
export { checkLinkTemplate, DEFAULT_LINK_TEMPLATE } from './links/template.js';
export { LINK_FORMATS, renderLinkResult } from './links/render.js';
export type { LinkFormat, LinkedEvent, RenderLinkOptions } from './links/render.js';
export { PORTAL_LINK_FORMATS, portalFragment, renderPortalLinks } from './links/portal.js';
export type { FragmentIndexEntry, PortalLinkFormat, PortalLinks } from './links/portal.js';
export { fragmentFileName } from './links/fragment-names.js';
export { DEFAULT_FRAGMENT_TEXTS, FRAGMENT_CSS } from './links/fragment.js';
export type { FragmentOptions, FragmentTexts } from './links/fragment.js';
export { FRAGMENT_CSS_FILE, FRAGMENT_INDEX_FILE, writePortalFragments } from './jobs/portal-fragments.js';
export type { PortalFragmentsResult, WritePortalFragmentsOptions } from './jobs/portal-fragments.js';

// ---- Publishing: a course file and its map sent as an importable event, kept in a state file
export type { MapCorners, MapGeoreferenceInput, MapInput, MapLatLng, PaperExtent } from './maps/types.js';
export { publishJob } from './jobs/publish/job.js';
export type { PublishJobOptions, PublishResult, PublishStep } from './jobs/publish/job.js';
export { openPublishState } from './store/publish-state.js';
export type { PublishStateFile } from './store/publish-state.js';
