/**
 * `livelox-bridge demo` (the simulator's tour) and `demo sync|check-courses|import` (one job end to end on an embedded
 * simulator, with the files in fixtures/demo): options and help, read without loading the simulator.
 */
import { defineCommand, defineOptions } from '../../spec.js';

export const demoOptions = defineOptions({
  seed: { type: 'string', valueName: 'N', description: 'dataset seed (default 1)' },
  events: { type: 'string', valueName: 'N', description: 'number of generated events (default 300)' },
});

const KEEP = {
  keep: {
    type: 'boolean',
    description: 'leave the simulator serving after the job, until Ctrl-C (exit 0 then), to follow its links',
  },
} as const;

export const demoJobOptions = defineOptions({ ...KEEP });

export const demoSyncOptions = defineOptions({
  ...KEEP,
  churn: {
    type: 'string',
    valueName: 'R',
    description: 'share of events that change per simulated day between nights, 0..1 (default 0.05)',
  },
});

const JOB_DETAILS =
  "It prints the job's own report and exits with the job's code; the simulator stops with the command unless --keep.";

export const demoSyncSpec = defineCommand({
  name: 'sync',
  summary: 'A portal folder (fixtures/demo/portal) synced over three simulated nights, the world changing in between.',
  usage: 'demo sync [--churn R] [--keep]',
  options: demoSyncOptions,
  details: `${JOB_DETAILS} Exit 1 here: the portal holds a club training the service lacks, a line for a person.`,
  load: () => import('./jobs.js').then((m) => ({ run: m.runSyncDemo })),
});

export const demoCheckCoursesSpec = defineCommand({
  name: 'check-courses',
  summary: 'An organiser course file with known differences compared with the service event.',
  usage: 'demo check-courses [--keep]',
  options: demoJobOptions,
  details: `${JOB_DETAILS} Exit 1 here: the course file differs from the service's courses on purpose.`,
  load: () => import('./jobs.js').then((m) => ({ run: m.runCheckCoursesDemo })),
});

export const demoImportSpec = defineCommand({
  name: 'import',
  summary: 'A folder of GPX, TCX and FIT routes imported, each matched to its class.',
  usage: 'demo import [--keep]',
  options: demoJobOptions,
  details: JOB_DETAILS,
  load: () => import('./jobs.js').then((m) => ({ run: m.runImportDemo })),
});

export const demoSpec = defineCommand({
  name: 'demo',
  summary: 'Start the embedded simulator and show what it serves, or try one job end to end on it (demo sync, ...).',
  usage: ['demo [--seed N] [--events N]', 'demo sync|check-courses|import [--keep]'],
  options: demoOptions,
  subcommands: [demoSyncSpec, demoCheckCoursesSpec, demoImportSpec],
  load: () => import('./run.js'),
});
