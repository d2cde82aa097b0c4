/**
 * The OpenAPI 3.1 document of the contract the simulator serves: the API below {base_url} and the OAuth endpoints
 * below {auth_url}. Parameter, body and answer schemas are the zod schemas the simulator checks requests with and the
 * client checks answers with (src/resources), turned into JSON Schema by zod itself, so the document cannot drift
 * from what is served. What is observed on the real service but not published carries `x-observed: true`.
 */
import { z } from 'zod';
import { countriesQuerySchema, countryListSchema, COUNTRIES_PARAMETERS } from '../resources/countries.js';
import { COURSES_PARAMETERS, COURSES_SCOPE, coursesQuerySchema } from '../resources/courses.js';
import {
  EVENT_DETAILS_PARAMETERS,
  EVENT_SEARCH_PARAMETERS,
  eventDetailsQuerySchema,
  eventIdParam,
  eventListSchema,
  eventSchema,
  eventSearchFields,
  externalEventIdParam,
} from '../resources/events.js';
import {
  IMPORTABLE_EVENTS_SCOPE,
  importableEventAnswerSchema,
  importableEventInputSchema,
  importableEventLinkSchema,
} from '../resources/importable-event-schemas.js';
import { importableRouteRequestSchema, importRecordSchema, importSubmissionSchema } from '../resources/routes.js';
import type { ApiRoute } from './api.js';
import { OAUTH_ROUTES } from './oauth.js';
import { ALL_SCOPES } from './state.js';

/** One endpoint as the routing tables serve it: `path` is the contract's template (`/events/{eventId}`). */
export interface ServedRoute {
  server: 'api' | 'auth';
  method: string;
  path: string;
}

/** The contract's endpoints the simulator serves, read from the tables its requests are dispatched by. */
export function servedRoutes(apiRoutes: readonly Pick<ApiRoute, 'name'>[]): ServedRoute[] {
  const api = apiRoutes.map((r) => {
    const [method = '', path = ''] = r.name.split(' ');
    return { server: 'api' as const, method, path };
  });
  const auth = OAUTH_ROUTES.map((r) => ({ server: 'auth' as const, method: r.method, path: r.path }));
  return [...api, ...auth];
}

type JsonSchema = Record<string, unknown>;

/** A zod schema as JSON Schema 2020-12 (the dialect of OpenAPI 3.1), as a request to it is written. */
function schema(s: z.ZodType): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(s, { io: 'input', unrepresentable: 'any' });
  return rest;
}

const OBSERVED = { 'x-observed': true };

/** What eventIdParam takes: 1 to 15 digits, not all zeros. */
export const EVENT_ID_PATTERN = '^(?=[0-9]{1,15}$)0*[1-9][0-9]*$';

/** A query parameter per name, its schema the field's in the endpoint's zod object. */
function queryParameters(names: readonly string[], object: z.ZodObject, observed: readonly string[] = []) {
  const json = schema(object) as { properties: Record<string, JsonSchema>; required?: string[] };
  return names.map((name) => ({
    name,
    in: 'query',
    required: json.required?.includes(name) ?? false,
    schema: json.properties[name] ?? { type: 'string' },
    ...(observed.includes(name) ? OBSERVED : {}),
  }));
}

function pathParameter(name: string, s: JsonSchema) {
  return { name, in: 'path', required: true, schema: s };
}

const idParameter = pathParameter('id', { type: 'string', minLength: 1 });

function jsonBody(s: z.ZodType) {
  return { required: true, content: { 'application/json': { schema: schema(s) } } };
}

function jsonAnswer(description: string, s: z.ZodType) {
  return { description, content: { 'application/json': { schema: schema(s) } } };
}

