import { describe, expect, it } from 'vitest';
import { destination } from '../../src/geo/distance.js';
import type { Track } from '../../src/gps/types.js';
import type { RaceCourseData } from '../../src/iof/model.js';
import { SimClock } from '../../src/simulator/clock.js';
import { matchRoute } from '../../src/simulator/route-matching.js';
import { SimState } from '../../src/simulator/state.js';
import { makeDataset, makeEvent } from '../helpers/dataset.js';

const centre = { lat: 61.5, lng: 16.2 };
const at = (bearing: number, m: number) => destination(centre, bearing, m);
const controlIds = ['S1', '31', '32', '33', '34', '35', 'F1'];
const positions = controlIds.map((_, i) => at(i * 50, 300 + i * 150));

// Course Short is Long without 34 and 35: whoever runs Long also passes every control of Short.
const courses: RaceCourseData = {
  maps: [],
  controls: controlIds.map((id, i) => ({
    id,
    type: id === 'S1' ? 'Start' : id === 'F1' ? 'Finish' : 'Control',
    position: positions[i]!,
  })),
  courses: [
    {
      name: 'Short',
      controls: ['S1', '31', '32', '33', 'F1'].map((id) => ({ controlId: id, type: 'Control' as const })),
    },
    { name: 'Long', controls: controlIds.map((id) => ({ controlId: id, type: 'Control' as const })) },
  ],
  classAssignments: [
    { classId: '501', className: 'H10', courseName: 'Short' },
    { classId: '502', className: 'H21', courseName: 'Long' },
    { classId: '503', className: 'D21', courseName: 'Long' },
  ],
};

const event = makeEvent({
  id: 77,
  name: 'Testloppet',
  start: '2025-06-01T08:00:00Z',
  end: '2025-06-01T14:00:00Z',
  position: { latitude: centre.lat, longitude: centre.lng },
  classes: [
    { id: 501, name: 'H10' },
    { id: 502, name: 'H21' },
    { id: 503, name: 'D21' },
  ],
  courses,
});
const state = new SimState(makeDataset([event]), new SimClock());

function run(ids: string[], startIso = '2025-06-01T09:00:00Z'): Track {
  const t0 = Date.parse(startIso);
  return {
    format: 'gpx',
    points: ids.map((id, i) => ({ ...positions[controlIds.indexOf(id)]!, time: t0 + i * 60_000 })),
  };
}

describe('matching a route to an event and class', () => {
  it('gives a run of the long course to the first class on it, although the short course is fully visited too', () => {
    const m = matchRoute(run(controlIds), state, undefined);
    expect(m).toMatchObject({ ok: true, event: { id: 77 }, cls: { id: 502 } });
  });

  it('gives a run of the short course to the short course class', () => {
    const m = matchRoute(run(['S1', '31', '32', '33', 'F1']), state, undefined);
    expect(m).toMatchObject({ ok: true, cls: { id: 501 } });
  });

  it('connects to the event without a class when too few controls of any course were visited', () => {
    const m = matchRoute(run(['S1', '31']), state, undefined);
    expect(m.ok).toBe(true);
    expect(m.ok && m.cls).toBeUndefined();
  });

  it('finds no event for a route on another day, and honours an explicit classId wherever the route is', () => {
    expect(matchRoute(run(controlIds, '2025-06-03T09:00:00Z'), state, undefined)).toMatchObject({ ok: false });
    expect(matchRoute(run(controlIds, '2025-06-03T09:00:00Z'), state, 503)).toMatchObject({
      ok: true,
      cls: { id: 503 },
    });
  });
});
