/**
 * A simulated season: 30 nights, the simulator's clock advanced a day at a time with churn on (classes added, renamed
 * and removed, dates moved, events published, new events, deletions). After each night, sync's links equal a fresh
 * run's over the same portal events (but for what only a history knows: events gone, classes left unmapped), every
 * change it reports is true of the service, and every change of a linked event that a portal shows is reported.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/core/hash.js';
import type { PortalEvent } from '../../src/ems/portal.js';
import { syncJob, type SyncResult } from '../../src/jobs/sync/sync.js';
import type { SimEvent } from '../../src/simulator/model.js';
import type { Simulator } from '../../src/simulator/server.js';
import type { LinkRecord, UnmappedClassRecord } from '../../src/store/sync-state.js';
import { clientFor } from '../helpers/simulator.js';
import { portalEventOf, TempStates } from '../helpers/sync.js';
import { startSimulator } from '../../src/simulator/server.js';

const DAY_MS = 86_400_000;
const NIGHTS = 30;

let sim: Simulator;
const states = new TempStates();

beforeAll(async () => {
  sim = await startSimulator({ port: 0, seed: 11, events: 240, churn: 0.08 });
});
afterAll(async () => {
  await sim.close();
  states.cleanup();
});

/** What the service holds of an event now (the simulator's own record: the ground truth). */
function truth(id: number): SimEvent | undefined {
  return sim.state.eventsById.get(id);
}

/**
 * The links as the state holds them, reasons and candidates included: a fresh run must agree on every field, except
 * the classes left `unmapped`, which only a history can know (a fresh run has no class to say was linked).
 */
function comparable(links: readonly LinkRecord[]): string {
  return canonicalJson(links.map((l) => ({ ...l, classes: l.classes.filter((c) => c.status === 'linked') })));
}

/** Checks that every change of a night is true of the service after that night. */
function checkChangesAreTrue(result: SyncResult): void {
  const linkOf = new Map(result.links.map((l) => [l.key, l]));
  for (const c of result.changes) {
    const link = linkOf.get(c.key);
    switch (c.kind) {
      case 'newly_linked':
      case 'link_changed': {
        expect(link?.status, c.message).toBe('linked');
        const event = truth(link!.eventId!);
        expect(event, `${c.key}: ${c.message}`).toBeDefined();
        expect(event!.name).toBe(link!.eventName);
        break;
      }
      case 'date_moved': {
        const event = truth(link!.eventId!);
        expect(Date.parse(link!.eventStart!)).toBe(event!.startMs);
        expect(Date.parse(String(c.detail?.to))).toBe(event!.startMs);
        break;
      }
      case 'published':
      case 'unpublished':
        expect(truth(link!.eventId!)!.isPublished).toBe(c.kind === 'published');
        break;
      case 'map_and_courses_valid':
      case 'map_and_courses_invalid':
        expect(truth(link!.eventId!)!.hasValidMapAndCourses).toBe(c.kind === 'map_and_courses_valid');
        break;
      case 'service_classes_changed': {
        const classes = new Map(truth(link!.eventId!)!.classes.map((k) => [k.id, k.name]));
        const detail = c.detail as {
          added: Array<{ id: number; name: string }>;
          removed: Array<{ id: number }>;
          renamed: Array<{ id: number; to: string }>;
        };
        for (const a of detail.added) expect(classes.get(a.id), c.message).toBe(a.name);
        for (const r of detail.removed) expect(classes.has(r.id), c.message).toBe(false);
        for (const r of detail.renamed) expect(classes.get(r.id), c.message).toBe(r.to);
        break;
      }
      case 'gone':
      case 'still_gone':
        expect(truth(Number(c.detail!.was)), c.message).toBeUndefined();
        expect(link).toMatchObject({ status: 'gone', eventId: c.detail!.was });
        break;
      case 'class_unmapped':
      case 'still_class_unmapped': {
        const event = truth(link!.eventId!)!;
        for (const lost of (c.detail as { classes: UnmappedClassRecord[] }).classes) {
          expect(link!.classes.filter((k) => k.name === lost.name).map((k) => k.status)).toEqual(['unmapped']);
          const now = event.classes.find((k) => k.id === lost.was.classId);
          if (lost.reason.endsWith('was removed')) expect(now, c.message).toBeUndefined();
          if (lost.reason.includes('was renamed')) expect(now?.name, c.message).not.toBe(lost.was.serviceClass);
        }
        break;
      }
      default:
        break;
    }
  }
}

