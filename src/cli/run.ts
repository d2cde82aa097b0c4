/** Parses the command line, dispatches to a command and turns every outcome into an exit code (0, 1 or 2). */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { LiveloxError } from '../errors.js';
import { EXIT, UsageError, type Command, type CommandContext, type Output } from './command.js';
import { checkCoursesCommand } from './commands/check-courses.js';
import { coursesCommand } from './commands/courses.js';
import { countriesCommand } from './commands/countries.js';
import { demoCommand } from './commands/demo.js';
import { eventCommand } from './commands/event.js';
import { eventsCommand } from './commands/events.js';
import { importCommand } from './commands/import.js';
import { inspectCommand } from './commands/inspect.js';
import { linkCommand } from './commands/link.js';
import { loginCommand } from './commands/login.js';
import { logoutCommand } from './commands/logout.js';
import { simulatorCommand } from './commands/simulator.js';
import { statusCommand } from './commands/status.js';
import { syncCommand } from './commands/sync.js';
import { validateCommand } from './commands/validate.js';
import { whoamiCommand } from './commands/whoami.js';
import { commandHelp, mainHelp } from './help.js';
import { errorJson, errorText } from './hints.js';

export const COMMANDS: readonly Command[] = [
  linkCommand,
  syncCommand,
  demoCommand,
  eventsCommand,
  eventCommand,
  countriesCommand,
  coursesCommand,
  checkCoursesCommand,
  importCommand,
  inspectCommand,
  validateCommand,
  statusCommand,
  loginCommand,
  logoutCommand,
  whoamiCommand,
  simulatorCommand,
];

function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

export interface RunEnvironment {
  io: Output;
  env: Readonly<Record<string, string | undefined>>;
  signal: AbortSignal;
}

export async function runCli(argv: readonly string[], environment: RunEnvironment): Promise<number> {
  const { io } = environment;
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    const target = name === 'help' ? COMMANDS.find((c) => c.name === rest[0]) : undefined;
    io.out(target ? commandHelp(target) : mainHelp(COMMANDS, packageVersion()));
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  if (name === '--version' || name === '-V') {
    io.out(packageVersion());
    return EXIT.ok;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    io.err(
      `livelox-bridge: unknown command '${name}'. Commands: ${COMMANDS.map((c) => c.name).join(', ')}. See livelox-bridge --help.`,
    );
    return EXIT.usage;
  }
  const json = rest.includes('--json');
  try {
    const { values, positionals } = parseArgs({
      args: rest,
      options: { ...command.options, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
      allowPositionals: command.allowPositionals ?? false,
      strict: true,
    });
    if (values.help) {
      io.out(commandHelp(command));
      return EXIT.ok;
    }
    const ctx: CommandContext = { json, io, env: environment.env, signal: environment.signal };
    return await command.run(values, positionals, ctx);
  } catch (err) {
    return reportError(err, command, json, io);
  }
}

function reportError(err: unknown, command: Command, json: boolean, io: Output): number {
  const usage = err instanceof UsageError || isParseArgsError(err);
  const code = usage ? EXIT.usage : EXIT.failure;
  if (json) {
    const body =
      err instanceof LiveloxError
        ? errorJson(err)
        : {
            name: usage ? 'UsageError' : 'Error',
            code: usage ? 'usage' : 'failure',
            message: errorText(err),
          };
    io.out(JSON.stringify({ ok: false, error: body }));
  } else {
    io.err(`livelox-bridge ${command.name}: ${errorText(err)}`);
    if (usage) io.err(`See livelox-bridge ${command.name} --help.`);
  }
  return code;
}

function isParseArgsError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS');
}
