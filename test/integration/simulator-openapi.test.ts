/**
 * The OpenAPI document of the simulated contract: served at /_simulator/openapi.json with this simulator's addresses,
 * valid OpenAPI 3.1 (@readme/openapi-parser, which checks against the 3.1 schema), and in step with the routing
 * tables both ways: every endpoint served is documented, and every documented operation is served.
 */
import { validate, compileErrors } from '@readme/openapi-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eventIdParam } from '../../src/resources/events.js';
import { EVENT_ID_PATTERN, type ServedRoute } from '../../src/simulator/openapi.js';
import { courseFile, importableEvent } from '../helpers/importable-events.js';
import { http, startHarness, type SimHarness } from '../helpers/simulator.js';

let h: SimHarness;
let doc: any;
beforeAll(async () => {
  h = await startHarness({ events: 20 });
  const res = await http('GET', `${h.sim.info.controlUrl}/openapi.json`);
  expect(res.status, res.text).toBe(200);
  doc = res.json();
});
afterAll(() => h.sim.close());

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

/** Every operation of the document, with the server it is at: the path item's own, else the document's. */
function documented(d: any): ServedRoute[] {
  return Object.entries<any>(d.paths).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m] !== undefined).map((m) => ({
      server:
        (item.servers?.[0]?.url ?? d.servers[0].url) === h.sim.info.authUrl ? ('auth' as const) : ('api' as const),
      method: m.toUpperCase(),
      path,
    })),
  );
}

const key = (r: ServedRoute) => `${r.server} ${r.method} ${r.path}`;

