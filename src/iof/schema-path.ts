/**
 * Where the IOF XML 3.0 schema lives. The install step copies it to `schemas/IOF.xsd` in the package root (it is the
 * IOF's file and never committed), so the path is found from this module's own location: `src/iof/` under vitest,
 * `dist/iof/` after `tsc`, or inside `node_modules/livelox-bridge/` for users.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InputError, type Hint } from '../errors.js';

const PACKAGE_NAME = 'livelox-bridge';

/**
 * What to do when IOF.xsd is missing or unusable: the install step places it (`scripts/install-schema.mjs`, which
 * copies the file `IOF_XSD` names when that is set), or the caller points at a copy.
 */
export const SCHEMA_HINT: Hint = {
  code: 'schema',
  text:
    'Install livelox-bridge again (installing it places schemas/IOF.xsd, copied from the file IOF_XSD names when ' +
    'that is set), or give the path of a copy of IOF.xsd (the schemaPath option).',
};

/** The package root: the nearest directory above this module whose package.json is ours. */
function packageRoot(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  let dir = here;
  for (let i = 0; i < 6; i++) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        const parsed = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown };
        if (parsed.name === PACKAGE_NAME) return dir;
      } catch {
        // An unreadable package.json on the way up is not ours; keep looking.
      }
    }
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  // Both src/iof and dist/iof sit two levels below the root.
  return resolve(here, '..', '..');
}

/**
 * Absolute path of IOF.xsd: `override` when given (a caller's own copy), else `schemas/IOF.xsd` in the
 * package root. Throws `InputError` with reason `schema_missing` when the file is not there.
 */
export function iofSchemaPath(override?: string): string {
  const path = override === undefined ? join(packageRoot(), 'schemas', 'IOF.xsd') : resolve(override);
  if (!existsSync(path)) {
    throw new InputError(path, 'schema_missing', 'the IOF XML 3.0 schema (IOF.xsd) is not there.', {
      hint:
        override === undefined
          ? SCHEMA_HINT
          : {
              code: 'schema',
              text:
                'Check the path given for IOF.xsd (the schemaPath option); without one, the schemas/IOF.xsd that ' +
                'installing livelox-bridge places (from the file IOF_XSD names, when set) is used.',
            },
    });
  }
  return path;
}

/**
 * Absolute path of the IOF 2.0.3 DTD that IOF 2.0.3 documents are checked against: `override` when given (an error,
 * `schema_missing`, when it is not there), else `schemas/IOFdata-2.0.3.dtd` in the package root when it is there, else
 * `undefined` (2.0.3 documents are then reported as not checked). Like IOF.xsd it is the IOF's file, not committed.
 */
export function iofDtdPath(override?: string): string | undefined {
  if (override !== undefined) {
    const path = resolve(override);
    if (!existsSync(path)) {
      throw new InputError(path, 'schema_missing', 'the IOF 2.0.3 DTD (IOFdata-2.0.3.dtd) is not there.', {
        hint: 'Check the path given for the DTD (the dtdPath option).',
      });
    }
    return path;
  }
  const path = join(packageRoot(), 'schemas', 'IOFdata-2.0.3.dtd');
  return existsSync(path) ? path : undefined;
}
