/** Portal events made from a simulator's events, temporary state files, and reading a state's tables, for sync tests. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { PortalEvent } from '../../src/ems/portal.js';
import { StateError } from '../../src/errors.js';
import type { SimEvent } from '../../src/simulator/model.js';
import { SqliteStore } from '../../src/store/sqlite.js';

/** The date part (UTC) of epoch ms, as an event system writes a date. */
export function day(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** A portal's view of a simulator event: same name, date, organisers, country and class names, under `key`. */
export function portalEventOf(event: SimEvent, key = `portal:${event.id}`): PortalEvent {
  return {
    key,
    origin: `test ${key}`,
    export: {
      event: {
        name: event.name,
        start: day(event.startMs),
        end: day(event.endMs - 1),
        organisers: event.organisers.map((o) => o.name),
        country: event.countryCode,
        ...(event.position ? { position: event.position } : {}),
      },
      classes: event.classes.map((c) => ({ name: c.name })),
      format: 'test',
      source: `test ${key}`,
    },
  };
}

export class TempStates {
  readonly dir = mkdtempSync(join(tmpdir(), 'lb-sync-'));
  #n = 0;

  path(name = `state-${++this.#n}`): string {
    return join(this.dir, `${name}.sqlite`);
  }

  open(path = this.path()): SqliteStore {
    return new SqliteStore(path);
  }

  cleanup(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * What a state says, without what differs between equal runs (the run log, its timestamps, the lock): the mirror,
 * portal events, links, pins, the cursor and the link history's changes.
 */
export function logicalState(path: string): Record<string, unknown> {
  const db = new Database(path, { readonly: true });
  try {
    const all = (sql: string) => db.prepare(sql).all();
    return {
      meta: all('SELECT key, value FROM meta ORDER BY key'),
      mirror: all('SELECT id, hash, start_ms, misses, json FROM mirror_events ORDER BY id'),
      portal: all('SELECT key, hash, origin, name, start FROM portal_events ORDER BY key'),
      links: all('SELECT key, status, event_id, json FROM links ORDER BY key'),
      pins: all('SELECT key, event_id FROM pins ORDER BY key'),
      history: all('SELECT key, change, detail FROM link_history ORDER BY rowid'),
    };
  } finally {
    db.close();
  }
}

/** The StateError `fn` throws (any other error is thrown on; none at all fails the test). */
export function thrownStateError(fn: () => unknown): StateError {
  try {
    fn();
  } catch (err) {
    if (err instanceof StateError) return err;
    throw err;
  }
  throw new Error('expected a StateError');
}
