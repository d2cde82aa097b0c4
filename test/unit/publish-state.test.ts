/**
 * The publish state lives in the same state file type as sync and import: it migrates a file of the schema before it
 * (5), keeps one row per importable event, hands a publish the newest one for a course file's key, and says a damaged
 * row is damaged. A read-only state (a dry run) never creates or writes its file.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { StateError } from '../../src/errors.js';
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/store/migrations.js';
import { openPublishState, publishStateOf, SqlitePublishState } from '../../src/store/publish-state.js';
import { SqliteImportJournal } from '../../src/store/import-journal.js';
import { APPLICATION_ID } from '../../src/store/state-file.js';

const dir = mkdtempSync(join(tmpdir(), 'lb-publish-state-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const row = (importableId: string, key = 'k') => ({
  key,
  importableId,
  file: 'CourseData.xml',
  name: 'Event',
  state: 'created' as const,
  links: { importUrl: `https://example.org/${importableId}` },
});

describe('publish state', () => {
  it('migrates a state file of schema 5 and shares it with the import journal', () => {
    const file = join(dir, 'v5.sqlite');
    const db = new Database(file);
    for (const m of MIGRATIONS.filter((x) => x.version <= 5)) db.exec(m.sql);
    db.pragma(`application_id = ${APPLICATION_ID}`);
    db.pragma('user_version = 5');
    db.close();
    const state = new SqlitePublishState(file);
    const journal = new SqliteImportJournal(file);
    state.record(row('a'));
    expect(state.latest('k')).toMatchObject({ importableId: 'a', state: 'created', links: row('a').links });
    journal.close();
    state.close();
    const check = new Database(file, { readonly: true });
    expect(check.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    check.close();
  });

  it('updates a row in place, and hands a key its newest importable event', () => {
    const state = publishStateOf(openPublishState(join(dir, 'rows.sqlite')));
    state.record(row('a'));
    state.record({ ...row('a'), state: 'imported', eventId: 7, links: { showUrl: 'https://example.org/7' } });
    expect(state.latest('k')).toMatchObject({ importableId: 'a', state: 'imported', eventId: 7 });
    expect(state.latest('k')!.links).toEqual({ showUrl: 'https://example.org/7' });
    state.record(row('b'));
    state.record(row('c', 'other'));
    expect(state.latest('k')!.importableId).toBe('b');
    expect(state.latest('nothing')).toBeUndefined();
    expect(state.all().map((e) => e.importableId)).toEqual(['a', 'b', 'c']);
    state.close();
  });

  it('read-only: neither creates the file nor writes it', () => {
    const file = join(dir, 'absent.sqlite');
    const state = publishStateOf(openPublishState(file, { readOnly: true }));
    expect(state.latest('k')).toBeUndefined();
    expect(() => state.record(row('a'))).toThrow(/read-only/);
    state.close();
    expect(existsSync(file)).toBe(false);
  });

  it('says a row with an unknown state is damaged, naming the file', () => {
    const file = join(dir, 'damaged.sqlite');
    const state = publishStateOf(openPublishState(file));
    state.record(row('a'));
    state.close();
    const db = new Database(file);
    db.prepare("UPDATE published_events SET state = 'lost'").run();
    db.close();
    const again = publishStateOf(openPublishState(file));
    const err = (() => {
      try {
        again.latest('k');
      } catch (e) {
        return e;
      }
    })();
    again.close();
    expect(err).toBeInstanceOf(StateError);
    expect((err as StateError).message).toContain(file);
    expect((err as StateError).message).toMatch(/"lost"/);
  });

  it('takes only a state that openPublishState opened', () => {
    expect(() => publishStateOf({ kind: 'publish-state', path: 'x', readOnly: false, close() {} })).toThrow(TypeError);
  });
});
