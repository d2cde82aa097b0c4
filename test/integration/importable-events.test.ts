/**
 * client.importableEvents against the simulator over real HTTP: the whole Event Integration API flow (observed, not
 * published) with a real course file and a generated PNG map: create, upload (zip and per file), validation (clean,
 * and each error the simulator computes), the person's import (control endpoint and the page's form), the event in
 * the world (search, classes, courses, check-courses SAME), update and re-import, deletion, another user, scopes.
 */
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKey } from '../../src/auth/api-key.js';
import type { LiveloxClient } from '../../src/client.js';
import { joinUrl } from '../../src/config.js';
import { AuthError, NotEventAdministratorError, NotFoundError, ScopeError } from '../../src/errors.js';
import { checkCourses } from '../../src/jobs/check-courses.js';
import { parseCourseData } from '../../src/iof/read-course-data.js';
import { IMPORTABLE_EVENTS_SCOPE } from '../../src/resources/importable-event-schemas.js';
import type { Simulator } from '../../src/simulator/server.js';
import {
  boxMapping,
  CLASS_ASSIGNMENTS,
  COURSE_FILE,
  courseFile,
  importableEvent,
  MAP_FILE,
  uploads,
} from '../helpers/importable-events.js';
import { realdata } from '../helpers/files.js';
import { pngImage } from '../helpers/map-images.js';
import { clientFor, http, startHarness } from '../helpers/simulator.js';

let sim: Simulator;
let client: LiveloxClient;

beforeAll(async () => {
  sim = (await startHarness({ events: 20, seed: 19 })).sim;
  client = clientFor(sim);
});
afterAll(async () => {
  await client.close();
  await sim.close();
});

const control = (method: string, path: string, body?: unknown) =>
  http(method, joinUrl(sim.info.controlUrl, path), {
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });

/** Creates an importable event for `xml` and uploads its files; answers its id and link. */
async function published(xml = courseFile(), mode: 'zip' | 'per-file' = 'zip') {
  const link = await client.importableEvents.create(importableEvent(xml));
  await client.importableEvents.uploadFiles(link.id, uploads(xml), { mode });
  return link;
}

async function organiserCheck(xml: string, eventId: number) {
  return checkCourses(client, { eventId, organiser: { name: COURSE_FILE, bytes: new TextEncoder().encode(xml) } });
}

describe('the first publish', () => {
  it('creates, uploads one files.zip, validates clean, and the person imports it: an event of the world', async () => {
    const xml = courseFile();
    const link = await client.importableEvents.create(importableEvent(xml));
    expect(link.liveloxImportEventUrl).toBe(`${sim.info.viewerUrl}/ImportableEvents/${link.id}/Import`);
    expect(link.liveloxShowEventUrl ?? null).toBeNull();
    expect((await client.importableEvents.state(link.id)).state).toBe('not-imported');

    sim.stats.reset();
    const sent = await client.importableEvents.uploadFiles(link.id, uploads(xml));
    expect(sent).toEqual({ requests: 1, sent: ['files.zip'] });
    expect(sim.stats.count('POST /importableEvents/{id}/files/{fileName}')).toBe(1);
    expect(sim.state.importableEvents.get(link.id)!.files.size).toBe(2);
    expect(await client.importableEvents.validationErrors(link.id)).toEqual({ errors: [], warnings: [] });

    // The person's step, pressed through the control endpoint.
    const pressed = await control('POST', `/importable-events/${link.id}/import`);
    expect(pressed.status).toBe(200);
    const eventId = pressed.json().eventId as number;

    const got = await client.importableEvents.get(link.id);
    expect(got.importedEvent?.id).toBe(eventId);
    expect(got.importedEvent?.name).toBe('Ellenbrook Saturday Series');
    expect(got.link?.liveloxImportEventUrl ?? null).toBeNull();
    expect(got.link?.liveloxShowEventUrl).toBe(`${sim.info.viewerUrl}/Viewer?eventId=${eventId}`);
    expect(await client.importableEvents.state(link.id)).toMatchObject({ state: 'imported' });

    // Found by event search, with the course file's classes.
    const found = await client.events.search({
      from: new Date('2026-06-13T00:00:00Z'),
      to: new Date('2026-06-14T00:00:00Z'),
    });
    const event = found.find((e) => e.id === eventId);
    expect(event?.name).toBe('Ellenbrook Saturday Series');
    expect(event?.classes?.map((c) => c.name).sort()).toEqual(CLASS_ASSIGNMENTS.map(([c]) => c).sort());

    // Its courses served like any other event's, with projection too, and our own check finds them the same.
    const served = parseCourseData(new TextEncoder().encode(await client.courses.getIofXml({ eventId })), 'service')
      .races[0]!;
    expect(served.courses.map((c) => c.name).sort()).toEqual(['Orange', 'Yellow']);
    expect(served.classAssignments.map((a) => `${a.className}:${a.courseName}`).sort()).toEqual(
      CLASS_ASSIGNMENTS.map(([c, k]) => `${c}:${k}`).sort(),
    );
    const projected = await client.courses.getIofXml({ eventId, projectionEpsgCode: 27700 });
    expect(projected).toMatch(/lat="2\d{5}/);
    const check = await organiserCheck(xml, eventId);
    expect(check.verdict).toBe('same');
  });

  it('uploads one request per file, and the page at the import URL has a button a person presses', async () => {
    const xml = courseFile();
    sim.stats.reset();
    const link = await published(xml, 'per-file');
    expect(sim.stats.snapshot().byEndpoint['POST /importableEvents/{id}/files/{fileName}']).toEqual({ '200': 2 });
    expect([...sim.state.importableEvents.get(link.id)!.files.keys()].sort()).toEqual([COURSE_FILE, MAP_FILE]);

    const page = await http('GET', link.liveloxImportEventUrl!);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    const form = /<form method="post" action="([^"]+)"><button type="submit" name="confirm" value="import">/.exec(
      page.text,
    );
    expect(form?.[1]).toBe(link.liveloxImportEventUrl);
    expect(page.text).not.toContain('<script');

    const pressed = await http('POST', form![1]!, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'confirm=import',
    });
    expect(pressed.status).toBe(200);
    const eventId = Number(/data-event-id="(\d+)"/.exec(pressed.text)?.[1]);
    expect((await client.importableEvents.get(link.id)).importedEvent?.id).toBe(eventId);
    expect(sim.stats.count('POST /viewer/ImportableEvents/{id}/Import')).toBe(1);
  });
});

