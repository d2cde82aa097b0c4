/**
 * `livelox-bridge sync` as the built bin against a simulator in the test process: what a cron job sees (exit codes,
 * the summary, `--json`, `--jsonl`), what a portal embeds (`--out` as JSON or CSV, `--out-dir` fragments), pins, the
 * one request of a quiet night, a folder with files that cannot be read, and every state file it must refuse
 * untouched (one held by a live run: locks.test.ts; a damaged one: state-damage.test.ts). About 400 lines:
 * one simulator serves every case, and the command's contract reads as one list.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PortalEvent } from '../../src/ems/portal.js';
import type { SimEvent } from '../../src/simulator/model.js';
import { startSimulator, type Simulator } from '../../src/simulator/server.js';
import { openSqliteStore } from '../../src/store/sqlite.js';
import { cleanEnv, runBin, type CliRun } from '../helpers/cli.js';
import { closedPort, portalDocument, serviceArgs } from '../helpers/sync-cli.js';
import { day, logicalState, portalEventOf } from '../helpers/sync.js';

const DAY_MS = 86_400_000;

let sim: Simulator;
let events: SimEvent[];
/** Two service events alike in everything but their id: a portal event like them is ambiguous. */
let twins: [SimEvent, SimEvent];
const dir = mkdtempSync(join(tmpdir(), 'lb-sync-cli-'));
const env = cleanEnv(dir);
let n = 0;

interface Place {
  dir: string;
  state: string;
  portal: string;
}

/** A folder for one test, with the portal written as a multi-event EMS JSON file. */
function place(portal: readonly PortalEvent[]): Place {
  const d = join(dir, `t${++n}`);
  mkdirSync(d);
  const p = { dir: d, state: join(d, 'state.sqlite'), portal: join(d, 'portal.json') };
  writeFileSync(p.portal, portalDocument(portal));
  return p;
}

function sync(p: Place, ...args: string[]): Promise<CliRun> {
  return runBin(['sync', p.portal, '--state', p.state, ...serviceArgs(sim), ...args], env);
}

/**
 * Portal events for service events that link clearly (spread over the season), none in the days near the service's
 * today, which a run also searches when a linked event lies there (sync-preview-statuses.test.ts): request counts
 * here do not depend on the date the test runs on.
 */
function clear(count: number): PortalEvent[] {
  const now = sim.state.clock.now();
  return events
    .filter((e, i) => i % 10 === 0 && Math.abs(e.startMs - now) > 30 * DAY_MS)
    .slice(0, count)
    .map((e) => portalEventOf(e));
}

const twinPortal = (): PortalEvent => portalEventOf(twins[0], 'portal:twin');
const nowhere = (): PortalEvent =>
  portalEventOf({ ...events[1]!, name: 'Nowhere Night Cup', countryCode: 'ISL' }, 'portal:nowhere');

beforeAll(async () => {
  sim = await startSimulator({ port: 0, seed: 7, events: 200 });
  events = [...sim.state.eventsById.values()].sort((a, b) => a.id - b.id);
  // Two months after the season: no other test's window reaches them.
  const last = Math.max(...events.map((e) => e.endMs));
  const start = new Date(Math.ceil((last + 60 * DAY_MS) / DAY_MS) * DAY_MS + 10 * 3_600_000);
  const twin = {
    name: 'Dubbelcupen',
    start,
    end: new Date(start.getTime() + 4 * 3_600_000),
    countryCode: 'SWE',
    organisers: ['OK Tvilling'],
    classes: ['H21', 'D21', 'H35'],
  };
  twins = [sim.world.createEvent(twin), sim.world.createEvent(twin)];
});