describe('GET /_simulator/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    expect(doc.openapi).toMatch(/^3\.1\./);
    const result = await validate(structuredClone(doc));
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
  });

  it('is refused by the validator once an operation loses its responses (the check can fail)', async () => {
    const broken = structuredClone(doc);
    delete broken.paths['/events'].get.responses;
    broken.paths['/countries'].get.parameters[0].in = 'body';
    const result = await validate(broken);
    expect(result.valid).toBe(false);
  });

  it("names this simulator's API and OAuth addresses", () => {
    expect(doc.servers).toEqual([{ url: h.sim.info.baseUrl }]);
    expect(doc.paths['/oauth2/token'].servers).toEqual([{ url: h.sim.info.authUrl }]);
    expect(doc.components.securitySchemes.OAuth2.flows.authorizationCode.tokenUrl).toBe(
      `${h.sim.info.authUrl}/oauth2/token`,
    );
  });

  it('documents every endpoint the routing tables serve, and nothing they do not', () => {
    const served = h.sim.servedRoutes().map(key).sort();
    const inDocument = documented(doc).map(key).sort();
    expect(served.length).toBeGreaterThanOrEqual(17);
    expect(
      inDocument.filter((k) => !served.includes(k)),
      'documented but not served',
    ).toEqual([]);
    expect(
      served.filter((k) => !inDocument.includes(k)),
      'served but not documented',
    ).toEqual([]);
  });

  it('reaches a handler over HTTP at every documented operation (no routing 404 or 405)', async () => {
    for (const op of documented(doc)) {
      const base = op.server === 'auth' ? h.sim.info.authUrl : h.sim.info.baseUrl;
      const path = op.path.replace(/\{[^}]+\}/g, '1');
      const res = await http(op.method, `${base}${path}`, { headers: h.key });
      expect(res.text, `${op.method} ${op.path}`).not.toMatch(
        /^\{"status":40[45],"message":"(No such endpoint|\w+ is not allowed)/,
      );
    }
  });

  it('marks the observed endpoints and parameters x-observed, and leaves the published ones unmarked', () => {
    const importable = documented(doc).filter((r) => r.path.startsWith('/importableEvents'));
    expect(importable.length).toBe(6);
    for (const r of importable) expect(doc.paths[r.path][r.method.toLowerCase()]['x-observed'], r.path).toBe(true);
    for (const path of ['/events', '/events/{eventId}', '/countries', '/importableRoutes']) {
      const item = doc.paths[path];
      for (const m of METHODS.filter((x) => item[x])) expect(item[m]['x-observed'], path).toBeUndefined();
    }
    // The Eventor lookup: the event id's second form, an id in another system.
    const eventId = doc.paths['/events/{eventId}'].get.parameters.find((p: any) => p.name === 'eventId');
    const observed = eventId.schema.anyOf.filter((s: any) => s['x-observed'] === true);
    expect(observed).toHaveLength(1);
    expect(new RegExp(observed[0].pattern).test('EventorSweden:49812-1')).toBe(true);
    const includeUrls = doc.paths['/events'].get.parameters.find((p: any) => p.name === 'includeUrls');
    expect(includeUrls['x-observed']).toBe(true);
  });

  it("states the event id's rule as its pattern, which takes what the schema takes", () => {
    const pattern = new RegExp(EVENT_ID_PATTERN);
    for (const id of ['1', '007', '49812', '999999999999999', '0', '000', '-1', '1.5', 'abc', '1234567890123456', '']) {
      expect(pattern.test(id), id).toBe(eventIdParam.safeParse(id).success);
    }
  });

  it("takes its schemas from the client's zod schemas: the route body and the search's required fields", () => {
    const body = doc.paths['/importableRoutes'].post.requestBody.content['application/json'].schema;
    expect(body.required).toEqual(['data']);
    expect(body.additionalProperties).toBe(false);
    expect(body.properties.id.anyOf[1].maxLength).toBe(48);
    const event = doc.paths['/events/{eventId}'].get.responses['200'].content['application/json'].schema;
    expect(event.required).toEqual(expect.arrayContaining(['id', 'name', 'timeInterval']));
    const courses = doc.paths['/orienteering/courses/iofxml'].get.parameters;
    expect(courses.find((p: any) => p.name === 'eventId').required).toBe(true);
  });

  it("describes the simulator's answers: each checks against its operation's schema for its status", async () => {
    // x-observed is an annotation, and date-time formats are the zod schemas' own patterns' job here.
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    const components = doc.components.schemas;
    const check = async (method: string, template: string, path: string, body?: unknown) => {
      const res =
        method === 'POST'
          ? await h.post(path, body)
          : await http(method, `${h.sim.info.baseUrl}${path}`, { headers: h.key });
      const answer = doc.paths[template][method.toLowerCase()].responses[String(res.status)];
      expect(answer, `${method} ${path}: ${res.status} is not documented`).toBeDefined();
      // The components beside the schema, so that its $refs resolve.
      const schema = { ...answer.content['application/json'].schema, components: { schemas: components } };
      const ok = ajv.validate(schema, res.json());
      expect(ok, `${method} ${path} ${res.status}: ${ajv.errorsText()}`).toBe(true);
      return res;
    };
    const events = (await check('GET', '/events', '/events?paging=0:20')).json();
    expect(events.length).toBeGreaterThan(0);
    await check('GET', '/events/{eventId}', `/events/${events[0].id}`);
    await check('GET', '/events/{eventId}', '/events/999999999');
    await check('GET', '/events', '/events?latitude=91');
    await check('GET', '/countries', '/countries?onlyHavingEvents=true');
    const data = Buffer.from('<gpx version="1.1" creator="t"><trk><trkseg></trkseg></trk></gpx>').toString('base64');
    const posted = (await check('POST', '/importableRoutes', '/importableRoutes', { id: 'openapi-1', data })).json();
    await check('GET', '/importableRoutes/{id}', `/importableRoutes/${posted.id}`);
    await check('POST', '/importableRoutes', '/importableRoutes', { data: 5 });
    const link = (await check('POST', '/importableEvents', '/importableEvents', importableEvent(courseFile()))).json();
    await check('GET', '/importableEvents/{id}', `/importableEvents/${link.id}?includeImportedEvent=true`);
    await check('GET', '/importableEvents/{id}/validationErrors', `/importableEvents/${link.id}/validationErrors`);
    await check('PUT', '/importableEvents/{id}/import', `/importableEvents/${link.id}/import`);
  });

  it('describes the OAuth answers: the redirect, the tokens and userinfo', async () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    const schemaOf = (path: string, method: string) =>
      doc.paths[path][method].responses['200'].content['application/json'].schema;
    const verifier = randomBytes(48).toString('base64url');
    const redirect = 'http://127.0.0.1:9/callback';
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: h.sim.info.clientId,
      redirect_uri: redirect,
      scope: 'routes.import',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    });
    const authorized = await http('GET', `${h.sim.info.authUrl}/oauth2/authorize?${query.toString()}`);
    expect(Object.keys(doc.paths['/oauth2/authorize'].get.responses)).toContain(String(authorized.status));
    const code = new URL(String(authorized.headers.location)).searchParams.get('code')!;
    const form = { grant_type: 'authorization_code', code, redirect_uri: redirect, client_id: h.sim.info.clientId };
    const tokens = await http('POST', `${h.sim.info.authUrl}/oauth2/token`, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...form, code_verifier: verifier }).toString(),
    });
    expect(tokens.status, tokens.text).toBe(200);
    expect(ajv.validate(schemaOf('/oauth2/token', 'post'), tokens.json()), ajv.errorsText()).toBe(true);
    const user = await http('GET', `${h.sim.info.authUrl}/oauth2/userinfo`, {
      headers: { authorization: `Bearer ${tokens.json().access_token}` },
    });
    expect(user.status, user.text).toBe(200);
    expect(ajv.validate(schemaOf('/oauth2/userinfo', 'get'), user.json()), ajv.errorsText()).toBe(true);
  });
});

/**
 * The OAuth request side is written by hand in openapi.ts (the handlers read their parameters one by one, not through
 * a zod schema): checked here against the handlers themselves. Each flow is sent over HTTP to the simulator running
 * in this process, the names the handler reads from its query or form recorded (a spy on URLSearchParams#get); every name read
 * is documented, every documented one is read by some flow, a documented required one refused when left out, and an
 * optional one left out of some flow that still succeeds.
 */