interface Seen {
  startMs: number;
  isPublished: boolean;
  valid: boolean;
  classes: string;
}

function seenOf(e: SimEvent): Seen {
  return {
    startMs: e.startMs,
    isPublished: e.isPublished,
    valid: e.hasValidMapAndCourses,
    classes: canonicalJson(e.classes.map((c) => [c.id, c.name]).sort()),
  };
}

describe('sync over a 30-night season with churn', () => {
  it('keeps every link equal to a fresh run, reports only true changes and misses none', async () => {
    const client = clientFor(sim);
    const fresh = clientFor(sim);
    const check = clientFor(sim);
    try {
      // The portal: 120 of the service's events, two the service does not have, and one whose id the portal stores.
      const events = [...sim.state.eventsById.values()].sort((a, b) => a.id - b.id);
      const portal: PortalEvent[] = events.filter((_, i) => i % 2 === 0).map((e) => portalEventOf(e));
      portal.push({
        ...portalEventOf({ ...events[1]!, name: 'Nowhere Night Cup', countryCode: 'ISL', classes: [] }),
        key: 'portal:nowhere',
      });
      portal.push({ ...portalEventOf(events[3]!, 'portal:stored'), serviceEventId: events[3]!.id });
      const store = states.open();
      const sweepTimes: number[] = [];
      const reported = new Map<string, number>();
      let before = new Map<string, { eventId: number; seen: Seen }>();
      const left = portal[5]!;
      for (let night = 1; night <= NIGHTS; night++) {
        sim.state.clock.advance(DAY_MS);
        // Portal churn too: one event leaves the portal on night 10 and comes back renamed on night 20.
        const tonight = night < 10 ? [...portal] : portal.filter((p) => p.key !== left.key);
        if (night >= 20) {
          const event = { ...left.export.event, name: `${left.export.event.name} (new name)` };
          tonight.push({ ...left, export: { ...left.export, event } });
        }
        const full = night % 7 === 0;
        if (full) sweepTimes.push(sim.state.clock.now());
        const result = await syncJob({ client, store, portal: { events: tonight, problems: [] }, full });
        for (const c of result.changes) reported.set(c.kind, (reported.get(c.kind) ?? 0) + 1);
        const freshStore = states.open();
        const reference = await syncJob({
          client: fresh,
          store: freshStore,
          portal: { events: tonight, problems: [] },
        });
        freshStore.close();

        // Zero drift, except where the service deleted an event that two full sweeps have not missed yet: a
        // modified-since search cannot show a deletion (the contract has no tombstones), so until then the state
        // still links it; and it must really have been deleted.
        const deleted = new Set(
          sim.world
            .changes()
            .filter((c) => c.kind === 'deleted')
            .map((c) => c.eventId),
        );
        const stale = new Set(
          result.links.filter((l) => l.eventId !== undefined && truth(l.eventId) === undefined).map((l) => l.key),
        );
        for (const key of stale) {
          const link = result.links.find((l) => l.key === key)!;
          expect(deleted.has(link.eventId!), `${key} links ${link.eventId}, which the service never deleted`).toBe(
            true,
          );
        }
        // The links themselves (event, classes, urls, status) agree exactly. Reasons and candidate lists may differ only
        // where the state's mirror still holds an event the service deleted (a candidate the fresh run cannot see).
        const ours = result.links.filter((l) => !stale.has(l.key));
        const theirs = reference.links.filter((l) => !stale.has(l.key));
        const linkOnly = (l: LinkRecord) => comparable([{ ...l, reason: '', candidates: [] }]);
        expect(ours.map((l) => l.key)).toEqual(theirs.map((l) => l.key));
        const differing = ours.filter((l, i) => linkOnly(l) !== linkOnly(theirs[i]!)).map((l) => l.key);
        expect({ night, differing }).toEqual({ night, differing: [] });
        const mirrorHoldsDeleted = [...store.load().mirror.keys()].some((id) => truth(id) === undefined);
        const explained = ours.filter((l, i) => comparable([l]) !== comparable([theirs[i]!]));
        if (!mirrorHoldsDeleted) expect(explained.map((l) => l.key)).toEqual([]);
        checkChangesAreTrue(result);

        // No change missed: every linked event whose date, publishing, validity or classes changed since last night
        // has the matching change in tonight's report.
        const kindsOf = (key: string) => new Set(result.changes.filter((c) => c.key === key).map((c) => c.kind));
        for (const [key, was] of before) {
          const link = result.links.find((l) => l.key === key);
          const event = truth(was.eventId);
          if (!link || link.status !== 'linked' || link.eventId !== was.eventId || !event) continue;
          const now = seenOf(event);
          const kinds = kindsOf(key);
          if (now.startMs !== was.seen.startMs) expect(kinds.has('date_moved'), `${key} date`).toBe(true);
          if (now.isPublished !== was.seen.isPublished) {
            expect(kinds.has(now.isPublished ? 'published' : 'unpublished'), `${key} published`).toBe(true);
          }
          if (now.valid !== was.seen.valid) {
            expect(kinds.has(now.valid ? 'map_and_courses_valid' : 'map_and_courses_invalid'), key).toBe(true);
          }
          if (now.classes !== was.seen.classes) {
            expect(kinds.has('service_classes_changed') || kinds.has('class_mapping_changed'), `${key} classes`).toBe(
              true,
            );
          }
        }
        before = new Map(
          result.links
            .filter((l) => l.status === 'linked' && truth(l.eventId!))
            .map((l) => [l.key, { eventId: l.eventId!, seen: seenOf(truth(l.eventId!)!) }]),
        );
        // A night without a sweep asks only for what changed (and, at most, for an id the portal stores), and for the
        // days near today, and by id for each linked event deleted there.
        const confirmed = result.changes.filter((c) => c.kind === 'gone' && c.message.includes('near today')).length;
        if (night > 1 && !full) expect(result.requests).toBeLessThanOrEqual(4 + confirmed);
      }
      // Deletions older than the last two sweeps are gone from every link.
      const confirmedBy = sweepTimes.at(-2)!;
      const oldDeletions = sim.world
        .changes()
        .filter((c) => c.kind === 'deleted' && Date.parse(c.at) < confirmedBy)
        .map((c) => c.eventId);
      const finalLinks = store.load().links;
      for (const id of oldDeletions) {
        expect([...finalLinks.values()].some((l) => l.status === 'linked' && l.eventId === id)).toBe(false);
      }
      // The season exercised what it claims to: every kind of change below was reported at least once.
      for (const kind of [
        'newly_linked',
        'service_classes_changed',
        'class_mapping_changed',
        'class_unmapped',
        'still_class_unmapped',
        'published',
        'date_moved',
        'gone',
        'still_gone',
        'portal_removed',
        'still_unmatched',
      ]) {
        expect(reported.get(kind) ?? 0, kind).toBeGreaterThan(0);
      }
      // The season had churn worth the name.
      const kinds = new Set(sim.world.changes().map((c) => c.kind));
      expect(kinds).toContain('changed');
      store.close();
    } finally {
      await client.close();
      await fresh.close();
      await check.close();
    }
  }, 120_000);
});
