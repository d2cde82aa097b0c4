/**
 * `livelox-bridge` as a library user writes it: each job called and its result read, with the names a user writes.
 * What they must not write (a name that left the surface, a job's internals, a deep import, a wrong argument) does
 * not compile. Imported through the package's own name, so these are the published declarations in dist/.
 */
import { describe, expectTypeOf, it } from 'vitest';
import {
  apiKey,
  checkCourses,
  eventLinksJob,
  fetchIofSchema,
  FileTokenStore,
  importRoutesJob,
  iofEmsSource,
  LiveloxClient,
  LiveloxError,
  importableEventState,
  linkJob,
  NotEventAdministratorError,
  oauth,
  objectEmsSource,
  openImportJournal,
  openPublishState,
  prepareUpload,
  publishJob,
  openSqliteStore,
  readPortal,
  renderLinkResult,
  renderPortalLinks,
  syncJob,
  ValidationError,
} from 'livelox-bridge';
import type {
  PreparedUpload,
  UploadResult,
  AuthStrategy,
  CheckCoursesResult,
  CheckVerdict,
  ClassMatchMethod,
  EarlierVersion,
  EmsSource,
  ErrorCode,
  EventChoiceCode,
  EventLinksResult,
  EventScoreParts,
  FetchedIofSchema,
  FoundVia,
  ImportableEvent,
  ImportableEventInput,
  ImportableEventLink,
  ImportableEventState,
  ImportableEventValidation,
  ImportDecision,
  ImportJournalFile,
  ImportRoutesResult,
  LinkRecord,
  LinkResult,
  LinkStatus,
  LiveloxEvent,
  LockedTokenStore,
  MapCorners,
  MapGeoreferenceInput,
  MapInput,
  OAuthTokens,
  PublishStateFile,
  RouteStatus,
  SyncChangeKind,
  SyncResult,
  SyncStateFile,
  TokenStore,
} from 'livelox-bridge';

// Names that left the surface: a job's state rows and store protocol, its search step, its intermediate shapes.
// @ts-expect-error: the sync store's class is internal; openSqliteStore returns a SyncStateFile
import type { SqliteStore as _SqliteStore } from 'livelox-bridge';
// @ts-expect-error: how a run loads and commits its state is the job's business
import type { SyncStore as _SyncStore } from 'livelox-bridge';
// @ts-expect-error: a row of the sync state
import type { SyncSnapshot as _SyncSnapshot } from 'livelox-bridge';
// @ts-expect-error: a row of the sync state
import type { MirrorRecord as _MirrorRecord } from 'livelox-bridge';
// @ts-expect-error: a field type of LinkRecord, read through it
import type { ClassLinkRecord as _ClassLinkRecord } from 'livelox-bridge';
// @ts-expect-error: the import journal's protocol
import type { ImportJournal as _ImportJournal } from 'livelox-bridge';
// @ts-expect-error: a row of the import journal
import type { JournalEntry as _JournalEntry } from 'livelox-bridge';
// @ts-expect-error: the event search step; linkJob runs it
import { findEvent as _findEvent } from 'livelox-bridge';
// @ts-expect-error: a search step, inside LinkResult.event.searches
import type { EventSearchStep as _EventSearchStep } from 'livelox-bridge';
// @ts-expect-error: class mapping's intermediate shape
import type { ClassMapping as _ClassMapping } from 'livelox-bridge';
// @ts-expect-error: rows are renderLinkResult's intermediate shape
import { renderLinks as _renderLinks } from 'livelox-bridge';
// @ts-expect-error: link building inside the jobs
import { classLink as _classLink } from 'livelox-bridge';
// @ts-expect-error: the CLI's check of a token file's issuer
import { issuerDifferences as _issuerDifferences } from 'livelox-bridge';
// @ts-expect-error: what a strategy sees of the client
import type { AuthContext as _AuthContext } from 'livelox-bridge';
// @ts-expect-error: the wire body routes.import builds
import type { ImportableRouteRequest as _ImportableRouteRequest } from 'livelox-bridge';
// @ts-expect-error: how a map is placed belongs to the publishing job; a caller describes it with MapInput
import { placeMap as _placeMap } from 'livelox-bridge';
// @ts-expect-error: only the entry points are importable, never a file of dist/
import type { SqliteStore as _DeepSqliteStore } from 'livelox-bridge/dist/store/sqlite.js';

declare const client: LiveloxClient;