afterAll(async () => {
  await sim?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('sync: exit codes and what it tells', () => {
  it('exits 0 when every portal event links, and a quiet second night sends exactly one request', async () => {
    const p = place(clear(8));
    const first = await sync(p);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/^8 portal events: 8 linked, 0 not; \d+ requests to the service\.$/m);
    expect(first.stdout).toContain('Changes: portal added 8, newly linked 8.');
    expect(first.stdout).not.toMatch(/^! /m);
    expect(first.stderr).toBe('');

    const before = sim.stats.snapshot();
    const second = await sync(p);
    const after = sim.stats.snapshot();
    expect(second.code, second.stderr).toBe(0);
    expect(after.requests - before.requests).toBe(1);
    expect((after.byEndpoint['GET /events']?.['200'] ?? 0) - (before.byEndpoint['GET /events']?.['200'] ?? 0)).toBe(1);
    expect(second.stdout.trim()).toBe('8 portal events: 8 linked, 0 not; 1 request to the service.');
  });

  it('exits 1 when a portal event is unmatched or ambiguous, with the ranked candidates on a ! line', async () => {
    const p = place([...clear(3), twinPortal(), nowhere()]);
    const r = await sync(p);
    expect(r.code, r.stderr).toBe(1);
    const twinLine = r.stdout.split('\n').find((l) => l.startsWith('! portal:twin: ambiguous'));
    expect(twinLine, r.stdout).toBeDefined();
    const [a, b] = twins;
    expect(twinLine).toMatch(
      new RegExp(`candidates: Dubbelcupen \\((${a.id}|${b.id}), ${day(a.startMs)}, score [\\d.]+\\)`),
    );
    expect(twinLine).toContain(`Dubbelcupen (${a.id}`);
    expect(twinLine).toContain(`Dubbelcupen (${b.id}`);
    // Ranked: best first.
    const scores = [...twinLine!.matchAll(/, score ([\d.]+)\)/g)].map((m) => Number(m[1]));
    expect(scores.length).toBeGreaterThanOrEqual(2);
    expect(scores).toEqual([...scores].sort((x, y) => y - x));
    expect(r.stdout).toMatch(/^! portal:nowhere: not found: /m);
    expect(r.stdout).toContain('Lines marked ! need a person');
    // Still so the next night: told again, exit 1 again.
    const again = await sync(p);
    expect(again.code).toBe(1);
    expect(again.stdout).toMatch(/^! portal:twin: ambiguous/m);
  });

  it('exits 2 for a wrong command line, before touching the state', async () => {
    const p = place(clear(1));
    const cases: Array<[string[], RegExp]> = [
      [['sync', '--state', p.state], /give the portal events/],
      [['sync', p.portal, '--state', p.state, '--pin', 'portal:1'], /--pin takes KEY=EVENTID/],
      [['sync', p.portal, '--state', p.state, '--pin', 'portal:1=abc'], /--pin takes KEY=EVENTID/],
      [['sync', p.portal, '--state', p.state, '--overlap', '5 parsecs'], /--overlap takes a duration/],
      [['sync', p.portal, '--state', p.state, '--overlap', '90d'], /--overlap is at most 30 days/],
      [['sync', p.portal, '--state', p.state, '--json', '--jsonl'], /--json and --jsonl exclude each other/],
      [['sync', p.portal, '--state', p.state, '--near-days', '3'], /--near-days takes BACK,AHEAD/],
      [
        ['sync', p.portal, '--state', p.state, '--near-days', '3,400'],
        /--near-days takes BACK,AHEAD: whole days \(0\.\.366\)/,
      ],
      [
        ['sync', p.portal, '--state', p.state, '--out', join(p.dir, 'x'), '--format', 'xml'],
        /--format takes json or csv/,
      ],
    ];
    const runs = await Promise.all(cases.map(([args]) => runBin([...args, ...serviceArgs(sim)], env)));
    for (const [i, [args, message]] of cases.entries()) {
      const r = runs[i]!;
      expect(r.code, `${args.join(' ')}\n${r.stderr}`).toBe(2);
      // With --json the error is the one document on stdout; else a message on stderr.
      if (args.includes('--json')) {
        const doc = JSON.parse(r.stdout) as { ok: boolean; error: { code: string; message: string } };
        expect(doc).toMatchObject({ ok: false, error: { code: 'usage' } });
        expect(doc.error.message).toMatch(message);
      } else {
        expect(r.stderr).toMatch(message);
        expect(r.stdout).toBe('');
      }
    }
    expect(existsSync(p.state)).toBe(false);
  });

  // Two runs, each retrying the refused connection with backoff before it gives up: more than the default time.
  it('exits 3 when the service cannot be reached, commits nothing and says so', async () => {
    const p = place(clear(3));
    expect((await sync(p)).code).toBe(0);
    const before = logicalState(p.state);
    const port = await closedPort();
    const down = `http://127.0.0.1:${port}`;
    const r = await runBin(
      ['sync', p.portal, '--state', p.state, '--full', '--api-key', sim.info.apiKey, '--base-url', `${down}/api`],
      env,
    );
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toContain('Nothing was committed');
    expect(r.stdout).toBe('');
    expect(logicalState(p.state)).toEqual(before);
    // With --json, the failure is the one document.
    const json = await runBin(
      ['sync', p.portal, '--state', p.state, '--json', '--api-key', sim.info.apiKey, '--base-url', `${down}/api`],
      env,
    );
    expect(json.code).toBe(3);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, committed: false });
    expect(logicalState(p.state)).toEqual(before);
  }, 45_000);

  it('prints one JSON document with --json and one JSON line per change with --jsonl', async () => {
    const p = place([...clear(2), nowhere()]);
    const r = await sync(p, '--json');
    expect(r.code, r.stderr).toBe(1);
    const doc = JSON.parse(r.stdout) as {
      ok: boolean;
      committed: boolean;
      attention: boolean;
      changes: Array<{ key: string; kind: string }>;
      links: Array<{ key: string; status: string }>;
    };
    expect(doc).toMatchObject({ ok: false, committed: true, attention: true });
    expect(doc.links.map((l) => [l.key, l.status])).toEqual(
      [...clear(2).map((e) => [e.key, 'linked']), ['portal:nowhere', 'not_found']].sort(),
    );
    expect(doc.changes.filter((c) => c.kind === 'newly_linked')).toHaveLength(2);

    const q = place([...clear(2), nowhere()]);
    const lines = await sync(q, '--jsonl');
    expect(lines.code).toBe(1);
    const changes = lines.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { key: string; kind: string });
    expect(changes.map((c) => [c.key, c.kind])).toEqual(doc.changes.map((c) => [c.key, c.kind]));
  });
});

