/**
 * `check-courses --html FILE` and `--svg DIR` as the built bin, against a simulator whose events take their courses
 * from course files: a real OCAD export (Ellenbrook, from ../shared/realdata) and the cannock-chase fixture. The
 * organiser's files are copies edited here, so every mark on the map is one the test made.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localPlane } from '../../src/geo/local-plane.js';
import { getProjection } from '../../src/geo/projection.js';
import type { Simulator } from '../../src/simulator/server.js';
import type { CliRun } from '../helpers/cli.js';
import { fillDisk, mountSmallDisk, unmountSmallDisk } from '../helpers/small-disk.js';
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
  type Edit,
} from '../helpers/course-check.js';

const ELLENBROOK = 162101;
const CANNOCK = 162102;
const HEARTWOOD = 162103;

let sim: Simulator;
let dir: string;
let heartwood: { organiser: string; service: string };

function cli(args: string[]): Promise<CliRun> {
  return cliAgainst(sim, dir, args);
}

function copy(source: string, name: string, edits: Edit[]): string {
  return editedCopy(source, dir, name, edits);
}

/** Ellenbrook as the organiser has it now: control 104 moved about 40 m north, control 108 gone from Orange. */
function ellenbrookEdited(): string {
  return copy(ELLENBROOK_XML, 'ellenbrook-edited.xml', ELLENBROOK_EDITS);
}

/** Text as it reads in a browser: the page escapes with numeric references (`&#39;`). */
function unescaped(html: string): string {
  return html.replace(/&#(\d+);/g, (_, c: string) => String.fromCharCode(Number(c)));
}

/** The drawn controls of one SVG, as data: code, side, plane position, and where it is drawn. */
function drawnControls(
  svg: string,
): Array<{ code: string; side: string; x: number; y: number; sx: number; sy: number }> {
  const re =
    /<g class="control" data-code="([^"]+)" data-side="(\w+)" data-kind="\w+" data-x-m="([-\d.]+)" data-y-m="([-\d.]+)" transform="translate\(([-\d.]+) ([-\d.]+)\)">/g;
  return [...svg.matchAll(re)].map((m) => ({
    code: m[1]!,
    side: m[2]!,
    x: Number(m[3]),
    y: Number(m[4]),
    sx: Number(m[5]),
    sy: Number(m[6]),
  }));
}

