/** livelox-bridge: the public surface. Explicit named exports only (STYLE.md #1). */
export { DEFAULT_AUTH_URL, DEFAULT_BASE_URL, DEFAULT_VIEWER_URL, ENV, joinUrl } from './config.js';
export type { ServiceAddresses } from './config.js';
export { InputError, LiveloxError, ValidationError, formatIssue } from './errors.js';
export type { ErrorCode, Issue } from './errors.js';
export {
  eventSchema,
  eventListSchema,
  eventSearchQuerySchema,
  MAX_PAGE_SIZE,
  SORT_PROPERTIES,
} from './resources/events.js';
export type { LiveloxEvent, EventSearchQuery, SortOrder, SortProperty } from './resources/events.js';
export { countrySchema, countryListSchema } from './resources/countries.js';
export type { Country } from './resources/countries.js';
export { importRecordSchema, importableRouteRequestSchema, MAX_ROUTE_ID_LENGTH } from './resources/routes.js';
export type { ImportRecord, ImportStatus, ImportableRouteRequest } from './resources/routes.js';
export { formatContractDatetime, parseContractDatetime } from './resources/params.js';
