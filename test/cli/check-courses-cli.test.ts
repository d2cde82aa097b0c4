/**
 * `livelox-bridge check-courses` as the built bin, against a simulator in this process serving the cannock-chase
 * dataset (an event whose courses come from a course file) over real HTTP.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDatasetFile } from '../../src/simulator/dataset/file.js';
import { startSimulator, type Simulator } from '../../src/simulator/server.js';
import { cleanEnv, runBin, type CliRun } from '../helpers/cli.js';
import { fixturePath } from '../helpers/files.js';

const EVENT = '162001';
const ORIGINAL = fixturePath('datasets/cannock-chase.courses.xml');

let sim: Simulator;
let dir: string;
let childEnv: Record<string, string>;
const runs: CliRun[] = [];

async function cli(args: string[]): Promise<CliRun> {
  const r = await runBin(
    [...args, '--base-url', sim.info.baseUrl, '--auth-url', sim.info.authUrl, '--api-key', sim.info.apiKey],
    childEnv,
  );
  runs.push(r);
  return r;
}

/** A copy of the organiser's file with `edits` applied (each must apply), in the test's directory. */
function copy(name: string, edits: Array<[string, string]> = []): string {
  let xml = readFileSync(ORIGINAL, 'utf8');
  for (const [from, to] of edits) {
    if (!xml.includes(from)) throw new Error(`edit did not apply: ${from}`);
    xml = xml.replace(from, to);
  }
  const file = join(dir, name);
  writeFileSync(file, xml);
  return file;
}

const MOVE_103: [string, string] = ['lat="52.750795"', 'lat="52.751065"'];
const RENAME_YELLOW: [string, string] = ['<Name>Yellow</Name>', '<Name>Yellow 2</Name>'];

