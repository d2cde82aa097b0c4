/**
 * Where the IOF's grammar files are: IOF.xsd (IOF XML 3.0) and the IOF 2.0.3 DTD. They are the IOF's files, never
 * committed nor shipped, so every caller (validate, check-courses, the library's validator) finds them through this one
 * lookup, in this order:
 *
 * 1. the caller's own copy (`schemaPath` / `dtdPath`);
 * 2. the file `IOF_XSD` / `IOF_DTD` names, read when the lookup runs (not at install time);
 * 3. `schemas/` in the package root (a checkout, where the install step copies them);
 * 4. the user's cache, `$XDG_CACHE_HOME/livelox-bridge/`, else the platform's cache directory (`~/.cache` on Linux,
 *    `~/Library/Caches` on macOS, `%LOCALAPPDATA%` on Windows), where fetching the schema puts it.
 *
 * A path the caller or the environment names explicitly and that is not there is a mistake to report, not a reason to
 * quietly use another copy: the later steps are then skipped and the lookup finds nothing.
 */
import { readFileSync, statSync } from 'node:fs';
import { homedir as osHomedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ENV } from '../config.js';
import { InputError, type Hint } from '../errors.js';

const PACKAGE_NAME = 'livelox-bridge';

/** `xsd`: IOF.xsd, the IOF XML 3.0 schema. `dtd`: the IOF 2.0.3 DTD. */
export type IofGrammarKind = 'xsd' | 'dtd';

/** The file name each grammar has in `schemas/` and in the cache. */
export const GRAMMAR_FILE_NAMES: Readonly<Record<IofGrammarKind, string>> = {
  xsd: 'IOF.xsd',
  dtd: 'IOFdata-2.0.3.dtd',
};

const GRAMMAR_NAMES: Readonly<Record<IofGrammarKind, string>> = {
  xsd: 'the IOF XML 3.0 schema (IOF.xsd)',
  dtd: 'the IOF 2.0.3 DTD (IOFdata-2.0.3.dtd)',
};

const VARIABLES: Readonly<Record<IofGrammarKind, string>> = { xsd: ENV.iofXsd, dtd: ENV.iofDtd };
const OPTION_NAMES: Readonly<Record<IofGrammarKind, string>> = { xsd: 'schemaPath', dtd: 'dtdPath' };

export interface IofSchemaLookupOptions {
  /** Which grammar: `xsd` (default) or `dtd`. */
  kind?: IofGrammarKind;
  /** The caller's own copy: used when given, and an error (nothing else is tried) when it is not there. */
  path?: string;
  /**
   * The environment `IOF_XSD`, `IOF_DTD`, `XDG_CACHE_HOME` and `LOCALAPPDATA` are read from. Default: this process's
   * environment, read when the lookup runs. `{}` leaves the environment out.
   */
  env?: Readonly<Record<string, string | undefined>>;
  /** The package root whose `schemas/` is looked in. Default: this package's root. `false` skips the step. */
  packageRoot?: string | false;
  /** The platform whose cache directory is used when `XDG_CACHE_HOME` is not set. Default: this one. */
  platform?: NodeJS.Platform;
  /** The home directory the platform's cache directory is in. Default: the user's (`os.homedir()`). */
  homedir?: string;
}

/** Where a lookup step looked: the caller's option, the environment variable, the package, or the cache. */
export type IofSchemaSource = 'option' | 'environment' | 'package' | 'cache';

/**
 * What one step found. `used`: the file is there, and this step gave the answer. `missing`: the step named a path and
 * nothing is there (or not a regular file: `detail` says). `unset`: the step had no path to look at (no option, the
 * variable not set, no cache directory known). `skipped`: not looked at, because an earlier step decided (`detail`).
 */
export interface IofSchemaLookupStep {
  source: IofSchemaSource;
  status: 'used' | 'missing' | 'unset' | 'skipped';
  /** The path looked at (or that would have been, for a skipped step), when the step has one. */
  path?: string;
  /** The environment variable the step reads (`IOF_XSD`; for the cache `XDG_CACHE_HOME` or `LOCALAPPDATA`). */
  variable?: string;
  /** Why, in a few words, when the status alone does not say it. */
  detail?: string;
}

export interface IofSchemaLookup {
  kind: IofGrammarKind;
  /** The file to use; absent when no step found one. */
  path?: string;
  /** The step that gave `path`. */
  source?: IofSchemaSource;
  /** Every step, in order, with what it found. */
  steps: IofSchemaLookupStep[];
  /** Where fetching the grammar writes it: `<cache directory>/livelox-bridge/<file>`, when a cache directory is known. */
  cachePath?: string;
}

