/**
 * Issue 13, the client: what it retries, what its errors say after faults the simulator injects, what it refuses
 * before sending, and how names the service sends are written out.
 */
import { describe, expect, it } from 'vitest';
import type { LiveloxClientOptions } from '../../src/client.js';
import { joinUrl } from '../../src/config.js';
import { withoutControls } from '../../src/core/printable.js';
import { ConnectionError, InputError, RateLimitError, ServerError, TimeoutError } from '../../src/errors.js';
import { writeGpx } from '../../src/gps/write.js';
import { renderLinkResult, renderLinks, type LinkRow } from '../../src/links/render.js';
import { portalFragment, renderPortalLinks } from '../../src/links/portal.js';
import { MAX_ROUTE_FILE_BYTES, MAY_HAVE_STORED_ROUTE } from '../../src/resources/routes.js';
import type { FaultKind } from '../../src/simulator/faults.js';
import type { Simulator, SimulatorOptions } from '../../src/simulator/server.js';
import { http, simulatorPerTest } from '../helpers/simulator.js';
import { wander } from '../helpers/tracks.js';

const open = simulatorPerTest();

async function setup(kinds: FaultKind[], rate: number, options: SimulatorOptions = {}, clientOptions = {}) {
  return open(
    { events: 10, faultRate: rate, faultKinds: kinds, faultStallMs: 1000, ...options },
    { headersTimeoutMs: 300, ...(clientOptions as Partial<LiveloxClientOptions>) },
  );
}

const gpx = (i = 0) =>
  new TextEncoder().encode(writeGpx(wander({ lat: 59.3, lng: 18.1 }, Date.UTC(2024, 0, 1) + i * 60_000, 10)));
const posts = (s: Simulator) => s.stats.count('POST /importableRoutes');
const SEARCH = { from: new Date('2024-01-01T00:00:00Z'), paging: { index: 0, size: 5 } };

async function failure(p: Promise<unknown>): Promise<Error> {
  return p.then(
    () => {
      throw new Error('expected a failure');
    },
    (err: unknown) => err as Error,
  );
}

describe('what is retried', () => {
  it('retries a 429 of an import whose id the service makes up: nothing was stored', async () => {
    const { sim, client } = await setup(['429'], 1, { retryAfterS: 0 }, { retry: { maxRetries: 2, baseDelayMs: 5 } });
    const err = await failure(client.routes.import({ data: gpx(), serviceGeneratedId: true }));
    expect(err).toBeInstanceOf(RateLimitError);
    expect(posts(sim)).toBe(3);
    expect(err.message).toContain('still refused after 3 attempts');
    expect((err as RateLimitError).mayHaveTakenEffect).toBe(false);
  });
});

describe('an import whose id the service makes up, failing after it was sent', () => {
  it.each([
    ['500', ServerError],
    ['503', ServerError],
    ['reset', ConnectionError],
    ['stall', TimeoutError],
  ] as const)('after a %s says plainly that the route may be stored, and is not repeated', async (kind, type) => {
    const { sim, client } = await setup(
      [kind],
      1,
      { faultStallMs: 20_000 },
      { retry: { maxRetries: 3, baseDelayMs: 5 } },
    );
    const err = await failure(client.routes.import({ data: gpx(), serviceGeneratedId: true }));
    expect(err).toBeInstanceOf(type);
    expect(posts(sim)).toBe(1);
    expect(err.message).toContain(MAY_HAVE_STORED_ROUTE);
    expect(err.message).toContain('re-importing may duplicate it; use a client-chosen id');
    expect(err.message).not.toMatch(/retried|tried \d+ times/);
    expect(err).toMatchObject({ mayHaveTakenEffect: true, attempts: 1 });
  });

  it('is not said to be maybe stored when the service could not be reached at all', async () => {
    const dead = await open({ events: 1 }, { retry: { maxRetries: 1, baseDelayMs: 5 } });
    await dead.sim.close();
    const err = await failure(dead.client.routes.import({ data: gpx(), serviceGeneratedId: true }));
    expect(err).toBeInstanceOf(ConnectionError);
    expect((err as ConnectionError).mayHaveTakenEffect).toBe(false);
    expect(err.message).toContain('is reachable');
    expect(err.message).not.toContain('may have stored');
  });
});

describe('the default path (content ids)', () => {
  it('retries the same failures and says how often it tried, never that a route may be stored twice', async () => {
    const { sim, client } = await setup(['500'], 1, {}, { retry: { maxRetries: 2, baseDelayMs: 5 } });
    const err = await failure(client.routes.import({ data: gpx() }));
    expect(err).toBeInstanceOf(ServerError);
    expect(posts(sim)).toBe(3);
    expect(err.message).toContain('tried 3 times');
    expect(err.message).not.toContain('may have');
    expect((err as ServerError).mayHaveTakenEffect).toBe(false);
  });

  it('says a timeout was retried only when it was', async () => {
    // The simulator holds a stalled request far longer than the client waits: the client's timeout, not a dropped
    // connection, ends each attempt even on a busy machine.
    const once = await setup(['stall'], 1, { faultStallMs: 20_000 }, { retry: { maxRetries: 0 } });
    const first = await failure(once.client.events.search(SEARCH));
    expect(first).toBeInstanceOf(TimeoutError);
    expect(first.message).not.toMatch(/retried|tried \d+ times/);
    await once.client.close();
    await once.sim.close();
    const twice = await setup(['stall'], 1, { faultStallMs: 20_000 }, { retry: { maxRetries: 1, baseDelayMs: 5 } });
    const second = await failure(twice.client.events.search(SEARCH));
    expect(second).toBeInstanceOf(TimeoutError);
    expect(second.message).toContain('tried 2 times');
  });
});

