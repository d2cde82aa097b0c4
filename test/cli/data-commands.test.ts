/**
 * The data commands (events, event, countries, courses, import, status) run as the built bin against a simulator in
 * this process, over real HTTP. Addresses and key are given as flags, and once through the environment.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeGpx } from '../../src/gps/write.js';
import { countryName } from '../../src/simulator/countries.js';
import type { SimEvent } from '../../src/simulator/model.js';
import { overlaps } from '../../src/simulator/search.js';
import { startSimulator, type Simulator } from '../../src/simulator/server.js';
import { cleanEnv, runBin, type CliRun } from '../helpers/cli.js';
import { routableEvents, runCourse } from '../helpers/tracks.js';

type Run = CliRun;

let sim: Simulator;
let dir: string;
let childEnv: Record<string, string>;

function cli(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return runBin(args, { ...childEnv, ...env });
}

/** Flags pointing the bin at the test's simulator. */
function at(key = sim.info.apiKey): string[] {
  return [
    '--base-url',
    sim.info.baseUrl,
    '--auth-url',
    sim.info.authUrl,
    '--viewer-url',
    sim.info.viewerUrl,
    '--api-key',
    key,
  ];
}

/** The line of a table whose first cell is `first`. */
function row(stdout: string, first: string | number): string | undefined {
  return stdout.split('\n').find((l) => l.trim().split(/\s+/)[0] === String(first));
}

const FROM = '2026-05-01T00:00:00Z';
const TO = '2026-06-01T00:00:00Z';

/** What GET /events should answer for [FROM, TO), in start order. */
function expectedEvents(filter: (e: SimEvent) => boolean = () => true): SimEvent[] {
  return sim.state.dataset.events
    .filter((e) => overlaps(e, Date.parse(FROM), Date.parse(TO)) && filter(e))
    .sort((a, b) => a.startMs - b.startMs || a.id - b.id);
}

