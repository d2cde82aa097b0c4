/**
 * An IOF EventList as a portal writes it (Eventor's fixtures): one export per race of every event, each as an IOF
 * export of that race reads (`iof-source.ts`), with the service event id the portal stores for the race. The list is
 * streamed (`iof/event-classes/event-list.ts`): a national portal lists thousands of events.
 */
import { readEventList, type IofListedEvent } from '../iof/event-classes/event-list.js';
import type { EmsExport } from './source.js';
import { eventOf, listClass } from './iof-event.js';

/**
 * The key of the `Extensions` entry in which Eventor keeps the Livelox event of each race: the value is
 * `<eventId>,<flag>` per race, races separated by `;` in stage order (`193998,1;193999,1`). Observed in Eventor's
 * answers (and clients that read them), not published: it is read defensively, and only from this entry.
 */
export const EVENTOR_LIVELOX_KEY = 'Eventor_LiveloxEventConfigurations';

/** One race of an event of the list (the whole event when it has one race or none). */
export interface EventListExport {
  /** The event's place in the list, 1-based. */
  event: number;
  /** The race's number (its place when the list numbers none); absent for an event with one race or none. */
  race?: number;
  export: EmsExport;
  /** The service event id the portal stores for this race. */
  serviceEventId?: number;
}

/**
 * The service event ids of Eventor's configuration value, by race in stage order (index 0 is race 1). A part without
 * a usable id (empty, not a positive integer) is `undefined` and keeps its place, so that a race without a Livelox
 * event does not shift the ids of the races after it. Blanks and a missing flag are tolerated.
 */
export function liveloxEventIds(value: string): Array<number | undefined> {
  return value.split(';').map((part) => {
    const id = part.split(',')[0]?.trim() ?? '';
    return /^[1-9]\d{0,14}$/.test(id) ? Number(id) : undefined;
  });
}

/** The exports of one listed event: one per race when it has several. */
function exportsOf(listed: IofListedEvent, index: number, source: string, format: string): EventListExport[] {
  const configuration = listed.extensions?.[EVENTOR_LIVELOX_KEY];
  const ids = configuration === undefined ? [] : liveloxEventIds(configuration);
  const read = { event: listed.event, races: listed.races };
  const classes = listed.classes.map(listClass);
  const origin = `${source} event ${index}`;
  const one = (race: number | undefined, info: IofListedEvent['races'][number] | undefined): EventListExport => {
    // The n-th part is race n's, never the first for every race: Eventor lists them in stage order.
    const serviceEventId = ids[(race ?? listed.races[0]?.number ?? 1) - 1];
    return {
      event: index,
      ...(race === undefined ? {} : { race }),
      export: {
        event: eventOf(read, info),
        classes,
        format,
        source: race === undefined ? origin : `${origin} race ${race}`,
      },
      ...(serviceEventId === undefined ? {} : { serviceEventId }),
    };
  };
  if (listed.races.length <= 1) return [one(undefined, undefined)];
  return listed.races.map((info, i) => one(info.number ?? i + 1, info));
}

/**
 * Every race of every event of an IOF EventList file (3.0, or 2.0.3), in list order. Throws what `readEventList`
 * throws (`InputError`: `not_iof`, `wrong_message_type`, `not_well_formed`, `entity_declaration`, ...).
 */
export async function readEventListExports(
  path: string,
  options: {
    signal?: AbortSignal | undefined;
    /** The file's bytes when the caller already holds them: the file is then not read from disk again. */
    bytes?: Uint8Array | undefined;
  } = {},
): Promise<EventListExport[]> {
  const list = await readEventList(options.bytes ?? path, {
    source: path,
    extensionKeys: [EVENTOR_LIVELOX_KEY],
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  const format = `IOF ${list.version} EventList`;
  return list.events.flatMap((listed, i) => exportsOf(listed, i + 1, path, format));
}
