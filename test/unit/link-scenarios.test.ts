/**
 * The link scenarios of fixtures/link/scenarios.json (real exports and real calendars, the service side as the
 * federations hold their events, with decoys: neighbouring regions the same day, a club's two events, duplicates, next
 * year's edition) through the matching of src/: never a wrong event, never a wrong class. `npm run bench link` prints
 * the same run as a confusion table.
 */
import { describe, expect, it } from 'vitest';
import { confusionTable, readScenarios, runScenarios } from '../../bench/link-scenarios.mjs';
import { iofEmsSource } from '../../src/ems/iof-source.js';
import { isRelayEvent, matchClasses } from '../../src/match/classes.js';
import { chooseEvent, scoreEvents } from '../../src/match/event.js';
import { realdataPath } from '../helpers/files.js';

const scenarios = readScenarios();
const matching = {
  readFile: (path: string) => iofEmsSource(realdataPath(path)).read(),
  scoreEvents,
  chooseEvent,
  matchClasses,
  isRelayEvent,
};

describe('link scenarios', () => {
  it('links no wrong event and maps no wrong class over every scenario', async () => {
    const run = await runScenarios(scenarios, matching);
    const table = confusionTable(run);
    expect(run.totals.wrong, table).toBe(0);
    expect(run.totals.classes.wrong, table).toBe(0);
  });

  for (const s of scenarios) {
    const want = s.expect.event === null ? 'links nothing' : `links event ${s.expect.event}`;
    it(`${want}: ${s.id} (${s.why})`, async () => {
      const { rows } = await runScenarios([s], matching);
      const row = rows[0]!;
      expect(row.event, row.reason).toBe(s.expect.event === null ? 'refused' : 'right');
      if (s.expect.status === 'ambiguous') expect(row.ambiguous, row.reason).toBe(true);
      expect(row.classes.wrong, row.classes.wrongNames.join(', ')).toBe(0);
    });
  }
});
