#!/usr/bin/env node
/** The `livelox-bridge` executable: wires the process (stdio, environment, signals) to runCli. */
import { runCli } from './run.js';

// A reader that stops reading (`livelox-bridge countries | head -1`) closes the pipe: that is the reader's choice, not
// a failure, so the command ends at once, quietly, with exit 0, as Unix tools do.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
    throw err;
  });
}

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
