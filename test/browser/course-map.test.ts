/**
 * The course check page in a real headless Chromium, at 1280 and 390 px: written by the built bin against a simulator
 * serving a real OCAD export (Ellenbrook, ../shared/realdata) and the cannock-chase fixture, with organiser copies
 * edited here (a moved control, a missing one, a class on another course), and one page built from picture-level
 * input with a fitted georeferencing difference. Each page: no console error, no request, painted, no sideways
 * overflow, and every drawn control where its plane position says, read back from the DOM through the SVG's own
 * transform. Screenshots go to /work/notes/screenshots when that folder exists (for people to look at).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localPlane } from '../../src/geo/local-plane.js';
import { courseCheckPage } from '../../src/pictures/course-check-page.js';
import { fitted, type CourseMapInput, type MapControl, type MapFit } from '../../src/pictures/course-map.js';
import type { Simulator } from '../../src/simulator/server.js';
import {
  browserMissing,
  horizontalOverflow,
  paintedShare,
  startBrowser,
  STRICT_CSP,
  type OpenedPage,
  type TestBrowser,
} from '../helpers/browser.js';
import {
  CANNOCK_EDITS,
  CANNOCK_XML,
  cliAgainst,
  courseSimulator,
  editedCopy,
  ELLENBROOK_EDITS,
  ELLENBROOK_XML,
  HEARTWOOD_MOVED,
  heartwoodShifted,
} from '../helpers/course-check.js';

const missing = browserMissing();
const SHOTS = '/work/notes/screenshots';
const WIDTHS = [1280, 390] as const;

let browser: TestBrowser;
let sim: Simulator;
let dir: string;
const pages: Record<string, string> = {};

/** The page `check-courses --html` writes for `organiser` against event `eventId`. */
async function checkPage(organiser: string, eventId: number, name: string, extra: string[] = []): Promise<string> {
  const html = join(dir, `${name}.html`);
  const r = await cliAgainst(sim, dir, [
    'check-courses',
    organiser,
    '--event-id',
    String(eventId),
    '--html',
    html,
    ...extra,
  ]);
  if (!existsSync(html)) throw new Error(`no page written: ${r.stderr}`);
  return html;
}

/**
 * Ellenbrook's Yellow course with the service's side shifted 40 m north-east and turned 0.3° (a georeferencing
 * difference), three controls really moved on top of it: the picture-level input the fit will hand the page.
 */
function fitPage(): string {
  const xml = readFileSync(ELLENBROOK_XML, 'utf8');
  const degrees = [...xml.matchAll(/<Id>(\w+)<\/Id>\s*<Position lng="([-\d.]+)" lat="([-\d.]+)"/g)].map(
    (m) => [m[1]!, { lat: Number(m[3]), lng: Number(m[2]) }] as const,
  );
  const plane = localPlane(degrees.map(([, d]) => d));
  const points = degrees.map(([code, d]) => [code, plane.toPlane(d)] as const);
  const centre = {
    x: points.reduce((s, [, p]) => s + p.x, 0) / points.length,
    y: points.reduce((s, [, p]) => s + p.y, 0) / points.length,
  };
  const fit: MapFit = {
    centre,
    shiftEastM: 28.28,
    shiftNorthM: 28.28,
    rotationDeg: 0.3,
    scale: 1,
    message:
      'The whole map is shifted 40 m to the north-east and rotated 0.3°: a georeferencing difference, not 12 moved ' +
      'controls; apart from it, controls 103, 106 and 109 are off by 25 m, 32 m and 18 m.',
    residuals: [
      { control: '106', distanceM: 32 },
      { control: '103', distanceM: 25 },
      { control: '109', distanceM: 18 },
    ],
  };
  const extra: Record<string, [number, number]> = { '103': [25, 0], '106': [0, -32], '109': [-18, 0] };
  const controls = points.map(([code, p]): MapControl => {
    const f = fitted(fit, p);
    const [dx, dy] = extra[code] ?? [0, 0];
    return {
      code,
      kind: code.startsWith('S') ? 'start' : code.startsWith('F') ? 'finish' : 'control',
      organiser: p,
      service: { x: f.x + dx, y: f.y + dy },
    };
  });
  const course: CourseMapInput = {
    name: 'All controls',
    organiserSequence: points.map(([code]) => code),
    serviceSequence: points.map(([code]) => code),
    controls,
    toleranceM: 10,
    plane: 'a local transverse Mercator plane',
    fit,
  };
  const file = join(dir, 'fit.html');
  writeFileSync(
    file,
    courseCheckPage({
      title: 'Courses of event 1 against ellenbrook-shifted.xml',
      verdict: 'different',
      verdictWord: 'DIFFERENT',
      verdictText: '4 differences (1 georeferencing difference, 3 moved controls).',
      georeference: fit.message,
      facts: [['Organiser', 'ellenbrook-shifted.xml']],
      counts: [{ label: 'moved controls', count: 3 }],
      courses: [course],
      classes: [],
      report: 'DIFFERENT: 4 differences (1 georeferencing difference, 3 moved controls).',
    }),
  );
  return file;
}

