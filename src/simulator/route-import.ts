/**
 * The asynchronous import of a posted route (contract section 3): pending until its delay has passed on the
 * simulator's clock, then decoded, matched to an event and class, and settled as imported or error for good.
 * A failed import is never an HTTP error: it is `status: error` with an `errorMessage`.
 */
import { InputError } from '../errors.js';
import { parseTrack } from '../gps/track.js';
import type { Track } from '../gps/types.js';
import type { ImportRecord } from '../resources/routes.js';
import { matchRoute } from './route-matching.js';
import type { RouteRecord, SimState } from './state.js';

export interface ImportSettings {
  viewerUrl: string;
  /** Milliseconds from POST until the import settles; drawn per route. */
  importDelay: () => number;
}

/** The delay of each import: a fixed one, or drawn evenly within a range (the contract's 5-15 s by default). */
export function importDelayDraw(
  option: number | { minMs: number; maxMs: number } | undefined,
  random: { next(): number },
): () => number {
  if (typeof option === 'number') return () => option;
  const { minMs, maxMs } = option ?? { minMs: 5000, maxMs: 15_000 };
  return () => minMs + Math.floor(random.next() * (maxMs - minMs));
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export function importRecordFor(route: RouteRecord, state: SimState, settings: ImportSettings): ImportRecord {
  if (state.clock.now() < route.readyMs) return { status: 'pending' };
  route.result ??= runImport(route, state, settings);
  const { eventId: _e, classId: _c, ...record } = route.result;
  return record;
}

function runImport(route: RouteRecord, state: SimState, settings: ImportSettings): NonNullable<RouteRecord['result']> {
  const data = route.data.replace(/\s+/g, '');
  if (data.length === 0 || data.length % 4 !== 0 || !BASE64.test(data)) {
    return { status: 'error', errorMessage: 'The route data is not valid base64.' };
  }
  let track: Track;
  try {
    track = parseTrack(Buffer.from(data, 'base64'), 'route');
  } catch (err) {
    if (err instanceof InputError) return { status: 'error', errorMessage: importErrorMessage(err) };
    throw err;
  }
  const match = matchRoute(track, state, route.classId);
  if (!match.ok) return { status: 'error', errorMessage: match.reason };
  const viewer = settings.viewerUrl;
  const n = route.routeNumber;
  const viewerQuery = match.cls ? `classId=${match.cls.id}` : `eventId=${match.event.id}`;
  return {
    status: 'imported',
    viewerUrl: `${viewer}/Viewer?${viewerQuery}&routeId=${n}`,
    showRouteUrl: `${viewer}/Routes/Show/${n}`,
    editRouteUrl: `${viewer}/Routes/Edit/${n}`,
    eventName: match.event.name,
    ...(match.cls ? { className: match.cls.name } : {}),
    eventId: match.event.id,
    ...(match.cls ? { classId: match.cls.id } : {}),
  };
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
