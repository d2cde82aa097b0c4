/**
 * `writePortalFragments` on a real folder: one fragment per portal event named by the rule, `index.json`, "no links
 * yet" instead of an empty list, stamps that move only when the links do, the fragments of events that left removed,
 * and nothing removed that the manifest does not vouch for (a person's files; everything, when the manifest is missing
 * or damaged).
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  FRAGMENT_CSS_FILE,
  FRAGMENT_INDEX_FILE,
  FRAGMENT_MANIFEST_FILE,
  writePortalFragments,
} from '../../src/jobs/portal-fragments.js';
import { FRAGMENT_CSS } from '../../src/links/fragment.js';
import { fragmentFileName } from '../../src/links/fragment-names.js';
import type { PortalLinks } from '../../src/links/portal.js';

const root = mkdtempSync(join(tmpdir(), 'lb-fragments-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
function folder(): string {
  const d = join(root, `d${++n}`);
  mkdirSync(d);
  return d;
}

const linked = (key: string, classes = ['H21', 'D21']): PortalLinks => ({
  key,
  status: 'linked',
  eventId: 100,
  eventName: 'Night Cup',
  classes: classes.map((name, i) => ({
    name,
    status: 'linked',
    classId: i + 1,
    serviceClass: name === 'H21' ? 'M21' : name,
    url: `https://www.livelox.com/Viewer?classId=${i + 1}`,
  })),
});
const notLinked = (key: string, status: string): PortalLinks => ({
  key,
  status,
  ...(status === 'gone' ? { eventId: 7, eventName: 'Old Cup' } : {}),
  reason: 'why',
  classes: [],
});
const clock = (iso: string) => () => new Date(iso);

interface Index {
  formatVersion: number;
  fragments: Array<{ key: string; file: string; status: string; eventId?: number; updated: string }>;
}
const indexOf = (dir: string) => JSON.parse(readFileSync(join(dir, FRAGMENT_INDEX_FILE), 'utf8')) as Index;

describe('writePortalFragments', () => {
  it('writes a fragment per portal event, the index, and "no links yet" for every event without links', async () => {
    const dir = folder();
    const links = [
      linked('eventor:1-1'),
      notLinked('eventor:2', 'gone'),
      notLinked('eventor:3', 'not_found'),
      notLinked('eventor:4', 'ambiguous'),
      linked('eventor:5', []),
    ];
    const r = await writePortalFragments(dir, links, { now: clock('2026-11-27T20:00:00Z'), css: true });
    expect(r).toMatchObject({ unchanged: 0, removed: [], manifest: 'missing', left: [] });
    expect(r.written).toEqual(links.map((l) => fragmentFileName(l.key)));
    expect(indexOf(dir)).toEqual({
      formatVersion: 1,
      fragments: [
        {
          key: 'eventor:1-1',
          file: 'eventor_3a1-1.html',
          status: 'linked',
          eventId: 100,
          updated: '2026-11-27T20:00:00.000Z',
        },
        { key: 'eventor:2', file: 'eventor_3a2.html', status: 'gone', eventId: 7, updated: '2026-11-27T20:00:00.000Z' },
        { key: 'eventor:3', file: 'eventor_3a3.html', status: 'not_found', updated: '2026-11-27T20:00:00.000Z' },
        { key: 'eventor:4', file: 'eventor_3a4.html', status: 'ambiguous', updated: '2026-11-27T20:00:00.000Z' },
        {
          key: 'eventor:5',
          file: 'eventor_3a5.html',
          status: 'linked',
          eventId: 100,
          updated: '2026-11-27T20:00:00.000Z',
        },
      ],
    });
    const first = readFileSync(join(dir, 'eventor_3a1-1.html'), 'utf8');
    expect(first).toContain('<a href="https://www.livelox.com/Viewer?classId=1" rel="noopener" title="M21">H21</a>');
    // The same name on both sides: no title repeating it.
    expect(first).toContain('<a href="https://www.livelox.com/Viewer?classId=2" rel="noopener">D21</a>');
    expect(first).toContain('lang="en"');
    expect(first).toContain('<time datetime="2026-11-27T20:00:00.000Z">');
    for (const key of ['eventor:2', 'eventor:3', 'eventor:4', 'eventor:5']) {
      const html = readFileSync(join(dir, fragmentFileName(key)), 'utf8');
      expect(html).toContain('<p class="livelox-none">No links yet.</p>');
      expect(html).not.toMatch(/<table|<ul|<a /);
      // A gone event's old name is not shown as if it were its links.
      expect(html).not.toContain('Old Cup');
    }
    expect(readFileSync(join(dir, FRAGMENT_CSS_FILE), 'utf8')).toBe(FRAGMENT_CSS);
    expect(readdirSync(dir).sort()).toEqual(
      [...r.written, FRAGMENT_INDEX_FILE, FRAGMENT_MANIFEST_FILE, FRAGMENT_CSS_FILE].sort(),
    );
  });

  it('says the no-links text and the language it is given', async () => {
    const dir = folder();
    await writePortalFragments(dir, [notLinked('k', 'not_found')], {
      lang: 'sv',
      texts: { noLinks: 'Inga länkar än.', updated: 'Uppdaterad' },
      now: clock('2026-11-27T20:00:00Z'),
    });
    const html = readFileSync(join(dir, 'k.html'), 'utf8');
    expect(html).toContain('lang="sv"');
    expect(html).toContain('<p class="livelox-none">Inga länkar än.</p>');
    expect(html).toMatch(/Uppdaterad <time datetime="2026-11-27T20:00:00.000Z">27 nov\. 2026/);
    await expect(writePortalFragments(dir, [], { lang: 'not a tag' })).rejects.toThrow(/lang/);
  });

  it('leaves a fragment whose links did not change as it was, stamp included, and restamps one that changed', async () => {
    const dir = folder();
    await writePortalFragments(dir, [linked('a'), linked('b')], { now: clock('2026-11-01T00:00:00Z') });
    const before = statSync(join(dir, 'a.html')).mtimeMs;
    const r = await writePortalFragments(dir, [linked('a'), linked('b', ['H21'])], {
      now: clock('2026-11-02T00:00:00Z'),
    });
    expect(r.written).toEqual(['b.html']);
    expect(r.unchanged).toBe(1);
    expect(statSync(join(dir, 'a.html')).mtimeMs).toBe(before);
    // A night with nothing new touches no file of the folder.
    const times = () => readdirSync(dir).map((f) => [f, statSync(join(dir, f)).mtimeMs]);
    const quiet = times();
    const again0 = await writePortalFragments(dir, [linked('a'), linked('b', ['H21'])], {
      now: clock('2026-11-02T12:00:00Z'),
    });
    expect(again0.written).toEqual([]);
    expect(times()).toEqual(quiet);
    expect(indexOf(dir).fragments.map((f) => [f.file, f.updated])).toEqual([
      ['a.html', '2026-11-01T00:00:00.000Z'],
      ['b.html', '2026-11-02T00:00:00.000Z'],
    ]);
    // A fragment someone edited is ours to put right.
    writeFileSync(join(dir, 'a.html'), 'edited');
    const again = await writePortalFragments(dir, [linked('a'), linked('b', ['H21'])], {
      now: clock('2026-11-03T00:00:00Z'),
    });
    expect(again.written).toEqual(['a.html']);
    expect(readFileSync(join(dir, 'a.html'), 'utf8')).toContain('H21');
  });

  it('removes the fragments of events that left the portal, and never a file it did not write', async () => {
    const dir = folder();
    writeFileSync(join(dir, 'notes.html'), 'mine');
    // A person's file with a name the rule could give: not in the manifest, so not ours to remove.
    writeFileSync(join(dir, 'c.html'), 'mine too');
    await writePortalFragments(dir, [linked('a'), linked('b')], { now: clock('2026-11-01T00:00:00Z') });
    const r = await writePortalFragments(dir, [linked('a')], { now: clock('2026-11-02T00:00:00Z') });
    expect(r).toMatchObject({ removed: ['b.html'], manifest: 'ok', left: ['c.html', 'notes.html'] });
    expect(existsSync(join(dir, 'b.html'))).toBe(false);
    expect(readFileSync(join(dir, 'notes.html'), 'utf8')).toBe('mine');
    expect(readFileSync(join(dir, 'c.html'), 'utf8')).toBe('mine too');
    expect(indexOf(dir).fragments.map((f) => f.key)).toEqual(['a']);
    // The event comes back: a new fragment, recorded again.
    const back = await writePortalFragments(dir, [linked('a'), linked('b')], { now: clock('2026-11-03T00:00:00Z') });
    expect(back.written).toEqual(['b.html']);
  });

  it('removes nothing, and says so, when the manifest is missing or damaged', async () => {
    const outside = join(root, 'outside.html');
    writeFileSync(outside, 'keep');
    for (const damage of [
      undefined,
      '{ not json',
      '{"formatVersion":1,"files":[{"file":"../outside.html","key":"x","sha256":"' +
        '0'.repeat(64) +
        '","updated":"2026-01-01T00:00:00Z"}]}',
      '{"formatVersion":2,"files":[]}',
    ]) {
      const dir = folder();
      await writePortalFragments(dir, [linked('a'), linked('b')], { now: clock('2026-11-01T00:00:00Z') });
      if (damage === undefined) rmSync(join(dir, FRAGMENT_MANIFEST_FILE));
      else writeFileSync(join(dir, FRAGMENT_MANIFEST_FILE), damage);
      const aBefore = readFileSync(join(dir, 'a.html'), 'utf8');
      const r = await writePortalFragments(dir, [linked('a', ['H21']), linked('c')], {
        now: clock('2026-11-02T00:00:00Z'),
      });
      // a.html may be ours, or a person's: nothing proves which, so it is not written over (a conflict); c is new.
      expect(r).toMatchObject({
        written: ['c.html'],
        removed: [],
        manifest: damage === undefined ? 'missing' : 'damaged',
        left: ['b.html'],
        conflicts: [{ key: 'a', file: 'a.html' }],
      });
      expect(readFileSync(join(dir, 'a.html'), 'utf8')).toBe(aBefore);
      expect(existsSync(join(dir, 'b.html'))).toBe(true);
      expect(indexOf(dir).fragments.map((f) => f.key)).toEqual(['c']);
      expect(readFileSync(outside, 'utf8')).toBe('keep');
      // Written anew, with only what this run wrote: the next run knows c as its own, and still not a or b.
      const next = await writePortalFragments(dir, [], { now: clock('2026-11-03T00:00:00Z') });
      expect(next).toMatchObject({ manifest: 'ok', removed: ['c.html'], left: ['a.html', 'b.html'], conflicts: [] });
      // Once a person moved the file away, the fragment is written and is ours again.
      rmSync(join(dir, 'a.html'));
      const fixed = await writePortalFragments(dir, [linked('a')], { now: clock('2026-11-04T00:00:00Z') });
      expect(fixed).toMatchObject({ written: ['a.html'], conflicts: [] });
    }
  });

  it("never writes over a person's file at a fragment's name, and so never removes it later", async () => {
    const dir = folder();
    await writePortalFragments(dir, [linked('a')], { now: clock('2026-11-01T00:00:00Z') });
    writeFileSync(join(dir, 'welcome.html'), '<p>Welcome!</p>');
    mkdirSync(join(dir, 'photos.html'));
    const r = await writePortalFragments(dir, [linked('welcome'), linked('a'), linked('photos')], {
      now: clock('2026-11-02T00:00:00Z'),
    });
    expect(r).toMatchObject({
      manifest: 'ok',
      written: [],
      unchanged: 1,
      left: [],
      conflicts: [
        { key: 'photos', file: 'photos.html' },
        { key: 'welcome', file: 'welcome.html' },
      ],
    });
    expect(readFileSync(join(dir, 'welcome.html'), 'utf8')).toBe('<p>Welcome!</p>');
    expect(indexOf(dir).fragments.map((f) => f.key)).toEqual(['a']);
    const manifest = JSON.parse(readFileSync(join(dir, FRAGMENT_MANIFEST_FILE), 'utf8')) as {
      files: { file: string }[];
    };
    expect(manifest.files.map((f) => f.file)).toEqual(['a.html']);
    // The event leaves the portal: the person's file stays.
    const after = await writePortalFragments(dir, [linked('a')], { now: clock('2026-11-03T00:00:00Z') });
    expect(after).toMatchObject({ removed: [], left: ['photos.html', 'welcome.html'], conflicts: [] });
    expect(readFileSync(join(dir, 'welcome.html'), 'utf8')).toBe('<p>Welcome!</p>');
  });

  it('lists the index sorted by key, whatever order the portal gave its events in', async () => {
    const dir = folder();
    const keys = ['eventor:10', 'b', 'Z', 'eventor:9', 'a'];
    const r = await writePortalFragments(
      dir,
      keys.map((k) => linked(k)),
      { now: clock('2026-11-01T00:00:00Z') },
    );
    const sorted = ['Z', 'a', 'b', 'eventor:10', 'eventor:9'];
    expect(r.index.map((e) => e.key)).toEqual(sorted);
    expect(indexOf(dir).fragments.map((f) => f.key)).toEqual(sorted);
    const again = await writePortalFragments(
      dir,
      [...keys].reverse().map((k) => linked(k)),
      { now: clock('2026-11-02T00:00:00Z') },
    );
    expect(again.index.map((e) => e.key)).toEqual(sorted);
  });
});