beforeAll(async () => {
  sim = await startSimulator({ port: 0, dataset: await loadDatasetFile(fixturePath('datasets/cannock-chase.json')) });
  dir = mkdtempSync(join(tmpdir(), 'lb-check-courses-cli-'));
  childEnv = cleanEnv(dir);
});
afterAll(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('check-courses', { timeout: 60_000 }, () => {
  it('exits 0 and says SAME when the service holds the courses of the file', async () => {
    const r = await cli(['check-courses', ORIGINAL, '--event-id', EVENT]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Courses of event 162001 against .*cannock-chase\.courses\.xml$/m);
    expect(r.stdout).toMatch(/^Organiser {2}.*: IOF 3\.0, valid; 4 courses, 13 controls, 9 classes/m);
    expect(r.stdout).toMatch(/^Service {4}event 162001 on the service: IOF 3\.0, valid; 4 courses/m);
    expect(r.stdout).toMatch(/^Compared {3}positions in WGS 84, controls within 10 m/m);
    expect(r.stdout).toMatch(/^SAME: the service holds the courses of /m);
    expect(r.stdout).not.toMatch(/DIFFERENT/);
  });

  it('exits 1 with the differences grouped by kind in plain words, and a count', async () => {
    const file = copy('edited.xml', [MOVE_103, RENAME_YELLOW]);
    const r = await cli(['check-courses', file, '--event-id', EVENT]);
    expect(r.code, r.stderr).toBe(1);
    const lines = r.stdout.trimEnd().split('\n');
    const group = (heading: string) => lines.slice(lines.indexOf(heading) + 1, lines.indexOf(heading) + 2);
    expect(group('Moved controls (1)')).toEqual([
      "  Control 103 is 30 m from where the organiser's file puts it (tolerance 10 m).",
    ]);
    expect(group('Courses missing on the service (1)')).toEqual([
      "  Course Yellow 2 is in the organiser's file but not on the service.",
    ]);
    expect(group("Courses missing in the organiser's file (1)")).toEqual([
      "  Course Yellow is on the service but not in the organiser's file.",
    ]);
    expect(lines.at(-1)).toBe(
      "DIFFERENT: 3 differences (1 course missing on the service, 1 course missing in the organiser's file, 1 moved control).",
    );
  });

  it('takes the tolerance from --tolerance-m', async () => {
    const file = copy('moved.xml', [MOVE_103]);
    const r = await cli(['check-courses', file, '--event-id', EVENT, '--tolerance-m', '35']);
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toMatch(/controls within 35 m/);
  });

  it('lists the schema errors of a file that is not valid with their lines, and exits 1', async () => {
    const file = copy('invalid.xml', [['<Climb>85</Climb>', '<Climb>85</Climb><Colour>brown</Colour>']]);
    const line =
      readFileSync(file, 'utf8')
        .split('\n')
        .findIndex((l) => l.includes('<Colour>')) + 1;
    const r = await cli(['check-courses', file, '--event-id', EVENT]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^Organiser {2}.*: IOF 3\.0, NOT VALID;/m);
    expect(r.stdout).toContain('Files not valid against the IOF schema (1)');
    expect(r.stdout).toContain("  The organiser's file is not valid against the IOF XML 3.0 schema: one error.");
    expect(r.stdout).toMatch(new RegExp(`^ {4}.*invalid\\.xml:${line}: Element 'Colour'`, 'm'));
  });

  it('prints the result as one JSON document with --json, ok being whether they are the same', async () => {
    const same = await cli(['check-courses', ORIGINAL, '--event-id', EVENT, '--json']);
    expect(same.code).toBe(0);
    const a = JSON.parse(same.stdout);
    expect(Object.keys(a)).toEqual([
      'ok',
      'same',
      'verdict',
      'notCompared',
      'positions',
      'schema',
      'eventId',
      'organiser',
      'service',
      'comparedIn',
      'positionsCompared',
      'georeference',
      'tolerances',
      'findings',
      'notes',
    ]);
    expect(a).toMatchObject({ ok: true, same: true, eventId: 162001, findings: [], notes: [], notCompared: [] });
    expect(a.schema).toEqual({ status: 'checked' });
    expect(a.organiser).toMatchObject({ valid: true, checked: 'xsd', iofVersion: '3.0', races: 1, race: { index: 1 } });
    expect(a.tolerances).toEqual({ controlM: 10, lengthM: 10, lengthRatio: 0.01, climbM: 5 });

    const edited = await cli(['check-courses', copy('edited-json.xml', [MOVE_103]), '--event-id', EVENT, '--json']);
    expect(edited.code).toBe(1);
    const b = JSON.parse(edited.stdout);
    expect(b).toMatchObject({ ok: false, same: false });
    expect(b.findings).toHaveLength(1);
    expect(b.findings[0]).toMatchObject({ kind: 'control_moved', control: '103', toleranceM: 10 });
    expect(b.findings[0].distanceM).toBeCloseTo(30, 0);
    expect(b.findings[0].organiser).toEqual({ lat: 52.751065, lng: -1.972757 });
  });

  it('says NOT COMPARED and exits 1 when no position could be compared, and exits 0 only when told to allow it', async () => {
    const file = join(dir, 'no-positions.xml');
    writeFileSync(file, readFileSync(ORIGINAL, 'utf8').replace(/<Position [^>]*\/>/g, ''));
    const [human, json, allowed] = await Promise.all([
      cli(['check-courses', file, '--event-id', EVENT]),
      cli(['check-courses', file, '--event-id', EVENT, '--json']),
      cli(['check-courses', file, '--event-id', EVENT, '--allow-uncompared']),
    ]);
    expect(human.code, human.stderr).toBe(1);
    expect(human.stdout).toMatch(/^NOT COMPARED: /m);
    expect(human.stdout).not.toMatch(/^SAME/m);
    expect(JSON.parse(json.stdout)).toMatchObject({
      ok: false,
      same: false,
      verdict: 'not_compared',
      positions: { status: 'not_compared', reason: 'no_positions' },
    });
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(allowed.stdout).toMatch(/^NOT COMPARED: /m);
  });

  it('compares in British National Grid with --epsg 27700', async () => {
    const r = await cli(['check-courses', copy('moved-bng.xml', [MOVE_103]), '--event-id', EVENT, '--epsg', '27700']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/positions in EPSG:27700 \(OSGB36 \/ British National Grid\)/);
    expect(r.stdout).toContain('Control 103 is 30 m');
  });

  it.each([
    [['check-courses', '--event-id', EVENT], /takes one course file, got none/],
    [['check-courses', ORIGINAL], /needs --event-id N/],
    [['check-courses', ORIGINAL, '--event-id', 'abc'], /--event-id is a positive whole number/],
    [['check-courses', ORIGINAL, '--event-id', EVENT, '--tolerance-m', 'far'], /--tolerance-m takes a number/],
    [['check-courses', ORIGINAL, '--event-id', EVENT, '--epsg', '12'], /--epsg: EPSG:12 is not a built-in projection/],
    [['check-courses', ORIGINAL, '--event-id', EVENT, '--organiser-epsg', 'grid'], /--organiser-epsg: "grid"/],
    [['check-courses', ORIGINAL, '--event-id', EVENT, '--race', '2'], /--race: .*not race 2/],
  ])('exits 2 for a command line that does not make sense: %j', async (args, message) => {
    const r = await cli(args);
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).toContain('See livelox-bridge check-courses --help.');
  });

  it('exits 1 naming a file that is not there, or not XML, and says what to give', async () => {
    const missing = await cli(['check-courses', join(dir, 'nowhere.xml'), '--event-id', EVENT]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^livelox-bridge check-courses: cannot read .*nowhere\.xml: no such file$/m);

    const text = join(dir, 'notes.xml');
    writeFileSync(text, 'these are my notes, not a course file\n');
    const notXml = await cli(['check-courses', text, '--event-id', EVENT]);
    expect(notXml.code).toBe(1);
    expect(notXml.stderr).toMatch(/notes\.xml:1:1: not well-formed XML/);
    expect(notXml.stderr).toMatch(/IOF XML CourseData, version 3\.0 or 2\.0\.3/);

    const json = await cli(['check-courses', text, '--event-id', EVENT, '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', reason: 'not_well_formed' },
    });
  });

  it('exits 1 for an event the service does not have, saying so', async () => {
    const r = await cli(['check-courses', ORIGINAL, '--event-id', '999999']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/no event has the id 999999/);
  });

  it('exits 1 for a key without course access or a wrong key, saying why and printing neither key', async () => {
    const base = ['check-courses', ORIGINAL, '--event-id', EVENT, '--base-url', sim.info.baseUrl];
    const limited = await runBin([...base, '--api-key', sim.info.limitedApiKey], childEnv);
    expect(limited.code).toBe(1);
    expect(limited.stderr).toMatch(/courses\.read/);
    const wrong = await runBin([...base, '--api-key', 'sim_wrong_SECRET_4711'], childEnv);
    expect(wrong.code).toBe(1);
    for (const r of [limited, wrong]) {
      expect(r.stdout + r.stderr).not.toContain(sim.info.limitedApiKey);
      expect(r.stdout + r.stderr).not.toContain('SECRET_4711');
    }
  });

  it('says NOT PUBLISHED with what the service says of the event, not every course missing, and exits 1', async () => {
    // An event whose courses are still secret, made through the simulator's control API as a test fleet would.
    const created = await fetch(`${sim.info.controlUrl}/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'WCH Autumn Middle',
        start: '2026-10-03T09:00:00Z',
        end: '2026-10-03T13:00:00Z',
        countryCode: 'GBR',
        organisers: ['Walton Chasers'],
        classes: ['M21L', 'W21L'],
        isPublished: false,
      }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number };
    const r = await cli(['check-courses', ORIGINAL, '--event-id', String(id), '--allow-uncompared']);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(
      new RegExp(
        `^NOT PUBLISHED: The service shows no courses for event ${id} yet: the event is not published .*The event runs from 2026-10-03T09:00:00Z to 2026-10-03T13:00:00Z on the service\\.`,
        'm',
      ),
    );
    expect(r.stdout).not.toMatch(/DIFFERENT|Courses missing on the service/);
    const json = await cli(['check-courses', ORIGINAL, '--event-id', String(id), '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({
      ok: false,
      verdict: 'not_published',
      findings: [],
      publication: { isPublished: false, hasValidMapAndCourses: false, start: '2026-10-03T09:00:00Z' },
    });
  });

  it('is listed in the main help', async () => {
    const r = await runBin(['--help'], childEnv);
    expect(r.stdout).toMatch(/check-courses/);
  });

  it('never prints the API key', () => {
    expect(runs.length).toBeGreaterThan(5);
    for (const r of runs) expect(r.stdout + r.stderr).not.toContain(sim.info.apiKey);
  });
});
