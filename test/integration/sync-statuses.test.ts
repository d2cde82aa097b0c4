/**
 * Statuses a portal can trust, over several nights with the simulator's clock advanced: a portal class whose service
 * class was removed or renamed stays `unmapped` (needing a person) until it maps again or the portal drops it; a
 * deleted event stays `gone` (when and why) until the portal event changes; a linked event deleted near today is gone
 * by the next night without a full sweep, for the near window's page and one request by id, and a confirmation the
 * service fails keeps the link. And a state written with the earlier class shape reads as the current one.
 */
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PortalEvent } from '../../src/ems/portal.js';
import { syncJob, type SyncJobOptions, type SyncResult } from '../../src/jobs/sync/sync.js';
import type { SimEvent } from '../../src/simulator/model.js';
import { startSimulator, type Simulator } from '../../src/simulator/server.js';
import type { LinkRecord } from '../../src/store/sync-state.js';
import { clientFor } from '../helpers/simulator.js';
import { logicalState, portalEventOf, TempStates } from '../helpers/sync.js';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
let sim: Simulator;
const states = new TempStates();
const clients: Array<{ close(): Promise<void> }> = [];
let made = 0;

beforeAll(async () => {
  // Faults off until a test turns them on; when on, every request answers 503 (retry at once: a quick test).
  sim = await startSimulator({ port: 0, seed: 13, events: 60, faultKinds: ['503'], retryAfterS: 0 });
});
afterEach(async () => {
  sim.faults.settings.rate = 0;
  for (const c of clients.splice(0)) await c.close();
});
afterAll(async () => {
  await sim.close();
  states.cleanup();
});

type Run = Omit<SyncJobOptions, 'client' | 'store' | 'portal'>;

/** A state and a client that run the job over the portal as often as a test asks. */
function nightly(portal: () => PortalEvent[]) {
  const store = states.open();
  const client = clientFor(sim);
  clients.push(client);
  return {
    store,
    run: (options: Run = {}) => syncJob({ client, store, portal: { events: portal(), problems: [] }, ...options }),
    close: () => store.close(),
  };
}

/** Names no other event of the world resembles, one per event a test creates. */
const NAMES = [
  ['Vargåsens nattsprint', 'OK Vargåsen'],
  ['Kalmar höstklassiker', 'Kalmar OK'],
  ['Fjällbackamarschen', 'IK Fjällbacka'],
  ['Tranås stadsorientering', 'Tranås SOK'],
  ['Ölands alvarlopp', 'Ölands OK'],
  ['Hälsinge medeldistans', 'Hälsinge OL'],
  ['Gotlands kustrunda', 'Gotlands OK'],
];

/** A service event of its own name, `daysAhead` days from the service's clock. */
function create(daysAhead: number, classes = ['H21', 'D21', 'H70']): SimEvent {
  // Whole hours: the service takes whole seconds.
  const start = Math.floor(sim.state.clock.now() / HOUR_MS) * HOUR_MS + daysAhead * DAY_MS;
  const [name, club] = NAMES[made++ % NAMES.length]!;
  return sim.world.createEvent({
    name: name!,
    start: new Date(start),
    end: new Date(start + 4 * HOUR_MS),
    countryCode: 'SWE',
    organisers: [club!],
    classes,
    isPublished: true,
  });
}

const classId = (e: SimEvent, name: string): number => e.classes.find((c) => c.name === name)!.id;
const linkOf = (r: SyncResult, key: string): LinkRecord => r.links.find((l) => l.key === key)!;
const kinds = (r: SyncResult, key: string): string[] => r.changes.filter((c) => c.key === key).map((c) => c.kind);

/** The next night: the service's clock a day on. */
function nextDay(): number {
  return sim.state.clock.advance(DAY_MS);
}

