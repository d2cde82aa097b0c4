/**
 * The sync status page and the import report page in a real headless Chromium, at 1280 and 390 px: made by the built
 * bin against a simulator (the two nights of status-scenario.ts, a failed run, a batch of routes with broken files),
 * opened offline; no console error, no request, painted, nothing wider than the screen (long tables scroll in their
 * own box), and the values read back from the DOM. Screenshots go to /work/notes/screenshots when that folder exists.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/simulator/server.js';
import { browserMissing, openChecked, startBrowser, type TestBrowser } from '../helpers/browser.js';
import { cleanEnv, runBin } from '../helpers/cli.js';
import { importArgs, importSimulator, writeRoutes } from '../helpers/import-cli.js';
import { syncScenario, type SyncScenario } from '../helpers/status-scenario.js';

const WIDTHS = [1280, 390] as const;
const missing = browserMissing();
const dir = mkdtempSync(join(tmpdir(), 'lb-status-page-'));
const env = cleanEnv(dir);
let browser: TestBrowser;
let sims: Simulator[] = [];
let s: SyncScenario;
let failedPage: string;
let importPage: string;
let importDoc: { routes: Array<{ file: string; id?: string; status: string; viewerUrl?: string }> };

function checked(file: string, width: number, shot: string) {
  return openChecked(browser, file, { width, shot: `status-${shot}`, minPainted: 0.01 });
}

describe.skipIf(missing !== undefined)(`status pages in a browser${missing ? ` (skipped: ${missing})` : ''}`, () => {
  beforeAll(async () => {
    const [browserStarted, syncSim, importSim] = await Promise.all([
      startBrowser(),
      startSimulator({ port: 0, seed: 29, events: 60 }),
      importSimulator(),
    ]);
    browser = browserStarted;
    sims = [syncSim, importSim];
    s = await syncScenario(syncSim, join(dir, 'sync'), env);
    failedPage = join(dir, 'sync', 'failed.html');
    syncSim.faults.settings.rate = 1;
    syncSim.faults.settings.kinds = ['503'];
    await s.sync('--status-html', failedPage);
    syncSim.faults.settings.rate = 0;

    const routes = join(dir, 'routes');
    writeRoutes(importSim, routes, 7);
    writeFileSync(join(routes, 'broken.gpx'), '<?xml version="1.0"?>\n<gpx version="1.1" creator="x"><trk><trkseg>');
    writeFileSync(join(routes, 'empty.fit'), Buffer.alloc(14));
    importPage = join(dir, 'import.html');
    const r = await runBin(
      ['import', routes, '--wait', '--json', '--html', importPage, ...importArgs(importSim, join(dir, 'j.sqlite'))],
      env,
    );
    expect(r.code, r.stderr).toBe(1);
    importDoc = JSON.parse(r.stdout) as typeof importDoc;
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    for (const sim of sims) await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const width of WIDTHS) {
    it(`the sync status page at ${width} px: what needs a person, counts, runs and every event`, async () => {
      const page = await checked(s.page, width, 'sync');
      const read = await page.evaluate(() => {
        const { document } = globalThis as any;
        const all = (sel: string): any[] => Array.from(document.querySelectorAll(sel));
        return {
          verdict: String(document.querySelector('#verdict').textContent),
          headings: all('h2').map((h) => String(h.textContent)),
          counts: Object.fromEntries(all('dd[data-count]').map((d) => [d.dataset.count, parseInt(d.textContent, 10)])),
          pins: all('code.pin').map((c) => String(c.textContent)),
          unlinked: all('.unlinked').map((d) => String(d.dataset.key)),
          statuses: all('table.events tbody tr').map((tr) => [
            String(tr.cells[0].textContent),
            String(tr.querySelector('[data-status]').dataset.status),
          ]),
          runs: all('table.runs tbody tr').length,
          lost: all('table.lost-classes tbody tr').map((tr) => String(tr.cells[1].textContent)),
          gone: all('table.gone tbody tr').map((tr) => String(tr.cells[0].textContent)),
          // Every table sits in a box of its own that may scroll sideways.
          boxed: all('table').every((t) => t.parentElement.classList.contains('scroll')),
        };
      });
      expect(read.verdict).toMatch(/^NEEDS A PERSON \(exit 1\): 4 things need a person/);
      expect(read.headings.slice(0, 4)).toEqual(['Last run', 'Needs a person', 'Counts', 'Last runs']);
      expect(read.counts).toMatchObject({
        'portal events': 5,
        linked: 2,
        ambiguous: 1,
        'not found': 1,
        gone: 1,
        'classes that lost their link': 1,
        runs: 2,
      });
      expect(read.unlinked.sort()).toEqual([s.nowhereKey, s.twinKey].sort());
      for (const twin of s.twins) expect(read.pins).toContain(`--pin ${s.twinKey}=${twin.id}`);
      expect(read.statuses).toEqual(
        [
          [`portal:${s.lossy.id}`, 'linked'],
          [`portal:${s.doomed.id}`, 'gone'],
          [`portal:${s.steady.id}`, 'linked'],
          [s.nowhereKey, 'not_found'],
          [s.twinKey, 'ambiguous'],
        ].sort((a, b) => (a[0]! < b[0]! ? -1 : 1)),
      );
      expect(read.runs).toBe(2);
      expect(read.lost).toEqual(['H70']);
      expect(read.gone).toEqual([`portal:${s.doomed.id}`]);
      expect(read.boxed).toBe(true);
    });

    it(`the page of a failed run at ${width} px says so first`, async () => {
      const page = await checked(failedPage, width, 'sync-failed');
      const first = await page.evaluate(() => {
        const { document } = globalThis as any;
        const v = document.querySelector('body > .verdict');
        const before = Array.from<any>(document.body.children).indexOf(v);
        return { text: String(v.textContent), before, firstH2: String(document.querySelector('h2').textContent) };
      });
      expect(first.text).toMatch(/^THE RUN FAILED \(exit 3\): .*Nothing was committed/);
      expect(first.before).toBe(2);
      expect(first.firstH2).toBe('Last run');
    });

    it(`the import page at ${width} px: counts at the top, failures first, each route's link`, async () => {
      const page = await checked(importPage, width, 'import');
      const read = await page.evaluate(() => {
        const { document } = globalThis as any;
        const all = (sel: string): any[] => Array.from(document.querySelectorAll(sel));
        const counts = document.querySelector('dl.counts');
        const table = document.querySelector('table.routes');
        return {
          countsFirst: counts.getBoundingClientRect().top < table.getBoundingClientRect().top,
          counts: Object.fromEntries(all('dd[data-count]').map((d) => [d.dataset.count, parseInt(d.textContent, 10)])),
          rows: all('table.routes tbody tr').map((tr) => ({
            file: String(tr.cells[0].querySelector('code').getAttribute('title')),
            id: String(tr.querySelector('.route-id')?.textContent ?? ''),
            status: String(tr.querySelector('[data-status]').dataset.status),
            href: tr.querySelector('a')?.getAttribute('href') ?? null,
          })),
        };
      });
      expect(read.countsFirst).toBe(true);
      const failed = importDoc.routes.filter((r) => r.status === 'failed').length;
      expect(failed).toBeGreaterThanOrEqual(2);
      expect(read.counts).toMatchObject({ routes: importDoc.routes.length, failed });
      expect(read.rows.slice(0, failed).every((r) => r.status === 'failed')).toBe(true);
      expect(read.rows.slice(failed).every((r) => r.status !== 'failed')).toBe(true);
      for (const route of importDoc.routes) {
        const row = read.rows.find((r) => r.file === route.file)!;
        expect(row.status).toBe(route.status);
        expect(row.id).toBe(route.id ?? '');
        expect(row.href).toBe(route.viewerUrl ?? null);
      }
    });
  }
});
