/**
 * The sync status page and `sync status`, as the built bin against a simulator in this process: after a night with
 * an ambiguous, an unmatched and a gone event and a class that lost its link, the page written by `--status-html`
 * says each of them in the run's own words, with the line that pins each candidate; `sync status` says the same from
 * the state alone (text, --json, --html) without taking the run lock; a run the service fails (fault injection) still
 * writes the page, saying first that it failed; a missing or damaged state is a clear error and no page.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escapeHtml } from '../../src/core/html.js';
import { startSimulator, type Simulator } from '../../src/simulator/server.js';
import { openSqliteStore, syncStoreOf } from '../../src/store/sqlite.js';
import { BIN, ROOT, cleanEnv, runBin } from '../helpers/cli.js';
import { syncScenario, type SyncScenario } from '../helpers/status-scenario.js';
import { closedPort } from '../helpers/sync-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'lb-sync-status-'));
const env = cleanEnv(dir);
let sim: Simulator;
let s: SyncScenario;

const html = (text: string): string => escapeHtml(text, { named: true });
/** The `! KEY: message` lines of a run's summary, as [key, message]. */
const attentionLines = (stdout: string): Array<[string, string]> =>
  stdout
    .split('\n')
    .filter((l) => l.startsWith('! '))
    .map((l) => {
      const m = /^! (.+?): (.*)$/.exec(l)!;
      return [m[1]!, m[2]!];
    });

/** `sync` of the scenario's portal with the status page, against a service on `port` of loopback. */
const syncAgainst = (port: number, page: string): string[] => [
  'sync',
  s.portal,
  '--state',
  s.state,
  '--status-html',
  page,
  '--api-key',
  sim.info.apiKey,
  '--base-url',
  `http://127.0.0.1:${port}/api`,
];

