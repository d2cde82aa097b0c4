/** `livelox-bridge completion bash|zsh|fish`: a tab-completion script generated from the command registry. */
import { defineCommand } from '../../spec.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;

export const completionSpec = defineCommand({
  name: 'completion',
  summary: 'Print a tab-completion script for bash, zsh or fish: commands, subcommands, options and their values.',
  usage: 'completion bash|zsh|fish',
  arguments: { name: 'shell', choices: SHELLS },
  details: [
    'The script completes every command, subcommand and option of this version, the values of options that take one',
    'of a few (--format), and file names where a value is a file. Install it once (again after an upgrade):',
    '  bash: livelox-bridge completion bash > ~/.local/share/bash-completion/completions/livelox-bridge',
    '        (or add `source <(livelox-bridge completion bash)` to ~/.bashrc)',
    '  zsh:  livelox-bridge completion zsh > ~/.zfunc/_livelox-bridge',
    '        (with `fpath=(~/.zfunc $fpath); autoload -Uz compinit; compinit` in ~/.zshrc)',
    '  fish: livelox-bridge completion fish > ~/.config/fish/completions/livelox-bridge.fish',
    'With --json: {"ok":true,"shell":"bash","script":"..."}.',
  ].join('\n'),
  load: () => import('./run.js'),
});
