/**
 * The schema lookup every caller shares: the caller's path, then IOF_XSD (read when the lookup runs), then schemas/ in
 * the package root, then the user's cache ($XDG_CACHE_HOME, else the platform's cache directory). Each step is shown
 * on its own, in folders made here: the checkout's own schemas/ is never the answer unless a test asks for it.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import {
  findIofSchema,
  iofDtdPath,
  iofSchemaCacheDir,
  iofSchemaPath,
  type IofSchemaLookupOptions,
} from '../../src/iof/schema-path.js';
import { validate } from '../../src/iof/validate/validate.js';
import { iofExample, iofGrammarPath } from '../helpers/files.js';

let dir: string;
/** A package root with no schemas/, a home with no cache: the lookup finds nothing unless a test puts a file there. */
let bare: IofSchemaLookupOptions;

function file(path: string, text = 'x'): string {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
  return path;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lb-schema-lookup-'));
  bare = { env: {}, packageRoot: join(dir, 'pkg'), homedir: join(dir, 'home'), platform: 'linux' };
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the schema lookup, step by step', () => {
  it('uses the path the caller gives first, whatever else is there', () => {
    const own = file(join(dir, 'own', 'IOF.xsd'));
    file(join(dir, 'env', 'IOF.xsd'));
    const lookup = findIofSchema({ ...bare, path: own, env: { IOF_XSD: join(dir, 'env', 'IOF.xsd') } });
    expect(lookup).toMatchObject({ kind: 'xsd', path: own, source: 'option' });
    expect(lookup.steps.map((s) => [s.source, s.status])).toEqual([
      ['option', 'used'],
      ['environment', 'skipped'],
      ['package', 'skipped'],
      ['cache', 'skipped'],
    ]);
    expect(lookup.steps[1]).toMatchObject({ variable: 'IOF_XSD', detail: 'the option step gave the file' });
  });

  it('reads IOF_XSD from the environment given when it runs, not when the module loaded', () => {
    const env: Record<string, string> = {};
    expect(findIofSchema({ ...bare, env }).path).toBeUndefined();
    env.IOF_XSD = file(join(dir, 'later', 'IOF.xsd'));
    expect(findIofSchema({ ...bare, env })).toMatchObject({ path: env.IOF_XSD, source: 'environment' });
    // An empty value is how shells unset a variable.
    expect(findIofSchema({ ...bare, env: { IOF_XSD: '' } }).steps[1]).toMatchObject({ status: 'unset' });
  });

  it('reads the process environment when the caller gives none (the one documented default)', () => {
    const before = process.env.IOF_XSD;
    process.env.IOF_XSD = file(join(dir, 'process', 'IOF.xsd'));
    try {
      const { env: _env, ...noEnv } = bare;
      expect(findIofSchema(noEnv)).toMatchObject({ source: 'environment', path: process.env.IOF_XSD });
    } finally {
      if (before === undefined) delete process.env.IOF_XSD;
      else process.env.IOF_XSD = before;
    }
  });

  it('finds schemas/IOF.xsd in the package root, and this checkout when no root is given', () => {
    const root = join(dir, 'checkout');
    const placed = file(join(root, 'schemas', 'IOF.xsd'));
    expect(findIofSchema({ ...bare, packageRoot: root })).toMatchObject({ path: placed, source: 'package' });
    expect(iofSchemaPath({ env: {} })).toBe(fileURLToPath(new URL('../../schemas/IOF.xsd', import.meta.url)));
  });

  it('finds the cached copy under $XDG_CACHE_HOME/livelox-bridge', () => {
    const xdg = join(dir, 'xdg');
    const cached = file(join(xdg, 'livelox-bridge', 'IOF.xsd'));
    const lookup = findIofSchema({ ...bare, env: { XDG_CACHE_HOME: xdg } });
    expect(lookup).toMatchObject({ path: cached, source: 'cache', cachePath: cached });
    expect(lookup.steps[3]).toMatchObject({ status: 'used', variable: 'XDG_CACHE_HOME' });
    // The XDG specification: a relative XDG_CACHE_HOME is ignored.
    expect(iofSchemaCacheDir({ ...bare, env: { XDG_CACHE_HOME: 'relative/cache' } })).toBe(
      join(dir, 'home', '.cache', 'livelox-bridge'),
    );
  });

  it("falls back to the platform's cache directory: ~/.cache, ~/Library/Caches, %LOCALAPPDATA%", () => {
    const home = join(dir, 'home');
    expect(iofSchemaCacheDir({ ...bare, platform: 'linux' })).toBe(join(home, '.cache', 'livelox-bridge'));
    expect(iofSchemaCacheDir({ ...bare, platform: 'darwin' })).toBe(join(home, 'Library', 'Caches', 'livelox-bridge'));
    expect(iofSchemaCacheDir({ ...bare, platform: 'win32', env: { LOCALAPPDATA: join(dir, 'local') } })).toBe(
      join(dir, 'local', 'livelox-bridge'),
    );
    expect(iofSchemaCacheDir({ ...bare, platform: 'win32' })).toBe(join(home, 'AppData', 'Local', 'livelox-bridge'));
    const cached = file(join(home, '.cache', 'livelox-bridge', 'IOF.xsd'));
    try {
      expect(findIofSchema(bare)).toMatchObject({ path: cached, source: 'cache' });
    } finally {
      rmSync(cached);
    }
  });

  it('does not replace a path named on purpose that is not there with another copy', () => {
    const root = join(dir, 'with-schema');
    file(join(root, 'schemas', 'IOF.xsd'));
    const lookup = findIofSchema({ ...bare, packageRoot: root, env: { IOF_XSD: join(dir, 'typo.xsd') } });
    expect(lookup.path).toBeUndefined();
    expect(lookup.steps.map((s) => s.status)).toEqual(['unset', 'missing', 'skipped', 'skipped']);
    const error = (() => {
      try {
        iofSchemaPath({ ...bare, packageRoot: root, env: { IOF_XSD: join(dir, 'typo.xsd') } });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(InputError);
    expect(error).toMatchObject({
      reason: 'schema_missing',
      source: join(dir, 'typo.xsd'),
      hint: { code: 'schema', values: ['xsd', 'environment'] },
    });
  });

  it('says where it looked and the three ways out when no step finds IOF.xsd', () => {
    expect(() => iofSchemaPath(bare)).toThrow(
      expect.objectContaining({
        reason: 'schema_missing',
        hint: expect.objectContaining({ code: 'schema', values: ['xsd'] }),
        message: expect.stringMatching(
          /looked at .*pkg.schemas.IOF\.xsd, .*home.\.cache.livelox-bridge.IOF\.xsd.*schemaPath option.*IOF_XSD.*fetchIofSchema/,
        ),
      }),
    );
  });

  it('looks for the 2.0.3 DTD the same way, and is content without one unless one was named', () => {
    expect(iofDtdPath(bare)).toBeUndefined();
    const dtd = file(join(dir, 'xdg2', 'livelox-bridge', 'IOFdata-2.0.3.dtd'));
    expect(iofDtdPath({ ...bare, env: { XDG_CACHE_HOME: join(dir, 'xdg2') } })).toBe(dtd);
    expect(iofDtdPath({ ...bare, env: { IOF_DTD: dtd } })).toBe(dtd);
    expect(() => iofDtdPath({ ...bare, env: { IOF_DTD: join(dir, 'no.dtd') } })).toThrow(/IOF_DTD/);
    expect(() => iofDtdPath({ ...bare, path: join(dir, 'no.dtd') })).toThrow(
      expect.objectContaining({ reason: 'schema_missing' }),
    );
  });

  it('is what the validator uses: IOF_XSD in the env option is honoured, a folder is not a schema', async () => {
    const env = { IOF_XSD: iofGrammarPath('IOF.xsd') };
    const result = await validate(iofExample('CourseData_Individual_Step2.xml'), { env });
    expect(result).toMatchObject({ valid: true, checked: 'xsd' });
    // IOF_XSD comes before the checkout's schemas/: one that names nothing is reported, not replaced.
    await expect(
      validate(iofExample('CourseData_Individual_Step2.xml'), { env: { IOF_XSD: join(dir, 'none.xsd') } }),
    ).rejects.toMatchObject({ reason: 'schema_missing', hint: { values: ['xsd', 'environment'] } });
    const folder = join(dir, 'folder.xsd');
    mkdirSync(folder);
    await expect(validate(iofExample('CourseData_Individual_Step2.xml'), { schemaPath: folder })).rejects.toThrow(
      /not a regular file/,
    );
  });
});
