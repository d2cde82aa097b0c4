/**
 * The package as a user meets it: `npm pack` of this checkout's build, the tarball installed into a new project from
 * the registry (better-sqlite3 compiles from source there, about a minute), then what a user does first: compile the
 * README's library examples under strict TypeScript with `skipLibCheck: false` and run the simulator one, `require()`
 * the package from CommonJS, and run the installed bin. One pack and one install serve every test in this file.
 *
 * `npm test` builds dist/ before vitest runs, so the tarball holds this checkout's code; run alone, this file packs
 * whatever dist/ holds (`npm run build` first).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { startSchemaServer } from '../helpers/schema-server.js';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end (killed with its children after `timeoutMs`), without blocking this process. */
function run(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number }) {
  return new Promise<Run>((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, detached: true });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), options.timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A failed step's whole story, for the assertion message. */
function story(what: string, r: Run): string {
  return `${what} exited ${r.code}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`;
}

const TMP = mkdtempSync(join(tmpdir(), 'lb-installed-'));
const APP = join(TMP, 'app');
const BIN = join(APP, 'node_modules', '.bin', 'livelox-bridge');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
/** The IOF's schema beside this checkout, where the install step takes it from (never committed, never shipped). */
const SHARED_SCHEMA = process.env.IOF_XSD ?? join(ROOT, '..', 'shared', 'iof', 'IOF.xsd');

/**
 * The environment of npm and of every program of the temporary project: this process's, without what `npm test`
 * sets for its own package (npm would otherwise take this checkout as the project), without the developer's
 * LIVELOX_* settings, colour switches and IOF_XSD, and with the user cache in the temporary folder, so that nothing
 * the installed package caches outlives the test.
 */
function baseEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^npm_(package_|lifecycle_|command$|config_(local_|global_)?prefix$)|^INIT_CWD$/.test(key)) continue;
    if (key.startsWith('LIVELOX_') || ['FORCE_COLOR', 'NO_COLOR', 'IOF_XSD'].includes(key)) continue;
    env[key] = value;
  }
  return { ...env, XDG_CACHE_HOME: join(TMP, 'cache') };
}

/** What a program of the project sees: `baseEnv`, with a home and config, data and cache folders of its own. */
function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const home = join(TMP, 'home');
  return {
    ...baseEnv(),
    HOME: home,
    XDG_CONFIG_HOME: join(home, 'config'),
    XDG_DATA_HOME: join(home, 'data'),
    ...extra,
  };
}

const inApp = (file: string, args: string[], extra: Record<string, string> = {}) =>
  run(file, args, { cwd: APP, env: userEnv(extra), timeoutMs: 60_000 });

/**
 * How the installed bin gets the IOF schema for `validate`, as a user of an installed copy does: `schema fetch` from a
 * loopback server serving the IOF's file (the cache lands in this test's XDG_CACHE_HOME).
 */
async function fetchSchemaForInstalledBin(): Promise<void> {
  const server = await startSchemaServer();
  try {
    const fetched = await inApp(BIN, ['schema', 'fetch', 'xsd', '--from', `${server.url}/IOF.xsd`]);
    expect(fetched.code, story('schema fetch', fetched)).toBe(0);
    expect(fetched.stdout).toContain(`written to ${join(TMP, 'cache', 'livelox-bridge', 'IOF.xsd')}`);
  } finally {
    await server.close();
  }
}

/** The ```ts blocks of the README, in order: the library examples a user copies first. */
function readmeExamples(): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  return [...readme.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
}

beforeAll(async () => {
  expect(existsSync(join(ROOT, 'dist', 'index.js')), 'dist/ is missing: run `npm run build` first').toBe(true);
  const packDir = join(TMP, 'pack');
  mkdirSync(packDir);
  const pack = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', packDir], {
    cwd: ROOT,
    env: baseEnv(),
    timeoutMs: 120_000,
  });
  expect(pack.code, story('npm pack', pack)).toBe(0);
  const [{ filename }] = JSON.parse(pack.stdout) as [{ filename: string }];

  mkdirSync(join(APP, 'src'), { recursive: true });
  writeFileSync(join(APP, 'package.json'), JSON.stringify({ name: 'lb-user', private: true, type: 'module' }));
  // As a user installs it, from the registry CI reaches; the local cache spares downloads it already holds.
  const install = await run(
    'npm',
    ['install', '--prefer-offline', '--no-audit', '--no-fund', join(packDir, filename)],
    { cwd: APP, env: baseEnv(), timeoutMs: 600_000 },
  );
  expect(install.code, story('npm install', install)).toBe(0);
}, 700_000);

