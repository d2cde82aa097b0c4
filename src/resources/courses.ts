/** GET /orienteering/courses/iofxml (contract section 4.5). The answer is IOF XML 3.0, not JSON. */
import { z } from 'zod';
import type { ResourceRequester } from './requester.js';
import { ResponseShapeError } from '../errors.js';
import { decodeXml, decodeXmlHead } from '../xml/decode.js';
import { rootElementName } from '../xml/tree.js';
import { booleanParam, checkQuery, definedEntries, integerParam, optionalText, positiveIdParam } from './params.js';

export const COURSES_PARAMETERS = [
  'eventId',
  'projectionEpsgCode',
  'includeControls',
  'includeClassConnections',
  'includeClasses',
] as const;

export const coursesQuerySchema = z
  .object({
    eventId: positiveIdParam,
    projectionEpsgCode: integerParam.optional(),
    includeControls: booleanParam.optional(),
    includeClassConnections: booleanParam.optional(),
    includeClasses: booleanParam.optional(),
  })
  .strict();

/** The message the real service answers when a key lacks course access (observed, not published). */
export const COURSES_SCOPE = 'courses.read';

// ---- The client side.

export interface CoursesParams {
  eventId: number;
  /** EPSG code for control coordinates (easting in `lng`, northing in `lat`). Default: WGS84 degrees. */
  projectionEpsgCode?: number;
  includeControls?: boolean;
  includeClassConnections?: boolean;
  includeClasses?: boolean;
  signal?: AbortSignal | undefined;
}

export class Courses {
  readonly #client: ResourceRequester;

  constructor(client: ResourceRequester) {
    this.#client = client;
  }

  /** The event's courses as IOF XML bytes, exactly as sent (for schema validation). */
  async getIofXmlBytes(params: CoursesParams): Promise<Buffer> {
    const query = definedEntries({
      eventId: String(params.eventId),
      projectionEpsgCode: optionalText(params.projectionEpsgCode),
      includeControls: optionalText(params.includeControls),
      includeClassConnections: optionalText(params.includeClassConnections),
      includeClasses: optionalText(params.includeClasses),
    });
    checkQuery('Course parameters', query, coursesQuerySchema);
    const res = await this.#client.request({
      path: '/orienteering/courses/iofxml',
      query,
      accept: 'application/xml, text/xml',
      signal: params.signal,
    });
    if (rootElementName(decodeXmlHead(res.body, 4096)) === undefined) {
      throw new ResponseShapeError('The course answer is not XML', [], {
        request: { method: 'GET', path: '/orienteering/courses/iofxml' },
      });
    }
    return res.body;
  }

  /** The event's courses as IOF XML text, decoded by its declared encoding. */
  async getIofXml(params: CoursesParams): Promise<string> {
    return decodeXml(await this.getIofXmlBytes(params), 'service courses').text;
  }
}
