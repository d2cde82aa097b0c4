/**
 * `publish --open`: only an absolute http(s) address is handed to the opener, as one argument and through no shell
 * (the address comes from the service).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openInBrowser, openableUrl, openerCommand } from '../../src/cli/commands/publish/open-url.js';

const VIEWER = 'https://www.livelox.com';
const dir = mkdtempSync(join(tmpdir(), 'lb-open-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('openableUrl', () => {
  it.each([
    ['file:///etc/passwd', /file: address, not http/],
    ['javascript:alert(1)', /javascript: address, not http/],
    ['ms-settings:', /ms-settings: address/],
    ['/Events/Import?id=1', /not an absolute URL/],
    ['calc.exe', /not an absolute URL/],
  ])('refuses %s', (url, why) => {
    const r = openableUrl(url, VIEWER);
    expect(r.ok).toBe(false);
    expect(r.ok ? '' : r.why).toMatch(why);
  });

  it('takes an http(s) address, and says when it is not under the viewer address', () => {
    expect(openableUrl(`${VIEWER}/ImportableEvents/Import/abc`, VIEWER)).toMatchObject({ ok: true, outside: false });
    expect(openableUrl('http://elsewhere.example/x', VIEWER)).toMatchObject({ ok: true, outside: true });
  });
});

describe('the opener', () => {
  it('is never a shell: Windows uses rundll32 url.dll,FileProtocolHandler with the URL one argument', () => {
    const url = 'https://x.example/a?b=1&c=2|calc';
    expect(openerCommand(url, 'win32')).toEqual(['rundll32', ['url.dll,FileProtocolHandler', url]]);
    expect(openerCommand(url, 'darwin')).toEqual(['open', [url]]);
    expect(openerCommand(url, 'linux')).toEqual(['xdg-open', [url]]);
  });

  it.runIf(process.platform === 'linux')(
    'passes a URL with shell metacharacters through as one argument, unexpanded',
    async () => {
      const bin = join(dir, 'bin');
      const seen = join(dir, 'seen.txt');
      const touched = join(dir, 'touched');
      mkdirSync(bin, { recursive: true });
      writeFileSync(join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s\\n%s' "$#" "$1" > '${seen}'\n`, { mode: 0o755 });
      const url = `https://x.example/a?b=1&c=$(touch ${touched});d=\`id\`|cat`;
      const ok = openableUrl(url, VIEWER);
      expect(ok.ok).toBe(true);
      const path = process.env.PATH;
      process.env.PATH = `${bin}:${path ?? ''}`;
      try {
        openInBrowser(ok.ok ? ok.url : '', (why) => {
          throw new Error(why);
        });
      } finally {
        process.env.PATH = path;
      }
      await expect.poll(() => (existsSync(seen) ? readFileSync(seen, 'utf8') : ''), { timeout: 5000 }).not.toBe('');
      const [count, arg] = readFileSync(seen, 'utf8').split('\n');
      expect(count).toBe('1');
      expect(arg).toBe(new URL(url).href);
      expect(existsSync(touched)).toBe(false);
    },
  );
});
