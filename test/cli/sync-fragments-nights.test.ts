/**
 * The acceptance of the fragments a portal embeds: five nights of `sync --out-dir --css` as the built bin, the
 * simulator churning (classes renamed and removed, events deleted) and the portal churning too (events leave and come
 * back, keys the old naming rule merged, keys differing only by case, names Windows reserves). After every night:
 * every portal event has its fragment in index.json and on disk, an event gone, not found or ambiguous says "no links
 * yet", no fragment of an event that left remains, no two keys share a file, no fragment is an empty table or list,
 * `--out` names the same files, and a person's file in the folder is never touched.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PortalEvent } from '../../src/ems/portal.js';
import { contentHash } from '../../src/core/hash.js';
import type { SimEvent } from '../../src/simulator/model.js';
import { startSimulator, type Simulator } from '../../src/simulator/server.js';
import { cleanEnv, runBin } from '../helpers/cli.js';
import { portalDocument, serviceArgs } from '../helpers/sync-cli.js';
import { portalEventOf } from '../helpers/sync.js';

const DAY_MS = 86_400_000;
const NIGHTS = 5;

let sim: Simulator;
const dir = mkdtempSync(join(tmpdir(), 'lb-sync-fragments-'));
const env = cleanEnv(dir);

beforeAll(async () => {
  sim = await startSimulator({ port: 0, seed: 18, events: 160, churn: 0.2 });
});
afterAll(async () => {
  await sim?.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Index {
  formatVersion: number;
  fragments: Array<{ key: string; file: string; status: string; eventId?: number; updated: string }>;
}

/**
 * The portal of a night: most of the service's events under ordinary keys, keys the old rule merged (`a/b/c` and
 * `a_b_c-` its hash), keys differing by case alone, Windows' reserved names, an event the service does not have, and
 * a few events that leave the portal on some nights.
 */
function portalOf(night: number, events: readonly SimEvent[]): PortalEvent[] {
  const ordinary = events.filter((_, i) => i % 4 === 0).map((e) => portalEventOf(e, `eventor:${e.id}`));
  const tonight = ordinary.filter((_, i) => {
    if (i % 9 === 1) return night !== 2 && night !== 3; // leaves on night 2, back on night 4
    if (i % 9 === 2) return night < 3; // leaves on night 3 for good
    return true;
  });
  const odd = events.filter((_, i) => i % 4 === 1).slice(0, 8);
  const oldCollision = `a_b_c-${contentHash('a/b/c').slice(0, 10)}`;
  const hostile = [
    portalEventOf(odd[0]!, 'a/b/c'),
    portalEventOf(odd[1]!, oldCollision),
    portalEventOf(odd[2]!, 'Eventor:X1'),
    portalEventOf(odd[3]!, 'eventor:x1'),
    portalEventOf(odd[4]!, 'CON'),
    portalEventOf(odd[5]!, 'nul.txt'),
    portalEventOf(odd[6]!, 'com1.tar.gz'),
    portalEventOf(odd[7]!, 'races/2026/spring.xml#race 2'),
    portalEventOf({ ...events[1]!, name: 'Nowhere Night Cup', countryCode: 'ISL' }, 'portal:nowhere'),
  ];
  return [...tonight, ...hostile];
}

describe('sync --out-dir over five churned nights', () => {
  it('keeps one fragment per portal event in the index, "no links yet" where there are none, and nothing stale', async () => {
    const events = [...sim.state.eventsById.values()].sort((a, b) => a.id - b.id).slice(0, 120);
    const state = join(dir, 'state.sqlite');
    const portalFile = join(dir, 'portal.json');
    const frag = join(dir, 'fragments');
    const out = join(dir, 'links.json');
    const seen = { gone: 0, notFound: 0, removed: 0, noLinks: 0, linked: 0 };
    for (let night = 1; night <= NIGHTS; night++) {
      sim.state.clock.advance(DAY_MS);
      const portal = portalOf(night, events);
      writeFileSync(portalFile, portalDocument(portal));
      const r = await runBin(
        ['sync', portalFile, '--state', state, '--full', '--css', '--out', out, '--out-dir', frag, ...serviceArgs(sim)],
        env,
      );
      expect([0, 1], r.stderr).toContain(r.code);
      expect(r.stdout).toMatch(
        /^Fragments in .+: \d+ written, \d+ unchanged, \d+ removed; index\.json lists \d+ portal events\.$/m,
      );
      seen.removed += Number(/(\d+) removed;/.exec(r.stdout)![1]);
      if (night === 1) {
        // A person's page beside the fragments, from the first night on.
        writeFileSync(join(frag, 'welcome.html'), '<p>Our links</p>');
        // A linked event the service deletes: gone on a later night.
        sim.world.deleteEvent(Number(portal[0]!.key.slice('eventor:'.length)));
      }

      const index = JSON.parse(readFileSync(join(frag, 'index.json'), 'utf8')) as Index;
      // Every portal event, once, in the index.
      expect(index.fragments.map((f) => f.key).sort()).toEqual(portal.map((p) => p.key).sort());
      const files = index.fragments.map((f) => f.file);
      expect(new Set(files.map((f) => f.toLowerCase())).size).toBe(portal.length);
      // On disk: exactly the index's fragments, the person's page, the index, the manifest and the stylesheet.
      const html = readdirSync(frag).filter((f) => f.endsWith('.html'));
      expect(html.sort()).toEqual([...files, 'welcome.html'].sort());
      expect(
        readdirSync(frag)
          .filter((f) => !f.endsWith('.html'))
          .sort(),
      ).toEqual(['index.json', 'livelox-links.css', 'livelox-manifest.json']);
      // --out names the same fragment for each event.
      const doc = JSON.parse(readFileSync(out, 'utf8')) as {
        events: Array<{ key: string; fragment: { file: string } }>;
      };
      expect(Object.fromEntries(doc.events.map((e) => [e.key, e.fragment.file]))).toEqual(
        Object.fromEntries(index.fragments.map((f) => [f.key, f.file])),
      );
      for (const entry of index.fragments) {
        const text = readFileSync(join(frag, entry.file), 'utf8');
        expect(text).not.toContain('<table');
        expect(text).not.toMatch(/<ul class="livelox-classes">\n<\/ul>/);
        expect(text).toContain(`data-status="${entry.status}"`);
        expect(text).toContain(`<time datetime="${entry.updated}">`);
        const links = text.match(/<a /g)?.length ?? 0;
        if (entry.status !== 'linked') {
          expect(text, entry.key).toContain('<p class="livelox-none">No links yet.</p>');
          expect(links).toBe(0);
        } else {
          expect(links > 0 || text.includes('No links yet.'), entry.key).toBe(true);
        }
        if (text.includes('No links yet.')) seen.noLinks++;
        else seen.linked++;
        if (entry.status === 'gone') seen.gone++;
        if (entry.status === 'not_found') seen.notFound++;
      }
    }
    expect(readFileSync(join(frag, 'welcome.html'), 'utf8')).toBe('<p>Our links</p>');
    // The nights did what the test is about: events gone, not found, fragments removed, links shown.
    expect(seen.gone).toBeGreaterThan(0);
    expect(seen.notFound).toBeGreaterThan(0);
    expect(seen.removed).toBeGreaterThan(0);
    expect(seen.linked).toBeGreaterThan(seen.noLinks);
    expect(existsSync(join(frag, 'a_2fb_2fc.html'))).toBe(true);
  });
});
