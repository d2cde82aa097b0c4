/**
 * The files the job demos run on (fixtures/demo) still fit the simulator's default world: a change of the generated
 * dataset that would leave `demo sync` linking nothing, or the demo event clashing with a generated one, fails here
 * with the portal event and the service event named, not in front of a newcomer.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPortal } from '../../src/ems/portal.js';
import { validate } from '../../src/iof/validate/validate.js';
import { syncJob, type SyncResult } from '../../src/jobs/sync/sync.js';
import { generateDataset } from '../../src/simulator/dataset/generate.js';
import { loadDatasetFile } from '../../src/simulator/dataset/file.js';
import { startSimulator, type Simulator } from '../../src/simulator/server.js';
import { fixturePath } from '../helpers/files.js';
import { clientFor } from '../helpers/simulator.js';
import { TempStates } from '../helpers/sync.js';

const PORTAL = fixturePath('demo/portal');

/** Each portal event of the demo and the default world's event it is; null: on purpose found nowhere (a training). */
const EXPECTED: Record<string, number | null> = {
  'calendar:2026-014': 107132,
  'calendar:2026-022': 107221,
  'calendar:2026-031': 107600,
  'calendar:2026-035': null,
  'calendar:2026-047': 107192,
  'calendar:2026-052': 107488,
  'clubs/bromma-vallingby-sok/2026-05-02.ResultList.xml': 107520,
  'eventor:38546-1': 107562,
  'eventor:38546-2': 107563,
  'eventor:38546-3': 107564,
  'eventor:40437': 107504,
};

let sim: Simulator;
const states = new TempStates();

beforeAll(async () => {
  // The world `livelox-bridge simulator` and the demos serve: the defaults, seed 1 and 300 events.
  sim = await startSimulator({ port: 0 });
});
afterAll(async () => {
  await sim.close();
  states.cleanup();
});

describe('the demo portal (demo sync)', () => {
  let result: SyncResult;

  beforeAll(async () => {
    const portal = await readPortal([PORTAL]);
    expect(portal.problems).toEqual([]);
    const store = states.open();
    const client = clientFor(sim);
    try {
      result = await syncJob({ client, store, portal });
    } finally {
      await client.close();
      store.close();
    }
  });

  it('holds exactly the portal events the demo tells of', () => {
    expect(result.links.map((l) => l.key).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it('links each to its event of the default world, every class both ways, and leaves the training for a person', () => {
    for (const link of result.links) {
      const expected = EXPECTED[link.key];
      if (expected === null) {
        expect(link.status, link.key).toBe('not_found');
        continue;
      }
      expect({ key: link.key, status: link.status, eventId: link.eventId }).toEqual({
        key: link.key,
        status: 'linked',
        eventId: expected,
      });
      expect(link.unmatchedPortalClasses, link.key).toEqual([]);
      expect(link.unmatchedServiceClasses, link.key).toEqual([]);
    }
    expect(result.attention).toBe(true);
  });

  it('is made of exports that are valid IOF XML 3.0', async () => {
    const files = readdirSync(PORTAL, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.xml'));
    expect(files.length).toBeGreaterThanOrEqual(3);
    const docs = files.map((f) => ({ name: f, bytes: new Uint8Array(readFileSync(join(PORTAL, f))) }));
    const results = await validate([
      ...docs,
      { name: 'CourseData.xml', bytes: readFileSync(fixturePath('demo/check-courses/CourseData.xml')) },
    ]);
    for (const r of results) expect({ name: r.name, valid: r.valid, errors: r.errors }).toMatchObject({ valid: true });
  });
});

describe('the demo event (demo check-courses, demo import)', () => {
  it('sits beside the default world without sharing an event id, a class id, or a day and place', async () => {
    const { events } = await loadDatasetFile(fixturePath('demo/event.json'));
    expect(events).toHaveLength(1);
    const event = events[0]!;
    const world = generateDataset({ seed: 1, events: 300 });
    expect(world.events.map((e) => e.id)).not.toContain(event.id);
    const classIds = new Set(world.events.flatMap((e) => e.classes.map((c) => c.id)));
    expect(event.classes.filter((c) => classIds.has(c.id))).toEqual([]);
    // A route of the demo is matched by time and place: no generated event may compete for it that day.
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    expect(world.events.filter((e) => day(e.startMs) === day(event.startMs) && e.countryCode === 'SWE')).toEqual([]);
  });
});
