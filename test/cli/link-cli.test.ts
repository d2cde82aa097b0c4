/**
 * `livelox-bridge link` as the built bin: the README's main command (the shipped export against the embedded
 * simulator), the renderings a portal embeds, the ambiguous case and bad input.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/simulator/server.js';
import { makeDataset, makeEvent } from '../helpers/dataset.js';
import { runBin } from '../helpers/cli.js';

const EXPORT = 'fixtures/ems/stockholm-2-days-stage2.StartList.xml';
const env = { PATH: process.env.PATH ?? '', NO_COLOR: '1' };
const dir = mkdtempSync(join(tmpdir(), 'lb-link-cli-'));

/** The addresses and key of a simulator this test started, as flags. */
function serviceArgs(sim: Simulator): string[] {
  return ['--base-url', sim.info.baseUrl, '--viewer-url', sim.info.viewerUrl, '--api-key', sim.info.apiKey];
}

describe('link against the embedded simulator (the README command)', () => {
  it('prints the event and a viewer link for every class, and exits 0', async () => {
    const r = await runBin(['link', EXPORT, '--simulator'], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Event\s+104002 Stockholms 2-dagars, etapp 2 \(2022-11-20, SWE\)/);
    expect(r.stdout).toMatch(
      /^Men 21 Elite\s+H21E\s+normalised\s+http:\/\/127\.0\.0\.1:\d+\/viewer\/Viewer\/.*classId=\d+$/m,
    );
    expect(r.stdout).toMatch(/^Open 1\s+Öppen 1\s/m);
    expect(r.stdout).toContain('52 classes linked; 2 requests to the service.');
    expect(r.stderr).toContain('Finding the event');
  });

  it('gives the whole result as JSON with --json, and nothing else on stdout', async () => {
    const r = await runBin(['link', EXPORT, '--simulator', '--json'], env);
    expect(r.code).toBe(0);
    const body = JSON.parse(r.stdout) as {
      ok: boolean;
      status: string;
      links: unknown[];
      event: { chosen: { id: number } };
    };
    expect(body).toMatchObject({ ok: true, status: 'linked', event: { chosen: { id: 104002 } } });
    expect(body.links).toHaveLength(52);
    expect(r.stderr).toBe('');
  });

  it('writes an HTML fragment for portals with --format html --out, replacing the file whole', async () => {
    const out = join(dir, 'links.html');
    writeFileSync(out, 'old');
    const r = await runBin(['link', EXPORT, '--simulator', '--format', 'html', '--out', out], env);
    expect(r.code, r.stderr).toBe(0);
    const html = readFileSync(out, 'utf8');
    expect(html.startsWith('<div class="livelox-links" lang="en" data-status="linked">')).toBe(true);
    expect(html.match(/rel="noopener"/g)).toHaveLength(52);
    // Named by the export's class, the service's name as the title where it differs.
    expect(html).toMatch(/<a href="[^"]+" rel="noopener" title="H21E">Men 21 Elite<\/a>/);
    expect(html).toMatch(/<p class="livelox-updated">Updated <time datetime="\d{4}-\d\d-\d\dT[\d:.]+Z">/);
    const sv = await runBin(['link', EXPORT, '--simulator', '--format', 'html', '--lang', 'sv'], env);
    expect(sv.stdout.startsWith('<div class="livelox-links" lang="sv"')).toBe(true);
    const wrong = await runBin(['link', EXPORT, '--simulator', '--format', 'html', '--lang', 'x y'], env);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('--lang');
    expect(r.stderr).toContain(`Wrote 52 links to ${out}`);
  });

  it('prints CSV and Markdown on stdout', async () => {
    const csv = await runBin(['link', EXPORT, '--simulator', '--format', 'csv'], env);
    expect(csv.stdout.split('\r\n')[0]).toBe('ems_class,service_class,class_id,url');
    expect(csv.stdout.split('\r\n')).toHaveLength(53);
    const md = await runBin(['link', EXPORT, '--simulator', '--format', 'md'], env);
    expect(md.stdout.split('\n')[0]).toBe('| Class | Livelox |');
    expect(md.stdout).toMatch(/^\| W21 Short \| \[D21 Kort\]\(http:/m);
  });

  it("prefers the service's class urls, and builds every link from --template with --always-template", async () => {
    const template = ['--template', 'https://portal.example/c/{classId}?e={eventId}&n={className}'];
    const served = JSON.parse((await runBin(['link', EXPORT, '--simulator', '--json', ...template], env)).stdout) as {
      links: Array<{ urlFrom: string; url: string }>;
    };
    expect(served.links.every((l) => l.urlFrom === 'service')).toBe(true);
    const r = await runBin(['link', EXPORT, '--simulator', '--json', '--always-template', ...template], env);
    const built = JSON.parse(r.stdout) as {
      links: Array<{ urlFrom: string; url: string; serviceClass: { id: number; name: string } }>;
    };
    expect(built.links).toHaveLength(52);
    for (const l of built.links) {
      expect(l.urlFrom).toBe('template');
      expect(l.url).toBe(
        `https://portal.example/c/${l.serviceClass.id}?e=104002&n=${encodeURIComponent(l.serviceClass.name)}`,
      );
    }
  });
});

describe('link against a running simulator', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator({
      port: 0,
      dataset: makeDataset(
        [1, 2].map((n) =>
          makeEvent({
            id: 900 + n,
            name: 'Nordic Sprint Cup',
            start: '2025-06-07T09:00:00Z',
            end: '2025-06-07T12:00:00Z',
            countryCode: n === 1 ? 'SWE' : 'NOR',
          }),
        ),
      ),
    });
  });
  afterAll(() => sim.close());
  const service = () => serviceArgs(sim);

  function emsFile(name: string, event: Record<string, unknown>): string {
    const path = join(dir, name);
    writeFileSync(path, JSON.stringify({ formatVersion: 1, event, classes: [{ name: 'M21' }, { name: 'W21' }] }));
    return path;
  }

  it('lists the candidates and exits 1 when the event is ambiguous, suggesting --event-id', async () => {
    const file = emsFile('cup.json', { name: 'Nordic Sprint Cup', start: '2025-06-07' });
    const r = await runBin(['link', file, ...service()], env);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('The event is ambiguous');
    expect(r.stdout).toMatch(/901\s+2025-06-07\s+SWE\s+Nordic Sprint Cup/);
    expect(r.stdout).toMatch(/902\s+2025-06-07\s+NOR\s+Nordic Sprint Cup/);
    expect(r.stdout).toContain('Choose one with --event-id N');
    // A portal's HTML says there are no links yet (the candidates go to stderr), never an empty table.
    const html = await runBin(['link', file, ...service(), '--format', 'html'], env);
    expect(html.code).toBe(1);
    expect(html.stdout).toMatch(
      /^<div class="livelox-links livelox-empty" lang="en" data-status="ambiguous">\n<p class="livelox-none">No links yet\.<\/p>/,
    );
    expect(html.stdout).not.toMatch(/<table|<ul|<a /);
    expect(html.stderr).toContain('The event is ambiguous');
    // The sentence is the portal's to choose, as sync's --no-links-text.
    const sv = await runBin(
      ['link', file, ...service(), '--format', 'html', '--lang', 'sv', '--no-links-text', 'Inga länkar än.'],
      env,
    );
    expect(sv.stdout).toMatch(
      /^<div class="livelox-links livelox-empty" lang="sv" data-status="ambiguous">\n<p class="livelox-none">Inga länkar än\.<\/p>/,
    );
    const blank = await runBin(['link', file, ...service(), '--format', 'html', '--no-links-text', ' '], env);
    expect(blank.code).toBe(2);
    expect(blank.stderr).toContain('--no-links-text');
    const notHtml = await runBin(['link', file, ...service(), '--no-links-text', 'Nothing.'], env);
    expect(notHtml.code).toBe(2);
    expect(notHtml.stderr).toContain('--no-links-text is about --format html');
    const chosen = await runBin(['link', file, ...service(), '--event-id', '902', '--format', 'csv'], env);
    expect(chosen.code).toBe(0);
    expect(chosen.stdout).toContain('"M21","H21"');
  });

  it('links with --country, and with --strict exits 1 when a class of the export has no service class', async () => {
    const path = join(dir, 'strict.json');
    writeFileSync(
      path,
      JSON.stringify({
        formatVersion: 1,
        event: { name: 'Nordic Sprint Cup', start: '2025-06-07' },
        classes: [{ name: 'M21' }, { name: 'Inskolning' }],
      }),
    );
    const loose = await runBin(['link', path, ...service(), '--country', 'NO'], env);
    expect(loose.code).toBe(0);
    expect(loose.stdout).toMatch(/1 class of the export without a service class:\n {2}Inskolning: /);
    const strict = await runBin(['link', path, ...service(), '--country', 'NO', '--strict'], env);
    expect(strict.code).toBe(1);
  });

  it('answers --json failures with ok false and the candidates', async () => {
    const file = emsFile('cup2.json', { name: 'Nordic Sprint Cup', start: '2025-06-07' });
    const r = await runBin(['link', file, ...service(), '--json'], env);
    expect(r.code).toBe(1);
    const body = JSON.parse(r.stdout) as { ok: boolean; status: string; event: { candidates: unknown[] } };
    expect(body).toMatchObject({ ok: false, status: 'ambiguous' });
    expect(body.event.candidates).toHaveLength(2);
  });
});

