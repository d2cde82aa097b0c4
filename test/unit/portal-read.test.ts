import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { iofEmsSource } from '../../src/ems/iof-source.js';
import { objectEmsSource } from '../../src/ems/json-source.js';
import { portalFromSources, readPortal } from '../../src/ems/portal.js';
import type { EmsSource } from '../../src/ems/source.js';
import { fixturePath } from '../helpers/files.js';

const FOLDER = fixturePath('portal/folder');
const LIST = fixturePath('portal/eventor.EventList.xml');
const RESULTS = fixturePath('portal/folder/club-a/2025-05-18.ResultList.xml');
const NS = 'xmlns="http://www.orienteering.org/datastandard/3.0" iofVersion="3.0"';

function tempFolder(): string {
  return mkdtempSync(join(tmpdir(), 'portal-read-'));
}

function classList(id: string | undefined, name: string): string {
  const idElement = id === undefined ? '' : `<Id type="Eventor">${id}</Id>`;
  return `<ClassList ${NS}><Event>${idElement}<Name>${name}</Name></Event><Class><Name>H21</Name></Class></ClassList>`;
}

/** `mkfifo` is a POSIX tool: the FIFO test needs it. */
const canMakeFifo = process.platform !== 'win32';
/** Root reads a file whatever its mode: an unreadable file cannot be made by chmod then. */
const isRoot = process.getuid?.() === 0;

