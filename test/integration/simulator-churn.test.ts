/**
 * The churn (`churn` option, `--churn R`): the world changes as the simulated clock is advanced, the same way for the
 * same seed and advances, stamped inside the advanced interval; and no event is ever modified in the clock's future.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { parseContractDatetime } from '../../src/resources/params.js';
import type { Simulator } from '../../src/simulator/server.js';
import type { SimChange } from '../../src/simulator/world.js';
import { http, startHarness, type SimHarness } from '../helpers/simulator.js';

const DAY = 86_400_000;
const started: SimHarness[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((s) => s.sim.close()));
});

async function start(options: Parameters<typeof startHarness>[0]): Promise<SimHarness> {
  const h = await startHarness(options);
  started.push(h);
  return h;
}

/** What changed, without when: two simulators started a few ms apart stamp the same changes a few ms apart. */
const what = (changes: readonly SimChange[]) => changes.map(({ at: _at, ...rest }) => rest);

/** The events as a client sees them, but for modifiedTime. */
function world(sim: Simulator): unknown[] {
  return [...sim.state.eventsById.values()]
    .sort((a, b) => a.id - b.id)
    .map(({ modifiedMs: _m, ...rest }) => ({ ...rest, courses: undefined }));
}

async function advanceOverHttp(h: SimHarness, advanceMs: number): Promise<void> {
  const res = await http('POST', `${h.sim.info.controlUrl}/clock`, {
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ advanceMs }),
  });
  expect(res.status, res.text).toBe(200);
}

describe('churn', () => {
  it('changes the same events the same way for the same seed and advances, however they are split', async () => {
    const a = await start({ seed: 7, events: 300, churn: 0.05 });
    const b = await start({ seed: 7, events: 300, churn: 0.05 });
    const c = await start({ seed: 7, events: 300, churn: 0.05 });
    for (const step of [1.5 * DAY, 0.5 * DAY, DAY]) {
      a.sim.state.clock.advance(step);
      await advanceOverHttp(b, step);
    }
    c.sim.state.clock.advance(3 * DAY);

    const changes = a.sim.world.changes();
    expect(what(b.sim.world.changes())).toEqual(what(changes));
    expect(what(c.sim.world.changes())).toEqual(what(changes));
    expect(world(b.sim)).toEqual(world(a.sim));
    expect(world(c.sim)).toEqual(world(a.sim));

    // 5 % of 300 events a day for 3 days, a tenth as many created, a fiftieth deleted: about, not exactly.
    const count = (kind: SimChange['kind']) => changes.filter((x) => x.kind === kind).length;
    expect(count('changed')).toBeGreaterThan(25);
    expect(count('changed')).toBeLessThan(65);
    expect(count('created')).toBeGreaterThan(0);
    expect(count('created')).toBeLessThan(15);
    expect(count('deleted')).toBeLessThan(5);
    expect(changes.every((x) => x.source === 'churn')).toBe(true);
    const kinds = new Set(changes.flatMap((x) => x.fields));
    for (const field of ['classes', 'name', 'isPublished', 'hasValidMapAndCourses']) expect(kinds).toContain(field);

    const other = await start({ seed: 8, events: 300, churn: 0.05 });
    other.sim.state.clock.advance(3 * DAY);
    expect(what(other.sim.world.changes())).not.toEqual(what(changes));
  });

  it('stamps each change inside the advanced interval, never after the clock; search finds exactly them', async () => {
    const h = await start({ seed: 3, events: 400, churn: 0.1 });
    const before = h.sim.state.clock.now();
    h.sim.state.clock.advance(2 * DAY);
    const after = h.sim.state.clock.now();
    const changes = h.sim.world.changes();
    expect(changes.length).toBeGreaterThan(50);
    let previous = -Infinity;
    for (const change of changes) {
      const at = parseContractDatetime(change.at)!;
      expect(at).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
      expect(at).toBeLessThanOrEqual(after);
      // In the order they happened.
      expect(at).toBeGreaterThanOrEqual(previous);
      previous = at;
    }
    for (const e of h.sim.state.eventsById.values()) expect(e.modifiedMs).toBeLessThanOrEqual(after);

    const since = new Date(Math.floor(before / 1000) * 1000 - 1000).toISOString().replace('.000Z', 'Z');
    const res = await h.events({ modifiedSince: since });
    expect(res.status).toBe(200);
    const found = (res.json() as Array<{ id: number }>).map((e) => e.id).sort((x, y) => x - y);
    const deleted = new Set(changes.filter((x) => x.kind === 'deleted').map((x) => x.eventId));
    const touched = [...new Set(changes.map((x) => x.eventId))].filter((id) => !deleted.has(id));
    expect(found).toEqual(touched.sort((x, y) => x - y));
    for (const id of deleted) expect((await h.api(`/events/${id}`)).status).toBe(404);
  });

  it('does nothing without advances, nor with churn 0', async () => {
    const idle = await start({ seed: 7, events: 100, churn: 0.5 });
    expect(idle.sim.world.changes()).toEqual([]);
    const still = await start({ seed: 7, events: 100 });
    still.sim.state.clock.advance(5 * DAY);
    expect(still.sim.world.changes()).toEqual([]);
  });

  it('is read and set while running through GET and PUT /_simulator/churn, and from then on changes the world', async () => {
    const a = await start({ seed: 7, events: 300 });
    expect((await http('GET', `${a.sim.info.controlUrl}/churn`)).json()).toEqual({ rate: 0 });
    a.sim.state.clock.advance(DAY);
    expect(a.sim.world.changes()).toEqual([]);

    const set = await http('PUT', `${a.sim.info.controlUrl}/churn`, { body: JSON.stringify({ rate: 0.05 }) });
    expect(set.status, set.text).toBe(200);
    expect(set.json()).toEqual({ rate: 0.05 });
    expect(a.sim.churn).toBe(0.05);
    expect(a.sim.describe().churn).toBe(0.05);
    a.sim.state.clock.advance(DAY);
    // 5 % of 300 events in a day: about 15 changes, all of them churn's, stamped within the day just advanced.
    const changes = a.sim.world.changes();
    expect(changes.length).toBeGreaterThan(5);
    expect(new Set(changes.map((c) => c.source))).toEqual(new Set(['churn']));
    for (const body of ['{"rate": 1.5}', '{"rate": -0.1}', '{"rate": "0.1"}', '{}', 'x']) {
      const refused = await http('PUT', `${a.sim.info.controlUrl}/churn`, { body });
      expect(refused.status, body).toBe(400);
    }
    expect(a.sim.churn).toBe(0.05);
  });

  it('refuses a churn outside 0..1', async () => {
    await expect(start({ churn: 1.5 })).rejects.toThrow(/churn: must be within 0\.\.1/);
  });
});

