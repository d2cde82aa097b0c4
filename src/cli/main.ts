#!/usr/bin/env node
/** The `livelox-bridge` executable: wires the process (stdio, environment, signals) to runCli. */
import { runCli } from './run.js';

const controller = new AbortController();
let signals = 0;
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, () => {
    signals++;
    // A second Ctrl-C while shutting down means: stop now.
    if (signals > 1) process.exit(130);
    controller.abort(new Error(`received ${sig}`));
  });
}

const code = await runCli(process.argv.slice(2), {
  io: {
    out: (text) => process.stdout.write(`${text}\n`),
    err: (text) => process.stderr.write(`${text}\n`),
  },
  env: process.env,
  signal: controller.signal,
});
process.exitCode = code;
