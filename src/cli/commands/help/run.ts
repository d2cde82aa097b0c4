/** `livelox-bridge help [<command> [<subcommand>]]`: the main help, or a command's, from the specs alone. */
import { UsageError } from '../../command.js';
import { commandHelp, mainHelp } from '../../help.js';
import { printJson } from '../../json-output.js';
import { EXIT, type CommandContext, type CommandSpec } from '../../spec.js';
import { closest } from '../../suggest.js';
import { packageVersion } from '../../version.js';

export function run(_values: Record<string, never>, args: string[], ctx: CommandContext): Promise<number> {
  const text = args.length === 0 ? mainHelp(ctx.commands, packageVersion()) : commandHelp(topic(args, ctx.commands));
  if (ctx.json) printJson(ctx, true, { help: text });
  else ctx.io.out(text);
  return Promise.resolve(EXIT.ok);
}

/** The spec `help link` or `help sync status` names: each word a command, then a subcommand of the one before. */
function topic(words: readonly string[], commands: readonly CommandSpec[]): CommandSpec {
  let spec: CommandSpec | undefined;
  let list = commands;
  for (const word of words) {
    const found = list.find((c) => c.name === word);
    if (!found) {
      // `help enviroment` meant help's own subcommand: the first word may name one of those too.
      const own = spec ? [] : (commands.find((c) => c.name === 'help')?.subcommands ?? []);
      const guess = closest(
        word,
        [...list, ...own].map((c) => c.name),
      );
      const what = spec ? `'${spec.name}' has no subcommand` : 'no command is named';
      throw new UsageError(`${what} '${word}'.${guess ? ` Did you mean '${guess}'?` : ''}`);
    }
    spec = found;
    list = found.subcommands ?? [];
  }
  return spec!;
}