/**
 * The environment a lookup reads when its caller gives none. The one place outside the CLI that reads `process.env`:
 * the issue this answers asks for the same chain for every caller, and a library caller's `validate()` must find the
 * schema where `IOF_XSD` and the cache that fetching the schema fills say, exactly as the CLI does. Callers who want
 * none of it pass `env: {}`.
 */
function processEnv(): Readonly<Record<string, string | undefined>> {
  // eslint-disable-next-line no-restricted-properties -- the documented default of the schema lookup (above)
  return process.env;
}

/** The package root: the nearest directory above this module whose package.json is ours. */
function defaultPackageRoot(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  let dir = here;
  for (let i = 0; i < 6; i++) {
    try {
      const parsed = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: unknown };
      if (parsed.name === PACKAGE_NAME) return dir;
    } catch {
      // No package.json here, or not one we can read: not ours; keep looking.
    }
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  // Both src/iof and dist/iof sit two levels below the root.
  return resolve(here, '..', '..');
}

/** A variable's value, or undefined when it is not set or empty (an empty value is how shells unset things). */
function variable(env: Readonly<Record<string, string | undefined>>, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value === '' ? undefined : value;
}

/**
 * The user's cache directory for this package: `$XDG_CACHE_HOME/livelox-bridge` (an absolute `XDG_CACHE_HOME` only,
 * as the XDG specification says), else `~/Library/Caches/livelox-bridge` on macOS, `%LOCALAPPDATA%\livelox-bridge` on
 * Windows (`~\AppData\Local` when it is not set), `~/.cache/livelox-bridge` elsewhere. Undefined when there is no home
 * directory to put it in.
 */
export function iofSchemaCacheDir(options: IofSchemaLookupOptions = {}): string | undefined {
  return cacheDirectory(options).dir;
}

function cacheDirectory(options: IofSchemaLookupOptions): { dir?: string; variable?: string } {
  const env = options.env ?? processEnv();
  const xdg = variable(env, 'XDG_CACHE_HOME');
  if (xdg !== undefined && isAbsolute(xdg)) return { dir: join(xdg, PACKAGE_NAME), variable: 'XDG_CACHE_HOME' };
  const platform = options.platform ?? process.platform;
  if (platform === 'win32') {
    const local = variable(env, 'LOCALAPPDATA');
    if (local !== undefined) return { dir: join(local, PACKAGE_NAME), variable: 'LOCALAPPDATA' };
  }
  let home = options.homedir;
  if (home === undefined) {
    try {
      home = osHomedir();
    } catch {
      return {};
    }
  }
  if (home === '') return {};
  if (platform === 'win32') return { dir: join(home, 'AppData', 'Local', PACKAGE_NAME) };
  if (platform === 'darwin') return { dir: join(home, 'Library', 'Caches', PACKAGE_NAME) };
  return { dir: join(home, '.cache', PACKAGE_NAME) };
}

/** `used` when a regular file is at `path`, else `missing` with why. */
function look(path: string): Pick<IofSchemaLookupStep, 'status' | 'detail'> {
  try {
    const s = statSync(path);
    return s.isFile() ? { status: 'used' } : { status: 'missing', detail: 'not a regular file' };
  } catch (err) {
    const code = (err as { code?: unknown } | null)?.code;
    return code === 'ENOENT' || code === 'ENOTDIR'
      ? { status: 'missing' }
      : { status: 'missing', detail: `cannot be read (${String(code)})` };
  }
}

/**
 * Runs the lookup and says what each step found; never throws. `path` is the file to use, when a step found one. See
 * the module's comment for the order.
 */