describe('importable events', () => {
  it('creates from a typed object, uploads named files, and reads the state', async () => {
    const object: ImportableEventInput = {
      name: 'Ellenbrook',
      maps: [{ fileName: 'map.png', name: 'Ellenbrook', georeference: null }],
      courseDataFileNames: ['CourseData.xml'],
    };
    const link = await client.importableEvents.create(object);
    expectTypeOf(link).toEqualTypeOf<ImportableEventLink>();
    expectTypeOf(link.id).toEqualTypeOf<string>();
    await client.importableEvents.uploadFiles(link.id, [{ name: 'map.png', bytes: new Uint8Array() }], {
      mode: 'per-file',
    });
    // @ts-expect-error: zip or per-file, nothing else
    await client.importableEvents.uploadFiles(link.id, [], { mode: 'tar' });
    // Built and checked before the create; those very bytes sent.
    const upload = prepareUpload([{ name: 'map.png', bytes: new Uint8Array() }], 'zip');
    expectTypeOf(upload).toEqualTypeOf<PreparedUpload>();
    expectTypeOf(await client.importableEvents.uploadFiles(link.id, upload)).toEqualTypeOf<UploadResult>();
    const report = await client.importableEvents.validationErrors(link.id);
    expectTypeOf(report).toEqualTypeOf<ImportableEventValidation>();
    expectTypeOf(report.raw).toEqualTypeOf<string | undefined>();
    const event = await client.importableEvents.get(link.id, { includeImportedEvent: true });
    expectTypeOf(event).toEqualTypeOf<ImportableEvent>();
    expectTypeOf(importableEventState({ event })).toEqualTypeOf<ImportableEventState>();
    expectTypeOf(new NotEventAdministratorError('id', '')).toMatchTypeOf<LiveloxError>();
    // @ts-expect-error: the object needs the course files it carries
    await client.importableEvents.create({ name: 'x', maps: [] });
  });
});

describe('the client', () => {
  it('is made with an API key or OAuth, and the real service or any addresses', () => {
    expectTypeOf(new LiveloxClient({ auth: apiKey('key') })).toEqualTypeOf<LiveloxClient>();
    const strategy: AuthStrategy = oauth({
      clientId: 'my-portal',
      scopes: ['events.read'],
      tokenStore: new FileTokenStore('tokens.json'),
    });
    expectTypeOf(
      new LiveloxClient({ auth: strategy, baseUrl: 'http://127.0.0.1:4380/api', retry: { maxRetries: 2 } }),
    ).toEqualTypeOf<LiveloxClient>();
    // @ts-expect-error: every client needs a way to authorize
    new LiveloxClient({ baseUrl: 'http://127.0.0.1:4380/api' });
    // @ts-expect-error: an API key is text
    apiKey(12345);
  });

  it('takes a token store of the user’s own, with or without a lock of its own', () => {
    let kept: OAuthTokens | undefined;
    const plain: TokenStore = {
      load: () => Promise.resolve(kept),
      save: (t) => Promise.resolve(void (kept = t)),
      clear: () => Promise.resolve(void (kept = undefined)),
    };
    const locked: TokenStore = {
      ...plain,
      // One at a time in this process, say; a database row lock in a real one.
      exclusive: <T>(work: (store: LockedTokenStore) => Promise<T>) => work(plain),
    };
    expectTypeOf(oauth({ clientId: 'c', scopes: [], tokenStore: plain })).toHaveProperty('refresh');
    expectTypeOf(oauth({ clientId: 'c', scopes: [], tokenStore: locked })).toHaveProperty('refresh');
    expectTypeOf(new FileTokenStore('tokens.json', { lockTimeoutMs: 30_000 })).toMatchTypeOf<TokenStore>();
    // @ts-expect-error: the lock's wait is a number of ms
    new FileTokenStore('tokens.json', { lockTimeoutMs: '30s' });
  });

  it('answers typed events', async () => {
    const events = await client.events.search({ from: new Date('2026-05-01'), to: new Date('2026-06-01') });
    expectTypeOf(events).toEqualTypeOf<LiveloxEvent[]>();
    expectTypeOf(events[0]!.name).toBeString();
    // @ts-expect-error: dates are Dates, checked before sending
    await client.events.search({ from: 20260501 });
  });
});

describe('errors', () => {
  it('are caught by class and read by code', () => {
    const handle = (err: unknown): ErrorCode | undefined => {
      if (err instanceof ValidationError) expectTypeOf(err.issues[0]!.message).toBeString();
      return err instanceof LiveloxError ? err.code : undefined;
    };
    expectTypeOf(handle).returns.toEqualTypeOf<ErrorCode | undefined>();
  });
});

