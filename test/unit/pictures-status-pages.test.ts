/**
 * The status page and the import report page as pure functions of their input: what a page says first, what it leaves
 * out, every text escaped, failures first, and the CLI's mapping of the sync job's status into the page (each change
 * that needs a person in its section, with the words of the run report and a pin line a shell takes as one word).
 */
import { describe, expect, it } from 'vitest';
import { statusPageInput } from '../../src/cli/commands/sync/status-page.js';
import type { SyncChange } from '../../src/jobs/sync/changes.js';
import type { SyncStatus } from '../../src/jobs/sync/status.js';
import { importReportPage, type ImportRouteRow } from '../../src/pictures/import-report-page.js';
import { durationText, timeText } from '../../src/pictures/page-parts.js';
import { syncStatusPage, type SyncStatusPageInput } from '../../src/pictures/sync-status-page.js';
import type { LinkRecord } from '../../src/store/sync-state.js';

const NONE: SyncStatusPageInput['needsPerson'] = { unlinked: [], lostClasses: [], gone: [], other: [], advice: 'Act.' };

function input(over: Partial<SyncStatusPageInput> = {}): SyncStatusPageInput {
  return {
    statePath: '/srv/portal.sqlite',
    writtenAt: '2026-05-02T03:10:09.000Z',
    needsPerson: NONE,
    counts: [{ label: 'portal events', value: 3 }],
    runs: [],
    totalRuns: 0,
    events: [],
    ...over,
  };
}

const bodyOf = (html: string): string => html.slice(html.indexOf('<body>'));

describe('the sync status page', () => {
  it('says first that the run failed, with the error in words, before anything else', () => {
    const html = syncStatusPage(
      input({
        run: {
          startedAt: '2026-05-02T03:10:00.000Z',
          durationMs: 9_100,
          requests: 5,
          exitCode: 3,
          outcome: 'nothing committed',
          failure: 'the service answered 503 <Service Unavailable>. Nothing was committed.',
        },
      }),
    );
    const body = bodyOf(html);
    const verdict = body.indexOf('data-verdict="failed"');
    expect(verdict).toBeGreaterThan(0);
    expect(verdict).toBeLessThan(body.indexOf('<h2'));
    expect(body).toContain(
      '<strong>THE RUN FAILED</strong> (exit 3): the service answered 503 &lt;Service Unavailable&gt;.',
    );
    expect(body).toContain('<th scope="row">took</th><td>9.1 s</td>');
    expect(body).toContain('<th scope="row">requests to the service</th><td>5</td>');
  });

  it('with nothing for a person: ALL LINKED, and the last run is the newest of the run log when no run wrote it', () => {
    const html = syncStatusPage(
      input({
        runs: [
          { startedAt: '2026-05-02T03:10:00.000Z', durationMs: 800, requests: 1, exitCode: 0, outcome: 'committed' },
          { startedAt: '2026-05-01T03:10:00.000Z', requests: 40, exitCode: 0, outcome: 'committed' },
        ],
        totalRuns: 31,
      }),
    );
    expect(html).toContain('data-verdict="ok"');
    expect(html).toContain('Written from the state, without a run');
    expect(html).toContain('<h2 id="needs-person">Needs a person</h2>\n<p>Nothing.</p>');
    expect(html).toContain('<th scope="row">took</th><td>800 ms</td>');
    expect(html).toContain('<h2>Last runs (the last 2 of 31)</h2>');
    // A run logged before the state kept when runs finished: its length is not made up.
    expect(html).toMatch(/2026-05-01 03:10:00 UTC<\/span><\/td><td><span class="nowrap"><\/span><\/td><td>40<\/td>/);
  });

  it('a state that cannot be read: said in the banner, and no counts or tables made up', () => {
    const html = syncStatusPage(input({ stateProblem: 'portal.sqlite: is damaged.' }));
    expect(html).toContain('data-verdict="unreadable"');
    expect(html).not.toContain('<h2>Counts</h2>');
    expect(html).not.toContain('Needs a person');
  });

  it('escapes every text it is handed', () => {
    const evil = '<img src=x onerror=alert(1)>';
    const html = syncStatusPage(
      input({
        statePath: evil,
        needsPerson: {
          unlinked: [
            {
              key: evil,
              words: evil,
              candidates: [{ id: 1, name: evil, start: '2026-05-01', score: 0.5, pin: `--pin '${evil}=1'` }],
            },
          ],
          lostClasses: [{ key: evil, className: evil, was: evil, reason: evil, since: evil }],
          gone: [{ key: evil, event: evil, reason: evil }],
          other: [{ key: evil, words: evil }],
          advice: evil,
        },
        events: [
          {
            key: evil,
            name: evil,
            status: 'gone',
            serviceEvent: evil,
            pinned: true,
            classesLinked: 0,
            classesUnmapped: 0,
            note: evil,
          },
        ],
      }),
    );
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });
});