describe('a Purple Pen file (map positions only)', () => {
  it("places its controls through the map's corners and paper extent, and takes its class assignments", async () => {
    const bytes = realdata('iof3/rg2_pwllddu_CourseData_PurplePen353.xml');
    // The map's extent in metres of paper, as Purple Pen sends it, and an axis-aligned box on the ground.
    const [s, n, w, e] = [51.56, 51.59, -4.05, -4.0];
    const link = await client.importableEvents.create({
      name: 'Pwllddu',
      timeInterval: { start: '2026-07-04T09:00:00Z', end: '2026-07-04T13:00:00Z' },
      maps: [
        {
          fileName: 'map.png',
          name: 'Pwllddu',
          mapScale: 15000,
          bottomLeftCornerPosition: { x: 0, y: 0 },
          topRightCornerPosition: { x: 0.23063, y: 0.18474 },
          georeference: { coordinateMapping: boxMapping({ s, n, w, e }, { width: 100, height: 80 }) },
        },
      ],
      courseDataFileNames: ['pwllddu.xml'],
    });
    await client.importableEvents.uploadFiles(link.id, [
      { name: 'pwllddu.xml', bytes },
      { name: 'map.png', bytes: pngImage(100, 80) },
    ]);
    expect(await client.importableEvents.validationErrors(link.id)).toEqual({ errors: [], warnings: [] });
    const eventId = (await control('POST', `/importable-events/${link.id}/import`)).json().eventId as number;
    const served = parseCourseData(new TextEncoder().encode(await client.courses.getIofXml({ eventId })), 'service')
      .races[0]!;
    const c101 = served.controls.find((c) => c.id === '101')!;
    // 101 is at (146.11, 51.88) mm of a 230.63 x 184.74 mm extent.
    expect(c101.position!.lng).toBeCloseTo(w + (146.11 / 230.63) * (e - w), 6);
    expect(c101.position!.lat).toBeCloseTo(s + (51.88 / 184.74) * (n - s), 6);
    expect(served.classAssignments.map((a) => `${a.className}:${a.courseName}`).sort()).toEqual([
      'MO:1',
      'MSV:2',
      'MUV:3',
      'WSV:2',
      'WUV:3',
    ]);
  });
});