describe('linkJob', () => {
  it('reads an export and returns the event and a link per class', async () => {
    const result = await linkJob({ client, source: iofEmsSource('startlist.xml', { race: 2 }) });
    expectTypeOf(result).toEqualTypeOf<LinkResult>();
    expectTypeOf(result.status).toEqualTypeOf<'linked' | 'ambiguous' | 'not_found'>();
    for (const l of result.links) {
      expectTypeOf(l.url).toBeString();
      expectTypeOf(l.emsClass.name).toBeString();
      expectTypeOf(l.serviceClass.id).toBeNumber();
      expectTypeOf(l.method).toEqualTypeOf<ClassMatchMethod>();
    }
    expectTypeOf(result.event.code).toEqualTypeOf<EventChoiceCode>();
    expectTypeOf(result.event.via).toEqualTypeOf<FoundVia>();
    expectTypeOf(result.event.candidates[0]!.parts).toEqualTypeOf<EventScoreParts>();
    expectTypeOf(result.event.searches[0]!.found).toBeNumber();
    expectTypeOf(renderLinkResult(result, 'html', { ok: true })).toBeString();
    // @ts-expect-error: a job needs something to read
    await linkJob({ client });
    // @ts-expect-error: the formats are json, csv, md and html
    renderLinkResult(result, 'pdf', { ok: true });
  });

  it('takes a source written in code', async () => {
    const source: EmsSource = objectEmsSource({
      event: { name: 'Nattcupen 1', start: '2026-12-03', organisers: ['OK Linné'] },
      classes: [{ name: 'H21' }],
    });
    expectTypeOf(await eventLinksJob({ client, eventId: 1 })).toEqualTypeOf<EventLinksResult>();
    expectTypeOf(await linkJob({ client, source, eventId: 104002 })).toEqualTypeOf<LinkResult>();
  });
});

describe('checkCourses', () => {
  it("compares the organiser's file with the service's courses", async () => {
    const result = await checkCourses(client, {
      eventId: 104002,
      organiser: { name: 'courses.xml', bytes: new Uint8Array() },
    });
    expectTypeOf(result).toEqualTypeOf<CheckCoursesResult>();
    expectTypeOf(result.verdict).toEqualTypeOf<CheckVerdict>();
    expectTypeOf(result.notCompared).toEqualTypeOf<Array<'positions' | 'schema'>>();
    // @ts-expect-error: the organiser's file is given as its name and bytes
    await checkCourses(client, { eventId: 1, organiser: 'courses.xml' });
  });
});

describe('fetchIofSchema', () => {
  it("puts the IOF's schema in the cache, from the pinned source or another, and says where", async () => {
    expectTypeOf(await fetchIofSchema()).toEqualTypeOf<FetchedIofSchema>();
    const fetched = await fetchIofSchema({ kind: 'dtd', from: './IOFdata.dtd', sha256: 'ab'.repeat(32) });
    expectTypeOf(fetched.path).toBeString();
    // @ts-expect-error: the two grammars are xsd and dtd
    await fetchIofSchema({ kind: 'rng' });
  });
});

describe('syncJob', () => {
  it('runs on a state file and returns every portal event with its links', async () => {
    const store = openSqliteStore('portal.sqlite');
    expectTypeOf(store).toEqualTypeOf<SyncStateFile>();
    const result = await syncJob({ client, store, portal: await readPortal(['exports/']), full: true });
    store.close();
    expectTypeOf(result).toEqualTypeOf<SyncResult>();
    expectTypeOf(result.links).toEqualTypeOf<LinkRecord[]>();
    expectTypeOf(result.links[0]!.status).toEqualTypeOf<LinkStatus>();
    const cls = result.links[0]!.classes[0]!;
    // A class is linked (with its url) or unmapped (with why): its status tells which.
    if (cls.status === 'linked') expectTypeOf(cls.url).toBeString();
    else expectTypeOf(cls.reason).toBeString();
    // @ts-expect-error: an unmapped class has no url; narrow by status first
    void cls.url;
    const preview = openSqliteStore('portal.sqlite', { readOnly: true });
    const dry = await syncJob({
      client,
      store: preview,
      portal: { events: [], problems: [] },
      dryRun: true,
      nearDays: { back: 3, ahead: 14 },
    });
    expectTypeOf(dry.dryRun).toBeBoolean();
    expectTypeOf(result.changes[0]!.kind).toEqualTypeOf<SyncChangeKind>();
    expectTypeOf(renderPortalLinks(result.links, 'csv')).toBeString();
    // @ts-expect-error: loading and committing belong to the job
    store.load();
    const journal = openImportJournal('imports.sqlite');
    // @ts-expect-error: an import journal is not a sync state
    await syncJob({ client, store: journal, portal: { events: [], problems: [] } });
  });
});

