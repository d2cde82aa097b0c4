/**
 * The simulator's HTTP server: one port, four areas. `/api` is the service's REST API ({base_url}), `/auth` its OAuth2
 * endpoints ({auth_url}), `/viewer` its viewer pages ({viewer_url}), `/_simulator` the simulator's own control
 * endpoints. Distinct path prefixes make a client that mixes up the three addresses fail loudly. About 750 lines
 * because it is one job, a request's life from admission (request-limits.ts: size, credentials and budget checked
 * before the body is read; request-body.ts: the body read under the budget and a minimum rate) through dispatch to the
 * answer or to the outcome a scenario, the fault script or the fault rate chose (outcomes.ts), and the drain when it
 * closes; splitting it further would scatter it.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Api, type ApiRoute } from './api.js';
import { Churn } from './churn.js';
import { SimClock } from './clock.js';
import { handleControl } from './control.js';
import { generateDataset } from './dataset/generate.js';
import { FAULT_KINDS, FaultInjector } from './faults.js';
import type { SimRequest, SimResponse } from './http.js';
import { badRequest, bodyBuffer, bodyBytes, message, type SimBody } from './http.js';
import { RequestJournal, type SimJournal } from './journal.js';
import { handleOAuth } from './oauth.js';
import { openApiDocument, servedRoutes, type ServedRoute } from './openapi.js';
import { cutBody, strikesAfter, type Outcome } from './outcomes.js';
import { parseScenario, SCENARIO_HEADER, type ScenarioParse } from './scenarios.js';
import { expiredToken } from './auth.js';
import { validateOptions, type SimulatorOptions } from './options.js';
import { Random } from './random.js';
import { InFlight } from './in-flight.js';
import {
  BodyBudget,
  DEFAULT_MIN_BODY_BYTES_PER_SECOND,
  DEFAULT_SLOW_BODY_GRACE_MS,
  readBody,
  type BodyRate,
  type BodyRead,
} from './request-body.js';
import {
  bodyRefusal,
  busy,
  declaredBodyBytes,
  DEFAULT_BODY_BYTES_IN_FLIGHT,
  MAX_SMALL_BODY_BYTES,
  methodNotAllowed,
  notFound,
  requestTarget,
  shuttingDown,
  tooLarge,
} from './request-limits.js';
import { SimImportableEvents } from './importable-events.js';
import { importablePage } from './importable-page.js';
import { importDelayDraw } from './route-import.js';
import { RouteParser } from './route-parser.js';
import { ALL_SCOPES, SimState, type Principal } from './state.js';
import { MAX_ROUTE_BODY_BYTES } from '../resources/routes.js';
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
  /** A key of another application, with every scope: another user's importable events are not its own. */
  otherApiKey: string;
  controlUrl: string;
}

/** Default of `requestTimeoutMs`: headers and body of a request must have arrived within 30 s. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/** Defaults of the route store: routes kept, and bytes of their data (two of the largest uploads). */
export const DEFAULT_MAX_ROUTES = 10_000;
export const DEFAULT_MAX_ROUTE_BYTES = 2 * MAX_ROUTE_BODY_BYTES;
/** Default of `drainTimeoutMs`: requests in flight have 10 s to finish when the simulator is closed. */
export const DEFAULT_DRAIN_TIMEOUT_MS = 10_000;

