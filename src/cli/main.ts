#!/usr/bin/env node
/** The `livelox-bridge` executable: wires the process (stdio, environment, signals) to runCli. */
import { runCli } from './run.js';
import { exitCodeForSignal, SignalReceived, type EndingSignal } from './signals.js';
import { EXIT } from './spec.js';

const controller = new AbortController();

// A reader that stops reading (`livelox-bridge countries | head -1`) closes the pipe: that is the reader's choice, not
// a failure. The command is stopped as Ctrl-C stops it (its cleanup runs: a journal is written, a commit finishes or
// is not made), prints nothing more, and the process ends with exit 0, as Unix tools do.
let pipeClosed = false;
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
    pipeClosed = true;
    controller.abort(new Error('output pipe closed'));
  });
}

let signals = 0;
let lastSignal: EndingSignal | undefined;
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, () => {
    signals++;
    lastSignal = sig;
    // A second Ctrl-C while shutting down means: stop now.
    if (signals > 1) process.exit(exitCodeForSignal(sig));
    controller.abort(new SignalReceived(sig));
  });
}

const code = await runCli(process.argv.slice(2), {
  io: {
    out: (text) => {
      if (!pipeClosed) process.stdout.write(`${text}\n`);
    },
    err: (text) => {
      if (!pipeClosed) process.stderr.write(`${text}\n`);
    },
  },
  env: process.env,
  signal: controller.signal,
});
// An interrupted command exits 130 (Ctrl-C); ended by SIGTERM, 143: 128 + the signal's number, as shells report it.
process.exitCode = pipeClosed
  ? 0
  : code === EXIT.interrupted && lastSignal !== undefined
    ? exitCodeForSignal(lastSignal)
    : code;
