/**
 * The journal as HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/), the format browsers' developer tools,
 * proxies and HAR viewers read: an integrator opens a failed CI run's traffic in the tool they already have.
 */
import type { SimJournalEntry } from './journal.js';

interface HarPair {
  name: string;
  value: string;
}

/** A HAR 1.2 log of the entries; `origin` is the simulator's (`http://127.0.0.1:4380`), as HAR wants whole URLs. */
export function harLog(entries: readonly SimJournalEntry[], origin: string, version: string): Record<string, unknown> {
  return {
    log: {
      version: '1.2',
      creator: { name: 'livelox-bridge simulator', version },
      entries: entries.map((e) => harEntry(e, origin)),
    },
  };
}

function harEntry(e: SimJournalEntry, origin: string): Record<string, unknown> {
  const url = new URL(e.path, origin);
  const queryString: HarPair[] = [];
  for (const [name, v] of Object.entries(e.query)) {
    for (const value of Array.isArray(v) ? v : [v]) {
      url.searchParams.append(name, value);
      queryString.push({ name, value });
    }
  }
  // A dropped connection has no status: HAR writers (browsers) put 0 there and say why beside it.
  const status = typeof e.status === 'number' ? e.status : 0;
  return {
    startedDateTime: e.startedAt,
    time: e.durationMs,
    request: {
      method: e.method,
      url: url.toString(),
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: pairs(e.requestHeaders),
      queryString,
      ...(e.requestBody === undefined
        ? {}
        : { postData: { mimeType: e.requestContentType ?? '', text: e.requestBody } }),
      headersSize: -1,
      bodySize: e.requestBytes,
    },
    response: {
      status,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: pairs(e.responseHeaders),
      content: {
        size: e.responseBytes,
        mimeType: e.responseContentType ?? e.responseHeaders['content-type'] ?? '',
        ...(e.responseBody === undefined ? {} : { text: e.responseBody }),
      },
      redirectURL: e.responseHeaders.location ?? '',
      headersSize: -1,
      bodySize: typeof e.status === 'number' ? e.responseBytes : -1,
      ...(typeof e.status === 'number' ? {} : { _error: e.status }),
    },
    cache: {},
    // The simulator does not split its time: all of it is waiting for the answer.
    timings: { send: 0, wait: e.durationMs, receive: 0 },
    _seq: e.seq,
    _auth: e.auth,
    ...(e.scenario ? { _scenario: e.scenario } : {}),
    ...(e.fault ? { _fault: e.fault } : {}),
  };
}

function pairs(headers: Record<string, string>): HarPair[] {
  return Object.entries(headers).map(([name, value]) => ({ name, value }));
}