export class Simulator {
  readonly state: SimState;
  /** Creates, changes and deletes events, stamped with the simulated clock; the control endpoints call it too. */
  readonly world: SimWorld;
  readonly stats = new SimStats();
  /** The Event Integration API's importable events (observed, not published); the control endpoints reach it too. */
  readonly importableEvents: SimImportableEvents;
  readonly faults: FaultInjector;
  /** Every request and its answer, secrets redacted: `GET /_simulator/journal`. */
  readonly journal: SimJournal;
  /** The same journal, as the server writes it. */
  readonly #journal: RequestJournal;
  readonly info: SimulatorInfo;
  readonly #server: Server;
  readonly #api: Api;
  readonly #latencyMs: number;
  readonly #expiredTokenStatus: 401 | 403;
  /** Changes the world as the clock is advanced; its rate is 0 (nothing happens) unless set. */
  readonly #churn: Churn;
  readonly #sockets = new Set<Socket>();
  /** Requests hanging in an injected stall; each entry ends its stall at once (the reset it was going to get). */
  readonly #stalls = new Set<() => void>();
  readonly #bodies: BodyBudget;
  readonly #bodyRate: BodyRate;
  readonly #inFlight = new InFlight();
  readonly #drainTimeoutMs: number;
  readonly #parser = new RouteParser();
  /** Whether `X-Simulator-Scenario` is honoured. */
  readonly #scenarios: boolean;
  /** What the journal needs of each request being answered, until its response closes. */
  readonly #trips = new WeakMap<ServerResponse, Trip>();
  #closing = false;
  #closed: Promise<void> | undefined;

