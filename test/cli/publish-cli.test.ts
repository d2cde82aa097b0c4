/**
 * `publish` end to end against the simulator (the built bin, real HTTP): the real OCAD, Condes and Purple Pen course
 * files with generated map images, the browser step, check-courses SAME; a control moved and published again (the
 * update path, the same importable event, imported again); the service's validation errors; a dry run that sends
 * nothing; another user's event; an expired login renewed; and bad input refused before any request.
 */
import { randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oauth } from '../../src/auth/oauth.js';
import { FileTokenStore } from '../../src/auth/token-store.js';
import { LiveloxClient } from '../../src/client.js';
import { readZip } from '../../src/core/zip.js';
import { MAX_UPLOAD_BYTES } from '../../src/resources/importable-events.js';
import { startSimulator, type Simulator } from '../../src/simulator/server.js';
import { cleanEnv, runBin } from '../helpers/cli.js';
import { realdataPath } from '../helpers/files.js';
import { courseFile } from '../helpers/importable-events.js';
import { worldFileText } from '../helpers/map-images.js';
import {
  PUBLISH_CASES,
  browserStep,
  heldImportableEvents,
  importableRequests,
  publishArgs,
  writeMapImages,
  type PublishCase,
} from '../helpers/publish-cli.js';
import { serviceArgs } from '../helpers/sync-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'lb-publish-'));
const env = cleanEnv(dir);
const DAY_MS = 86_400_000;
let sim: Simulator;
let n = 0;
const OCAD = PUBLISH_CASES[0]!;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, expiredTokenStatus: 401 });
  writeMapImages(dir);
});
afterAll(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

const newState = () => join(dir, `state-${++n}.sqlite`);

async function publishJson(args: string[]) {
  const r = await runBin([...args, '--json'], env);
  return { ...r, json: JSON.parse(r.stdout || '{}') as Record<string, any> };
}

async function checkCourses(c: PublishCase, file: string, eventId: number) {
  return runBin(['check-courses', file, '--event-id', String(eventId), ...c.checkArgs, ...serviceArgs(sim)], env);
}

/** The OCAD file with control 104 moved 2 mm north on the paper, 20 m on the ground, both positions kept in step. */
function movedOcad(): string {
  const xml = readFileSync(OCAD.file, 'utf8');
  const moved = xml.replace(
    /(<Id>104<\/Id>\s*<Position lng="[^"]+" lat=")([^"]+)("\s*\/>\s*<MapPosition x="[^"]+" y=")([^"]+)"/,
    (_m, a: string, lat: string, b: string, y: string) =>
      `${a}${(Number(lat) + 20 / 111_250).toFixed(6)}${b}${(Number(y) + 2).toFixed(1)}"`,
  );
  expect(moved).not.toBe(xml);
  const path = join(dir, `moved-${++n}.xml`);
  writeFileSync(path, moved);
  return path;
}

describe('publish on the simulator, the real course files', () => {
  it.each(PUBLISH_CASES.map((c) => [c.label, c] as const))(
    '%s: publish, the browser step, check-courses SAME (Purple Pen: all but positions, absent from its file)',
    async (_label, c) => {
      const state = newState();
      const before = sim.state.importableEvents.list().length;
      const r = await publishJson(publishArgs(sim, c, dir, state));
      expect(r.code, r.stderr).toBe(0);
      expect(r.json).toMatchObject({
        ok: true,
        action: 'create',
        state: 'waiting-for-browser-step',
        validation: { errors: [] },
      });
      expect(r.json.links.importUrl).toContain(`/ImportableEvents/${r.json.importableId}/Import`);
      expect(sim.state.importableEvents.list()).toHaveLength(before + 1);

      const eventId = await browserStep(sim, r.json.importableId);
      const check = await checkCourses(c, c.file, eventId);
      expect(check.code, check.stdout + check.stderr).toBe(0);
      expect(check.stdout).toMatch(new RegExp(`^${c.verdict}: `, 'm'));
      // Everything that could be compared is the same.
      expect(check.stdout).not.toMatch(/^DIFFERENT/m);
    },
  );

  it('a control moved: publishing again updates the same importable event, imports it, and --check is SAME', async () => {
    const state = newState();
    const first = await publishJson(publishArgs(sim, OCAD, dir, state));
    expect(first.code, first.stderr).toBe(0);
    const id = first.json.importableId as string;
    const eventId = await browserStep(sim, id);
    const creates = sim.stats.count('POST /importableEvents');

    const moved = movedOcad();
    const again = await publishJson([...publishArgs(sim, OCAD, dir, state, moved), '--check']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.json).toMatchObject({ ok: true, action: 'update', importableId: id, state: 'imported', eventId });
    expect(again.json.check).toMatchObject({ verdict: 'same', eventId });
    expect(sim.stats.count('POST /importableEvents')).toBe(creates);
    expect(heldImportableEvents(sim).filter((e) => e.id === id)).toEqual([expect.objectContaining({ eventId })]);

    // The service holds the new position: the file as it was now differs by that control.
    const old = await checkCourses(OCAD, OCAD.file, eventId);
    expect(old.code).toBe(1);
    expect(old.stdout).toMatch(/control 104/i);
    const now = await checkCourses(OCAD, moved, eventId);
    expect(now.code, now.stdout).toBe(0);

    // `publish status` lists it, imported, with the event and its addresses.
    const status = await runBin(['publish', 'status', '--state', state, '--json', ...serviceArgs(sim)], env);
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout).published).toEqual([
      expect.objectContaining({ importableId: id, state: 'imported', eventId, file: moved }),
    ]);
  });

  it('--new publishes the same file as another importable event', async () => {
    const state = newState();
    const a = await publishJson(publishArgs(sim, OCAD, dir, state));
    const b = await publishJson([...publishArgs(sim, OCAD, dir, state), '--new']);
    expect(b.json).toMatchObject({ ok: true, action: 'create' });
    expect(b.json.importableId).not.toBe(a.json.importableId);
    const c = await publishJson(publishArgs(sim, OCAD, dir, state));
    expect(c.json).toMatchObject({ action: 'update', importableId: b.json.importableId });
  });
});