describe('refused before sending', () => {
  it('refuses a route file over MAX_ROUTE_FILE_BYTES with a typed error naming the limit', async () => {
    const { sim, client } = await setup(['500'], 0);
    const head = gpx();
    const big = new Uint8Array(MAX_ROUTE_FILE_BYTES + 1).fill(0x20);
    big.set(head);
    const err = await failure(client.routes.import({ data: big }));
    expect(err).toBeInstanceOf(InputError);
    expect(err).toMatchObject({ reason: 'too_large' });
    expect(err.message).toContain(`${MAX_ROUTE_FILE_BYTES} bytes`);
    expect(err.message).toContain('MAX_ROUTE_FILE_BYTES');
    expect(posts(sim)).toBe(0);
  });

  it('refuses a FIT file cut inside its header as truncated, not as an unknown format', async () => {
    const { sim, client } = await setup(['500'], 0);
    const tenBytes = new Uint8Array([14, 0x20, 0x5c, 0x08, 0x10, 0, 0, 0, 0x2e, 0x46]);
    const err = await failure(client.routes.import({ data: tenBytes }));
    expect(err).toMatchObject({ reason: 'truncated' });
    expect(err.message).toContain('after 10 bytes');
    expect(posts(sim)).toBe(0);
  });
});

// eslint-disable-next-line no-control-regex -- finding control characters is the point
const RAW_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

describe('hostile names from the service', () => {
  it('never writes a control character or bidi override raw into md, csv, html or json', async () => {
    const { sim, client } = await setup(['500'], 0);
    const hostileEvent = 'Night \u001b[2J\u001b]0;pwned\u0007Cup \u202egpx.exe\u202c';
    const created = await http('POST', joinUrl(sim.info.controlUrl, '/events'), {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: hostileEvent,
        start: '2024-05-01T10:00:00Z',
        end: '2024-05-01T14:00:00Z',
        countryCode: 'SWE',
        organisers: ['OK \u009b31mRed'],
        classes: ['H21 \u2066Elit\u2069\u0007', 'D21\r\nInjected | row', '=HYPERLINK("x")\u001b'],
        isPublished: true,
      }),
    });
    expect(created.status).toBe(201);
    const id = (created.json() as { id: number }).id;
    const event = await client.events.get(id);
    // The service hands the names back as they were made: the hostile text really comes from the service.
    expect(event.name).toBe(hostileEvent);
    const classes = event.classes ?? [];
    expect(classes).toHaveLength(3);
    const rows: LinkRow[] = classes.map((c) => ({
      emsClass: c.name,
      serviceClass: c.name,
      classId: c.id,
      url: `${sim.info.viewerUrl}/Viewer?classId=${c.id}`,
    }));
    const outputs = {
      md: renderLinks(rows, 'md', event.name),
      csv: renderLinks(rows, 'csv', event.name),
      html: renderLinks(rows, 'html', event.name),
      json: renderLinkResult(
        {
          event: { chosen: { name: event.name } },
          links: classes.map((c) => ({ emsClass: { name: c.name }, serviceClass: c, url: 'https://v.example/' })),
        },
        'json',
        { ok: true, indent: 2 },
      ),
      portalCsv: renderPortalLinks(
        [{ key: 'k', status: 'linked', eventId: id, eventName: event.name, classes: [] }],
        'csv',
      ),
      portalJson: renderPortalLinks(
        [{ key: 'k', status: 'linked', eventId: id, eventName: event.name, classes: [] }],
        'json',
      ),
      fragment: portalFragment(
        {
          key: 'k',
          status: 'linked',
          eventName: event.name,
          classes: classes.map((c) => ({
            name: c.name,
            status: 'linked',
            classId: c.id,
            serviceClass: c.name,
            url: 'https://v.example/',
          })),
        },
        { updated: new Date(0), texts: { noLinks: event.name } },
      ),
    };
    for (const [format, text] of Object.entries(outputs)) {
      expect({ format, raw: RAW_CONTROL.exec(text)?.[0] }).toEqual({ format, raw: undefined });
    }
    // Still readable, and a line break in a name does not start a row of its own.
    expect(outputs.md).toContain('Elit');
    expect(outputs.md.split('\n')).toHaveLength(2 + rows.length);
    expect(outputs.csv.split('\r\n')).toHaveLength(1 + rows.length);
    expect(outputs.html).toContain('gpx.exe');
    expect(outputs.csv).toContain(`"'=HYPERLINK(""x"") "`);
    // JSON escapes rather than drops: a program reading it gets the names as the service sent them.
    const parsed = JSON.parse(outputs.json) as { event: { chosen: { name: string } } };
    expect(parsed.event.chosen.name).toBe(hostileEvent);
    expect(withoutControls(hostileEvent)).toBe('Night  [2J ]0;pwned Cup gpx.exe');
  });
});