describe('sync: what a portal embeds', () => {
  it('writes --out as JSON or CSV by its name, atomically, and one escaped fragment per portal event', async () => {
    // A service event whose names would break HTML, and a portal key that is no file name.
    const hostile = sim.world.createEvent({
      name: 'Natt <script>alert(1)</script> & "Co"',
      start: new Date(twins[0].startMs + 10 * DAY_MS),
      end: new Date(twins[0].startMs + 10 * DAY_MS + 3_600_000),
      countryCode: 'NOR',
      organisers: ['<b>OK</b>'],
      classes: ['H21 <i>', 'D21'],
    });
    const odd = portalEventOf(hostile, 'portal:../../etc/<x>');
    const p = place([...clear(2), odd]);
    const json = join(p.dir, 'links.json');
    const csv = join(p.dir, 'out', 'links.csv');
    mkdirSync(join(p.dir, 'out'));
    const frag = join(p.dir, 'fragments');
    const r1 = await sync(p, '--out', json, '--out-dir', frag);
    expect(r1.code, r1.stderr).toBe(0);
    const r2 = await sync(p, '--out', csv);
    expect(r2.code, r2.stderr).toBe(0);

    const doc = JSON.parse(readFileSync(json, 'utf8')) as {
      events: Array<{ key: string; status: string; eventId: number; classes: Array<{ name: string; url: string }> }>;
    };
    expect(doc.events.map((e) => e.key)).toEqual([...clear(2).map((e) => e.key), odd.key].sort());
    const oddLinks = doc.events.find((e) => e.key === odd.key)!;
    expect(oddLinks).toMatchObject({ status: 'linked', eventId: hostile.id });
    expect(oddLinks.classes.map((c) => c.name).sort()).toEqual(['D21', 'H21 <i>']);
    expect(oddLinks.classes.every((c) => c.url.startsWith('http'))).toBe(true);
    // One shape for a class: --json's links hold exactly what --out holds.
    const printed = JSON.parse((await sync(p, '--json')).stdout) as { links: Array<{ key: string; classes: unknown }> };
    expect(printed.links.find((l) => l.key === odd.key)!.classes).toEqual(oddLinks.classes);
    expect(Object.keys(oddLinks.classes[0]!)).toEqual([
      'name',
      'status',
      'classId',
      'serviceClass',
      'url',
      'from',
      'method',
    ]);

    const rows = readFileSync(csv, 'utf8').split('\r\n');
    expect(rows[0]).toBe(
      '"portal_key","status","event_id","event_name","ems_class","service_class","class_id","url","class_status","reason","since","fragment_file","fragment_updated"',
    );
    const oddRows = rows.filter((l) => l.startsWith(`"${odd.key}","linked","${hostile.id}",`));
    expect(oddRows.map((l) => l.split('","')[4]).sort()).toEqual(['D21', 'H21 <i>']);
    expect(oddRows[0]).toContain(`"Natt <script>alert(1)</script> & ""Co"""`);

    const files = readdirSync(frag).sort();
    expect(files.filter((f) => f.endsWith('.html'))).toHaveLength(3);
    expect(files.filter((f) => !f.endsWith('.html'))).toEqual(['index.json', 'livelox-manifest.json']);
    expect(files.every((f) => /^[a-z0-9_.-]+$/.test(f) && !f.startsWith('.'))).toBe(true);
    const oddFile = 'portal_3a_2e_2e_2f_2e_2e_2fetc_2f_3cx_3e.html';
    expect(files).toContain(oddFile);
    // --out names each event's fragment, as index.json does.
    const index = JSON.parse(readFileSync(join(frag, 'index.json'), 'utf8')) as {
      fragments: Array<{ key: string; file: string }>;
    };
    expect(index.fragments.find((f) => f.key === odd.key)!.file).toBe(oddFile);
    expect((oddLinks as unknown as { fragment: { file: string } }).fragment.file).toBe(oddFile);
    const html = readFileSync(join(frag, oddFile), 'utf8');
    expect(html.startsWith('<div class="livelox-links" lang="en" data-status="linked">')).toBe(true);
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<i>');
    expect(html.replace(/<wbr>/g, '')).toContain('Natt &#60;script&#62;alert(1)&#60;/script&#62; &#38; &#34;Co&#34;');
    expect(html).toContain('H21 &#60;i&#62;');
    // Nothing else left behind: no temporary files beside the outputs.
    expect(readdirSync(p.dir).filter((f) => f.startsWith('.'))).toEqual([]);
    expect(readdirSync(join(p.dir, 'out'))).toEqual(['links.csv']);
  });
});

