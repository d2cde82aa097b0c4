/**
 * The client's reading of userinfo answers in every shape the service might send, over real HTTP. The simulator sends
 * one shape (the observed fields with the OIDC ones beside them, see simulator-oauth.test.ts); the shapes alone come
 * from a small local server here that answers `GET /auth/oauth2/userinfo` with the body a test sets, so each is read
 * through the same transport, auth and parsing as a real answer.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oauth } from '../../src/auth/oauth.js';
import { MemoryTokenStore } from '../../src/auth/token-store.js';
import { LiveloxClient } from '../../src/client.js';
import { ResponseShapeError } from '../../src/errors.js';

let server: Server;
let origin: string;
let body: unknown;
let seenAuthorization: string | undefined;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/auth/oauth2/userinfo') {
      seenAuthorization = req.headers.authorization;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"unknown route"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function userinfo(answer: unknown) {
  body = answer;
  const strategy = oauth({
    clientId: 'livelox-bridge',
    scopes: ['routes.import'],
    // A token valid for a day: no refresh is attempted, so the one request is the userinfo request.
    tokenStore: new MemoryTokenStore({ accessToken: 'at-test', expiresAt: Date.now() + 86_400_000, scopes: [] }),
  });
  const client = new LiveloxClient({
    auth: strategy,
    baseUrl: `${origin}/api`,
    authUrl: `${origin}/auth`,
    viewerUrl: `${origin}/viewer`,
  });
  try {
    return await strategy.userinfo(client);
  } finally {
    await client.close();
  }
}

describe('userinfo shapes', () => {
  it('reads the observed shape alone (personId, firstName, lastName): sub is the person id, name is derived', async () => {
    const me = await userinfo({ personId: 123456, firstName: 'Tove', lastName: 'Alexandersson' });
    expect(seenAuthorization).toBe('Bearer at-test');
    expect(me).toEqual({
      personId: 123456,
      firstName: 'Tove',
      lastName: 'Alexandersson',
      sub: '123456',
      name: 'Tove Alexandersson',
    });
  });

  it('reads the PascalCase spelling a .NET service may send, and a person id given as digits', async () => {
    const me = await userinfo({ PersonId: '42', FirstName: 'Matthias', LastName: 'Kyburz' });
    expect(me).toMatchObject({ personId: 42, firstName: 'Matthias', lastName: 'Kyburz', sub: '42' });
    expect(me.name).toBe('Matthias Kyburz');
  });

  it('tolerates an OIDC-style answer: sub and name as sent, the name parts from given_name and family_name', async () => {
    const me = await userinfo({ sub: 'u-77', name: 'Kasper Fosser', given_name: 'Kasper', family_name: 'Fosser' });
    expect(me.personId).toBeUndefined();
    expect(me).toMatchObject({ sub: 'u-77', name: 'Kasper Fosser', firstName: 'Kasper', lastName: 'Fosser' });
  });

  it('keeps a name the answer gives over the joined parts, and fields it does not know', async () => {
    const me = await userinfo({ personId: 5, firstName: 'A', lastName: 'B', name: 'Anna B.', club: 'OK Linné' });
    expect(me).toMatchObject({ personId: 5, name: 'Anna B.', club: 'OK Linné' });
  });

  it('refuses an answer that names the user by neither personId nor sub, without quoting its values', async () => {
    const error = await userinfo({ firstName: 'Secret', lastName: 'Person' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseShapeError);
    expect(String((error as Error).message)).not.toContain('Secret');
    expect(JSON.stringify(error)).not.toContain('Secret');
  });

  it('refuses a person id that is not a whole number', async () => {
    await expect(userinfo({ personId: 'abc', firstName: 'A' })).rejects.toBeInstanceOf(ResponseShapeError);
    await expect(userinfo({ personId: 1.5, firstName: 'A' })).rejects.toBeInstanceOf(ResponseShapeError);
  });
});
