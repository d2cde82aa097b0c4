/**
 * The run log the status page shows: a state from before runs kept when they finished is migrated (schema 5) and its
 * runs read without a length; new runs keep it; the last N come newest first; a damaged row is a StateError naming
 * it; and a status asked of a path with no state is an error that creates nothing.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { readSyncStatus } from '../../src/jobs/sync/status.js';
import { MIGRATIONS } from '../../src/store/migrations.js';
import { SqliteStore } from '../../src/store/sqlite.js';
import { APPLICATION_ID } from '../../src/store/state-file.js';
import type { SyncCommit } from '../../src/store/sync-state.js';
import { thrownStateError } from '../helpers/sync.js';

const dir = mkdtempSync(join(tmpdir(), 'lb-run-log-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const commit = (startedAt: string, finishedAt: string, summary: Record<string, number>): SyncCommit => ({
  cursor: {},
  mirrorUpserts: [],
  mirrorDeletes: [],
  portalUpserts: [],
  portalDeletes: [],
  linkUpserts: [],
  linkDeletes: [],
  pins: new Map(),
  history: [],
  run: { startedAt, finishedAt, requests: 1, summary },
});

/** A state written by the version before schema 5, with one run logged. */
function stateAtSchema4(file: string): void {
  const db = new Database(file);
  for (const m of MIGRATIONS.filter((x) => x.version <= 4)) db.exec(m.sql);
  db.pragma(`application_id = ${APPLICATION_ID}`);
  db.pragma('user_version = 4');
  db.prepare('INSERT INTO runs (started_at, service_time, requests, summary) VALUES (?, ?, ?, ?)').run(
    '2026-05-01T03:10:00.000Z',
    null,
    40,
    JSON.stringify({ portalEvents: 3, newly_linked: 3 }),
  );
  db.close();
}

describe('the run log', () => {
  it('reads runs logged before schema 5 without a length, and new ones with theirs, newest first', () => {
    const file = join(dir, 'old.sqlite');
    stateAtSchema4(file);
    const store = new SqliteStore(file);
    store.commit(commit('2026-05-02T03:10:00.000Z', '2026-05-02T03:10:02.500Z', { portalEvents: 3, still_gone: 1 }));
    store.commit(commit('2026-05-03T03:10:00.000Z', '2026-05-03T03:10:01.000Z', { portalEvents: 3 }));
    expect(store.recentRuns(2).map((r) => r.startedAt)).toEqual([
      '2026-05-03T03:10:00.000Z',
      '2026-05-02T03:10:00.000Z',
    ]);
    store.close();
    const status = readSyncStatus(file);
    expect(status.runs).toBe(3);
    expect(status.recentRuns).toEqual([
      expect.objectContaining({ durationMs: 1000, attention: false }),
      expect.objectContaining({ durationMs: 2500, attention: true, summary: { portalEvents: 3, still_gone: 1 } }),
      {
        startedAt: '2026-05-01T03:10:00.000Z',
        requests: 40,
        attention: false,
        summary: { portalEvents: 3, newly_linked: 3 },
      },
    ]);
    expect(readSyncStatus(file, { recentRuns: 1 }).recentRuns).toHaveLength(1);
  });

  it('a run whose summary cannot be read is a StateError naming the row', () => {
    const file = join(dir, 'damaged.sqlite');
    const store = new SqliteStore(file);
    store.commit(commit('2026-05-02T03:10:00.000Z', '2026-05-02T03:10:01.000Z', {}));
    store.close();
    const db = new Database(file);
    db.prepare('UPDATE runs SET summary = \'{"portalEvents": "three"}\'').run();
    db.close();
    const err = thrownStateError(() => readSyncStatus(file));
    expect(err.reason).toBe('corrupt');
    expect(err.message).toMatch(/run 1 \(runs\) cannot be read/);
  });

  it('a status of a path with no state is a StateError (missing), and no file is made', () => {
    const file = join(dir, 'nothing', 'here.sqlite');
    const err = thrownStateError(() => readSyncStatus(file));
    expect(err.reason).toBe('missing');
    expect(existsSync(join(dir, 'nothing'))).toBe(false);
  });
});
