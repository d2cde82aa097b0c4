/**
 * Parses the command line, loads and runs one command and turns every outcome into an exit code: 0 success, 1 failure,
 * 2 usage mistake (with a "did you mean" when a word is close to a known one), 130 interrupted by Ctrl-C.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { EXIT, UsageError, type Command, type CommandContext, type Output } from './command.js';
import { commandHelp, mainHelp } from './help.js';
import { errorJson, errorText } from './hints.js';
import { printJson } from './json-output.js';
import { COMMANDS } from './registry.js';
import { closest } from './suggest.js';

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
    return help(name, rest[0], io);
  }
  if (name === '--version' || name === '-V') {
    io.out(packageVersion());
    return EXIT.ok;
  }
  const json = rest.includes('--json');
  const entry = COMMANDS.find((c) => c.name === name);
  if (!entry) {
    const guess = closest(
      name,
      COMMANDS.map((c) => c.name),
    );
    const message = `unknown command '${name}'.${guess ? ` Did you mean '${guess}'?` : ` Commands: ${COMMANDS.map((c) => c.name).join(', ')}.`}`;
    return reportUsage(message, 'livelox-bridge --help', json, io);
  }
  let command: Command | undefined;
  try {
    command = await entry.load();
    const { values, positionals } = parseArgs({
      args: rest,
      options: { ...command.options, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
      allowPositionals: command.allowPositionals ?? false,
      strict: true,
    });
    if (values.help) {
      io.out(commandHelp(command, entry.summary));
      return EXIT.ok;
    }
    const ctx: CommandContext = { json, io, env: environment.env, signal: environment.signal };
    const code = await command.run(values, positionals, ctx);
    // A command that reported its own failure after Ctrl-C (sync, say) still ended because it was interrupted.
    if (environment.signal.aborted && code === EXIT.failure) {
      if (!json) io.err(`livelox-bridge ${command.name}: interrupted`);
      return EXIT.interrupted;
    }
    return code;
  } catch (err) {
    const name = command?.name ?? entry.name;
    if (environment.signal.aborted) return reportInterrupted(err, environment.signal, name, json, io);
    if (command && (err instanceof UsageError || isParseArgsError(err))) {
      return reportUsage(`${name}: ${usageText(err as Error, command)}`, `livelox-bridge ${name} --help`, json, io);
    }
    return reportFailure(err, name, json, io);
  }
}

function help(name: string | undefined, topic: string | undefined, io: Output): Promise<number> | number {
  const entry = name === 'help' ? COMMANDS.find((c) => c.name === topic) : undefined;
  if (!entry) {
    io.out(mainHelp(COMMANDS, packageVersion()));
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  return entry.load().then((command) => {
    io.out(commandHelp(command, entry.summary));
    return EXIT.ok;
  });
}

/** parseArgs' own words, with the option named the way --help shows it and the closest known option suggested. */
function usageText(err: Error, command: Command): string {
  if ((err as { code?: unknown }).code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return err.message;
  const typed = /'(-{1,2}[^'=]+)/.exec(err.message)?.[1] ?? err.message;
  const known = [...Object.keys(command.options), 'json', 'help'];
  const guess = closest(typed.replace(/^-+/, ''), known);
  return `unknown option '${typed}'.${guess ? ` Did you mean --${guess}?` : ''}`;
}

function reportUsage(message: string, helpCommand: string, json: boolean, io: Output): number {
  if (json) {
    printJson({ io }, false, { error: { name: 'UsageError', code: 'usage', message } });
  } else {
    io.err(`livelox-bridge ${message}`);
    io.err(`See ${helpCommand}.`);
  }
  return EXIT.usage;
}

/**
 * Ctrl-C (or SIGTERM) ended the command: said as such, not as the abort error it caused inside. A command that said
 * what the interruption left behind (`login`: nothing was saved) keeps its words after "interrupted".
 */
function reportInterrupted(err: unknown, signal: AbortSignal, name: string, json: boolean, io: Output): number {
  const plain = err === signal.reason || (err instanceof Error && err.name === 'AbortError');
  const message = plain ? 'interrupted' : `interrupted: ${errorText(err)}`;
  if (json) {
    printJson({ io }, false, { interrupted: true, error: { name: 'Interrupted', code: 'interrupted', message } });
  } else {
    io.err(`livelox-bridge ${name}: ${message}`);
  }
  return EXIT.interrupted;
}

function reportFailure(err: unknown, name: string, json: boolean, io: Output): number {
  if (json) {
    printJson({ io }, false, { error: errorJson(err) });
  } else {
    io.err(`livelox-bridge ${name}: ${errorText(err)}`);
  }
  return EXIT.failure;
}

function isParseArgsError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS');
}
