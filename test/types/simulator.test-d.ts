/** `livelox-bridge/simulator` as an integrator's tests use it (the README's example), through the published declarations. */
import { describe, expectTypeOf, it } from 'vitest';
import { apiKey, LiveloxClient } from 'livelox-bridge';
import { loadDatasetFile, startSimulator } from 'livelox-bridge/simulator';
import type {
  FaultScriptProgress,
  FaultScriptStep,
  ServedRoute,
  SimDataset,
  SimEvent,
  SimJournalEntry,
  Simulator,
  SimulatorInfo,
} from 'livelox-bridge/simulator';

describe('livelox-bridge/simulator', () => {
  it('starts on a free port and hands out the addresses and key a client needs', async () => {
    const sim = await startSimulator({ port: 0, seed: 1, events: 300, importDelayMs: 100 });
    expectTypeOf(sim).toEqualTypeOf<Simulator>();
    expectTypeOf(sim.info).toEqualTypeOf<SimulatorInfo>();
    const client = new LiveloxClient({
      auth: apiKey(sim.info.apiKey),
      baseUrl: sim.info.baseUrl,
      authUrl: sim.info.authUrl,
      viewerUrl: sim.info.viewerUrl,
    });
    expectTypeOf(sim.state.clock.advance(24 * 3600_000)).toBeNumber();
    const event = sim.world.createEvent({
      name: 'Nattcupen 1',
      start: '2026-12-03T18:00:00Z',
      end: '2026-12-03T21:00:00Z',
      countryCode: 'SWE',
      organisers: ['OK Linné'],
      classes: ['H21', 'D21'],
    });
    expectTypeOf(event).toEqualTypeOf<SimEvent>();
    expectTypeOf(sim.openApi()).toEqualTypeOf<Record<string, unknown>>();
    expectTypeOf(sim.servedRoutes()).toEqualTypeOf<ServedRoute[]>();
    expectTypeOf<ServedRoute['server']>().toEqualTypeOf<'api' | 'auth'>();
    const entries = sim.journal.entries({ since: 0, pathPrefix: '/api/events', status: { class: 4 } });
    expectTypeOf(entries).toEqualTypeOf<SimJournalEntry[]>();
    expectTypeOf(entries[0]!.auth.kind).toEqualTypeOf<'apiKey' | 'bearer' | 'none'>();
    expectTypeOf(entries[0]!.status).toEqualTypeOf<number | 'reset' | 'stall' | 'aborted'>();
    expectTypeOf(sim.journal.entries({ status: 'reset' })).toEqualTypeOf<SimJournalEntry[]>();
    // @ts-expect-error: a status without an answer is reset, stall or aborted
    sim.journal.entries({ status: 'timeout' });
    sim.journal.clear();
    sim.world.changeEvent(event.id, { isPublished: true, addClasses: ['Öppen 1'] });
    await client.close();
    await sim.close();
    // @ts-expect-error: a port is a number
    await startSimulator({ port: '4380' });
    // @ts-expect-error: a simulator's addresses are fixed once it listens
    sim.info = { ...sim.info };
  });

  it('takes a fault script and shows its progress', async () => {
    const sim = await startSimulator({ port: 0, events: 5 });
    const steps: FaultScriptStep[] = [
      { method: 'POST', path: '/api/importableRoutes', outcome: { kind: 'status', status: 503 }, count: 2 },
      { outcome: { kind: 'cut', bytes: 10 }, durationMs: 5000 },
    ];
    sim.faults.setScript(steps);
    expectTypeOf(sim.faults.scriptProgress()).toEqualTypeOf<FaultScriptProgress | null>();
    // @ts-expect-error: an outcome is one of the kinds
    sim.faults.setScript([{ outcome: { kind: 'teapot' }, count: 1 }]);
    await sim.close();
  });

  it('serves a dataset file', async () => {
    const dataset = await loadDatasetFile('fixtures/datasets/example.json');
    expectTypeOf(dataset).toEqualTypeOf<SimDataset>();
    expectTypeOf(await startSimulator({ port: 0, dataset })).toEqualTypeOf<Simulator>();
  });
});
