/**
 * The edges where incremental sync loses or repeats data elsewhere (SYNC-NOTES.md): equal timestamps across page edges,
 * an event changed while a run pages, a deletion, a portal event removed, and a machine clock that disagrees with the
 * service's.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PortalEvent } from '../../src/ems/portal.js';
import { syncJob, type SyncJobOptions } from '../../src/jobs/sync/sync.js';
import type { SimEvent } from '../../src/simulator/model.js';
import { startSimulator, type Simulator } from '../../src/simulator/server.js';
import { clientFor } from '../helpers/simulator.js';
import { day, portalEventOf, TempStates } from '../helpers/sync.js';

const DAY_MS = 86_400_000;
let sim: Simulator;
const states = new TempStates();
const clients: Array<{ close(): Promise<void> }> = [];

beforeAll(async () => {
  sim = await startSimulator({ port: 0, seed: 5, events: 120 });
});
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
});
afterAll(async () => {
  await sim.close();
  states.cleanup();
});

function client() {
  const c = clientFor(sim);
  clients.push(c);
  return c;
}

function events(): SimEvent[] {
  return [...sim.state.eventsById.values()].sort((a, b) => a.id - b.id);
}

type Run = Omit<SyncJobOptions, 'client' | 'store' | 'portal'>;

/** A state and a client that run the job over `portal` as often as a test asks. */
function nightly(portal: () => PortalEvent[]) {
  const store = states.open();
  const c = client();
  return {
    store,
    run: (options: Run = {}) => syncJob({ client: c, store, portal: { events: portal(), problems: [] }, ...options }),
    close: () => store.close(),
  };
}

/** Events at one date in one place, all created in the same second: they share their modifiedTime. */
function createBatch(count: number, startMs: number, prefix: string): SimEvent[] {
  const out: SimEvent[] = [];
  for (let i = 0; i < count; i++) {
    out.push(
      sim.world.createEvent({
        name: `${prefix} ${i + 1}`,
        start: new Date(startMs),
        end: new Date(startMs + 4 * 3_600_000),
        countryCode: 'SWE',
        organisers: [`${prefix} OK ${i + 1}`],
        classes: ['H21', 'D21'],
        isPublished: true,
      }),
    );
  }
  return out;
}