/** The refusals every endpoint may answer: in the shapes of http.ts (`message`, `badRequest`). */
function refusals(...statuses: number[]) {
  const text: Record<number, string> = {
    400: 'A parameter or the body was refused; `errors` names each.',
    401: 'The access token has expired (or 403, as the simulator is set).',
    403: 'No credentials, unknown credentials, or a scope missing.',
    404: 'Not found.',
    413: 'The body is larger than the endpoint takes.',
    415: 'The body is not JSON.',
    422: 'The course files have errors.',
    429: 'Too many requests; Retry-After says when to try again.',
    503: 'Busy, or shutting down; Retry-After says when to try again.',
  };
  return Object.fromEntries(
    statuses.map((status) => [
      String(status),
      {
        description: text[status] ?? 'Refused.',
        content: {
          'application/json': {
            schema: { $ref: status === 400 ? '#/components/schemas/Problem' : '#/components/schemas/Message' },
          },
        },
      },
    ]),
  );
}

const messageSchema = z.object({ status: z.number().int(), message: z.string() });
const problemSchema = z.object({
  type: z.string(),
  title: z.string(),
  status: z.literal(400),
  errors: z.record(z.string(), z.array(z.string())),
  message: z.string(),
});
const fileNamesSchema = z.object({ fileNames: z.array(z.string()) });
const validationSchema = z.object({ errors: z.array(z.string()), warnings: z.array(z.string()) });
const tokenSchema = z.object({
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int(),
  refresh_token: z.string(),
  scope: z.string(),
});
const userinfoSchema = z.looseObject({
  personId: z.number().int().meta(OBSERVED),
  firstName: z.string().meta(OBSERVED),
  lastName: z.string().meta(OBSERVED),
  sub: z.string(),
  name: z.string(),
  email: z.string(),
  scope: z.string(),
});

const ordinary = [400, 401, 403, 429, 503];

/** The API's operations, keyed as the routing table names its routes. */
function apiOperations(): Record<string, Record<string, unknown>> {
  return {
    ...eventOperations(),
    ...courseAndCountryOperations(),
    ...routeOperations(),
    ...importableEventOperations(),
  };
}

/** Event search and details (contract 4.3, 4.4). */
function eventOperations(): Record<string, Record<string, unknown>> {
  const eventId = pathParameter('eventId', {
    anyOf: [
      // The rule is in eventIdParam's transform, which JSON Schema cannot show: its pattern is checked against it.
      { ...schema(eventIdParam), pattern: EVENT_ID_PATTERN, description: "The service's event id." },
      {
        ...schema(externalEventIdParam),
        description: "The event's id in another system, such as EventorSweden:49812-1 (the Eventor lookup).",
        ...OBSERVED,
      },
    ],
  });
  return {
    'GET /events': {
      summary: 'Search events (contract 4.3).',
      parameters: queryParameters(EVENT_SEARCH_PARAMETERS, eventSearchFields, ['includeUrls']),
      responses: { 200: jsonAnswer('The events found.', eventListSchema), ...refusals(...ordinary) },
    },
    'GET /events/{eventId}': {
      summary: 'One event (contract 4.4), or the event of an id in another system (observed).',
      parameters: [eventId, ...queryParameters(EVENT_DETAILS_PARAMETERS, eventDetailsQuerySchema, ['includeUrls'])],
      responses: { 200: jsonAnswer('The event.', eventSchema), ...refusals(...ordinary, 404) },
    },
  };
}

/** Courses as IOF XML and countries (contract 4.5, 4.6). */
function courseAndCountryOperations(): Record<string, Record<string, unknown>> {
  return {
    'GET /orienteering/courses/iofxml': {
      summary: "An event's courses as IOF XML 3.0 CourseData (contract 4.5).",
      security: [{ ApiKey: [] }, { OAuth2: [COURSES_SCOPE] }],
      parameters: queryParameters(COURSES_PARAMETERS, coursesQuerySchema),
      responses: {
        200: { description: 'IOF XML 3.0 CourseData.', content: { 'application/xml': { schema: { type: 'string' } } } },
        ...refusals(...ordinary, 404),
      },
    },
    'GET /countries': {
      summary: 'Countries (contract 4.6).',
      parameters: queryParameters(COUNTRIES_PARAMETERS, countriesQuerySchema),
      responses: { 200: jsonAnswer('The countries, sorted by name.', countryListSchema), ...refusals(...ordinary) },
    },
  };
}

