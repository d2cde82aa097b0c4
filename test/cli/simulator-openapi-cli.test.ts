/**
 * `livelox-bridge simulator openapi [--out FILE]` as the built bin: the document a running simulator serves, with the
 * addresses of a simulator on the default port, to stdout or atomically to a file; a folder that is not there is a
 * usage error naming it.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/simulator/server.js';
import { cleanEnv, runBin } from '../helpers/cli.js';
import { http } from '../helpers/simulator.js';

let home: string;
let env: Record<string, string>;
let sim: Simulator;
beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'lb-sim-openapi-'));
  env = cleanEnv(home);
  sim = await startSimulator({ port: 0, events: 5 });
});
afterAll(async () => {
  await sim.close();
  rmSync(home, { recursive: true, force: true });
});

/** The document with its addresses made alike: the served one names its own port. */
function withoutServers(doc: any): string {
  return JSON.stringify(doc).replaceAll(/http:\/\/127\.0\.0\.1:\d+/g, 'ORIGIN');
}

describe('simulator openapi', { timeout: 60_000 }, () => {
  it('prints the document a running simulator serves, naming the default port in its servers', async () => {
    const r = await runBin(['simulator', 'openapi'], env);
    expect(r.code, r.stderr).toBe(0);
    const printed = JSON.parse(r.stdout);
    expect(printed.servers).toEqual([{ url: 'http://127.0.0.1:4380/api' }]);
    const served = (await http('GET', `${sim.info.controlUrl}/openapi.json`)).json();
    expect(withoutServers(printed)).toBe(withoutServers(served));
  });

  it('writes it to --out and says so in one JSON document', async () => {
    const file = join(home, 'livelox-openapi.json');
    const r = await runBin(['simulator', 'openapi', '--out', file, '--json'], env);
    expect(r.code, r.stderr).toBe(0);
    const said = JSON.parse(r.stdout);
    const text = readFileSync(file, 'utf8');
    expect(said).toEqual({ ok: true, file, bytes: Buffer.byteLength(text), operations: 17 });
    expect(JSON.parse(text).openapi).toBe('3.1.0');
  });

  it('refuses an --out in a folder that does not exist, writing nothing', async () => {
    const file = join(home, 'missing', 'doc.json');
    const r = await runBin(['simulator', 'openapi', '--out', file], env);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--out ${file}: the folder ${join(home, 'missing')} does not exist`);
  });
});
