/**
 * fetchCourses against the simulator over real HTTP: an EPSG code of the widened table is projected by the service
 * (France's Lambert-93, in a country the simulator has events in), a proj4 definition by the library, and both give
 * the same grid positions for the same courses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveloxClient } from '../../src/client.js';
import { ValidationError } from '../../src/errors.js';
import { getProjection } from '../../src/geo/projection.js';
import { parseCourseData } from '../../src/iof/read-course-data.js';
import type { CourseData } from '../../src/iof/model.js';
import { fetchCourses } from '../../src/jobs/fetch-courses.js';
import { clientFor, startHarness, type SimHarness } from '../helpers/simulator.js';

let h: SimHarness;
let client: LiveloxClient;
let eventId: number;
let degrees: CourseData;

/** Lambert-93 written out by hand, as a user would pass it to `--proj4`: no EPSG code, so the library projects. */
const LAMBERT_93 = '+proj=lcc +lat_0=46.5 +lon_0=3 +lat_1=49 +lat_2=44 +x_0=700000 +y_0=6600000 +ellps=GRS80 +units=m';

const positions = (data: CourseData) =>
  data.races.flatMap((r) => r.controls.flatMap((c) => (c.position === undefined ? [] : [[c.id, c.position] as const])));

beforeAll(async () => {
  h = await startHarness({ events: 300, seed: 3 });
  client = clientFor(h.sim);
  // A French event whose courses the service shows, with controls placed: found, not assumed.
  for (const event of h.sim.state.dataset.events) {
    if (event.countryCode !== 'FRA' || (event.courses?.controls.length ?? 0) === 0) continue;
    const fetched = await fetchCourses(client, { eventId: event.id });
    const data = parseCourseData(fetched.bytes, 'wgs84');
    if (positions(data).length > 0) {
      eventId = event.id;
      degrees = data;
      break;
    }
  }
  expect(degrees, 'the simulator dataset has a French event with placed controls').toBeDefined();
});
afterAll(async () => {
  await client.close();
  await h.sim.close();
});

describe('fetchCourses', () => {
  it('asks the service for EPSG:2154 and gets Lambert-93 metres that go back to the WGS 84 positions', async () => {
    const fetched = await fetchCourses(client, { eventId, projection: 'EPSG:2154' });
    expect(fetched.projectedBy).toBe('service');
    expect(fetched.projection).toMatchObject({ epsg: 2154, name: 'RGF93 v1 / Lambert-93' });
    const grid = new Map(positions(parseCourseData(fetched.bytes, 'lambert-93')));
    const lambert = getProjection(2154);
    for (const [id, p] of positions(degrees)) {
      const q = grid.get(id)!;
      // Mainland France spans about 100 000-1 250 000 m east and 6 040 000-7 120 000 m north in Lambert-93.
      expect(q.lng).toBeGreaterThan(50_000);
      expect(q.lat).toBeGreaterThan(6_000_000);
      const back = lambert.inverse({ easting: q.lng, northing: q.lat });
      expect(Math.abs(back.lat - p.lat)).toBeLessThan(1e-6);
      expect(Math.abs(back.lng - p.lng)).toBeLessThan(1e-6);
    }
  });

  it('projects for a proj4 definition itself, from the WGS 84 answer, to the same metres as the service', async () => {
    h.sim.stats.reset();
    const custom = await fetchCourses(client, { eventId, projection: LAMBERT_93 });
    expect(custom.projectedBy).toBe('client');
    expect(custom.projection).toMatchObject({ epsg: undefined, definition: LAMBERT_93 });
    // One request, without projectionEpsgCode (the service cannot take a definition).
    const byEndpoint = h.sim.stats.snapshot().byEndpoint;
    expect(Object.keys(byEndpoint)).toEqual(['GET /orienteering/courses/iofxml']);
    const bySystem = await fetchCourses(client, { eventId, projection: 2154 });
    const a = new Map(positions(parseCourseData(custom.bytes, 'custom')));
    const b = positions(parseCourseData(bySystem.bytes, 'service'));
    expect(a.size).toBe(b.length);
    for (const [id, q] of b) {
      // Same parameters, zero datum shift on both: the same grid to well under a millimetre (IOF XML keeps 6+ digits).
      expect(Math.abs(a.get(id)!.lng - q.lng)).toBeLessThan(0.01);
      expect(Math.abs(a.get(id)!.lat - q.lat)).toBeLessThan(0.01);
    }
    // The rest of the document is the service's: the same courses, in the same order.
    const names = (bytes: Buffer) => parseCourseData(bytes, 'x').races[0]!.courses.map((c) => c.name);
    expect(names(custom.bytes)).toEqual(names(bySystem.bytes));
  });

  it('refuses a definition proj4 cannot use before sending any request', async () => {
    h.sim.stats.reset();
    const error = await fetchCourses(client, {
      eventId,
      projection: '+proj=lcc +lat_1=30 +lat_2=-30 +ellps=GRS80',
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues[0]).toMatchObject({ code: 'unsupported_projection' });
    expect(h.sim.stats.snapshot().byEndpoint).toEqual({});
  });
});