beforeAll(async () => {
  sim = await startSimulator({ port: 0, importDelayMs: 300 });
  dir = mkdtempSync(join(tmpdir(), 'lb-data-cli-'));
  childEnv = cleanEnv(dir);
});
afterAll(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('events', { timeout: 60_000 }, () => {
  it('prints a table with a row per event of the window: id, date, country, name, classes, flags', async () => {
    const expected = expectedEvents();
    expect(expected.length).toBeGreaterThan(2);
    const r = await cli(['events', '--from', '2026-05-01', '--to', '2026-06-01', ...at()]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[0]).toMatch(/^\s*id\s+date\s+country\s+name\s+organisers\s+classes\s+flags$/);
    for (const e of expected) {
      const line = row(r.stdout, e.id);
      expect(line, `row of event ${e.id}`).toBeDefined();
      expect(line).toContain(new Date(e.startMs).toISOString().slice(0, 10));
      expect(line).toContain(` ${e.countryCode} `);
      expect(line).toContain(e.name);
      const flags = `${e.isSearchable ? 'S' : '-'}${e.isPublished ? 'P' : '-'}${e.hasValidMapAndCourses ? 'V' : '-'}`;
      expect(line).toMatch(new RegExp(`\\s${e.classes.length}\\s+${flags.replace(/-/g, '\\-')}$`));
    }
    expect(r.stdout).toContain(`${expected.length} events;`);
  });

  it('prints the events as JSON, as the simulator holds them, and converts dates with an offset to UTC', async () => {
    const expected = expectedEvents();
    const [plain, offset] = await Promise.all([
      cli(['events', '--from', FROM, '--to', TO, '--json', ...at()]),
      cli(['events', '--from', '2026-05-01T02:00:00+02:00', '--to', '2026-05-31T20:00:00-04:00', '--json', ...at()]),
    ]);
    expect(plain.code, plain.stderr).toBe(0);
    const list = JSON.parse(plain.stdout).events;
    expect(list.map((e: any) => e.id)).toEqual(expected.map((e) => e.id));
    for (const [i, e] of expected.entries()) {
      expect(list[i]).toMatchObject({
        id: e.id,
        name: e.name,
        country: { code: e.countryCode },
        participantCount: e.participantCount,
        classes: e.classes.map((c) => expect.objectContaining({ id: c.id, name: c.name })),
      });
    }
    expect(offset.code, offset.stderr).toBe(0);
    expect(JSON.parse(offset.stdout).events).toEqual(list);
  });

  it('resolves --country from a code, a name, a local name, an ISO numeric code or the internal id', async () => {
    const swe = sim.state.countriesByCode.get('SWE')!;
    const expected = expectedEvents((e) => e.countryCode === 'SWE').map((e) => e.id);
    expect(expected.length).toBeGreaterThan(0);
    const runs = await Promise.all(
      [['SWE'], ['SE'], ['Sweden'], ['Sverige', '--culture', 'sv-SE'], ['752'], [String(swe.id)]].map((country) =>
        cli(['events', '--from', FROM, '--to', TO, '--country', ...country, '--json', ...at()]),
      ),
    );
    for (const r of runs) {
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).events.map((e: any) => e.id)).toEqual(expected);
    }
  });

  it('passes the flags, sorting and include switches to the search', async () => {
    const r = await cli([
      'events',
      '--from',
      FROM,
      '--to',
      TO,
      '--only-valid',
      '--no-classes',
      '--no-properties',
      '--sort',
      'participantcount:descending',
      '--json',
      ...at(),
    ]);
    expect(r.code, r.stderr).toBe(0);
    const list = JSON.parse(r.stdout).events;
    expect(list.map((e: any) => e.id).sort()).toEqual(
      expectedEvents((e) => e.hasValidMapAndCourses)
        .map((e) => e.id)
        .sort(),
    );
    expect(list.every((e: any) => e.classes === undefined && e.properties === undefined)).toBe(true);
    const counts = list.map((e: any) => e.participantCount);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
  });

  it('streams every page with --all, with progress on stderr, as one JSON array or as JSON lines', async () => {
    const all = sim.state.dataset.events.length;
    const [array, lines, limited] = await Promise.all([
      cli(['events', '--from', '2020-01-01', '--all', '--page-size', '100', '--json', ...at()]),
      cli(['events', '--from', '2020-01-01', '--all', '--page-size', '100', '--jsonl', ...at()]),
      cli(['events', '--from', '2020-01-01', '--all', '--limit', '7', '--json', ...at()]),
    ]);
    expect(array.code, array.stderr).toBe(0);
    const events = JSON.parse(array.stdout).events;
    expect(events).toHaveLength(all);
    expect(new Set(events.map((e: any) => e.id)).size).toBe(all);
    expect(array.stderr).toContain('fetched 100 events…');
    expect(array.stderr).toContain(`fetched ${all} events.`);
    expect(lines.code, lines.stderr).toBe(0);
    const parsed = lines.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(parsed.map((e) => e.id)).toEqual(events.map((e: any) => e.id));
    expect(limited.code, limited.stderr).toBe(0);
    expect(JSON.parse(limited.stdout).events.map((e: any) => e.id)).toEqual(events.slice(0, 7).map((e: any) => e.id));
  });

  it('reads the base URL and the key from LIVELOX_BASE_URL and LIVELOX_API_KEY; a flag wins over the environment', async () => {
    const env = { LIVELOX_BASE_URL: sim.info.baseUrl, LIVELOX_API_KEY: sim.info.apiKey };
    const [fromEnv, flagWins, flagWrong] = await Promise.all([
      cli(['events', '--from', FROM, '--to', TO, '--json'], env),
      cli(['events', '--from', FROM, '--to', TO, '--json', '--api-key', sim.info.apiKey], {
        ...env,
        LIVELOX_API_KEY: 'not-the-key-0000',
      }),
      cli(['events', '--from', FROM, '--to', TO, '--api-key', 'not-the-key-0000'], env),
    ]);
    const ids = expectedEvents().map((e) => e.id);
    expect(fromEnv.code, fromEnv.stderr).toBe(0);
    expect(JSON.parse(fromEnv.stdout).events.map((e: any) => e.id)).toEqual(ids);
    expect(flagWins.code, flagWins.stderr).toBe(0);
    expect(JSON.parse(flagWins.stdout).events.map((e: any) => e.id)).toEqual(ids);
    expect(flagWrong.code).toBe(1);
    expect(flagWrong.stderr).toMatch(/Not authorized \(403\)/);
  });

  it.concurrent.each([
    [['--from', '2025-13-01'], /--from takes a date such as 2025-05-01/],
    [['--from', '2025-02-30'], /no such day/],
    [['--from', '2025-05-01T08:00'], /a time needs Z or an offset/],
    [['--near', '59.3,18.0'], /--near takes LAT,LNG,RADIUS_M/],
    [['--box', '59,60,17'], /--box takes S,N,W,E/],
    [['--from', '2025-05-01', '--page', '1'], /--page needs --page-size/],
    [['--from', '2025-05-01', '--sort', 'fastest'], /--sort takes time\|duration\|distance\|participantcount/],
    [['--from', '2025-05-01', '--culture', 'not a culture'], /--culture takes a language code/],
    [[], /give at least one of --from, --to, --modified-since, --near, --box/],
    [['--from', '2025-05-01', '--sort', 'distance'], /--sort: distance sorting needs a geo search/],
    [['--from', '2025-05-02', '--to', '2025-05-01'], /--to: is not later than from/],
    [['--from', '2025-05-01', '--country', 'Atlantis'], /--country: 'Atlantis' is not a country/],
  ])('exits 2 with a usage message for events %j', async (args, message) => {
    const r = await cli(['events', ...args, ...at()]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).toContain('See livelox-bridge events --help.');
    expect(r.stdout).toBe('');
  });

  it('lists every broken rule of a search at once', async () => {
    const r = await cli(['events', '--near', '91,200,-5', '--from', '2025-05-02', ...at()]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('the search is not valid:\n');
    expect(r.stderr).toMatch(/^ {2}--near \(latitude\): 91 is outside -90..90$/m);
    expect(r.stderr).toMatch(/^ {2}--near \(longitude\): 200 is outside -180..180$/m);
    expect(r.stderr).toMatch(/^ {2}--near \(radius\): -5 is outside 0..\d+$/m);
  });

  it('reports a usage error as JSON on stdout with --json', async () => {
    const r = await cli(['events', '--near', '1,2', '--json', ...at()]);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: false, error: { code: 'usage' } });
  });
});

