import { describe, expect, it } from 'vitest';
import { answerError } from '../../src/core/answer.js';
import { MemoryCache } from '../../src/core/cache.js';
import { Limiter } from '../../src/core/limiter.js';
import { REDACTED, Redactor } from '../../src/core/redact.js';
import { DEFAULT_RETRY, parseRetryAfter, retryDelay } from '../../src/core/retry.js';
import { sleep } from '../../src/core/sleep.js';

const half = () => 0.5;

describe('retry policy', () => {
  it.each([408, 429, 500, 502, 503, 504])('retries a GET answered %i', (status) => {
    expect(retryDelay({ attempt: 0, method: 'GET', idempotent: false, status }, DEFAULT_RETRY, half)).toBeGreaterThan(
      0,
    );
  });

  it.each([400, 401, 403, 404, 409, 501])('never retries a %i', (status) => {
    expect(retryDelay({ attempt: 0, method: 'GET', idempotent: false, status }, DEFAULT_RETRY)).toBeUndefined();
  });

  it('retries network failures (no status) of a GET', () => {
    expect(retryDelay({ attempt: 1, method: 'GET', idempotent: false }, DEFAULT_RETRY, half)).toBeGreaterThan(0);
  });

  it('retries a POST only when it is idempotent', () => {
    expect(retryDelay({ attempt: 0, method: 'POST', idempotent: false, status: 503 }, DEFAULT_RETRY)).toBeUndefined();
    expect(retryDelay({ attempt: 0, method: 'POST', idempotent: false }, DEFAULT_RETRY)).toBeUndefined();
    expect(
      retryDelay({ attempt: 0, method: 'POST', idempotent: true, status: 503 }, DEFAULT_RETRY, half),
    ).toBeGreaterThan(0);
  });

  it('backs off exponentially with jitter up to the cap, and stops after maxRetries', () => {
    const p = { ...DEFAULT_RETRY, maxRetries: 10, baseDelayMs: 100, maxDelayMs: 1000 };
    const at = (attempt: number, r: number) => retryDelay({ attempt, method: 'GET', idempotent: false }, p, () => r)!;
    expect([at(0, 0), at(0, 1)]).toEqual([50, 100]);
    expect([at(3, 0), at(3, 1)]).toEqual([400, 800]);
    expect(at(9, 1)).toBe(1000);
    expect(retryDelay({ attempt: 10, method: 'GET', idempotent: false }, p)).toBeUndefined();
  });

  it('waits what Retry-After asks, but gives up when it asks too much', () => {
    expect(
      retryDelay({ attempt: 0, method: 'GET', idempotent: false, status: 429, retryAfterMs: 2000 }, DEFAULT_RETRY),
    ).toBe(2000);
    expect(
      retryDelay({ attempt: 0, method: 'GET', idempotent: false, status: 429, retryAfterMs: 3_600_000 }, DEFAULT_RETRY),
    ).toBeUndefined();
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:10 GMT', now)).toBe(10_000);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});

describe('limiter', () => {
  it('never runs more tasks at once than allowed', async () => {
    const limiter = new Limiter({ maxConcurrent: 3, ratePerSecond: 0 });
    let running = 0;
    let peak = 0;
    await Promise.all(
      Array.from({ length: 20 }, () =>
        limiter.run(async () => {
          peak = Math.max(peak, ++running);
          await sleep(5);
          running--;
        }),
      ),
    );
    expect(peak).toBe(3);
  });

  it('spaces task starts to the rate once the burst is spent', async () => {
    const limiter = new Limiter({ maxConcurrent: 50, ratePerSecond: 50 });
    const starts: number[] = [];
    await Promise.all(Array.from({ length: 60 }, () => limiter.run(async () => void starts.push(performance.now()))));
    // 50 may start at once (the burst); the other 10 need at least 10/50 s more.
    expect(Math.max(...starts) - Math.min(...starts)).toBeGreaterThanOrEqual(180);
  });

  it('lets a waiting task be aborted, and frees its place', async () => {
    const limiter = new Limiter({ maxConcurrent: 1, ratePerSecond: 0 });
    let release!: () => void;
    const first = limiter.run(() => new Promise<void>((r) => (release = r)));
    const controller = new AbortController();
    const second = limiter.run(async () => 'never', controller.signal);
    controller.abort(new Error('stop'));
    await expect(second).rejects.toThrow('stop');
    release();
    await first;
    await expect(limiter.run(async () => 'next')).resolves.toBe('next');
  });
});

describe('cache', () => {
  it('forgets entries after their time to live and drops the oldest when full', () => {
    let now = 0;
    const cache = new MemoryCache({ maxEntries: 2, now: () => now });
    cache.set('a', 1, 100);
    now = 99;
    expect(cache.get('a')).toBe(1);
    now = 100;
    expect(cache.get('a')).toBeUndefined();
    cache.set('x', 1, 1000);
    cache.set('y', 2, 1000);
    cache.set('z', 3, 1000);
    expect([cache.get('x'), cache.get('y'), cache.get('z')]).toEqual([undefined, 2, 3]);
  });
});

describe('redactor', () => {
  it('removes registered secrets and secret-looking query parameters from any text', () => {
    const r = new Redactor();
    r.add('sk_live_1234567890');
    r.add('short');
    expect(r.redact('key sk_live_1234567890 in a message')).toBe(`key ${REDACTED} in a message`);
    expect(r.redact('/cb?code=abc&state=1&access_token=xyz')).toBe(
      `/cb?code=${REDACTED}&state=1&access_token=${REDACTED}`,
    );
    expect(r.redact('a short word stays')).toBe('a short word stays');
  });
});

describe('answerError', () => {
  it('keeps no part of a secret that runs across the cut of a refused answer', () => {
    const token = 'tok_live_SECRET_0123456789';
    const r = new Redactor();
    r.add(token);
    // The token starts 10 characters before the 4000th: cutting before redacting would keep 'tok_live_S'.
    const body = `${'x'.repeat(3990)}${token}${'y'.repeat(100)}`;
    const err = answerError(
      { status: 400, headers: {}, body: Buffer.from(body), attempts: 1 },
      { method: 'POST', path: '/oauth2/token' },
      r,
    );
    const said = [err.message, err.body, JSON.stringify(err.toJSON())].join('\n');
    expect(said).not.toContain(token.slice(0, 10));
    expect(err.body).toBe(`${'x'.repeat(3990)}${REDACTED}`);
  });
});
