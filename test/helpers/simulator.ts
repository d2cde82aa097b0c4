/** Starting a simulator for a test file and talking to it over real HTTP on loopback. */
import { request } from 'undici';
import { afterEach } from 'vitest';
import { apiKey } from '../../src/auth/api-key.js';
import { LiveloxClient, type LiveloxClientOptions } from '../../src/client.js';
import { joinUrl } from '../../src/config.js';
import { startSimulator, type Simulator, type SimulatorOptions } from '../../src/simulator/server.js';

export interface HttpAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: () => any;
}

export async function http(
  method: string,
  url: URL | string,
  options: { headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<HttpAnswer> {
  const res = await request(url, {
    method: method as 'GET',
    headers: options.headers ?? {},
    ...(options.body === undefined ? {} : { body: options.body }),
  });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, text, json: () => JSON.parse(text) };
}

export class SimHarness {
  constructor(readonly sim: Simulator) {}

  get key(): Record<string, string> {
    return { ApiKey: this.sim.info.apiKey };
  }

  api(path: string, headers: Record<string, string> = this.key): Promise<HttpAnswer> {
    return http('GET', joinUrl(this.sim.info.baseUrl, path), { headers });
  }

  post(path: string, body: unknown, headers: Record<string, string> = this.key): Promise<HttpAnswer> {
    return http('POST', joinUrl(this.sim.info.baseUrl, path), {
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  }

  /** GET /events with a query given as a record (values as the wire carries them). */
  events(query: Record<string, string>, headers?: Record<string, string>): Promise<HttpAnswer> {
    return this.api(`/events?${new URLSearchParams(query).toString()}`, headers);
  }
}

export async function startHarness(options: SimulatorOptions = {}): Promise<SimHarness> {
  return new SimHarness(await startSimulator({ port: 0, ...options }));
}

/** A client pointed at a simulator, with an API key and quick retries unless told otherwise. */
export function clientFor(sim: Simulator, options: Partial<LiveloxClientOptions> = {}): LiveloxClient {
  return new LiveloxClient({
    auth: apiKey(sim.info.apiKey),
    baseUrl: sim.info.baseUrl,
    authUrl: sim.info.authUrl,
    viewerUrl: sim.info.viewerUrl,
    ratePerSecond: 0,
    retry: { baseDelayMs: 20, maxDelayMs: 200 },
    ...options,
  });
}

/**
 * A simulator and a client opened by a test and closed after it, whatever happened: call at the top of a test file,
 * then `const { sim, client } = await open(simulatorOptions, clientOptions)` in a test.
 */
export function simulatorPerTest(): (
  options?: SimulatorOptions,
  clientOptions?: Partial<LiveloxClientOptions>,
) => Promise<{ sim: Simulator; client: LiveloxClient }> {
  const opened: Array<{ sim: Simulator; client: LiveloxClient }> = [];
  afterEach(async () => {
    // A test may have closed them itself already (to show a service that went away): closing twice is no failure.
    for (const { sim, client } of opened.splice(0)) {
      await client.close().catch(() => undefined);
      await sim.close().catch(() => undefined);
    }
  });
  return async (options = {}, clientOptions = {}) => {
    const sim = (await startHarness(options)).sim;
    const client = clientFor(sim, clientOptions);
    opened.push({ sim, client });
    return { sim, client };
  };
}
