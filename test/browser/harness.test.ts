/**
 * The browser checks themselves, on small pages made here: each check must be able to fail, or the page tests that
 * rely on it prove nothing.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  browserMissing,
  horizontalOverflow,
  paintedShare,
  startBrowser,
  STRICT_CSP,
  type TestBrowser,
} from '../helpers/browser.js';

const missing = browserMissing();
let browser: TestBrowser;
let dir: string;

function page(name: string, body: string, head = ''): string {
  const file = join(dir, `${name}.html`);
  writeFileSync(
    file,
    `<!doctype html><html lang="en"><head><meta charset="utf-8">${head}</head><body>${body}</body></html>`,
  );
  return file;
}

describe.skipIf(missing !== undefined)(`browser checks${missing ? ` (skipped: ${missing})` : ''}`, () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'lb-browser-'));
    browser = await startBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a self-contained page: no console error, no request, painted, no overflow', async () => {
    const opened = await browser.open(
      page('good', '<h1 id="t">Courses</h1><svg width="200" height="80"><circle cx="40" cy="40" r="30"/></svg>'),
    );
    expect(opened.consoleErrors).toEqual([]);
    expect(opened.requests).toEqual([]);
    expect(await paintedShare(opened.page)).toBeGreaterThan(0.001);
    expect(await horizontalOverflow(opened.page)).toEqual({ documentPx: 0, elements: [] });
    expect(await opened.page.locator('circle').getAttribute('cx')).toBe('40');
  });

  it('records a request for anything outside the file, and console errors', async () => {
    const opened = await browser.open(
      page(
        'leaky',
        '<img src="https://example.org/logo.png" alt=""><script>console.error("boom")</script>',
        '<link rel="stylesheet" href="style.css">',
      ),
    );
    expect(opened.requests).toEqual(
      expect.arrayContaining(['https://example.org/logo.png', expect.stringMatching(/style\.css$/)]),
    );
    expect(opened.consoleErrors).toContain('boom');
  });

  it('opens a page under a strict policy and reports what it blocked: an image and an inline script', async () => {
    const file = page(
      'blocked',
      '<p style="color:red">styled</p><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" alt=""><script>document.title = "ran"</script>',
    );
    const opened = await browser.open(file, { policy: STRICT_CSP });
    expect(opened.violations).toEqual(['img-src blocked data', 'script-src-elem blocked inline']);
    expect(opened.consoleErrors.some((e) => /Content Security Policy/.test(e))).toBe(true);
    // The inline style is allowed (the one thing the policy lets through), and the script never ran.
    expect(
      await opened.page.locator('p').evaluate((p: any) => (globalThis as any).getComputedStyle(p).color as string),
    ).toBe('rgb(255, 0, 0)');
    expect(await opened.page.title()).not.toBe('ran');
    // Without a violation, the same helper says so.
    const quiet = await browser.open(page('quiet', '<p style="color:red">styled</p>'), { policy: STRICT_CSP });
    expect(quiet.violations).toEqual([]);
    expect(quiet.consoleErrors).toEqual([]);
  });

  it('judges a blank page blank', async () => {
    const opened = await browser.open(page('blank', ''));
    expect(await paintedShare(opened.page)).toBe(0);
  });

  it('finds what is wider than a phone, but not what scrolls in its own box', async () => {
    const wide = await browser.open(page('wide', '<div id="w" style="width:900px">x</div>'), { width: 390 });
    const overflow = await horizontalOverflow(wide.page);
    expect(overflow.documentPx).toBeGreaterThan(400);
    expect(overflow.elements[0]).toMatch(/^div#w/);
    const boxed = await browser.open(
      page('boxed', '<div style="overflow-x:auto"><table style="width:900px"><tr><td>x</td></tr></table></div>'),
      { width: 390 },
    );
    expect(await horizontalOverflow(boxed.page)).toEqual({ documentPx: 0, elements: [] });
  });
});
