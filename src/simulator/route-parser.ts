/**
 * Runs route parses off the request path: one worker thread, fed one job at a time, so that a 500,000-point route
 * parsing for seconds never holds up other requests. Jobs wait in a queue that holds only a callback for the data
 * (the route record keeps the data; an evicted route's job finds none and is skipped), so queued uploads are not
 * held twice. From the TypeScript sources (the test runner) there is no compiled worker file to start: the parse then
 * runs in-process after the answer to the POST has been sent, the same results but blocking while it runs.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { parseFailure, parseRouteData, type ParsedRoute } from './route-parse.js';

interface Job {
  id: number;
  data: () => string | undefined;
  done: (result: ParsedRoute | undefined) => void;
}

const WORKER_FILE = new URL('./route-parse-worker.js', import.meta.url);

export class RouteParser {
  readonly #queue: Job[] = [];
  #worker: Worker | undefined;
  #running: Job | undefined;
  #nextId = 0;
  #closed = false;
  readonly #useWorker = existsSync(fileURLToPath(WORKER_FILE));

  /** Whether parses run in a worker thread (the built package) or in-process (the sources). */
  get inWorker(): boolean {
    return this.#useWorker;
  }

  /** Parses the data `data()` gives when the job's turn comes; `undefined` when it gives none (route evicted). */
  parse(data: () => string | undefined): Promise<ParsedRoute | undefined> {
    return new Promise((resolve) => {
      this.#queue.push({ id: ++this.#nextId, data, done: resolve });
      this.#pump();
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const job of this.#queue.splice(0)) job.done(undefined);
    this.#running?.done(undefined);
    this.#running = undefined;
    await this.#worker?.terminate();
    this.#worker = undefined;
  }

  #pump(): void {
    if (this.#running || this.#closed) return;
    const job = this.#queue.shift();
    if (!job) return;
    const data = job.data();
    if (data === undefined) {
      job.done(undefined);
      this.#pump();
      return;
    }
    this.#running = job;
    if (!this.#useWorker) {
      // After the current answer is written, so that the POST itself is answered first.
      setImmediate(() => this.#finish(job, parseRouteData(data)));
      return;
    }
    this.#ensureWorker().postMessage({ id: job.id, data });
  }

  #finish(job: Job, result: ParsedRoute | undefined): void {
    if (this.#running !== job) return;
    this.#running = undefined;
    job.done(result);
    this.#pump();
  }

  #ensureWorker(): Worker {
    if (this.#worker) return this.#worker;
    const worker = new Worker(WORKER_FILE);
    // The queue keeps the process alive while jobs wait; an idle worker must not.
    worker.unref();
    worker.on('message', (m: { id: number; result: ParsedRoute }) => {
      if (this.#running?.id === m.id) this.#finish(this.#running, m.result);
    });
    const fail = (err: unknown) => {
      this.#worker = undefined;
      const job = this.#running;
      if (job) this.#finish(job, parseFailure(err));
    };
    worker.on('error', fail);
    worker.on('exit', (code) => {
      if (this.#worker === worker && !this.#closed) fail(new Error(`parser worker exited with code ${code}`));
    });
    this.#worker = worker;
    return worker;
  }
}
