/** `livelox-bridge simulator --journal FILE` (the built bin in a child process): JSON lines, and never a secret. */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { SimulatorInfo } from '../../src/simulator/server.js';
import { signedInClient } from '../helpers/oauth-login.js';
import { http } from '../helpers/simulator.js';

const BIN = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

async function startBin(
  args: string[],
): Promise<{ child: ChildProcess; info: SimulatorInfo; exited: Promise<number | null> }> {
  const child = spawn(process.execPath, [BIN, 'simulator', '--port', '0', '--json', '--events', '5', ...args], {
    cwd: ROOT,
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const line = await new Promise<string>((resolve) => createInterface({ input: child.stdout }).once('line', resolve));
  return { child, info: JSON.parse(line) as SimulatorInfo, exited };
}

describe('livelox-bridge simulator --journal', () => {
  it('appends every request as a JSON line, with no API key, token, code or PKCE verifier in the file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sim-journal-'));
    try {
      const file = join(dir, 'journal.jsonl');
      const { child, info, exited } = await startBin(['--journal', file, '--journal-entries', '2']);
      await http('GET', `${info.baseUrl}/countries`, { headers: { ApiKey: info.apiKey } });
      await http('GET', `${info.baseUrl}/countries`, { headers: { ApiKey: info.limitedApiKey } });
      const { client, strategy, store, secrets } = await signedInClient({ info });
      await client.countries.list();
      await strategy.refresh(client);
      const renewed = await store.load();
      await client.close();
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      const text = await readFile(file, 'utf8');
      const entries = text
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as { path: string; status: number; auth: { kind: string } });
      expect(entries.map((e) => `${e.path} ${e.status}`)).toEqual([
        '/api/countries 200',
        '/api/countries 200',
        '/auth/oauth2/authorize 302',
        '/auth/oauth2/token 200',
        '/api/countries 200',
        '/auth/oauth2/token 200',
      ]);
      for (const secret of [
        info.apiKey,
        info.limitedApiKey,
        ...secrets,
        renewed!.accessToken,
        renewed!.refreshToken!,
      ]) {
        expect(secret.length).toBeGreaterThan(8);
        expect(text).not.toContain(secret);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('exits at once with exit 2 naming --journal and the file that cannot be opened, leaving nothing listening', () => {
    const r = spawnSync(process.execPath, [BIN, 'simulator', '--port', '0', '--journal', '/nonexistent-dir/j.jsonl'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--journal FILE: cannot be opened for appending (ENOENT): /nonexistent-dir/j.jsonl');
    expect(r.stderr).not.toContain('journalFile');
  });

  it('ignores X-Simulator-Scenario with --no-scenarios', async () => {
    const { child, info, exited } = await startBin(['--no-scenarios']);
    const res = await http('GET', `${info.baseUrl}/countries`, {
      headers: { ApiKey: info.apiKey, 'X-Simulator-Scenario': 'status=503' },
    });
    expect(res.status).toBe(200);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