describe('the key: event name and race', () => {
  it('another file of the same event name and race: warned, with the hint to publish it with --new', async () => {
    const state = newState();
    const a = await publishJson(publishArgs(sim, OCAD, dir, state));
    const other = join(dir, `other-${++n}.xml`);
    writeFileSync(other, readFileSync(OCAD.file));
    const b = await publishJson(publishArgs(sim, OCAD, dir, state, other));
    expect(b.code, b.stderr).toBe(0);
    expect(b.json).toMatchObject({ action: 'update', importableId: a.json.importableId });
    expect(b.stderr).toMatch(
      /warning: importable event \S+ of this event name and race was published from .*OCAD11\.xml, not .*other-\d+\.xml/,
    );
    expect(b.stderr).toMatch(/publish it as one with --new/);
    const same = await publishJson(publishArgs(sim, OCAD, dir, state, other));
    expect(same.stderr).not.toMatch(/warning/);
  });
});

describe('the state on the service', () => {
  it('publish status says an importable event removed from the service is gone; publishing again makes a new one', async () => {
    const state = newState();
    const first = await publishJson(publishArgs(sim, OCAD, dir, state));
    const id = first.json.importableId as string;
    const status = () => runBin(['publish', 'status', '--state', state, ...serviceArgs(sim)], env);
    const before = await status();
    expect(before.code, before.stderr).toBe(0);
    expect(before.stdout).toMatch(new RegExp(`Importable event\\s+${id}`));
    expect(before.stdout).toMatch(/State\s+not-imported/);
    expect(before.stdout).toMatch(/Import address\s+http/);

    const removed = await request(`${sim.info.controlUrl}/importable-events/${id}`, { method: 'DELETE' });
    await removed.body.dump();
    expect(removed.statusCode).toBe(200);
    const after = await status();
    expect(after.code).toBe(1);
    expect(after.stdout).toMatch(/State\s+gone/);

    const again = await publishJson(publishArgs(sim, OCAD, dir, state));
    expect(again.code, again.stderr).toBe(0);
    expect(again.json).toMatchObject({ action: 'create', replacedGone: id });
    expect(again.json.importableId).not.toBe(id);
    // The gone one is history now: its row is marked replaced, and the newest row per file decides the exit code.
    const replaced = await status();
    expect(replaced.code, replaced.stdout + replaced.stderr).toBe(0);
    expect(replaced.stdout).toMatch(/State\s+gone \(replaced by a newer one\)/);
    expect(replaced.stdout).toMatch(/State\s+not-imported/);
  });

  it.runIf(process.platform === 'linux')('--open hands the import address to the platform opener', async () => {
    const bin = join(dir, 'bin');
    const opened = join(dir, 'opened.txt');
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s' "$1" > '${opened}'\n`, { mode: 0o755 });
    const r = await runBin([...publishArgs(sim, OCAD, dir, newState()), '--open', '--json'], {
      ...env,
      PATH: `${bin}:${env.PATH ?? ''}`,
    });
    expect(r.code, r.stderr).toBe(0);
    const url = JSON.parse(r.stdout).links.importUrl as string;
    await expect.poll(() => (existsSync(opened) ? readFileSync(opened, 'utf8') : ''), { timeout: 5000 }).toBe(url);
  });
});

