/**
 * Pages we write, checked in a real headless Chromium (Debian's `chromium`, installed by .ci/run; driven by
 * playwright-core, which never downloads a browser): opened from disk with the network cut off, every console error and
 * every request other than the page itself recorded, positions read back from the DOM, a screenshot taken and judged
 * not blank, and horizontal overflow measured at a given width.
 *
 *   const browser = await startBrowser();          // once per test file (about half a second)
 *   const opened = await browser.open(file, { width: 390 });
 *   expect(opened.consoleErrors).toEqual([]);
 *   ...
 *   await browser.close();
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { expect } from 'vitest';

/** Where Debian's package puts it; `CHROMIUM` names another. */
export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

/** Why the browser tests cannot run here, or undefined when they can (a test names it in its skip). */
export function browserMissing(): string | undefined {
  return existsSync(CHROMIUM) ? undefined : `no Chromium at ${CHROMIUM} (.ci/run installs Debian's chromium)`;
}

export interface OpenedPage {
  page: Page;
  /** `console.error` messages and uncaught page errors, in order. */
  consoleErrors: string[];
  /** Every request the page made besides loading itself (none is allowed: the page must be self-contained). */
  requests: string[];
  /**
   * What the content security policy blocked (`securitypolicyviolation` events: directive and what was blocked), when
   * the page was opened under one. Chromium also reports each on the console, so it is in `consoleErrors` too.
   */
  violations: string[];
}

/**
 * The policy of a portal that allows nothing but inline style: no script, image, font, frame or connection may load.
 * Every page we write must stay whole under it (`openChecked` opens every HTML page so).
 */
export const STRICT_CSP = `default-src 'none'; style-src 'unsafe-inline'`;

/**
 * A copy of the HTML page `file` beside it (`<name>.csp.html`) carrying `policy` as its first `<head>` element: a page
 * opened from disk has no response header to carry one. A page without `<head>` gets one after its doctype.
 */
export function withPolicy(file: string, policy: string): string {
  const meta = `<meta http-equiv="Content-Security-Policy" content="${policy}">`;
  const html = readFileSync(file, 'utf8');
  const out = /<head(\s[^>]*)?>/i.test(html)
    ? html.replace(/<head(\s[^>]*)?>/i, (head) => `${head}\n${meta}`)
    : html.replace(/^(\s*<!doctype[^>]*>)?/i, (doctype) => `${doctype}<head>${meta}</head>`);
  const copy = join(dirname(file), `${basename(file).replace(/\.html?$/i, '')}.csp.html`);
  writeFileSync(copy, out);
  return copy;
}

export interface Overflow {
  /** How far the document is wider than the viewport (0: no horizontal scroll bar). */
  documentPx: number;
  /** Elements whose box reaches past the viewport's right edge, outside any element that scrolls sideways. */
  elements: string[];
}

export interface TestBrowser {
  /**
   * Opens `file` offline at `width` (default 1280) px wide, waiting for it to load; with `policy`, a copy of it under
   * that content security policy (`withPolicy`), its violations recorded.
   */
  open(file: string, options?: { width?: number; height?: number; policy?: string }): Promise<OpenedPage>;
  close(): Promise<void>;
}

export async function startBrowser(): Promise<TestBrowser> {
  const browser: Browser = await chromium.launch({
    executablePath: CHROMIUM,
    // As root (CI) Chromium needs --no-sandbox; the rest keeps it from reaching for Google's services at start.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  const contexts: BrowserContext[] = [];
  return {
    async open(file, options = {}) {
      const context = await browser.newContext({
        offline: true,
        viewport: { width: options.width ?? 1280, height: options.height ?? 900 },
        javaScriptEnabled: true,
      });
      contexts.push(context);
      // Before any of the page's own: a listener the page's policy cannot block (init scripts come from the driver).
      await context.addInitScript(() => {
        const g = globalThis as any;
        g.__violations = [];
        g.document.addEventListener('securitypolicyviolation', (e: any) => {
          g.__violations.push(`${String(e.violatedDirective)} blocked ${String(e.blockedURI)}`);
        });
      });
      const page = await context.newPage();
      const url = pathToFileURL(options.policy === undefined ? file : withPolicy(file, options.policy)).href;
      const consoleErrors: string[] = [];
      const requests: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error') consoleErrors.push(m.text());
      });
      page.on('pageerror', (e) => consoleErrors.push(e.message));
      page.on('request', (r) => {
        if (r.url() !== url) requests.push(r.url());
      });
      await page.goto(url, { waitUntil: 'load' });
      // Violation events are queued as tasks: one more turn of the page's loop lets those of loading arrive.
      await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
      const violations = await page.evaluate(() => [...((globalThis as any).__violations as string[])]);
      return { page, consoleErrors, requests, violations };
    },
    async close() {
      for (const c of contexts) await c.close().catch(() => undefined);
      await browser.close();
    },
  };
}