  private constructor(
    server: Server,
    info: SimulatorInfo,
    state: SimState,
    journal: RequestJournal,
    options: SimulatorOptions,
  ) {
    this.#server = server;
    this.info = info;
    this.state = state;
    this.world = new SimWorld(state);
    const seed = options.seed ?? 1;
    // Always listening, so that churn can be switched on while the simulator runs; at rate 0 an advance costs nothing.
    const churn = new Churn(this.world, state, { rate: options.churn ?? 0, seed });
    state.clock.onAdvance((move) => churn.advance(move));
    this.#churn = churn;
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
    this.journal = journal;
    this.#journal = journal;
    this.#scenarios = options.scenarios ?? true;
    this.#latencyMs = options.latencyMs ?? 0;
    this.#expiredTokenStatus = options.expiredTokenStatus ?? 401;
    state.refreshTokenRotation = options.refreshTokenRotation ?? false;
    this.#bodies = new BodyBudget(options.maxBodyBytesInFlight ?? DEFAULT_BODY_BYTES_IN_FLIGHT);
    this.#bodyRate = {
      minBytesPerSecond: options.minBodyBytesPerSecond ?? DEFAULT_MIN_BODY_BYTES_PER_SECOND,
      graceMs: options.slowBodyGraceMs ?? DEFAULT_SLOW_BODY_GRACE_MS,
    };
    this.#drainTimeoutMs = options.drainTimeoutMs ?? DEFAULT_DRAIN_TIMEOUT_MS;
    state.routeLimits = {
      maxRoutes: options.maxRoutes ?? DEFAULT_MAX_ROUTES,
      maxBytes: options.maxRouteBytes ?? DEFAULT_MAX_ROUTE_BYTES,
    };
    const delayRandom = Random.derive(seed, 0xde1a);
    this.importableEvents = new SimImportableEvents(state, this.world, info.viewerUrl, {
      notFoundWithoutFiles: options.importableNotFoundWithoutFiles === true,
    });
    this.#api = new Api(
      state,
      {
        viewerUrl: info.viewerUrl,
        expiredTokenStatus: this.#expiredTokenStatus,
        importDelay: importDelayDraw(options.importDelayMs, delayRandom),
        parser: this.#parser,
      },
      this.importableEvents.routes(),
    );
  }

  static async start(options: SimulatorOptions = {}): Promise<Simulator> {
    validateOptions(options);
    const dataset = options.dataset ?? generateDataset({ seed: options.seed ?? 1, events: options.events ?? 300 });
    const clock = new SimClock();
    const state = new SimState(modifiedNotAfter(dataset, clock.now()), clock);
    const { apiKey, limitedApiKey, otherApiKey, clientId } = seedCredentials(state, options);

    // Opened before the port, so that a journal file that cannot be written leaves nothing listening.
    const journal = new RequestJournal(state, {
      ...(options.journalEntries === undefined ? {} : { entries: options.journalEntries }),
      ...(options.journalFile === undefined ? {} : { file: options.journalFile }),
    });
    // eslint-disable-next-line prefer-const -- assigned after listen, read by the request handler declared before it
    let sim: Simulator | undefined;
    const requestTimeout = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    const server = createServer(
      {
        keepAliveTimeout: 10_000,
        // A client trickling its headers or body is cut off (408) once the request is this old, so that slow clients
        // cannot hold sockets and body budget for ever. Node checks at this interval: a fraction of the timeout.
        requestTimeout,
        headersTimeout: requestTimeout,
        connectionsCheckingInterval: Math.max(50, Math.min(30_000, Math.floor(requestTimeout / 4))),
      },
      (req, res) => {
        if (sim) sim.#accept(req, res);
        else res.destroy();
      },
    );
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
      otherApiKey,
      controlUrl: `${origin}/_simulator`,
    };
    sim = new Simulator(server, info, state, journal, options);
    server.on('connection', (socket) => {
      sim.#sockets.add(socket);
      socket.on('close', () => sim.#sockets.delete(socket));
    });
    return sim;
  }

  /** The share of events that change per simulated day while the clock is advanced (0: none). */
  get churn(): number {
    return this.#churn.rate;
  }

  /** Changes the churn rate (0..1) from now on; the control endpoint `PUT /_simulator/churn` calls it. */
  setChurn(rate: number): void {
    this.#churn.rate = rate;
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
      churn: this.churn,
      refreshTokenRotation: this.state.refreshTokenRotation,
      scenarios: this.#scenarios,
      journal: { entries: this.#journal.size, cap: this.#journal.cap, dropped: this.#journal.dropped },
      clock: new Date(this.state.clock.now()).toISOString(),
      routeParsing: this.#parser.inWorker ? 'worker thread' : 'in-process',
    };
  }

  /** What the process holds, for integrators bounding a shared simulator (and the tests that check the bounds). */
  memory(): Record<string, number> {
    return {
      ...process.memoryUsage(),
      // Peak resident set of the process so far (kB in resourceUsage): a short spike between two samples counts too.
      maxRss: process.resourceUsage().maxRSS * 1024,
      routes: this.state.routes.size,
      routeBytes: this.state.routeBytes,
      evictedRoutes: this.state.evictedRoutes,
      bodyBytesInFlight: this.#bodies.usedBytes,
      // This request included.
      requestsInFlight: this.#inFlight.size,
    };
  }

  /** The OpenAPI 3.1 document of the contract served, with this simulator's addresses (`GET /_simulator/openapi.json`). */
  openApi(): Record<string, unknown> {
    return openApiDocument(this.info);
  }

  /** The contract's endpoints served, from the tables requests are dispatched by (the document is checked with it). */
  servedRoutes(): ServedRoute[] {
    return servedRoutes(this.#api.routes);
  }

  /** Requests being answered now (their response not yet closed); `close()` waits for them. */
  get requestsInFlight(): number {
    return this.#inFlight.size;
  }

  /** How long `close()` lets the requests in flight finish (`drainTimeoutMs`). */
  get drainTimeoutMs(): number {
    return this.#drainTimeoutMs;
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

  /**
   * Stops taking connections at once and lets the requests in flight finish, up to `drainTimeoutMs`: their answers
   * close their connections, a request arriving meanwhile on an open connection gets 503, a request in an injected
   * stall is reset now (what it was going to get), and whatever still runs at the deadline is cut off. Resolves once
   * all is closed; a second call waits for the same.
   */
  close(): Promise<void> {
    this.#closed ??= this.#shutDown();
    return this.#closed;
  }

  async #shutDown(): Promise<void> {
    this.#closing = true;
    for (const endStall of this.#stalls) endStall();
    // Closes the listening socket (a new connection is refused) and the idle keep-alive connections.
    const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
    this.#server.closeIdleConnections();
    await this.#inFlight.settle(this.#drainTimeoutMs);
    for (const s of this.#sockets) s.destroy();
    await closed;
    await this.#parser.close();
    await this.#journal.close();
  }

  #accept(req: IncomingMessage, res: ServerResponse): void {
    this.#track(req, res);
    if (this.#closing) {
      this.#refuse(req, res, 'unknown', shuttingDown(this.faults.settings.retryAfterS));
      return;
    }
    this.#inFlight.track(res);
    void this.#onRequest(req, res);
  }

  async #onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let endpoint = 'unknown';
    let charged = 0;
    try {
      const target = requestTarget(req);
      if (!target.ok) {
        this.#refuse(req, res, endpoint, target.answer);
        return;
      }
      const url = target.url;
      const trip = this.#trips.get(res);
      if (trip) trip.url = url;
      const method = req.method ?? 'GET';
      const [, area = '', rest = ''] = /^\/([^/]*)(\/.*)?$/.exec(url.pathname) ?? [];
      endpoint = `${method} /${area}${rest}`;
      const head = { method, url, path: rest, headers: req.headers };
      // The body's size and the caller's credentials are checked before a byte of the body is read.
      const matched = area === 'api' ? this.#api.match(head) : undefined;
      const limit = (matched && 'route' in matched && matched.route.maxBodyBytes) || MAX_SMALL_BODY_BYTES;
      const declared = declaredBodyBytes(req, limit);
      if (declared === 'too_large') {
        this.#refuse(req, res, endpoint, tooLarge(limit));
        return;
      }
      let api: { route: ApiRoute; params: RegExpExecArray; principal: Principal } | undefined;
      if (area === 'api') {
        if (!matched || 'methodNotAllowed' in matched) {
          this.#refuse(
            req,
            res,
            'unknown',
            matched ? methodNotAllowed(method, url, matched.methodNotAllowed) : notFound(method, url),
          );
          return;
        }
        const auth = this.#api.authenticate(head);
        if (!auth.ok) {
          this.#refuse(req, res, matched.route.name, auth.response);
          return;
        }
        api = { ...matched, principal: auth.principal };
      }
      // Admitted when its declared size fits beside what the others are charged: their reserved sizes, and the bytes
      // arrived of those not yet reserved (a client trickling a large body holds what it sent, not what it declared).
      const retryAfterS = this.faults.settings.retryAfterS;
      if (!this.#bodies.admits(declared)) {
        this.#refuse(req, res, endpoint, busy(retryAfterS));
        return;
      }
      const read = declared === 0 ? EMPTY_BODY : await readBody(req, limit, this.#bodies, this.#bodyRate);
      charged = read.charged;
      if (!read.ok) {
        const answer = bodyRefusal(read.refusal, { limit, rate: this.#bodyRate, retryAfterS });
        // A client gone mid-body (or cut off by Node's request timeout, which answered 408) has nobody to answer.
        if (answer) this.#refuse(req, res, endpoint, answer);
        return;
      }
      const simReq: SimRequest = { ...head, body: read.body };
      if (trip) trip.body = read.body;
      await this.#dispatch(area, simReq, res, api);
    } catch (err) {
      // The client went away mid-body (aborted, or cut off by the request timeout, which answered 408 itself):
      // nobody is left to answer, and it was not the simulator's fault, so no 500 is counted.
      if (req.destroyed || res.destroyed || res.headersSent) return;
      // A bug in the simulator must show as a 500 with its message, never as a hung request.
      this.#send(res, endpoint, message(500, `Simulator error: ${err instanceof Error ? err.message : String(err)}`));
    } finally {
      this.#bodies.give(charged);
    }
  }

  /** Answers without reading the body; a body still on its way closes the connection, so it is never read. */
  #refuse(req: IncomingMessage, res: ServerResponse, endpoint: string, answer: SimResponse): void {
    const unread = !req.complete && declaredBodyBytes(req, Infinity) !== 0;
    this.#send(res, endpoint, unread ? { ...answer, headers: { ...answer.headers, connection: 'close' } } : answer);
  }

  /**
   * Answers an /api or /auth request: as the service would, or with what strikes it. The request's own
   * `X-Simulator-Scenario` comes first (a script does not see such a request), then the fault script's current step,
   * then the random rate (/api only): one outcome at most, carried out alike whoever chose it.
   */
  async #serve(
    req: SimRequest,
    res: ServerResponse,
    endpoint: string,
    handle: () => Promise<SimResponse>,
  ): Promise<void> {
    const trip = this.#trips.get(res);
    let outcome: Outcome | undefined;
    const scenario = this.#scenario(req);
    if (scenario?.ok === false) {
      this.#send(res, endpoint, badRequest({ [SCENARIO_HEADER]: [scenario.problem] }));
      return;
    } else if (scenario) {
      if (trip) trip.scenario = scenario.text;
      this.stats.record(endpoint, `scenario:${scenario.scenario.kind}`);
      outcome =
        scenario.scenario.kind === 'status'
          ? { message: `Scenario: status ${scenario.scenario.status}.`, ...scenario.scenario }
          : scenario.scenario;
    } else {
      const strike = this.faults.decide({ method: req.method, pathname: req.url.pathname });
      if (strike) {
        if (trip) trip.fault = strike.label;
        this.stats.fault(strike.key);
        this.stats.record(endpoint, `fault:${strike.key}`);
        outcome = strike.outcome;
      }
    }
    if (!outcome) {
      const answer = await handle();
      await this.#delay();
      this.#send(res, endpoint, answer);
      return;
    }
    await this.#carryOut(outcome, req, res, handle);
  }

  /** One outcome carried out; the request is handled first when the outcome strikes after it (outcomes.ts). */
  async #carryOut(
    outcome: Outcome,
    req: SimRequest,
    res: ServerResponse,
    handle: () => Promise<SimResponse>,
  ): Promise<void> {
    const answer = strikesAfter(outcome) ? await handle() : undefined;
    switch (outcome.kind) {
      case 'status':
        await this.#delay();
        this.#write(res, message(outcome.status, outcome.message ?? `Status ${outcome.status}.`, outcome.headers));
        return;
      case 'expired-token':
        // Only the API checks access tokens; elsewhere it would mean nothing (a script refuses such a step).
        if (!req.url.pathname.startsWith('/api/')) {
          this.#write(res, badRequest({ [SCENARIO_HEADER]: ['expired-token applies to /api requests only'] }));
          return;
        }
        await this.#delay();
        this.#write(res, expiredToken(this.#expiredTokenStatus));
        return;
      case 'reset':
        this.#reset(res);
        return;
      case 'stall':
        this.#stall(res, outcome.ms);
        return;
      case 'cut':
        await this.#delay();
        this.#cut(res, answer!, outcome.bytes);
        return;
      default: {
        // Scripts are checked before they are set (fault-script.ts); should a new kind be missed here, the compiler
        // says so, and the request is still answered.
        const unknown: never = outcome;
        this.#write(res, message(500, `Unknown fault outcome ${JSON.stringify(unknown)}.`));
      }
    }
  }

  /**
   * The answer's status and headers with its full content-length, part of its body, then the connection closed once
   * that part is sent: what a client sees when a proxy or the service dies mid-answer. An empty answer has nothing to
   * cut short: the connection is reset instead.
   */
  #cut(res: ServerResponse, answer: SimResponse, bytes: number | undefined): void {
    const body = bodyBuffer(answer.body ?? '');
    if (body.length === 0 || res.destroyed || res.headersSent) {
      this.#reset(res);
      return;
    }
    const headers = this.#headers(answer, body.length);
    const part = cutBody(body, bytes);
    const trip = this.#trips.get(res);
    if (trip) trip.answer = { status: answer.status, headers, body: part };
    res.writeHead(answer.status, headers);
    res.flushHeaders();
    // A FIN after the part, not a reset: a reset could discard what was sent before the client read it.
    res.write(part, () => res.socket?.end());
  }

  #reset(res: ServerResponse): void {
    const trip = this.#trips.get(res);
    if (trip) trip.dropped = 'reset';
    resetSocket(res.socket);
  }

  /** Hang without a byte, then drop the connection: what a dead upstream looks like from the client. */
  #stall(res: ServerResponse, ms: number): void {
    const trip = this.#trips.get(res);
    if (trip) trip.dropped = 'stall';
    const end = () => {
      clearTimeout(timer);
      this.#stalls.delete(end);
      resetSocket(res.socket);
    };
    const timer = setTimeout(end, ms);
    this.#stalls.add(end);
    res.on('close', () => {
      clearTimeout(timer);
      this.#stalls.delete(end);
    });
  }

  /** The request's `X-Simulator-Scenario` read, if it has one and scenarios are allowed. */
  #scenario(req: SimRequest): ScenarioParse | undefined {
    const header = req.headers[SCENARIO_HEADER];
    if (!this.#scenarios || header === undefined) return undefined;
    return parseScenario(Array.isArray(header) ? header.join(';') : header);
  }

  /** Hands a request whose body was read to its area: the API (its route and caller found), OAuth, viewer, controls. */
  async #dispatch(
    area: string,
    req: SimRequest,
    res: ServerResponse,
    api: { route: ApiRoute; params: RegExpExecArray; principal: Principal } | undefined,
  ): Promise<void> {
    switch (area) {
      case 'api': {
        const { route, params, principal } = api!;
        await this.#serve(req, res, route.name, () => this.#api.handle(req, route, params, principal));
        return;
      }
      case 'auth': {
        const options = { expiredTokenStatus: this.#expiredTokenStatus };
        const answer = () => Promise.resolve(handleOAuth(req, this.state, options) ?? notFound(req.method, req.url));
        await this.#serve(req, res, `${req.method} /auth${req.path}`, answer);
        return;
      }
      case 'viewer': {
        const page = await importablePage(req, this.state, this.importableEvents);
        if (page) this.#send(res, page.endpoint, page.answer);
        else this.#send(res, 'GET /viewer', handleViewer(req, this.state));
        return;
      }
      case '_simulator':
        this.#send(res, '_simulator', await handleControl(req, this));
        return;
      default:
        this.#send(res, 'unknown', notFound(req.method, req.url));
    }
  }

  /** Notes a request's arrival, and journals it when its response closes (answered, reset, or its client gone). */
  #track(req: IncomingMessage, res: ServerResponse): void {
    const trip: Trip = { startedMs: Date.now(), started: performance.now(), simulatedMs: this.state.clock.now() };
    this.#trips.set(res, trip);
    res.on('close', () => {
      const url = trip.url;
      // Reading the journal is not journalled: each read would push out what it came to read.
      if (url?.pathname.startsWith('/_simulator/journal')) return;
      this.#journal.record({
        startedMs: trip.startedMs,
        simulatedMs: trip.simulatedMs,
        durationMs: performance.now() - trip.started,
        method: req.method ?? 'GET',
        // A target refused before it was read (a bad Host, too long) is journalled as the path and query it
        // carried, so that its query's secrets are redacted like any other's.
        ...(url ? { path: url.pathname, query: url.searchParams } : rawTarget(req.url ?? '')),
        headers: req.headers,
        requestBody: trip.body,
        requestBytes: trip.body?.length ?? 0,
        status: trip.answer?.status ?? trip.dropped ?? 'aborted',
        responseHeaders: trip.answer?.headers ?? {},
        responseBody: trip.answer?.body,
        ...(trip.scenario ? { scenario: trip.scenario } : {}),
        ...(trip.fault ? { fault: trip.fault } : {}),
      });
    });
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
    const headers = this.#headers(answer, bodyBytes(body));
    const trip = this.#trips.get(res);
    if (trip) trip.answer = { status: answer.status, headers, body };
    res.writeHead(answer.status, headers);
    if (typeof body === 'string' || Buffer.isBuffer(body)) {
      res.end(body);
      return;
    }
    // One write of all the pieces (writev) once uncorked.
    res.cork();
    for (const piece of body) res.write(piece);
    res.uncork();
    res.end();
  }

  #headers(answer: SimResponse, length: number): Record<string, string> {
    return {
      ...answer.headers,
      // While closing, no connection is kept for another request.
      ...(this.#closing ? { connection: 'close' } : {}),
      'content-length': String(length),
      // The service's clock is the simulated one: a job taking its cursor from Date must see that, not this machine's.
      date: new Date(this.state.clock.now()).toUTCString(),
    };
  }
}

