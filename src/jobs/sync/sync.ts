/**
 * `sync`: keeps every event of a portal linked to its service event, night after night. One run: read the state, bring
 * the mirror of the service's events up to date (mirror.ts), link every portal event against the mirror
 * (linking.ts, no requests), tell what changed (changes.ts), and commit all of it in one transaction. Nothing is
 * written before that commit, so a run that fails or is killed leaves the state as the last run left it, and the
 * next run does what this one would have.
 */
import { hostname } from 'node:os';
import type { LiveloxClient } from '../../client.js';
import { canonicalJson, contentHash } from '../../core/hash.js';
import { eventDays } from '../../ems/dates.js';
import type { PortalEvent, PortalProblem } from '../../ems/portal.js';
import { checkLinkTemplate, DEFAULT_LINK_TEMPLATE } from '../../links/template.js';
import type {
  HistoryEntry,
  LinkRecord,
  LockHolder,
  MirrorRecord,
  PortalRecord,
  SyncCursor,
} from '../../store/sync-state.js';
import { syncStoreOf, type SyncStateFile } from '../../store/sqlite.js';
import { linkChanges, type SyncChange } from './changes.js';
import { candidateDays, daysOf, indexByDay, linkPortalEvent } from './linking.js';
import { portalWindow, updateMirror, type MirrorProgress, type Window } from './mirror.js';

export interface SyncProgress {
  step: 'state' | 'service' | 'countries' | 'linking' | 'commit';
  detail: string;
}

export interface SyncJobOptions {
  client: LiveloxClient;
  /** The state file `openSqliteStore` opened. */
  store: SyncStateFile;
  /** The portal's events as read this run (`readPortal` or `portalFromSources`), with what could not be read. */
  portal: { events: readonly PortalEvent[]; problems: readonly PortalProblem[] };
  /** Links a person pins: portal key -> service event id. Kept in the state; never overridden. */
  pins?: Readonly<Record<string, number>>;
  /** Pins to remove. */
  unpin?: readonly string[];
  /** Sweep the whole window and count misses: finds events deleted on the service. Recommended weekly. */
  full?: boolean;
  /** How far before the cursor `modifiedSince` asks. Default 1 h. */
  overlapMs?: number;
  /** Days added to both ends of the window the portal's events span. Default 7. */
  marginDays?: number;
  /** Link template for classes the service gives no url for. Default `{viewerUrl}/Viewer?classId={classId}`. */
  template?: string;
  /** Events per search page. Default (and at most) `MAX_PAGE_SIZE`. */
  pageSize?: number;
  /** How old (by the service's clock) the stored country list may be. Default 30 days. */
  countriesMaxAgeMs?: number;
  onProgress?: (p: SyncProgress) => void;
  signal?: AbortSignal | undefined;
  /** The local clock, for the run log only (never for the cursor). Default `new Date()`. */
  now?: () => Date;
}

export interface SyncResult {
  /** What changed since the last run, portal event by portal event, in key order; problems last. */
  changes: SyncChange[];
  /** Every portal event's link as committed, in key order. */
  links: LinkRecord[];
  /** Some change needs a person (unmatched, ambiguous, gone, unreadable). */
  attention: boolean;
  /** Requests sent, retries included. */
  requests: number;
  /** The window the mirror covers. */
  window: { from: string; to: string } | undefined;
  cursor: SyncCursor;
  /** Runs committed so far, this one included. */
  runs: number;
}

const DEFAULT_OVERLAP_MS = 3_600_000;
const DEFAULT_MARGIN_DAYS = 7;
const DEFAULT_COUNTRIES_MAX_AGE_MS = 30 * 86_400_000;

function portalHash(p: PortalEvent): string {
  return contentHash({ event: p.export.event, classes: p.export.classes, serviceEventId: p.serviceEventId ?? null });
}

function portalRecord(p: PortalEvent, hash: string): PortalRecord {
  return {
    key: p.key,
    hash,
    origin: p.origin,
    name: p.export.event.name,
    ...(p.export.event.start === undefined ? {} : { start: p.export.event.start }),
  };
}