describe('event', { timeout: 60_000 }, () => {
  it('shows the details and every class with its viewer url', async () => {
    const e = routableEvents(sim.state.dataset.events)[0]!;
    const r = await cli(['event', String(e.id), ...at()]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe(`Event ${e.id}  ${e.name}`);
    expect(r.stdout).toMatch(
      new RegExp(
        `Country\\s+${countryName(sim.state.countriesByCode.get(e.countryCode)!, 'en-US')} \\(${e.countryCode}\\)`,
      ),
    );
    expect(r.stdout).toContain(`Classes (${e.classes.length})`);
    for (const c of e.classes) {
      const line = row(r.stdout, c.id);
      expect(line, `class ${c.id}`).toContain(c.name);
      expect(line).toMatch(new RegExp(`${sim.info.viewerUrl.replace(/[.]/g, '\\.')}/Viewer/\\S+\\?classId=${c.id}$`));
    }
  });

  it('prints the record as JSON and honours --no-classes and --culture', async () => {
    const e = sim.state.dataset.events.find((x) => x.countryCode === 'SWE')!;
    const [full, bare] = await Promise.all([
      cli(['event', String(e.id), '--json', ...at()]),
      cli(['event', String(e.id), '--no-classes', '--no-properties', '--culture', 'sv-SE', '--json', ...at()]),
    ]);
    expect(full.code, full.stderr).toBe(0);
    expect(JSON.parse(full.stdout)).toMatchObject({
      id: e.id,
      name: e.name,
      classes: e.classes.map((c) => ({ id: c.id, name: c.name, url: expect.stringContaining(`classId=${c.id}`) })),
      properties: e.properties,
    });
    const b = JSON.parse(bare.stdout);
    expect(b.classes).toBeUndefined();
    expect(b.properties).toBeUndefined();
    expect(b.country).toMatchObject({ code: 'SWE', name: 'Sverige' });
  });

  it('exits 1 for an unknown event, in words and as JSON', async () => {
    const [human, json] = await Promise.all([
      cli(['event', '999999999', ...at()]),
      cli(['event', '999999999', '--json', ...at()]),
    ]);
    expect(human.code).toBe(1);
    expect(human.stderr).toMatch(/no event has the id 999999999/);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, error: { code: 'not_found', status: 404 } });
  });

  it.concurrent.each([[['abc']], [[]], [['1', '2']]])('exits 2 for the event id %j', async (args) => {
    const r = await cli(['event', ...args, ...at()]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/event id/);
  });
});

