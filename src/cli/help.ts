/** Help text for the whole CLI and for each command, built from the command definitions. */
import type { Command } from './command.js';
import type { CommandEntry } from './registry.js';

export const GLOBAL_OPTIONS: Array<[string, string]> = [
  ['--json', 'machine-readable output on stdout'],
  ['-h, --help', 'show help for the command'],
];

export const EXIT_CODES_TEXT =
  'Exit codes: 0 success, 1 failure (the work could not be done), 2 usage error (bad command line), 130 interrupted (Ctrl-C).';

export function commandHelp(cmd: Command, summary: string): string {
  const rows: Array<[string, string]> = Object.entries(cmd.options).map(([name, spec]) => {
    const flag = `${spec.short ? `-${spec.short}, ` : ''}--${name}${spec.type === 'string' ? ` ${spec.valueName ?? 'VALUE'}` : ''}`;
    const def = spec.default === undefined ? '' : ` (default ${JSON.stringify(spec.default)})`;
    return [flag, `${spec.description}${def}`];
  });
  rows.push(...GLOBAL_OPTIONS);
  const width = Math.max(...rows.map(([f]) => f.length));
  return [
    `Usage: livelox-bridge ${cmd.usage}`,
    '',
    summary,
    '',
    'Options:',
    ...rows.map(([f, d]) => `  ${f.padEnd(width)}  ${d}`),
    ...(cmd.details ? ['', cmd.details] : []),
    '',
    EXIT_CODES_TEXT,
  ].join('\n');
}

export function mainHelp(commands: readonly CommandEntry[], version: string): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    `livelox-bridge ${version}: connect orienteering event systems to Livelox.`,
    '',
    'Usage: livelox-bridge <command> [options]',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    "Run `livelox-bridge <command> --help` for a command's options.",
    EXIT_CODES_TEXT,
  ].join('\n');
}
