/**
 * `livelox-bridge link` as the built bin against a simulator holding the decoys a real calendar has (issue 20): the
 * like-named race of another region the same day, and the event entered twice. The rules of src/match/ seen through
 * the real client and CLI: the search, the scoring and the report, not only the pure matcher.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/simulator/server.js';
import type { SimEvent } from '../../src/simulator/model.js';
import { makeDataset, makeEvent } from '../helpers/dataset.js';
import { runBin } from '../helpers/cli.js';

const env = { PATH: process.env.PATH ?? '', NO_COLOR: '1' };
const dir = mkdtempSync(join(tmpdir(), 'lb-link-decoys-'));
const CLASSES = ['H21', 'D21', 'H35', 'D35', 'H16', 'D16', 'H12', 'D12'];

let classId = 71_000;
/** A race of a French regional ranking on 2025-05-18, as its league entered it. */
function race(id: number, name: string, organiser: string, hour: number): SimEvent {
  return makeEvent({
    id,
    name,
    start: `2025-05-18T${String(hour).padStart(2, '0')}:00:00Z`,
    end: `2025-05-18T${String(hour + 4).padStart(2, '0')}:00:00Z`,
    countryCode: 'FRA',
    position: { latitude: 45.2, longitude: 5.7 },
    organisers: [{ name: organiser }],
    classes: CLASSES.map((name) => ({ id: classId++, name })),
  });
}

function emsFile(name: string, event: Record<string, unknown>): string {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify({ formatVersion: 1, event, classes: CLASSES.map((c) => ({ name: c })) }));
  return path;
}

interface LinkJson {
  ok: boolean;
  status: string;
  event: { code?: string; chosen?: { id: number }; candidates: Array<{ id: number }> };
}

function serviceArgs(sim: Simulator): string[] {
  return ['--base-url', sim.info.baseUrl, '--viewer-url', sim.info.viewerUrl, '--api-key', sim.info.apiKey];
}

describe('link refuses the like-named race of another region the same day', () => {
  let sim: Simulator;
  beforeAll(async () => {
    // Only the Sud-Est league's race is on the service: the Nord-Est one has not been entered yet.
    sim = await startSimulator({
      port: 0,
      dataset: makeDataset([race(2101, 'Ranking Sud-Est 2025 - Moyenne distance', 'Ligue Sud-Est', 8)]),
    });
  });
  afterAll(() => sim.close());

  it('links nothing, names the region as the reason, offers no --event-id and exits 1', async () => {
    const file = emsFile('nord-est.json', {
      name: 'Ranking Nord-Est 2025 - Moyenne distance',
      start: '2025-05-18',
      organisers: ['Ligue Nord-Est'],
      country: 'FRA',
    });
    const [human, json] = await Promise.all([
      runBin(['link', file, ...serviceArgs(sim)], env),
      runBin(['link', file, ...serviceArgs(sim), '--json'], env),
    ]);
    expect(human.code, human.stderr).toBe(1);
    expect(human.stdout).toMatch(/^No service event matches the export: /m);
    expect(human.stdout).toContain('another region');
    expect(human.stdout).not.toMatch(/for example --event-id/);
    expect(json.code).toBe(1);
    const body = JSON.parse(json.stdout) as LinkJson;
    // Not "unsure" with the other region's race as the one candidate: the veto says it is another event.
    expect(body).toMatchObject({ ok: false, status: 'not_found', event: { code: 'none_plausible', candidates: [] } });
    expect(body.event.chosen).toBeUndefined();
  });

  it("links the export's own region when both leagues' races are on the service", async () => {
    const both = await startSimulator({
      port: 0,
      dataset: makeDataset([
        race(2201, 'Ranking Sud-Est 2025 - Moyenne distance', 'Ligue Sud-Est', 8),
        race(2202, 'Ranking Nord-Est 2025 - Moyenne distance', 'Ligue Nord-Est', 9),
      ]),
    });
    try {
      const file = emsFile('nord-est-both.json', {
        name: 'Ranking Nord-Est 2025 - Moyenne distance',
        start: '2025-05-18',
        organisers: ['Ligue Nord-Est'],
        country: 'FRA',
      });
      const r = await runBin(['link', file, ...serviceArgs(both), '--json'], env);
      expect(r.code, r.stderr).toBe(0);
      const body = JSON.parse(r.stdout) as LinkJson;
      expect(body).toMatchObject({ ok: true, status: 'linked', event: { chosen: { id: 2202 } } });
    } finally {
      await both.close();
    }
  });
});

describe('link reports an event entered twice as ambiguous', () => {
  let sim: Simulator;
  beforeAll(async () => {
    // The club entered its sprint twice, once with the definite form; another club's race that day beside them.
    sim = await startSimulator({
      port: 0,
      dataset: makeDataset([
        race(2301, 'Vårsprint 2025', 'OK Ravinen', 8),
        race(2302, 'Vårsprinten 2025', 'OK Ravinen', 8),
        race(2303, 'Skogsmedel 2025', 'IFK Lidingö', 9),
      ]),
    });
  });
  afterAll(() => sim.close());

  it('lists both entries as candidates, links neither, and --event-id settles it', async () => {
    const file = emsFile('twice.json', {
      name: 'Vårsprinten 2025',
      start: '2025-05-18',
      organisers: ['OK Ravinen'],
      country: 'FRA',
    });
    const [human, json] = await Promise.all([
      runBin(['link', file, ...serviceArgs(sim)], env),
      runBin(['link', file, ...serviceArgs(sim), '--json'], env),
    ]);
    expect(human.code).toBe(1);
    expect(human.stdout).toContain('The event is ambiguous');
    expect(human.stdout).toMatch(/2301\s+2025-05-18\s+FRA\s+Vårsprint 2025/);
    expect(human.stdout).toMatch(/2302\s+2025-05-18\s+FRA\s+Vårsprinten 2025/);
    expect(human.stdout).not.toMatch(/2303/);
    const body = JSON.parse(json.stdout) as LinkJson;
    expect(body).toMatchObject({ ok: false, status: 'ambiguous', event: { code: 'ambiguous' } });
    expect(body.event.chosen).toBeUndefined();
    expect(body.event.candidates.map((c) => c.id).sort()).toEqual([2301, 2302]);
    const chosen = await runBin(['link', file, ...serviceArgs(sim), '--event-id', '2301', '--json'], env);
    expect(chosen.code, chosen.stderr).toBe(0);
    expect(JSON.parse(chosen.stdout)).toMatchObject({ ok: true, event: { chosen: { id: 2301 } } });
  });
});
