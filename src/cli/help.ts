/** Help text for the whole CLI and for each command, built from the specs alone (no command module is loaded). */
import { GLOBAL_OPTIONS } from './shared-options.js';
import { COMMON_EXIT_CODES, EXIT, type CommandSpec, type OptionSpec, type Options } from './spec.js';

const BIN = 'livelox-bridge';

/** `-h, --help`, `--format table|json`, `--out FILE`: the option as help shows it. */
function optionFlag(name: string, spec: OptionSpec): string {
  const value = spec.type === 'string' ? ` ${spec.valueName ?? spec.choices?.join('|') ?? 'VALUE'}` : '';
  return `${spec.short ? `-${spec.short}, ` : ''}--${name}${value}`;
}

/** `  name  text` rows with the first column as wide as its widest entry. */
function rows(entries: ReadonlyArray<readonly [string, string]>): string[] {
  const width = Math.max(0, ...entries.map(([k]) => k.length));
  return entries.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`.trimEnd());
}

/** The command's exit codes: the common ones, with the spec's own words where it has them. */
function exitCodes(spec: CommandSpec): Array<[number, string]> {
  const merged: Record<number, string> = { ...COMMON_EXIT_CODES, ...spec.exitCodes };
  return Object.entries(merged)
    .map(([code, meaning]): [number, string] => [Number(code), meaning])
    .sort((a, b) => a[0] - b[0]);
}

export function commandHelp(spec: CommandSpec): string {
  const usage = typeof spec.usage === 'string' ? [spec.usage] : spec.usage;
  const table: Options = { ...spec.options, ...GLOBAL_OPTIONS };
  const options = Object.entries(table).map(([name, option]): [string, string] => [
    optionFlag(name, option),
    `${option.description}${option.multiple ? ' (repeatable)' : ''}`,
  ]);
  const out = [...usage.map((u, i) => `${i === 0 ? 'Usage:' : '      '} ${BIN} ${u}`), '', spec.summary];
  if (spec.subcommands && spec.subcommands.length > 0) {
    out.push('', 'Commands:', ...rows(spec.subcommands.map((s) => [s.name, s.summary])));
  }
  out.push('', 'Options:', ...rows(options));
  if (spec.details) out.push('', spec.details);
  out.push('', 'Exit codes:', ...rows(exitCodes(spec).map(([code, meaning]) => [String(code), meaning])));
  return out.join('\n');
}

export function mainHelp(commands: readonly CommandSpec[], version: string): string {
  return [
    `${BIN} ${version}: connect orienteering event systems to Livelox.`,
    '',
    `Usage: ${BIN} <command> [options]`,
    '',
    'Commands:',
    ...rows(commands.map((c) => [c.name, c.summary])),
    '',
    `Run \`${BIN} <command> --help\` for a command's options, \`${BIN} help environment\` for the environment`,
    `variables it reads, \`${BIN} completion bash|zsh|fish\` for tab completion.`,
    `Exit codes: ${EXIT.ok} success, ${EXIT.failure} failure, ${EXIT.usage} usage error, ${EXIT.interrupted} interrupted (Ctrl-C), ${EXIT.terminated} ended by SIGTERM;`,
    "each command's help says what they mean for it.",
  ].join('\n');
}