describe('countries', { timeout: 60_000 }, () => {
  it('prints id, code and name of every country, and only those with events when asked', async () => {
    const [all, having, json] = await Promise.all([
      cli(['countries', ...at()]),
      cli(['countries', '--only-having-events', '--json', ...at()]),
      cli(['countries', '--json', '--culture', 'sv-SE', ...at()]),
    ]);
    expect(all.code, all.stderr).toBe(0);
    expect(all.stdout.split('\n')[0]).toMatch(/^\s*id\s+code\s+name$/);
    for (const code of ['SWE', 'NOR', 'CHE']) {
      const c = sim.state.countriesByCode.get(code)!;
      expect(row(all.stdout, c.id)).toMatch(new RegExp(`^\\s*${c.id}\\s+${code}\\s+${countryName(c, 'en-US')}$`));
    }
    expect(all.stdout).toContain(`${sim.state.dataset.countries.length} countries`);
    expect(having.code, having.stderr).toBe(0);
    expect(
      JSON.parse(having.stdout)
        .countries.map((c: any) => c.code)
        .sort(),
    ).toEqual([...sim.state.countriesWithEvents].sort());
    const list = JSON.parse(json.stdout).countries;
    expect(list).toHaveLength(sim.state.dataset.countries.length);
    expect(list).toContainEqual({ id: sim.state.countriesByCode.get('SWE')!.id, code: 'SWE', name: 'Sverige' });
  });
});

