/**
 * Running xmllint: the WebAssembly libxml2 of xmllint-wasm in a worker thread of our own (so that a deadline can stop
 * it), the memory it may grow to, and which of its exit codes still mean "the documents were checked".
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { memoryPages } from 'xmllint-wasm';
import { abortReason } from '../../core/sleep.js';

/** One xmllint run as the validator hands it over. */
export interface XmllintRun {
  documents: ReadonlyArray<{ fileName: string; bytes: Uint8Array }>;
  schema: { fileName: string; bytes: Uint8Array };
  /** WebAssembly memory limit in 64 KiB pages. */
  maxMemoryPages: number;
  /** Aborted at the batch's deadline: the runner stops xmllint and rejects. */
  signal?: AbortSignal;
}

/** xmllint's exit code and everything it wrote to stderr. */
export interface XmllintOutput {
  exitCode: number;
  stderr: string;
}

/**
 * WebAssembly memory libxml2 may grow to. It holds the whole document tree: measured 96 MiB for an 11 MB CourseData
 * and 448 MiB for a 57 MB one (about 8 bytes per byte of XML), while the 32 MiB default fails from about 3 MB. The
 * limit is reserved address space, not memory in use, so it is generous. Streaming mode would need less but reports
 * wrong lines and calls a malformed document valid. xmllint frees each document before the next, so a batch needs what
 * its largest document needs.
 */
export function maxMemoryPagesFor(largestDocumentBytes: number): number {
  const bytes = 64 * 1024 * 1024 + 10 * largestDocumentBytes;
  const pages = Math.ceil(bytes / (64 * 1024));
  return Math.min(memoryPages.max, Math.max(memoryPages.defaultMaxMemoryPages, pages));
}

/** xmllint's exit codes that still mean "documents checked": 1 parse error, 3 invalid, 4 unreadable document. */
export const CHECKED_EXIT_CODES = new Set([0, 1, 3, 4]);
export const SCHEMA_COMPILE_EXIT_CODE = 5;
export const OUT_OF_MEMORY_EXIT_CODE = 9;

/** xmllint-wasm's worker script: the WebAssembly xmllint behind its `validateXML`. */
const XMLLINT_WORKER = createRequire(import.meta.url).resolve('xmllint-wasm/xmllint-node.js');
/** The key xmllint-wasm's worker marks its messages with (and expects on ours). */
const XMLLINT_MESSAGE_KEY = 'xmllint-wasm';

/**
 * The default runner: xmllint-wasm's worker, driven the way its `validateXML` drives it (`--schema <xsd> --noout
 * <files>`, files in an in-memory file system), but with the worker in our hands so that a deadline can stop it:
 * `validateXML` offers no way to. Rejects with the signal's reason when `run.signal` aborts, and when the worker dies.
 */
export function runXmllintWasm(run: XmllintRun): Promise<XmllintOutput> {
  const { signal } = run;
  if (signal?.aborted) return Promise.reject(abortReason(signal));
  return new Promise<XmllintOutput>((resolve, reject) => {
    const worker = new Worker(XMLLINT_WORKER);
    let done = false;
    const finish = (settle: () => void): void => {
      if (done) return;
      done = true;
      signal?.removeEventListener('abort', onAbort);
      worker.removeAllListeners();
      // An error event after the answer (or after terminate) must not become an unhandled 'error'.
      worker.on('error', () => undefined);
      void worker.terminate();
      settle();
    };
    const onAbort = (): void => finish(() => reject(abortReason(signal!)));
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (message: unknown) => {
      const m = message as { [XMLLINT_MESSAGE_KEY]?: unknown; exitCode?: unknown; stderr?: unknown } | null;
      if (m?.[XMLLINT_MESSAGE_KEY] !== true) return;
      const exitCode = typeof m.exitCode === 'number' ? m.exitCode : -1;
      finish(() => resolve({ exitCode, stderr: typeof m.stderr === 'string' ? m.stderr : '' }));
    });
    worker.on('error', (error) => finish(() => reject(error)));
    worker.on('exit', (code) =>
      finish(() => reject(new Error(`the xmllint worker exited (code ${code}) without an answer`))),
    );
    worker.postMessage({
      [XMLLINT_MESSAGE_KEY]: true,
      inputFiles: [
        ...run.documents.map((d) => ({ fileName: d.fileName, contents: d.bytes })),
        { fileName: run.schema.fileName, contents: run.schema.bytes },
      ],
      args: ['--schema', run.schema.fileName, '--noout', ...run.documents.map((d) => d.fileName)],
      initialMemory: memoryPages.defaultInitialMemoryPages,
      maxMemory: run.maxMemoryPages,
    });
  });
}
