import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { joinUrl } from '../../src/config.js';
import { validateOptions } from '../../src/simulator/options.js';
import { http, startHarness, type SimHarness } from '../helpers/simulator.js';

let h: SimHarness;
beforeAll(async () => {
  h = await startHarness({ events: 20, seed: 7 });
});
afterAll(() => h.sim.close());

const REDIRECT = 'http://127.0.0.1:53682/callback';
const auth = (path: string) => joinUrl(h.sim.info.authUrl, path);

function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(48).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

async function authorize(params: Record<string, string>): Promise<URL> {
  const res = await http('GET', `${auth('/oauth2/authorize').href}?${new URLSearchParams(params).toString()}`);
  expect(res.status, res.text).toBe(302);
  return new URL(String(res.headers.location));
}

function authorizeParams(challenge: string, overrides: Record<string, string> = {}): Record<string, string> {
  return {
    response_type: 'code',
    client_id: h.sim.info.clientId,
    redirect_uri: REDIRECT,
    scope: 'routes.import courses.read',
    state: 'st-123',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...overrides,
  };
}

async function tokenRequest(form: Record<string, string>) {
  return http('POST', auth('/oauth2/token'), {
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
}

async function login(scope = 'routes.import courses.read') {
  const { verifier, challenge } = pkce();
  const back = await authorize(authorizeParams(challenge, { scope }));
  const res = await tokenRequest({
    grant_type: 'authorization_code',
    code: back.searchParams.get('code')!,
    redirect_uri: REDIRECT,
    client_id: h.sim.info.clientId,
    code_verifier: verifier,
  });
  expect(res.status, res.text).toBe(200);
  return res.json() as {
    access_token: string;
    refresh_token: string;
    expires_in: number;
    token_type: string;
    scope: string;
  };
}

describe('authorization endpoint', () => {
  it('approves as the simulated user and redirects to the loopback URI with a code and the state', async () => {
    const back = await authorize(authorizeParams(pkce().challenge));
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect(back.searchParams.get('state')).toBe('st-123');
    expect(back.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{40,}$/);
  });

  it('accepts a loopback redirect URI on any port and path for the registered client', async () => {
    const back = await authorize(authorizeParams(pkce().challenge, { redirect_uri: 'http://localhost:9/x' }));
    expect(back.host).toBe('localhost:9');
  });

  it('redirects with access_denied when the simulated user refuses', async () => {
    await http('PUT', `${h.sim.info.controlUrl}/oauth/decision`, { body: JSON.stringify({ decision: 'deny' }) });
    try {
      const back = await authorize(authorizeParams(pkce().challenge));
      expect(back.searchParams.get('error')).toBe('access_denied');
      expect(back.searchParams.get('state')).toBe('st-123');
      expect(back.searchParams.has('code')).toBe(false);
    } finally {
      h.sim.state.oauthDecision = 'approve';
    }
  });

  it('redirects with invalid_request when PKCE is missing or not S256, and invalid_scope for unknown scopes', async () => {
    const { challenge } = pkce();
    expect(
      (await authorize(authorizeParams(challenge, { code_challenge_method: 'plain' }))).searchParams.get('error'),
    ).toBe('invalid_request');
    const noChallenge = authorizeParams(challenge);
    delete noChallenge.code_challenge;
    expect((await authorize(noChallenge)).searchParams.get('error')).toBe('invalid_request');
    expect(
      (await authorize(authorizeParams(challenge, { scope: 'routes.import admin' }))).searchParams.get('error'),
    ).toBe('invalid_scope');
  });

  it('shows an error page instead of redirecting for an unknown client or a non-loopback redirect URI', async () => {
    const { challenge } = pkce();
    const q1 = new URLSearchParams(authorizeParams(challenge, { client_id: 'nobody' }));
    expect((await http('GET', `${auth('/oauth2/authorize').href}?${q1.toString()}`)).status).toBe(400);
    const q2 = new URLSearchParams(authorizeParams(challenge, { redirect_uri: 'https://evil.example/cb' }));
    expect((await http('GET', `${auth('/oauth2/authorize').href}?${q2.toString()}`)).status).toBe(400);
  });
});

describe('token endpoint', () => {
  it('exchanges a code for a 24 h bearer token and a refresh token', async () => {
    const t = await login();
    expect(t).toMatchObject({ token_type: 'Bearer', expires_in: 86400, scope: 'routes.import courses.read' });
    expect(t.refresh_token).not.toBe(t.access_token);
    const me = await http('GET', auth('/oauth2/userinfo'), { headers: { Authorization: `Bearer ${t.access_token}` } });
    expect(me.status).toBe(200);
    expect(me.json()).toMatchObject({ sub: 'sim-user-1', name: 'Sigrid Simulatorsson' });
  });

  it('refuses a wrong verifier, and a code used twice', async () => {
    const { verifier, challenge } = pkce();
    const back = await authorize(authorizeParams(challenge));
    const form = {
      grant_type: 'authorization_code',
      code: back.searchParams.get('code')!,
      redirect_uri: REDIRECT,
      client_id: h.sim.info.clientId,
    };
    const wrong = await tokenRequest({ ...form, code_verifier: pkce().verifier });
    expect(wrong.status).toBe(400);
    expect(wrong.json()).toMatchObject({ error: 'invalid_grant' });
    // The failed attempt used the code up: a thief who guesses wrong does not get a second try.
    const again = await tokenRequest({ ...form, code_verifier: verifier });
    expect(again.json()).toMatchObject({
      error: 'invalid_grant',
      error_description: expect.stringMatching(/already been used/),
    });
  });

  it('refuses a replayed code and revokes what the code gave', async () => {
    const { verifier, challenge } = pkce();
    const back = await authorize(authorizeParams(challenge));
    const form = {
      grant_type: 'authorization_code',
      code: back.searchParams.get('code')!,
      redirect_uri: REDIRECT,
      client_id: h.sim.info.clientId,
      code_verifier: verifier,
    };
    const first = (await tokenRequest(form)).json();
    expect((await tokenRequest(form)).status).toBe(400);
    const res = await h.api('/countries', { Authorization: `Bearer ${first.access_token}` });
    expect(res.status).toBe(403);
  });

  it('refuses a code older than 10 minutes of the simulator clock', async () => {
    const { verifier, challenge } = pkce();
    const back = await authorize(authorizeParams(challenge));
    await http('POST', `${h.sim.info.controlUrl}/clock`, { body: JSON.stringify({ advanceMs: 10 * 60_000 + 1 }) });
    const res = await tokenRequest({
      grant_type: 'authorization_code',
      code: back.searchParams.get('code')!,
      redirect_uri: REDIRECT,
      client_id: h.sim.info.clientId,
      code_verifier: verifier,
    });
    expect(res.json()).toMatchObject({ error: 'invalid_grant', error_description: expect.stringMatching(/expired/) });
  });

  it('refuses a redirect_uri that differs from the authorization request, and unknown grants and clients', async () => {
    const { verifier, challenge } = pkce();
    const back = await authorize(authorizeParams(challenge));
    const res = await tokenRequest({
      grant_type: 'authorization_code',
      code: back.searchParams.get('code')!,
      redirect_uri: 'http://127.0.0.1:1/other',
      client_id: h.sim.info.clientId,
      code_verifier: verifier,
    });
    expect(res.json().error).toBe('invalid_grant');
    expect((await tokenRequest({ grant_type: 'password', client_id: h.sim.info.clientId })).json().error).toBe(
      'unsupported_grant_type',
    );
    expect((await tokenRequest({ grant_type: 'refresh_token', client_id: 'nobody' })).status).toBe(401);
    const json = await http('POST', auth('/oauth2/token'), {
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(json.json().error).toBe('invalid_request');
  });
});

describe('refresh-token rotation (refreshTokenRotation)', () => {
  const refresh = (token: string, scope?: string) =>
    tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: token,
      client_id: h.sim.info.clientId,
      ...(scope === undefined ? {} : { scope }),
    });

  it('is off unless asked for, and then answers each refresh with a new refresh token, refusing the one sent', async () => {
    expect(h.sim.describe()).toMatchObject({ refreshTokenRotation: false });
    h.sim.state.refreshTokenRotation = true;
    try {
      const t = await login();
      const first = (await refresh(t.refresh_token, 'routes.import')).json();
      expect(first.refresh_token).not.toBe(t.refresh_token);
      // The one sent is refused from now on, said apart from an unknown token.
      const again = await refresh(t.refresh_token);
      expect(again.status).toBe(400);
      expect(again.json()).toMatchObject({ error: 'invalid_grant', error_description: /replaced by a newer one/ });
      // The new one renews, keeping the narrowed scope: it cannot be widened back.
      const second = await refresh(first.refresh_token);
      expect(second.json()).toMatchObject({ scope: 'routes.import' });
      expect((await refresh(second.json().refresh_token, 'routes.import courses.read')).json().error).toBe(
        'invalid_scope',
      );
      // Access tokens issued before a rotation stay valid until they expire: a rotation is not a logout.
      expect((await h.api('/countries', { Authorization: `Bearer ${t.access_token}` })).status).toBe(200);
    } finally {
      h.sim.state.refreshTokenRotation = false;
    }
  });

  it('is refused as an option unless true or false', () => {
    expect(() => validateOptions({ refreshTokenRotation: 'yes' as unknown as boolean })).toThrow(
      /refreshTokenRotation/,
    );
  });
});

describe('token lifetimes, refresh and revocation', () => {
  it('answers an access token older than 24 h with 401 and refreshes it with the refresh token', async () => {
    const t = await login();
    const bearer = { Authorization: `Bearer ${t.access_token}` };
    expect((await h.api('/countries', bearer)).status).toBe(200);
    h.sim.state.clock.advance(24 * 3600_000);
    const expired = await h.api('/countries', bearer);
    expect(expired.status).toBe(401);
    expect(String(expired.headers['www-authenticate'])).toMatch(/invalid_token/);
    const refreshed = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: t.refresh_token,
      client_id: h.sim.info.clientId,
    });
    expect(refreshed.status).toBe(200);
    const fresh = refreshed.json();
    expect(fresh.refresh_token).toBe(t.refresh_token);
    expect((await h.api('/countries', { Authorization: `Bearer ${fresh.access_token}` })).status).toBe(200);
  });

  it('keeps refresh tokens valid however far the clock moves', async () => {
    const t = await login();
    h.sim.state.clock.advance(400 * 24 * 3600_000);
    const refreshed = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: t.refresh_token,
      client_id: h.sim.info.clientId,
    });
    expect(refreshed.status).toBe(200);
  });

  it('narrows scopes on refresh but never widens them', async () => {
    const t = await login('routes.import');
    const wider = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: t.refresh_token,
      client_id: h.sim.info.clientId,
      scope: 'routes.import courses.read',
    });
    expect(wider.json().error).toBe('invalid_scope');
  });

  it('revokes a refresh token together with its access tokens; unknown tokens revoke quietly', async () => {
    const t = await login();
    const revoke = (token: string) =>
      http('POST', auth('/oauth2/revoke'), {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token, client_id: h.sim.info.clientId }).toString(),
      });
    expect((await revoke(t.refresh_token)).status).toBe(200);
    expect((await h.api('/countries', { Authorization: `Bearer ${t.access_token}` })).status).toBe(403);
    const refreshed = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: t.refresh_token,
      client_id: h.sim.info.clientId,
    });
    expect(refreshed.json().error).toBe('invalid_grant');
    expect((await revoke('never-issued')).status).toBe(200);
  });

  it('answers expired tokens with 403 when started so (the real service was seen doing both)', async () => {
    const other = await startHarness({ events: 5, expiredTokenStatus: 403 });
    try {
      const { verifier, challenge } = pkce();
      const res = await http(
        'GET',
        `${joinUrl(other.sim.info.authUrl, '/oauth2/authorize').href}?${new URLSearchParams({ ...authorizeParams(challenge), client_id: other.sim.info.clientId }).toString()}`,
      );
      const code = new URL(String(res.headers.location)).searchParams.get('code')!;
      const token = await http('POST', joinUrl(other.sim.info.authUrl, '/oauth2/token'), {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          redirect_uri: REDIRECT,
          client_id: other.sim.info.clientId,
          code_verifier: verifier,
        }).toString(),
      });
      other.sim.state.clock.advance(24 * 3600_000 + 1);
      const answer = await other.api('/countries', { Authorization: `Bearer ${token.json().access_token}` });
      expect(answer.status).toBe(403);
      expect(answer.json().message).toMatch(/expired/);
    } finally {
      await other.sim.close();
    }
  });
});

