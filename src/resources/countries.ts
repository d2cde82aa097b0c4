/** GET /countries (contract section 4.6). */
import { z } from 'zod';
import type { ResourceRequester } from './requester.js';
import { ValidationError } from '../errors.js';
import { alpha2ToAlpha3, numericToAlpha3 } from '../geo/iso-countries.js';
import { booleanParam, checkQuery, cultureCodeParam, definedEntries, optionalText } from './params.js';
import { foldText } from '../core/fold.js';

export const COUNTRIES_PARAMETERS = ['cultureCode', 'onlyHavingEvents'] as const;

export const countriesQuerySchema = z
  .object({
    cultureCode: cultureCodeParam.optional(),
    onlyHavingEvents: booleanParam.optional(),
  })
  .strict();

export const countrySchema = z.looseObject({
  id: z.number().int(),
  code: z.string(),
  name: z.string(),
});

export type Country = z.output<typeof countrySchema>;
export const countryListSchema = z.array(countrySchema);

// ---- The client side.

/** What `resolve` accepts: alpha-3, alpha-2, a name, an ISO numeric code, or the service's internal id. */
export type CountryQuery = string | number | { id: number } | { numeric: number } | { code: string };

export class Countries {
  readonly #client: ResourceRequester;

  constructor(client: ResourceRequester) {
    this.#client = client;
  }

  /** Every country the service knows, names in `cultureCode` (default en-US). Cached for `countriesTtlMs`. */
  async list(
    options: {
      cultureCode?: string;
      onlyHavingEvents?: boolean;
      signal?: AbortSignal | undefined;
      fresh?: boolean;
    } = {},
  ): Promise<Country[]> {
    const query = definedEntries({
      cultureCode: options.cultureCode,
      onlyHavingEvents: optionalText(options.onlyHavingEvents),
    });
    checkQuery('Country list parameters', query, countriesQuerySchema);
    const key = `countries:${new URLSearchParams(query).toString()}`;
    const cache = this.#client.cache;
    if (cache && !options.fresh) {
      const hit = (await cache.get(key)) as Country[] | undefined;
      if (hit) return hit;
    }
    const list = await this.#client.requestJson(
      { path: '/countries', query, signal: options.signal },
      countryListSchema,
    );
    await cache?.set(key, list, this.#client.ttl.countriesMs);
    return list;
  }

  /**
   * The service's country for what an event system or a user wrote. One cached list serves every call. A bare number
   * that is both an internal id and another country's ISO numeric code is refused as ambiguous: pass `{ id }` or
   * `{ numeric }`. Names are matched in en-US and in `cultureCode` when given, ignoring case and accents.
   */
  async resolve(
    input: CountryQuery,
    options: { cultureCode?: string; signal?: AbortSignal | undefined } = {},
  ): Promise<Country> {
    const list = await this.list({ signal: options.signal });
    const found = findCountry(list, input);
    if (found || typeof input === 'object' || !options.cultureCode) return found ?? notFound(list, input);
    const folded = foldText(String(input));
    const local = await this.list({ cultureCode: options.cultureCode, signal: options.signal });
    const hit = local.find((c) => foldText(c.name) === folded);
    return hit ? (list.find((c) => c.code === hit.code) ?? hit) : notFound(list, input);
  }
}

function fail(message: string, code = 'not_found'): never {
  throw new ValidationError('Country', [{ path: 'country', code, message }]);
}

function notFound(list: readonly Country[], input: CountryQuery): never {
  if (typeof input === 'object') return fail(`no country of the service matches ${JSON.stringify(input)}`);
  const text = String(input).trim();
  if (/^\d+$/.test(text)) return fail(`${text} is neither a country id of the service nor an ISO numeric code`);
  const folded = foldText(text);
  const near = list.filter((c) => folded && foldText(c.name).startsWith(folded.slice(0, 3))).slice(0, 5);
  return fail(
    `'${text}' is not a country code or name the service knows${near.length ? ` (did you mean ${near.map((c) => `${c.name} ${c.code}`).join(', ')}?)` : ''}`,
  );
}

/**
 * The country of `list` that `input` names (an id, an ISO alpha-3, alpha-2 or numeric code, or an en-US name), or
 * undefined. Pure, so that a job holding a stored list resolves countries without asking the service. Throws a
 * ValidationError for a number that is one country's id and another's ISO numeric code.
 */
export function findCountry(list: readonly Country[], input: CountryQuery): Country | undefined {
  const byCode = (code: string | undefined) => (code ? list.find((c) => c.code === code.toUpperCase()) : undefined);
  if (typeof input === 'object') {
    return 'id' in input
      ? list.find((c) => c.id === input.id)
      : 'numeric' in input
        ? byCode(numericToAlpha3(input.numeric))
        : byCode(input.code);
  }
  const text = String(input).trim();
  if (/^\d+$/.test(text)) {
    const n = Number(text);
    const byId = list.find((c) => c.id === n);
    const byNumeric = byCode(numericToAlpha3(n));
    if (byId && byNumeric && byId.code !== byNumeric.code) {
      fail(
        `${n} is the service's id of ${byId.name} and the ISO numeric code of ${byNumeric.name}: pass { id: ${n} } or { numeric: ${n} }`,
        'ambiguous',
      );
    }
    return byId ?? byNumeric;
  }
  if (/^[a-z]{3}$/i.test(text)) {
    const found = byCode(text);
    if (found) return found;
  }
  if (/^[a-z]{2}$/i.test(text)) {
    const found = byCode(alpha2ToAlpha3(text));
    if (found) return found;
  }
  const folded = foldText(text);
  return folded ? list.find((c) => foldText(c.name) === folded) : undefined;
}