/** Every drawn control: how far its box's centre on screen is from where its plane position maps, in px. */
async function misplaced(opened: OpenedPage): Promise<{ controls: number; worstPx: number; scales: number[] }> {
  // Runs in the browser: its DOM is `globalThis` there (this project compiles without the DOM's types).
  return opened.page.evaluate(() => {
    const { document } = globalThis as any;
    let controls = 0;
    let worstPx = 0;
    const scales: number[] = [];
    for (const svg of Array.from<any>(document.querySelectorAll('figure svg'))) {
      const per = Number(svg.dataset.metresPerUnit);
      const ox = Number(svg.dataset.originXM);
      const oy = Number(svg.dataset.originYM);
      if (!Number.isFinite(per)) continue;
      const ctm = svg.getScreenCTM();
      scales.push(ctm.a);
      for (const g of Array.from<any>(svg.querySelectorAll('g.control'))) {
        const pt = svg.createSVGPoint();
        pt.x = (Number(g.dataset.xM) - ox) / per;
        pt.y = (oy - Number(g.dataset.yM)) / per;
        const want = pt.matrixTransform(ctm);
        const box = g.getBoundingClientRect();
        const d = Math.hypot(box.x + box.width / 2 - want.x, box.y + box.height / 2 - want.y);
        worstPx = Math.max(worstPx, d);
        controls++;
      }
    }
    return { controls, worstPx, scales };
  });
}