describe('scopes', () => {
  it('refuses route endpoints to a token without routes.import, naming the scope', async () => {
    const t = await login('courses.read');
    const res = await h.post('/importableRoutes', { data: 'AAAA' }, { Authorization: `Bearer ${t.access_token}` });
    expect(res.status).toBe(403);
    expect(res.json().message).toBe("You do not have the scope 'routes.import'");
    expect((await h.api('/importableRoutes/x', { Authorization: `Bearer ${t.access_token}` })).status).toBe(403);
  });

  it('refuses courses to a key without course access with the observed message', async () => {
    const eventId = h.sim.state.dataset.events[0]!.id;
    const res = await h.api(`/orienteering/courses/iofxml?eventId=${eventId}`, { ApiKey: h.sim.info.limitedApiKey });
    expect(res.status).toBe(403);
    expect(res.json().message).toBe("You do not have the scope 'courses.read'");
    const t = await login('routes.import');
    const byToken = await h.api(`/orienteering/courses/iofxml?eventId=${eventId}`, {
      Authorization: `Bearer ${t.access_token}`,
    });
    expect(byToken.json().message).toBe("You do not have the scope 'courses.read'");
  });

  it("ignores the person of a route posted with a user token: the route is the user's own", async () => {
    const t = await login('routes.import');
    const bearer = { Authorization: `Bearer ${t.access_token}` };
    const data = Buffer.from(
      '<gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg><trkpt lat="1" lon="1"><time>2020-01-01T00:00:00Z</time></trkpt></trkseg></trk></gpx>',
    ).toString('base64');
    const posted = await h.post(
      '/importableRoutes',
      { id: 'mine', data, person: { firstName: 'Someone', lastName: 'Else' } },
      bearer,
    );
    expect(posted.status).toBe(200);
    expect(h.sim.routes().find((r) => r.id === 'mine')).toMatchObject({
      identity: 'user:sim-user-1',
      person: undefined,
    });
  });

  it('serves userinfo to user tokens only', async () => {
    expect((await http('GET', auth('/oauth2/userinfo'), { headers: h.key })).status).toBe(403);
    expect((await http('GET', auth('/oauth2/userinfo'))).status).toBe(403);
  });
});