describe('two publishes at once', () => {
  it('hold the run lock: one creates, the other is refused (locked, exit 4) before any request', async () => {
    const slow = await startSimulator({ port: 0, latencyMs: 300 });
    try {
      const state = newState();
      const [a, b] = await Promise.all([
        publishJson(publishArgs(slow, OCAD, dir, state)),
        publishJson(publishArgs(slow, OCAD, dir, state)),
      ]);
      const codes = [a.code, b.code].sort();
      expect(codes, a.stderr + b.stderr).toEqual([0, 4]);
      const refused = a.code === 4 ? a : b;
      expect(refused.json.error).toMatchObject({ name: 'StateError', reason: 'locked' });
      expect(refused.json.error.message).toMatch(/another run holds this state \(process \d+/);
      expect(slow.stats.snapshot().byEndpoint['POST /importableEvents']).toEqual({ '200': 1 });
      expect(slow.state.importableEvents.list()).toHaveLength(1);
    } finally {
      await slow.close();
    }
  });
});

describe("the service's word", () => {
  it("shows the service's validation errors and exits 1, without an import address", async () => {
    const file = join(dir, 'tiny.xml');
    // Valid against IOF.xsd (two course controls), but a course with one control: the service refuses it.
    writeFileSync(file, courseFile({ tinyCourse: true }));
    const r = await runBin(publishArgs(sim, OCAD, dir, newState(), file), env);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/validation found 1 error/);
    expect(r.stdout).toMatch(/error: The course 'Tiny' .* has 1 control\(s\)/);
    expect(r.stdout).not.toMatch(/Open this address/);
  });

  it("refuses to update another user's importable event (403), creating nothing", async () => {
    const state = newState();
    const mine = await publishJson(publishArgs(sim, OCAD, dir, state));
    expect(mine.code).toBe(0);
    const creates = sim.stats.count('POST /importableEvents');
    const args = publishArgs(sim, OCAD, dir, state);
    args[args.indexOf('--api-key') + 1] = sim.info.otherApiKey;
    const r = await publishJson(args);
    expect(r.code).toBe(1);
    expect(r.json.error).toMatchObject({ status: 403, importableEventId: mine.json.importableId });
    expect(r.json.error.message).toMatch(/may not administer/);
    expect(sim.stats.count('POST /importableEvents')).toBe(creates);
  });

  it('renews an expired login once and publishes', async () => {
    const tokenFile = join(dir, 'tokens.json');
    const strategy = oauth({
      clientId: sim.info.clientId,
      scopes: ['events.import', 'courses.read'],
      tokenStore: new FileTokenStore(tokenFile),
    });
    const addresses = { baseUrl: sim.info.baseUrl, authUrl: sim.info.authUrl, viewerUrl: sim.info.viewerUrl };
    const client = new LiveloxClient({ auth: strategy, ...addresses });
    try {
      const req = strategy.authorizationRequest(client, 'http://127.0.0.1:9/callback');
      const page = await request(req.url);
      await page.body.dump();
      await strategy.completeAuthorization(client, req, String(page.headers.location));
    } finally {
      await client.close();
    }
    sim.state.clock.advance(DAY_MS);
    const refreshes = sim.stats.count('POST /auth/oauth2/token');
    const args = [
      'publish',
      OCAD.file,
      '--map',
      join(dir, OCAD.image.name),
      '--state',
      newState(),
      '--token-file',
      tokenFile,
      ...['--base-url', addresses.baseUrl, '--auth-url', addresses.authUrl, '--viewer-url', addresses.viewerUrl],
    ];
    const r = await publishJson(args);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json).toMatchObject({ ok: true, action: 'create' });
    expect(sim.stats.count('POST /auth/oauth2/token') - refreshes).toBe(1);
  });
});

