/**
 * `livelox-bridge sync --dry-run` and the statuses a portal embeds, as the built bin against a simulator in the test
 * process. One scenario: a portal linked on a first night; then, on the service, a class of one event is removed and
 * an event near today is deleted. The dry run reports exactly what the real run then does (same changes, links,
 * requests and exit code), reads only (the simulator saw GETs alone), and leaves the state file byte for byte (also
 * when its last commit is in the WAL alone), the links document and the fragments as they were. The real
 * run's `--out` (JSON and CSV) and fragments keep the lost class as `unmapped` and the deleted event as `gone`, with
 * why and since when.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PortalEvent } from '../../src/ems/portal.js';
import { fragmentFileName } from '../../src/links/fragment-names.js';
import type { SimEvent } from '../../src/simulator/model.js';
import { startSimulator, type Simulator } from '../../src/simulator/server.js';
import { cleanEnv, runBin, type CliRun } from '../helpers/cli.js';
import { createEventAhead, freezeClock, outputsOf, portalDocument, serviceArgs } from '../helpers/sync-cli.js';
import { portalEventOf } from '../helpers/sync.js';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const dir = mkdtempSync(join(tmpdir(), 'lb-sync-preview-'));
const env = cleanEnv(dir);
let sim: Simulator;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, seed: 17, events: 80 });
  // The service's clock moves only when a test advances it: a dry run and the real run after it see the same time.
  freezeClock(sim);
});
afterAll(async () => {
  await sim?.close();
  rmSync(dir, { recursive: true, force: true });
});

const create = (name: string, club: string, daysAhead: number, classes: string[]): SimEvent =>
  createEventAhead(sim, name, club, daysAhead, classes);

interface Place {
  dir: string;
  state: string;
  portal: string;
  out: string;
  csv: string;
  fragments: string;
}

function place(name: string, portal: readonly PortalEvent[]): Place {
  const d = join(dir, name);
  mkdirSync(d);
  const p = {
    dir: d,
    state: join(d, 'state.sqlite'),
    portal: join(d, 'portal.json'),
    out: join(d, 'links.json'),
    csv: join(d, 'links.csv'),
    fragments: join(d, 'fragments'),
  };
  writeFileSync(p.portal, portalDocument(portal));
  return p;
}

function sync(p: Place, ...args: string[]): Promise<CliRun> {
  return runBin(['sync', p.portal, '--state', p.state, ...serviceArgs(sim), ...args], env);
}

const sha256 = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');

interface Report {
  ok: boolean;
  committed: boolean;
  dryRun: boolean;
  attention: boolean;
  requests: number;
  runs: number;
  changes: Array<{ key: string; kind: string; message: string; attention: boolean }>;
  links: Array<{
    key: string;
    status: string;
    reason: string;
    since?: string;
    classes: Array<Record<string, unknown>>;
  }>;
}

describe('sync --dry-run, and the statuses a portal embeds', () => {
  let p: Place;
  let lossy: SimEvent;
  let doomed: SimEvent;
  let dry: CliRun;
  let real: CliRun;
  let stateBefore: string;
  let outputsBefore: ReturnType<typeof outputsOf>;
  let outputsAfterDry: ReturnType<typeof outputsOf>;
  let stateAfterDry: string;
  let getsOnly: boolean;

  beforeAll(async () => {
    lossy = create('Bergslagsträffen', 'OK Bergslagen', 60, ['H21', 'D21', 'H70']);
    doomed = create('Norrtälje nattcup', 'Norrtälje OK', 2, ['H21', 'D21']);
    const steady = create('Vänerrundan', 'Vänersborgs SK', 75, ['H21']);
    p = place('scenario', [portalEventOf(lossy), portalEventOf(doomed), portalEventOf(steady)]);
    const first = await sync(p, '--out', p.out, '--out-dir', p.fragments);
    expect(first.code, first.stderr).toBe(0);

    // What happens on the service during the day.
    sim.world.changeEvent(lossy.id, { removeClasses: [lossy.classes.find((c) => c.name === 'H70')!.id] });
    sim.world.deleteEvent(doomed.id);
    sim.state.clock.advance(DAY_MS);

    stateBefore = sha256(p.state);
    outputsBefore = outputsOf(p.out, p.fragments);
    sim.stats.reset();
    dry = await sync(p, '--dry-run', '--json', '--out', p.out, '--out-dir', p.fragments);
    getsOnly = Object.keys(sim.stats.snapshot().byEndpoint).every((e) => e.startsWith('GET '));
    stateAfterDry = sha256(p.state);
    outputsAfterDry = outputsOf(p.out, p.fragments);
    real = await sync(p, '--json', '--out', p.out, '--out-dir', p.fragments);
  }, 60_000);

  it('reports with the exit code a run would have, reads only, and commits and writes nothing', () => {
    expect(dry.code, dry.stderr).toBe(1);
    expect(getsOnly).toBe(true);
    const doc = JSON.parse(dry.stdout) as Report;
    expect(doc).toMatchObject({ ok: false, committed: false, dryRun: true, attention: true, runs: 1 });
    expect(stateAfterDry).toBe(stateBefore);
    expect(outputsAfterDry).toEqual(outputsBefore);
    // The real run after it did commit and write.
    expect(sha256(p.state)).not.toBe(stateBefore);
    expect(outputsOf(p.out, p.fragments)).not.toEqual(outputsBefore);
  });

  it('said exactly what the real run then did: changes, links, requests and exit code', () => {
    const d = JSON.parse(dry.stdout) as Report;
    const r = JSON.parse(real.stdout) as Report;
    expect(real.code).toBe(dry.code);
    expect(r).toMatchObject({ committed: true, dryRun: false, runs: 2 });
    expect(r.changes).toEqual(d.changes);
    expect(r.links).toEqual(d.links);
    expect(r.requests).toBe(d.requests);
    expect(d.changes.map((c) => [c.key, c.kind, c.attention])).toEqual([
      [`portal:${lossy.id}`, 'service_classes_changed', false],
      [`portal:${lossy.id}`, 'class_unmapped', true],
      [`portal:${doomed.id}`, 'gone', true],
    ]);
  });

  it('keeps the lost class as unmapped and the deleted event as gone in --out, the CSV and the fragments', async () => {
    const doc = JSON.parse(readFileSync(p.out, 'utf8')) as {
      events: Array<{ key: string; status: string; reason?: string; since?: string; classes: unknown[] }>;
    };
    const byKey = new Map(doc.events.map((e) => [e.key, e]));
    const since = (JSON.parse(real.stdout) as Report).links.find((l) => l.key === `portal:${doomed.id}`)!.since!;
    expect(byKey.get(`portal:${doomed.id}`)).toEqual({
      key: `portal:${doomed.id}`,
      status: 'gone',
      eventId: doomed.id,
      eventName: doomed.name,
      reason: `${doomed.name} (${doomed.id}) was deleted from the service: a search of the days near today missed it, and GET /events/${doomed.id} answered 404`,
      since,
      classes: [],
      fragment: { file: fragmentFileName(`portal:${doomed.id}`), updated: expect.stringMatching(/Z$/) as unknown },
    });
    const h70 = lossy.classes.find((c) => c.name === 'H70')!.id;
    expect(byKey.get(`portal:${lossy.id}`)!.classes.at(-1)).toEqual({
      name: 'H70',
      status: 'unmapped',
      reason: `the service class H70 (${h70}) was removed`,
      since,
      was: { classId: h70, serviceClass: 'H70' },
    });

    const csv = join(p.dir, 'again.csv');
    // Nights later, unchanged: the statuses are still there, and still need a person.
    sim.state.clock.advance(DAY_MS);
    const later = await sync(p, '--out', csv, '--out-dir', p.fragments);
    expect(later.code, later.stderr).toBe(1);
    expect(later.stdout).toContain(`! portal:${lossy.id}: class H70 unmapped since ${since}: `);
    expect(later.stdout).toContain(`! portal:${doomed.id}: gone since ${since}: `);
    const index = JSON.parse(readFileSync(join(p.fragments, 'index.json'), 'utf8')) as {
      fragments: Array<{ key: string; updated: string }>;
    };
    const fragmentUpdated = (key: string) => index.fragments.find((f) => f.key === key)!.updated;
    const rows = readFileSync(csv, 'utf8').split('\r\n');
    expect(rows).toContain(
      `"portal:${lossy.id}","linked","${lossy.id}","${lossy.name}","H70","","","","unmapped","the service class H70 (${h70}) was removed","${since}","${fragmentFileName(`portal:${lossy.id}`)}","${fragmentUpdated(`portal:${lossy.id}`)}"`,
    );
    expect(rows.find((r) => r.startsWith(`"portal:${doomed.id}","gone",`))).toMatch(
      /,"","","","","",".*answered 404",".+","portal_3a\d+\.html","[\d-]+T[\d:.]+Z"$/,
    );
    const fragment = readFileSync(join(p.fragments, fragmentFileName(`portal:${lossy.id}`)), 'utf8');
    expect(readFileSync(join(p.fragments, fragmentFileName(`portal:${doomed.id}`)), 'utf8')).toContain(
      '<p class="livelox-none">No links yet.</p>',
    );
    expect(fragment).toContain(
      `<li class="livelox-unmapped">H70 <small class="livelox-why">(no link: <span lang="en">the service class H70 (${h70}) was removed</span>)</small></li>`,
    );
  });

  it('says it was a dry run in its summary, and leaves the outputs of the last run as they were', async () => {
    const before = sha256(p.state);
    const outputs = outputsOf(p.out, p.fragments);
    const text = await sync(p, '--dry-run', '--out', p.out, '--out-dir', p.fragments);
    expect(text.code, text.stderr).toBe(1);
    expect(text.stdout.split('\n')[0]).toBe(
      'Dry run: nothing was committed (the state file was left as it is); --out and --out-dir not written. A run now would report:',
    );
    const lines = await sync(p, '--dry-run', '--jsonl');
    expect(lines.code).toBe(1);
    expect(lines.stderr).toMatch(/^livelox-bridge sync: Dry run: nothing was committed/);
    expect(
      lines.stdout
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { kind: string }).kind),
    ).toEqual(['still_class_unmapped', 'still_gone']);
    expect(sha256(p.state)).toBe(before);
    expect(outputsOf(p.out, p.fragments)).toEqual(outputs);
  });
});

describe('sync --dry-run on states it must not change', () => {
  it('leaves the main file byte for byte when the last commits are still in the WAL', async () => {
    const event = create('Roslagsloppet', 'Roslagens OK', 40, ['H21']);
    const p = place('wal', [portalEventOf(event)]);
    expect((await sync(p)).code).toBe(0);
    // A reader holds the file open while a run commits, so that the run's close cannot fold its WAL into the file;
    // the reader (read-only) cannot either. Then no one has the file open, and its last commit is in the WAL alone,
    // as a run killed after its commit leaves it: a connection that may write would fold it in when it closes.
    const holder = new Database(p.state, { readonly: true });
    holder.prepare('SELECT count(*) FROM runs').get();
    sim.state.clock.advance(HOUR_MS);
    expect((await sync(p)).code).toBe(0);
    holder.close();
    expect(readFileSync(`${p.state}-wal`).length).toBeGreaterThan(0);
    const main = sha256(p.state);
    const wal = sha256(`${p.state}-wal`);
    const dry = await sync(p, '--dry-run', '--json');
    expect(dry.code, dry.stderr).toBe(0);
    // It read the commit in the WAL (the second run), and changed neither file.
    expect(JSON.parse(dry.stdout)).toMatchObject({ dryRun: true, runs: 2 });
    expect(sha256(p.state)).toBe(main);
    expect(sha256(`${p.state}-wal`)).toBe(wal);
  });

  it('creates no state file where there is none, and reports what a first run would do', async () => {
    const event = create('Upplandsdubbeln', 'Upplands OK', 45, ['H21', 'D21']);
    const p = place('fresh', [portalEventOf(event)]);
    const dry = await sync(p, '--dry-run', '--json', '--out', p.out);
    expect(dry.code, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({ ok: true, committed: false, dryRun: true, runs: 0 });
    expect(existsSync(p.state)).toBe(false);
    expect(existsSync(p.out)).toBe(false);
    const real = await sync(p, '--json');
    expect(JSON.parse(real.stdout).changes).toEqual(JSON.parse(dry.stdout).changes);
  });
});
