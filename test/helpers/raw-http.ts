/**
 * HTTP/1.1 over raw sockets (node:net), for the simulator's tests of careless and hostile clients: what undici refuses
 * to send (malformed requests, a body trickled a byte at a time) can be sent too.
 */
import { connect, type Socket } from 'node:net';

export interface RawAnswer {
  status: number | undefined;
  head: string;
  body: string;
}

/** The status, head and body of what a server sent (the first answer when several came). */
function parseAnswer(bytes: Buffer): RawAnswer {
  const all = bytes.toString('latin1');
  const at = all.indexOf('\r\n\r\n');
  const head = at < 0 ? all : all.slice(0, at);
  const m = /^HTTP\/1\.1 (\d{3})/.exec(head);
  return { status: m ? Number(m[1]) : undefined, head, body: at < 0 ? '' : all.slice(at + 4) };
}

/** Sends `text` on a fresh connection and reads until the server closes it (or `waitMs` passes). */
export function raw(port: number, text: string | Buffer, waitMs = 5000): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(parseAnswer(Buffer.concat(chunks)));
    };
    const timer = setTimeout(done, waitMs);
    socket.on('data', (d) => chunks.push(d));
    socket.on('close', done);
    // The server may answer and close while we still write (a refused body): that is the expected end, not a failure.
    socket.on('error', (err: NodeJS.ErrnoException) =>
      err.code === 'ECONNRESET' || err.code === 'EPIPE' ? done() : reject(err),
    );
    socket.write(text);
  });
}

/** The head of a route upload (`POST /api/importableRoutes`) declaring `length` body bytes. */
export function routeUploadHead(apiKey: string, length: number): string {
  return [
    'POST /api/importableRoutes HTTP/1.1',
    'Host: 127.0.0.1',
    `ApiKey: ${apiKey}`,
    'Content-Type: application/json',
    `Content-Length: ${length}`,
    'Connection: close',
    '',
    '',
  ].join('\r\n');
}

/**
 * A client that sends `head`, then one byte of body every `everyMs` (if given) until the server answers or closes: the
 * slow uploader a shared simulator must not let hold it. `ended` resolves with what the server sent once it closed.
 */
export class Trickle {
  readonly #socket: Socket;
  readonly #timer: NodeJS.Timeout | undefined;
  readonly #received: Buffer[] = [];
  /** Bytes of body sent so far. */
  sent = 0;
  /** Whether the server has sent anything or closed the connection. */
  answered = false;
  readonly ended: Promise<RawAnswer>;

  constructor(port: number, head: string, everyMs?: number) {
    this.#socket = connect(port, '127.0.0.1');
    this.#socket.write(head);
    if (everyMs !== undefined) {
      this.#timer = setInterval(() => {
        if (this.#socket.writable) this.#socket.write('{', () => this.sent++);
      }, everyMs);
    }
    this.ended = new Promise((resolve) => {
      const done = () => {
        this.answered = true;
        clearInterval(this.#timer);
        this.#socket.destroy();
        resolve(parseAnswer(Buffer.concat(this.#received)));
      };
      this.#socket.on('data', (d) => {
        this.answered = true;
        this.#received.push(d);
      });
      this.#socket.on('close', done);
      this.#socket.on('error', done);
    });
  }

  /** Sends `bytes` of body at once. */
  send(bytes: string | Buffer): Promise<void> {
    return new Promise((resolve, reject) => this.#socket.write(bytes, (err) => (err ? reject(err) : resolve())));
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#socket.destroy();
  }
}

/** Whether a TCP connection to `port` on loopback is refused (nothing listens). */
export function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
  });
}

/** Waits until `check` holds, looking every 20 ms for at most 20 s (a bound for a loaded machine, not a measure). */
export async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`not reached within 20 s: ${what}`);
}