/** Route submission and its import record (contract 4.1, 4.2). */
function routeOperations(): Record<string, Record<string, unknown>> {
  return {
    'POST /importableRoutes': {
      summary: 'Submit a route for import (contract 4.1).',
      requestBody: jsonBody(importableRouteRequestSchema),
      responses: { 200: jsonAnswer('The route id.', importSubmissionSchema), ...refusals(...ordinary, 413, 415) },
    },
    'GET /importableRoutes/{id}': {
      summary: "A submitted route's import record (contract 4.2).",
      parameters: [idParameter],
      responses: { 200: jsonAnswer('The import record.', importRecordSchema), ...refusals(...ordinary, 404) },
    },
  };
}

/** The importable-event API (observed, not published). */
function importableEventOperations(): Record<string, Record<string, unknown>> {
  const importable = (summary: string, rest: Record<string, unknown>) => ({
    summary,
    tags: ['importable events'],
    security: [{ ApiKey: [] }, { OAuth2: [IMPORTABLE_EVENTS_SCOPE] }],
    ...OBSERVED,
    ...rest,
  });
  return {
    'POST /importableEvents': importable('Create an importable event.', {
      requestBody: jsonBody(importableEventInputSchema),
      responses: { 200: jsonAnswer('Its link.', importableEventLinkSchema), ...refusals(...ordinary, 415) },
    }),
    'GET /importableEvents/{id}': importable('An importable event.', {
      parameters: [
        idParameter,
        { name: 'includeImportedEvent', in: 'query', required: false, schema: { type: 'string' } },
      ],
      responses: {
        200: jsonAnswer('The event as stored.', importableEventAnswerSchema),
        ...refusals(...ordinary, 404),
      },
    }),
    'PUT /importableEvents/{id}': importable('Replace an importable event.', {
      parameters: [idParameter],
      requestBody: jsonBody(importableEventInputSchema),
      responses: { 200: jsonAnswer('Its link.', importableEventLinkSchema), ...refusals(...ordinary, 404, 415) },
    }),
    'POST /importableEvents/{id}/files/{fileName}': importable('Upload a file, or files.zip holding them.', {
      parameters: [idParameter, pathParameter('fileName', { type: 'string', minLength: 1 })],
      requestBody: {
        required: true,
        content: {
          'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } },
        },
      },
      responses: { 200: jsonAnswer('The files kept.', fileNamesSchema), ...refusals(...ordinary, 404, 413) },
    }),
    'GET /importableEvents/{id}/validationErrors': importable("What the service's check finds in the files.", {
      parameters: [idParameter],
      responses: {
        200: {
          description: 'Errors and warnings; as lines of text when the simulator is told to answer so.',
          content: {
            'application/json': { schema: schema(validationSchema) },
            'text/plain': { schema: { type: 'string' } },
          },
        },
        ...refusals(...ordinary, 404),
      },
    }),
    'PUT /importableEvents/{id}/import': importable('Import again an event imported before.', {
      parameters: [idParameter],
      responses: {
        200: jsonAnswer('Its link.', importableEventLinkSchema),
        ...refusals(...ordinary, 404, 422),
        // Guessed status (no API call makes the first import): a message, beside the id's validation problem.
        400: {
          description: "Never imported: the first import is a person's step at the import URL; or a bad id.",
          content: {
            'application/json': {
              schema: { anyOf: [{ $ref: '#/components/schemas/Message' }, { $ref: '#/components/schemas/Problem' }] },
            },
          },
        },
      },
    }),
  };
}

const form = (fields: Record<string, boolean>) => ({
  required: true,
  content: {
    'application/x-www-form-urlencoded': {
      schema: {
        type: 'object',
        properties: Object.fromEntries(Object.keys(fields).map((k) => [k, { type: 'string' }])),
        required: Object.keys(fields).filter((k) => fields[k]),
      },
    },
  },
});