describe('the import report page', () => {
  const row = (
    file: string,
    status: ImportRouteRow['status'],
    extra: Partial<ImportRouteRow> = {},
  ): ImportRouteRow => ({
    file,
    status,
    problem: '',
    changed: '',
    ...extra,
  });

  it('lists the routes that need a look first, names their folder once, and links only web addresses', () => {
    const html = importReportPage({
      writtenAt: '2026-05-02T10:00:00.000Z',
      ok: false,
      summary: '5 routes: 2 imported, 1 failed.',
      notes: [],
      counts: [{ label: 'failed', value: 1, attention: true }],
      routes: [
        row('/data/runs/a.gpx', 'imported', { viewerUrl: 'https://www.livelox.com/Viewer?classId=1&routeId=2' }),
        row('/data/runs/b.gpx', 'failed', { problem: 'not well-formed XML' }),
        row('/data/runs/c.fit', 'skipped', { viewerUrl: 'javascript:alert(1)' }),
        row('/data/runs/d.tcx', 'pending', { id: 'lb-abc' }),
        row('/data/runs/e.gpx', 'error', { problem: 'no event fits the route' }),
      ],
    });
    const order = [...html.matchAll(/data-status="(\w+)"/g)].map((m) => m[1]);
    expect(order).toEqual(['failed', 'error', 'pending', 'imported', 'skipped']);
    expect(html).toContain('<strong>3 ROUTES NEED A LOOK</strong>: 5 routes: 2 imported, 1 failed.');
    expect(html).toContain('Files in <code>/data/runs/</code>');
    expect(html).toContain('<code title="/data/runs/b.gpx">b.gpx</code>');
    expect(html).toContain(
      '<a href="https://www.livelox.com/Viewer?classId=1&amp;routeId=2" rel="noopener">https://www.livelox.com/Viewer?classId=1&amp;routeId=2</a>',
    );
    expect(html).not.toContain('href="javascript');
    expect(html).toContain('<span class="route-id">lb-abc</span>');
  });
});

describe('times and durations as people read them', () => {
  it('formats', () => {
    expect(timeText('2026-05-02T03:10:09.123Z')).toBe('2026-05-02 03:10:09 UTC');
    expect(timeText('not a time')).toBe('not a time');
    expect([850, 12_400, 185_000, 7_440_000].map(durationText)).toEqual([
      '850 ms',
      '12.4 s',
      '3 min 05 s',
      '2 h 04 min',
    ]);
  });
});

