/**
 * `import --html FILE` as the built bin against a simulator: the page holds every route of the report with the status
 * the CSV gives it and its viewer link, failures first and counts at the top; a dry run writes no page and says so.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { escapeHtml } from '../../src/core/html.js';
import { runBin } from '../helpers/cli.js';
import { importArgs, importCliCases, writeRoutes } from '../helpers/import-cli.js';

const { env, freshSim, caseDir } = importCliCases('lb-import-html-');

describe('import --html', () => {
  it('writes the report as a page: counts first, failures first, each route with its CSV status and viewer link', async () => {
    const sim = await freshSim();
    const d = caseDir();
    const runs = join(d, 'runs');
    writeRoutes(sim, runs, 4);
    writeFileSync(join(runs, 'broken.gpx'), '<?xml version="1.0"?>\n<gpx version="1.1"><trk><trkseg>');
    const page = join(d, 'report.html');
    const csv = join(d, 'report.csv');
    const r = await runBin(
      ['import', runs, '--wait', '--html', page, '--out', csv, ...importArgs(sim, join(d, 'j.sqlite'))],
      env,
    );
    expect(r.code, r.stderr).toBe(1);
    const html = readFileSync(page, 'utf8');
    const rows = readFileSync(csv, 'utf8').trim().split('\r\n').slice(1);
    expect(rows).toHaveLength(5);
    // Each CSV row's file, status and viewer url, in the page's table, in its order: failures first.
    const fields = rows.map((row) => row.slice(1, -1).split('","'));
    const order = [...html.matchAll(/<code title="([^"]+)">[\s\S]*?data-status="(\w+)"/g)].map((m) => [m[1], m[2]]);
    expect(order[0]).toEqual([escapeHtml(join(runs, 'broken.gpx'), { named: true }), 'failed']);
    expect(order.map(([file, status]) => `${file} ${status}`).sort()).toEqual(
      fields.map((f) => `${escapeHtml(f[0]!, { named: true })} ${f[2]}`).sort(),
    );
    for (const f of fields.filter((x) => x[5] !== '')) {
      expect(html).toContain(`<a href="${escapeHtml(f[5]!, { named: true })}" rel="noopener">`);
    }
    // The counts and the report's summary line come before the table.
    expect(html.indexOf('<dl class="counts">')).toBeLessThan(html.indexOf('<table'));
    expect(html).toMatch(/<strong>1 ROUTE NEEDS A LOOK<\/strong>: 5 routes: 4 imported, 1 failed; \d+ requests/);
    expect(html).toMatch(/data-count="failed">1 <span class="flag">!<\/span>/);
    expect(html).toContain(`Files in <code>${runs}/</code>`);

    const dry = await runBin(
      ['import', runs, '--dry-run', '--html', join(d, 'dry.html'), ...importArgs(sim, join(d, 'j.sqlite'))],
      env,
    );
    expect(dry.code).toBe(1);
    expect(dry.stderr).toContain(`a dry run writes no report: ${join(d, 'dry.html')} was left as it is.`);
    expect(existsSync(join(d, 'dry.html'))).toBe(false);
  }, 60_000);
});
