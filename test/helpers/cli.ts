/** Running the built bin (`dist/cli/main.js`) as a user would, with a cap on children running at once. */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface CliRun {
  args: string[];
  code: number | null;
  stdout: string;
  stderr: string;
}

/** At most this many children at once: the suites run beside others on small CI machines. */
const MAX_CHILDREN = 4;
let running = 0;
const waiting: Array<() => void> = [];

async function slot<T>(fn: () => Promise<T>): Promise<T> {
  if (running >= MAX_CHILDREN) await new Promise<void>((resolve) => waiting.push(resolve));
  else running++;
  try {
    return await fn();
  } finally {
    // Hand the slot straight to the next in line, so that a newcomer cannot slip in between.
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

/**
 * Runs the bin with exactly `env` as its environment (pass a clean one: no LIVELOX_* of the developer's shell) and
 * collects its output. Asynchronous on purpose: a blocking spawn would stall a simulator running in the test process.
 * `nodeArgs` go to node before the bin (`--import` a hook); `bin` is another copy of it (an installed package's), run
 * from its own folder; `cwd` is where it runs otherwise (default the repository); `input` is written to its stdin.
 */
export function runBin(
  args: string[],
  env: Record<string, string>,
  options: { nodeArgs?: string[]; bin?: string; cwd?: string; input?: string } = {},
): Promise<CliRun> {
  const bin = options.bin ?? BIN;
  return slot(
    () =>
      new Promise((resolve, reject) => {
        const child = spawn(process.execPath, [...(options.nodeArgs ?? []), bin, ...args], {
          cwd: options.cwd ?? (bin === BIN ? ROOT : join(bin, '..')),
          env,
        });
        let stdout = '';
        let stderr = '';
        child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
        child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
        const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
        child.on('error', reject);
        if (options.input !== undefined) child.stdin.end(options.input);
        child.on('close', (code) => {
          clearTimeout(timer);
          resolve({ args, code, stdout, stderr });
        });
      }),
  );
}

/**
 * The environment of this process without the developer's LIVELOX_* settings, schema paths, colour switches and
 * proxies, with HOME and the config and cache folders in `home`: what a child bin should see so that its output depends
 * only on the test (and never reads or fills the developer's real ~/.cache).
 */
export function cleanEnv(home: string): Record<string, string> {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      (e): e is [string, string] =>
        e[1] !== undefined &&
        !e[0].startsWith('LIVELOX_') &&
        !['FORCE_COLOR', 'NO_COLOR', 'IOF_XSD', 'IOF_DTD', 'XDG_CACHE_HOME'].includes(e[0]) &&
        // A proxy of the machine the tests run on must not decide where a child's requests go.
        !/^(https?|no)_proxy$/i.test(e[0]),
    ),
  );
  return { ...env, HOME: home, XDG_CONFIG_HOME: join(home, 'config'), XDG_CACHE_HOME: join(home, 'cache') };
}