describe('the OAuth operations documented as the handlers read them', () => {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const redirect = 'http://127.0.0.1:9/callback';

  interface Flow {
    op: string;
    fields: Record<string, string>;
    ok: (status: number, location: string | undefined) => boolean;
  }

  /** What the document says an operation takes: its query parameters, else its form fields. */
  function documentedFields(op: string): { all: string[]; required: string[] } {
    const [method, path] = op.split(' ') as [string, string];
    const operation = doc.paths[path][method.toLowerCase()];
    if (operation.parameters) {
      const ps = operation.parameters as { name: string; required: boolean }[];
      return { all: ps.map((p) => p.name), required: ps.filter((p) => p.required).map((p) => p.name) };
    }
    const form = operation.requestBody.content['application/x-www-form-urlencoded'].schema;
    return { all: Object.keys(form.properties), required: form.required };
  }

  /** Sends one flow's request; the names its handler read. */
  async function send(flow: Flow, fields: Record<string, string>): Promise<{ read: Set<string>; ok: boolean }> {
    const [method, path] = flow.op.split(' ') as [string, string];
    const get = vi.spyOn(URLSearchParams.prototype, 'get');
    try {
      const body = new URLSearchParams(fields).toString();
      const res =
        method === 'GET'
          ? await http('GET', `${h.sim.info.authUrl}${path}?${body}`)
          : await http('POST', `${h.sim.info.authUrl}${path}`, {
              headers: { 'content-type': 'application/x-www-form-urlencoded' },
              body,
            });
      const read = new Set(get.mock.calls.map(([name]) => name));
      return { read, ok: flow.ok(res.status, res.headers.location as string | undefined) };
    } finally {
      get.mockRestore();
    }
  }

  async function code(): Promise<string> {
    const res = await http(
      'GET',
      `${h.sim.info.authUrl}/oauth2/authorize?${new URLSearchParams({
        client_id: h.sim.info.clientId,
        redirect_uri: redirect,
        response_type: 'code',
        code_challenge: challenge,
        code_challenge_method: 'S256',
        scope: 'events.import routes.import',
      }).toString()}`,
    );
    return new URL(res.headers.location as string).searchParams.get('code')!;
  }

  async function refreshToken(): Promise<string> {
    const fields = { grant_type: 'authorization_code', client_id: h.sim.info.clientId, code: await code() };
    const res = await http('POST', `${h.sim.info.authUrl}/oauth2/token`, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...fields, redirect_uri: redirect, code_verifier: verifier }).toString(),
    });
    return res.json().refresh_token;
  }

  const success = (status: number) => status === 200;
  /** Each flow with every field it can take, made afresh (codes are single-use). */
  async function flows(): Promise<Flow[]> {
    const client_id = h.sim.info.clientId;
    return [
      {
        op: 'GET /oauth2/authorize',
        fields: {
          client_id,
          redirect_uri: redirect,
          response_type: 'code',
          code_challenge: challenge,
          code_challenge_method: 'S256',
          scope: 'events.import',
          state: 'xyz',
        },
        ok: (status, location) => status === 302 && new URL(location!).searchParams.has('code'),
      },
      {
        op: 'POST /oauth2/token',
        fields: {
          grant_type: 'authorization_code',
          client_id,
          code: await code(),
          redirect_uri: redirect,
          code_verifier: verifier,
        },
        ok: success,
      },
      {
        op: 'POST /oauth2/token',
        fields: { grant_type: 'refresh_token', client_id, refresh_token: await refreshToken(), scope: 'events.import' },
        ok: success,
      },
      { op: 'POST /oauth2/revoke', fields: { token: await refreshToken(), client_id }, ok: success },
    ];
  }

  it('documents every field each handler reads, and reads every field documented', async () => {
    const read = new Map<string, Set<string>>();
    for (const flow of await flows()) {
      const sent = await send(flow, flow.fields);
      expect(sent.ok, `${flow.op} ${JSON.stringify(flow.fields)}`).toBe(true);
      read.set(flow.op, new Set([...(read.get(flow.op) ?? []), ...sent.read]));
    }
    for (const [op, names] of read) {
      expect([...names].sort(), op).toEqual([...documentedFields(op).all].sort());
    }
  });

  it('refuses a request without a field documented as required; succeeds without an optional one', async () => {
    for (const op of ['GET /oauth2/authorize', 'POST /oauth2/token', 'POST /oauth2/revoke']) {
      const { all, required } = documentedFields(op);
      for (const name of all) {
        let succeeded = false;
        for (const flow of (await flows()).filter((f) => f.op === op)) {
          const { [name]: _left, ...rest } = flow.fields;
          succeeded ||= (await send(flow, rest)).ok;
        }
        expect(succeeded, `${op} without ${name}`).toBe(!required.includes(name));
      }
    }
  });
});