export async function syncJob(options: SyncJobOptions): Promise<SyncResult> {
  const { client, signal } = options;
  const store = syncStoreOf(options.store);
  const template = options.template ?? DEFAULT_LINK_TEMPLATE;
  checkLinkTemplate(template);
  const progress = options.onProgress ?? (() => undefined);
  const now = options.now ?? (() => new Date());
  const startedAt = now().toISOString();
  const before = client.transport.attempts;
  const holder: LockHolder = { pid: process.pid, host: hostname(), since: startedAt };

  store.lock(holder);
  try {
    progress({ step: 'state', detail: 'reading the state' });
    const state = store.load();
    const pins = new Map(state.pins);
    for (const [key, id] of Object.entries(options.pins ?? {})) pins.set(key, id);
    for (const key of options.unpin ?? []) pins.delete(key);

    const events = [...options.portal.events].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    const hashes = new Map(events.map((p) => [p.key, portalHash(p)]));
    const dated = events
      .map((p) => eventDays(p.export.event.start, p.export.event.end))
      .filter((d): d is { first: number; last: number } => d !== undefined);
    const window: Window | undefined =
      dated.length > 0 ? portalWindow(dated, options.marginDays ?? DEFAULT_MARGIN_DAYS) : undefined;

    const wanted = new Set<number>(pins.values());
    for (const p of events) if (p.serviceEventId !== undefined) wanted.add(p.serviceEventId);

    let cursor = state.cursor;
    let mirror = state.mirror;
    let mirrorUpserts: MirrorRecord[] = [];
    let mirrorDeletes: number[] = [];
    let gone = new Set<number>();
    let serviceTime: Date | undefined;
    if (window !== undefined || wanted.size > 0) {
      progress({ step: 'service', detail: 'asking the service what changed' });
      const update = await updateMirror({
        client,
        mirror: state.mirror,
        cursor: state.cursor,
        window: window ?? { from: new Date(0), to: new Date(0) },
        full: options.full ?? false,
        overlapMs: options.overlapMs ?? DEFAULT_OVERLAP_MS,
        wanted,
        ...(options.pageSize === undefined ? {} : { pageSize: options.pageSize }),
        signal,
        onProgress: (p: MirrorProgress) =>
          progress({ step: 'service', detail: `${p.kind}: page ${p.page}, ${p.events} events` }),
      });
      ({ cursor, mirror, gone, serviceTime } = update);
      mirrorUpserts = update.upserts;
      mirrorDeletes = update.deletes;
    }

    // The country list is asked for only when linking needs it and the stored one is missing or old.
    const needCountries = events.some((p) => p.export.event.country !== undefined);
    const age = cursor.countries && serviceTime ? serviceTime.getTime() - Date.parse(cursor.countries.fetchedAt) : 0;
    if (
      needCountries &&
      (cursor.countries === undefined || age > (options.countriesMaxAgeMs ?? DEFAULT_COUNTRIES_MAX_AGE_MS))
    ) {
      progress({ step: 'countries', detail: "the service's country list" });
      const list = await client.countries.list({ signal, fresh: true });
      cursor = { ...cursor, countries: { fetchedAt: (serviceTime ?? now()).toISOString(), list } };
    }

    // A portal event keeps its link unscored when nothing it was scored on changed: the portal event, its pin, the
    // mirror's events on its candidate days (or, for an exact id, that event), and the linking context. Scoring it
    // again would give the same link, so this saves time, not correctness (the season test compares with fresh runs).
    const linkContext = contentHash({ template, viewerUrl: client.addresses.viewerUrl, countries: cursor.countries });
    cursor = { ...cursor, linkContext };
    const contextSame = state.cursor.linkContext === linkContext;
    const touchedIds = new Set<number>([...mirrorUpserts.map((r) => r.id), ...mirrorDeletes]);
    const dirtyDays = new Set<number>();
    for (const id of touchedIds) {
      for (const record of [state.mirror.get(id), mirror.get(id)]) {
        if (record) for (const d of daysOf(record)) dirtyDays.add(d);
      }
    }
    const unchanged = (p: PortalEvent, exactId: number | undefined): boolean => {
      if (!contextSame || state.portal.get(p.key)?.hash !== hashes.get(p.key)) return false;
      if (state.pins.get(p.key) !== pins.get(p.key)) return false;
      if (exactId !== undefined) return !touchedIds.has(exactId);
      const days = candidateDays(p.export);
      return days === undefined ? touchedIds.size === 0 : !days.some((d) => dirtyDays.has(d));
    };

    progress({ step: 'linking', detail: `${events.length} portal events against ${mirror.size} service events` });
    const ctx = {
      mirror,
      byDay: indexByDay(mirror),
      countries: cursor.countries?.list,
      template,
      viewerUrl: client.addresses.viewerUrl,
    };
    const changes: SyncChange[] = [];
    const linkUpserts: LinkRecord[] = [];
    const links: LinkRecord[] = [];
    const portalUpserts: PortalRecord[] = [];
    for (const p of events) {
      signal?.throwIfAborted();
      const pinned = pins.get(p.key);
      const exact =
        pinned !== undefined
          ? { id: pinned, method: 'pinned' as const }
          : p.serviceEventId !== undefined
            ? { id: p.serviceEventId, method: 'portal_id' as const }
            : undefined;
      const previous = state.links.get(p.key);
      const after =
        previous !== undefined && unchanged(p, exact?.id) ? previous : linkPortalEvent(p.key, p.export, exact, ctx);
      const old = state.portal.get(p.key);
      const hash = hashes.get(p.key)!;
      changes.push(
        ...linkChanges(previous, after, {
          portalNew: old === undefined,
          portalChanged: old !== undefined && old.hash !== hash,
          gone: previous?.eventId !== undefined && gone.has(previous.eventId),
        }),
      );
      links.push(after);
      if (previous === undefined || canonicalJson(previous) !== canonicalJson(after)) linkUpserts.push(after);
      const record = portalRecord(p, hash);
      if (old === undefined || canonicalJson(old) !== canonicalJson(record)) portalUpserts.push(record);
    }
    const keys = new Set(events.map((p) => p.key));
    // A portal event read from a file that could not be read tonight is not removed: it is held as it was, and the
    // problem is reported. Only events whose input was read and no longer has them are removed.
    const unreadable = options.portal.problems.map((p) => p.origin);
    const held = (record: PortalRecord): boolean =>
      unreadable.some(
        (origin) =>
          record.origin === origin ||
          record.origin.startsWith(`${origin}#`) ||
          record.origin.startsWith(`${origin} `) ||
          record.origin.startsWith(`${origin}/`),
      );
    const missing = [...state.portal.values()].filter((r) => !keys.has(r.key));
    for (const r of missing) {
      if (!held(r)) continue;
      keys.add(r.key);
      const link = state.links.get(r.key);
      if (link) links.push(link);
    }
    links.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    const removed = missing
      .filter((r) => !keys.has(r.key))
      .map((r) => r.key)
      .sort();
    for (const key of removed) {
      changes.push({ key, kind: 'portal_removed', message: 'removed from the portal', attention: false });
    }
    for (const problem of options.portal.problems) {
      changes.push({
        key: problem.origin,
        kind: 'portal_problem',
        message: problem.message,
        attention: true,
        detail: { code: problem.code },
      });
    }

    const history: HistoryEntry[] = changes
      .filter((c) => c.kind !== 'still_unmatched' && c.kind !== 'still_ambiguous' && c.kind !== 'portal_problem')
      .map((c) => ({ key: c.key, change: c.kind, detail: { message: c.message, ...c.detail } }));
    const summary: Record<string, number> = { portalEvents: events.length, mirror: mirror.size };
    for (const c of changes) summary[c.kind] = (summary[c.kind] ?? 0) + 1;
    const requests = client.transport.attempts - before;

    progress({ step: 'commit', detail: 'committing' });
    signal?.throwIfAborted();
    store.commit({
      cursor,
      mirrorUpserts,
      mirrorDeletes,
      portalUpserts,
      portalDeletes: removed,
      linkUpserts,
      linkDeletes: [...state.links.keys()].filter((k) => !keys.has(k)),
      pins,
      history,
      run: {
        startedAt,
        ...(serviceTime ? { serviceTime: serviceTime.toISOString() } : {}),
        requests,
        summary,
      },
    });
    progress({ step: 'commit', detail: 'committed' });
    return {
      changes,
      links,
      attention: changes.some((c) => c.attention),
      requests,
      window: window && { from: window.from.toISOString(), to: window.to.toISOString() },
      cursor,
      runs: state.runs + 1,
    };
  } finally {
    store.unlock();
  }
}
