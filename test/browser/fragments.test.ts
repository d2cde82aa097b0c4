/**
 * The fragments `sync --out-dir` writes, as a portal shows them: embedded in a minimal host page on disk, with the
 * default stylesheet (`--css`) and without any, opened in a real Chromium at 1280 and 390 px. No console error, no
 * request, something painted, nothing wider than the window; link texts, addresses, titles, the language and the
 * stamp read back from the DOM; an event without links says so in words. Screenshots go to
 * /work/notes/screenshots/portal-*.png when that folder exists (for a person to look at).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FRAGMENT_CSS_FILE, writePortalFragments } from '../../src/jobs/portal-fragments.js';
import { fragmentFileName } from '../../src/links/fragment-names.js';
import type { PortalLinks } from '../../src/links/portal.js';
import { browserMissing, openChecked, startBrowser, type TestBrowser } from '../helpers/browser.js';

const missing = browserMissing();
let browser: TestBrowser;
let dir: string;

const CLASSES = [
  { name: 'H21 Elit', serviceClass: 'M21E' },
  { name: 'D21 Elit', serviceClass: 'W21E' },
  { name: 'H10', serviceClass: 'H10' },
  { name: 'Öppen 5 – lång & svår <natt>', serviceClass: 'Open 5' },
  { name: 'Inskolning', serviceClass: 'Beginners' },
  ...Array.from({ length: 20 }, (_, i) => ({ name: `D${35 + i * 5}`, serviceClass: `W${35 + i * 5}` })),
  { name: 'Motionsklassmedextralångtnamnutanmellanslag', serviceClass: 'Exercise' },
];

const linked: PortalLinks = {
  key: 'eventor:49812-2',
  status: 'linked',
  eventId: 104002,
  eventName: 'Stockholms 2-dagars, etapp 2',
  classes: [
    ...CLASSES.map((c, i) => ({
      name: c.name,
      status: 'linked' as const,
      classId: 700 + i,
      serviceClass: c.serviceClass,
      url: `https://www.livelox.com/Viewer?classId=${700 + i}`,
    })),
    {
      name: 'H70',
      status: 'unmapped' as const,
      reason: 'the service class H70 (733) was removed',
      since: '2026-11-20T00:00:00Z',
      was: { classId: 733, serviceClass: 'H70' },
    },
  ],
};
const gone: PortalLinks = {
  key: 'eventor:50001',
  status: 'gone',
  eventId: 9,
  reason: 'deleted',
  classes: [],
};

/** A portal's page around one fragment: its own heading and text, the stylesheet inline when given. */
function host(name: string, fragment: string, css: string | undefined): string {
  const file = join(dir, `${name}.html`);
  writeFileSync(
    file,
    [
      '<!doctype html>',
      '<html lang="sv">',
      '<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
      '<title>Portal</title>',
      css === undefined ? '' : `<style>${css}</style>`,
      '</head>',
      '<body style="margin: 0 auto; max-width: 960px; padding: 12px; font: 16px/1.5 sans-serif">',
      '<h1>Stockholms 2-dagars</h1><p>Resultat, startlistor och vägval.</p>',
      fragment,
      '</body></html>',
    ].join('\n'),
  );
  return file;
}

interface Read {
  lang: string;
  status: string;
  links: Array<{ text: string; href: string; title: string | null; visible: boolean }>;
  time: { datetime: string | null; text: string } | null;
  none: string | null;
  tables: number;
}

describe.skipIf(missing !== undefined)(`fragments in a browser${missing ? ` (skipped: ${missing})` : ''}`, () => {
  let css: string;
  let updated: string;
  const fragments: Record<string, string> = {};

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'lb-fragments-browser-'));
    browser = await startBrowser();
    const folder = join(dir, 'fragments');
    mkdirSync(folder);
    const r = await writePortalFragments(folder, [linked, gone], {
      css: true,
      lang: 'sv',
      texts: { noLinks: 'Inga länkar ännu.', updated: 'Uppdaterad', event: 'Livelox:', noLink: 'ingen länk:' },
      now: () => new Date('2026-11-27T19:30:00Z'),
    });
    updated = r.index[0]!.updated;
    css = readFileSync(join(folder, FRAGMENT_CSS_FILE), 'utf8');
    for (const l of [linked, gone]) fragments[l.status] = readFileSync(join(folder, fragmentFileName(l.key)), 'utf8');
  });
  afterAll(async () => {
    await browser?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function check(name: string, fragment: string, withCss: boolean, width: number): Promise<Read> {
    const page = await openChecked(browser, host(`${name}-${width}`, fragment, withCss ? css : undefined), {
      width,
      shot: `portal-${name}`,
    });
    // Runs in the browser: its DOM is `globalThis` there (this project compiles without the DOM's types).
    return page.evaluate(() => {
      const { document } = globalThis as any;
      const root = document.querySelector('.livelox-links');
      const time = root.querySelector('time');
      return {
        lang: root.getAttribute('lang'),
        status: root.getAttribute('data-status'),
        links: Array.from<any>(root.querySelectorAll('a')).map((a) => {
          const box = a.getBoundingClientRect();
          return {
            text: a.textContent,
            href: a.getAttribute('href'),
            title: a.getAttribute('title'),
            visible: box.width > 0 && box.height > 0,
          };
        }),
        time: time && { datetime: time.getAttribute('datetime'), text: time.textContent },
        none: root.querySelector('.livelox-none')?.innerText ?? null,
        tables: root.querySelectorAll('table').length,
      };
    });
  }

  for (const withCss of [true, false]) {
    for (const width of [1280, 390]) {
      it(`shows a linked event's classes ${withCss ? 'with the default stylesheet' : 'without any stylesheet'} at ${width} px`, async () => {
        const read = await check(withCss ? 'links-css' : 'links-plain', fragments.linked!, withCss, width);
        expect(read.lang).toBe('sv');
        expect(read.status).toBe('linked');
        expect(read.links.map((l) => l.text)).toEqual(CLASSES.map((c) => c.name));
        expect(read.links.map((l) => l.href)).toEqual(
          CLASSES.map((_, i) => `https://www.livelox.com/Viewer?classId=${700 + i}`),
        );
        expect(read.links.map((l) => l.title)).toEqual(
          CLASSES.map((c) => (c.name === c.serviceClass ? null : c.serviceClass)),
        );
        expect(read.links.every((l) => l.visible)).toBe(true);
        expect(read.time).toEqual({ datetime: updated, text: expect.stringContaining('2026') as unknown });
        expect(read.none).toBeNull();
      });
    }
  }

  for (const width of [1280, 390]) {
    it(`says in words that a gone event has no links yet, at ${width} px`, async () => {
      const read = await check('nolinks-css', fragments.gone!, true, width);
      expect(read).toMatchObject({ lang: 'sv', status: 'gone', links: [], tables: 0, none: 'Inga länkar ännu.' });
      expect(read.time?.datetime).toBe(updated);
    });
  }
});