describe("sync: a person's file in the fragments folder", () => {
  it('is never written over: the event is a conflict on a ! line and in --json, and the run exits 1', async () => {
    const [a, b] = clear(2);
    const p = place([a!, { ...b!, key: 'welcome' }]);
    const frag = join(p.dir, 'fragments');
    mkdirSync(frag);
    writeFileSync(join(frag, 'welcome.html'), '<p>Welcome!</p>');
    const page = join(p.dir, 'status.html');
    const r = await sync(p, '--out-dir', frag, '--status-html', page);
    expect(r.code, r.stderr).toBe(1);
    // The status page says it with the rest of what needs a person.
    const status = readFileSync(page, 'utf8');
    expect(status).toContain('<strong>NEEDS A PERSON</strong> (exit 1)');
    expect(status).toContain('fragment not written: a file this tool did not write is at welcome.html');
    expect(r.stdout).toMatch(
      /^! 1 fragment not written: a file this tool did not write is at its name \(welcome\.html \(welcome\)\); move it away and run again\.$/m,
    );
    expect(readFileSync(join(frag, 'welcome.html'), 'utf8')).toBe('<p>Welcome!</p>');
    const json = await sync(p, '--out-dir', frag, '--json');
    expect(json.code).toBe(1);
    const doc = JSON.parse(json.stdout) as { ok: boolean; fragments: { conflicts: unknown; index: { key: string }[] } };
    expect(doc.ok).toBe(false);
    expect(doc.fragments.conflicts).toEqual([{ key: 'welcome', file: 'welcome.html' }]);
    expect(doc.fragments.index.map((e) => e.key)).toEqual([a!.key]);
    // The event leaves the portal: the person's file stays, and nothing needs a person any more.
    writeFileSync(p.portal, portalDocument([a!]));
    const gone = await sync(p, '--out-dir', frag);
    expect(gone.code, gone.stdout).toBe(0);
    expect(readFileSync(join(frag, 'welcome.html'), 'utf8')).toBe('<p>Welcome!</p>');
  });
});