describe('readPortal: a folder of exports', () => {
  it('reads every file by what it holds, recursively, in sorted path order', async () => {
    const { events, problems } = await readPortal([FOLDER]);
    expect(problems).toEqual([]);
    expect(events.map((e) => [e.key, e.origin, e.export.format])).toEqual([
      ['eventor:50010', join(FOLDER, 'club-a/2025-05-18.ResultList.xml'), 'IOF 3.0 ResultList'],
      ['club-b/training.json', join(FOLDER, 'club-b/training.json'), 'EMS JSON'],
      [
        'multi/three-days.StartList.xml#race 1',
        `${join(FOLDER, 'multi/three-days.StartList.xml')}#race 1`,
        'IOF 3.0 StartList',
      ],
      [
        'multi/three-days.StartList.xml#race 2',
        `${join(FOLDER, 'multi/three-days.StartList.xml')}#race 2`,
        'IOF 3.0 StartList',
      ],
      [
        'multi/three-days.StartList.xml#race 3',
        `${join(FOLDER, 'multi/three-days.StartList.xml')}#race 3`,
        'IOF 3.0 StartList',
      ],
      ['portal:7781', `${join(FOLDER, 'portal-events.json')} events[0]`, 'EMS JSON'],
      ['eventor:50020', `${join(FOLDER, 'portal-events.json')} events[1]`, 'EMS JSON'],
    ]);
    expect(events[0]!.export.classes.map((c) => [c.name, c.course?.name])).toEqual([
      ['H21', 'A'],
      ['D21', 'B'],
    ]);
    expect(events[5]!.serviceEventId).toBe(150301);
  });

  it('gives each race of a multi-race export as iofEmsSource reads that race', async () => {
    const { events } = await readPortal([FOLDER]);
    const path = join(FOLDER, 'multi/three-days.StartList.xml');
    const races = events.filter((e) => e.key.startsWith('multi/'));
    for (const [i, race] of races.entries()) {
      expect(race.export).toEqual(await iofEmsSource(path, { race: i + 1 }).read());
    }
    expect(races.map((r) => [r.export.event.name, r.export.event.start])).toEqual([
      ['Sommarveckan, Dag 1', '2025-07-07'],
      ['Sommarveckan, Dag 2', '2025-07-08'],
      ['Sommarveckan, Dag 3', '2025-07-09'],
    ]);
  });

  it('keys a file given directly by its path as given, and reads files and folders together', async () => {
    const { events, problems } = await readPortal([RESULTS, fixturePath('portal/folder/club-b/training.json')]);
    expect(problems).toEqual([]);
    expect(events.map((e) => e.key)).toEqual(['eventor:50010', fixturePath('portal/folder/club-b/training.json')]);
  });

  it('reports each file it cannot read, with its typed error, and reads the rest', async () => {
    const folder = tempFolder();
    copyFileSync(RESULTS, join(folder, 'good.xml'));
    copyFileSync(fixturePath('hostile/billion-laughs.xml'), join(folder, 'laughs.xml'));
    copyFileSync(fixturePath('hostile/png-named-xml.xml'), join(folder, 'map.xml'));
    writeFileSync(join(folder, 'empty.xml'), '');
    writeFileSync(join(folder, 'notes.txt'), 'Remember the map printer.\n');
    writeFileSync(join(folder, 'broken.json'), '{ "formatVersion": 1, ');
    writeFileSync(join(folder, 'other.json'), '{ "formatVersion": 1, "colour": "red" }');
    writeFileSync(join(folder, 'route.gpx'), '<?xml version="1.0"?><gpx version="1.1" creator="x"></gpx>');
    writeFileSync(join(folder, 'competitors.xml'), `<CompetitorList ${NS}></CompetitorList>`);
    // Hidden files are never a portal's events, whatever they hold.
    writeFileSync(join(folder, '.DS_Store'), Buffer.from([0, 0, 0, 1, 0x42, 0x75, 0x64, 0x31]));
    const { events, problems } = await readPortal([folder]);
    expect(events.map((e) => e.key)).toEqual(['eventor:50010']);
    expect(problems.map((p) => [p.origin, p.code])).toEqual([
      [join(folder, 'broken.json'), 'not_json'],
      [join(folder, 'competitors.xml'), 'wrong_message_type'],
      [join(folder, 'empty.xml'), 'empty'],
      [join(folder, 'laughs.xml'), 'entity_declaration'],
      [join(folder, 'map.xml'), 'not_iof'],
      [join(folder, 'notes.txt'), 'not_iof'],
      [join(folder, 'other.json'), 'validation'],
      [join(folder, 'route.gpx'), 'not_iof'],
    ]);
    expect(problems.find((p) => p.code === 'not_iof' && p.origin.endsWith('map.xml'))!.message).toMatch(/binary/);
    expect(problems.find((p) => p.code === 'not_iof' && p.origin.endsWith('route.gpx'))!.message).toMatch(/GPX/);
    expect(problems.find((p) => p.code === 'validation')!.issues!.map((i) => i.path)).toEqual(
      expect.arrayContaining(['event', 'classes', 'colour']),
    );
    for (const p of problems) expect(p.message).toContain(p.origin);
  });

  it.skipIf(!canMakeFifo)('reports a named pipe as not a file instead of waiting on it forever', async () => {
    const folder = tempFolder();
    copyFileSync(RESULTS, join(folder, 'good.xml'));
    execFileSync('mkfifo', [join(folder, 'pipe.xml')]);
    const inFolder = await readPortal([folder]);
    expect(inFolder.events).toHaveLength(1);
    expect(inFolder.problems.map((p) => [p.origin, p.code])).toEqual([[join(folder, 'pipe.xml'), 'not_a_file']]);
    const direct = await readPortal([join(folder, 'pipe.xml')]);
    expect(direct.problems.map((p) => p.code)).toEqual(['not_a_file']);
  });

  it.skipIf(isRoot)('reports a file it may not read (skipped as root, who may read any file)', async () => {
    const folder = tempFolder();
    copyFileSync(RESULTS, join(folder, 'locked.xml'));
    chmodSync(join(folder, 'locked.xml'), 0o000);
    const { events, problems } = await readPortal([folder]);
    expect(events).toEqual([]);
    expect(problems.map((p) => [p.origin, p.code])).toEqual([[join(folder, 'locked.xml'), 'unreadable']]);
  });

  it('walks a folder named like a file, and reports a path that does not exist', async () => {
    const folder = tempFolder();
    mkdirSync(join(folder, 'x.xml'));
    copyFileSync(RESULTS, join(folder, 'x.xml', 'inner.xml'));
    const missing = join(folder, 'missing');
    const { events, problems } = await readPortal([folder, missing]);
    expect(events.map((e) => e.origin)).toEqual([join(folder, 'x.xml', 'inner.xml')]);
    expect(problems).toMatchObject([{ origin: missing, code: 'unreadable' }]);
    expect(problems[0]!.message).toMatch(/does not exist/);
  });

  it('follows links but reads every folder and file once: a link loop ends', async () => {
    const folder = tempFolder();
    mkdirSync(join(folder, 'a'));
    copyFileSync(RESULTS, join(folder, 'a', 'results.xml'));
    symlinkSync('..', join(folder, 'a', 'up')); // a/up/a/up/a/... without end
    symlinkSync(join(folder, 'a'), join(folder, 'b')); // the same folder again
    symlinkSync('results.xml', join(folder, 'a', 'same.xml')); // the same file again
    symlinkSync('self', join(folder, 'self')); // a link to itself
    symlinkSync('nowhere.xml', join(folder, 'dangling.xml'));
    const { events, problems } = await readPortal([folder]);
    expect(events.map((e) => e.key)).toEqual(['eventor:50010']);
    expect(problems.map((p) => [p.origin, p.code])).toEqual([
      [join(folder, 'dangling.xml'), 'unreadable'],
      [join(folder, 'self'), 'unreadable'],
    ]);
  });

  it('keeps the first of two events with one key, in sorted path order, and names both', async () => {
    const folder = tempFolder();
    mkdirSync(join(folder, 'b'));
    writeFileSync(join(folder, 'b', 'first.xml'), classList('777', 'Tävlingen'));
    writeFileSync(join(folder, 'c.xml'), classList('777', 'Tävlingen igen'));
    writeFileSync(join(folder, 'a.xml'), classList(undefined, 'Utan id'));
    const { events, problems } = await readPortal([folder]);
    expect(events.map((e) => [e.key, e.export.event.name])).toEqual([
      ['a.xml', 'Utan id'],
      ['eventor:777', 'Tävlingen'],
    ]);
    expect(problems).toEqual([
      {
        origin: join(folder, 'c.xml'),
        code: 'duplicate_key',
        message: expect.stringContaining(join(folder, 'b', 'first.xml')),
      },
    ]);
    expect(problems[0]!.message).toContain('eventor:777');
  });

  it('finds duplicate keys across inputs too: the input given first wins', async () => {
    const folder = tempFolder();
    writeFileSync(join(folder, 'sprint.xml'), classList('50001', 'Vårsprinten (klubbens kopia)'));
    const { events, problems } = await readPortal([LIST, folder]);
    expect(events.find((e) => e.key === 'eventor:50001')!.origin).toBe(`${LIST} event 2`);
    expect(problems).toMatchObject([{ origin: join(folder, 'sprint.xml'), code: 'duplicate_key' }]);
  });

  it('stops with the signal’s reason when aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(readPortal([FOLDER], { signal: controller.signal })).rejects.toThrow('stop');
  });
});

