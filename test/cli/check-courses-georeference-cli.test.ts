/**
 * `livelox-bridge check-courses` telling a georeferencing difference from moved controls, as the built bin against a
 * simulator whose events hold a real course file (Heartwood 2014, Condes) georeferenced differently on purpose.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CourseData, RaceCourseData } from '../../src/iof/model.js';
import { writeCourseData } from '../../src/iof/write-course-data.js';
import { parseDataset } from '../../src/simulator/dataset/file.js';
import { startSimulator, type Simulator } from '../../src/simulator/server.js';
import { cleanEnv, runBin, type CliRun } from '../helpers/cli.js';
import { realdataPath } from '../helpers/files.js';
import { heartwoodDegrees, moveControls, regeoreference, seeded, usedCodes } from '../helpers/georeference.js';

const SHIFTED = 163001;
const SHIFTED_AND_MOVED = 163002;
const MOVED_MANY = 163003;
/** 40 m to the north-east, 0.3° clockwise, 1 m of noise: the case. */
const NE40 = { eastM: 40 * Math.SQRT1_2, northM: 40 * Math.SQRT1_2, rotationDeg: 0.3, noiseM: 1 };

let sim: Simulator;
let dir: string;
let childEnv: Record<string, string>;
/** The organiser's file: Heartwood in WGS 84 degrees. */
let organiserFile: string;

