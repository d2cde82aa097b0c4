/**
 * `--open`: the import address handed to the platform's opener (xdg-open, open, rundll32's FileProtocolHandler). A
 * small spawn rather than the `open` package: the address is printed in any case, so a host without a browser (a
 * server, CI) loses nothing, and nothing here needs what the package adds (WSL detection, app choice).
 *
 * The address comes from the service, so it is checked before it is opened: an absolute http(s) URL only (a `file:`,
 * `javascript:` or other scheme would have the opener run or show something else), passed as one argument to the
 * opener and never through a shell (Windows' `start` is a cmd built-in, where `&` and `|` in a URL are commands).
 */
import { spawn } from 'node:child_process';

/** The address to open, or why it is not opened; `outside`: not under the configured viewer address (said, opened). */
export type OpenableUrl = { ok: true; url: string; outside: boolean } | { ok: false; why: string };

export function openableUrl(url: string, viewerUrl: string | undefined): OpenableUrl {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, why: 'it is not an absolute URL' };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return { ok: false, why: `it is a ${parsed.protocol} address, not http(s)` };
  }
  const outside = viewerUrl !== undefined && !underViewer(parsed, viewerUrl);
  return { ok: true, url: parsed.href, outside };
}

function underViewer(url: URL, viewerUrl: string): boolean {
  try {
    return new URL(viewerUrl).origin === url.origin;
  } catch {
    return false;
  }
}

/** The opener and its arguments on `platform`: the URL always one argument, no shell. */
export function openerCommand(url: string, platform: NodeJS.Platform = process.platform): [string, string[]] {
  if (platform === 'darwin') return ['open', [url]];
  if (platform === 'win32') return ['rundll32', ['url.dll,FileProtocolHandler', url]];
  return ['xdg-open', [url]];
}

/** Opens a URL `openableUrl` accepted; a failure to start the opener is said through `onFailure`. */
export function openInBrowser(url: string, onFailure: (why: string) => void): void {
  const [command, args] = openerCommand(url);
  try {
    const child = spawn(command, args, { stdio: 'ignore', detached: true, shell: false });
    child.on('error', (err) => onFailure(err.message));
    child.unref();
  } catch (err) {
    onFailure(err instanceof Error ? err.message : String(err));
  }
}