describe("the CLI's mapping of a sync status into the page", () => {
  const link = (over: Partial<LinkRecord> & Pick<LinkRecord, 'key' | 'status'>): LinkRecord => ({
    reason: '',
    classes: [],
    unmatchedPortalClasses: [],
    unmatchedServiceClasses: [],
    candidates: [],
    ...over,
  });
  const links = [
    link({
      key: "club's night",
      status: 'ambiguous',
      reason: 'two compete',
      candidates: [
        { id: 11, name: 'Natt', start: '2026-05-01T18:00:00Z', score: 0.8 },
        { id: 12, name: 'Natt', start: '2026-05-01T18:00:00Z', score: 0.8 },
      ],
    }),
    link({
      key: 'gone:1',
      status: 'gone',
      reason: 'deleted',
      since: '2026-05-01T00:00:00Z',
      eventId: 7,
      eventName: 'X',
    }),
    link({
      key: 'lossy',
      status: 'linked',
      eventId: 8,
      eventName: 'Y',
      classes: [
        {
          name: 'H70',
          status: 'unmapped',
          reason: 'removed',
          since: '2026-05-01T00:00:00Z',
          was: { classId: 3, serviceClass: 'H70' },
        },
      ],
    }),
  ];
  const attention: SyncChange[] = [
    { key: "club's night", kind: 'still_ambiguous', message: 'ambiguous: two compete', attention: true },
    { key: 'gone:1', kind: 'still_gone', message: 'gone since ...', attention: true },
    { key: 'lossy', kind: 'still_class_unmapped', message: 'class H70 unmapped since ...', attention: true },
    { key: 'lossy', kind: 'class_unmapped', message: 'class H70 lost its link', attention: true },
    { key: 'folder/bad.xml', kind: 'portal_problem', message: 'not well-formed', attention: true },
  ];
  const status: SyncStatus = {
    state: '/s.sqlite',
    runs: 1,
    recentRuns: [
      {
        startedAt: '2026-05-01T03:00:00Z',
        requests: 3,
        attention: true,
        summary: { portalEvents: 3, mirror: 9, gone: 1, still_ambiguous: 1 },
      },
    ],
    counts: {
      portalEvents: 3,
      linked: 1,
      ambiguous: 1,
      notFound: 0,
      gone: 1,
      classesLinked: 0,
      classesUnmapped: 1,
      pins: 0,
      mirror: 9,
    },
    attention,
    events: links.map((l) => ({ key: l.key, name: l.key, origin: 'x', link: l })),
  };

  it('puts each change in its section once, in the report words, with a pin line per candidate', () => {
    const page = statusPageInput(status, { statePath: '/s.sqlite', writtenAt: new Date('2026-05-02T00:00:00Z') });
    const n = page.needsPerson;
    expect(n.unlinked).toEqual([
      {
        key: "club's night",
        words: 'ambiguous: two compete',
        candidates: [
          expect.objectContaining({ id: 11, pin: `--pin 'club'\\''s night=11'` }),
          expect.objectContaining({ id: 12, pin: `--pin 'club'\\''s night=12'` }),
        ],
      },
    ]);
    expect(n.gone).toEqual([{ key: 'gone:1', event: 'X (7)', reason: 'deleted', since: '2026-05-01T00:00:00Z' }]);
    expect(n.lostClasses).toEqual([
      { key: 'lossy', className: 'H70', was: 'H70 (3)', reason: 'removed', since: '2026-05-01T00:00:00Z' },
    ]);
    expect(n.other).toEqual([{ key: 'folder/bad.xml', words: 'not well-formed' }]);
    expect(n.advice).toBe('Pin a link with --pin KEY=EVENTID, or fix the portal.');
    // The run log: exit 1 for a run that left something for a person, its changes in the summary's words.
    expect(page.runs).toEqual([
      {
        startedAt: '2026-05-01T03:00:00Z',
        requests: 3,
        exitCode: 1,
        outcome: 'committed',
        changes: 'gone 1, still ambiguous 1',
      },
    ]);
    expect(page.events.map((e) => [e.key, e.status, e.classesUnmapped])).toEqual([
      ["club's night", 'ambiguous', 0],
      ['gone:1', 'gone', 0],
      ['lossy', 'linked', 1],
    ]);
  });

  it("after a run, what needs a person is what the run said, not the state's standing words", () => {
    const tonight: SyncChange[] = [
      { key: 'gone:1', kind: 'gone', message: 'no longer linked: deleted', attention: true },
    ];
    const page = statusPageInput(status, {
      statePath: '/s.sqlite',
      writtenAt: new Date('2026-05-02T00:00:00Z'),
      run: {
        startedAt: '2026-05-02T00:00:00Z',
        durationMs: 5,
        requests: 2,
        exitCode: 1,
        committed: true,
        changes: tonight,
      },
    });
    expect(page.needsPerson.gone.map((g) => g.key)).toEqual(['gone:1']);
    expect(page.needsPerson.unlinked).toEqual([]);
    expect(page.run).toMatchObject({ outcome: 'committed', changes: 'gone 1', exitCode: 1 });
  });
});
