/** How the simulator writes events and countries as JSON, and the viewer addresses it hands out. */
import { formatContractDatetime } from '../resources/params.js';
import { countryName } from './countries.js';
import { slug } from './http.js';
import type { SimClass, SimCountry, SimEvent } from './model.js';
import type { SimState } from './state.js';

export interface EventRecordOptions {
  includeClasses: boolean;
  includeProperties: boolean;
  includeUrls: boolean;
  cultureCode: string;
  viewerUrl: string;
}

export function classViewerUrl(viewerUrl: string, event: SimEvent, cls: SimClass): string {
  return `${viewerUrl}/Viewer/${slug(event.name)}/${slug(cls.name)}?classId=${cls.id}`;
}

export function countryRecord(country: SimCountry, cultureCode: string): { id: number; code: string; name: string } {
  return { id: country.id, code: country.code, name: countryName(country, cultureCode) };
}

/**
 * Serialized event records, cached per event and per variant (culture and include flags) as UTF-8 bytes: building a
 * record with its class urls costs far more than the search itself, and an answer of a hundred records (hundreds of
 * KiB) is then written as those bytes, neither encoded again nor copied into one buffer. Keyed by the event object: the
 * world replaces an event it changes (`world.ts`), so a changed event is never answered from its old record.
 */
export class EventRecordCache {
  readonly #variants = new Map<string, WeakMap<SimEvent, Buffer>>();
  readonly #state: SimState;
  readonly #viewerUrl: string;

  constructor(state: SimState, viewerUrl: string) {
    this.#state = state;
    this.#viewerUrl = viewerUrl;
  }

  /** One event as JSON (UTF-8). */
  json(event: SimEvent, options: Omit<EventRecordOptions, 'viewerUrl'>): Buffer {
    return this.#record(this.#variant(options), event, options).subarray(1);
  }

  /** A list of events as a JSON array (UTF-8) in pieces: the cached records, each with the comma before it. */
  jsonArray(events: readonly SimEvent[], options: Omit<EventRecordOptions, 'viewerUrl'>): Buffer[] {
    const variant = this.#variant(options);
    const parts: Buffer[] = [OPEN];
    events.forEach((e, i) => {
      const record = this.#record(variant, e, options);
      parts.push(i === 0 ? record.subarray(1) : record);
    });
    parts.push(CLOSE);
    return parts;
  }

  #variant(options: Omit<EventRecordOptions, 'viewerUrl'>): WeakMap<SimEvent, Buffer> {
    const key = `${options.cultureCode}|${+options.includeClasses}${+options.includeProperties}${+options.includeUrls}`;
    let variant = this.#variants.get(key);
    if (!variant) {
      // Few variants exist in practice (a handful of cultures, eight flag combinations); drop the oldest past 32.
      if (this.#variants.size >= 32) this.#variants.delete(this.#variants.keys().next().value!);
      this.#variants.set(key, (variant = new WeakMap<SimEvent, Buffer>()));
    }
    return variant;
  }

  #record(variant: WeakMap<SimEvent, Buffer>, event: SimEvent, options: Omit<EventRecordOptions, 'viewerUrl'>): Buffer {
    let bytes = variant.get(event);
    if (bytes === undefined) {
      const record = eventRecord(event, this.#state, { ...options, viewerUrl: this.#viewerUrl });
      // With the comma that comes before it in a list: half as many pieces to write.
      bytes = Buffer.from(`,${JSON.stringify(record)}`);
      variant.set(event, bytes);
    }
    return bytes;
  }
}

const OPEN = Buffer.from('[');
const CLOSE = Buffer.from(']');

export function eventRecord(event: SimEvent, state: SimState, options: EventRecordOptions): Record<string, unknown> {
  const country = state.countriesByCode.get(event.countryCode);
  const record: Record<string, unknown> = {
    id: event.id,
    name: event.name,
    timeInterval: { start: formatContractDatetime(event.startMs), end: formatContractDatetime(event.endMs) },
    organisers: event.organisers.map((o) => ({ name: o.name })),
    country: country ? countryRecord(country, options.cultureCode) : null,
    position: event.position ? { latitude: event.position.latitude, longitude: event.position.longitude } : null,
    participantCount: event.participantCount,
    isSearchable: event.isSearchable,
    isPublished: event.isPublished,
    hasValidMapAndCourses: event.hasValidMapAndCourses,
    modifiedTime: formatContractDatetime(event.modifiedMs),
  };
  if (options.includeClasses) {
    record.classes = event.classes.map((cls) =>
      options.includeUrls
        ? { id: cls.id, name: cls.name, url: classViewerUrl(options.viewerUrl, event, cls) }
        : { id: cls.id, name: cls.name },
    );
  }
  if (options.includeProperties) {
    record.properties = event.properties.map((p) => ({ key: p.key, value: p.value }));
  }
  return record;
}
