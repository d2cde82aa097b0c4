/**
 * The asynchronous import of a posted route (contract section 3): pending until its delay has passed on the
 * simulator's clock and its data has been parsed (off the request path, by `RouteParser`), then matched to an event
 * and class and settled as imported or error for good. A failed import is never an HTTP error: it is `status: error`
 * with an `errorMessage`. What a route holds shrinks as it goes: base64 until parsed, compact points until settled,
 * then only the result.
 */
import type { ImportRecord } from '../resources/routes.js';
import { matchRoute } from './route-matching.js';
import { trackOf } from './route-parse.js';
import type { RouteParser } from './route-parser.js';
import type { RouteRecord, SimState } from './state.js';

export interface ImportSettings {
  viewerUrl: string;
  /** Milliseconds from POST until the import settles; drawn per route. */
  importDelay: () => number;
  parser: RouteParser;
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

/** Hands a stored route's data to the parser; the record takes the result and lets the base64 go. */
export function startParse(key: string, route: RouteRecord, state: SimState, parser: RouteParser): void {
  route.parsing = parser
    .parse(() => (state.routes.get(key) === route ? route.data : undefined))
    .then((parsed) => {
      if (!parsed || state.routes.get(key) !== route) return;
      route.parsed = parsed;
      route.data = undefined;
    });
}

/**
 * Waits up to `maxWaitMs` for the parse of a route whose delay has passed, so that a status asked for right after
 * the delay sees the settled import, as it would from the service; a long parse answers `pending` meanwhile.
 */
export async function awaitParse(route: RouteRecord, state: SimState, maxWaitMs: number): Promise<void> {
  if (route.parsed || route.result || !route.parsing || state.clock.now() < route.readyMs) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([route.parsing, new Promise((resolve) => (timer = setTimeout(resolve, maxWaitMs)))]);
  clearTimeout(timer);
}

export function importRecordFor(route: RouteRecord, state: SimState, settings: ImportSettings): ImportRecord {
  if (!route.result) {
    if (state.clock.now() < route.readyMs || !route.parsed) return { status: 'pending' };
    route.result = settle(route, route.parsed, state, settings);
    delete route.parsed;
  }
  const { eventId: _e, classId: _c, ...record } = route.result;
  return record;
}

function settle(
  route: RouteRecord,
  parsed: NonNullable<RouteRecord['parsed']>,
  state: SimState,
  settings: ImportSettings,
): NonNullable<RouteRecord['result']> {
  if (!parsed.ok) return { status: 'error', errorMessage: parsed.errorMessage };
  const match = matchRoute(trackOf(parsed), state, route.classId);
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