describe.skipIf(missing !== undefined)(`course check page${missing ? ` (skipped: ${missing})` : ''}`, () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'lb-course-map-browser-'));
    const heartwood = heartwoodShifted(dir);
    sim = await courseSimulator(dir, { 1: ELLENBROOK_XML, 2: CANNOCK_XML, 3: heartwood.service });
    const ellenbrook = editedCopy(ELLENBROOK_XML, dir, 'ellenbrook-edited.xml', ELLENBROOK_EDITS);
    const cannock = editedCopy(CANNOCK_XML, dir, 'cannock-edited.xml', CANNOCK_EDITS);
    [pages.ellenbrook, pages.cannock, pages.same, pages.heartwood] = await Promise.all([
      checkPage(ellenbrook, 1, 'ellenbrook', ['--svg', join(dir, 'ellenbrook-svg')]),
      checkPage(cannock, 2, 'cannock', ['--epsg', '27700']),
      checkPage(ELLENBROOK_XML, 1, 'same'),
      checkPage(heartwood.organiser, 3, 'heartwood'),
    ]);
    pages.fit = fitPage();
    browser = await startBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await sim?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const name of ['ellenbrook', 'cannock', 'fit', 'heartwood', 'same'] as const) {
    for (const width of WIDTHS) {
      it(`${name} at ${width} px: offline, quiet, painted, no overflow, every control where its data says`, async () => {
        // Under a portal's strict policy, as every page kind is (helpers/browser.ts): nothing may be blocked.
        const opened = await browser.open(pages[name]!, { width, policy: STRICT_CSP });
        expect(opened.violations).toEqual([]);
        expect(opened.consoleErrors).toEqual([]);
        expect(opened.requests).toEqual([]);
        expect(await paintedShare(opened.page)).toBeGreaterThan(0.02);
        expect(await horizontalOverflow(opened.page)).toEqual({ documentPx: 0, elements: [] });
        const placed = await misplaced(opened);
        expect(placed.controls).toBeGreaterThan(10);
        expect(placed.worstPx).toBeLessThan(1);
        // The drawings shrink to a phone's width rather than overflow it.
        if (width === 390) for (const s of placed.scales) expect(s).toBeLessThan(0.6);
        if (existsSync(SHOTS)) {
          await opened.page.screenshot({ path: join(SHOTS, `coursepic-${name}-${width}.png`), fullPage: true });
          // The busiest map on its own, at the size a reader sees it: crowded labels and small print show there.
          const busiest = await opened.page.locator('figure').evaluateAll((figures) => {
            const counts = figures.map((f: any) => f.querySelectorAll('g.control').length as number);
            return counts.indexOf(Math.max(...counts));
          });
          await opened.page
            .locator('figure')
            .nth(busiest)
            .screenshot({ path: join(SHOTS, `coursepic-${name}-${width}-map.png`) });
        }
      });
    }
  }

  it("stays whole under a portal's strict content security policy: nothing blocked, the maps drawn as before", async () => {
    // Only the inline stylesheet is let through (the page sets no policy of its own; a portal that embeds it allows
    // its style): no script, image, font or frame may load, and the maps carry their colours as attributes.
    const opened = await browser.open(pages.ellenbrook!, { width: 390, policy: STRICT_CSP });
    expect(opened.violations).toEqual([]);
    expect(opened.consoleErrors).toEqual([]);
    expect(opened.requests).toEqual([]);
    const placed = await misplaced(opened);
    expect(placed.controls).toBeGreaterThan(10);
    expect(placed.worstPx).toBeLessThan(1);
  });

  it('opens a course drawn alone (--svg) as an image of its own: quiet, offline, drawn at its size, the move drawn', async () => {
    const opened = await browser.open(join(dir, 'ellenbrook-svg', 'yellow.svg'));
    expect(opened.consoleErrors).toEqual([]);
    expect(opened.requests).toEqual([]);
    expect(await opened.page.locator('g.control').count()).toBeGreaterThan(10);
    // Drawn at its own size (a full-page screenshot of an SVG document never finishes in Chromium: the element's does).
    const box = await opened.page.locator('svg').first().boundingBox();
    expect(box).toMatchObject({ width: 640 });
    expect(box!.height).toBeGreaterThan(200);
    if (existsSync(SHOTS)) {
      await opened.page
        .locator('svg')
        .first()
        .screenshot({ path: join(SHOTS, 'coursepic-svg-yellow.png'), timeout: 10_000 });
    }
    expect(await opened.page.locator('line.move').getAttribute('data-code')).toBe('104');
    expect(await opened.page.locator('title').first().textContent()).toBe(
      "Course Yellow: the organiser's controls and the service's",
    );
  });

  it('reads the verdict, the moves and the class mismatch off the page', async () => {
    const { page } = await browser.open(pages.cannock!);
    expect(await page.locator('.verdict strong').textContent()).toBe('DIFFERENT');
    expect(await page.locator('.verdict').getAttribute('data-verdict')).toBe('different');
    expect(await page.locator('line.move').evaluateAll((ls) => ls.map((l: any) => l.dataset.code))).toEqual(
      expect.arrayContaining(['103']),
    );
    const row = page.locator('tr.attention');
    expect(await row.count()).toBe(1);
    expect(await row.locator('td').allTextContents()).toEqual([
      'W21E',
      'Green',
      'Blue',
      '⚠ DIFFERENT: another course on the service',
    ]);
    const same = await browser.open(pages.same!);
    expect(await same.page.locator('.verdict strong').textContent()).toBe('SAME');
    expect(await same.page.locator('line.move').count()).toBe(0);
  });

  it('draws the fit the check found on a real file as one shift per map and the three real moves', async () => {
    const { page } = await browser.open(pages.heartwood!);
    const maps = await page.locator('figure svg').count();
    expect(maps).toBeGreaterThan(1);
    expect(await page.locator('g.fit').count()).toBe(maps);
    const codes = await page.locator('line.move').evaluateAll((ls) => ls.map((l: any) => String(l.dataset.code)));
    expect([...new Set(codes)].sort()).toEqual(HEARTWOOD_MOVED);
    expect(await page.locator('.verdict .georeference').textContent()).toMatch(
      /^The whole map is shifted 40 m to the north-east and rotated 0\.3° clockwise: a georeferencing difference/,
    );
  });

  it('draws the fitted shift as one arrow and only the three residual moves per control', async () => {
    const { page } = await browser.open(pages.fit!);
    expect(await page.locator('g.fit').count()).toBe(1);
    expect((await page.locator('line.move').evaluateAll((ls) => ls.map((l: any) => l.dataset.code))).sort()).toEqual([
      '103',
      '106',
      '109',
    ]);
    expect(await page.locator('.verdict .georeference').textContent()).toMatch(/^The whole map is shifted 40 m/);
    // The fit arrow starts at the controls' centre.
    const centre = await page
      .locator('g.fit circle')
      .evaluate((c: any) => [Number(c.getAttribute('cx')), Number(c.getAttribute('cy'))]);
    const svg = readFileSync(pages.fit!, 'utf8');
    const per = Number(/data-metres-per-unit="([\d.e-]+)"/.exec(svg)![1]);
    const drawn = [...svg.matchAll(/data-side="organiser"[^>]*transform="translate\(([-\d.]+) ([-\d.]+)\)"/g)];
    const mean = [0, 1].map((i) => drawn.reduce((s, m) => s + Number(m[i + 1]), 0) / drawn.length);
    expect(Math.hypot(centre[0]! - mean[0]!, centre[1]! - mean[1]!) * per).toBeLessThan(1);
  });
});
