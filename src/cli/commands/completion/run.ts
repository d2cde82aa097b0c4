/** `livelox-bridge completion bash|zsh|fish`: prints the script for the shell, generated from the specs. */
import { UsageError } from '../../command.js';
import { printJson } from '../../json-output.js';
import { EXIT, type CommandContext } from '../../spec.js';
import { packageVersion } from '../../version.js';
import { bashScript } from './bash.js';
import { fishScript } from './fish.js';
import { completionNodes, type CompletionNode } from './model.js';
import type { SHELLS } from './spec.js';
import { zshScript } from './zsh.js';

const SCRIPTS: Readonly<
  Record<(typeof SHELLS)[number], (nodes: readonly CompletionNode[], version: string) => string>
> = { bash: bashScript, zsh: zshScript, fish: fishScript };

export function run(_values: Record<string, never>, args: string[], ctx: CommandContext): Promise<number> {
  // Each argument is one of SHELLS: the parser checked.
  const shell = args[0] as (typeof SHELLS)[number] | undefined;
  if (shell === undefined) throw new UsageError('needs the shell: bash, zsh or fish');
  if (args.length > 1) throw new UsageError(`takes one shell, got ${args.length}`);
  const script = SCRIPTS[shell](completionNodes(ctx.commands), packageVersion());
  if (ctx.json) printJson(ctx, true, { shell, script });
  else ctx.io.out(script.replace(/\n$/, ''));
  return Promise.resolve(EXIT.ok);
}
