/**
 * What the publish command's tests publish: the real course files of ../shared/realdata (OCAD, Condes, Purple Pen), a
 * generated map image for each covering its paper extent (1 px = 0.1 mm), the georeference options each needs, and
 * ways to read what the simulator holds afterwards.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Simulator } from '../../src/simulator/server.js';
import { realdataPath } from './files.js';
import { pngImage, worldFileText } from './map-images.js';
import { http } from './simulator.js';
import { serviceArgs } from './sync-cli.js';

export interface PublishCase {
  label: string;
  file: string;
  image: { name: string; width: number; height: number };
  /** The georeference options (and the grid of the file's positions) it needs. */
  options: (dir: string) => string[];
  /** What check-courses needs to compare it. */
  checkArgs: string[];
  /** check-courses' verdict on the published event (exit 0 either way). */
  verdict: 'SAME' | 'NOT COMPARED';
}

/** Purple Pen's file has map positions only: a world file in the British grid places it (0.1 mm a pixel at 1:15 000). */
const PURPLE_PEN_WORLD = worldFileText({ a: 1.5, b: 0, c: 300_000, d: 0, e: -1.5, f: 250_000 });

export const PUBLISH_CASES: readonly PublishCase[] = [
  {
    label: 'OCAD',
    file: realdataPath('iof3/rg2_ellenbrook_CourseData_OCAD11.xml'),
    image: { name: 'ellenbrook.png', width: 1521, height: 2230 },
    options: () => [],
    checkArgs: [],
    verdict: 'SAME',
  },
  {
    label: 'Condes',
    file: realdataPath('iof3/rg2_heartwood_CourseData_Condes9_georef.xml'),
    image: { name: 'heartwood.png', width: 2158, height: 1569 },
    // Its positions are British grid metres, not degrees: said, and sent converted.
    options: () => ['--positions-epsg', '27700'],
    checkArgs: ['--organiser-epsg', '27700'],
    verdict: 'SAME',
  },
  {
    label: 'Purple Pen',
    file: realdataPath('iof3/rg2_pwllddu_CourseData_PurplePen353.xml'),
    image: { name: 'pwllddu.png', width: 2306, height: 1847 },
    options: (dir) => ['--world-file', join(dir, 'pwllddu.pgw'), '--map-epsg', '27700'],
    // No geographic positions in the file: positions cannot be compared, the rest is (NOT COMPARED otherwise).
    checkArgs: ['--allow-uncompared'],
    verdict: 'NOT COMPARED',
  },
];

/** Writes every case's map image (and Purple Pen's world file) into `dir`. */
export function writeMapImages(dir: string): void {
  for (const c of PUBLISH_CASES) writeFileSync(join(dir, c.image.name), pngImage(c.image.width, c.image.height));
  writeFileSync(join(dir, 'pwllddu.pgw'), PURPLE_PEN_WORLD);
}

/** `publish` arguments for a case against `sim`, with its state file. */
export function publishArgs(sim: Simulator, c: PublishCase, dir: string, state: string, file = c.file): string[] {
  return ['publish', file, '--map', join(dir, c.image.name), ...c.options(dir), '--state', state, ...serviceArgs(sim)];
}

/** The person's step in the browser, as a test presses it (the control endpoint). */
export async function browserStep(sim: Simulator, id: string): Promise<number> {
  const res = await http('POST', `${sim.info.controlUrl}/importable-events/${encodeURIComponent(id)}/import`);
  if (res.status !== 200) throw new Error(`the browser step failed: ${res.status} ${res.text}`);
  return (res.json() as { eventId: number }).eventId;
}

/** Requests the simulator answered on the Event Integration API since its stats were reset. */
export function importableRequests(sim: Simulator): number {
  const byEndpoint = sim.stats.snapshot().byEndpoint;
  return Object.entries(byEndpoint)
    .filter(([endpoint]) => / \/importableEvents/.test(endpoint))
    .reduce((n, [, statuses]) => n + Object.values(statuses).reduce((a, b) => a + b, 0), 0);
}

/** The importable events the simulator holds: id, files, the event each was imported as. */
export function heldImportableEvents(sim: Simulator): Array<{ id: string; files: string[]; eventId?: number }> {
  return sim.state.importableEvents.list().map((e) => ({
    id: e.id,
    files: [...e.files.keys()].sort(),
    ...(e.importedEventId === undefined ? {} : { eventId: e.importedEventId }),
  }));
}