/** A 1 MiB disk for the full-disk case, mounted when it can be (root). */
let smallDisk: string;
let FULL_DISK_SKIP: string | undefined;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lb-check-courses-pictures-'));
  smallDisk = join(dir, 'small-disk');
  mkdirSync(smallDisk);
  FULL_DISK_SKIP = mountSmallDisk(smallDisk, '1m');
  heartwood = heartwoodShifted(dir);
  sim = await courseSimulator(dir, {
    [ELLENBROOK]: ELLENBROOK_XML,
    [CANNOCK]: CANNOCK_XML,
    [HEARTWOOD]: heartwood.service,
  });
});
afterAll(async () => {
  if (FULL_DISK_SKIP === undefined) unmountSmallDisk(smallDisk);
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('check-courses --html and --svg', { timeout: 60_000 }, () => {
  it('draws a real course file with a moved and a missing control: arrow, distance, the side that has it', async () => {
    const html = join(dir, 'ellenbrook.html');
    const svgDir = join(dir, 'ellenbrook-svg');
    const r = await cli([
      'check-courses',
      ellenbrookEdited(),
      '--event-id',
      String(ELLENBROOK),
      '--html',
      html,
      '--svg',
      svgDir,
    ]);
    expect(r.code, r.stderr).toBe(1);
    const page = unescaped(readFileSync(html, 'utf8'));
    // The verdict in the text's words, and the text report itself below the maps.
    const verdictLine = r.stdout.trimEnd().split('\n').at(-1)!;
    expect(verdictLine).toMatch(/^DIFFERENT: /);
    expect(page).toContain(`<strong>DIFFERENT</strong>: ${verdictLine.slice('DIFFERENT: '.length)}`);
    expect(page).toContain('<li data-count="1">1 moved control</li>');
    expect(page).toContain("1 control missing in the organiser's file");
    const report = /<pre class="report">([\s\S]*?)<\/pre>/.exec(page)![1]!;
    expect(report).toBe(r.stdout.trimEnd());

    expect(readdirSync(svgDir).sort()).toEqual(['orange.svg', 'yellow.svg']);
    const yellow = readFileSync(join(svgDir, 'yellow.svg'), 'utf8');
    expect(yellow).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    // 104 moved: one arrow, labelled with the distance the text report gives.
    const distance = /Control 104 is (\d+) m from where/.exec(r.stdout)![1]!;
    expect(yellow).toMatch(/<line class="move" data-code="104"/);
    expect(yellow).toMatch(new RegExp(`>${distance}(\\.\\d)? m</text>`));
    expect(yellow.match(/class="move"/g)).toHaveLength(1);
    // 108 is only on the service's Orange: drawn on the service's side, and said so.
    const orange = readFileSync(join(svgDir, 'orange.svg'), 'utf8');
    const c108 = drawnControls(orange).filter((c) => c.code === '108');
    expect(c108.map((c) => c.side)).toEqual(['service']);
    expect(orange).toContain('108 (not in organiser&#39;s file)');
    // The page holds the same drawings.
    expect(page.match(/<svg /g)).toHaveLength(2);
    // Each file's ids are its own, so that a portal can inline both drawings into one page.
    const ids = (svg: string) => [...svg.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]!);
    expect(ids(yellow).length).toBeGreaterThan(0);
    expect(ids(yellow).filter((id) => ids(orange).includes(id))).toEqual([]);
    expect(yellow).toContain('url(#course-yellow-');
  });

  it('puts each control where its position projects in the local plane', async () => {
    const svgDir = join(dir, 'positions-svg');
    const r = await cli(['check-courses', ELLENBROOK_XML, '--event-id', String(ELLENBROOK), '--svg', svgDir]);
    expect(r.code, r.stderr).toBe(0);
    const xml = readFileSync(ELLENBROOK_XML, 'utf8');
    const positions = new Map(
      [...xml.matchAll(/<Id>(\w+)<\/Id>\s*<Position lng="([-\d.]+)" lat="([-\d.]+)"/g)].map((m) => [
        m[1]!,
        { lat: Number(m[3]), lng: Number(m[2]) },
      ]),
    );
    // Both sides hold the same positions: the plane is centred on all of them, twice each.
    const plane = localPlane([...positions.values(), ...positions.values()]);
    const svg = readFileSync(join(svgDir, 'yellow.svg'), 'utf8');
    const perUnit = Number(/data-metres-per-unit="([\d.e-]+)"/.exec(svg)![1]);
    const ox = Number(/data-origin-x-m="([-\d.]+)"/.exec(svg)![1]);
    const oy = Number(/data-origin-y-m="([-\d.]+)"/.exec(svg)![1]);
    const drawn = drawnControls(svg);
    expect(drawn.length).toBeGreaterThan(10);
    for (const c of drawn) {
      const p = plane.toPlane(positions.get(c.code)!);
      expect(c.x).toBeCloseTo(p.x, 1);
      expect(c.y).toBeCloseTo(p.y, 1);
      expect(c.sx).toBeCloseTo((p.x - ox) / perUnit, 0);
      expect(c.sy).toBeCloseTo((oy - p.y) / perUnit, 0);
    }
    expect(svg).not.toContain('class="move"');
  });

  it("draws in the service's grid with --epsg, and marks the class whose course changed in words", async () => {
    const file = copy(CANNOCK_XML, 'cannock-classes.xml', CANNOCK_EDITS);
    const html = join(dir, 'cannock.html');
    const r = await cli([
      'check-courses',
      file,
      '--event-id',
      String(CANNOCK),
      '--epsg',
      '27700',
      '--html',
      html,
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(1);
    expect(JSON.parse(r.stdout).pictures).toEqual({ html });
    const page = readFileSync(html, 'utf8');
    expect(page).toContain('Positions in EPSG:27700');
    const row =
      /<tr class="attention" data-status="changed"><td>W21E<\/td><td>Green<\/td><td>Blue<\/td><td class="status">⚠ DIFFERENT: another course on the service<\/td><\/tr>/;
    expect(page).toMatch(row);
    expect(page).toMatch(/<tr data-status="same"><td>M21E<\/td><td>Brown<\/td><td>Brown<\/td>/);
    // 103 moved 30 m north, measured in the grid: the service's square sits where the grid puts its position.
    const bng = getProjection(27700);
    const svc = bng.forward({ lat: 52.750795, lng: -1.972757 });
    const drawn = drawnControls(page).find((c) => c.code === '103' && c.side === 'service')!;
    expect(drawn.x).toBeCloseTo(svc.easting, 0);
    expect(drawn.y).toBeCloseTo(svc.northing, 0);
  });

  it('names the SVG files after the courses, safely and never two alike', async () => {
    const file = copy(CANNOCK_XML, 'cannock-names.xml', [
      ['<Name>Yellow</Name>', '<Name>Con</Name>'],
      ['<Name>Green</Name>', '<Name>../Brown</Name>'],
    ]);
    const svgDir = join(dir, 'names-svg');
    const r = await cli(['check-courses', file, '--event-id', String(CANNOCK), '--svg', svgDir]);
    expect(r.code, r.stderr).toBe(1);
    const names = readdirSync(svgDir).sort();
    // The organiser's courses first, then the service's own (Yellow and Green are only on the service now).
    expect(names).toEqual(['blue.svg', 'brown-2.svg', 'brown.svg', 'con-.svg', 'green.svg', 'yellow.svg']);
    expect(existsSync(join(dir, 'Brown.svg'))).toBe(false);
  });

  it('draws the organiser side only, without calling every control missing, when the service shows no courses yet', async () => {
    const created = await fetch(`${sim.info.controlUrl}/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Ellenbrook Night',
        start: '2026-10-03T18:00:00Z',
        end: '2026-10-03T21:00:00Z',
        countryCode: 'GBR',
        organisers: ['Walton Chasers'],
        classes: ['Long'],
        isPublished: false,
      }),
    });
    const { id } = (await created.json()) as { id: number };
    const html = join(dir, 'unpublished.html');
    const r = await cli(['check-courses', ELLENBROOK_XML, '--event-id', String(id), '--html', html]);
    expect(r.code, r.stderr).toBe(1);
    const page = unescaped(readFileSync(html, 'utf8'));
    expect(page).toContain(
      '<section class="verdict warn" data-verdict="not_published"><strong>NOT PUBLISHED</strong>: ',
    );
    expect(page).toContain("The service has no such course: only the organiser's side is drawn.");
    expect(page).not.toContain('(not on the service)');
    expect(drawnControls(page).every((c) => c.side === 'organiser')).toBe(true);
  });

  it('draws a georeferencing difference as one shift per map, and only the three real moves as arrows', async () => {
    const html = join(dir, 'heartwood.html');
    const svgDir = join(dir, 'heartwood-svg');
    const r = await cli([
      'check-courses',
      heartwood.organiser,
      '--event-id',
      String(HEARTWOOD),
      '--html',
      html,
      '--svg',
      svgDir,
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(1);
    const result = JSON.parse(r.stdout);
    expect(result.georeference.explains).toBe(true);
    const page = unescaped(readFileSync(html, 'utf8'));
    expect(page).toContain(`<p class="georeference">${result.georeference.message}</p>`);
    expect(page).toContain('<li data-count="1">1 georeferencing difference</li>');
    expect(page).toContain('<li data-count="3">3 moved controls</li>');
    const files = readdirSync(svgDir);
    expect(files.length).toBe(result.organiser.courses);
    const arrows = new Set<string>();
    for (const file of files) {
      const svg = readFileSync(join(svgDir, file), 'utf8');
      expect(svg.match(/<g class="fit">/g), file).toHaveLength(1);
      for (const m of svg.matchAll(/<line class="move" data-code="(\w+)"/g)) arrows.add(m[1]!);
    }
    expect([...arrows].sort()).toEqual(HEARTWOOD_MOVED);
    // Each residual arrow is labelled with the distance the report gives for it after the shift.
    for (const f of result.findings.filter((x: { kind: string }) => x.kind === 'control_moved')) {
      expect(page).toMatch(new RegExp(`data-code="${f.control}"[^]*?>${f.distanceM} m</text>`));
    }
  });

  it('says why it cannot write the page when its folder does not exist', async () => {
    const r = await cli([
      'check-courses',
      ELLENBROOK_XML,
      '--event-id',
      String(ELLENBROOK),
      '--html',
      join(dir, 'no-such-dir', 'page.html'),
    ]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/cannot write .*no-such-dir\/page\.html: ENOENT/);
  });

  it(`on a full disk keeps the earlier page whole and leaves no temporary file${FULL_DISK_SKIP === undefined ? '' : ` (skipped: ${FULL_DISK_SKIP})`}`, async (ctx) => {
    if (FULL_DISK_SKIP !== undefined) ctx.skip();
    const page = join(smallDisk, 'page.html');
    const first = await cli(['check-courses', ELLENBROOK_XML, '--event-id', String(ELLENBROOK), '--html', page]);
    expect(first.code, first.stderr).toBe(0);
    const before = readFileSync(page);
    // Room for a few bytes, not for a page: the edited file's page (maps, arrows, the report) is larger still.
    fillDisk(smallDisk, 512, 'filler');
    const r = await cli(['check-courses', ellenbrookEdited(), '--event-id', String(ELLENBROOK), '--html', page]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/cannot write .*page\.html: ENOSPC/);
    expect(readFileSync(page).equals(before)).toBe(true);
    expect(readdirSync(smallDisk).sort()).toEqual(['filler', 'page.html']);
  });
});
