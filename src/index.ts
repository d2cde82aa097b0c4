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
