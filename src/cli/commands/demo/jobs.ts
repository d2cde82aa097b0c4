/** The runs of `demo sync|check-courses|import`: their options out of the record, into the job demos (src/cli/demos). */
import { checkCoursesDemo } from '../../demos/check-courses.js';
import { importDemo } from '../../demos/import.js';
import { syncDemo } from '../../demos/sync.js';
import { numberOption } from '../../command.js';
import type { CommandContext, Values } from '../../spec.js';
import type { demoJobOptions, demoSyncOptions } from './spec.js';

export function runSyncDemo(values: Values<typeof demoSyncOptions>, _args: string[], ctx: CommandContext) {
  const churn = numberOption(values, 'churn', 0, 1);
  return syncDemo({ keep: values.keep === true, ...(churn === undefined ? {} : { churn }) }, ctx);
}

export function runCheckCoursesDemo(values: Values<typeof demoJobOptions>, _args: string[], ctx: CommandContext) {
  return checkCoursesDemo({ keep: values.keep === true }, ctx);
}

export function runImportDemo(values: Values<typeof demoJobOptions>, _args: string[], ctx: CommandContext) {
  return importDemo({ keep: values.keep === true }, ctx);
}
