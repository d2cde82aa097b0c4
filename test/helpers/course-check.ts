/**
 * What the course check's picture tests share: a simulator whose events take their courses from course files, organiser
 * copies edited in the test's directory, and the bin run against that simulator.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDataset } from '../../src/simulator/dataset/file.js';
import { startSimulator, type Simulator } from '../../src/simulator/server.js';
import { cleanEnv, runBin, type CliRun } from './cli.js';
import { fixturePath, realdataPath } from './files.js';

/** Ellenbrook as OCAD 11 wrote it (a real export: WGS 84 positions, two courses, no classes). */
export const ELLENBROOK_XML = realdataPath('iof3/rg2_ellenbrook_CourseData_OCAD11.xml');
export const CANNOCK_XML = fixturePath('datasets/cannock-chase.courses.xml');

export type Edit = [string | RegExp, string];

/** Ellenbrook's control 104 about 40 m farther north, and control 108 gone (it was only on Orange). */
export const ELLENBROOK_EDITS: Edit[] = [
  ['<Position lng="-0.263315" lat="51.762568" />', '<Position lng="-0.263315" lat="51.762928" />'],
  [/<Control>\s*<Id>108<\/Id>[\s\S]*?<\/Control>/, ''],
  [/<CourseControl type="Control">\s*<Control>108<\/Control>[\s\S]*?<\/CourseControl>/, ''],
];

/** Cannock's W21E put on Green (the service has it on Blue) and control 103 moved 30 m north. */
export const CANNOCK_EDITS: Edit[] = [
  [
    '<ClassName>W21E</ClassName>\n      <CourseName>Blue</CourseName>',
    '<ClassName>W21E</ClassName>\n      <CourseName>Green</CourseName>',
  ],
  ['lat="52.750795"', 'lat="52.751065"'],
];

/** A copy of `source` in `dir` with `edits` applied; each must apply, or the test would check the original. */
export function editedCopy(source: string, dir: string, name: string, edits: readonly Edit[]): string {
  let xml = readFileSync(source, 'utf8');
  for (const [from, to] of edits) {
    const next = xml.replace(from, to);
    if (next === xml) throw new Error(`edit did not apply: ${String(from)}`);
    xml = next;
  }
  const file = join(dir, name);
  writeFileSync(file, xml);
  return file;
}

/** A simulator serving one event per course file, `{id: file}`. */
export async function courseSimulator(dir: string, events: Record<number, string>): Promise<Simulator> {
  const dataset = await parseDataset(
    {
      formatVersion: 1,
      events: Object.entries(events).map(([id, iofXml]) => ({
        id: Number(id),
        name: `Event ${id}`,
        start: '2025-03-15T10:00:00Z',
        end: '2025-03-15T14:30:00Z',
        organisers: ['Walton Chasers'],
        country: 'GBR',
        courses: { iofXml },
      })),
    },
    dir,
  );
  return startSimulator({ port: 0, dataset });
}

/** `livelox-bridge <args>` against `sim`, with a clean environment whose home is `dir`. */
export function cliAgainst(sim: Simulator, dir: string, args: string[]): Promise<CliRun> {
  return runBin(
    [...args, '--base-url', sim.info.baseUrl, '--auth-url', sim.info.authUrl, '--api-key', sim.info.apiKey],
    cleanEnv(dir),
  );
}
