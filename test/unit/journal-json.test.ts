import { describe, expect, it } from 'vitest';
import {
  abbreviation,
  redactJsonBytes,
  redactJsonPrefix,
  type JsonRedaction,
} from '../../src/simulator/journal-json.js';

const SECRET = /^(?:access_?token|refresh_?token|code|code_?verifier|client_?secret|api_?key|password)$/i;
const options = (maxChars = 1e9): JsonRedaction => ({
  isSecretName: (n) => SECRET.test(n),
  redacted: '[redacted]',
  longValueChars: 200,
  maxChars,
});

/** The plain way: parse all, replace, stringify all. The walk must write exactly what this starts with. */
function reference(value: unknown): unknown {
  if (typeof value === 'string') {
    return value.length > 200 ? abbreviation(value.slice(0, 32), value.length) : value;
  }
  if (Array.isArray(value)) return value.map(reference);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = SECRET.test(k) && v !== null ? '[redacted]' : reference(v);
    return out;
  }
  return value;
}

/** A seeded generator, so that a failure names a case that can be run again. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function randomValue(next: () => number, depth: number): unknown {
  const names = ['name', 'access_token', 'Code', 'id', 'data', 'password', 'classes', 'é"\\\n', 'refreshToken'];
  const r = next();
  if (depth > 3 || r < 0.3) {
    const leaf = Math.floor(next() * 8);
    if (leaf === 0) return null;
    if (leaf === 1) return next() < 0.5;
    if (leaf === 2) return Math.round((next() - 0.5) * 1e6) / 100;
    if (leaf === 3) return 'x'.repeat(150 + Math.floor(next() * 100)) + (next() < 0.5 ? '"\\\u2028é' : '');
    if (leaf === 4) return 'tab\there "quoted" \\ back \u0001 ✓ 🧭';
    return `v${Math.floor(next() * 1000)}`;
  }
  if (r < 0.6) return Array.from({ length: Math.floor(next() * 4) }, () => randomValue(next, depth + 1));
  const o: Record<string, unknown> = {};
  for (let k = Math.floor(next() * 5); k > 0; k--)
    o[names[Math.floor(next() * names.length)]!] = randomValue(next, depth + 1);
  return o;
}

describe('redactJsonPrefix', () => {
  it('writes what parsing, redacting and stringifying the whole body writes, over 2000 random bodies, pretty or not', () => {
    for (let seed = 1; seed <= 2000; seed++) {
      const next = random(seed);
      const value = randomValue(next, 0);
      const expected = JSON.stringify(reference(value));
      for (const body of [JSON.stringify(value), JSON.stringify(value, null, seed % 3 === 0 ? '\t' : 2)]) {
        const got = redactJsonPrefix(body, options());
        expect(got, `seed ${seed}: ${body}`).toEqual({ text: expected, cut: false });
      }
    }
  });

  it('stops once the kept part is written, and what it wrote is the start of the whole redaction', () => {
    const value = { events: Array.from({ length: 2000 }, (_, i) => ({ id: i, name: `Event ${i}`, code: 'abc' })) };
    const body = JSON.stringify(value, null, 2);
    const got = redactJsonPrefix(body, options(4096));
    expect(got?.cut).toBe(true);
    expect(got!.text.length).toBeGreaterThanOrEqual(4096);
    expect(got!.text.length).toBeLessThan(4200);
    expect(JSON.stringify(reference(value)).startsWith(got!.text)).toBe(true);
    expect(got!.text).not.toContain('"abc"');
  });

  it('replaces a secret field whatever its value holds, keeps a null one, and never shows a nested secret', () => {
    const body = '{"password": {"a": [1, "s3cr3t-inner", {"b": "}"}]}, "code": null, "api_key": 12345, "n": "ok"}';
    expect(redactJsonPrefix(body, options())?.text).toBe(
      '{"password":"[redacted]","code":null,"api_key":"[redacted]","n":"ok"}',
    );
  });

  it("shows a long string's start only up to its first run of 8 key-like characters, so no part of a token shows", () => {
    expect(abbreviation('Route of Anna, recorded on a wat', 250)).toBe('Route of Anna, ... [250 characters]');
    expect(abbreviation('x RTKyyyyyyyyyyyyyyyyyyyyyyyyyyy', 300)).toBe('x ... [300 characters]');
    expect(abbreviation('QUJDQUJDQUJDQUJDQUJDQUJDQUJDQUJD', 9000)).toBe('... [9000 characters]');
    expect(abbreviation('see: é ✓ 12 (ok) / 1234567 done.', 201)).toBe(
      'see: é ✓ 12 (ok) / 1234567 done.... [201 characters]',
    );
  });

  it('abbreviates a 5 MB string without decoding it, to its start and length', () => {
    const data = 'A'.repeat(5_000_000);
    expect(redactJsonPrefix(JSON.stringify({ data }), options())?.text).toBe(
      JSON.stringify({ data: '... [5000000 characters]' }),
    );
  });

  it.each([
    ['text', 'not json at all'],
    ['an unclosed string', '{"a": "b'],
    ['an unclosed object', '{"a": 1'],
    ['a bare key', '{a: 1}'],
    ['two values', '{} {}'],
    ['a mismatched close', '[1}'],
    ['a stray close', ']'],
    ['a bad literal', '[nul]'],
    ['an empty body', '   '],
  ])('answers undefined for %s, so the caller journals it as text', (_what, body) => {
    expect(redactJsonPrefix(body, options())).toBeUndefined();
  });
});

describe('redactJsonBytes', () => {
  /** Bodies with long strings, plain, escaped, non-ASCII, as keys and as secret values, and literals at every cut. */
  function bodyOf(next: () => number): string {
    const long = (n: number) => {
      const kind = Math.floor(next() * 4);
      if (kind === 0) return 'B'.repeat(n);
      if (kind === 1) return `${'é'.repeat(n)}✓`;
      if (kind === 2) return `${'x'.repeat(n)}"\\\n`;
      return `${'y'.repeat(n)}🧭`;
    };
    const value: Record<string, unknown> = {};
    for (let k = 0; k < 6; k++) {
      const r = next();
      const size = Math.floor(next() * 3000);
      if (r < 0.3) value[`data${k}`] = long(size);
      else if (r < 0.4) value[long(size)] = k;
      else if (r < 0.55) value[next() < 0.5 ? 'password' : 'code_verifier'] = next() < 0.3 ? null : long(size);
      else if (r < 0.7) value[`n${k}`] = [1234567, true, false, null, -0.5e3];
      else value[`o${k}`] = { refresh_token: next() < 0.5 ? { a: long(size) } : 'tok', ok: 'fine' };
    }
    return JSON.stringify(value, null, next() < 0.5 ? 2 : undefined);
  }

  it('writes what redactJsonPrefix writes of the whole body decoded, over 600 bodies and windows of 40 to 900 bytes', () => {
    for (let seed = 1; seed <= 600; seed++) {
      const next = random(seed);
      const body = bodyOf(next);
      const maxChars = 50 + Math.floor(next() * 1500);
      const window = 40 + Math.floor(next() * 860);
      const o = { ...options(maxChars) };
      expect(redactJsonBytes(Buffer.from(body), o, window), `seed ${seed}`).toEqual(redactJsonPrefix(body, o));
    }
  });

  it('writes the same whatever byte a window ends at, in every token: a kept null secret, literals, escapes', () => {
    const bodies = [
      '{"password": null, "n": 1234567, "t": true, "f": false}',
      `{"code_verifier": "${'v'.repeat(300)}", "x": [-12.5e3, null], "k\\"é": "✓"}`,
      `[{"refresh_token": {"a": "${'z'.repeat(250)}"}}, "${'é'.repeat(210)}", 0]`,
    ];
    for (const body of bodies) {
      for (let window = 1; window <= Buffer.byteLength(body) + 1; window++) {
        expect(redactJsonBytes(Buffer.from(body), options(), window), `${body} / ${window}`).toEqual(
          redactJsonPrefix(body, options()),
        );
      }
    }
  });

  it('writes what the whole walk writes of a body that is not UTF-8, as decoded', () => {
    const bodies = [
      Buffer.concat([Buffer.from('{"data": "'), Buffer.alloc(900, 0xff), Buffer.from('", "password": "x"}')]),
      Buffer.concat([Buffer.from('{"k'), Buffer.from([0xc3]), Buffer.from(`": "${'a'.repeat(700)}"}`)]),
    ];
    for (const body of bodies) {
      for (const window of [7, 64, 333]) {
        expect(redactJsonBytes(body, options(), window)).toEqual(redactJsonPrefix(body.toString('utf8'), options()));
      }
    }
  });

  it('answers undefined where the whole walk does: a string that never closes, junk after the value', () => {
    for (const body of ['{"a": "b', `{"data": "${'Q'.repeat(5000)}`, '{"a": 1} x', '[tru', '{"a": nul']) {
      expect(redactJsonBytes(Buffer.from(body), options(), 64)).toEqual(redactJsonPrefix(body, options()));
    }
  });

  it('abbreviates a 50 MB string of base64 from its bytes, to its start and length', () => {
    const data = 'QUJD'.repeat(12_500_000);
    const body = Buffer.from(JSON.stringify({ classId: 7, data, name: 'after' }));
    expect(redactJsonBytes(body, options(4096))?.text).toBe(
      JSON.stringify({ classId: 7, data: '... [50000000 characters]', name: 'after' }),
    );
  });
});