describe('sync: a portal class that lost its service class', () => {
  it('stays unmapped, needing a person, night after night, until it maps again or the portal drops it', async () => {
    const event = create(90);
    let portal = portalEventOf(event);
    const night = nightly(() => [portal]);
    try {
      const first = await night.run();
      expect(linkOf(first, portal.key).classes.map((c) => [c.name, c.status])).toEqual([
        ['H21', 'linked'],
        ['D21', 'linked'],
        ['H70', 'linked'],
      ]);
      expect(first.attention).toBe(false);

      const h70 = classId(event, 'H70');
      sim.world.changeEvent(event.id, { removeClasses: [h70] });
      const removedAt = nextDay();
      const lost = await night.run();
      const unmapped = {
        name: 'H70',
        status: 'unmapped',
        reason: `the service class H70 (${h70}) was removed`,
        was: { classId: h70, serviceClass: 'H70' },
      };
      expect(linkOf(lost, portal.key).classes).toContainEqual(expect.objectContaining(unmapped));
      const since = linkOf(lost, portal.key).classes.find((c) => c.name === 'H70')!;
      expect(since.status === 'unmapped' && Date.parse(since.since)).toBeGreaterThanOrEqual(removedAt - 1_000);
      expect(lost.changes).toContainEqual(
        expect.objectContaining({
          kind: 'class_unmapped',
          attention: true,
          message: `class H70 lost its link: the service class H70 (${h70}) was removed`,
        }),
      );
      expect(lost.attention).toBe(true);

      // Nights later, with nothing changed, it is still there, since the same time, and still needs a person.
      nextDay();
      const still = await night.run();
      expect(linkOf(still, portal.key).classes).toContainEqual(since);
      expect(still.changes).toContainEqual(expect.objectContaining({ kind: 'still_class_unmapped', attention: true }));
      expect(still.attention).toBe(true);

      // Renamed into something it does not map to: lost too.
      const d21 = classId(event, 'D21');
      sim.world.changeEvent(event.id, { renameClasses: [{ id: d21, name: 'Inskolning' }] });
      nextDay();
      const renamed = await night.run();
      expect(linkOf(renamed, portal.key).classes).toContainEqual(
        expect.objectContaining({
          name: 'D21',
          status: 'unmapped',
          reason: `the service class D21 (${d21}) was renamed Inskolning, which D21 does not map to`,
        }),
      );
      expect(kinds(renamed, portal.key)).toEqual(
        expect.arrayContaining(['service_classes_changed', 'class_unmapped', 'still_class_unmapped']),
      );

      // H70 comes back on the service: it maps again, as a change of mapping, and only D21 is left unmapped.
      sim.world.changeEvent(event.id, { addClasses: ['H70'] });
      nextDay();
      const back = await night.run();
      const newH70 = classId(sim.state.eventsById.get(event.id)!, 'H70');
      expect(linkOf(back, portal.key).classes.map((c) => [c.name, c.status])).toEqual([
        ['H21', 'linked'],
        ['H70', 'linked'],
        ['D21', 'unmapped'],
      ]);
      expect(back.changes).toContainEqual(
        expect.objectContaining({
          kind: 'class_mapping_changed',
          message: `class mapping changed: H70: unmapped -> H70 (${newH70})`,
        }),
      );
      expect(back.changes.filter((c) => c.kind === 'still_class_unmapped').map((c) => c.message)).toEqual([
        expect.stringMatching(/^class D21 unmapped since /),
      ]);

      // The portal drops D21: nothing is left for a person.
      portal = { ...portal, export: { ...portal.export, classes: [{ name: 'H21' }, { name: 'H70' }] } };
      nextDay();
      const dropped = await night.run();
      expect(linkOf(dropped, portal.key).classes.map((c) => [c.name, c.status])).toEqual([
        ['H21', 'linked'],
        ['H70', 'linked'],
      ]);
      expect(kinds(dropped, portal.key)).toEqual(['portal_changed']);
      expect(dropped.attention).toBe(false);
    } finally {
      night.close();
    }
  });
});

