/**
 * The schema at run time, as a user of an installed copy meets it: the built bin copied into a package folder of its
 * own (dist and package.json, no schemas/, as the tarball ships it), run with its cache in a folder made here. Without a
 * schema, validate and check-courses stop at once with the three ways out; `schema fetch` from a loopback server fills
 * the cache and `schema status` says so; IOF_XSD is read when the command runs.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDatasetFile } from '../../src/simulator/dataset/file.js';
import { startSimulator, type Simulator } from '../../src/simulator/server.js';
import { ROOT, cleanEnv, runBin, type CliRun } from '../helpers/cli.js';
import { startConnectProxy } from '../helpers/connect-proxy.js';
import { fixturePath, iofGrammarPath } from '../helpers/files.js';
import { XSD, startSchemaServer, type SchemaServer } from '../helpers/schema-server.js';
import { serviceArgs } from '../helpers/sync-cli.js';

const COURSES = fixturePath('datasets/cannock-chase.courses.xml');
const THREE_WAYS = [/--schema FILE/, /IOF_XSD/, /livelox-bridge schema fetch/];

let dir: string;
let bin: string;
let server: SchemaServer;
let sim: Simulator;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lb-schema-cli-'));
  // An installed copy: what the package ships (dist, package.json), its dependencies beside it, no schemas/.
  const pkg = join(dir, 'node_modules', 'livelox-bridge');
  mkdirSync(pkg, { recursive: true });
  cpSync(join(ROOT, 'dist'), join(pkg, 'dist'), { recursive: true });
  cpSync(join(ROOT, 'package.json'), join(pkg, 'package.json'));
  symlinkSync(join(ROOT, 'node_modules'), join(pkg, 'node_modules'), 'dir');
  bin = join(pkg, 'dist', 'cli', 'main.js');
  server = await startSchemaServer();
  sim = await startSimulator({ port: 0, dataset: await loadDatasetFile(fixturePath('datasets/cannock-chase.json')) });
});
afterAll(async () => {
  await server.close();
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A home of its own for one test: its cache starts empty. */
function home(name: string): { env: Record<string, string>; cache: string } {
  const path = join(dir, 'homes', name);
  mkdirSync(path, { recursive: true });
  const env: Record<string, string> = { ...cleanEnv(path), NO_COLOR: '1' };
  return { env, cache: join(env.XDG_CACHE_HOME!, 'livelox-bridge') };
}

function installed(args: string[], env: Record<string, string>): Promise<CliRun> {
  return runBin(args, env, { bin });
}

const SERVICE = (): string[] => serviceArgs(sim);