describe('userinfo shape and the built-in client id', () => {
  it('answers userinfo with the observed personId, firstName and lastName, and the OIDC fields beside them', async () => {
    const t = await login();
    const me = await http('GET', auth('/oauth2/userinfo'), { headers: { Authorization: `Bearer ${t.access_token}` } });
    expect(me.status).toBe(200);
    const body = me.json() as Record<string, unknown>;
    const user = [...h.sim.state.users.values()][0]!;
    // Observed, not published: the fields Purple Pen's Livelox client reads.
    expect(Number.isSafeInteger(body.personId) && (body.personId as number) > 0).toBe(true);
    expect(body).toMatchObject({ firstName: user.firstName, lastName: user.lastName });
    expect(body).toMatchObject({ sub: user.id, name: `${user.firstName} ${user.lastName}` });
    // The same user keeps the same person id from one login to the next.
    const again = await login();
    const me2 = await http('GET', auth('/oauth2/userinfo'), {
      headers: { Authorization: `Bearer ${again.access_token}` },
    });
    expect((me2.json() as Record<string, unknown>).personId).toBe(body.personId);
  });

  it('accepts livelox-bridge’s own client id beside the one it was started with, as a separate client', async () => {
    expect(h.sim.info.clientId).not.toBe('livelox-bridge');
    const { verifier, challenge } = pkce();
    const back = await authorize(authorizeParams(challenge, { client_id: 'livelox-bridge' }));
    const code = back.searchParams.get('code');
    expect(code).toBeTruthy();
    const res = await tokenRequest({
      grant_type: 'authorization_code',
      code: code!,
      redirect_uri: REDIRECT,
      client_id: 'livelox-bridge',
      code_verifier: verifier,
    });
    expect(res.status, res.text).toBe(200);
    const { refresh_token } = res.json() as { refresh_token: string };
    // Its tokens are its own: the simulator's registered client cannot renew them.
    const other = await tokenRequest({ grant_type: 'refresh_token', refresh_token, client_id: h.sim.info.clientId });
    expect(other.status).toBe(400);
    expect((other.json() as { error: string }).error).toBe('invalid_grant');
    const own = await tokenRequest({ grant_type: 'refresh_token', refresh_token, client_id: 'livelox-bridge' });
    expect(own.status).toBe(200);
  });
});
