/**
 * The job demos, `livelox-bridge demo <job>`: each runs one job end to end on an embedded simulator, with fixtures
 * shipped in fixtures/demo. Bare `demo` (the simulator's tour) stays in commands/demo.ts.
 */
import { UsageError, type CommandContext } from '../command.js';
import { closest } from '../suggest.js';
import type { DemoOptions } from './harness.js';

const JOB_DEMOS = ['sync', 'check-courses', 'import'] as const;

export interface JobDemoRequest extends DemoOptions {
  /** `sync`, `check-courses` or `import` (anything else is refused with the closest of them). */
  job: string;
  /** `demo sync`: share of events that change per simulated day. */
  churn: number | undefined;
}

export async function runJobDemo(request: JobDemoRequest, ctx: CommandContext): Promise<number> {
  const { job, keep, churn } = request;
  if (!(JOB_DEMOS as readonly string[]).includes(job)) {
    const guess = closest(job, JOB_DEMOS);
    throw new UsageError(
      `no demo of '${job}'.${guess ? ` Did you mean '${guess}'?` : ''} Demos of jobs: ${JOB_DEMOS.join(', ')}.`,
    );
  }
  if (churn !== undefined && job !== 'sync') throw new UsageError('--churn is for demo sync');
  switch (job) {
    case 'sync':
      return (await import('./sync.js')).syncDemo({ keep, ...(churn === undefined ? {} : { churn }) }, ctx);
    case 'check-courses':
      return (await import('./check-courses.js')).checkCoursesDemo({ keep }, ctx);
    default:
      return (await import('./import.js')).importDemo({ keep }, ctx);
  }
}