describe('the schema at run time, from an installed copy', { timeout: 60_000 }, () => {
  it('without a schema, validate and check-courses exit 1 at once, naming the three ways out', async () => {
    const { env } = home('none');
    const t0 = performance.now();
    const validate = await installed(['validate', COURSES], env);
    const took = performance.now() - t0;
    expect(validate.code).toBe(1);
    expect(validate.stdout).toBe('');
    for (const way of THREE_WAYS) expect(validate.stderr).toMatch(way);
    expect(validate.stderr).toMatch(
      /^livelox-bridge validate: IOF\.xsd: the IOF XML 3\.0 schema \(IOF\.xsd\) was not found/,
    );
    // A sanity bound only (speed is measured in benchmarks): no worker, no request, no file read first.
    expect(took).toBeLessThan(10_000);

    const requests = sim.stats.snapshot().requests;
    const check = await installed(['check-courses', COURSES, '--event-id', '162001', ...SERVICE()], env);
    expect(check.code).toBe(1);
    for (const way of THREE_WAYS) expect(check.stderr).toMatch(way);
    expect(check.stderr).toMatch(/--allow-uncompared/);
    expect(sim.stats.snapshot().requests).toBe(requests);

    const json = await installed(['validate', COURSES, '--json'], env);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', reason: 'schema_missing', hint: { code: 'schema', values: ['xsd'] } },
    });
  });

  it('schema status says where it looked; schema fetch fills the cache; then validate and check-courses work', async () => {
    const { env, cache } = home('fetch');
    const before = await installed(['schema', 'status'], env);
    expect(before.code).toBe(1);
    expect(before.stdout).toMatch(/^IOF\.xsd \(the IOF XML 3\.0 schema\): not found/m);
    expect(before.stdout).toMatch(/^ {2}1\. --schema {2}not given$/m);
    expect(before.stdout).toMatch(/^ {2}2\. IOF_XSD {3}not set$/m);
    expect(before.stdout).toMatch(/^ {2}3\. package {3}.*node_modules.livelox-bridge.schemas.IOF\.xsd: not there$/m);
    expect(before.stdout).toMatch(/^ {2}4\. cache {5}.*livelox-bridge.IOF\.xsd \(XDG_CACHE_HOME\): not there$/m);

    const fetched = await installed(['schema', 'fetch', '--from', `${server.url}/IOF.xsd`], env);
    expect(fetched.code, fetched.stderr).toBe(0);
    expect(fetched.stdout).toContain(`IOF.xsd: written to ${join(cache, 'IOF.xsd')} (${XSD.byteLength} bytes)`);
    expect(fetched.stdout).toMatch(/^ {2}sha256 {2}9d00abaea14ba4bedfae910d68a01506c097a57c29b0492c49abb19034ae90a1 /m);
    expect(readFileSync(join(cache, 'IOF.xsd')).equals(XSD)).toBe(true);

    const after = await installed(['schema', 'status', '--json'], env);
    expect(after.code).toBe(0);
    const status = JSON.parse(after.stdout);
    expect(status.schema).toMatchObject({ source: 'cache', path: join(cache, 'IOF.xsd'), published: true });
    expect(status.schema.steps.map((s: { status: string }) => s.status)).toEqual(['unset', 'unset', 'missing', 'used']);
    expect(status.dtd.path).toBeUndefined();

    const validate = await installed(['validate', COURSES], env);
    expect(validate.code, validate.stderr).toBe(0);
    expect(validate.stdout).toMatch(/^VALID /m);
    const check = await installed(['check-courses', COURSES, '--event-id', '162001', ...SERVICE()], env);
    expect(check.code, check.stdout + check.stderr).toBe(0);
    expect(check.stdout).toMatch(/^SAME: /m);
  });

  it('schema fetch says so when validation will use another copy (IOF_XSD comes first)', async () => {
    const { env } = home('shadowed');
    const r = await installed(['schema', 'fetch', '--from', iofGrammarPath('IOF.xsd')], {
      ...env,
      IOF_XSD: join(dir, 'typo.xsd'),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/note {4}validation does not use this copy: IOF_XSD names a file that is not there/);
  });

  it('reads IOF_XSD when the command runs, and --schema before it', async () => {
    const { env } = home('env');
    const withEnv = { ...env, IOF_XSD: iofGrammarPath('IOF.xsd') };
    const validate = await installed(['validate', COURSES], withEnv);
    expect(validate.code, validate.stderr).toBe(0);
    const check = await installed(['check-courses', COURSES, '--event-id', '162001', '--json', ...SERVICE()], withEnv);
    expect(JSON.parse(check.stdout)).toMatchObject({ ok: true, verdict: 'same', schema: { status: 'checked' } });
    const status = await installed(['schema', 'status'], withEnv);
    expect(status.stdout).toMatch(/^ {2}2\. IOF_XSD {3}.*IOF\.xsd: found, used$/m);
    expect(status.stdout).toMatch(/^ {2}4\. cache .*not looked at: step 2 gave the file$/m);
    // A typo in IOF_XSD is reported, not replaced by another copy; --schema comes first.
    const typo = await installed(['validate', COURSES], { ...env, IOF_XSD: join(dir, 'typo.xsd') });
    expect(typo.code).toBe(1);
    expect(typo.stderr).toMatch(
      /typo\.xsd: the IOF XML 3\.0 schema \(IOF\.xsd\) is not there\. Check the path IOF_XSD gives/,
    );
    const option = await installed(['validate', COURSES, '--schema', iofGrammarPath('IOF.xsd')], {
      ...env,
      IOF_XSD: join(dir, 'typo.xsd'),
    });
    expect(option.code, option.stderr).toBe(0);
  });

  it('check-courses without a schema but with --allow-uncompared compares, and says NOT COMPARED', async () => {
    const { env } = home('uncompared');
    const r = await installed(
      ['check-courses', COURSES, '--event-id', '162001', '--allow-uncompared', ...SERVICE()],
      env,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^NOT COMPARED: Neither file was checked against the IOF schema: .*--schema FILE/m);
    expect(r.stdout).not.toMatch(/^SAME/m);
    const json = await installed(
      ['check-courses', COURSES, '--event-id', '162001', '--allow-uncompared', '--json', ...SERVICE()],
      env,
    );
    expect(JSON.parse(json.stdout)).toMatchObject({
      ok: true,
      same: false,
      verdict: 'not_compared',
      notCompared: ['schema'],
      positions: { status: 'compared' },
      schema: { status: 'not_checked', reason: 'schema_missing', message: expect.stringContaining('IOF_XSD') },
    });
  });

  it('schema fetch refuses a 404, a redirect loop, a stall and another digest, leaving the cache as it was', async () => {
    const { env, cache } = home('failures');
    mkdirSync(cache, { recursive: true });
    const old = Buffer.concat([XSD, Buffer.from('<!-- older -->\n')]);
    writeFileSync(join(cache, 'IOF.xsd'), old);
    const untouched = (): void => {
      expect(readdirSync(cache)).toEqual(['IOF.xsd']);
      expect(readFileSync(join(cache, 'IOF.xsd')).equals(old)).toBe(true);
    };

    const missing = await installed(['schema', 'fetch', '--from', `${server.url}/not-here.xsd`], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(
      /IOF\.xsd was not fetched: .*not-here\.xsd: is not there: the server answered 404 Not Found/,
    );
    untouched();

    const loop = await installed(['schema', 'fetch', '--from', `${server.url}/loop-a`, '--json'], env);
    expect(loop.code).toBe(1);
    expect(JSON.parse(loop.stdout)).toMatchObject({ ok: false, files: [], error: { reason: 'redirect_loop' } });
    untouched();

    // --timeout-s is the whole wait for one file, retries included: a stalling server is given up after it.
    const t0 = performance.now();
    const stall = await installed(['schema', 'fetch', '--from', `${server.url}/stall.xsd`, '--timeout-s', '2'], env);
    const took = performance.now() - t0;
    expect(stall.code).toBe(1);
    expect(stall.stderr).toMatch(/IOF\.xsd was not fetched: it did not arrive within 2 s\..*--timeout-s N/);
    // A sanity bound only: three attempts of 2 s each with backoff took over 6 s before.
    expect(took).toBeLessThan(6_000);
    untouched();

    const digest = await installed(
      ['schema', 'fetch', '--from', iofGrammarPath('IOF.xsd'), '--sha256', '0'.repeat(64)],
      env,
    );
    expect(digest.code).toBe(1);
    expect(digest.stderr).toMatch(/has sha256 9d00ab\w+, but 0{64} was asked for; nothing was written/);
    untouched();

    const pinned = await installed(
      ['schema', 'fetch', '--from', iofGrammarPath('IOF.xsd'), '--sha256', IOF_XSD_SHA256, '--json'],
      env,
    );
    expect(pinned.code, pinned.stderr).toBe(0);
    expect(JSON.parse(pinned.stdout)).toMatchObject({
      ok: true,
      files: [{ kind: 'xsd', sha256: IOF_XSD_SHA256, verified: true, status: 'written', replaced: true }],
    });
  });

  it('schema fetch goes through the proxy HTTPS_PROXY/HTTP_PROXY name, as the service requests do', async () => {
    const { env, cache } = home('proxy');
    const proxy = await startConnectProxy();
    try {
      // A host only the proxy can reach: the fetch works through it, or not at all.
      const from = `${server.url.replace('127.0.0.1', 'iof-mirror.test')}/IOF.xsd`;
      const r = await installed(['schema', 'fetch', '--from', from], { ...env, HTTP_PROXY: proxy.url });
      expect(r.code, r.stderr).toBe(0);
      expect(proxy.tunnels).toEqual([{ target: expect.stringMatching(/^iof-mirror\.test:\d+$/), opened: true }]);
      expect(readFileSync(join(cache, 'IOF.xsd')).equals(XSD)).toBe(true);
    } finally {
      await proxy.close();
    }
  });

  it('says what is wrong with the command line (exit 2)', async () => {
    const { env } = home('usage');
    const cases: Array<[string[], RegExp]> = [
      [['schema'], /schema: a subcommand is missing: fetch or status/],
      [['schema', 'pull'], /unknown subcommand 'pull'/],
      [['schema', 'fetch', '--sha256', 'abc'], /--sha256 takes a sha256 digest/],
      [['schema', 'fetch', 'svg'], /schema fetch: the file must be xsd or dtd, got 'svg'/],
      [['schema', 'fetch', 'xsd', 'dtd'], /schema fetch: takes xsd or dtd \(or nothing, for both\)/],
      [['schema', 'status', '--from', 'x'], /unknown option '--from': it is an option of `schema fetch`/],
      [
        ['schema', 'fetch', '--from', 'ftp://mirror/IOF.xsd'],
        /--from takes an http\(s\) address or a file, not a ftp:/,
      ],
      [
        ['schema', 'fetch', '--from', 'https://bob:hunter2@mirror/IOF.xsd'],
        /--from: an address with a user name or password is not used/,
      ],
    ];
    for (const [args, message] of cases) {
      const r = await installed(args, env);
      expect(r.stderr).not.toContain('hunter2');
      expect(r.code, r.args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
    }
  });
});

const IOF_XSD_SHA256 = '9d00abaea14ba4bedfae910d68a01506c097a57c29b0492c49abb19034ae90a1';
