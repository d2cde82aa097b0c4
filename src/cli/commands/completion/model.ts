/**
 * What completion offers, flattened from the specs: one node per command path ('' for the top, `help environment` for
 * a subcommand) with its subcommands, its options (and which take a value, and what that value completes to) and its
 * arguments. Each shell's script (bash.ts, zsh.ts, fish.ts) is these nodes in that shell's words.
 */
import { GLOBAL_OPTIONS } from '../../shared-options.js';
import type { CommandSpec, OptionSpec } from '../../spec.js';

/** What a value completes to: some words, file names, directory names, or nothing (free text). */
export type ValueCompletion = { kind: 'choices'; words: readonly string[] } | { kind: 'file' | 'directory' | 'none' };

export interface CompletionOption {
  /** `--format`, then `-f` when it has a short form. */
  names: string[];
  description: string;
  /** Undefined for a flag (a boolean option). */
  value: ValueCompletion | undefined;
}

export interface CompletionNode {
  /** The words that name the command: '' for the top, `help environment`. */
  path: string;
  subcommands: Array<{ name: string; summary: string }>;
  options: CompletionOption[];
  /** What the command's own arguments complete to ('none' when it takes none, or free text). */
  args: ValueCompletion;
}

/** The options `livelox-bridge` alone takes before a command. */
const TOP_OPTIONS: CompletionOption[] = [
  { names: ['--help', '-h'], description: 'show the list of commands', value: undefined },
  { names: ['--version', '-V', '-v'], description: 'print the version', value: undefined },
];

function optionCompletion(name: string, spec: OptionSpec): CompletionOption {
  const value: ValueCompletion | undefined =
    spec.type === 'boolean'
      ? undefined
      : spec.choices
        ? { kind: 'choices', words: spec.choices }
        : { kind: spec.complete ?? 'none' };
  return { names: [`--${name}`, ...(spec.short ? [`-${spec.short}`] : [])], description: spec.description, value };
}

export function completionNodes(commands: readonly CommandSpec[]): CompletionNode[] {
  const names = commands.map((c) => c.name);
  const nodes: CompletionNode[] = [
    {
      path: '',
      subcommands: commands.map((c) => ({ name: c.name, summary: c.summary })),
      options: TOP_OPTIONS,
      args: { kind: 'none' },
    },
  ];
  const visit = (spec: CommandSpec, path: string): void => {
    const a = spec.arguments;
    nodes.push({
      path,
      subcommands: (spec.subcommands ?? []).map((s) => ({ name: s.name, summary: s.summary })),
      options: Object.entries({ ...spec.options, ...GLOBAL_OPTIONS }).map(([n, o]) => optionCompletion(n, o)),
      args: !a
        ? { kind: 'none' }
        : a.choices
          ? { kind: 'choices', words: a.choices }
          : a.complete === 'command'
            ? { kind: 'choices', words: names }
            : { kind: a.complete ?? 'none' },
    });
    for (const sub of spec.subcommands ?? []) visit(sub, `${path} ${sub.name}`);
  };
  for (const c of commands) visit(c, c.name);
  return nodes;
}

/** What a completion value is in the scripts' data: `choices a b c`, `file`, `directory`, or '' for nothing. */
export function valueWord(value: ValueCompletion): string {
  return value.kind === 'choices' ? `choices ${value.words.join(' ')}` : value.kind === 'none' ? '' : value.kind;
}

/** The option names that take a value at a node: the walk over the typed words skips each one's value. */
export function valueOptionNames(node: CompletionNode): string[] {
  return node.options.filter((o) => o.value !== undefined).flatMap((o) => o.names);
}

/**
 * The loop bash and zsh walk the typed words with, in the syntax both read: `for` over the words before the cursor
 * (`loop`, each one `word` from `wordAt`) to the command path `at`, skipping an option's value (`expect`) and counting
 * the arguments after the path (`args`). A subcommand is the word right after its parent.
 */
export function shWalk(loop: string, wordAt: string): string {
  return `  # The command path so far: a subcommand is the word right after its parent; an option's value is skipped.
  for ${loop}; do
    word="${wordAt}"
    if [[ -n $expect ]]; then expect=''; continue; fi
    if [[ $word == -* ]]; then
      _livelox_bridge_data "$at/values"
      [[ " $_lb_reply " == *" $word "* ]] && expect=$word
      continue
    fi
    _livelox_bridge_data "$at/commands"
    if (( args == 0 )) && [[ " $_lb_reply " == *" $word "* ]]; then at="\${at:+$at }$word"; else (( args += 1 )); fi
  done`;
}

/** `'text'` for bash and zsh: single quotes, a quote inside written as '\''. */
export function shQuote(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}

/**
 * The data every script walks the command line with, as `[key, words]` rows keyed `<path>/<what>`: a node's
 * `commands` (subcommands), `options`, `values` (options taking a value), `args` (what its arguments complete to), and
 * `<path>/<option>` for what an option's value completes to. Rows with nothing to say are left out.
 */
export function dataRows(nodes: readonly CompletionNode[]): Array<[string, string]> {
  const rows: Array<[string, string]> = [];
  for (const n of nodes) {
    rows.push(
      [`${n.path}/commands`, n.subcommands.map((s) => s.name).join(' ')],
      [`${n.path}/options`, n.options.flatMap((o) => o.names).join(' ')],
      [`${n.path}/values`, valueOptionNames(n).join(' ')],
      [`${n.path}/args`, valueWord(n.args)],
    );
    for (const o of n.options) {
      const word = o.value === undefined ? '' : valueWord(o.value);
      for (const name of o.names) rows.push([`${n.path}/${name}`, word]);
    }
  }
  return rows.filter(([, words]) => words !== '');
}
