/**
 * `livelox-bridge simulator` stopped by SIGTERM, as a service manager or CI teardown stops it: the built bin in a
 * child process. The requests in flight are finished while new connections are refused, then the process exits 0;
 * what cannot finish by --drain-timeout-ms is cut. Timing is real; the assertions are about order and outcome, with
 * bounds far from what the runs take.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, cleanEnv, ROOT } from '../helpers/cli.js';
import { refused, routeUploadHead, Trickle, until } from '../helpers/raw-http.js';

interface Running {
  child: ChildProcess;
  exited: Promise<number | null>;
  stderr: () => string;
  home: string;
}

const children: Running[] = [];
afterEach(() => {
  for (const r of children.splice(0)) {
    r.child.kill('SIGKILL');
    rmSync(r.home, { recursive: true, force: true });
  }
});

/** Starts the bin and resolves with its first stdout line (the --json document, or the first human line). */
async function startBin(args: string[]): Promise<{ running: Running; lines: AsyncIterator<string> }> {
  const home = mkdtempSync(join(tmpdir(), 'sim-stop-'));
  const child = spawn(process.execPath, [BIN, 'simulator', '--port', '0', '--events', '20', ...args], {
    cwd: ROOT,
    env: cleanEnv(home),
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const running = { child, exited, stderr: () => stderr, home };
  children.push(running);
  return { running, lines: createInterface({ input: child.stdout })[Symbol.asyncIterator]() };
}

async function inFlight(controlUrl: string): Promise<number> {
  const res = await request(`${controlUrl}/memory`);
  // This request is counted too.
  return ((await res.body.json()) as { requestsInFlight: number }).requestsInFlight - 1;
}

describe('livelox-bridge simulator on SIGTERM', () => {
  it('finishes the requests in flight, refusing new connections meanwhile, then exits 0', async () => {
    const { running, lines } = await startBin(['--json', '--latency-ms', '4000', '--drain-timeout-ms', '20000']);
    const info = JSON.parse((await lines.next()).value as string) as {
      baseUrl: string;
      controlUrl: string;
      apiKey: string;
    };
    const port = Number(new URL(info.baseUrl).port);
    let answered = 0;
    const searches = Array.from({ length: 10 }, () =>
      request(`${info.baseUrl}/events?from=2024-01-01T00:00:00Z&paging=0:5`, { headers: { ApiKey: info.apiKey } }).then(
        async (res) => {
          answered++;
          return { status: res.statusCode, events: ((await res.body.json()) as unknown[]).length };
        },
      ),
    );
    await until(async () => (await inFlight(info.controlUrl)) === 10, 'ten searches in flight');
    const stoppedAt = performance.now();
    running.child.kill('SIGTERM');
    await until(() => refused(port), 'new connections refused');
    // Refused while the ten were still waiting for their answers (4 s of latency each).
    expect(answered).toBe(0);
    expect(await Promise.all(searches)).toEqual(Array.from({ length: 10 }, () => ({ status: 200, events: 5 })));
    expect(await running.exited).toBe(0);
    // Exited once they were answered, well before the 20 s deadline it would otherwise have waited for.
    expect(performance.now() - stoppedAt).toBeLessThan(20_000);
    expect(running.stderr()).toBe('');
  }, 60_000);

  it('cuts what is still running at --drain-timeout-ms, says so without --json, and exits 0', async () => {
    const { running, lines } = await startBin(['--drain-timeout-ms', '1000', '--slow-body-grace-ms', '600000']);
    // The human lines carry the addresses in their export block.
    const exported: Record<string, string> = {};
    while (!exported.LIVELOX_API_KEY || !exported.LIVELOX_BASE_URL || !exported.LIVELOX_SIMULATOR_URL) {
      const line = await lines.next();
      if (line.done) throw new Error(`the simulator ended before it was ready: ${running.stderr()}`);
      const m = /export (LIVELOX_\w+)='([^']*)'/.exec(line.value);
      if (m) exported[m[1]!] = m[2]!;
    }
    const port = Number(new URL(exported.LIVELOX_BASE_URL).port);
    const upload = new Trickle(port, routeUploadHead(exported.LIVELOX_API_KEY, 100_000), 100);
    try {
      await until(async () => upload.sent > 0 && (await inFlight(exported.LIVELOX_SIMULATOR_URL!)) === 1, 'upload');
      running.child.kill('SIGTERM');
      // Cut off without an answer once the deadline passed, while its body still trickled.
      expect((await upload.ended).status).toBeUndefined();
      expect(await running.exited).toBe(0);
      expect(running.stderr()).toContain('Stopping: finishing 1 request in flight (at most 1 s; Ctrl-C again');
      expect(running.stderr()).toContain('Simulator stopped.');
    } finally {
      upload.stop();
    }
  }, 60_000);
});
