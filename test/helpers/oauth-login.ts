/** An OAuth client signed in to a simulator as the test's browser would (its user approves at once). */
import { request, type Dispatcher } from 'undici';
import { oauth, type OAuthStrategy } from '../../src/auth/oauth.js';
import { MemoryTokenStore } from '../../src/auth/token-store.js';
import { LiveloxClient } from '../../src/client.js';
import type { SimulatorInfo } from '../../src/simulator/server.js';

export interface SignedIn {
  client: LiveloxClient;
  strategy: OAuthStrategy;
  store: MemoryTokenStore;
  /** The PKCE verifier, the authorization code and the tokens issued: what must never be written anywhere. */
  secrets: string[];
}

export async function signedInClient(
  sim: { info: SimulatorInfo },
  options: { dispatcher?: Dispatcher } = {},
): Promise<SignedIn> {
  const store = new MemoryTokenStore();
  const strategy = oauth({ clientId: sim.info.clientId, scopes: ['routes.import', 'courses.read'], tokenStore: store });
  const client = new LiveloxClient({
    auth: strategy,
    baseUrl: sim.info.baseUrl,
    authUrl: sim.info.authUrl,
    viewerUrl: sim.info.viewerUrl,
    cache: false,
    ratePerSecond: 0,
    retry: { baseDelayMs: 20, maxDelayMs: 200 },
    ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
  });
  const req = strategy.authorizationRequest(client, 'http://127.0.0.1:53682/callback');
  const res = await request(req.url);
  await res.body.dump();
  const location = new URL(String(res.headers.location));
  const tokens = await strategy.completeAuthorization(client, req, location);
  const secrets = [req.codeVerifier, location.searchParams.get('code')!, tokens.accessToken];
  if (tokens.refreshToken) secrets.push(tokens.refreshToken);
  return { client, strategy, store, secrets };
}