/**
 * The keys, the OAuth client and the users a simulator starts with: the given keys or random ones, and two users (the
 * second signs in when a test says so, and sees none of the first's importable events).
 */
function seedCredentials(
  state: SimState,
  options: SimulatorOptions,
): { apiKey: string; limitedApiKey: string; otherApiKey: string; clientId: string } {
  const apiKey = options.apiKey ?? `sim_${randomBytes(18).toString('base64url')}`;
  const limitedApiKey = options.limitedApiKey ?? `sim_limited_${randomBytes(18).toString('base64url')}`;
  const otherApiKey = options.otherApiKey ?? `sim_other_${randomBytes(18).toString('base64url')}`;
  const clientId = options.clientId ?? 'livelox-bridge-sim';
  state.apiKeys.set(apiKey, { appId: 'sim-app', scopes: new Set(ALL_SCOPES) });
  state.apiKeys.set(limitedApiKey, { appId: 'sim-app-limited', scopes: new Set(['routes.import']) });
  state.apiKeys.set(otherApiKey, { appId: 'sim-app-other', scopes: new Set(ALL_SCOPES) });
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
  // A second user, who signs in when a test says so (PUT /_simulator/oauth/user): another user's importable events
  // answer 403.
  state.users.set('sim-user-2', {
    id: 'sim-user-2',
    firstName: 'Anders',
    lastName: 'Andrasson',
    email: 'anders@example.org',
  });
  return { apiKey, limitedApiKey, otherApiKey, clientId };
}

