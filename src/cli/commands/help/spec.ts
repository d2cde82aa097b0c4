/**
 * `livelox-bridge help [<command> [<subcommand>]]` and its subcommand `help environment`: the first command with a
 * subcommand, and the pattern for the others (a subcommand is a spec in its parent's `subcommands`, its run a module
 * of the parent's folder).
 */
import { defineCommand, defineOptions } from '../../spec.js';

export const helpEnvironmentOptions = defineOptions({
  markdown: { type: 'boolean', description: 'print the table as Markdown (as docs/environment.md shows it)' },
});

export const helpEnvironmentSpec = defineCommand({
  name: 'environment',
  summary: 'List every environment variable livelox-bridge reads, with its default and what it does.',
  usage: 'help environment [--markdown]',
  options: helpEnvironmentOptions,
  details: 'With --json: {"ok":true,"variables":[{"name","aliases","default","description"}]}.',
  load: () => import('./environment.js'),
});

export const helpSpec = defineCommand({
  name: 'help',
  summary: 'Show help for a command (help <command>), or the environment variables the tool reads (help environment).',
  usage: ['help [<command> [<subcommand>]]', 'help environment [--markdown]'],
  arguments: { name: 'command', complete: 'command' },
  subcommands: [helpEnvironmentSpec],
  details: 'The same text as `livelox-bridge <command> --help`. With --json: {"ok":true,"help":"<the text>"}.',
  load: () => import('./run.js'),
});
