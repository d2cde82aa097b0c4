/**
 * A damaged state file is a StateError naming the file and what to do, wherever the damage shows: pages SQLite cannot
 * read (found when the file is opened), a file cut short, a row whose JSON no longer parses or holds values of the
 * wrong type (found when the row is read: at load, or a mirror record read late in a run), a schema broken under an
 * open store (found at the commit), and the same for the import journal. SQLite's failures map to reasons by class.
 */
import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteImportJournal } from '../../src/store/import-journal.js';
import { MIGRATIONS } from '../../src/store/migrations.js';
import { SqliteStore } from '../../src/store/sqlite.js';
import { stateErrorOf } from '../../src/store/state-errors.js';
import { APPLICATION_ID } from '../../src/store/state-file.js';
import type { LinkRecord, SyncCommit } from '../../src/store/sync-state.js';
import { thrownStateError } from '../helpers/sync.js';

const dir = mkdtempSync(join(tmpdir(), 'lb-damage-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const path = () => join(dir, `state-${++n}.sqlite`);
const RESTORE =
  /Restore it from a backup, or move it away \(with its -wal and -shm files, if any\) to start a new state/;

const link = (key: string, eventId: number): LinkRecord => ({
  key,
  status: 'linked',
  reason: 'test',
  eventId,
  classes: [
    {
      name: 'H21',
      status: 'linked',
      classId: eventId * 10,
      serviceClass: 'H21',
      url: 'u',
      from: 'service',
      method: 'exact',
    },
  ],
  unmatchedPortalClasses: [],
  unmatchedServiceClasses: [],
  candidates: [],
});

/** A season: `events` service events (a few pages of the mirror table) and a link to each. */
function season(events: number): SyncCommit {
  const ids = Array.from({ length: events }, (_, i) => 1000 + i);
  return {
    cursor: { modifiedSince: '2025-05-01T10:00:00Z', windowFrom: '2025-04-01T00:00:00Z' },
    mirrorUpserts: ids.map((id) => ({
      id,
      hash: `h${id}`,
      startMs: Date.parse('2025-05-03T08:00:00Z') + id,
      endMs: Date.parse('2025-05-03T16:00:00Z') + id,
      misses: 0,
      event: {
        id,
        name: `Event ${id}`,
        timeInterval: { start: '2025-05-03T08:00:00Z', end: '2025-05-03T16:00:00Z' },
        classes: [{ id: id * 10, name: 'H21' }],
      },
    })),
    mirrorDeletes: [],
    portalUpserts: ids.map((id) => ({ key: `portal:${id}`, hash: `p${id}`, origin: 'a.json', name: `Event ${id}` })),
    portalDeletes: [],
    linkUpserts: ids.map((id) => link(`portal:${id}`, id)),
    linkDeletes: [],
    pins: new Map([['portal:1000', 1000]]),
    history: [],
    run: { startedAt: '2025-05-01T10:00:00.000Z', requests: 2, summary: {} },
  };
}

/** A state file with a committed season, its WAL folded in (the file alone holds everything). */
function committed(events = 200): string {
  const file = path();
  const store = new SqliteStore(file);
  store.commit(season(events));
  store.close();
  return file;
}

/** Opens and loads: where damage found when opening or reading shows. */
const openAndLoad = (file: string) => () => {
  const store = new SqliteStore(file);
  try {
    return store.load();
  } finally {
    store.close();
  }
};

/** Runs SQL on the file as another program would (a person with sqlite3, say). */
function edit(file: string, sql: string, ...params: unknown[]): void {
  const db = new Database(file);
  db.prepare(sql).run(...params);
  db.close();
}

/** Overwrites bytes in place: every occurrence of `from` in the file becomes `to` (same length). */
function overwrite(file: string, from: string, to: string): void {
  const bytes = readFileSync(file);
  let found = 0;
  for (let at = bytes.indexOf(from); at >= 0; at = bytes.indexOf(from, at + 1), found++)
    Buffer.from(to).copy(bytes, at);
  expect(found, `${from} in ${file}`).toBeGreaterThan(0);
  writeFileSync(file, bytes);
}

describe('a damaged sync state', () => {
  it('refuses a page of garbage in the middle of the file when opening it, and leaves it as it was', () => {
    const file = committed();
    const bytes = readFileSync(file);
    const pages = bytes.length / 4096;
    expect(pages).toBeGreaterThan(10);
    bytes.fill(0x5a, 4096 * Math.floor(pages / 2), 4096 * (Math.floor(pages / 2) + 1));
    writeFileSync(file, bytes);
    const err = thrownStateError(openAndLoad(file));
    expect(err.reason).toBe('corrupt');
    expect(err.message).toMatch(new RegExp(`^${file}: is damaged: SQLite (finds|cannot read it)`));
    expect(err.message).toMatch(RESTORE);
    expect(readFileSync(file).equals(bytes)).toBe(true);
  });

  it('refuses a file cut short', () => {
    const file = committed();
    truncateSync(file, Math.floor(readFileSync(file).length / 2));
    const err = thrownStateError(openAndLoad(file));
    expect(err.reason).toBe('corrupt');
    expect(err.message).toMatch(RESTORE);
  });

  it('refuses a link whose JSON no longer parses, naming the row', () => {
    const file = committed();
    // Bytes overwritten inside a row: SQLite reads the page, the JSON in it is broken.
    overwrite(file, '{"key":"portal:1007"', '{"key":"portal:1007#');
    const err = thrownStateError(openAndLoad(file));
    expect(err.reason).toBe('corrupt');
    expect(err.message).toContain('the link of "portal:1007" (links) cannot be read (its JSON does not parse');
    expect(err.message).toMatch(RESTORE);
  });

  it('refuses rows whose JSON holds values of the wrong type', () => {
    const file = committed();
    edit(file, "UPDATE links SET json = json_set(json, '$.classes', 'H21') WHERE key = 'portal:1003'");
    expect(thrownStateError(openAndLoad(file)).message).toMatch(
      /the link of "portal:1003" \(links\) cannot be read \(.*classes/,
    );
    const other = committed();
    edit(other, "UPDATE meta SET value = json_set(value, '$.modifiedSince', 5) WHERE key = 'cursor'");
    expect(thrownStateError(openAndLoad(other)).message).toMatch(
      /the cursor \(meta 'cursor'\) cannot be read \(.*modifiedSince/,
    );
    const moved = committed();
    edit(moved, "UPDATE links SET json = json_set(json, '$.key', 'portal:9') WHERE key = 'portal:1001'");
    expect(thrownStateError(openAndLoad(moved)).message).toContain('(links) cannot be read (it says portal:9)');
  });

  it('refuses a mirror record whose JSON is damaged when the run reads it, which may be late', () => {
    const file = committed();
    overwrite(file, '{"id":1000,"name":"Event 1000","timeInterval"', '{"id":1000,"name":"Event 1000","timeIntervaX"');
    const store = new SqliteStore(file);
    // Loading reads ids, hashes and intervals only: the record's event is read when a run needs it.
    const state = store.load();
    const err = thrownStateError(() => state.mirror.get(1000)!.event);
    expect(err.reason).toBe('corrupt');
    expect(err.message).toMatch(/service event 1000 \(mirror_events\) cannot be read \(.*timeInterval/);
    expect(state.mirror.get(1001)!.event.name).toBe('Event 1001');
    store.close();
  });

  it('refuses a value of the wrong type in a column (a table that lost its STRICT types)', () => {
    const file = path();
    const db = new Database(file);
    for (const m of MIGRATIONS) db.exec(m.sql.replaceAll(') STRICT;', ');'));
    db.pragma(`application_id = ${APPLICATION_ID}`);
    db.pragma(`user_version = ${MIGRATIONS.at(-1)!.version}`);
    db.prepare("INSERT INTO pins (key, event_id) VALUES ('portal:1', 'soon')").run();
    db.close();
    const err = thrownStateError(openAndLoad(file));
    expect(err.message).toContain('the pin of "portal:1" (pins) cannot be read (event_id holds string, not number)');
  });

  it('refuses to commit into a file whose schema was broken while the run worked, committing nothing', () => {
    const file = committed();
    const store = new SqliteStore(file);
    const before = store.load();
    // Another program breaks the schema (with its safety off) while the run works.
    const db = new Database(file);
    db.unsafeMode(true);
    db.pragma('writable_schema = ON');
    db.prepare("UPDATE sqlite_master SET sql = 'CREATE TABLE links (' WHERE name = 'links'").run();
    db.pragma(`schema_version = ${(db.pragma('schema_version', { simple: true }) as number) + 1}`);
    db.close();
    const err = thrownStateError(() => store.commit({ ...season(3), run: { ...season(3).run, startedAt: 'tonight' } }));
    expect(err.reason).toBe('corrupt');
    expect(err.message).toMatch(new RegExp(`^${file}: is damaged: SQLite cannot read it \\(malformed database schema`));
    store.close();
    expect(before.runs).toBe(1);
  });
});

describe('a damaged import journal', () => {
  const journalWith = () => {
    const file = path();
    const journal = new SqliteImportJournal(file);
    journal.record({ id: 'lb-1', file: 'a.gpx', contentHash: 'h', state: 'imported', record: { status: 'imported' } });
    journal.record({ id: 'lb-2', file: 'b.gpx', contentHash: 'h', state: 'planned' });
    journal.close();
    return file;
  };

  it('refuses a record whose JSON no longer parses, naming the route and how to start anew', () => {
    const file = journalWith();
    edit(file, `UPDATE route_imports SET record = '{"status": "imp' WHERE id = 'lb-1'`);
    const journal = new SqliteImportJournal(file);
    expect(journal.get('lb-2')?.state).toBe('planned');
    const err = thrownStateError(() => journal.get('lb-1'));
    expect(err.reason).toBe('corrupt');
    expect(err.message).toContain('the import record of route lb-1 (route_imports) cannot be read');
    expect(err.message).toContain(
      'to start a new journal: the next run then posts every route again under the same id',
    );
    expect(thrownStateError(() => journal.all()).path).toBe(file);
    journal.close();
  });

  it('refuses a record of the wrong shape', () => {
    const file = journalWith();
    edit(file, `UPDATE route_imports SET record = '{"status": "done"}' WHERE id = 'lb-1'`);
    const journal = new SqliteImportJournal(file);
    expect(thrownStateError(() => journal.get('lb-1')).message).toMatch(
      /route lb-1 \(route_imports\) cannot be read \(.*status/,
    );
    journal.close();
  });
});

describe("SQLite's failures as reasons", () => {
  const file = { path: '/data/sync.sqlite', role: 'sync' as const };
  const sqlite = (code: string, message = 'failed') => new Database.SqliteError(message, code);

  it('maps each class of result code, and leaves the rest alone', () => {
    const cases: Array<[string, string, string | undefined]> = [
      ['SQLITE_CORRUPT', 'database disk image is malformed', 'corrupt'],
      ['SQLITE_CORRUPT_INDEX', 'database disk image is malformed', 'corrupt'],
      ['SQLITE_NOTADB', 'file is not a database', 'corrupt'],
      ['SQLITE_FULL', 'database or disk is full', 'full'],
      ['SQLITE_IOERR_SHMSIZE', 'disk I/O error', 'full'],
      ['SQLITE_IOERR_WRITE', 'disk I/O error', 'unwritable'],
      ['SQLITE_READONLY_DBMOVED', 'attempt to write a readonly database', 'unwritable'],
      ['SQLITE_CANTOPEN', 'unable to open database file', 'unwritable'],
      ['SQLITE_BUSY', 'database is locked', 'locked'],
      ['SQLITE_ERROR', 'no such table: links', 'corrupt'],
      ['SQLITE_ERROR', 'near "x": syntax error', undefined],
      ['SQLITE_CONSTRAINT_UNIQUE', 'UNIQUE constraint failed', undefined],
      ['SQLITE_MISUSE', 'bad parameter or other API misuse', undefined],
    ];
    for (const [code, message, reason] of cases) {
      const err = stateErrorOf(file, sqlite(code, message));
      expect(err?.reason, code).toBe(reason);
      if (err) {
        expect(err.message.startsWith('/data/sync.sqlite: '), code).toBe(true);
        expect(err.message, code).toContain(`(${message} (${code}))`);
        expect(err.cause).toBeInstanceOf(Database.SqliteError);
      }
    }
    expect(stateErrorOf(file, new TypeError('x'))).toBeUndefined();
    expect(stateErrorOf(file, sqlite('SQLITE_FULL'))!.message).toContain('the disk is full');
  });
});