describe('sync at the boundaries', () => {
  it('loses nothing and never loops when a page edge falls inside events sharing one modifiedTime', async () => {
    const base = events()[10]!;
    const night = nightly(() => [portalEventOf(base)]);
    try {
      await night.run({ pageSize: 25 });
      sim.state.clock.advance(2_000);
      // At the start of a simulated second, so that the 60 creations below (a few ms) fall inside that one second even
      // on a loaded machine: the simulated clock runs with the real one.
      sim.state.clock.advance(1_000 - (sim.state.clock.now() % 1_000));
      // 60 new events in one second, all on the portal event's day: three pages of 25 share one timestamp.
      const batch = createBatch(60, base.startMs, 'Same Second Sprint');
      expect(new Set(batch.map((e) => e.modifiedMs)).size).toBe(1);
      const second = await night.run({ pageSize: 25 });
      expect(second.requests).toBe(3);
      const mirror = night.store.load().mirror;
      for (const e of batch) expect(mirror.has(e.id), e.name).toBe(true);
      // Asked again (the overlap covers them): the same answers are not new, and paging still ends.
      const before = mirror.size;
      const third = await night.run({ pageSize: 25 });
      expect(third.requests).toBe(3);
      expect(night.store.load().mirror.size).toBe(before);
    } finally {
      night.close();
    }
  });

  it('finds an event changed while the run was paging on the next run', async () => {
    const all = events();
    const target = all[30]!;
    const portal = all.slice(20, 60).map((e) => portalEventOf(e));
    const night = nightly(() => portal);
    try {
      await night.run({ pageSize: 20 });
      sim.state.clock.advance(60_000);
      let changedDuring = false;
      await night.run({
        pageSize: 20,
        full: true,
        onProgress: (p) => {
          // After the first page came back, the target (already answered) is published meanwhile.
          if (!changedDuring && p.step === 'service' && p.detail.includes('page 1')) {
            sim.world.changeEvent(target.id, { isPublished: !target.isPublished });
            changedDuring = true;
          }
        },
      });
      expect(changedDuring).toBe(true);
      sim.state.clock.advance(60_000);
      const next = await night.run({ pageSize: 20 });
      const link = next.links.find((l) => l.eventId === target.id);
      expect(link?.published).toBe(!target.isPublished);
      expect(next.changes.some((c) => c.kind === (target.isPublished ? 'unpublished' : 'published'))).toBe(true);
    } finally {
      night.close();
    }
  });

  it('keeps a deleted event until two full sweeps missed it, then reports it gone', async () => {
    const victim = createBatch(1, events()[40]!.startMs + DAY_MS / 2, 'Doomed Night Race')[0]!;
    const portal = [portalEventOf(victim)];
    const night = nightly(() => portal);
    try {
      const first = await night.run();
      expect(first.links[0]).toMatchObject({ status: 'linked', eventId: victim.id });
      sim.world.deleteEvent(victim.id);
      sim.state.clock.advance(60_000);
      // An incremental night cannot see a deletion.
      expect((await night.run()).links[0]).toMatchObject({ status: 'linked', eventId: victim.id });
      const sweep1 = await night.run({ full: true });
      expect(sweep1.links[0]).toMatchObject({ status: 'linked', eventId: victim.id });
      expect(sweep1.changes.filter((c) => c.kind === 'gone')).toEqual([]);
      const sweep2 = await night.run({ full: true });
      expect(sweep2.links[0]).toMatchObject({
        status: 'gone',
        eventId: victim.id,
        reason: `${victim.name} (${victim.id}) was deleted from the service: two full sweeps of the window missed it`,
      });
      expect(sweep2.changes).toContainEqual(expect.objectContaining({ kind: 'gone', attention: true }));
      expect(night.store.load().mirror.has(victim.id)).toBe(false);
    } finally {
      night.close();
    }
  });

  it('counts a miss again from zero when a full sweep finds the event after one miss', async () => {
    const kept = events()[50]!;
    const night = nightly(() => [portalEventOf(kept)]);
    try {
      await night.run();
      const state = night.store.load();
      expect(state.mirror.get(kept.id)?.misses).toBe(0);
      await night.run({ full: true });
      expect(night.store.load().mirror.get(kept.id)?.misses).toBe(0);
    } finally {
      night.close();
    }
  });

  it('removes a portal event that left the portal from the state and the links', async () => {
    const all = events();
    let portal = all.slice(0, 5).map((e) => portalEventOf(e));
    const night = nightly(() => portal);
    try {
      await night.run();
      const leaving = portal[2]!.key;
      portal = portal.filter((p) => p.key !== leaving);
      const after = await night.run();
      expect(after.changes).toContainEqual(expect.objectContaining({ key: leaving, kind: 'portal_removed' }));
      expect(after.links.map((l) => l.key)).not.toContain(leaving);
      const state = night.store.load();
      expect(state.links.has(leaving)).toBe(false);
      expect(state.portal.has(leaving)).toBe(false);
    } finally {
      night.close();
    }
  });

  it('takes its cursor from the service, not from a machine clock 10 minutes ahead', async () => {
    const base = events()[70]!;
    const portal: PortalEvent[] = [portalEventOf(base)];
    const night = nightly(() => portal);
    const ahead = () => new Date(Date.now() + 10 * 60_000);
    try {
      const first = await night.run({ now: ahead, overlapMs: 0 });
      sim.state.clock.advance(1_000);
      const [created] = createBatch(1, base.startMs + 3_600_000, 'Late Entry Cup');
      portal.push(portalEventOf(created!));
      const second = await night.run({ now: ahead, overlapMs: 0 });
      expect(second.links.find((l) => l.key === `portal:${created!.id}`)).toMatchObject({
        status: 'linked',
        eventId: created!.id,
      });
      // The cursor is a time the service gave, and earlier than the machine's clock.
      expect(Date.parse(second.cursor.modifiedSince!)).toBeLessThan(ahead().getTime() - 5 * 60_000);
      expect(second.cursor.modifiedSince! >= first.cursor.modifiedSince!).toBe(true);
    } finally {
      night.close();
    }
  });

  it('sends one request on a night with no change, and none for the country list it already has', async () => {
    // Events far from the service's today: none is in the days near it, which a run also searches (sync-statuses).
    const now = sim.state.clock.now();
    const night = nightly(() =>
      events()
        .filter((e) => Math.abs(e.startMs - now) > 60 * DAY_MS)
        .slice(70, 80)
        .map((e) => portalEventOf(e)),
    );
    try {
      const first = await night.run();
      expect(first.requests).toBe(2);
      sim.state.clock.advance(DAY_MS);
      const quiet = await night.run();
      expect(quiet.requests).toBe(1);
      expect(quiet.changes.filter((c) => !c.kind.startsWith('still_'))).toEqual([]);
    } finally {
      night.close();
    }
  });

  it('links a portal event by the service id the portal stores, without searching for it', async () => {
    const target = events()[95]!;
    const night = nightly(() => [
      {
        ...portalEventOf(target, 'eventor:1-1'),
        export: {
          ...portalEventOf(target).export,
          event: { name: 'Renamed in the portal', start: day(target.startMs), organisers: [] },
        },
        serviceEventId: target.id,
      },
    ]);
    try {
      const result = await night.run();
      expect(result.links[0]).toMatchObject({ status: 'linked', eventId: target.id, method: 'portal_id' });
    } finally {
      night.close();
    }
  });
});
