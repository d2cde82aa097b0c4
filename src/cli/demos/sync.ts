/**
 * `livelox-bridge demo sync`: the nightly job over three simulated nights. A portal folder shipped in
 * fixtures/demo/portal (an Eventor EventList, a MeOS start list, an OLA result list in English, the portal's own
 * calendar as EMS JSON) whose events are events of the simulator's default world; between nights the simulator's
 * clock moves a day and its churn changes the world as the service's changes, so the second and third nights report
 * what a real portal would see on a quiet night. Each night is `livelox-bridge sync` itself, with its state in a
 * temporary folder.
 */
import { join } from 'node:path';
import { EXIT, type CommandContext } from '../spec.js';
import { plural } from '../format.js';
import {
  finishDemo,
  fixture,
  introLines,
  runJob,
  withDemoSimulator,
  type DemoOptions,
  type DemoRun,
} from './harness.js';

export interface SyncDemoOptions extends DemoOptions {
  /** Share of the world's events that change per simulated day. Default 0.05. */
  churn?: number;
}

const NIGHTS = 3;
const DAY_MS = 86_400_000;
const DEFAULT_CHURN = 0.05;

export function syncDemo(options: SyncDemoOptions, ctx: CommandContext): Promise<number> {
  const churn = options.churn ?? DEFAULT_CHURN;
  return withDemoSimulator(ctx, { churn }, async (run) => {
    const portal = fixture('portal');
    const state = join(run.dir, 'portal.sqlite');
    if (!ctx.json) {
      const what =
        `Demo: sync keeps a portal's events linked to the service, night after night. The portal is ${portal}; ` +
        `its state goes to a temporary file. Between nights a simulated day passes, in which ${churn} of the ` +
        "service's events change (churn).";
      ctx.io.out(introLines(what, run).join('\n'));
    }
    const nights: Array<Record<string, unknown>> = [];
    let code: number = EXIT.ok;
    for (let night = 1; night <= NIGHTS; night++) {
      const day = night === 1 ? undefined : passDay(run);
      const clock = new Date(run.sim.state.clock.now()).toISOString();
      if (!ctx.json) {
        if (day) ctx.io.out(`\n${day.text}`);
        ctx.io.out(`\nNight ${night} (simulated ${clock.slice(0, 10)}):`);
      }
      const job = await runJob(run, ['sync', portal, '--state', state]);
      nights.push({ night, clock, ...(day ? { churn: day.counts } : {}), exitCode: job.code, report: job.document });
      if (!ctx.json) ctx.io.out(`(sync exited ${job.code}${meaning(job.code)})`);
      // The worst night's code: one that needs a person (1) over a quiet one, a failure (3, 4, 130) over both.
      code = Math.max(code, job.code);
      // A failed night (service, state, Ctrl-C) ends the demo: the next would say nothing new.
      if (job.code > EXIT.failure) break;
    }
    return finishDemo(run, options, { name: 'sync', code, document: { portal, churn, nights } });
  });
}

/** Moves the simulator's clock a day (churn happens as it moves) and says what changed in the world. */
function passDay(run: DemoRun): { text: string; counts: Record<string, number> } {
  const world = run.sim.world;
  const before = world.changes().at(-1)?.seq ?? 0;
  run.sim.state.clock.advance(DAY_MS);
  const counts = { changed: 0, created: 0, deleted: 0 };
  for (const c of world.changes()) if (c.seq > before && c.source === 'churn') counts[c.kind]++;
  const text =
    `A simulated day passes: ${plural(counts.changed, 'event')} changed on the service, ${counts.created} ` +
    `announced, ${counts.deleted} withdrawn.`;
  return { text, counts };
}

function meaning(code: number): string {
  switch (code) {
    case EXIT.ok:
      return ': nothing needs a person';
    case EXIT.failure:
      return ': lines marked ! need a person';
    default:
      return '';
  }
}