export function findIofSchema(options: IofSchemaLookupOptions = {}): IofSchemaLookup {
  const kind = options.kind ?? 'xsd';
  const env = options.env ?? processEnv();
  const file = GRAMMAR_FILE_NAMES[kind];
  const cache = cacheDirectory({ ...options, env });
  const cachePath = cache.dir === undefined ? undefined : join(cache.dir, file);
  const packageRoot = options.packageRoot ?? defaultPackageRoot();
  const fromEnv = variable(env, VARIABLES[kind]);

  const candidates: Array<{ step: IofSchemaLookupStep; explicit: boolean }> = [
    {
      step:
        options.path === undefined
          ? { source: 'option', status: 'unset' }
          : { source: 'option', status: 'unset', path: resolve(options.path) },
      explicit: true,
    },
    {
      step: {
        source: 'environment',
        status: 'unset',
        variable: VARIABLES[kind],
        ...(fromEnv === undefined ? {} : { path: resolve(fromEnv) }),
      },
      explicit: true,
    },
    {
      step: {
        source: 'package',
        status: 'unset',
        ...(packageRoot === false ? {} : { path: join(packageRoot, 'schemas', file) }),
      },
      explicit: false,
    },
    {
      step: {
        source: 'cache',
        status: 'unset',
        ...(cachePath === undefined ? {} : { path: cachePath }),
        ...(cache.variable === undefined ? {} : { variable: cache.variable }),
      },
      explicit: false,
    },
  ];

  const steps: IofSchemaLookupStep[] = [];
  let decided: { path?: string; source?: IofSchemaSource; why: string } | undefined;
  for (const { step, explicit } of candidates) {
    if (decided !== undefined) {
      steps.push({ ...step, status: 'skipped', detail: decided.why });
      continue;
    }
    if (step.path === undefined) {
      steps.push(step);
      continue;
    }
    const found = { ...step, ...look(step.path) };
    steps.push(found);
    if (found.status === 'used') {
      decided = { path: step.path, source: step.source, why: `the ${step.source} step gave the file` };
    } else if (explicit) {
      // Named on purpose and not there: using another copy would hide the mistake.
      decided = { why: `the ${step.source} step names a file that is not there` };
    }
  }
  return {
    kind,
    ...(decided?.path === undefined ? {} : { path: decided.path }),
    ...(decided?.source === undefined ? {} : { source: decided.source }),
    steps,
    ...(cachePath === undefined ? {} : { cachePath }),
  };
}

function describeSource(source: IofSchemaSource, kind: IofGrammarKind): string {
  switch (source) {
    case 'option':
      return `path given (${OPTION_NAMES[kind]})`;
    case 'environment':
      return `${VARIABLES[kind]} variable`;
    case 'package':
      return "package's copy";
    case 'cache':
      return 'cached copy';
  }
}

/**
 * What to do when a grammar is missing: the three ways out, in the library's words. `values`: the grammar (`xsd` or
 * `dtd`) and, when an explicit path was not there, where it came from (`option` or `environment`), so that a front end
 * names its own flag.
 */
export function schemaHint(kind: IofGrammarKind, given?: 'option' | 'environment'): Hint {
  const name = GRAMMAR_FILE_NAMES[kind];
  const ways = `give the path of a copy of ${name} (the ${OPTION_NAMES[kind]} option), set ${VARIABLES[kind]} to one, or fetch the IOF's file into the cache (fetchIofSchema)`;
  return {
    code: 'schema',
    text:
      given === undefined
        ? `To get it: ${ways}.`
        : `Check the path the ${describeSource(given, kind)} gives; or ${ways}.`,
    values: given === undefined ? [kind] : [kind, given],
  };
}

/** The `schema_missing` error for a lookup that found nothing, naming where it looked. */
export function schemaMissingError(lookup: IofSchemaLookup): InputError {
  const explicit = lookup.steps.find(
    (s) => (s.source === 'option' || s.source === 'environment') && s.status === 'missing',
  );
  const looked = lookup.steps.filter((s) => s.status === 'missing').map((s) => s.path);
  const source = explicit?.path ?? GRAMMAR_FILE_NAMES[lookup.kind];
  const message =
    explicit === undefined
      ? `${GRAMMAR_NAMES[lookup.kind]} was not found${looked.length > 0 ? ` (looked at ${looked.join(', ')})` : ''}.`
      : `${GRAMMAR_NAMES[lookup.kind]} is not there${explicit.detail === undefined ? '' : ` (${explicit.detail})`}.`;
  return new InputError(source, 'schema_missing', message, {
    hint: schemaHint(
      lookup.kind,
      explicit?.source === 'option' || explicit?.source === 'environment' ? explicit.source : undefined,
    ),
  });
}

/**
 * Absolute path of IOF.xsd by the lookup (`findIofSchema`). Throws `InputError` with reason `schema_missing`, naming
 * where it looked and the ways to get it, when no step finds it.
 */
export function iofSchemaPath(options: Omit<IofSchemaLookupOptions, 'kind'> = {}): string {
  const lookup = findIofSchema({ ...options, kind: 'xsd' });
  if (lookup.path === undefined) throw schemaMissingError(lookup);
  return lookup.path;
}

/**
 * Absolute path of the IOF 2.0.3 DTD by the lookup, or undefined when no step finds one (2.0.3 documents are then
 * reported as not checked). Throws `InputError` `schema_missing` when an explicit path (the `path` option, `IOF_DTD`)
 * names a file that is not there.
 */
export function iofDtdPath(options: Omit<IofSchemaLookupOptions, 'kind'> = {}): string | undefined {
  const lookup = findIofSchema({ ...options, kind: 'dtd' });
  if (lookup.path !== undefined) return lookup.path;
  const explicit = lookup.steps.some(
    (s) => (s.source === 'option' || s.source === 'environment') && s.status === 'missing',
  );
  if (explicit) throw schemaMissingError(lookup);
  return undefined;
}
