/**
 * The OAuth strategy against the simulator over real HTTP: the test plays the browser (GET the authorization address,
 * read the 302), everything else is the library's own requests.
 */
import { createHash } from 'node:crypto';
import { request } from 'undici';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { oauth, type AuthorizationRequest, type OAuthOptions, type OAuthStrategy } from '../../src/auth/oauth.js';
import { createPkce } from '../../src/auth/pkce.js';
import { MemoryTokenStore, type OAuthTokens } from '../../src/auth/token-store.js';
import { LiveloxClient } from '../../src/client.js';
import { AuthError, AuthorizationError, BadRequestError, LoginRequiredError, ScopeError } from '../../src/errors.js';
import { startSimulator, type Simulator } from '../../src/simulator/server.js';

const REDIRECT = 'http://127.0.0.1:53682/callback';
const DAY_MS = 24 * 3600_000;
const TOKEN = 'POST /auth/oauth2/token';
const COUNTRIES = 'GET /countries';

let sim: Simulator;
const clients: LiveloxClient[] = [];
/** Every token, code and verifier seen, and every error thrown in a failure case: checked against each other last. */
const secrets = new Set<string>();
const errors: unknown[] = [];

beforeAll(async () => {
  sim = await startSimulator({ port: 0, events: 10, seed: 5 });
});
afterAll(async () => {
  await sim.close();
});
beforeEach(() => {
  sim.stats.reset();
  sim.state.oauthDecision = 'approve';
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

interface Setup {
  client: LiveloxClient;
  strategy: OAuthStrategy;
  store: MemoryTokenStore;
}

function setup(on: Simulator = sim, options: Partial<OAuthOptions> = {}, store = new MemoryTokenStore()): Setup {
  const strategy = oauth({
    clientId: on.info.clientId,
    scopes: ['routes.import', 'courses.read'],
    tokenStore: store,
    ...options,
  });
  const client = new LiveloxClient({
    auth: strategy,
    baseUrl: on.info.baseUrl,
    authUrl: on.info.authUrl,
    viewerUrl: on.info.viewerUrl,
    // Every call must reach the simulator: the countries cache would hide the second request.
    cache: false,
    ratePerSecond: 0,
  });
  clients.push(client);
  return { client, strategy, store };
}

/** What the browser does: GET the authorization address, and the simulator redirects at once (its user approves). */
async function browse(url: URL): Promise<URL> {
  const res = await request(url);
  await res.body.dump();
  expect(res.statusCode).toBe(302);
  const location = new URL(String(res.headers.location));
  const code = location.searchParams.get('code');
  if (code) secrets.add(code);
  return location;
}

async function login(s: Setup): Promise<{ tokens: OAuthTokens; request: AuthorizationRequest }> {
  const req = s.strategy.authorizationRequest(s.client, REDIRECT);
  secrets.add(req.codeVerifier);
  const tokens = await s.strategy.completeAuthorization(s.client, req, await browse(req.url));
  remember(tokens);
  return { tokens, request: req };
}

function remember(tokens: OAuthTokens | undefined): void {
  if (!tokens) return;
  secrets.add(tokens.accessToken);
  if (tokens.refreshToken) secrets.add(tokens.refreshToken);
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    errors.push(err);
    return err;
  }
  throw new Error('expected a failure');
}

function count(endpoint: string, status?: number): number {
  const byStatus = sim.stats.snapshot().byEndpoint[endpoint] ?? {};
  if (status !== undefined) return byStatus[String(status)] ?? 0;
  return Object.values(byStatus).reduce((a, b) => a + b, 0);
}

describe('authorization request', () => {
  it('points at {authUrl}/oauth2/authorize with PKCE S256, the state and the scopes', () => {
    const { client, strategy } = setup();
    const req = strategy.authorizationRequest(client, REDIRECT);
    secrets.add(req.codeVerifier);
    expect(`${req.url.origin}${req.url.pathname}`).toBe(`${sim.info.authUrl}/oauth2/authorize`);
    const p = req.url.searchParams;
    expect(Object.fromEntries(p)).toEqual({
      response_type: 'code',
      client_id: sim.info.clientId,
      redirect_uri: REDIRECT,
      scope: 'routes.import courses.read',
      state: req.state,
      code_challenge: createHash('sha256').update(req.codeVerifier).digest('base64url'),
      code_challenge_method: 'S256',
    });
    expect(req.codeVerifier).toMatch(/^[A-Za-z0-9\-._~]{43,128}$/);
    expect(req.state.length).toBeGreaterThanOrEqual(16);
    // The verifier never travels through the browser.
    expect(req.url.href).not.toContain(req.codeVerifier);
    const other = strategy.authorizationRequest(client, REDIRECT);
    secrets.add(other.codeVerifier);
    expect(other.state).not.toBe(req.state);
    expect(other.codeVerifier).not.toBe(req.codeVerifier);
  });

  it('creates verifiers in the RFC 7636 alphabet and length', () => {
    for (let i = 0; i < 20; i++) {
      const p = createPkce();
      expect(p.verifier).toMatch(/^[A-Za-z0-9\-._~]{43,128}$/);
      expect(p.challenge).toBe(createHash('sha256').update(p.verifier).digest('base64url'));
      expect(p.method).toBe('S256');
    }
  });
});

describe('login and bearer requests', () => {
  it('exchanges the code, saves the tokens and sends the bearer to the API', async () => {
    const s = setup();
    expect(await s.strategy.loggedIn()).toBe(false);
    const before = Date.now();
    const { tokens } = await login(s);
    expect(tokens.scopes).toEqual(['routes.import', 'courses.read']);
    expect(tokens.expiresAt).toBeGreaterThanOrEqual(before + DAY_MS);
    expect(tokens.expiresAt).toBeLessThanOrEqual(Date.now() + DAY_MS);
    expect(await s.store.load()).toEqual(tokens);
    expect(await s.strategy.loggedIn()).toBe(true);
    const countries = await s.client.countries.list();
    expect(countries.length).toBeGreaterThan(0);
    expect(count(COUNTRIES, 200)).toBe(1);
    expect(count(TOKEN)).toBe(1);
  });

  it('answers whoami questions from userinfo', async () => {
    const s = setup();
    await login(s);
    expect(await s.strategy.userinfo(s.client)).toMatchObject({
      sub: 'sim-user-1',
      name: 'Sigrid Simulatorsson',
      email: 'sigrid@example.org',
    });
    expect(await s.strategy.tokenInfo()).toMatchObject({
      scopes: ['routes.import', 'courses.read'],
      refreshable: true,
    });
  });

  it('refuses to send anything without tokens, telling the user to log in', async () => {
    const s = setup();
    const err = await failure(s.client.countries.list());
    expect(err).toBeInstanceOf(LoginRequiredError);
    expect(err).toBeInstanceOf(AuthError);
    expect((err as LoginRequiredError).reason).toBe('not_logged_in');
    expect((err as LoginRequiredError).hint?.code).toBe('login');
    expect(sim.stats.snapshot().requests).toBe(0);
  });
});

describe('expiry and refresh', () => {
  it('refreshes once after a 401 for an expired token and repeats the request', async () => {
    const s = setup();
    const { tokens } = await login(s);
    sim.state.clock.advance(DAY_MS);
    expect((await s.client.countries.list()).length).toBeGreaterThan(0);
    expect(count(COUNTRIES, 401)).toBe(1);
    expect(count(COUNTRIES, 200)).toBe(1);
    expect(count(TOKEN)).toBe(2);
    const stored = await s.store.load();
    remember(stored);
    expect(stored?.accessToken).not.toBe(tokens.accessToken);
    expect(stored?.refreshToken).toBe(tokens.refreshToken);
  });

  it('does the same when the service answers expired tokens with 403 (observed, not published)', async () => {
    const other = await startSimulator({ port: 0, events: 5, expiredTokenStatus: 403 });
    try {
      const s = setup(other);
      await login(s);
      other.state.clock.advance(DAY_MS);
      expect((await s.client.countries.list()).length).toBeGreaterThan(0);
      const stats = other.stats.snapshot().byEndpoint;
      expect(stats[COUNTRIES]).toEqual({ '403': 1, '200': 1 });
      expect(stats[TOKEN]).toEqual({ '200': 2 });
      remember(await s.store.load());
    } finally {
      await other.close();
    }
  });

  it('refreshes before expiry when its clock says the token is within the skew: no 401 at all', async () => {
    const s = setup(sim, { now: () => sim.state.clock.now() });
    await login(s);
    await s.client.countries.list();
    expect(count(TOKEN)).toBe(1);
    sim.state.clock.advance(DAY_MS - 2 * 60_000);
    await s.client.countries.list();
    await s.client.countries.list();
    expect(count(COUNTRIES, 401)).toBe(0);
    expect(count(COUNTRIES, 200)).toBe(3);
    // One renewal: the new token is good for another day.
    expect(count(TOKEN)).toBe(2);
    remember(await s.store.load());
  });

  it('shares one refresh among concurrent requests that all met the expired token', async () => {
    const s = setup();
    await login(s);
    sim.state.clock.advance(DAY_MS);
    const lists = await Promise.all(Array.from({ length: 6 }, () => s.client.countries.list()));
    expect(lists.every((l) => l.length > 0)).toBe(true);
    expect(count(TOKEN)).toBe(2);
    expect(count(COUNTRIES, 200)).toBe(6);
    remember(await s.store.load());
  });

  it('shares one proactive refresh among concurrent requests', async () => {
    const s = setup(sim, { now: () => sim.state.clock.now() });
    await login(s);
    sim.state.clock.advance(DAY_MS);
    await Promise.all(Array.from({ length: 6 }, () => s.client.countries.list()));
    expect(count(TOKEN)).toBe(2);
    expect(count(COUNTRIES, 401)).toBe(0);
    remember(await s.store.load());
  });

  it('refreshes for userinfo too', async () => {
    const s = setup();
    await login(s);
    sim.state.clock.advance(DAY_MS);
    expect((await s.strategy.userinfo(s.client)).sub).toBe('sim-user-1');
    expect(sim.stats.snapshot().byEndpoint['GET /auth/oauth2/userinfo']).toEqual({ '401': 1, '200': 1 });
    expect(count(TOKEN)).toBe(2);
    remember(await s.store.load());
  });

  it('does not refresh for a missing scope: ScopeError naming courses.read', async () => {
    const s = setup(sim, { scopes: ['routes.import'] });
    const { tokens } = await login(s);
    expect(tokens.scopes).toEqual(['routes.import']);
    const eventId = sim.state.dataset.events[0]!.id;
    const err = await failure(s.client.courses.getIofXml({ eventId }));
    expect(err).toBeInstanceOf(ScopeError);
    expect((err as ScopeError).scope).toBe('courses.read');
    expect(count(TOKEN)).toBe(1);
    expect(await s.store.load()).toEqual(tokens);
  });
});

describe('refused logins', () => {
  it('refuses a callback with another state before any token request', async () => {
    const s = setup();
    const req = s.strategy.authorizationRequest(s.client, REDIRECT);
    secrets.add(req.codeVerifier);
    const back = await browse(req.url);
    back.searchParams.set('state', 'forged-state-value');
    const err = await failure(s.strategy.completeAuthorization(s.client, req, back));
    expect(err).toBeInstanceOf(AuthorizationError);
    expect((err as AuthorizationError).reason).toBe('state_mismatch');
    expect(count(TOKEN)).toBe(0);
    expect(await s.store.load()).toBeUndefined();
  });

  it('reports a tampered verifier with the token endpoint error, never the verifier', async () => {
    const s = setup();
    const req = s.strategy.authorizationRequest(s.client, REDIRECT);
    secrets.add(req.codeVerifier);
    const back = await browse(req.url);
    const tampered = { ...req, codeVerifier: createPkce().verifier };
    secrets.add(tampered.codeVerifier);
    const err = await failure(s.strategy.completeAuthorization(s.client, tampered, back.href));
    expect(err).toBeInstanceOf(BadRequestError);
    expect((err as BadRequestError).status).toBe(400);
    expect((err as Error).message).toMatch(/code_verifier does not match/);
    expect((err as BadRequestError).body).toContain('invalid_grant');
    // Single-use codes: exactly one exchange was tried.
    expect(count(TOKEN, 400)).toBe(1);
    expect(await s.store.load()).toBeUndefined();
  });

  it('turns access_denied into a clear error', async () => {
    sim.state.oauthDecision = 'deny';
    const s = setup();
    const req = s.strategy.authorizationRequest(s.client, REDIRECT);
    secrets.add(req.codeVerifier);
    const back = await browse(req.url);
    expect(back.searchParams.get('error')).toBe('access_denied');
    const err = await failure(s.strategy.completeAuthorization(s.client, req, back));
    expect(err).toBeInstanceOf(AuthorizationError);
    expect(err).toMatchObject({ reason: 'access_denied', oauthError: 'access_denied', code: 'auth' });
    expect((err as Error).message).toMatch(/refused access/);
    expect(count(TOKEN)).toBe(0);
  });
});

describe('revocation', () => {
  it('revokes at the service and clears the store; another holder of the login is told it has ended', async () => {
    const s = setup();
    const { tokens } = await login(s);
    // A second holder of the same login (another process): it learns of the revocation from the service.
    const elsewhere = setup(sim, {}, new MemoryTokenStore(tokens));
    await elsewhere.client.countries.list();
    await s.strategy.revoke(s.client);
    expect(sim.stats.snapshot().byEndpoint['POST /auth/oauth2/revoke']).toEqual({ '200': 2 });
    expect(await s.store.load()).toBeUndefined();
    expect(await s.strategy.loggedIn()).toBe(false);
    const here = await failure(s.client.countries.list());
    expect(here).toBeInstanceOf(AuthError);
    const tokenRequests = count(TOKEN);
    const there = await failure(elsewhere.client.countries.list());
    // The service's 403 led to one renewal, refused: the login has ended (not "check the API key").
    expect(there).toBeInstanceOf(LoginRequiredError);
    expect(there).toMatchObject({ reason: 'session_ended', hint: { code: 'login' } });
    // It tried one renewal, was told invalid_grant, and forgot the dead tokens.
    expect(count(TOKEN) - tokenRequests).toBe(1);
    expect(await elsewhere.store.load()).toBeUndefined();
    expect(await failure(elsewhere.strategy.refresh(elsewhere.client))).toBeInstanceOf(LoginRequiredError);
  });

  it('revoking without a login only clears', async () => {
    const s = setup();
    await s.strategy.revoke(s.client);
    expect(sim.stats.snapshot().requests).toBe(0);
  });
});

describe('secrets', () => {
  it('appear in no error message, string or JSON', () => {
    expect(errors.length).toBeGreaterThanOrEqual(8);
    expect(secrets.size).toBeGreaterThanOrEqual(10);
    for (const err of errors) {
      const texts = [(err as Error).message, String(err), JSON.stringify(err), (err as { body?: string }).body ?? ''];
      for (const text of texts) for (const secret of secrets) expect(text).not.toContain(secret);
    }
  });
});

describe('the issuer the tokens remember', () => {
  it('records the client id and the three addresses at login, in the store and in tokenInfo', async () => {
    const s = setup();
    const { tokens } = await login(s);
    const expected = {
      clientId: sim.info.clientId,
      authUrl: sim.info.authUrl,
      baseUrl: sim.info.baseUrl,
      viewerUrl: sim.info.viewerUrl,
    };
    expect(tokens.issuedFor).toEqual(expected);
    expect((await s.store.load())?.issuedFor).toEqual(expected);
    expect((await s.strategy.tokenInfo())?.issuedFor).toEqual(expected);
  });

  it('keeps the issuer through a refresh, and records it at the first refresh of tokens saved without one', async () => {
    const first = setup();
    const { tokens } = await login(first);
    await first.strategy.refresh(first.client);
    expect((await first.store.load())?.issuedFor).toEqual(tokens.issuedFor);

    // Tokens as an earlier version saved them: no issuer.
    const { issuedFor: _dropped, ...old } = (await first.store.load())!;
    const s = setup(sim, {}, new MemoryTokenStore(old));
    expect((await s.strategy.tokenInfo())?.issuedFor).toBeUndefined();
    const renewed = await s.strategy.refresh(s.client);
    remember(renewed);
    expect(renewed.issuedFor).toEqual(tokens.issuedFor);
    expect((await s.store.load())?.issuedFor).toEqual(tokens.issuedFor);
  });

  it('logs in with livelox-bridge’s own client id, which the simulator accepts, and remembers that id', async () => {
    const s = setup(sim, { clientId: 'livelox-bridge' });
    const { tokens } = await login(s);
    expect(tokens.issuedFor?.clientId).toBe('livelox-bridge');
    expect((await s.client.countries.list()).length).toBeGreaterThan(0);
    // A strategy with another client id cannot renew these tokens: why a front end should use the remembered id.
    const other = setup(sim, {}, new MemoryTokenStore(tokens));
    expect(await failure(other.strategy.refresh(other.client))).toBeInstanceOf(LoginRequiredError);
  });
});

describe('userinfo as real clients observe it', () => {
  it('reads personId, firstName and lastName from the simulator, and derives the name from them', async () => {
    const s = setup();
    await login(s);
    const user = [...sim.state.users.values()][0]!;
    const me = await s.strategy.userinfo(s.client);
    expect(Number.isSafeInteger(me.personId)).toBe(true);
    expect(me).toMatchObject({
      firstName: user.firstName,
      lastName: user.lastName,
      name: `${user.firstName} ${user.lastName}`,
      sub: user.id,
    });
  });
});
