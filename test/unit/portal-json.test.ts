import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors.js';
import { jsonEmsSource, parseEmsJson, parseEmsJsonList } from '../../src/ems/json-source.js';
import { readPortal } from '../../src/ems/portal.js';
import { fixturePath } from '../helpers/files.js';

const dir = mkdtempSync(join(tmpdir(), 'portal-json-'));

function file(name: string, value: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
  return path;
}

const good = (name: string, extra: Record<string, unknown> = {}) => ({
  ...extra,
  event: { name, start: '2025-06-01', organisers: ['OK Linné'] },
  classes: [{ name: 'H21' }],
});

describe('the multi-event EMS JSON form', () => {
  it('reads every entry with its key and service event id', () => {
    const { entries, problems } = parseEmsJsonList(
      { formatVersion: 1, events: [good('A', { key: 'p:1', serviceEventId: 42 }), good('B')] },
      'list.json',
    );
    expect(problems).toEqual([]);
    expect(entries).toEqual([
      {
        index: 0,
        key: 'p:1',
        serviceEventId: 42,
        export: {
          event: { name: 'A', start: '2025-06-01', organisers: ['OK Linné'] },
          classes: [{ name: 'H21' }],
          format: 'EMS JSON',
          source: 'list.json events[0]',
        },
      },
      expect.objectContaining({ index: 1, export: expect.objectContaining({ source: 'list.json events[1]' }) }),
    ]);
    expect(entries[1]).not.toHaveProperty('key');
  });

  it('reports each bad entry on its own, with paths from the document’s root, and reads the rest', () => {
    const { entries, problems } = parseEmsJsonList(
      {
        formatVersion: 1,
        events: [
          good('A'),
          { event: { name: 'B', organisers: [] }, classes: [{ name: '' }] },
          { event: { name: 'C', organisers: [], start: '01/06/2025' }, classes: [], colour: 'red' },
          good('D'),
          { event: { name: 'E', organisers: [] }, classes: [{ name: 'H21' }, { name: 'h21' }] },
          good('F', { serviceEventId: -3, key: '' }),
          'not an object',
        ],
      },
      'list.json',
    );
    expect(entries.map((e) => e.export.event.name)).toEqual(['A', 'D']);
    expect(problems.map((p) => p.index)).toEqual([1, 2, 4, 5, 6]);
    expect(problems.every((p) => p.error instanceof ValidationError)).toBe(true);
    const paths = problems.map((p) => p.error.issues.map((i) => `${i.path}:${i.code}`));
    expect(paths).toEqual([
      ['events[1].classes[0].name:too_small'],
      expect.arrayContaining(['events[2].event.start:invalid_format', 'events[2].colour:unknown_field']),
      ['events[4].classes[1].name:duplicate_name'],
      expect.arrayContaining(['events[5].key:too_small', 'events[5].serviceEventId:too_small']),
      ['events[6]:invalid_type'],
    ]);
    expect(problems[0]!.error.message).toContain('EMS file list.json: events[1].classes[0].name');
  });

  it('throws for a bad envelope: the document is not the form at all', () => {
    const codes = (json: unknown): string[] => {
      try {
        parseEmsJsonList(json, 'list.json');
      } catch (err) {
        return (err as ValidationError).issues.map((i) => `${i.path}:${i.code}`);
      }
      return [];
    };
    expect(codes({ events: [] })).toEqual(['formatVersion:invalid_value']);
    expect(codes({ formatVersion: 1, events: {} })).toEqual(['events:invalid_type']);
    expect(codes({ formatVersion: 1, events: [], event: {} })).toEqual(['event:unknown_field']);
  });

  it('leaves the one-event form as it was, and refuses the list where one event is expected', async () => {
    expect(parseEmsJson({ formatVersion: 1, ...good('A') }, 'one.json').event.name).toBe('A');
    const list = file('list-for-link.json', { formatVersion: 1, events: [good('A')] });
    await expect(jsonEmsSource(list).read()).rejects.toMatchObject({ reason: 'event_list' });
    const one = file('one.json', { formatVersion: 1, ...good('A') });
    expect((await jsonEmsSource(one).read()).event.name).toBe('A');
  });
});

describe('readPortal: multi-event JSON files', () => {
  it('keys entries by their key, else their id, else their place; bad entries are problems', async () => {
    const path = file('portal.json', {
      formatVersion: 1,
      events: [
        good('A', { key: 'p:1', serviceEventId: 7 }),
        { ...good('B'), event: { ...good('B').event, externalIds: { Eventor: '88' } } },
        good('C'),
        { event: { name: 'D' }, classes: [{ name: 'H21', course: { length: -1 } }] },
        good('E', { key: 'p:1' }),
      ],
    });
    const { events, problems } = await readPortal([path]);
    expect(events.map((e) => [e.key, e.origin, e.serviceEventId])).toEqual([
      ['p:1', `${path} events[0]`, 7],
      ['eventor:88', `${path} events[1]`, undefined],
      [`${path}#events[2]`, `${path} events[2]`, undefined],
    ]);
    expect(problems.map((p) => [p.origin, p.code])).toEqual([
      [`${path} events[3]`, 'validation'],
      [`${path} events[4]`, 'duplicate_key'],
    ]);
    expect(problems[0]!.issues!.map((i) => i.path)).toEqual(['events[3].classes[0].course.length']);
  });

  it('keys by path below the folder when read from a folder', async () => {
    const { events } = await readPortal([fixturePath('portal/folder')]);
    expect(events.filter((e) => e.export.format === 'EMS JSON').map((e) => e.key)).toEqual([
      'club-b/training.json',
      'portal:7781',
      'eventor:50020',
    ]);
  });

  it('makes a bad envelope one problem for the file', async () => {
    const path = file('bad-envelope.json', { formatVersion: 2, events: [good('A')] });
    const { events, problems } = await readPortal([path]);
    expect(events).toEqual([]);
    expect(problems).toMatchObject([{ origin: path, code: 'validation', issues: [{ path: 'formatVersion' }] }]);
  });
});
