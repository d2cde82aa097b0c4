/**
 * The simulator's HTTP server: one port, four areas. `/api` is the service's REST API ({base_url}), `/auth` its
 * OAuth2 endpoints ({auth_url}), `/viewer` its viewer pages ({viewer_url}), `/_simulator` the simulator's own control
 * endpoints. Distinct path prefixes make a client that mixes up the three addresses fail loudly.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Api } from './api.js';
import { Churn } from './churn.js';
import { SimClock } from './clock.js';
import { handleControl } from './control.js';
import { generateDataset } from './dataset/generate.js';
import { FAULT_KINDS, FaultInjector, type Fault } from './faults.js';
import type { SimRequest, SimResponse } from './http.js';
import { message } from './http.js';
import { handleOAuth } from './oauth.js';
import { validateOptions, type SimulatorOptions } from './options.js';
import { Random } from './random.js';
import { importDelayDraw } from './route-import.js';
import { ALL_SCOPES, SimState } from './state.js';
import { SimStats } from './stats.js';
import { handleViewer } from './viewer.js';
import { modifiedNotAfter, SimWorld } from './world.js';

// Declared beside their checks; named here too, where callers of startSimulator look for them.
export type { SimulatorOptions } from './options.js';

/** The line `livelox-bridge simulator --json` prints when ready. */
export interface SimulatorInfo {
  baseUrl: string;
  authUrl: string;
  viewerUrl: string;
  apiKey: string;
  clientId: string;
  limitedApiKey: string;
  controlUrl: string;
}

const MAX_BODY_BYTES = 64 * 1024 * 1024;

export class Simulator {
  readonly state: SimState;
  /** Creates, changes and deletes events, stamped with the simulated clock; the control endpoints call it too. */
  readonly world: SimWorld;
  readonly stats = new SimStats();
  readonly faults: FaultInjector;
  readonly info: SimulatorInfo;
  readonly #server: Server;
  readonly #api: Api;
  readonly #latencyMs: number;
  readonly #expiredTokenStatus: 401 | 403;
  readonly #churn: number;
  readonly #sockets = new Set<Socket>();
  readonly #timers = new Set<NodeJS.Timeout>();
  #closing = false;

