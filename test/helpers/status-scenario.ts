/**
 * One portal's two nights for the status page tests (CLI and browser): on the first night every kind of portal event
 * is there (linked, ambiguous between two twins, matched by nothing); during the day the service removes a class of
 * one linked event and deletes another near today; the second night's run writes the status page. The simulator's
 * clock is frozen, so the two runs see the times the test sets.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PortalEvent } from '../../src/ems/portal.js';
import type { SimEvent } from '../../src/simulator/model.js';
import type { Simulator } from '../../src/simulator/server.js';
import { runBin, type CliRun } from './cli.js';
import { createEventAhead, freezeClock, portalDocument, serviceArgs } from './sync-cli.js';
import { portalEventOf } from './sync.js';

const DAY_MS = 86_400_000;

export interface SyncScenario {
  dir: string;
  state: string;
  portal: string;
  /** The page the second night wrote. */
  page: string;
  lossy: SimEvent;
  doomed: SimEvent;
  steady: SimEvent;
  twins: [SimEvent, SimEvent];
  /** The portal keys of the ambiguous and the unmatched event. */
  twinKey: string;
  nowhereKey: string;
  first: CliRun;
  second: CliRun;
  /** `sync <portal> --state <state> <service options> ...args`. */
  sync(...args: string[]): Promise<CliRun>;
}

/**
 * The two nights; `more` portal events (service events of the simulator, linked on the first night) join the five of
 * the scenario. Both nights sweep the whole window (`--full`) when there are more: churn deletes events anywhere.
 */
export async function syncScenario(
  sim: Simulator,
  dir: string,
  env: Record<string, string>,
  more: readonly SimEvent[] = [],
): Promise<SyncScenario> {
  freezeClock(sim);
  mkdirSync(dir, { recursive: true });
  const create = (name: string, club: string, daysAhead: number, classes: string[]): SimEvent =>
    createEventAhead(sim, name, club, daysAhead, classes);
  const lossy = create('Bergslagsträffen', 'OK Bergslagen', 60, ['H21', 'D21', 'H70']);
  const doomed = create('Norrtälje nattcup', 'Norrtälje OK', 2, ['H21', 'D21']);
  const steady = create('Vänerrundan & <Co>', 'Vänersborgs SK', 75, ['H21']);
  const twins: [SimEvent, SimEvent] = [
    create('Dubbelcupen', 'OK Tvilling', 90, ['H21', 'D21', 'H35']),
    create('Dubbelcupen', 'OK Tvilling', 90, ['H21', 'D21', 'H35']),
  ];
  const twinKey = 'portal:twin';
  const nowhereKey = 'portal:nowhere night';
  const nowhere: PortalEvent = portalEventOf(
    { ...steady, name: 'Nowhere Night Cup', organisers: [], countryCode: 'ISL' },
    nowhereKey,
  );
  const portalEvents = [
    portalEventOf(lossy),
    portalEventOf(doomed),
    portalEventOf(steady),
    portalEventOf(twins[0], twinKey),
    nowhere,
    ...more.map((e) => portalEventOf(e)),
  ];
  const state = join(dir, 'state.sqlite');
  const portal = join(dir, 'portal.json');
  const page = join(dir, 'status.html');
  writeFileSync(portal, portalDocument(portalEvents));
  const sync = (...args: string[]) => runBin(['sync', portal, '--state', state, ...serviceArgs(sim), ...args], env);
  const sweep = more.length > 0 ? ['--full'] : [];
  const first = await sync('--status-html', page, ...sweep);
  sim.world.changeEvent(lossy.id, { removeClasses: [lossy.classes.find((c) => c.name === 'H70')!.id] });
  sim.world.deleteEvent(doomed.id);
  sim.state.clock.advance(DAY_MS);
  const second = await sync('--status-html', page, ...sweep);
  return { dir, state, portal, page, lossy, doomed, steady, twins, twinKey, nowhereKey, first, second, sync };
}
