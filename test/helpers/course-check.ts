/**
 * What the course check's picture tests share: a simulator whose events take their courses from course files, organiser
 * copies edited in the test's directory, and the bin run against that simulator.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeCourseData } from '../../src/iof/write-course-data.js';
import { parseDataset } from '../../src/simulator/dataset/file.js';
import { startSimulator, type Simulator } from '../../src/simulator/server.js';
import { cleanEnv, runBin, type CliRun } from './cli.js';
import { fixturePath, realdataPath } from './files.js';
import { heartwoodDegrees, moveControls, regeoreference } from './georeference.js';

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

/** The three controls `heartwoodShifted` really moves on top of the shift. */
export const HEARTWOOD_MOVED = ['173', '177', '185'];

/**
 * Heartwood 2014 (a real Condes file, 64 controls) written twice into `dir`: as the organiser has it
 * (`heartwood.xml`, WGS 84 degrees), and as a service georeferenced it 40 m to the north-east and 0.3° clockwise
 * with 1 m of noise, with three controls really moved on top (`heartwood-shifted.xml`). Returns both paths.
 */
export function heartwoodShifted(dir: string): { organiser: string; service: string } {
  const data = heartwoodDegrees();
  const race = data.races[0]!;
  const shifted = regeoreference(race, {
    eastM: 40 * Math.SQRT1_2,
    northM: 40 * Math.SQRT1_2,
    rotationDeg: 0.3,
    noiseM: 1,
  });
  const moved = moveControls(shifted, { '173': [25, 20], '177': [60, 200], '185': [40, 290] });
  const organiser = join(dir, 'heartwood.xml');
  const service = join(dir, 'heartwood-shifted.xml');
  writeFileSync(organiser, writeCourseData(data));
  writeFileSync(service, writeCourseData({ ...data, races: [moved] }));
  return { organiser, service };
}