  private constructor(server: Server, info: SimulatorInfo, state: SimState, options: SimulatorOptions) {
    this.#server = server;
    this.info = info;
    this.state = state;
    this.world = new SimWorld(state);
    const seed = options.seed ?? 1;
    if (options.churn) {
      const churn = new Churn(this.world, state, { rate: options.churn, seed });
      state.clock.onAdvance((move) => churn.advance(move));
    }
    this.#churn = options.churn ?? 0;
    // Separate streams, so that adding a fault draw never shifts the import delays of a seeded run.
    const random = Random.derive(seed, 0xfa17);
    this.faults = new FaultInjector(
      {
        rate: options.faultRate ?? 0,
        kinds: options.faultKinds ?? FAULT_KINDS,
        stallMs: options.faultStallMs ?? 10_000,
        retryAfterS: options.retryAfterS ?? 1,
      },
      random,
    );
    this.#latencyMs = options.latencyMs ?? 0;
    this.#expiredTokenStatus = options.expiredTokenStatus ?? 401;
    const delayRandom = Random.derive(seed, 0xde1a);
    this.#api = new Api(state, {
      viewerUrl: info.viewerUrl,
      expiredTokenStatus: this.#expiredTokenStatus,
      importDelay: importDelayDraw(options.importDelayMs, delayRandom),
    });
  }

  static async start(options: SimulatorOptions = {}): Promise<Simulator> {
    validateOptions(options);
    const dataset = options.dataset ?? generateDataset({ seed: options.seed ?? 1, events: options.events ?? 300 });
    const clock = new SimClock();
    const state = new SimState(modifiedNotAfter(dataset, clock.now()), clock);
    const apiKey = options.apiKey ?? `sim_${randomBytes(18).toString('base64url')}`;
    const limitedApiKey = options.limitedApiKey ?? `sim_limited_${randomBytes(18).toString('base64url')}`;
    const clientId = options.clientId ?? 'livelox-bridge-sim';
    state.apiKeys.set(apiKey, { appId: 'sim-app', scopes: new Set(ALL_SCOPES) });
    state.apiKeys.set(limitedApiKey, { appId: 'sim-app-limited', scopes: new Set(['routes.import']) });
    state.clients.set(clientId, {
      clientId,
      name: 'livelox-bridge (simulated registration)',
      allowLoopbackRedirect: true,
      redirectUris: [],
    });
    state.users.set('sim-user-1', {
      id: 'sim-user-1',
      firstName: 'Sigrid',
      lastName: 'Simulatorsson',
      email: 'sigrid@example.org',
    });

    // eslint-disable-next-line prefer-const -- assigned after listen, read by the request handler declared before it
    let sim: Simulator | undefined;
    const server = createServer({ keepAliveTimeout: 10_000 }, (req, res) => {
      if (sim) void sim.#onRequest(req, res);
      else res.destroy();
    });
    const host = options.host ?? '127.0.0.1';
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    const { port } = server.address() as AddressInfo;
    const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
    const info: SimulatorInfo = {
      baseUrl: `${origin}/api`,
      authUrl: `${origin}/auth`,
      viewerUrl: `${origin}/viewer`,
      apiKey,
      clientId,
      limitedApiKey,
      controlUrl: `${origin}/_simulator`,
    };
    sim = new Simulator(server, info, state, options);
    server.on('connection', (socket) => {
      sim.#sockets.add(socket);
      socket.on('close', () => sim.#sockets.delete(socket));
    });
    return sim;
  }

  /** Addresses and a summary of what is served, without the secrets. */
  describe(): Record<string, unknown> {
    const events = this.state.dataset.events;
    // A loop, not Math.min(...): a large dataset would overflow the argument list.
    let first = Infinity;
    let last = -Infinity;
    for (const e of events) {
      first = Math.min(first, e.startMs);
      last = Math.max(last, e.endMs);
    }
    return {
      baseUrl: this.info.baseUrl,
      authUrl: this.info.authUrl,
      viewerUrl: this.info.viewerUrl,
      controlUrl: this.info.controlUrl,
      clientId: this.info.clientId,
      events: events.length,
      countriesWithEvents: [...this.state.countriesWithEvents].sort(),
      firstEvent: events.length ? new Date(first).toISOString() : null,
      lastEvent: events.length ? new Date(last).toISOString() : null,
      faultRate: this.faults.settings.rate,
      churn: this.#churn,
      clock: new Date(this.state.clock.now()).toISOString(),
    };
  }

  /** Posted routes with their import state, for assertions ("each route imported exactly once"). */
  routes(): Array<Record<string, unknown>> {
    return [...this.state.routes.values()].map((r) => ({
      id: r.id,
      identity: r.identity,
      postCount: r.postCount,
      status: this.#api.importRecord(r).status,
      eventId: r.result?.eventId,
      classId: r.result?.classId ?? r.classId,
      person: r.person,
      deviceModel: r.deviceModel,
    }));
  }

  async close(): Promise<void> {
    if (this.#closing) return;
    this.#closing = true;
    for (const t of this.#timers) clearTimeout(t);
    this.#timers.clear();
    const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
    this.#server.closeIdleConnections();
    for (const s of this.#sockets) s.destroy();
    await closed;
  }

  async #onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let endpoint = `${req.method ?? 'GET'} ${req.url ?? '/'}`;
    try {
      const body = await readBody(req);
      if (body === undefined) {
        this.#send(res, endpoint, message(413, `The request body is larger than ${MAX_BODY_BYTES} bytes.`));
        return;
      }
      const url = new URL(req.url ?? '/', `http://${req.headers.host ?? '127.0.0.1'}`);
      const [, area = '', rest = ''] = /^\/([^/]*)(\/.*)?$/.exec(url.pathname) ?? [];
      const simReq: SimRequest = { method: req.method ?? 'GET', url, path: rest, headers: req.headers, body };
      endpoint = `${simReq.method} /${area}${rest}`;
      switch (area) {
        case 'api':
          await this.#onApi(simReq, res);
          return;
        case 'auth': {
          const answer = handleOAuth(simReq, this.state, { expiredTokenStatus: this.#expiredTokenStatus });
          await this.#delay();
          this.#send(res, `${simReq.method} /auth${rest}`, answer ?? notFound(simReq, url));
          return;
        }
        case 'viewer':
          this.#send(res, 'GET /viewer', handleViewer(simReq, this.state));
          return;
        case '_simulator':
          this.#send(res, '_simulator', handleControl(simReq, this));
          return;
        default:
          this.#send(res, 'unknown', notFound(simReq, url));
      }
    } catch (err) {
      // A bug in the simulator must show as a 500 with its message, never as a hung request.
      this.#send(res, endpoint, message(500, `Simulator error: ${err instanceof Error ? err.message : String(err)}`));
    }
  }

  async #onApi(req: SimRequest, res: ServerResponse): Promise<void> {
    const matched = this.#api.match(req);
    if (!matched) {
      this.#send(res, 'unknown', notFound(req, req.url));
      return;
    }
    if ('methodNotAllowed' in matched) {
      this.#send(
        res,
        'unknown',
        message(
          405,
          `${req.method} is not allowed on ${req.url.pathname}; use ${matched.methodNotAllowed.join(', ')}.`,
          { allow: matched.methodNotAllowed.join(', ') },
        ),
      );
      return;
    }
    const name = matched.route.name;
    const fault = this.faults.draw();
    if (fault?.phase === 'before') {
      await this.#inflict(fault, res, name);
      return;
    }
    const answer = await this.#api.handle(req, matched.route, matched.params);
    if (fault) {
      await this.#inflict(fault, res, name);
      return;
    }
    await this.#delay();
    this.#send(res, name, answer);
  }

  async #inflict(fault: Fault, res: ServerResponse, endpoint: string): Promise<void> {
    this.stats.fault(fault.kind);
    this.stats.record(endpoint, `fault:${fault.kind}`);
    const s = this.faults.settings;
    switch (fault.kind) {
      case '429':
        await this.#delay();
        this.#write(res, message(429, 'Too many requests.', { 'retry-after': String(s.retryAfterS) }));
        return;
      case '500':
      case '502':
      case '503': {
        await this.#delay();
        const status = Number(fault.kind);
        this.#write(
          res,
          message(status, `Injected fault: ${status}.`, status === 503 ? { 'retry-after': String(s.retryAfterS) } : {}),
        );
        return;
      }
      case 'reset':
        resetSocket(res.socket);
        return;
      case 'stall': {
        // Hang without a byte, then drop the connection: what a dead upstream looks like from the client.
        const timer = setTimeout(() => {
          this.#timers.delete(timer);
          resetSocket(res.socket);
        }, s.stallMs);
        this.#timers.add(timer);
        res.on('close', () => {
          clearTimeout(timer);
          this.#timers.delete(timer);
        });
        return;
      }
    }
  }

  async #delay(): Promise<void> {
    if (this.#latencyMs > 0 && !this.#closing) await new Promise((r) => setTimeout(r, this.#latencyMs));
  }

  #send(res: ServerResponse, endpoint: string, answer: SimResponse): void {
    this.stats.record(endpoint, answer.status);
    this.#write(res, answer);
  }

  #write(res: ServerResponse, answer: SimResponse): void {
    if (res.destroyed || res.headersSent) return;
    const body = answer.body ?? '';
    res.writeHead(answer.status, {
      ...answer.headers,
      'content-length': String(Buffer.byteLength(body)),
      // The service's clock is the simulated one: a job taking its cursor from Date must see that, not this machine's.
      date: new Date(this.state.clock.now()).toUTCString(),
    });
    res.end(body);
  }
}

function notFound(req: SimRequest, url: URL): SimResponse {
  return message(
    404,
    `No such endpoint: ${req.method} ${url.pathname}. The simulator serves the API under /api, OAuth2 under /auth, viewer pages under /viewer and its controls under /_simulator.`,
  );
}

function resetSocket(socket: Socket | null): void {
  if (!socket) return;
  // A TCP reset (not a clean FIN): the client sees ECONNRESET, as when a proxy dies mid-request.
  if (typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
  else socket.destroy();
}

async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(buf);
  }
  return Buffer.concat(chunks);
}

/** Starts a simulator; `await sim.close()` when done. */
export function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  return Simulator.start(options);
}
