/**
 * `livelox-bridge demo check-courses`: an organiser's course file compared with the courses the service holds. The
 * simulator serves the demo event (fixtures/demo/event.json) with its courses as they were uploaded; the organiser's
 * file (fixtures/demo/check-courses/CourseData.xml) changed after that in known ways (fixtures/demo/README.md), and
 * `livelox-bridge check-courses` says which. It exits 1, as check-courses does when the courses differ.
 */
import { finishDemo, demoEvent, fixture, introLines, runJob, withDemoSimulator, type DemoOptions } from './harness.js';
import type { CommandContext } from '../spec.js';
import { InputError } from '../../errors.js';
import { iofSchemaPath } from '../../iof/schema-path.js';
import { withHintValue } from '../schema-options.js';

export async function checkCoursesDemo(options: DemoOptions, ctx: CommandContext): Promise<number> {
  // check-courses stops at once without IOF.xsd: so does its demo, before a simulator starts, with the ways to get it.
  try {
    iofSchemaPath({ env: ctx.env });
  } catch (err) {
    throw err instanceof InputError && err.hint ? withHintValue(err, err.hint, 'no_option') : err;
  }
  const event = await demoEvent();
  return withDemoSimulator(ctx, { extra: [event] }, async (run) => {
    const courseFile = fixture('check-courses', 'CourseData.xml');
    if (!ctx.json) {
      const what =
        `Demo: check-courses compares an organiser's course file with the courses the service shows. The service ` +
        `holds ${event.name} (event ${event.id}) with its courses as uploaded a week before the race; the organiser's ` +
        `file ${courseFile} has changed since.`;
      ctx.io.out([...introLines(what, run), ''].join('\n'));
    }
    const job = await runJob(run, ['check-courses', courseFile, '--event-id', String(event.id)]);
    if (!ctx.json) ctx.io.out(`(check-courses exited ${job.code}${job.code === 1 ? ': the courses differ' : ''})`);
    return finishDemo(run, options, {
      name: 'check-courses',
      code: job.code,
      document: { eventId: event.id, courseFile, report: job.document },
    });
  });
}