describe('sync: pins', () => {
  it('a pin overrides scoring and an ambiguity, persists to the next run, and --unpin lifts it', async () => {
    const [a, b] = clear(2) as [PortalEvent, PortalEvent];
    const p = place([a, b, twinPortal()]);
    const other = events.find((e) => e.countryCode !== b.export.event.country && e.id !== Number(b.key.slice(7)))!;
    const linkOf = async (...args: string[]) => {
      const r = await sync(p, '--json', ...args);
      const doc = JSON.parse(r.stdout) as { links: Array<{ key: string; status: string; eventId?: number }> };
      return { code: r.code, links: new Map(doc.links.map((l) => [l.key, l])) };
    };
    const first = await linkOf();
    expect(first.code).toBe(1);
    expect(first.links.get('portal:twin')!.status).toBe('ambiguous');

    const pinned = await linkOf('--pin', `portal:twin=${twins[1].id}`, '--pin', `${b.key}=${other.id}`);
    expect(pinned.code).toBe(0);
    expect(pinned.links.get('portal:twin')).toMatchObject({ status: 'linked', eventId: twins[1].id, method: 'pinned' });
    expect(pinned.links.get(b.key)).toMatchObject({ status: 'linked', eventId: other.id, method: 'pinned' });
    expect(pinned.links.get(a.key)).toMatchObject({ status: 'linked', method: 'scored' });

    const kept = await linkOf();
    expect(kept.code).toBe(0);
    expect(kept.links.get('portal:twin')).toMatchObject({ eventId: twins[1].id, method: 'pinned' });
    expect(kept.links.get(b.key)).toMatchObject({ eventId: other.id, method: 'pinned' });
    const db = new Database(p.state, { readonly: true });
    expect(db.prepare('SELECT key, event_id FROM pins ORDER BY key').all()).toEqual([
      { key: b.key, event_id: other.id },
      { key: 'portal:twin', event_id: twins[1].id },
    ]);
    db.close();

    const unpinned = await sync(p, '--unpin', b.key);
    expect(unpinned.code).toBe(0);
    expect(unpinned.stdout).toMatch(new RegExp(`^  ${b.key}: link moved from .* \\(${other.id}\\) to .*: `, 'm'));
    const after = await linkOf();
    expect(after.links.get(b.key)).toMatchObject({
      status: 'linked',
      eventId: Number(b.key.slice(7)),
      method: 'scored',
    });
    expect(after.links.get('portal:twin')).toMatchObject({ eventId: twins[1].id, method: 'pinned' });
  });
});