describe('courses', { timeout: 60_000 }, () => {
  it('prints the IOF XML, or writes it atomically with --out, and reports the file as JSON', async () => {
    const e = routableEvents(sim.state.dataset.events)[0]!;
    const outDir = mkdtempSync(join(dir, 'courses-'));
    const file = join(outDir, 'courses.xml');
    const printed = await cli(['courses', String(e.id), ...at()]);
    expect(printed.code, printed.stderr).toBe(0);
    expect(printed.stdout.startsWith('<?xml')).toBe(true);
    expect(printed.stdout).toContain('<CourseData');
    const written = await cli(['courses', String(e.id), '--out', file, '--json', ...at()]);
    expect(written.code, written.stderr).toBe(0);
    const bytes = readFileSync(file);
    expect(JSON.parse(written.stdout)).toEqual({ ok: true, file, bytes: bytes.length });
    expect(bytes.toString('utf8').startsWith('<?xml')).toBe(true);
    expect(bytes.toString('utf8').trimEnd()).toBe(printed.stdout.trimEnd());
    expect(readdirSync(outDir)).toEqual(['courses.xml']);
    // Again over the existing file: replaced, still no temporary file left.
    const again = await cli(['courses', String(e.id), '--no-controls', '--out', file, ...at()]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/^Wrote \d+ bytes of IOF XML to /);
    expect(readFileSync(file).length).toBeLessThan(bytes.length);
    expect(readdirSync(outDir)).toEqual(['courses.xml']);
  });

  it('exits 1 with what to do when the key has no course access, and for an unknown event', async () => {
    const e = routableEvents(sim.state.dataset.events)[0]!;
    const [limited, unknown, unwritable] = await Promise.all([
      cli(['courses', String(e.id), ...at(sim.info.limitedApiKey)]),
      cli(['courses', '999999999', ...at()]),
      cli(['courses', String(e.id), '--out', join(dir, 'no', 'such', 'dir', 'c.xml'), ...at()]),
    ]);
    expect(limited.code).toBe(1);
    expect(limited.stderr).toMatch(/Missing scope 'courses\.read'/);
    expect(limited.stderr).toMatch(/Ask the service operator to grant 'courses\.read'/);
    expect(limited.stdout).toBe('');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/no event has the id 999999999/);
    expect(unwritable.code).toBe(1);
    expect(unwritable.stderr).toMatch(/cannot write .*c\.xml: ENOENT/);
  });
});

