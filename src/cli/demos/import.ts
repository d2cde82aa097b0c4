/**
 * `livelox-bridge demo import`: a folder of GPS routes (fixtures/demo/routes: GPX, TCX and FIT, written by
 * scripts/demo-routes.mjs) recorded by runners of the demo event, imported with `livelox-bridge import --wait`: its
 * progress, then each route's event, class and viewer link as the simulator matched them.
 */
import { join } from 'node:path';
import { stderr } from 'node:process';
import type { CommandContext } from '../spec.js';
import { finishDemo, demoEvent, fixture, introLines, runJob, withDemoSimulator, type DemoOptions } from './harness.js';

/** The simulator imports a route in a second (the service takes 5-15 s), and import is told so for its polling. */
const IMPORT_DELAY_MS = 1000;

export async function importDemo(options: DemoOptions, ctx: CommandContext): Promise<number> {
  const event = await demoEvent();
  return withDemoSimulator(ctx, { extra: [event], importDelayMs: IMPORT_DELAY_MS }, async (run) => {
    const routes = fixture('routes');
    if (!ctx.json) {
      const what =
        `Demo: import sends a folder of GPS routes to the service, each exactly once, and waits for each import. The ` +
        `routes in ${routes} were run at ${event.name} (event ${event.id}); the service matches each to the event ` +
        'and to the class whose course it ran. The import journal goes to a temporary file.';
      ctx.io.out([...introLines(what, run), ''].join('\n'));
    }
    const args = ['import', routes, '--journal', join(run.dir, 'imports.sqlite'), '--wait', '--import-time', '1s-2s'];
    // On a terminal import draws its own progress bar; in a pipe or a log a line per route posted and settled.
    if (!ctx.json && stderr.isTTY !== true) args.push('--progress-lines');
    const job = await runJob(run, args);
    if (!ctx.json) ctx.io.out(`(import exited ${job.code}${job.code === 0 ? ': every route imported' : ''})`);
    return finishDemo(run, options, {
      name: 'import',
      code: job.code,
      document: { folder: routes, report: job.document },
    });
  });
}
