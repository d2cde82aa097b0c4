/** `livelox-bridge version`: the same as `--version`, `-V` and `-v`, as a command (with `--json`). */
import { defineCommand } from '../../spec.js';

export const versionSpec = defineCommand({
  name: 'version',
  summary: 'Print the version of livelox-bridge (also --version, -V, -v).',
  usage: 'version',
  details: 'With --json: {"ok":true,"version":"<version>"}.',
  load: () => import('./run.js'),
});