describe('a dry run', () => {
  it('writes the object and the zip, says it would create, then update, and sends nothing', async () => {
    const state = newState();
    const out = join(dir, 'dry');
    sim.stats.reset();
    const r = await runBin([...publishArgs(sim, OCAD, dir, state), '--dry-run', '--out', out], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Dry run: would create a new importable event\. Nothing was sent\./);
    const object = JSON.parse(readFileSync(join(out, 'importable-event.json'), 'utf8'));
    expect(object).toMatchObject({
      name: 'Event',
      courseDataFileNames: ['rg2_ellenbrook_CourseData_OCAD11.xml'],
      maps: [{ fileName: 'ellenbrook.png', mapScale: 10000 }],
    });
    expect(readFileSync(join(out, 'files.zip')).subarray(0, 2).toString('latin1')).toBe('PK');
    expect(existsSync(state)).toBe(false);
    expect(importableRequests(sim)).toBe(0);

    const real = await publishJson(publishArgs(sim, OCAD, dir, state));
    sim.stats.reset();
    const again = await publishJson([...publishArgs(sim, OCAD, dir, state), '--dry-run', '--out', out]);
    expect(again.json).toMatchObject({
      ok: true,
      dryRun: true,
      action: 'update',
      importableId: real.json.importableId,
    });
    expect(sim.stats.snapshot().requests).toBe(0);
  });

  it('sends the course prints with the map, named in the object', async () => {
    const prints = join(dir, 'prints');
    mkdirSync(prints, { recursive: true });
    writeFileSync(join(prints, 'Orange.pdf'), '%PDF-1.4 orange\n');
    writeFileSync(join(prints, 'Yellow.pdf'), '%PDF-1.4 yellow\n');
    const out = join(dir, 'dry-prints');
    const r = await publishJson([
      ...publishArgs(sim, OCAD, dir, newState()),
      '--course-prints',
      prints,
      '--dry-run',
      '--out',
      out,
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json.files.map((f: { name: string }) => f.name)).toEqual([
      'rg2_ellenbrook_CourseData_OCAD11.xml',
      'ellenbrook.png',
      'Orange.pdf',
      'Yellow.pdf',
    ]);
    const object = JSON.parse(readFileSync(join(out, 'importable-event.json'), 'utf8'));
    expect(object.courseImageFileNames).toEqual(['Orange.pdf', 'Yellow.pdf']);
  });

  it('converts an IOF 2.0.3 file to 3.0 and says so', async () => {
    // Its map positions put 0 mm at the map's middle; without a paper extent (2.0.3 gives one corner) the image's
    // extent starts at 0 mm: the positions are moved onto it.
    const file = join(dir, 'v203.xml');
    const text = readFileSync(realdataPath('iof2/rg2_ellenbrook_CourseData_v203_latin1.xml'), 'latin1');
    const shifted = text.replace(/(<MapPosition x="[^"]+" y=")([^"]+)"/g, (_m, head: string, y: string) => {
      return `${head}${(Number(y) + 100).toFixed(2)}"`;
    });
    writeFileSync(file, shifted, 'latin1');
    const r = await runBin(
      [
        'publish',
        file,
        '--map',
        join(dir, OCAD.image.name),
        '--corners',
        '51.70,-0.35;51.70,-0.15;51.82,-0.15;51.82,-0.35',
        '--map-scale',
        '10000',
        '--dry-run',
        '--out',
        join(dir, 'dry203'),
        '--state',
        newState(),
      ],
      env,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/IOF 2\.0\.3: it was converted to IOF XML 3\.0/);
    // What would be sent: the course file in files.zip is IOF XML 3.0.
    const entries = readZip(readFileSync(join(dir, 'dry203', 'files.zip')));
    const sent = entries.find((e) => e.name.endsWith('.xml'));
    expect(sent, entries.map((e) => e.name).join(', ')).toBeDefined();
    expect(Buffer.from(sent!.bytes).toString('utf8')).toMatch(/<CourseData[^>]*\biofVersion="3\.0"/);
  });
});

describe('bad input: a typed error before any request', () => {
  const notAnImage = join(dir, 'not-an-image.png');
  const huge = join(dir, 'huge.png');
  const farWorld = join(dir, 'far.pgw');
  const broken = join(dir, 'broken.xml');
  const invalid = join(dir, 'invalid.xml');
  const bigPrints = join(dir, 'big-prints');
  beforeAll(() => {
    // Random bytes do not compress: the files come to just under the limit, their zip (headers, deflate's stored
    // blocks) just over it.
    const course = statSync(OCAD.file).size + statSync(join(dir, OCAD.image.name)).size;
    mkdirSync(bigPrints, { recursive: true });
    writeFileSync(join(bigPrints, 'All.pdf'), randomBytes(MAX_UPLOAD_BYTES - course - 100));
    writeFileSync(notAnImage, 'this is text, not a PNG\n');
    // Sparse: the size is refused from the file's length, before anything is read.
    writeFileSync(huge, '');
    truncateSync(huge, MAX_UPLOAD_BYTES + 1);
    // The map somewhere in the North Sea, in the British grid: every control lies outside it.
    writeFileSync(farWorld, worldFileText({ a: 1, b: 0, c: 600_000, d: 0, e: -1, f: 900_000 }));
    writeFileSync(broken, readFileSync(OCAD.file, 'utf8').replace('</Control>', ''));
    writeFileSync(invalid, courseFile({ schemaInvalid: true }));
  });

  const cases: Array<[string, () => string[], RegExp]> = [
    [
      'a file that is not CourseData',
      () => ['--map', join(dir, OCAD.image.name), realdataPath('iof3/sportorg_ResultList.xml')],
      /expected an IOF CourseData document but it is ResultList/,
    ],
    ['broken XML', () => ['--map', join(dir, OCAD.image.name), broken], /broken\.xml/],
    ['an image that is not one', () => ['--map', notAnImage, OCAD.file], /not-an-image\.png/],
    [
      'a world file that puts the controls outside the map',
      () => ['--map', join(dir, OCAD.image.name), '--world-file', farWorld, '--map-epsg', '27700', OCAD.file],
      /outside the map/,
    ],
    ['a too large image', () => ['--map', huge, OCAD.file], /huge\.png.*(larger|more) than/],
    [
      'a folder of course prints that is not there',
      () => ['--map', join(dir, OCAD.image.name), '--course-prints', join(dir, 'no-prints'), OCAD.file],
      /no-prints: cannot read the folder of course prints: it does not exist/,
    ],
    [
      'files just under the upload limit whose zip is over it (the zip measured, not the files)',
      () => ['--map', join(dir, OCAD.image.name), '--course-prints', bigPrints, OCAD.file],
      /files\.zip: the upload would be \d+ bytes, more than the \d+ bytes/,
    ],
    [
      'a course file not valid against IOF.xsd (the schema says where)',
      () => ['--map', join(dir, OCAD.image.name), invalid],
      /invalid\.xml:\d+: .*Bogus/,
    ],
  ];

  it.each(cases)('%s', async (_label, args, message) => {
    sim.stats.reset();
    const r = await runBin(['publish', ...args(), '--state', newState(), ...serviceArgs(sim)], env);
    expect(r.code, r.stdout).toBe(1);
    expect(r.stderr).toMatch(message);
    expect(importableRequests(sim)).toBe(0);
  });
});
