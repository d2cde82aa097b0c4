import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { apiKey } from '../../src/auth/api-key.js';
import { DEFAULT_RETRY, mayHaveTakenEffect, retryDelay } from '../../src/core/retry.js';
import {
  errorFromResponse,
  InputError,
  MAY_HAVE_TAKEN_EFFECT,
  RateLimitError,
  ServerError,
  ValidationError,
} from '../../src/errors.js';
import { checkFitFrame, isFitHeader, isFitStart, parseFit } from '../../src/gps/fit.js';
import { MAX_ROUTE_BODY_BYTES, MAX_ROUTE_FILE_BYTES, MAX_ROUTE_ID_LENGTH } from '../../src/resources/routes.js';

const POST = { method: 'POST', path: '/importableRoutes' };

describe('retry policy', () => {
  it('retries a 429 of a POST that is not idempotent, waiting what Retry-After asks', () => {
    const outcome = { attempt: 0, method: 'POST', idempotent: false, status: 429, retryAfterMs: 1500 };
    expect(retryDelay(outcome, DEFAULT_RETRY)).toBe(1500);
  });

  it('does not retry a 5xx or a network failure of a POST that is not idempotent', () => {
    expect(retryDelay({ attempt: 0, method: 'POST', idempotent: false, status: 500 }, DEFAULT_RETRY)).toBeUndefined();
    expect(retryDelay({ attempt: 0, method: 'POST', idempotent: false }, DEFAULT_RETRY)).toBeUndefined();
  });

  it('counts a 429 and other 4xx as nothing done, a 5xx or no answer as maybe done', () => {
    expect([429, 400, 413].map(mayHaveTakenEffect)).toEqual([false, false, false]);
    expect([500, 502, 503, undefined].map(mayHaveTakenEffect)).toEqual([true, true, true, true]);
  });
});