describe('sync: inputs that cannot be read', () => {
  it('reports each unreadable, hostile or non-IOF file of a folder on a ! line, exits 1 and syncs the others', async () => {
    const folder = join(dir, `folder-${++n}`);
    mkdirSync(join(folder, 'club'), { recursive: true });
    const good = events.filter((_, i) => i % 10 === 5).slice(0, 3);
    good.forEach((e, i) => {
      const { event, classes } = portalEventOf(e).export;
      writeFileSync(
        join(folder, i === 0 ? 'club/a.json' : `e${i}.json`),
        JSON.stringify({ formatVersion: 1, event, classes }),
      );
    });
    writeFileSync(
      join(folder, 'hostile.xml'),
      '<?xml version="1.0"?>\n<!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>\n' +
        '<StartList xmlns="http://www.orienteering.org/datastandard/3.0">&b;</StartList>\n',
    );
    writeFileSync(join(folder, 'notes.txt'), 'Remember to bring the flags.\n');
    writeFileSync(
      join(folder, 'broken.xml'),
      '<?xml version="1.0"?>\n<StartList xmlns="http://www.orienteering.org/da',
    );
    execFileSync('mkfifo', [join(folder, 'pipe.xml')]);
    const state = join(folder, '..', `folder-state-${n}.sqlite`);
    const r = await runBin(['sync', folder, '--state', state, ...serviceArgs(sim)], env);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/^3 portal events: 3 linked, 0 not;/m);
    for (const name of ['hostile.xml', 'notes.txt', 'broken.xml', 'pipe.xml']) {
      expect(r.stdout, name).toMatch(
        new RegExp(`^! ${join(folder, name).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: `, 'm'),
      );
    }
    expect(r.stdout).toContain('portal problem 4');
    expect(r.stdout).toMatch(/^! .*hostile\.xml: .*entit/im);
    // The events read are synced: the next night keeps them and tells the problems again.
    const again = await runBin(['sync', folder, '--state', state, '--json', ...serviceArgs(sim)], env);
    const doc = JSON.parse(again.stdout) as { links: Array<{ key: string; status: string }>; changes: unknown[] };
    expect(doc.links.map((l) => [l.key, l.status])).toEqual([
      ['club/a.json', 'linked'],
      ['e1.json', 'linked'],
      ['e2.json', 'linked'],
    ]);
    expect(doc.changes).toHaveLength(4);
  });
});

describe('sync: state files it must refuse (exit 4, left untouched)', () => {
  const refused = async (state: string, expected: RegExp) => {
    const p = place(clear(2));
    const bytes = readFileSync(state);
    const r = await runBin(['sync', p.portal, '--state', state, ...serviceArgs(sim)], env);
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).toMatch(expected);
    expect(readFileSync(state).equals(bytes)).toBe(true);
    expect(existsSync(`${state}-wal`) || existsSync(`${state}-journal`)).toBe(false);
    const json = await runBin(['sync', p.portal, '--state', state, '--json', ...serviceArgs(sim)], env);
    expect(json.code).toBe(4);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, committed: false });
    expect(readFileSync(state).equals(bytes)).toBe(true);
  };

  it('refuses a file that is not SQLite', async () => {
    const state = join(dir, `notdb-${++n}.sqlite`);
    writeFileSync(state, 'key,event\nportal:1,100001\n');
    await refused(state, /not a livelox-bridge state file \(not an SQLite database\)/);
  });

  it("refuses another program's SQLite database", async () => {
    const state = join(dir, `other-${++n}.sqlite`);
    const db = new Database(state);
    db.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT); INSERT INTO notes (text) VALUES ('hello')");
    db.close();
    await refused(state, /another program's SQLite database/);
  });

  it('refuses a state from a newer version', async () => {
    const state = join(dir, `newer-${++n}.sqlite`);
    openSqliteStore(state).close();
    const db = new Database(state);
    db.pragma('user_version = 99');
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    await refused(state, /newer livelox-bridge \(state schema 99/);
  });
});
