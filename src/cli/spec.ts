/**
 * A command as data (STYLE.md #16): its name, summary, usage, options, arguments, help paragraphs, exit codes and
 * subcommands, declared in `commands/<name>/spec.ts` apart from its run (`commands/<name>/run.ts`). The parser,
 * `--help`, the "did you mean" of a usage mistake and `completion` read only specs, so they cost about what starting
 * Node costs (`npm run bench startup`); a command's own modules (the client, a job, the XML reader, SQLite) load when
 * it runs, through its `load`.
 *
 * A spec module stays light: it imports, at run time, only the CLI's start-up modules (the rule
 * `start-up-modules-stay-light` in .dependency-cruiser.cjs lists them), and reaches its run only through the lazy
 * `import()` in `load`. Types may come from anywhere.
 *
 * Declaring a command:
 *
 * ```ts
 * // commands/countries/spec.ts
 * export const countriesOptions = defineOptions({
 *   'only-having-events': { type: 'boolean', description: 'only countries with at least one event' },
 *   ...SERVICE_OPTIONS,
 * });
 * export const countriesSpec = defineCommand({
 *   name: 'countries',
 *   summary: 'List the countries of the service ...',
 *   usage: 'countries [--only-having-events]',
 *   options: countriesOptions,
 *   load: () => import('./run.js'),
 * });
 *
 * // commands/countries/run.ts: the options typed from the table (a boolean, a string, a choice's union)
 * export async function run(values: Values<typeof countriesOptions>, args: string[], ctx: CommandContext) { ... }
 * ```
 *
 * and listing `countriesSpec` in `registry.ts`. A subcommand (`help environment`, `schema fetch`) is a spec of its own
 * in its parent's `subcommands`, usually declared in the parent's spec.ts with its run in the parent's folder
 * (`load: () => import('./environment.js')`); its usage names the whole path (`help environment [--markdown]`).
 */

/** What completion offers for a value: file names, directory names, or the CLI's command names. */
export type Completion = 'file' | 'directory' | 'command';

/** One option of a command: what the parser needs (node:util parseArgs) and what help and completion show. */
export interface OptionSpec {
  type: 'string' | 'boolean';
  /** A one-letter alias (`-h`). */
  short?: string;
  /** May be given more than once; the run gets a list. */
  multiple?: boolean;
  /** Shown in --help. Say the default here when there is one: the run applies it. */
  description: string;
  /** Placeholder for the value in --help (`N`, `FILE`); without one, the choices (`json|csv`) or `VALUE`. */
  valueName?: string;
  /**
   * The only values the option takes. The parser refuses others (exit 2, with the closest choice suggested), help
   * shows them, completion offers them, and the run gets their union type.
   */
  choices?: readonly string[];
  /** What completion offers for the value when there are no choices. */
  complete?: Exclude<Completion, 'command'>;
}

export type Options = Readonly<Record<string, OptionSpec>>;

/** The positional arguments a command takes (a command without this takes none). */
export interface ArgumentsSpec {
  /** As usage errors name them: `shell`, `ems-file`. */
  name: string;
  /** The only values each argument may be (`completion bash|zsh|fish`): checked by the parser, offered by completion. */
  choices?: readonly string[];
  complete?: Completion;
}

/**
 * Where the CLI's output goes and what a run may read: the run's only way to the process (STYLE.md: only src/cli
 * prints, and it does so through here, so tests and embedders decide).
 */
export interface Output {
  out(text: string): void;
  err(text: string): void;
}

export interface CommandContext {
  /** `--json`: machine-readable output on stdout, one JSON document (or one JSON line per event for streams). */
  json: boolean;
  io: Output;
  env: Readonly<Record<string, string | undefined>>;
  /** Aborted on SIGINT/SIGTERM. */
  signal: AbortSignal;
  /** Every command of the CLI (`help` and `completion` describe them). */
  commands: readonly CommandSpec[];
}

type ValueOf<S extends OptionSpec> = S['type'] extends 'boolean'
  ? S extends { multiple: true }
    ? boolean[]
    : boolean
  : S extends { choices: readonly (infer C)[] }
    ? S extends { multiple: true }
      ? C[]
      : C
    : S extends { multiple: true }
      ? string[]
      : string;

/** The parsed options of a table, typed: absent when not given; a choice option is the union of its choices. */
export type Values<O extends Options> = { -readonly [K in keyof O]?: ValueOf<O[K]> };

/** A run's module: `export async function run(values, args, ctx)` returning the exit code. */
interface RunModule<O extends Options> {
  // Method syntax on purpose: a spec of particular options must fit where any spec goes (the registry's list).
  run(values: Values<O>, args: string[], ctx: CommandContext): Promise<number>;
}

export interface CommandSpec<O extends Options = Options> {
  name: string;
  /** One line, for the list of commands and the top of the command's help. */
  summary: string;
  /** The command line without `livelox-bridge `, one line per form: `link <ems-file> [--event-id N] ...`. */
  usage: string | readonly string[];
  options?: O;
  /** Positional arguments; without this, the command takes none. */
  arguments?: ArgumentsSpec;
  /** Paragraphs after the options in --help: what it does in more words, examples. Exit codes go in `exitCodes`. */
  details?: string;
  /** What each exit code means for this command, where it says more than (or adds to) COMMON_EXIT_CODES. */
  exitCodes?: Readonly<Record<number, string>>;
  /**
   * Commands under this one (`help environment`). The word right after the parent picks one; for a parent that takes
   * arguments of its own, a word that names no subcommand is one of those arguments.
   */
  subcommands?: readonly CommandSpec[];
  /** Loads the run: only when the command runs. A parent without it needs one of its subcommands. */
  load?: () => Promise<RunModule<NoInfer<O>>>;
}

/** The codes every command shares; a spec's `exitCodes` say more for its own. */
export const EXIT = { ok: 0, failure: 1, usage: 2, interrupted: 130, terminated: 143 } as const;

export const COMMON_EXIT_CODES: Readonly<Record<number, string>> = {
  [EXIT.ok]: 'success',
  [EXIT.failure]: 'failure (the work could not be done)',
  [EXIT.usage]: 'usage error (bad command line)',
  [EXIT.interrupted]: 'interrupted (Ctrl-C; a second Ctrl-C stops at once)',
  [EXIT.terminated]: 'ended by SIGTERM',
};

/** The options a command's run reads, declared once: `type` and `choices` keep their literal types for `Values`. */
export function defineOptions<const O extends Options>(options: O): O {
  return options;
}

export function defineCommand<const O extends Options>(spec: CommandSpec<O>): CommandSpec<O> {
  return spec;
}

/** `a, b or c`: a list of choices in a sentence. */
export function orList(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)!}`;
}