afterAll(() => rmSync(TMP, { recursive: true, force: true }));

describe('the installed package', () => {
  it("compiles the README's examples under strict TypeScript with skipLibCheck false, and the simulator one runs", async () => {
    const examples = readmeExamples();
    const simulator = examples.findIndex(
      (e) => e.includes("from 'livelox-bridge/simulator'") && e.includes('new LiveloxClient('),
    );
    expect(simulator, 'the README has no example with startSimulator and LiveloxClient').toBeGreaterThanOrEqual(0);
    examples.forEach((code, i) => writeFileSync(join(APP, 'src', `readme-${i + 1}.ts`), code));
    // The same package from CommonJS, as a `.cts` file: types and require() together.
    writeFileSync(
      join(APP, 'src', 'from-commonjs.cts'),
      [
        "import bridge = require('livelox-bridge');",
        "import iof = require('livelox-bridge/iof');",
        "import simulator = require('livelox-bridge/simulator');",
        'const kinds: string[] = [typeof bridge.LiveloxClient, typeof iof.validate, typeof simulator.startSimulator];',
        'console.log(kinds.join(" "));',
        '',
      ].join('\n'),
    );
    writeFileSync(
      join(APP, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          skipLibCheck: false,
          rootDir: 'src',
          outDir: 'out',
        },
        include: ['src'],
      }),
    );
    const tsc = await inApp(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.']);
    expect(tsc.code, story('tsc', tsc)).toBe(0);

    // The example says what it prints: `console.log(events.length, events[0]?.name); // 4 'Name of the event'`.
    const said = /console\.log\(events\.length, events\[0\]\?\.name\); \/\/ (\d+) '([^']+)'/.exec(examples[simulator]!);
    expect(said, 'the simulator example no longer says what it prints').not.toBeNull();
    const example = await inApp(process.execPath, [join('out', `readme-${simulator + 1}.js`)]);
    expect(example.code, story('the README example', example)).toBe(0);
    expect(example.stdout.trim()).toBe(`${said![1]} ${said![2]}`);

    const required = await inApp(process.execPath, [join('out', 'from-commonjs.cjs')]);
    expect(required.code, story('require()', required)).toBe(0);
    expect(required.stdout.trim()).toBe('function function function');
    expect(required.stderr).not.toMatch(/ERR_REQUIRE/);
  }, 180_000);

  it('runs its bin: --version, --help', async () => {
    const version = await inApp(BIN, ['--version']);
    expect(version.code, story('--version', version)).toBe(0);
    expect(version.stdout.trim()).toBe(VERSION);
    const help = await inApp(BIN, ['--help']);
    expect(help.code, story('--help', help)).toBe(0);
    expect(help.stdout).toContain('Usage: livelox-bridge <command>');
  });

  it('validates IOF XML after schema fetch, or with IOF_XSD at run time; without either it says how, at once', async () => {
    expect(existsSync(SHARED_SCHEMA), `no IOF.xsd at ${SHARED_SCHEMA} (set IOF_XSD)`).toBe(true);
    const broken = join(TMP, 'broken.CourseData.xml');
    writeFileSync(
      broken,
      '<?xml version="1.0" encoding="UTF-8"?>\n<CourseData xmlns="http://www.orienteering.org/datastandard/3.0" iofVersion="3.0"><Nonsense/></CourseData>\n',
    );
    const good = join(ROOT, 'fixtures', 'ems', 'stockholm-2-days-stage2.StartList.xml');

    const without = await inApp(BIN, ['validate', good]);
    expect(without.code, story('validate without a schema', without)).toBe(1);
    for (const way of ['--schema FILE', 'IOF_XSD', 'livelox-bridge schema fetch'])
      expect(without.stderr).toContain(way);

    const withEnv = await inApp(BIN, ['validate', '--json', good, broken], { IOF_XSD: SHARED_SCHEMA });
    expect(withEnv.code, story('validate with IOF_XSD', withEnv)).toBe(1);
    expect((JSON.parse(withEnv.stdout) as Report).files.map((f) => f.status)).toEqual(['valid', 'invalid']);

    await fetchSchemaForInstalledBin();
    const result = await inApp(BIN, ['validate', '--json', good, broken]);
    expect(result.code, story('validate', result)).toBe(1);
    expect((JSON.parse(result.stdout) as Report).files.map((f) => f.status)).toEqual(['valid', 'invalid']);
    const status = await inApp(BIN, ['schema', 'status', '--json']);
    expect(JSON.parse(status.stdout)).toMatchObject({ ok: true, schema: { source: 'cache', published: true } });
  });
});

type Report = { files: Array<{ file: string; status: string }> };
