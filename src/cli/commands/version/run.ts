/** `livelox-bridge version`: the package's version, as `--version` prints it. */
import { printJson } from '../../json-output.js';
import { EXIT, type CommandContext } from '../../spec.js';
import { packageVersion } from '../../version.js';

export function run(_values: Record<string, never>, _args: string[], ctx: CommandContext): Promise<number> {
  if (ctx.json) printJson(ctx, true, { version: packageVersion() });
  else ctx.io.out(packageVersion());
  return Promise.resolve(EXIT.ok);
}