function withRace(data: CourseData, race: RaceCourseData): CourseData {
  return { ...data, races: [race] };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lb-check-georef-cli-'));
  childEnv = cleanEnv(dir);
  const data = heartwoodDegrees();
  const race = data.races[0]!;
  organiserFile = join(dir, 'heartwood.xml');
  writeFileSync(organiserFile, writeCourseData(data));
  const shifted = regeoreference(race, NE40);
  const rand = seeded(5);
  const many = Object.fromEntries(
    usedCodes(race)
      .filter((_, i) => i % 3 === 0)
      .map((c) => [c, [15 + rand() * 45, rand() * 360] as [number, number]]),
  );
  const services: Array<[number, RaceCourseData]> = [
    [SHIFTED, shifted],
    [SHIFTED_AND_MOVED, moveControls(shifted, { '173': [25, 20], '177': [60, 200], '185': [40, 290] })],
    [MOVED_MANY, moveControls(race, many)],
  ];
  for (const [id, r] of services) writeFileSync(join(dir, `${id}.xml`), writeCourseData(withRace(data, r)));
  const dataset = await parseDataset(
    {
      formatVersion: 1,
      events: services.map(([id]) => ({
        id,
        name: `Heartwood ${id}`,
        start: '2014-12-06T10:00:00Z',
        end: '2014-12-06T14:00:00Z',
        organisers: ['Herts Orienteering'],
        country: 'GBR',
        courses: { iofXml: `${id}.xml` },
      })),
    },
    dir,
  );
  sim = await startSimulator({ port: 0, dataset });
});
afterAll(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

function cli(args: string[]): Promise<CliRun> {
  return runBin(
    [...args, '--base-url', sim.info.baseUrl, '--auth-url', sim.info.authUrl, '--api-key', sim.info.apiKey],
    childEnv,
  );
}

/** The lines of the report's group under `heading`, up to the next blank line. */
function group(stdout: string, heading: string): string[] {
  const lines = stdout.split('\n');
  const start = lines.indexOf(heading);
  if (start < 0) return [];
  const end = lines.indexOf('', start);
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

const ONE_DIFFERENCE =
  /^ {2}The whole map is shifted 40 m to the north-east and rotated 0\.3° clockwise: a georeferencing difference, not 35 moved controls\.$/;

describe('check-courses and a georeferencing difference', { timeout: 60_000 }, () => {
  it('reports a file shifted 40 m and rotated 0.3° as one georeferencing difference, not 35 moved controls', async () => {
    const r = await cli(['check-courses', organiserFile, '--event-id', String(SHIFTED)]);
    expect(r.code, r.stderr).toBe(1);
    const lines = group(r.stdout, 'Georeferencing differences (1)');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(ONE_DIFFERENCE);
    expect(r.stdout).not.toMatch(/Moved controls/);
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('DIFFERENT: 1 difference (1 georeferencing difference).');
  });

  it('prints the fit in --json, and the one finding in place of the moved controls', async () => {
    const r = await cli(['check-courses', organiserFile, '--event-id', String(SHIFTED), '--json']);
    expect(r.code, r.stderr).toBe(1);
    const json = JSON.parse(r.stdout);
    expect(json).toMatchObject({ ok: false, verdict: 'different', findings: [{ kind: 'georeference_differs' }] });
    expect(json.findings).toHaveLength(1);
    const g = json.georeference;
    expect(g).toMatchObject({ explains: true, controls: 35, within: 35, residuals: [] });
    expect(Math.abs(g.shiftM - 40)).toBeLessThan(0.5);
    expect(Math.abs(g.shiftBearingDeg - 45)).toBeLessThan(1);
    expect(Math.abs(g.rotationDeg - 0.3)).toBeLessThan(0.03);
    expect(Math.abs(g.scale - 1)).toBeLessThan(1 / 2000);
    expect(json.findings[0].message).toBe(g.message);
  });

  it('reports the shift and exactly the three controls really moved, in text and JSON', async () => {
    const [text, json] = await Promise.all([
      cli(['check-courses', organiserFile, '--event-id', String(SHIFTED_AND_MOVED)]),
      cli(['check-courses', organiserFile, '--event-id', String(SHIFTED_AND_MOVED), '--json']),
    ]);
    expect(text.code, text.stderr).toBe(1);
    expect(group(text.stdout, 'Georeferencing differences (1)')[0]).toMatch(
      /^ {2}The whole map is shifted 40 m to the north-east and rotated 0\.3° clockwise: a georeferencing difference, not 32 moved controls; apart from it, controls 177 \(\d+ m\), 185 \(\d+ m\) and 173 \(\d+ m\) are off\.$/,
    );
    const moved = group(text.stdout, 'Moved controls (3)');
    expect(moved.map((l) => /^ {2}Control (\w+) is/.exec(l)?.[1])).toEqual(['173', '177', '185']);
    expect(moved[0]).toMatch(/once the georeferencing difference is taken out/);
    expect(text.stdout.trimEnd().split('\n').at(-1)).toBe(
      'DIFFERENT: 4 differences (1 georeferencing difference, 3 moved controls).',
    );
    const result = JSON.parse(json.stdout);
    expect(result.georeference.residuals.map((x: { control: string }) => x.control)).toEqual(['177', '185', '173']);
    expect(result.findings.map((f: { kind: string; control?: string }) => f.control ?? f.kind)).toEqual([
      'georeference_differs',
      '173',
      '177',
      '185',
    ]);
  });

  it('never explains many controls moved in different directions away as one shift, and says why', async () => {
    const r = await cli(['check-courses', organiserFile, '--event-id', String(MOVED_MANY)]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).not.toMatch(/Georeferencing difference/);
    const moved = group(r.stdout, 'Moved controls (12)');
    expect(moved).toHaveLength(13);
    expect(moved.at(-1)).toMatch(/^ {2}No (georeferencing difference|one shift, rotation and scale explains)/);
  });

  it('tells the same difference in the service grid (--epsg 27700), and from a file in that grid (--organiser-epsg)', async () => {
    const [grid, condes] = await Promise.all([
      cli(['check-courses', organiserFile, '--event-id', String(SHIFTED), '--epsg', '27700']),
      cli([
        'check-courses',
        realdataPath('iof3/rg2_heartwood_CourseData_Condes9_georef.xml'),
        '--event-id',
        String(SHIFTED),
        '--organiser-epsg',
        '27700',
      ]),
    ]);
    for (const r of [grid, condes]) {
      expect(r.code, r.stderr).toBe(1);
      expect(group(r.stdout, 'Georeferencing differences (1)')[0]).toMatch(ONE_DIFFERENCE);
      expect(r.stdout).not.toMatch(/Moved controls/);
    }
    expect(grid.stdout).toMatch(/positions in EPSG:27700/);
  });
});
