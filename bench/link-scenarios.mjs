// The link scenarios (fixtures/link/scenarios.json) run through the matching, and the confusion table they give:
// events right, wrong, refused, missed; classes right, wrong, missed. One evaluator for the tests (which hand it the
// modules of src/) and `npm run bench link` (which hands it the built ones), so that both count the same way.
import { readFileSync } from 'node:fs';

/** The scenarios, as stored. */
export function readScenarios() {
  return JSON.parse(readFileSync(new URL('../fixtures/link/scenarios.json', import.meta.url), 'utf8')).scenarios;
}

/** The service side of a scenario as the matching reads it: classes numbered, organisers as objects. */
function serviceEvents(scenario) {
  let classId = 0;
  return scenario.service.map((e) => ({
    id: e.id,
    name: e.name,
    timeInterval: { start: e.start, end: e.end },
    organisers: (e.organisers ?? []).map((name) => ({ name })),
    classes: (e.classes ?? []).map((name) => ({ id: e.id * 1000 + ++classId, name })),
    ...(e.properties ? { properties: Object.entries(e.properties).map(([key, value]) => ({ key, value })) } : {}),
  }));
}

/**
 * One scenario: the event chosen and its classes mapped. `m` holds `readFile(path)` (an export of ../shared/realdata,
 * read as `{ event, classes }`), `scoreEvents`, `chooseEvent`, `matchClasses` and `isRelayEvent`.
 */
async function runOne(scenario, m) {
  const ems = scenario.export.file
    ? await m.readFile(scenario.export.file)
    : {
        event: scenario.export.event,
        classes: scenario.export.classes.map((c) => (typeof c === 'string' ? { name: c } : c)),
      };
  const events = serviceEvents(scenario);
  const scored = m.scoreEvents(ems.event, ems.classes, events);
  const choice = m.chooseEvent(scored, { emsClassCount: ems.classes.length });
  const expected = scenario.expect.event;
  const chosen = choice.status === 'matched' ? choice.best.event : undefined;
  const event =
    chosen === undefined ? (expected === null ? 'refused' : 'missed') : chosen.id === expected ? 'right' : 'wrong';
  const classes = { right: 0, wrong: 0, missed: 0, wrongNames: [], missedNames: [] };
  if (event === 'right') {
    const mapping = m.matchClasses(ems.classes, chosen.classes, {
      relayEvent: m.isRelayEvent(ems.event.name, chosen),
    });
    const mapped = new Map(mapping.matches.map((x) => [x.ems.name, x.service.name]));
    for (const c of ems.classes) {
      const want = scenario.expect.classes?.[c.name];
      const got = mapped.get(c.name);
      if (got === undefined) {
        if (want !== undefined) {
          classes.missed++;
          classes.missedNames.push(c.name);
        }
      } else if (got === want) classes.right++;
      else {
        classes.wrong++;
        classes.wrongNames.push(`${c.name} -> ${got}`);
      }
    }
  }
  const ambiguous = choice.status === 'ambiguous';
  return { id: scenario.id, event, ambiguous, chosen: chosen?.id, reason: choice.reason, classes };
}

/** Every scenario run, with the totals. */
export async function runScenarios(scenarios, m) {
  const rows = [];
  for (const s of scenarios) rows.push(await runOne(s, m));
  const totals = {
    right: 0,
    wrong: 0,
    refused: 0,
    missed: 0,
    ambiguous: 0,
    classes: { right: 0, wrong: 0, missed: 0 },
  };
  for (const r of rows) {
    totals[r.event]++;
    if (r.event === 'refused' && r.ambiguous) totals.ambiguous++;
    for (const k of ['right', 'wrong', 'missed']) totals.classes[k] += r.classes[k];
  }
  return { rows, totals };
}

/** The confusion table as text, with the scenarios that went wrong or were missed named. */
export function confusionTable({ rows, totals }) {
  const c = totals.classes;
  const found = c.right + c.wrong + c.missed === 0 ? 100 : (100 * c.right) / (c.right + c.wrong + c.missed);
  const lines = [
    `link scenarios (fixtures/link/scenarios.json), ${rows.length} exports against the service as federations hold their events:`,
    `  events   right ${totals.right}  wrong ${totals.wrong}  refused ${totals.refused} (${totals.ambiguous} of them ambiguous)  missed ${totals.missed}`,
    `  classes  right ${c.right}  wrong ${c.wrong}  missed ${c.missed}  (${found.toFixed(1)} % found)`,
  ];
  for (const r of rows) {
    if (r.event === 'wrong' || r.event === 'missed') lines.push(`  ${r.event}: ${r.id} (${r.reason})`);
    if (r.classes.wrong > 0) lines.push(`  wrong classes in ${r.id}: ${r.classes.wrongNames.join(', ')}`);
    if (r.classes.missed > 0) lines.push(`  missed classes in ${r.id}: ${r.classes.missedNames.join(', ')}`);
  }
  return lines.join('\n');
}