beforeAll(async () => {
  sim = await startSimulator({ port: 0, seed: 23, events: 60 });
  s = await syncScenario(sim, join(dir, 'scenario'), env);
}, 60_000);
afterAll(async () => {
  await sim?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('sync --status-html', () => {
  it('after the night, the page says what needs a person in the words of the run, with a pin line per candidate', () => {
    expect(s.first.code, s.first.stderr).toBe(1);
    expect(s.second.code, s.second.stderr).toBe(1);
    const page = readFileSync(s.page, 'utf8');
    expect(page.startsWith('<!doctype html>')).toBe(true);
    expect(page).toContain('data-verdict="attention"');
    expect(page).toMatch(/<strong>NEEDS A PERSON<\/strong> \(exit 1\)/);
    // Each of the run's ! lines is on the page, word for word.
    const lines = attentionLines(s.second.stdout);
    expect(lines.map(([key]) => key).sort()).toEqual(
      [`portal:${s.doomed.id}`, `portal:${s.lossy.id}`, s.nowhereKey, s.twinKey].sort(),
    );
    for (const [key, message] of lines) {
      if (message.startsWith('ambiguous') || message.startsWith('not found')) expect(page).toContain(html(message));
      expect(page, key).toContain(html(key));
    }
    // The ambiguous event: both twins as candidates, each with the line that pins it.
    for (const twin of s.twins) expect(page).toContain(`<code class="pin">--pin ${s.twinKey}=${twin.id}</code>`);
    // A key a shell would split is quoted in its pin line.
    expect(page).toMatch(new RegExp(`--pin &#39;${s.nowhereKey}=\\d+&#39;|No candidate on the service`));
    // The class that lost its link and the gone event, with why and since.
    const h70 = s.lossy.classes.find((c) => c.name === 'H70')!.id;
    expect(page).toContain(`<td>H70</td><td>H70 (${h70})</td>`);
    expect(page).toContain(html(`the service class H70 (${h70}) was removed`));
    expect(page).toContain(html(`${s.doomed.name} (${s.doomed.id})`));
    expect(page).toMatch(/answered 404/);
    // The last run, the run log (two runs) and every portal event with its status.
    expect(page).toMatch(/<th scope="row">exit code<\/th><td>1<\/td>/);
    expect(page).toMatch(/<h2>Last runs<\/h2>/);
    expect(page.match(/<table class="runs wide">[\s\S]*?<\/table>/)![0].match(/<tr/g)).toHaveLength(3);
    for (const [key, status] of [
      [`portal:${s.lossy.id}`, 'linked'],
      [`portal:${s.doomed.id}`, 'gone'],
      [`portal:${s.steady.id}`, 'linked'],
      [s.twinKey, 'ambiguous'],
      [s.nowhereKey, 'not_found'],
    ]) {
      expect(page).toMatch(new RegExp(`<code>${html(key!)}</code>.*data-status="${status}"`));
    }
    // Names are escaped, never markup.
    expect(page).toContain('Vänerrundan &amp; &lt;Co&gt;');
    expect(page).not.toContain('<Co>');
    expect(page).not.toMatch(/<script|https?:\/\/[^"]*\.(css|js)/);
  });

  it('a dry run writes no page, and says so', async () => {
    const before = readFileSync(s.page);
    const r = await s.sync('--dry-run', '--status-html', s.page);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout.split('\n')[0]).toContain('--status-html not written');
    expect(readFileSync(s.page).equals(before)).toBe(true);
  });
});

describe('sync status', () => {
  it('says the same from the state alone: text, --json and the page, without a run or the lock', async () => {
    // A run holds the lock the whole time: status reads beside it.
    const holder = openSqliteStore(s.state);
    syncStoreOf(holder).lock({ pid: process.pid, host: 'test', since: new Date().toISOString() });
    const requests = sim.stats.snapshot().requests;
    try {
      const page = join(s.dir, 'from-state.html');
      const text = await runBin(['sync', 'status', '--state', s.state, '--html', page], env);
      expect(text.code, text.stderr).toBe(1);
      expect(text.stdout.split('\n')[0]).toBe(
        `${s.state}: 5 portal events: 2 linked, 3 not (1 ambiguous, 1 not found, 1 gone); 1 class lost their link; 2 runs.`,
      );
      expect(text.stdout).toMatch(/^Last run: \S+, took \d+(?: ms|\.\d s), \d+ requests?, exit 1\.$/m);
      expect(text.stdout).toContain(`! portal:${s.lossy.id}: class H70 unmapped since `);
      expect(text.stdout).toContain(`! portal:${s.doomed.id}: gone since `);
      expect(text.stdout).toMatch(new RegExp(`^! ${s.twinKey}: ambiguous: `, 'm'));
      expect(text.stdout).toContain('Lines marked ! need a person: pin a link with --pin KEY=EVENTID');

      const json = await runBin(['sync', 'status', '--state', s.state, '--json'], env);
      expect(json.code, json.stderr).toBe(1);
      const doc = JSON.parse(json.stdout) as {
        ok: boolean;
        runs: number;
        counts: Record<string, number>;
        recentRuns: Array<{ requests: number; attention: boolean; durationMs: number }>;
        attention: Array<{ key: string; kind: string }>;
        events: Array<{ key: string; link?: { status: string } }>;
      };
      expect(doc).toMatchObject({ ok: false, runs: 2 });
      expect(doc.counts).toMatchObject({ portalEvents: 5, linked: 2, ambiguous: 1, notFound: 1, gone: 1 });
      expect(doc.counts.classesUnmapped).toBe(1);
      expect(doc.recentRuns).toHaveLength(2);
      expect(doc.recentRuns.every((r) => r.attention && r.durationMs >= 0)).toBe(true);
      expect(doc.attention.map((c) => c.kind).sort()).toEqual([
        'still_ambiguous',
        'still_class_unmapped',
        'still_gone',
        'still_unmatched',
      ]);
      expect(doc.events.map((e) => [e.key, e.link?.status])).toContainEqual([s.twinKey, 'ambiguous']);

      const html = readFileSync(page, 'utf8');
      expect(html).toContain('Written from the state, without a run');
      expect(html).toContain('data-verdict="attention"');
      for (const twin of s.twins) expect(html).toContain(`--pin ${s.twinKey}=${twin.id}`);
      expect(html).toMatch(/<h2>Last run<\/h2>[\s\S]*<th scope="row">exit code<\/th><td>1<\/td>/);
    } finally {
      holder.close();
    }
    expect(sim.stats.snapshot().requests).toBe(requests);
  });

  it('a state that is missing or damaged is exit 4 with a clear message, and no page', async () => {
    const page = join(dir, 'none.html');
    const missing = await runBin(['sync', 'status', '--state', join(dir, 'absent.sqlite'), '--html', page], env);
    expect(missing.code).toBe(4);
    expect(missing.stderr).toMatch(/absent\.sqlite: there is no state file here: a sync run makes one\./);
    expect(existsSync(join(dir, 'absent.sqlite'))).toBe(false);
    const damaged = join(dir, 'damaged.sqlite');
    writeFileSync(damaged, 'not a database at all\n');
    const bad = await runBin(['sync', 'status', '--state', damaged, '--html', page, '--json'], env);
    expect(bad.code).toBe(4);
    expect(JSON.parse(bad.stdout)).toMatchObject({ ok: false, error: { code: 'state', reason: 'corrupt' } });
    expect(existsSync(page)).toBe(false);
  });

  it('`sync <folder>` with its options still runs the sync: only the word right after it names the subcommand', async () => {
    const r = await s.sync('--json');
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ committed: true, runs: 3 });
  });
});

describe('sync --status-html after a failed run', () => {
  it('the service failing every request: exit 3, and the page says first that the run failed and why', async () => {
    const page = join(s.dir, 'failed.html');
    sim.faults.settings.rate = 1;
    sim.faults.settings.kinds = ['500'];
    let r;
    try {
      r = await s.sync('--status-html', page, '--full');
    } finally {
      sim.faults.settings.rate = 0;
    }
    expect(r.code, r.stderr).toBe(3);
    const html = readFileSync(page, 'utf8');
    const body = html.slice(html.indexOf('<body>'));
    // The verdict is the first thing after the heading and the line naming the state.
    expect(body.indexOf('data-verdict="failed"')).toBeGreaterThan(0);
    expect(body.indexOf('data-verdict="failed"')).toBeLessThan(body.indexOf('<h2'));
    expect(html).toMatch(/<strong>THE RUN FAILED<\/strong> \(exit 3\): .*500.*Nothing was committed/);
    expect(html).toMatch(/<th scope="row">outcome<\/th><td>nothing committed<\/td>/);
    // What the last good run left is still there below.
    expect(html).toContain('<h2 id="needs-person">Needs a person</h2>');
    expect(html).toContain(`--pin ${s.twinKey}=${s.twins[0].id}`);
  }, 30_000);

  it('an unreachable service: the page says the run failed, with the error in words', async () => {
    const page = join(s.dir, 'down.html');
    const port = await closedPort();
    const r = await runBin(syncAgainst(port, page), env);
    expect(r.code, r.stderr).toBe(3);
    const html = readFileSync(page, 'utf8');
    expect(html).toMatch(/<strong>THE RUN FAILED<\/strong> \(exit 3\): [^<]*127\.0\.0\.1:\d+/);
    expect(html).toMatch(/<th scope="row">requests to the service<\/th><td>\d+<\/td>/);
  }, 30_000);
});

describe('sync --status-html: the exit code the shell sees, and a path checked before the run', () => {
  it('a run ended by SIGTERM while waiting on the service: exit 143, and the page says 143 and interrupted', async () => {
    // A service that accepts connections and never answers: the run is waiting on it when the signal comes.
    const held: Socket[] = [];
    const silent = createServer((socket) => held.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as AddressInfo).port;
    const page = join(s.dir, 'terminated.html');
    try {
      const child = spawn(process.execPath, [BIN, ...syncAgainst(port, page)], { cwd: ROOT, env });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      const connected = new Promise<void>((resolve) => silent.once('connection', () => resolve()));
      const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
      await connected;
      child.kill('SIGTERM');
      expect(await closed, stderr).toBe(143);
      const html = readFileSync(page, 'utf8');
      expect(html).toMatch(/<strong>THE RUN FAILED<\/strong> \(exit 143\): interrupted before its end\./);
      expect(html).toMatch(/<th scope="row">exit code<\/th><td>143<\/td>/);
    } finally {
      for (const socket of held) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  }, 30_000);

  it('a page path that is a folder is a usage error (exit 2) before the run: the state is left as it was', async () => {
    const before = readFileSync(s.state);
    const r = await s.sync('--status-html', s.dir);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`--status-html ${s.dir}: it is a folder; give a file name`);
    expect(readFileSync(s.state).equals(before)).toBe(true);
    const missing = join(s.dir, 'no-such-folder', 'page.html');
    const r2 = await s.sync('--status-html', missing);
    expect(r2.code, r2.stderr).toBe(2);
    expect(r2.stderr).toMatch(/the folder .*no-such-folder does not exist/);
  });

  it('an --out that is a folder, or an --out-dir that is a file, is a usage error (exit 2) before the run', async () => {
    const before = readFileSync(s.state);
    const r = await s.sync('--out', s.dir);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`--out ${s.dir}: it is a folder; give a file name`);
    const r2 = await s.sync('--out-dir', join(s.state, 'fragments'));
    expect(r2.code, r2.stderr).toBe(2);
    expect(r2.stderr).toContain(`--out-dir ${join(s.state, 'fragments')}: ${s.state} is a file, not a folder`);
    expect(readFileSync(s.state).equals(before)).toBe(true);
    // A folder that does not exist yet is made: the run goes on.
    const r3 = await s.sync('--out-dir', join(s.dir, 'new', 'fragments'));
    expect([0, 1], r3.stderr).toContain(r3.code);
  });
});