describe('validation computed for real', () => {
  async function errorsOf(xml: string, object = importableEvent(xml), files = uploads(xml)) {
    const link = await client.importableEvents.create(object);
    await client.importableEvents.uploadFiles(link.id, files);
    return { link, report: await client.importableEvents.validationErrors(link.id) };
  }

  it('says a course file is not valid against IOF.xsd, with the line', async () => {
    const { report } = await errorsOf(courseFile({ schemaInvalid: true }));
    expect(report.errors).toHaveLength(1);
    expect(report.errors[0]).toMatch(/'CourseData.xml' is not valid against IOF\.xsd: line \d+: .*Bogus/);
  });

  it('says a course has fewer than two controls', async () => {
    const { report } = await errorsOf(courseFile({ tinyCourse: true }));
    expect(report.errors).toEqual([expect.stringMatching(/course 'Tiny' .* has 1 control/)]);
  });

  it('says a named file was not uploaded', async () => {
    const xml = courseFile();
    const { report } = await errorsOf(xml, importableEvent(xml), uploads(xml).slice(0, 1));
    expect(report.errors).toEqual([`The file '${MAP_FILE}' named by the importable event was not uploaded.`]);
  });

  it('says a map has no georeference', async () => {
    const xml = courseFile();
    const { report } = await errorsOf(xml, importableEvent(xml, { georeferenced: false }));
    expect(report.errors).toEqual([expect.stringMatching(/map 'Ellenbrook' has no georeference/)]);
  });

  it('names the controls outside the georeferenced map, and the person cannot import while errors remain', async () => {
    const xml = courseFile();
    const { link, report } = await errorsOf(xml, importableEvent(xml, { margin: -0.001 }));
    expect(report.errors.length).toBeGreaterThan(0);
    for (const e of report.errors) expect(e).toMatch(/control '\w+' .* lies outside the georeferenced map/);
    const pressed = await control('POST', `/importable-events/${link.id}/import`);
    expect(pressed.status).toBe(422);
    expect(pressed.json().errors).toEqual(report.errors);
    const page = await http('GET', link.liveloxImportEventUrl!);
    expect(page.text).not.toContain('<form');
    expect((await client.importableEvents.state(link.id)).state).toBe('not-imported');
  });
});

describe('update and re-import', () => {
  it('updates, uploads and imports again: the same event, its courses moved', async () => {
    const xml = courseFile();
    const link = await published(xml);
    const first = (await control('POST', `/importable-events/${link.id}/import`)).json().eventId as number;

    const before = new Map(
      parseCourseData(new TextEncoder().encode(xml), 'x').races[0]!.controls.map((c) => [c.id, c.position!]),
    );
    const moved = courseFile({ moveControl: { id: '104', lat: before.get('104')!.lat + 0.0005 } });
    const updated = await client.importableEvents.update(
      link.id,
      importableEvent(moved, { name: 'Ellenbrook Saturday Series (late change)' }),
    );
    expect(updated.id).toBe(link.id);
    expect(updated.liveloxImportEventUrl ?? null).toBeNull();
    expect(updated.liveloxEditEventUrl).toBe(`${sim.info.viewerUrl}/Events/${first}/Edit`);
    await client.importableEvents.uploadFiles(link.id, uploads(moved));
    sim.stats.reset();
    const reimported = await client.importableEvents.import(link.id);
    expect(reimported.liveloxShowEventUrl).toBe(`${sim.info.viewerUrl}/Viewer?eventId=${first}`);
    expect(sim.stats.snapshot().byEndpoint['PUT /importableEvents/{id}/import']).toEqual({ '200': 1 });

    const got = await client.importableEvents.get(link.id);
    expect(got.importedEvent?.id).toBe(first);
    expect(got.importedEvent?.name).toBe('Ellenbrook Saturday Series (late change)');
    expect((await organiserCheck(moved, first)).verdict).toBe('same');
    expect((await organiserCheck(xml, first)).verdict).not.toBe('same');
    const edit = await http('GET', updated.liveloxEditEventUrl!);
    expect(edit.status).toBe(200);
  });

  it('refuses an API import before the person has imported it once (the first import is the browser step)', async () => {
    const link = await published();
    await expect(client.importableEvents.import(link.id)).rejects.toMatchObject({ status: 400 });
    expect((await client.importableEvents.update(link.id, importableEvent(courseFile()))).liveloxImportEventUrl).toBe(
      link.liveloxImportEventUrl,
    );
  });
});

