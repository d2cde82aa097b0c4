/**
 * The import journal lives in the sync state file type: it migrates a file written before it existed, shares a file
 * with the sync store, and keeps when a route was first planned across its state changes. The ids and the polling
 * pace of a bulk import are pure and checked here too.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { ImportPace } from '../../src/jobs/import-routes/pace.js';
import { routeId, runKey, sentContentHash } from '../../src/jobs/import-routes/route-id.js';
import { contentRouteId, MAX_ROUTE_ID_LENGTH } from '../../src/resources/routes.js';
import { importJournalOf, openImportJournal, SqliteImportJournal } from '../../src/store/import-journal.js';
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/store/migrations.js';
import { SqliteStore } from '../../src/store/sqlite.js';
import { APPLICATION_ID } from '../../src/store/state-file.js';

const dir = mkdtempSync(join(tmpdir(), 'lb-journal-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('import journal', () => {
  it('migrates a sync state file of schema 1 and shares it with the sync store', () => {
    const file = join(dir, 'v1.sqlite');
    const db = new Database(file);
    db.exec(MIGRATIONS[0]!.sql);
    db.pragma(`application_id = ${APPLICATION_ID}`);
    db.pragma('user_version = 1');
    db.close();
    const journal = new SqliteImportJournal(file);
    const store = new SqliteStore(file);
    expect(store.load().runs).toBe(0);
    journal.record({ id: 'lb-1', file: 'a.gpx', contentHash: 'h', state: 'planned' });
    expect(journal.get('lb-1')).toMatchObject({ id: 'lb-1', file: 'a.gpx', contentHash: 'h', state: 'planned' });
    store.close();
    journal.close();
    const check = new Database(file, { readonly: true });
    expect(check.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    check.close();
  });

  it('records every state with the last record and error, keeping when the route was first planned', async () => {
    const journal = new SqliteImportJournal(join(dir, 'states.sqlite'));
    journal.record({ id: 'r', file: 'r.gpx', contentHash: 'h', state: 'planned' });
    const planned = journal.get('r')!;
    await new Promise((resolve) => setTimeout(resolve, 5));
    const record = { status: 'error' as const, errorMessage: 'No event matches the route.' };
    journal.record({ id: 'r', file: 'r.gpx', contentHash: 'h', state: 'error', record, error: record.errorMessage });
    const settled = journal.get('r')!;
    expect(settled).toMatchObject({ state: 'error', record, error: record.errorMessage });
    expect(settled.createdAt).toBe(planned.createdAt);
    expect(settled.updatedAt > planned.updatedAt).toBe(true);
    expect(journal.get('unknown')).toBeUndefined();
    expect(journal.all().map((e) => e.id)).toEqual(['r']);
    journal.close();
  });

  it('is handed to a job as the journal it is, and nothing else passes for one', () => {
    const file = join(dir, 'handle.sqlite');
    const opened = openImportJournal(file);
    expect(opened).toMatchObject({ kind: 'import-journal', path: file });
    expect(importJournalOf(opened)).toBe(opened);
    opened.close();
    const lookalike = { kind: 'import-journal' as const, path: file, readOnly: false, close: () => undefined };
    expect(() => importJournalOf(lookalike)).toThrow(
      new TypeError('the import journal must be one that openImportJournal opened'),
    );
  });
});

describe('import journal opened read-only (a dry run)', () => {
  const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

  it('reads an absent journal as an empty one, creating neither the file nor its folder, and refuses to record', () => {
    const file = join(dir, 'absent', 'journal.sqlite');
    const journal = new SqliteImportJournal(file, { readOnly: true });
    expect(journal.readOnly).toBe(true);
    expect(journal.get('lb-1')).toBeUndefined();
    expect(() => journal.record({ id: 'lb-1', file: 'a.gpx', contentHash: 'h', state: 'planned' })).toThrow(TypeError);
    journal.close();
    expect(existsSync(join(dir, 'absent'))).toBe(false);
  });

  it('reads a journal of an older schema without migrating the file, which stays byte for byte', () => {
    const folder = join(dir, 'older');
    mkdirSync(folder);
    const file = join(folder, 'v2.sqlite');
    // A journal of schema 2, as an earlier version wrote it.
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    for (const m of MIGRATIONS.slice(0, 2)) db.exec(m.sql);
    db.pragma(`application_id = ${APPLICATION_ID}`);
    db.pragma('user_version = 2');
    db.prepare(
      "INSERT INTO route_imports (id, file, content_hash, state, created_at, updated_at) VALUES ('lb-1', 'a.gpx', 'h', 'imported', '2026-01-01', '2026-01-01')",
    ).run();
    db.close();
    const before = sha256(file);
    const listing = readdirSync(folder);
    const journal = new SqliteImportJournal(file, { readOnly: true });
    expect(journal.get('lb-1')).toMatchObject({ state: 'imported', contentHash: 'h' });
    expect(journal.otherOfRun('k', 'lb-2')).toBeUndefined();
    journal.close();
    expect(sha256(file)).toBe(before);
    expect(readdirSync(folder)).toEqual(listing);
    const check = new Database(file, { readonly: true });
    expect(check.pragma('user_version', { simple: true })).toBe(2);
    check.close();
  });

  it('sees what a run in progress committed but has not checkpointed, and leaves the file as it is', () => {
    const file = join(dir, 'live.sqlite');
    const writer = new SqliteImportJournal(file);
    writer.record({ id: 'lb-1', file: 'a.gpx', contentHash: 'h', state: 'planned' });
    writer.record({ id: 'lb-1', file: 'a.gpx', contentHash: 'h', state: 'posted', runKey: 'k', fileHash: 'f' });
    expect(existsSync(`${file}-wal`)).toBe(true);
    const before = sha256(file);
    const journal = new SqliteImportJournal(file, { readOnly: true });
    expect(journal.get('lb-1')).toMatchObject({ state: 'posted', runKey: 'k', fileHash: 'f' });
    expect(journal.otherOfRun('k', 'lb-2')).toMatchObject({ id: 'lb-1' });
    expect(journal.otherOfRun('k', 'lb-1')).toBeUndefined();
    journal.close();
    expect(sha256(file)).toBe(before);
    writer.close();
  });
});

describe('route ids', () => {
  const bytes = new TextEncoder().encode('<gpx>a run</gpx>');

  it('are deterministic, at most 48 characters, and the content id without a person', () => {
    expect(routeId(bytes)).toBe(contentRouteId(bytes));
    expect(routeId(bytes, { classId: 5, deviceModel: 'Watch' })).toBe(contentRouteId(bytes));
    const anna = routeId(bytes, { person: { firstName: 'Anna' } });
    expect(anna).toBe(routeId(bytes, { person: { firstName: 'Anna', lastName: '' } }));
    expect(anna).not.toBe(routeId(bytes, { person: { firstName: 'Berit' } }));
    expect(anna.length).toBeLessThanOrEqual(MAX_ROUTE_ID_LENGTH);
  });

  it('know a run by its file, runner and start, whatever its bytes', () => {
    const key = runKey('/runs/anna.gpx', { firstName: 'Anna' }, 1000);
    expect(key).toBe(runKey('/runs/anna.gpx', { firstName: 'Anna', lastName: '' }, 1000));
    expect(key).not.toBe(runKey('/runs/anna.gpx', { firstName: 'Berit' }, 1000));
    expect(key).not.toBe(runKey('/runs/anna.gpx', { firstName: 'Anna' }, 2000));
    expect(key).not.toBe(runKey('/runs/other.gpx', { firstName: 'Anna' }, 1000));
    expect(runKey('/runs/a.gpx', undefined, 1)).toBe(runKey('/runs/a.gpx', {}, 1));
  });

  it('hash what was sent, so a corrected class or device is posted again under the same id', () => {
    expect(sentContentHash(bytes, { classId: 5 })).toBe(sentContentHash(bytes, { classId: 5 }));
    expect(sentContentHash(bytes, { classId: 5 })).not.toBe(sentContentHash(bytes, { classId: 6 }));
    expect(sentContentHash(bytes, {})).not.toBe(sentContentHash(bytes, { deviceModel: 'Watch' }));
  });
});

describe('import pace', () => {
  it('starts at three quarters of the expected import time, then steps of a fifth, growing', () => {
    const pace = new ImportPace({ minMs: 5000, maxMs: 15_000 });
    expect(pace.firstPollMs()).toBe(12_500);
    expect(pace.stepMs(1)).toBe(2500);
    expect(pace.stepMs(2)).toBe(3750);
  });

  it('follows a service faster or slower than expected', () => {
    const fast = new ImportPace({ minMs: 5000, maxMs: 15_000 });
    for (let i = 0; i < 300; i++) fast.observe(true);
    expect(fast.firstPollMs()).toBeLessThan(12_500 / 2);
    const slow = new ImportPace({ minMs: 5000, maxMs: 15_000 });
    for (let i = 0; i < 100; i++) slow.observe(false);
    expect(slow.firstPollMs()).toBeGreaterThan(12_500 * 2);
    const steady = new ImportPace({ minMs: 5000, maxMs: 15_000 });
    for (let i = 0; i < 400; i++) steady.observe(i % 4 !== 0);
    expect(Math.abs(steady.firstPollMs() - 12_500)).toBeLessThan(12_500 * 0.1);
  });
});