describe('link when the event is known or not there', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator({
      port: 0,
      dataset: makeDataset([
        makeEvent({
          id: 950,
          name: 'Midsummer Middle',
          start: '2025-06-21T09:00:00Z',
          end: '2025-06-21T14:00:00Z',
          countryCode: 'SWE',
        }),
      ]),
    });
  });
  afterAll(() => sim.close());
  const service = () => serviceArgs(sim);
  const classNames = () => sim.state.dataset.events[0]!.classes.map((c) => c.name);

  it('--event-id N without an export prints the link of every class of the event', async () => {
    const [human, json] = await Promise.all([
      runBin(['link', '--event-id', '950', ...service()], env),
      runBin(['link', '--event-id', '950', ...service(), '--json'], env),
    ]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/^Event\s+950 Midsummer Middle \(2025-06-21, SWE\)$/m);
    for (const name of classNames()) expect(human.stdout).toMatch(new RegExp(`^${name}\\s+http`, 'm'));
    const body = JSON.parse(json.stdout) as { ok: boolean; links: Array<{ serviceClass: { name: string } }> };
    expect(body.ok).toBe(true);
    expect(body.links.map((l) => l.serviceClass.name)).toEqual(classNames());
    const unknown = await runBin(['link', '--event-id', '951', ...service()], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/951/);
  });

  it('--event-id with an export of another day links but warns with both dates', async () => {
    const path = join(dir, 'other-day.json');
    writeFileSync(
      path,
      JSON.stringify({
        formatVersion: 1,
        event: { name: 'Midsummer Middle', start: '2025-06-28' },
        classes: [{ name: 'H21' }],
      }),
    );
    const r = await runBin(['link', path, '--event-id', '950', ...service(), '--format', 'csv'], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/Warning: the export is dated 2025-06-28, but event 950 .*is on 2025-06-21/);
  });

  it('says nothing matched and why, without suggesting an unrelated event', async () => {
    const path = join(dir, 'elsewhere.json');
    writeFileSync(
      path,
      JSON.stringify({
        formatVersion: 1,
        event: { name: 'Vårsprinten', start: '2025-06-21', country: 'NOR' },
        classes: [{ name: 'H21' }, { name: 'D21' }],
      }),
    );
    const [other, empty] = await Promise.all([
      runBin(['link', path, ...service()], env),
      runBin(['link', emsFile('empty-day.json', { name: 'Midsummer Middle', start: '2025-03-01' }), ...service()], env),
    ]);
    for (const r of [other, empty]) {
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(/^No service event matches the export: /m);
      expect(r.stdout).not.toMatch(/for example --event-id/);
      expect(r.stdout).not.toMatch(/\b950\b/);
    }
    expect(empty.stdout).toMatch(/no event on the export's days/);
  });

  function emsFile(name: string, event: Record<string, unknown>): string {
    const path = join(dir, name);
    writeFileSync(path, JSON.stringify({ formatVersion: 1, event, classes: [{ name: 'H21' }] }));
    return path;
  }
});