describe('gone, another user, scopes', () => {
  it('answers 404 once the importable event is deleted: gone', async () => {
    const link = await published();
    expect((await control('DELETE', `/importable-events/${link.id}`)).status).toBe(200);
    await expect(client.importableEvents.get(link.id)).rejects.toBeInstanceOf(NotFoundError);
    expect(await client.importableEvents.state(link.id)).toEqual({ state: 'gone' });
  });

  it("answers 403 for another user's importable event: gone to them, and an update says they may not administer it", async () => {
    const link = await published();
    const other = clientFor(sim, { auth: apiKey(sim.info.otherApiKey) });
    try {
      const err = await other.importableEvents.get(link.id).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AuthError);
      expect((err as AuthError).status).toBe(403);
      expect(await other.importableEvents.state(link.id)).toEqual({ state: 'gone' });
      const refused = await other.importableEvents
        .update(link.id, importableEvent(courseFile()))
        .catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(NotEventAdministratorError);
      expect(refused).toMatchObject({ status: 403, importableEventId: link.id, code: 'auth' });
      expect((refused as Error).message).toContain('may not administer');
      await expect(other.importableEvents.validationErrors(link.id)).rejects.toMatchObject({ status: 403 });
    } finally {
      await other.close();
    }
  });

  it(`refuses a key without '${IMPORTABLE_EVENTS_SCOPE}' with a ScopeError`, async () => {
    const limited = clientFor(sim, { auth: apiKey(sim.info.limitedApiKey) });
    try {
      const err = await limited.importableEvents.create(importableEvent(courseFile())).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ScopeError);
      expect((err as ScopeError).scope).toBe(IMPORTABLE_EVENTS_SCOPE);
    } finally {
      await limited.close();
    }
  });
});

describe('requests as Purple Pen writes them', () => {
  it('takes a PascalCase object, and refuses one not sent as JSON (415)', async () => {
    const pascal = (v: unknown): unknown =>
      Array.isArray(v)
        ? v.map(pascal)
        : typeof v === 'object' && v !== null
          ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k[0]!.toUpperCase() + k.slice(1), pascal(x)]))
          : v;
    const body = JSON.stringify(pascal(importableEvent(courseFile())));
    const url = joinUrl(sim.info.baseUrl, '/importableEvents');
    const created = await http('POST', url, {
      headers: { ApiKey: sim.info.apiKey, 'content-type': 'application/json' },
      body,
    });
    expect(created.status).toBe(200);
    const stored = sim.state.importableEvents.get(created.json().id as string)!;
    expect(stored.object.maps[0]!.georeference?.coordinateMapping.positions).toHaveLength(4);
    const refused = await http('POST', url, {
      headers: { ApiKey: sim.info.apiKey, 'content-type': 'text/plain' },
      body,
    });
    expect(refused.status).toBe(415);
  });
});

describe('uploads the simulator refuses', () => {
  it('refuses a files.zip with a parent path, and one that is no zip, naming what is wrong', async () => {
    const link = await client.importableEvents.create(importableEvent(courseFile()));
    const url = joinUrl(sim.info.baseUrl, `/importableEvents/${link.id}/files/files.zip`);
    const headers = { ApiKey: sim.info.apiKey };
    const evil = await http('POST', url, { headers, body: Buffer.from(zipSync({ '../evil.xml': new Uint8Array(3) })) });
    expect(evil.status).toBe(400);
    expect(evil.text).toContain('../evil.xml');
    const notZip = await http('POST', url, { headers, body: 'plain text' });
    expect(notZip.status).toBe(400);
    expect(notZip.text).toContain('not a zip');
    expect(sim.state.importableEvents.get(link.id)!.files.size).toBe(0);
  });
});

describe('answers read leniently', () => {
  it('reads PascalCase answers, and keeps a validation answer it cannot read as raw text', async () => {
    const xml = courseFile();
    try {
      expect(
        (await control('PUT', '/importable-events/answers', { casing: 'pascal', validation: 'text' })).status,
      ).toBe(200);
      const link = await client.importableEvents.create(importableEvent(xml, { margin: -0.001 }));
      expect(link.liveloxImportEventUrl).toContain('/ImportableEvents/');
      await client.importableEvents.uploadFiles(link.id, uploads(xml));
      const raw = await http('GET', joinUrl(sim.info.baseUrl, `/importableEvents/${link.id}`), {
        headers: { ApiKey: sim.info.apiKey },
      });
      expect(Object.keys(raw.json())).toContain('Link');
      const got = await client.importableEvents.get(link.id);
      expect(got.link?.id).toBe(link.id);
      expect(got.importedEvent).toBeNull();
      const report = await client.importableEvents.validationErrors(link.id);
      expect(report.errors).toEqual([]);
      expect(report.raw).toMatch(/^ERROR The control/);
    } finally {
      await control('PUT', '/importable-events/answers', { casing: 'camel', validation: 'lists' });
    }
  });
});