/** The OAuth endpoints (contract 5.2), keyed as the OAuth routing table names them. */
function authOperations(): Record<string, Record<string, unknown>> {
  const userinfo = {
    summary: 'Who the access token is for.',
    security: [{ OAuth2: [] }],
    responses: { 200: jsonAnswer('The user.', userinfoSchema), ...refusals(401, 403) },
  };
  const query = (name: string, required = true) => ({ name, in: 'query', required, schema: { type: 'string' } });
  return {
    'GET /oauth2/authorize': {
      summary: 'Authorization code with PKCE (S256): the simulated user consents at once.',
      security: [],
      parameters: [
        query('client_id'),
        query('redirect_uri'),
        query('response_type'),
        query('code_challenge'),
        query('code_challenge_method'),
        query('scope', false),
        query('state', false),
      ],
      responses: {
        302: { description: 'Back to redirect_uri with code and state, or with error and error_description.' },
        400: { description: 'An error page: unknown client or redirect_uri.', content: { 'text/html': {} } },
      },
    },
    'POST /oauth2/token': {
      summary: 'Tokens for an authorization code, or for a refresh token.',
      security: [],
      requestBody: form({
        grant_type: true,
        client_id: true,
        code: false,
        redirect_uri: false,
        code_verifier: false,
        refresh_token: false,
        scope: false,
      }),
      responses: {
        200: jsonAnswer('The tokens.', tokenSchema),
        400: { description: 'An OAuth error.' },
        401: { description: 'Unknown client.' },
      },
    },
    'POST /oauth2/revoke': {
      summary: 'Revoke a token (RFC 7009).',
      security: [],
      requestBody: form({ token: true, client_id: false }),
      responses: { 200: { description: 'Revoked (an unknown token too).' }, 400: { description: 'An OAuth error.' } },
    },
    'GET /oauth2/userinfo': userinfo,
    'POST /oauth2/userinfo': userinfo,
  };
}

/** The OpenAPI 3.1 document of the API at `baseUrl` and the OAuth endpoints at `authUrl`. */
export function openApiDocument(urls: { baseUrl: string; authUrl: string }): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const add = (server: 'api' | 'auth', operations: Record<string, Record<string, unknown>>) => {
    for (const [key, operation] of Object.entries(operations)) {
      const [method = '', path = ''] = key.split(' ');
      const item = (paths[path] ??= server === 'auth' ? { servers: [{ url: urls.authUrl }] } : {});
      item[method.toLowerCase()] = { operationId: operationId(key), ...operation };
    }
  };
  add('api', apiOperations());
  add('auth', authOperations());
  return {
    openapi: '3.1.0',
    info: {
      title: 'Livelox route import and event search (as simulated by livelox-bridge)',
      version: '1',
      description:
        'The published contract, with what is observed on the real service but not published marked `x-observed: true`.',
    },
    servers: [{ url: urls.baseUrl }],
    security: [{ ApiKey: [] }, { OAuth2: [] }],
    paths,
    components: {
      schemas: { Message: schema(messageSchema), Problem: schema(problemSchema) },
      securitySchemes: {
        ApiKey: { type: 'apiKey', in: 'header', name: 'ApiKey' },
        OAuth2: {
          type: 'oauth2',
          flows: {
            authorizationCode: {
              authorizationUrl: `${urls.authUrl}/oauth2/authorize`,
              tokenUrl: `${urls.authUrl}/oauth2/token`,
              refreshUrl: `${urls.authUrl}/oauth2/token`,
              scopes: Object.fromEntries(ALL_SCOPES.map((s) => [s, s])),
            },
          },
        },
      },
    },
  };
}

/** `GET /events/{eventId}` -> `getEventsEventId`: unique, as method and path are. */
function operationId(key: string): string {
  const [method = '', ...words] = key.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return method.toLowerCase() + words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');
}