describe('portalFromSources: events built in code', () => {
  const withId = objectEmsSource(
    { event: { name: 'A', organisers: [], externalIds: { eventor: '1' } }, classes: [] },
    'db:1',
  );
  const withoutId = objectEmsSource({ event: { name: 'B', organisers: [] }, classes: [] }, 'db:2');

  it('keys by the export’s id, else by the source', async () => {
    const { events, problems } = await portalFromSources([withId, withoutId]);
    expect(problems).toEqual([]);
    expect(events.map((e) => [e.key, e.origin, e.export.event.name])).toEqual([
      ['eventor:1', 'db:1', 'A'],
      ['db:2', 'db:2', 'B'],
    ]);
  });

  it('takes a key function, and reads an async iterable', async () => {
    async function* sources(): AsyncIterable<EmsSource> {
      yield withId;
      yield withoutId;
    }
    const { events } = await portalFromSources(sources(), { key: (e) => `name:${e.event.name}` });
    expect(events.map((e) => e.key)).toEqual(['name:A', 'name:B']);
  });

  it('makes a failing source a problem, and duplicate keys as readPortal does', async () => {
    const bad = objectEmsSource({ event: { name: 'C', organisers: [] }, classes: [{ name: '' }] }, 'db:3');
    const { events, problems } = await portalFromSources([withId, bad, withId, iofEmsSource('/no/such/file.xml')]);
    expect(events.map((e) => e.key)).toEqual(['eventor:1']);
    expect(problems.map((p) => [p.origin, p.code])).toEqual([
      ['db:3', 'validation'],
      ['db:1', 'duplicate_key'],
      ['/no/such/file.xml', 'unreadable'],
    ]);
    expect(problems[0]!.issues).toMatchObject([{ path: 'classes[0].name' }]);
  });

  it('throws an error that is not one of the library’s (a bug, a failing database)', async () => {
    const broken: EmsSource = { source: 'db:x', read: () => Promise.reject(new TypeError('boom')) };
    await expect(portalFromSources([broken])).rejects.toThrow('boom');
    const typed: EmsSource = { source: 'db:y', read: () => Promise.reject(new InputError('db:y', 'gone', 'gone.')) };
    expect((await portalFromSources([typed])).problems).toMatchObject([{ origin: 'db:y', code: 'gone' }]);
  });
});