describe('modification times', () => {
  it('are never in the future of the clock for the default dataset', async () => {
    const h = await start({});
    const res = await h.events({ paging: '0:1000' });
    expect(res.status).toBe(200);
    const served = Date.parse(String(res.headers.date));
    const events = res.json() as Array<{ modifiedTime: string }>;
    expect(events).toHaveLength(300);
    for (const e of events) expect(parseContractDatetime(e.modifiedTime)!).toBeLessThanOrEqual(served);
  });

  it('of a dataset stamped later than the clock are taken back to the clock at start', async () => {
    const { makeDataset, makeEvent } = await import('../helpers/dataset.js');
    const future = Date.now() + 30 * DAY;
    const dataset = makeDataset([
      makeEvent({ id: 1, name: 'Later', start: '2030-05-01T10:00:00Z', end: '2030-05-01T12:00:00Z' }),
    ]);
    dataset.events[0]!.modifiedMs = future;
    const h = await start({ dataset });
    expect(h.sim.state.eventsById.get(1)!.modifiedMs).toBeLessThanOrEqual(h.sim.state.clock.now());
    // The caller's dataset is left as it was.
    expect(dataset.events[0]!.modifiedMs).toBe(future);
  });
});

describe('courses of a changed event', () => {
  it('follow its classes: a removed class loses its course, a renamed one shows its new name', async () => {
    const h = await start({ seed: 1, events: 60 });
    const event = [...h.sim.state.eventsById.values()].find(
      (e) => e.isPublished && e.hasValidMapAndCourses && e.classes.length >= 3 && e.courses,
    )!;
    const [first, second] = event.classes;
    h.sim.world.changeEvent(event.id, {
      removeClasses: [first!.id],
      renameClasses: [{ id: second!.id, name: 'Renamed class' }],
    });
    const xml = (await h.api(`/orienteering/courses/iofxml?eventId=${event.id}`)).text;
    expect(xml).not.toContain(`<ClassId>${first!.id}</ClassId>`);
    expect(xml).toContain(`<ClassId>${second!.id}</ClassId>`);
    expect(xml).toContain('<ClassName>Renamed class</ClassName>');
  });

  it('takes at most a year in one advance while churn is on, so that no request holds the simulator for minutes', async () => {
    const h = await start({ seed: 3, events: 50, churn: 0.05 });
    const before = h.sim.state.clock.offsetMs;
    const res = await http('POST', `${h.sim.info.controlUrl}/clock`, {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ advanceMs: 2 * 366 * DAY }),
    });
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/with churn, the clock advances at most 366 days at a time/);
    expect(h.sim.state.clock.offsetMs).toBe(before);
    await advanceOverHttp(h, 366 * DAY);
  });
});