describe('sync: an event deleted on the service', () => {
  it('stays gone, with when and why, over nights until the portal event changes', async () => {
    const doomed = create(120);
    const kept = create(130);
    let portal = [portalEventOf(doomed), portalEventOf(kept)];
    const key = portal[0]!.key;
    const night = nightly(() => portal);
    try {
      expect(linkOf(await night.run(), key)).toMatchObject({ status: 'linked', eventId: doomed.id });
      sim.world.deleteEvent(doomed.id);
      nextDay();
      expect(linkOf(await night.run({ full: true }), key).status).toBe('linked');
      const goneAt = nextDay();
      const gone = await night.run({ full: true });
      const record = {
        status: 'gone',
        eventId: doomed.id,
        eventName: doomed.name,
        reason: `${doomed.name} (${doomed.id}) was deleted from the service: two full sweeps of the window missed it`,
      };
      expect(linkOf(gone, key)).toMatchObject(record);
      const since = linkOf(gone, key).since!;
      expect(Date.parse(since)).toBeGreaterThanOrEqual(goneAt - 1_000);
      expect(gone.changes).toContainEqual(expect.objectContaining({ key, kind: 'gone', attention: true }));

      // Incremental nights after it: still gone, with the same when and why, and still needing a person.
      for (let n = 0; n < 3; n++) {
        nextDay();
        const later = await night.run();
        expect(linkOf(later, key)).toMatchObject({ ...record, since });
        expect(later.changes.filter((c) => c.key === key)).toEqual([
          expect.objectContaining({ kind: 'still_gone', attention: true, detail: { was: doomed.id, since } }),
        ]);
        expect(linkOf(later, portal[1]!.key)).toMatchObject({ status: 'linked', eventId: kept.id });
      }
      // Told once in the state's history: the nights after only repeat it.
      const history = (logicalState(night.store.path).history as Array<{ key: string; change: string }>)
        .filter((h) => h.key === key)
        .map((h) => h.change);
      expect(history).toEqual(['portal_added', 'newly_linked', 'gone']);

      // The portal changes the event: it is looked for afresh, and no longer said to be gone.
      portal = [
        {
          ...portal[0]!,
          export: { ...portal[0]!.export, event: { ...portal[0]!.export.event, name: 'Omdöpt tävling' } },
        },
        portal[1]!,
      ];
      nextDay();
      const changed = await night.run();
      expect(linkOf(changed, key).status).toBe('not_found');
      expect(kinds(changed, key)).toEqual(['portal_changed', 'still_unmatched']);
    } finally {
      night.close();
    }
  });
});

