import { describe, expect, it } from 'vitest';
import { AuthError, NotFoundError, ScopeError, ServerError } from '../../src/errors.js';
import {
  camelKeys,
  importableEventState,
  type ImportableEventLink,
} from '../../src/resources/importable-event-schemas.js';

const request = { method: 'GET', path: '/importableEvents/x' };
const link = (url: string | null): ImportableEventLink => ({ id: 'x', liveloxImportEventUrl: url });

describe('importableEventState', () => {
  it('reads a GET answer: importedEvent null is not imported, present is imported', () => {
    expect(importableEventState({ event: { importedEvent: null } })).toBe('not-imported');
    expect(importableEventState({ event: { importedEvent: { id: 7 } } })).toBe('imported');
  });

  it('reads a link answer: an import URL still there is the browser step to wait for', () => {
    expect(importableEventState({ link: link('https://x/import') })).toBe('waiting-for-browser-step');
    expect(importableEventState({ link: link(null) })).toBe('imported');
  });

  it('reads 404 and 403 on a GET as gone, and throws any other error back', () => {
    expect(importableEventState({ error: new NotFoundError('not_found', 404, 'gone', '', { request }) })).toBe('gone');
    expect(importableEventState({ error: new AuthError('auth', 403, 'not yours', '', { request }) })).toBe('gone');
    const scope = new ScopeError('events.import', 403, 'scope', '');
    expect(() => importableEventState({ error: scope })).toThrow(scope);
    const failed = new ServerError('server', 500, 'boom', '');
    expect(() => importableEventState({ error: failed })).toThrow(failed);
    expect(() => importableEventState({ error: new AuthError('auth', 401, 'expired', '') })).toThrow(AuthError);
  });
});

describe('camelKeys', () => {
  it('reads PascalCase, camelCase and upper-case keys alike, deep, values untouched', () => {
    expect(
      camelKeys({ LiveloxImportEventUrl: 'U', ID: 3, ImportedEvent: { OwnerRoles: [{ RoleType: 1 }] }, name: 'N' }),
    ).toEqual({ liveloxImportEventUrl: 'U', id: 3, importedEvent: { ownerRoles: [{ roleType: 1 }] }, name: 'N' });
    expect(camelKeys({ URLValue: 1 })).toEqual({ urlValue: 1 });
    expect(camelKeys(['A', null, 2])).toEqual(['A', null, 2]);
  });
});