describe('link with bad input', () => {
  it('names a missing export and says what to give (exit 1)', async () => {
    const r = await runBin(['link', join(dir, 'missing.xml'), '--simulator'], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/missing\.xml: cannot read the file: it does not exist\..*IOF XML export/);
  });

  it('refuses an unknown format, a bad race and a missing file argument as usage errors (exit 2)', async () => {
    for (const args of [['link', EXPORT, '--format', 'pdf'], ['link', EXPORT, '--race', 'two'], ['link']]) {
      const r = await runBin(args, env);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toContain('See livelox-bridge link --help.');
    }
    // A race the export does not have is a wrong command line too, as in check-courses.
    const race = await runBin(['link', EXPORT, '--race', '9', '--simulator'], env);
    expect(race.code).toBe(2);
    expect(race.stderr).toMatch(/race 9 was asked for, but the file describes no races/);
    const json = await runBin(['link', EXPORT, '--json', '--format', 'csv'], env);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, error: { code: 'usage' } });
  });

  it('reports every problem of a bad EMS JSON file with its path', async () => {
    const path = join(dir, 'bad.json');
    writeFileSync(path, JSON.stringify({ formatVersion: 1, event: { name: 'E', start: 'soon' }, classes: [{}] }));
    const r = await runBin(['link', path, '--simulator'], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('event.start');
    expect(r.stderr).toContain('classes[0].name');
  });

  it('prints names from the export without their terminal escapes, in the report and the progress lines', async () => {
    const path = join(dir, 'escapes.json');
    writeFileSync(
      path,
      JSON.stringify({
        formatVersion: 1,
        event: { name: 'Stockholms 2-dagars \u001b[2J\u001b]0;pwned\u0007', start: '2022-11-20', country: 'SWE' },
        classes: [{ name: 'M21' }, { name: 'Evil\u001b[31mRED\nFAKE: all good' }],
      }),
    );
    const r = await runBin(['link', path, '--simulator'], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout + r.stderr).not.toContain('\u001b');
    expect(r.stdout + r.stderr).not.toContain('\u0007');
    expect(r.stdout).not.toMatch(/^FAKE/m);
    expect(r.stdout).toMatch(/1 class of the export without a service class:\n {2}Evil \[31mRED FAKE: all good: /);
  });

  it('refuses a link template naming no class', async () => {
    const r = await runBin(['link', EXPORT, '--simulator', '--template', 'https://x.example/'], env);
    // A usage mistake like any other bad option value (exit 2), named by its option.
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--template: .*names no class/);
  });
});
