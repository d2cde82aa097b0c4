/**
 * `--open`: the import address handed to the platform's opener (xdg-open, open, start). A small spawn rather than the
 * `open` package: the address is printed in any case, so a host without a browser (a server, CI) loses nothing, and
 * nothing here needs what the package adds (WSL detection, app choice).
 */
import { spawn } from 'node:child_process';

export function openInBrowser(url: string, onFailure: (why: string) => void): void {
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '""', url]]
        : ['xdg-open', [url]];
  try {
    const child = spawn(command, args, { stdio: 'ignore', detached: true });
    child.on('error', (err) => onFailure(err.message));
    child.unref();
  } catch (err) {
    onFailure(err instanceof Error ? err.message : String(err));
  }
}
