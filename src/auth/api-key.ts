/** Authorization with the application's API key, sent only in the `ApiKey` header (contract section 5.1). */
import { ValidationError } from '../errors.js';
import type { AuthContext, AuthStrategy } from './strategy.js';

/**
 * True where end users can read the code: a browser page or a web worker. The contract forbids embedding keys there.
 */
function inBrowserLikeEnvironment(): boolean {
  const g = globalThis as Record<string, unknown>;
  return (typeof g.window === 'object' && typeof g.document === 'object') || typeof g.importScripts === 'function';
}

export function apiKey(key: string | undefined): AuthStrategy {
  if (inBrowserLikeEnvironment()) {
    throw new ValidationError('API key refused', [
      {
        path: 'auth',
        code: 'browser_environment',
        message:
          'API keys must not be embedded where end users can reach them (the service terms, rule 4); call the service from a server, or use OAuth',
      },
    ]);
  }
  if (key === undefined || key.trim() === '') {
    throw new ValidationError('API key missing', [
      {
        path: 'auth',
        code: 'required',
        message: 'give an API key (the argument of apiKey())',
        hint: { code: 'api_key', text: '(the argument of apiKey())' },
      },
    ]);
  }
  if (/[\r\n]/.test(key)) {
    throw new ValidationError('API key refused', [{ path: 'auth', code: 'format', message: 'contains a line break' }]);
  }
  const value = key.trim();
  const bad = unsendable(value);
  if (bad !== undefined) {
    // The position, never the character: a key is a secret, and one wrong character of it is a part of it.
    throw new ValidationError('API key refused', [
      {
        path: 'auth',
        code: 'format',
        message: `character ${bad} cannot be sent in an HTTP header (only Latin-1 text is); check that the key was copied whole and unchanged`,
      },
    ]);
  }
  return {
    kind: 'apiKey',
    honoursPerson: true,
    attach(ctx: AuthContext) {
      ctx.redactor.add(value);
    },
    headers() {
      return Promise.resolve({ ApiKey: value });
    },
    // A key cannot be refreshed: a 401/403 is final.
    recover() {
      return Promise.resolve(false);
    },
  };
}

/**
 * The 1-based position of the first character an HTTP header value cannot carry (beyond Latin-1, or a control
 * character), or undefined. Checked here, before anything is sent: the HTTP layer would refuse the request instead, and
 * that refusal reads like a network failure.
 */
function unsendable(value: string): number | undefined {
  let position = 0;
  for (const ch of value) {
    position += 1;
    const cp = ch.codePointAt(0)!;
    if (cp > 0xff || (cp < 0x20 && cp !== 0x09) || cp === 0x7f) return position;
  }
  return undefined;
}