/** A request target the server refused to read, split as the journal keeps it: at most 200 characters of path. */
function rawTarget(target: string): { path: string; query: URLSearchParams } {
  const q = target.indexOf('?');
  if (q < 0) return { path: target.slice(0, 200), query: new URLSearchParams() };
  return { path: target.slice(0, Math.min(q, 200)), query: new URLSearchParams(target.slice(q + 1, q + 1 + 8192)) };
}

/** A request on its way through, as the journal will record it. */
interface Trip {
  startedMs: number;
  /** performance.now() at arrival, for the duration. */
  started: number;
  simulatedMs: number;
  url?: URL;
  body?: Buffer;
  answer?: { status: number; headers: Record<string, string>; body: SimBody };
  dropped?: 'reset' | 'stall';
  scenario?: string;
  fault?: string;
}

/** A request without a body: nothing to read or charge. */
const EMPTY_BODY: BodyRead = { ok: true, body: Buffer.alloc(0), charged: 0 };

function resetSocket(socket: Socket | null): void {
  if (!socket) return;
  // A TCP reset (not a clean FIN): the client sees ECONNRESET, as when a proxy dies mid-request.
  if (typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
  else socket.destroy();
}

/** Starts a simulator; `await sim.close()` when done. */
export function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  return Simulator.start(options);
}