/**
 * Whether a screenshot of `page` shows something: the share of its pixels that differ from the most common colour
 * (the background). Judged in the page's own browser (the PNG drawn on a canvas), so no image library is needed.
 */
export async function paintedShare(page: Page): Promise<number> {
  const png = await page.screenshot({ fullPage: true });
  const probe = await page.context().newPage();
  try {
    // Runs in the browser: its DOM is `globalThis` there (this project compiles without the DOM's types).
    return await probe.evaluate(
      async (dataUrl: string) => {
        const { document, Image } = globalThis as any;
        const img = new Image();
        img.src = dataUrl;
        await img.decode();
        const canvas = document.createElement('canvas');
        canvas.width = img.width;
        canvas.height = img.height;
        const ctx = canvas.getContext('2d');
        ctx.drawImage(img, 0, 0);
        const data: Uint8ClampedArray = ctx.getImageData(0, 0, img.width, img.height).data;
        const counts = new Map<number, number>();
        for (let i = 0; i < data.length; i += 4) {
          const key = (data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!;
          counts.set(key, (counts.get(key) ?? 0) + 1);
        }
        const background = Math.max(...counts.values());
        const pixels = data.length / 4;
        return (pixels - background) / pixels;
      },
      `data:image/png;base64,${png.toString('base64')}`,
    );
  } finally {
    await probe.close();
  }
}

/** Horizontal overflow at the page's current width. */
export async function horizontalOverflow(page: Page): Promise<Overflow> {
  // Runs in the browser (see paintedShare).
  return page.evaluate(() => {
    const { document, getComputedStyle } = globalThis as any;
    const width: number = document.documentElement.clientWidth;
    const scrolls = (el: any): boolean => {
      for (let e = el; e && e !== document.documentElement; e = e.parentElement) {
        const x: string = getComputedStyle(e).overflowX;
        if (x === 'auto' || x === 'scroll' || x === 'hidden') return true;
      }
      return false;
    };
    const elements: string[] = [];
    for (const el of Array.from<any>(document.body.querySelectorAll('*'))) {
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.right <= width + 1 || scrolls(el.parentElement)) continue;
      const id = el.id ? `#${String(el.id)}` : '';
      const cls = typeof el.className === 'string' && el.className ? `.${el.className.split(/\s+/).join('.')}` : '';
      elements.push(`${String(el.tagName).toLowerCase()}${id}${cls} (right edge ${Math.round(box.right)} > ${width})`);
    }
    return { documentPx: Math.max(0, document.documentElement.scrollWidth - width), elements: elements.slice(0, 10) };
  });
}

/** Where screenshots go for a person to look at, when the folder exists (on the developers' machine, not in CI). */
export const SCREENSHOTS = '/work/notes/screenshots';

/**
 * Opens `file` (an HTML page) at `width` px under `STRICT_CSP` and checks what every page we write must be: nothing
 * blocked by the policy, no console error, no request, more than `minPainted` of it painted, nothing wider than the
 * window. Saves `SCREENSHOTS/<shot>-<width>.png` when that folder exists. Answers the page, for the values a test reads
 * back.
 */
export async function openChecked(
  browser: TestBrowser,
  file: string,
  options: { width: number; shot: string; minPainted?: number },
): Promise<Page> {
  const opened = await browser.open(file, { width: options.width, policy: STRICT_CSP });
  expect(opened.violations).toEqual([]);
  expect(opened.consoleErrors).toEqual([]);
  expect(opened.requests).toEqual([]);
  expect(await paintedShare(opened.page)).toBeGreaterThan(options.minPainted ?? 0.001);
  expect(await horizontalOverflow(opened.page)).toEqual({ documentPx: 0, elements: [] });
  if (existsSync(SCREENSHOTS)) {
    await opened.page.screenshot({ path: join(SCREENSHOTS, `${options.shot}-${options.width}.png`), fullPage: true });
  }
  return opened.page;
}
