/**
 * Decoding and parsing a posted route's data, the expensive part of an import (seconds for 500,000 points). Kept free
 * of simulator state so that it runs in a worker thread (`route-parse-worker.ts`) as well as in-process, and its
 * result is compact (one Float64Array, transferable without a copy) so that a parsed route costs 24 bytes a point.
 */
import { InputError } from '../errors.js';
import { parseTrack } from '../gps/track.js';
import type { GpsFormat, Track } from '../gps/types.js';

export type ParsedRoute =
  | { ok: true; format: GpsFormat; /** time, lat, lng of each point in turn */ points: Float64Array }
  | { ok: false; errorMessage: string };

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The parse of a route's base64 data; never throws, so that the worker and the in-process path answer alike. */
export function parseRouteData(data: string): ParsedRoute {
  try {
    return parse(data);
  } catch (err) {
    // Not a client's mistake (the parser broke): the import settles as an error naming it, the server stays up.
    return parseFailure(err);
  }
}

/** The import error of a parse that failed for the simulator's own reasons (a bug, a dead worker). */
export function parseFailure(err: unknown): ParsedRoute {
  return { ok: false, errorMessage: `The simulator failed to read the route: ${String(err)}` };
}

function parse(data: string): ParsedRoute {
  const compact = data.replace(/\s+/g, '');
  if (compact.length === 0 || compact.length % 4 !== 0 || !BASE64.test(compact)) {
    return { ok: false, errorMessage: 'The route data is not valid base64.' };
  }
  let track: Track;
  try {
    track = parseTrack(Buffer.from(compact, 'base64'), 'route');
  } catch (err) {
    if (err instanceof InputError) return { ok: false, errorMessage: importErrorMessage(err) };
    throw err;
  }
  const points = new Float64Array(track.points.length * 3);
  track.points.forEach((p, i) => {
    points[i * 3] = p.time;
    points[i * 3 + 1] = p.lat;
    points[i * 3 + 2] = p.lng;
  });
  return { ok: true, format: track.format, points };
}

/** The track again from its compact form, for matching. */
export function trackOf(parsed: { format: GpsFormat; points: Float64Array }): Track {
  const points = [];
  for (let i = 0; i < parsed.points.length; i += 3) {
    points.push({ time: parsed.points[i]!, lat: parsed.points[i + 1]!, lng: parsed.points[i + 2]! });
  }
  return { format: parsed.format, points };
}

function importErrorMessage(err: InputError): string {
  switch (err.reason) {
    case 'empty':
    case 'unknown_format':
      return 'The route file is not a GPX, TCX or FIT file.';
    case 'no_track_points':
      return 'The route file contains no track points with time and position.';
    case 'truncated':
    case 'corrupt':
      return 'The route file is damaged (truncated or failing its checksum).';
    case 'not_well_formed':
      return 'The route file is not well-formed XML.';
    default:
      return `The route file could not be read (${err.reason}).`;
  }
}
