/** Hand-made datasets for tests that need exact answers (the generated one is for realism, not for arithmetic). */
import { COUNTRIES } from '../../src/simulator/countries.js';
import type { SimDataset, SimEvent } from '../../src/simulator/model.js';

const T = (iso: string): number => Date.parse(iso);

let nextClassId = 9000;

export function makeEvent(
  partial: Partial<SimEvent> & { id: number; name: string; start: string; end: string },
): SimEvent {
  const { start, end, ...rest } = partial;
  return {
    organisers: [{ name: 'OK Test' }],
    countryCode: 'SWE',
    position: { latitude: 59.3, longitude: 18.0 },
    classes: [
      { id: nextClassId++, name: 'H21' },
      { id: nextClassId++, name: 'D21' },
    ],
    properties: [{ key: 'discipline', value: 'Long' }],
    participantCount: 100,
    isSearchable: true,
    isPublished: true,
    hasValidMapAndCourses: true,
    modifiedMs: T(start) - 86_400_000,
    ...rest,
    startMs: T(start),
    endMs: T(end),
  };
}

export function makeDataset(events: SimEvent[]): SimDataset {
  return { events, countries: [...COUNTRIES] };
}
