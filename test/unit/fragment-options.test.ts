/**
 * The fragment renderer's public entry points check their options themselves: a caller who never called
 * `checkFragmentOptions` gets a `ValidationError` naming the option, never a bare RangeError from Intl or Date.
 */
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors.js';
import { renderFragment } from '../../src/links/fragment.js';
import { portalFragment, type PortalLinks } from '../../src/links/portal.js';
import { renderLinkResult, renderLinks, type LinkedEvent } from '../../src/links/render.js';

const result: LinkedEvent = {
  event: { chosen: { name: 'Night Cup' } },
  links: [{ emsClass: { name: 'H21' }, serviceClass: { id: 1, name: 'M21' }, url: 'https://x.test/1' }],
};
const portal: PortalLinks = { key: 'k', status: 'not_found', classes: [] };
const updated = new Date('2026-11-27T20:00:00Z');

/** The error `render` throws: a ValidationError whose first issue names `path`. */
function failure(render: () => string): { path: string | undefined; error: unknown } {
  try {
    render();
  } catch (error) {
    return { path: error instanceof ValidationError ? error.issues[0]?.path : undefined, error };
  }
  return { path: undefined, error: undefined };
}

describe('fragment options checked where fragments are rendered', () => {
  const cases: Array<[string, string, () => string]> = [
    ['lang', 'renderLinkResult', () => renderLinkResult(result, 'html', { ok: true, html: { lang: '!!bad' } })],
    ['timeZone', 'portalFragment', () => portalFragment(portal, { updated, timeZone: 'Mars/Base' })],
    ['updated', 'portalFragment', () => portalFragment(portal, { updated: new Date('x') })],
    [
      'updated',
      'renderLinkResult',
      () => renderLinkResult(result, 'html', { ok: true, html: { updated: new Date(NaN) } }),
    ],
    ['lang', 'renderLinks', () => renderLinks([], 'html', 'Cup', { updated, lang: 'x y' })],
    [
      'texts.noLinks',
      'renderFragment',
      () => renderFragment({ status: 'linked', classes: [] }, { updated, texts: { noLinks: ' ' } }),
    ],
  ];
  for (const [path, entry, render] of cases) {
    it(`${entry} throws a ValidationError naming ${path}`, () => {
      const got = failure(render);
      expect(got.error).toBeInstanceOf(ValidationError);
      expect(got.path).toBe(path);
      expect(String((got.error as Error).message)).toContain(path);
    });
  }

  it('renders with good options as before', () => {
    expect(portalFragment(portal, { updated, lang: 'sv', timeZone: 'Europe/Stockholm' })).toContain('lang="sv"');
    expect(renderLinkResult(result, 'html', { ok: true })).toContain('title="M21">H21</a>');
  });
});