describe('publishJob', () => {
  it('publishes a course file with its map, recorded in a state file', async () => {
    const state = openPublishState('publish.sqlite');
    const result = await publishJob(client, {
      courseFile: 'CourseData.xml',
      map: { image: 'map.png', georeference: { kind: 'worldFile', path: 'map.pgw', system: 27700 } },
      state,
      onStep: (s) => {
        expectTypeOf(s.step).toBeString();
        if (s.step === 'other-file') expectTypeOf(s.recordedFile).toEqualTypeOf<string>();
      },
    });
    state.close();
    expectTypeOf(result.importableId).toEqualTypeOf<string | undefined>();
    expectTypeOf(result.state).toEqualTypeOf<
      'created' | 'invalid' | 'waiting-for-browser-step' | 'imported' | undefined
    >();
    expectTypeOf(result.links).toEqualTypeOf<{ importUrl?: string; showUrl?: string; editUrl?: string }>();
    expectTypeOf(result.validation?.errors).toEqualTypeOf<string[] | undefined>();
    // @ts-expect-error: the state's rows belong to the job
    state.record({});
    // @ts-expect-error: the map is required
    await publishJob(client, { courseFile: 'CourseData.xml', state });
  });

  it('sends nothing in a dry run, without a client', async () => {
    const state = openPublishState('publish.sqlite', { readOnly: true });
    const dry = await publishJob(undefined, {
      courseFile: 'c.xml',
      map: { image: 'm.png' },
      state,
      dryRunFolder: 'out',
    });
    expectTypeOf(dry.written).toEqualTypeOf<{ object: string; zip: string } | undefined>();
    expectTypeOf(state).toEqualTypeOf<PublishStateFile>();
  });
});

describe('importRoutesJob', () => {
  it('records in a journal and returns every route with its status', async () => {
    const journal = openImportJournal('imports.sqlite');
    expectTypeOf(journal).toEqualTypeOf<ImportJournalFile>();
    const result = await importRoutesJob({ client, journal, routes: [{ file: 'anna.gpx', classId: 7 }] });
    journal.close();
    expectTypeOf(result).toEqualTypeOf<ImportRoutesResult>();
    expectTypeOf(result.routes[0]!.status).toEqualTypeOf<RouteStatus>();
    expectTypeOf(result.routes[0]!.viewerUrl).toEqualTypeOf<string | undefined>();
    // @ts-expect-error: the journal's rows belong to the job
    journal.all();
    // @ts-expect-error: a sync state is not an import journal
    await importRoutesJob({ client, journal: openSqliteStore('portal.sqlite'), routes: [] });
  });

  it('says in a dry run what a run would do, from a journal opened read-only', async () => {
    const journal = openImportJournal('imports.sqlite', { readOnly: true });
    const dry = await importRoutesJob({ client, journal, routes: [{ file: 'anna.gpx' }], dryRun: true });
    expectTypeOf(dry.routes[0]!.decision).toEqualTypeOf<ImportDecision | undefined>();
    expectTypeOf(dry.routes[0]!.changed).toEqualTypeOf<EarlierVersion | undefined>();
    expectTypeOf(dry.progress.posted).toBeNumber();
    // @ts-expect-error: a decision is one of five words
    const never: ImportDecision = 'delete';
    void never;
  });
});

describe('a map to publish', () => {
  it('is described by its image and where its georeference comes from', () => {
    const corners: MapCorners = {
      bottomLeft: { lat: 51.7546, lng: -0.2711 },
      bottomRight: { lat: 51.755, lng: -0.2491 },
      topRight: { lat: 51.7751, lng: -0.25 },
      topLeft: { lat: 51.7747, lng: -0.272 },
    };
    const fitted: MapInput = { image: 'map.png' };
    const byWorldFile: MapInput = {
      image: 'map.png',
      georeference: { kind: 'worldFile', path: 'map.pgw', system: 27700 },
    };
    const byCorners: MapInput = { image: 'map.png', georeference: { kind: 'corners', corners }, scale: 10_000 };
    expectTypeOf([fitted, byWorldFile, byCorners]).toEqualTypeOf<MapInput[]>();
    // @ts-expect-error: a world file says nothing of its grid, so the grid must be named
    const noGrid: MapGeoreferenceInput = { kind: 'worldFile', path: 'map.pgw' };
    void noGrid;
  });
});
