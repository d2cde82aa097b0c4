/**
 * An event's courses in the grid the caller names, whichever way that grid is given. The service projects into EPSG
 * codes itself (`projectionEpsgCode`), but cannot take a proj4 definition: for one, the courses are fetched in WGS 84
 * and projected here, with the same `getProjection` the rest of the library uses, and written back as IOF XML 3.0 in
 * the service's convention (easting in `lng`, northing in `lat`). So `courses --proj4 "<definition>"` and
 * `courses --epsg N` give the same kind of file.
 */
import type { LiveloxClient } from '../client.js';
import type { CoursesParams } from '../resources/courses.js';
import { getProjection } from '../geo/projection.js';
import { projectCourseData } from '../iof/course-projection.js';
import { parseCourseData } from '../iof/read-course-data.js';
import { writeCourseData } from '../iof/write-course-data.js';

export interface FetchCoursesOptions extends Omit<CoursesParams, 'projectionEpsgCode'> {
  /**
   * The grid for control positions: an EPSG code (`2154`, `'2154'`, `'EPSG:2154'`), asked of the service as
   * `projectionEpsgCode`; or a proj4 definition (`'+proj=...'`), applied here to the service's WGS 84 answer.
   * Default: WGS 84 degrees, as the service sends them.
   */
  projection?: number | string;
}

export interface FetchedCourses {
  /** IOF XML: the service's bytes as sent, or (`projectedBy: 'client'`) the projected course data written as UTF-8. */
  bytes: Buffer;
  /** Who projected the positions: nobody (WGS 84), the service (an EPSG code) or this library (a proj4 definition). */
  projectedBy: 'none' | 'service' | 'client';
  /** The grid, as `getProjection` describes it; absent for WGS 84. */
  projection?: { epsg: number | undefined; name: string; definition: string };
}

/**
 * The courses of `options.eventId` in `options.projection`. A definition proj4 cannot use, or an EPSG code outside the
 * built-in table, is refused with `ValidationError` (issue code `unsupported_projection`) before any request, as
 * `getProjection` refuses it. Request errors are those of `client.courses.getIofXmlBytes`.
 */
export async function fetchCourses(client: LiveloxClient, options: FetchCoursesOptions): Promise<FetchedCourses> {
  const { projection: system, ...params } = options;
  if (system === undefined) return { bytes: await client.courses.getIofXmlBytes(params), projectedBy: 'none' };
  const projection = getProjection(system);
  const described = { epsg: projection.epsg, name: projection.name, definition: projection.definition };
  if (projection.epsg !== undefined) {
    const bytes = await client.courses.getIofXmlBytes({ ...params, projectionEpsgCode: projection.epsg });
    return { bytes, projectedBy: 'service', projection: described };
  }
  const degrees = parseCourseData(await client.courses.getIofXmlBytes(params), `event ${options.eventId} courses`);
  const projected = projectCourseData(degrees, projection.definition);
  const createTime = degrees.createTime === undefined ? undefined : new Date(degrees.createTime);
  const xml = writeCourseData(projected, {
    // The document is still the service's data: keep its creator and time rather than stamping this library's.
    ...(degrees.creator === undefined ? {} : { creator: degrees.creator }),
    ...(createTime === undefined || Number.isNaN(createTime.getTime()) ? {} : { createTime }),
  });
  return { bytes: Buffer.from(xml, 'utf8'), projectedBy: 'client', projection: described };
}
