/**
 * The dispatcher: finds the command (and subcommand) a command line names, parses its options against the command's
 * spec, answers `--help` from the spec, and only then loads the command's run. Every outcome becomes an exit code: 0
 * success, 1 failure, 2 usage mistake (with a "did you mean" when a word is close to a known one), 130 interrupted by
 * Ctrl-C; a command's spec may add its own (sync: 3, 4).
 *
 * Messages are prefixed here with `livelox-bridge <command>: `, so no message a command throws starts with its name.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './command.js';
import { commandHelp, mainHelp } from './help.js';
import { errorJson, errorText } from './hints.js';
import { printJson } from './json-output.js';
import { GLOBAL_OPTIONS } from './shared-options.js';
import { EXIT, orList, type CommandContext, type CommandSpec, type Options, type Output, type Values } from './spec.js';
import { closest } from './suggest.js';
import { endedByInterruption } from './signals.js';
import { packageVersion } from './version.js';

export interface RunEnvironment {
  io: Output;
  env: Readonly<Record<string, string | undefined>>;
  signal: AbortSignal;
  /** The commands to run: the registry's, unless a test brings its own. */
  commands?: readonly CommandSpec[];
}

const BIN = 'livelox-bridge';
const VERSION_FLAGS: readonly string[] = ['--version', '-V', '-v'];

/** A command line resolved to the spec it runs: `path` is the words that named it (`help environment`). */
interface Resolved {
  spec: CommandSpec;
  path: string;
  args: string[];
  /** The command above a subcommand (`demo` for `demo sync`), with its path. */
  parent?: { spec: CommandSpec; path: string };
}