describe('the status page after five churned nights', () => {
  it('holds every portal event, and exactly the lost classes and gone events the state holds, with no empty table', async () => {
    const churned = await startSimulator({ port: 0, seed: 31, events: 120, churn: 0.25 });
    try {
      const d = join(dir, 'churn');
      const events = [...churned.state.eventsById.values()].sort((a, b) => a.id - b.id);
      const portal = events.filter((_, i) => i % 4 === 0).slice(0, 24);
      const sc = await syncScenario(churned, d, env, portal);
      let last = sc.second;
      for (let night = 3; night <= 5; night++) {
        churned.state.clock.advance(86_400_000);
        last = await sc.sync('--status-html', sc.page, '--full');
        expect([0, 1], last.stderr).toContain(last.code);
      }
      const state = JSON.parse((await runBin(['sync', 'status', '--state', sc.state, '--json'], env)).stdout) as {
        events: Array<{
          key: string;
          link?: { status: string; classes: Array<{ name: string; status: string }> };
        }>;
      };
      const page = readFileSync(sc.page, 'utf8');
      const rowsOf = (cls: string): string[] =>
        (page.match(new RegExp(`<table class="${cls}[^"]*">[\\s\\S]*?</table>`))?.[0] ?? '')
          .match(/<tr class[^>]*>.*<\/tr>|<tr>.*<\/tr>/g)
          ?.slice(1) ?? [];
      // Every portal event, once, with the status the state holds.
      const eventRows = rowsOf('events');
      expect(eventRows).toHaveLength(state.events.length);
      for (const e of state.events) {
        const row = eventRows.find((r) => r.includes(`<code>${html(e.key)}</code>`));
        expect(row, e.key).toBeDefined();
        expect(row).toContain(`data-status="${e.link?.status ?? 'unknown'}"`);
      }
      // The lost classes and gone events the state holds, each once.
      const lost = state.events.flatMap((e) => (e.link?.classes ?? []).filter((c) => c.status === 'unmapped'));
      const gone = state.events.filter((e) => e.link?.status === 'gone');
      expect(lost.length).toBeGreaterThan(0);
      expect(gone.length).toBeGreaterThan(0);
      expect(rowsOf('lost-classes')).toHaveLength(lost.length);
      expect(rowsOf('gone')).toHaveLength(gone.length);
      // No table without a row.
      for (const table of page.match(/<table[\s\S]*?<\/table>/g)!) expect(table).toMatch(/<tbody>\n<tr/);
      expect(page).toMatch(/<h2>Last runs<\/h2>/);
      expect(rowsOf('runs')).toHaveLength(5);
    } finally {
      await churned.close();
    }
  }, 90_000);
});
