/**
 * `livelox-bridge help environment`: every environment variable the tool reads (environment.ts holds the table), as
 * text to read, as the Markdown table of docs/environment.md (`--markdown`), or as JSON.
 */
import { ENVIRONMENT, variableNames, type EnvironmentVariable } from '../../environment.js';
import { printJson } from '../../json-output.js';
import { EXIT, type CommandContext, type Values } from '../../spec.js';
import type { helpEnvironmentOptions } from './spec.js';

const WIDTH = 100;

export function run(
  values: Values<typeof helpEnvironmentOptions>,
  _args: string[],
  ctx: CommandContext,
): Promise<number> {
  if (ctx.json) printJson(ctx, true, { variables: ENVIRONMENT });
  else ctx.io.out(values.markdown === true ? markdown(ENVIRONMENT) : text(ENVIRONMENT));
  return Promise.resolve(EXIT.ok);
}

function text(variables: readonly EnvironmentVariable[]): string {
  const out = [
    'Environment variables livelox-bridge reads. An option given on the command line wins over its variable.',
    '',
  ];
  for (const v of variables) {
    out.push(variableNames(v), ...wrap(v.description, '    '), ...wrap(`default: ${v.default}`, '    '), '');
  }
  out.push('Without a variable or its option, the default holds. `livelox-bridge <command> --help` lists the options.');
  return out.join('\n');
}

/** `text` in lines of at most WIDTH columns, each after `indent`. */
function wrap(text: string, indent: string): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && indent.length + line.length + 1 + word.length > WIDTH) {
      lines.push(indent + line);
      line = word;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  if (line !== '') lines.push(indent + line);
  return lines;
}

function markdown(variables: readonly EnvironmentVariable[]): string {
  const cell = (s: string) => s.replaceAll('|', '\\|');
  return [
    '| variable | default | what it does |',
    '| --- | --- | --- |',
    ...variables.map(
      (v) =>
        `| ${[v.name, ...v.aliases].map((n) => `\`${n}\``).join(', ')} | ${cell(v.default)} | ${cell(v.description)} |`,
    ),
  ].join('\n');
}