export async function runCli(argv: readonly string[], environment: RunEnvironment): Promise<number> {
  const { io } = environment;
  const [name, ...rest] = argv;
  if (name !== undefined && VERSION_FLAGS.includes(name)) {
    io.out(packageVersion());
    return EXIT.ok;
  }
  // Loaded after the version flags, which need no spec: every other command line does.
  const commands = environment.commands ?? (await import('./registry.js')).COMMANDS;
  if (name === undefined || name === '--help' || name === '-h') {
    io.out(mainHelp(commands, packageVersion()));
    // A bare `livelox-bridge` is a command line missing its command.
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  const json = rest.includes('--json');
  let resolved: Resolved;
  try {
    resolved = resolve(commands, name, rest);
  } catch (err) {
    if (!(err instanceof CommandLineError)) throw err;
    return reportUsage(err.message, err.helpPath, json, io);
  }
  const { spec, path } = resolved;
  try {
    const { values, args } = parse(resolved);
    if (values.help === true) {
      io.out(commandHelp(spec));
      return EXIT.ok;
    }
    if (!spec.load) {
      const names = (spec.subcommands ?? []).map((s) => s.name);
      throw new UsageError(`a subcommand is missing: ${orList(names)}`);
    }
    const command = await spec.load();
    const ctx: CommandContext = { json, io, env: environment.env, signal: environment.signal, commands };
    const { json: _json, help: _help, ...own } = values;
    const code = await command.run(own as Values<NonNullable<CommandSpec['options']>>, args, ctx);
    // A command that reported its own failure after Ctrl-C (sync, say) still ended because it was interrupted.
    if (endedByInterruption(environment.signal, { code })) {
      if (!json) io.err(`${BIN} ${path}: interrupted`);
      return EXIT.interrupted;
    }
    return code;
  } catch (err) {
    if (endedByInterruption(environment.signal, { error: err })) {
      return reportInterrupted(err, environment.signal, path, json, io);
    }
    if (err instanceof UsageError || isParseArgsError(err)) {
      return reportUsage(`${path}: ${usageText(err as Error, resolved)}`, path, json, io);
    }
    return reportFailure(err, path, json, io);
  }
}

/** A word that names no command (or subcommand): said with the help to read, `helpPath` ('' for the main help). */
class CommandLineError extends Error {
  constructor(
    message: string,
    readonly helpPath: string,
  ) {
    super(message);
  }
}

/**
 * The command, then its subcommands word by word: a subcommand is the word right after its parent. A parent that
 * takes arguments of its own reads a word that names no subcommand as one of them; a parent that takes none refuses it.
 */
function resolve(commands: readonly CommandSpec[], name: string, rest: readonly string[]): Resolved {
  let spec = commands.find((c) => c.name === name);
  if (!spec) {
    const names = commands.map((c) => c.name);
    const guess = closest(name, names);
    throw new CommandLineError(
      `unknown command '${name}'.${guess ? ` Did you mean '${guess}'?` : ` Commands: ${names.join(', ')}.`}`,
      '',
    );
  }
  let path = name;
  let args = [...rest];
  let parent: Resolved['parent'];
  for (let word = args[0]; spec.subcommands && word !== undefined && !word.startsWith('-'); word = args[0]) {
    const sub: CommandSpec | undefined = spec.subcommands.find((s) => s.name === word);
    if (!sub) {
      if (spec.arguments) break;
      const names = spec.subcommands.map((s) => s.name);
      const guess = closest(word, names);
      throw new CommandLineError(
        `${path}: unknown subcommand '${word}'.${guess ? ` Did you mean '${guess}'?` : ` Subcommands: ${names.join(', ')}.`}`,
        path,
      );
    }
    parent = { spec, path };
    [spec, path, args] = [sub, `${path} ${sub.name}`, args.slice(1)];
  }
  return { spec, path, args, ...(parent === undefined ? {} : { parent }) };
}

/** The options (checked against their choices) and arguments of a resolved command line. */
function parse({ spec, args }: Resolved): { values: Record<string, unknown>; args: string[] } {
  const table: Options = { ...spec.options, ...GLOBAL_OPTIONS };
  const options: NonNullable<ParseArgsConfig['options']> = {};
  for (const [name, o] of Object.entries(table)) {
    options[name] = { type: o.type, ...(o.short ? { short: o.short } : {}), ...(o.multiple ? { multiple: true } : {}) };
  }
  const parsed = parseArgs({ args, options, allowPositionals: spec.arguments !== undefined, strict: true });
  const values = parsed.values as Record<string, unknown>;
  if (values.help === true) return { values, args: parsed.positionals };
  for (const [name, o] of Object.entries(spec.options ?? {})) {
    const given = values[name];
    for (const value of Array.isArray(given) ? (given as unknown[]) : [given]) {
      if (o.choices && typeof value === 'string' && !o.choices.includes(value)) {
        throw new UsageError(`--${name} takes ${orList(o.choices)}, got '${value}'.${didYouMean(value, o.choices)}`);
      }
    }
  }
  const choices = spec.arguments?.choices;
  for (const value of choices ? parsed.positionals : []) {
    if (!choices!.includes(value)) {
      throw new UsageError(
        `the ${spec.arguments!.name} must be ${orList(choices!)}, got '${value}'.${didYouMean(value, choices!)}`,
      );
    }
  }
  return { values, args: parsed.positionals };
}

function didYouMean(typed: string, known: readonly string[]): string {
  const guess = closest(typed, known);
  return guess ? ` Did you mean ${guess}?` : '';
}

/**
 * parseArgs' own words, with the option named the way --help shows it and the closest known option suggested; an
 * option of the parent, a subcommand or a sibling (`demo --keep`, `simulator clock --port`) is said to be theirs.
 */
function usageText(err: Error, { spec, path, parent }: Resolved): string {
  const code = (err as { code?: unknown }).code;
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
    const word = /'([^']*)'/.exec(err.message)?.[1];
    return `takes no arguments${word === undefined ? '' : `, got '${word}'`}.`;
  }
  if (code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return err.message;
  const typed = /'(-{1,2}[^'=]+)/.exec(err.message)?.[1] ?? err.message;
  const bare = typed.replace(/^-+/, '');
  const known = [...Object.keys(spec.options ?? {}), ...Object.keys(GLOBAL_OPTIONS)];
  const guess = closest(bare, known);
  if (guess) return `unknown option '${typed}'. Did you mean --${guess}?`;
  const subcommandsOf = (p: { spec: CommandSpec; path: string }) =>
    (p.spec.subcommands ?? []).map((sub) => ({ spec: sub, path: `${p.path} ${sub.name}` }));
  // The parent, the command's own subcommands, and its siblings (`demo check-courses --churn` is `demo sync`'s).
  const owners = [
    ...(parent ? [parent, ...subcommandsOf(parent).filter((s) => s.spec !== spec)] : []),
    ...subcommandsOf({ spec, path }),
  ].filter((o) => Object.hasOwn(o.spec.options ?? {}, bare));
  if (owners.length > 0) {
    return `unknown option '${typed}': it is an option of ${orList(owners.map((o) => `\`${o.path}\``))}.`;
  }
  return `unknown option '${typed}'.`;
}

/** `message` after the program's name, and where to read more: the main help, or the help of `helpPath`. */
function reportUsage(message: string, helpPath: string, json: boolean, io: Output): number {
  if (json) {
    printJson({ io }, false, { error: { name: 'UsageError', code: 'usage', message } });
  } else {
    io.err(`${BIN} ${message}`);
    io.err(`See ${BIN}${helpPath ? ` ${helpPath}` : ''} --help.`);
  }
  return EXIT.usage;
}

/**
 * Ctrl-C (or SIGTERM) ended the command: said as such, not as the abort error it caused inside. A command that said
 * what the interruption left behind (`login`: nothing was saved) keeps its words after "interrupted".
 */
function reportInterrupted(err: unknown, signal: AbortSignal, path: string, json: boolean, io: Output): number {
  const plain = err === signal.reason || (err instanceof Error && err.name === 'AbortError');
  const message = plain ? 'interrupted' : `interrupted: ${errorText(err)}`;
  if (json) {
    printJson({ io }, false, { interrupted: true, error: { name: 'Interrupted', code: 'interrupted', message } });
  } else {
    io.err(`${BIN} ${path}: ${message}`);
  }
  return EXIT.interrupted;
}

function reportFailure(err: unknown, path: string, json: boolean, io: Output): number {
  if (json) {
    printJson({ io }, false, { error: errorJson(err) });
  } else {
    io.err(`${BIN} ${path}: ${errorText(err)}`);
  }
  return EXIT.failure;
}

function isParseArgsError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS');
}
