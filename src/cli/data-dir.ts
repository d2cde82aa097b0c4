/** Where the CLI keeps its files without a flag: the user's data directory (XDG), as other command-line tools do. */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { ENV } from '../config.js';

/** `$XDG_DATA_HOME/livelox-bridge/<name>`, or `~/.local/share/livelox-bridge/<name>`. */
export function dataFilePath(env: Readonly<Record<string, string | undefined>>, name: string): string {
  const base = env[ENV.dataHome] || join(env[ENV.home] || homedir(), '.local', 'share');
  return join(base, 'livelox-bridge', name);
}
