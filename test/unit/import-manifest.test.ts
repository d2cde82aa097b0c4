/**
 * Import manifests as timing companies write them: files relative to the manifest's folder, a class id that must be a
 * whole number as written (`1e3` and `12.5` are refused, and `"12"` in JSON), CSV headers in any case, and columns the
 * manifest does not have refusing the manifest whole (a misspelt `firstname` column would otherwise import every
 * route without it). A refused row holds its file back, also when a folder holds it.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeGpx } from '../../src/gps/write.js';
import { expandRouteInputs } from '../../src/jobs/import-routes/inputs.js';
import { readManifest } from '../../src/jobs/import-routes/manifest.js';

const dir = mkdtempSync(join(tmpdir(), 'lb-manifest-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
function manifest(name: string, text: string): string {
  const folder = join(dir, `m${++n}`);
  mkdirSync(folder, { recursive: true });
  const path = join(folder, name);
  writeFileSync(path, text);
  return path;
}

async function rows(path: string) {
  const m = await readManifest(path);
  if (!m.ok) throw new Error(`refused: ${m.problem.message}`);
  return m;
}

describe('import manifest', () => {
  it('resolves files against its own folder', async () => {
    const path = manifest('runners.csv', 'file;classId\nh21/anna.gpx;12\n/abs/bo.gpx;\n');
    const m = await rows(path);
    expect(m.rows.map((r) => r.file)).toEqual([join(dir, `m${n}`, 'h21', 'anna.gpx'), '/abs/bo.gpx']);
    expect(m.rows[0]!.fields).toEqual({ classId: 12 });
  });

  it('takes a CSV class id written in digits only', async () => {
    const path = manifest('c.csv', 'file,classId\na.gpx, 12 \nb.gpx,1e3\nc.gpx,12.5\nd.gpx,+12\ne.gpx,0\nf.gpx,\n');
    const m = await rows(path);
    expect(m.rows.map((r) => [r.file.slice(-5), r.fields.classId])).toEqual([
      ['a.gpx', 12],
      ['f.gpx', undefined],
    ]);
    expect(m.problems.map((p) => p.message.slice(path.length + 1))).toEqual([
      'row 3, column classId: must be a whole number of 1 or more, written in digits.',
      'row 4, column classId: must be a whole number of 1 or more, written in digits.',
      'row 5, column classId: must be a whole number of 1 or more, written in digits.',
      'row 6, column classId: must be a whole number of 1 or more.',
    ]);
  });

  it('takes a JSON class id only as a number written whole: 1e3, 12.5 and "12" are refused', async () => {
    const path = manifest(
      'j.json',
      '[{"file":"a.gpx","classId":12},{"file":"b.gpx","classId":1e3},{"file":"c.gpx","classId":12.5},' +
        '{"file":"d.gpx","classId":"12"},{"file":"e.gpx","id":1.5E2},{"file":"f.gpx","id":7,"deviceModel":"x 1e3"}]',
    );
    const m = await rows(path);
    expect(m.rows.map((r) => [r.file.slice(-5), r.fields])).toEqual([
      ['a.gpx', { classId: 12 }],
      ['f.gpx', { id: '7', deviceModel: 'x 1e3' }],
    ]);
    expect(m.problems.map((p) => p.message.slice(path.length + 1))).toEqual([
      '[1], column classId: a number here is a whole number written in digits, got 1e3.',
      '[2], column classId: a number here is a whole number written in digits, got 12.5.',
      '[3], column classId: expected a number, got a string.',
      '[4], column id: a number here is a whole number written in digits, got 1.5E2.',
    ]);
  });

  it('matches CSV columns without regard to case and leaves out empty trailing ones', async () => {
    const path = manifest(
      'case.csv',
      'File;ClassID;FIRSTNAME;lastname;DeviceModel;ID;;\nx.gpx;5;Anna;Berg;Fenix;tc-1;;\n',
    );
    const m = await rows(path);
    expect(m.rows[0]!.fields).toEqual({
      classId: 5,
      person: { firstName: 'Anna', lastName: 'Berg' },
      deviceModel: 'Fenix',
      id: 'tc-1',
    });
  });

  it('refuses a CSV manifest whole for a column it does not have, naming it and the columns it has', async () => {
    const path = manifest('typo.csv', 'file;classId;first_name;club\na.gpx;5;Anna;OK Linné\n');
    const m = await readManifest(path);
    expect(m).toEqual({
      ok: false,
      problem: {
        path,
        code: 'manifest',
        message: `${path}: columns 'first_name', 'club' are not manifest columns; its columns are file, classId, firstName, lastName, deviceModel, id. Remove or rename them.`,
      },
    });
    const twice = await readManifest(manifest('twice.csv', 'file,file\na.gpx,b.gpx\n'));
    expect(twice.ok || twice.problem.message).toMatch(/'file \(a second time\)' is not a manifest column/);
    const fileless = await readManifest(manifest('nofile.csv', 'classId\n5\n'));
    expect(fileless.ok || fileless.problem.message).toMatch(/no 'file' column/);
  });

  it('holds back the file of a refused row, also when a folder holds it, and imports the rest', async () => {
    const folder = join(dir, 'held');
    mkdirSync(join(folder, 'runs'), { recursive: true });
    const gpx = writeGpx([{ time: 0, lat: 59, lng: 18 }]);
    for (const f of ['a.gpx', 'b.gpx', 'c.gpx']) writeFileSync(join(folder, 'runs', f), gpx);
    writeFileSync(join(folder, 'runners.csv'), 'file,classId\nruns/a.gpx,1e3\nruns/b.gpx,7\n');
    const inputs = await expandRouteInputs([join(folder, 'runs')], { manifest: join(folder, 'runners.csv') });
    expect(inputs.manifestRefused).toBe(false);
    expect(inputs.routes.map((r) => [r.file.slice(folder.length + 1), r.classId])).toEqual([
      ['runs/b.gpx', 7],
      ['runs/c.gpx', undefined],
    ]);
    expect(inputs.skipped).toContainEqual({
      path: join(folder, 'runs', 'a.gpx'),
      reason: `its manifest row is refused (${join(folder, 'runners.csv')} row 2)`,
    });
    expect(inputs.problems).toEqual([expect.objectContaining({ code: 'manifest' })]);
  });

  it('gives no routes at all when the manifest cannot be used', async () => {
    const folder = join(dir, 'refused');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'a.gpx'), writeGpx([{ time: 0, lat: 59, lng: 18 }]));
    writeFileSync(join(folder, 'runners.json'), '[{"file": "a.gpx",]');
    const inputs = await expandRouteInputs([folder], { manifest: join(folder, 'runners.json') });
    expect(inputs).toMatchObject({ manifestRefused: true, routes: [] });
    expect(inputs.problems).toEqual([
      expect.objectContaining({ code: 'manifest', message: expect.stringMatching(/runners\.json: not JSON/) }),
    ]);
  });
});
