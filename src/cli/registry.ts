/**
 * Every command of the CLI, in the order the main help lists them. Each is its spec (commands/<name>/spec.ts: data,
 * light to load); its run loads only when it runs, so `--version`, `--help`, a usage mistake and `completion` cost
 * about what starting Node costs (`npm run bench startup`). A new command: its folder with spec.ts and run.ts
 * (spec.ts explains both), and one line here.
 */
import { checkCoursesSpec } from './commands/check-courses/spec.js';
import { completionSpec } from './commands/completion/spec.js';
import { countriesSpec } from './commands/countries/spec.js';
import { coursesSpec } from './commands/courses/spec.js';
import { demoSpec } from './commands/demo/spec.js';
import { eventSpec } from './commands/event/spec.js';
import { eventsSpec } from './commands/events/spec.js';
import { helpSpec } from './commands/help/spec.js';
import { importSpec } from './commands/import/spec.js';
import { inspectSpec } from './commands/inspect/spec.js';
import { linkSpec } from './commands/link/spec.js';
import { loginSpec } from './commands/login/spec.js';
import { logoutSpec } from './commands/logout/spec.js';
import { publishSpec } from './commands/publish/spec.js';
import { schemaSpec } from './commands/schema/spec.js';
import { simulatorSpec } from './commands/simulator/spec.js';
import { statusSpec } from './commands/status/spec.js';
import { syncSpec } from './commands/sync/spec.js';
import { validateSpec } from './commands/validate/spec.js';
import { versionSpec } from './commands/version/spec.js';
import { whoamiSpec } from './commands/whoami/spec.js';
import type { CommandSpec } from './spec.js';

export const COMMANDS: readonly CommandSpec[] = [
  linkSpec,
  syncSpec,
  demoSpec,
  eventsSpec,
  eventSpec,
  countriesSpec,
  coursesSpec,
  checkCoursesSpec,
  publishSpec,
  importSpec,
  inspectSpec,
  validateSpec,
  schemaSpec,
  statusSpec,
  loginSpec,
  logoutSpec,
  whoamiSpec,
  simulatorSpec,
  completionSpec,
  helpSpec,
  versionSpec,
];
