/**
 * The state file's schema, as numbered migrations. `PRAGMA user_version` holds the number of the last one applied;
 * each runs in the transaction that bumps it, so a file is always at one version. A file at a version this code does
 * not know (written by a newer livelox-bridge) is refused, never migrated down.
 */

export interface Migration {
  version: number;
  /** What it adds, for the error that names a version. */
  what: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    what: 'sync: mirror, portal events, links with history, pins, cursor, run log',
    sql: `
      CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
      CREATE TABLE mirror_events (
        id INTEGER PRIMARY KEY,
        hash TEXT NOT NULL,
        start_ms INTEGER NOT NULL,
        end_ms INTEGER NOT NULL,
        misses INTEGER NOT NULL DEFAULT 0,
        json TEXT NOT NULL
      ) STRICT;
      CREATE INDEX mirror_events_start ON mirror_events (start_ms);
      CREATE TABLE portal_events (
        key TEXT PRIMARY KEY,
        hash TEXT NOT NULL,
        origin TEXT NOT NULL,
        name TEXT NOT NULL,
        start TEXT
      ) STRICT;
      CREATE TABLE links (
        key TEXT PRIMARY KEY,
        status TEXT NOT NULL,
        event_id INTEGER,
        json TEXT NOT NULL
      ) STRICT;
      CREATE TABLE pins (key TEXT PRIMARY KEY, event_id INTEGER NOT NULL) STRICT;
      CREATE TABLE runs (
        id INTEGER PRIMARY KEY,
        started_at TEXT NOT NULL,
        service_time TEXT,
        requests INTEGER NOT NULL,
        summary TEXT NOT NULL
      ) STRICT;
      CREATE TABLE link_history (
        run_id INTEGER NOT NULL REFERENCES runs (id),
        key TEXT NOT NULL,
        change TEXT NOT NULL,
        detail TEXT NOT NULL
      ) STRICT;
      CREATE INDEX link_history_key ON link_history (key);
      CREATE TABLE run_lock (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        pid INTEGER NOT NULL,
        host TEXT NOT NULL,
        since TEXT NOT NULL
      ) STRICT;
    `,
  },
  {
    version: 2,
    what: 'import: the route import journal',
    // One row per route id: the intent (planned) is written before its POST, every later state after it.
    sql: `
      CREATE TABLE route_imports (
        id TEXT PRIMARY KEY,
        file TEXT NOT NULL,
        content_hash TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('planned', 'posted', 'pending', 'imported', 'error', 'failed')),
        record TEXT,
        error TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX route_imports_state ON route_imports (state);
    `,
  },
  {
    version: 3,
    what: 'sync: the run lock moved to a file beside the state, released by the system when its holder ends',
    // The table held a pid and host that a run had to judge alive or dead: a pid reused (pid 1 in every container)
    // or a host renamed kept every later run out. Its rows are dropped with it, and a version that still reads it
    // refuses this file as newer, so two versions never run on one state with different locks.
    sql: `DROP TABLE run_lock;`,
  },
  {
    version: 4,
    what: 'import: which run each route is (file, runner, start), to notice a file edited after its import',
    // Null in rows written before: such a route is not compared with its edited versions.
    sql: `
      ALTER TABLE route_imports ADD COLUMN file_hash TEXT;
      ALTER TABLE route_imports ADD COLUMN run_key TEXT;
      CREATE INDEX route_imports_run ON route_imports (run_key, updated_at);
    `,
  },
  {
    version: 5,
    what: 'sync: when each run finished, so that a status page says how long the last runs took',
    // Null in rows written before: their length is not known.
    sql: `ALTER TABLE runs ADD COLUMN finished_at TEXT;`,
  },
  {
    version: 6,
    what: 'publish: the importable events published, by course file event and race',
    // Several rows may share a key (publishing as a new event adds one); the newest is the one a publish updates.
    // Written as soon as the create answers, so that a publish run again never creates a second importable event.
    sql: `
      CREATE TABLE published_events (
        seq INTEGER PRIMARY KEY,
        key TEXT NOT NULL,
        importable_id TEXT NOT NULL,
        file TEXT NOT NULL,
        name TEXT NOT NULL,
        state TEXT NOT NULL,
        event_id INTEGER,
        links TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX published_events_key ON published_events (key, seq);
    `,
  },
];

export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;