describe('sync: deletions near today', () => {
  it('finds a linked event deleted near today by the next night, without --full: one page and one request by id', async () => {
    const near = create(2);
    const far = create(100);
    const portal = [portalEventOf(near), portalEventOf(far)];
    const night = nightly(() => portal);
    // The same nights with the near search off: the deletion stays unseen, as a modified-since search cannot show it.
    const blind = nightly(() => portal);
    try {
      await night.run();
      await blind.run({ nearDays: { back: 0, ahead: 0 } });
      sim.world.deleteEvent(near.id);
      nextDay();
      sim.stats.reset();
      const next = await night.run();
      // The changes since the cursor, the near window's one page, and GET /events/{id} answering 404.
      expect(next.requests).toBe(3);
      expect(sim.stats.snapshot().byEndpoint).toEqual({
        'GET /events': { '200': 2 },
        'GET /events/{eventId}': { '404': 1 },
      });
      expect(linkOf(next, portal[0]!.key)).toMatchObject({
        status: 'gone',
        eventId: near.id,
        reason: `${near.name} (${near.id}) was deleted from the service: a search of the days near today missed it, and GET /events/${near.id} answered 404`,
      });
      expect(next.changes).toContainEqual(
        expect.objectContaining({ key: portal[0]!.key, kind: 'gone', attention: true }),
      );
      expect(linkOf(next, portal[1]!.key)).toMatchObject({ status: 'linked', eventId: far.id });

      const unseen = await blind.run({ nearDays: { back: 0, ahead: 0 } });
      expect(unseen.requests).toBe(1);
      expect(linkOf(unseen, portal[0]!.key)).toMatchObject({ status: 'linked', eventId: near.id });

      // The night after: no linked event lies near today any more (the gone one is linked to nothing, the other is
      // far), so the near window is not searched: one request, and the event is still gone.
      nextDay();
      const after = await night.run();
      expect(after.requests).toBe(1);
      expect(kinds(after, portal[0]!.key)).toEqual(['still_gone']);
    } finally {
      night.close();
      blind.close();
    }
  });

  it('asks only for the near window when every linked event near today is listed there', async () => {
    const soon = create(5);
    // An event the portal does not have, created two hours later: the cursor moves past the overlap, so that the
    // changes no longer list the portal's event, and only the near window can tell that it still exists.
    sim.state.clock.advance(2 * HOUR_MS);
    create(6);
    const night = nightly(() => [portalEventOf(soon)]);
    try {
      await night.run();
      nextDay();
      sim.stats.reset();
      const quiet = await night.run();
      expect(quiet.requests).toBe(2);
      expect(sim.stats.snapshot().byEndpoint).toEqual({ 'GET /events': { '200': 2 } });
      expect(quiet.changes.filter((c) => !c.kind.startsWith('still_'))).toEqual([]);
      // --near-days 0,0 turns it off: one request.
      nextDay();
      expect((await night.run({ nearDays: { back: 0, ahead: 0 } })).requests).toBe(1);
    } finally {
      night.close();
    }
  });

  it('keeps the link when the request by id fails (503 after the retries), and finds the deletion the night after', async () => {
    const victim = create(3);
    const portal = [portalEventOf(victim)];
    const night = nightly(() => portal);
    try {
      await night.run();
      sim.world.deleteEvent(victim.id);
      nextDay();
      const faulted = await night.run({
        onProgress: (p) => {
          // Once the near window is listed, the service fails every request: the confirmation gets only 503s.
          if (p.detail.startsWith('near: page 1')) sim.faults.settings.rate = 1;
        },
      });
      expect(sim.stats.snapshot().faults['503']).toBeGreaterThan(0);
      expect(linkOf(faulted, portal[0]!.key)).toMatchObject({ status: 'linked', eventId: victim.id });
      expect(faulted.changes.filter((c) => c.kind === 'gone')).toEqual([]);

      sim.faults.settings.rate = 0;
      nextDay();
      const next = await night.run();
      expect(linkOf(next, portal[0]!.key)).toMatchObject({ status: 'gone', eventId: victim.id });
    } finally {
      night.close();
    }
  });
});

describe('sync: the class shape of states written before it', () => {
  it('reads links with emsName and className as the one shape, reports no change, and writes them back', async () => {
    const event = create(150);
    const portal = { events: [portalEventOf(event)], problems: [] };
    const client = clientFor(sim);
    clients.push(client);
    const path = states.path();
    let store = states.open(path);
    const first = await syncJob({ client, store, portal });
    store.close();
    // The state as an earlier version wrote it: classes as {emsName, classId, className, url, from, method}.
    const db = new Database(path);
    for (const row of db.prepare('SELECT key, json FROM links').all() as Array<{ key: string; json: string }>) {
      const link = JSON.parse(row.json) as { classes: Array<Record<string, unknown>> };
      link.classes = link.classes.map(({ name, status: _, serviceClass, ...rest }) => ({
        emsName: name,
        className: serviceClass,
        ...rest,
      }));
      db.prepare('UPDATE links SET json = ? WHERE key = ?').run(JSON.stringify(link), row.key);
    }
    db.close();

    nextDay();
    store = states.open(path);
    try {
      const result = await syncJob({ client, store, portal });
      expect(result.changes.filter((c) => !c.kind.startsWith('still_'))).toEqual([]);
      expect(result.links).toEqual(first.links);
    } finally {
      store.close();
    }
    const stored = (logicalState(path).links as Array<{ json: string }>).map((l) => JSON.parse(l.json) as LinkRecord);
    expect(stored.map((l) => l.classes)).toEqual(first.links.map((l) => l.classes));
  });
});