describe('error texts say what happened', () => {
  it('says a 5xx was retried only when it was, with the number of attempts', () => {
    const once = errorFromResponse(503, '', POST, undefined, { attempts: 1 });
    const thrice = errorFromResponse(503, '', POST, undefined, { attempts: 3 });
    expect(once).toBeInstanceOf(ServerError);
    expect(once.message).not.toMatch(/tried|retried/i);
    expect(thrice.message).toContain('tried 3 times');
    expect(thrice.attempts).toBe(3);
  });

  it('says a 429 was still refused after retrying only when it was retried', () => {
    const once = errorFromResponse(429, '', POST, 1000, { attempts: 1 });
    const five = errorFromResponse(429, '', POST, 1000, { attempts: 5 });
    expect(once).toBeInstanceOf(RateLimitError);
    expect(once.message).not.toMatch(/retr|attempts/i);
    expect(five.message).toContain('still refused after 5 attempts');
  });

  it('marks a 5xx to an unsafe request as maybe done, a 4xx never', () => {
    const server = errorFromResponse(500, '', POST, undefined, { attempts: 1, mayHaveTakenEffect: true });
    const refused = errorFromResponse(429, '', POST, undefined, { attempts: 1, mayHaveTakenEffect: true });
    expect(server.mayHaveTakenEffect).toBe(true);
    expect(server.message).toContain(MAY_HAVE_TAKEN_EFFECT);
    expect(server.toJSON()).toMatchObject({ mayHaveTakenEffect: true, attempts: 1 });
    expect(refused.mayHaveTakenEffect).toBe(false);
    expect(refused.message).not.toContain(MAY_HAVE_TAKEN_EFFECT);
  });

  it('lets the resource reword the possible effect, in the message and the summary alike', () => {
    const err = errorFromResponse(502, '', POST, undefined, { mayHaveTakenEffect: true });
    err.restateEffect('The service may have stored this route.');
    expect(err.message).toContain('The service may have stored this route.');
    expect(err.summary).toContain('The service may have stored this route.');
    expect(err.message).not.toContain(MAY_HAVE_TAKEN_EFFECT);
    const plain = errorFromResponse(502, '', POST);
    expect(plain.restateEffect('The service may have stored this route.').message).not.toContain('stored');
  });

  it('names in its hints only options the client has', () => {
    // The option names the library's hints may use: every optional member of the client's and transport's options.
    const declared = new Set<string>();
    for (const file of ['src/client.ts', 'src/core/transport.ts', 'src/core/retry.ts']) {
      for (const m of readFileSync(file, 'utf8').matchAll(/^\s+(\w+)\??: /gm)) declared.add(m[1]!);
    }
    const hints = [
      errorFromResponse(429, '', POST, 1000, { attempts: 3 }).hint!,
      errorFromResponse(503, '', POST, undefined, { attempts: 3 }).hint!,
    ];
    const transport = readFileSync('src/core/transport.ts', 'utf8');
    const texts = [...hints.map((h) => h.text), ...[...transport.matchAll(/hint: [`'](.*?)[`']/g)].map((m) => m[1]!)];
    const named = texts.flatMap((t) => [...t.matchAll(/\b[a-z]+[A-Z]\w*\b/g)].map((m) => m[0]));
    expect(named).toContain('ratePerSecond');
    expect(named.filter((n) => !declared.has(n))).toEqual([]);
    expect(hints[0]!.values).toEqual(['ratePerSecond']);
  });
});

describe('API key', () => {
  it.each([
    ['clé-ünïcødé-€', 13],
    ['key\u0007bell', 4],
    ['ключ', 1],
  ])('refuses %j as a configuration error naming the position, never the key', (key, position) => {
    const err = (() => {
      try {
        apiKey(key);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(err).toBeInstanceOf(ValidationError);
    const message = (err as ValidationError).message;
    expect(message).toContain(`character ${position}`);
    expect(message).not.toContain(key);
    expect(message).not.toContain(key.slice(position - 1, position));
  });

  it('accepts a Latin-1 key, which a header can carry', () => {
    expect(apiKey('clé-123').kind).toBe('apiKey');
  });
});

describe('a FIT file cut inside its header', () => {
  // The first 10 bytes of a FIT file with a 14-byte header: size, protocol, profile, data size, then ".F".
  const tenBytes = new Uint8Array([14, 0x20, 0x5c, 0x08, 0x10, 0, 0, 0, 0x2e, 0x46]);

  it('is recognised as the start of a FIT file, though not as a whole header', () => {
    expect(isFitHeader(tenBytes)).toBe(false);
    expect(isFitStart(tenBytes)).toBe(true);
    expect(isFitStart(new Uint8Array([14, 0x20, 0x5c, 0x08, 0x10, 0, 0, 0, 0x2e, 0x47]))).toBe(false);
  });

  it('is reported as truncated, saying what the header announces and what the file has', () => {
    for (const read of [() => parseFit(tenBytes, 'cut.fit'), () => checkFitFrame(tenBytes, 'cut.fit')]) {
      const err = (() => {
        try {
          read();
        } catch (e) {
          return e;
        }
        return undefined;
      })() as InputError;
      expect(err).toBeInstanceOf(InputError);
      expect(err.reason).toBe('truncated');
      expect(err.message).toContain('after 10 bytes');
      expect(err.message).toContain('its header says 14 bytes');
      expect(err.message).not.toMatch(/not (a )?FIT/i);
    }
  });
});

describe('route body limit', () => {
  it('fits the largest route file with the largest other fields in the body limit the simulator enforces', () => {
    const base64Length = Math.ceil(MAX_ROUTE_FILE_BYTES / 3) * 4;
    const rest = Buffer.byteLength(
      JSON.stringify({
        id: 'x'.repeat(MAX_ROUTE_ID_LENGTH),
        data: '',
        deviceModel: '\u20ac'.repeat(200),
        person: { firstName: '\u20ac'.repeat(100), lastName: '\u20ac'.repeat(100) },
        classId: Number.MAX_SAFE_INTEGER,
      }),
    );
    expect(base64Length + rest).toBeLessThanOrEqual(MAX_ROUTE_BODY_BYTES);
  });
});