describe('import and status', { timeout: 60_000 }, () => {
  let event: SimEvent;
  let files: { a: string; b: string; c: string; text: string; empty: string; missing: string };

  beforeAll(() => {
    event = routableEvents(sim.state.dataset.events)[0]!;
    const gpx = (classIndex: number, hours: number) =>
      writeGpx(runCourse(event, event.classes[classIndex]!.id, event.startMs + hours * 3600_000));
    files = {
      a: join(dir, 'a.gpx'),
      b: join(dir, 'b.gpx'),
      c: join(dir, 'c.gpx'),
      text: join(dir, 'notes.txt'),
      empty: join(dir, 'empty.gpx'),
      missing: join(dir, 'missing.gpx'),
    };
    writeFileSync(files.a, gpx(0, 1));
    writeFileSync(files.b, gpx(1, 2));
    writeFileSync(files.c, gpx(0, 3));
    writeFileSync(files.text, 'Not a route, just notes.\n');
    writeFileSync(files.empty, '');
  });

  // Issue 11 made a re-run skip what the journal says is imported, and --json one document: these three tests were
  // rewritten for that contract (they asserted that a re-run posted again, and a JSON array).
  const journal = () => ['--journal', join(dir, 'imports.sqlite'), '--import-time', '200ms-600ms'];

  it('imports the good files, waits for them, reports the bad ones per file and exits 1', async () => {
    const before = sim.routes().length;
    const r = await cli([
      'import',
      files.a,
      files.text,
      files.b,
      files.empty,
      files.missing,
      '--wait',
      '--device',
      'Test Watch',
      '--json',
      ...journal(),
      ...at(),
    ]);
    expect(r.code, r.stderr).toBe(1);
    const doc = JSON.parse(r.stdout);
    const byFile = (f: string) => doc.routes.find((x: any) => x.file === f);
    expect(doc.routes.map((x: any) => x.file).sort()).toEqual([files.a, files.b, files.empty, files.text].sort());
    for (const good of [byFile(files.a), byFile(files.b)]) {
      expect(good).toMatchObject({
        id: expect.stringMatching(/^lb-/),
        status: 'imported',
        eventName: event.name,
        viewerUrl: expect.stringContaining(`${sim.info.viewerUrl}/`),
      });
      expect(good.error).toBeUndefined();
    }
    expect(byFile(files.text)).toMatchObject({
      status: 'failed',
      error: { code: 'invalid_input', reason: 'unknown_format' },
    });
    expect(byFile(files.empty)).toMatchObject({ status: 'failed', error: { reason: 'empty' } });
    expect(doc.problems).toContainEqual(expect.objectContaining({ path: files.missing, code: 'unreadable' }));
    for (const bad of [byFile(files.text), byFile(files.empty)]) expect(bad.id).toBeUndefined();
    expect(sim.routes().length).toBe(before + 2);
    expect(sim.routes().find((x) => x.id === byFile(files.a).id)).toMatchObject({ deviceModel: 'Test Watch' });
  });

  it('importing the same files again posts nothing twice, with a table line per file', async () => {
    const before = sim.routes();
    // The same files with the same options: the journal knows them (other options would post them again, same id).
    const r = await cli(['import', files.a, files.b, files.text, '--device', 'Test Watch', ...journal(), ...at()]);
    expect(r.code).toBe(1);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(/^file\s+id\s+status\s+event\s+class\s+viewer url \/ error$/);
    expect(lines.find((l) => l.includes('a.gpx'))).toMatch(/\b(skipped|imported)\b/);
    expect(lines.find((l) => l.includes('b.gpx'))).toMatch(/\b(skipped|imported)\b/);
    expect(lines.find((l) => l.includes('notes.txt'))).toMatch(/\s-\s+failed\s+.*not GPX, TCX or FIT/);
    const after = sim.routes();
    expect(after.length).toBe(before.length);
    // The journal knew them: nothing was posted again.
    expect(after.map((x) => x.postCount)).toEqual(before.map((x) => x.postCount));
  });

  it('exits 0 when every file is accepted, and status shows the import record', async () => {
    const imported = await cli(['import', files.c, '--json', ...journal(), ...at()]);
    expect(imported.code, imported.stderr).toBe(0);
    const [result] = JSON.parse(imported.stdout).routes;
    expect(result).toMatchObject({ file: files.c, id: expect.stringMatching(/^lb-/) });
    const waited = await cli(['status', result.id, '--wait', '--timeout-s', '20', '--json', ...at()]);
    expect(waited.code, waited.stderr).toBe(0);
    expect(JSON.parse(waited.stdout)).toMatchObject({
      ok: true,
      routes: [
        {
          id: result.id,
          status: 'imported',
          eventName: event.name,
          viewerUrl: expect.stringContaining(sim.info.viewerUrl),
        },
      ],
    });
    const human = await cli(['status', result.id, ...at()]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(new RegExp(`^Id\\s+${result.id}$`, 'm'));
    expect(human.stdout).toMatch(/^Status\s+imported$/m);
    expect(human.stdout).toMatch(new RegExp(`^Event\\s+${event.name.replace(/[()]/g, '.')}$`, 'm'));
    expect(human.stdout).toMatch(/^Viewer\s+http:\/\/127\.0\.0\.1:\d+\/viewer\/Viewer\?/m);
  });

  it('status exits 1 for an unknown route and 2 without an id', async () => {
    const [unknown, none] = await Promise.all([cli(['status', 'no-such-route', ...at()]), cli(['status', ...at()])]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/no importable route has the id 'no-such-route'/);
    expect(none.code).toBe(2);
  });

  it('import exits 2 without files and for bad numbers', async () => {
    const runs = await Promise.all([
      cli(['import', ...at()]),
      cli(['import', files.a, '--concurrency', '0', ...at()]),
      cli(['import', files.a, '--class-id', 'x', ...at()]),
      cli(['import', files.a, '--timeout-s', '5', ...at()]),
    ]);
    for (const r of runs) expect(r.code, r.stderr).toBe(2);
  });
});

describe('help', { timeout: 60_000 }, () => {
  it.concurrent.each(['events', 'event', 'countries', 'courses', 'import', 'status'])(
    'prints generated help for %s',
    async (name) => {
      const r = await cli([name, '--help']);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`Usage: livelox-bridge ${name}`);
      expect(r.stdout).toContain('--api-key KEY');
      expect(r.stdout).toContain('--simulator');
      expect(r.stdout).toContain('--json');
    },
  );
});
