/**
 * The days near today, looked at every run: a search for modified events never shows a deletion, and a portal shows
 * the events of these days most. So besides `modifiedSince`, a run lists the ids of every event the service holds
 * from a few days back to a couple of weeks ahead of its own clock, with a light search (no classes, no properties),
 * and a linked event of those days that the list lacks is asked for by id: a 404 and it is gone at once, any other
 * answer and it stays. The list costs the window's pages, and is asked only when a linked event lies in it.
 */
import type { LiveloxClient } from '../../client.js';
import { DAY_MS } from '../../ems/dates.js';
import { HttpError, NotFoundError } from '../../errors.js';
import { MAX_PAGE_SIZE } from '../../resources/events.js';

/** Whole days before and after the service's clock. */
export interface NearDays {
  back: number;
  ahead: number;
}

export const DEFAULT_NEAR_DAYS: NearDays = { back: 3, ahead: 14 };

/** The near window around the service's clock (whole UTC days), or undefined when `days` is empty (0 and 0). */
export function nearWindow(serviceTime: Date, days: NearDays): { from: Date; to: Date } | undefined {
  if (days.back <= 0 && days.ahead <= 0) return undefined;
  const today = Math.floor(serviceTime.getTime() / DAY_MS);
  return { from: new Date((today - days.back) * DAY_MS), to: new Date((today + 1 + days.ahead) * DAY_MS) };
}

/**
 * The ids of every event the service holds in `window`, page by page. Only ids are kept: the answers lack classes
 * and properties, so they never replace a mirrored event, and they never move the cursor (an event changed meanwhile
 * is left to the next `modifiedSince`).
 */
export async function idsIn(
  client: LiveloxClient,
  window: { from: Date; to: Date },
  options: { pageSize?: number | undefined; signal?: AbortSignal | undefined; onPage?: (page: number) => void },
): Promise<Set<number>> {
  const size = Math.min(options.pageSize ?? MAX_PAGE_SIZE, MAX_PAGE_SIZE);
  const ids = new Set<number>();
  for (let index = 0; ; index++) {
    const events = await client.events.search(
      {
        from: window.from,
        to: window.to,
        includeClasses: false,
        includeProperties: false,
        includeUrls: false,
        sorting: { by: 'time', order: 'ascending' },
        paging: { index, size },
      },
      { signal: options.signal },
    );
    for (const e of events) ids.add(e.id);
    options.onPage?.(index + 1);
    if (events.length < size) return ids;
  }
}

/** Whether the service still has event `id`: false only when it answers 404; any other answer keeps the event. */
export async function stillThere(client: LiveloxClient, id: number, signal?: AbortSignal): Promise<boolean> {
  try {
    await client.events.get(id, {
      includeClasses: false,
      includeProperties: false,
      includeUrls: false,
      fresh: true,
      signal,
    });
    return true;
  } catch (err) {
    if (err instanceof NotFoundError) return false;
    // A refusal or a failure after the retries is no proof of a deletion: the event stays, and a later run asks again.
    if (err instanceof HttpError) return true;
    throw err;
  }
}
