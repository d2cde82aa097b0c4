/**
 * GET /events and GET /events/{eventId}: parameter rules (contract section 4.3, 4.4) and response records.
 * The record field names are not in the contract; they are the ones real clients see.
 */
import { z } from 'zod';
import { booleanParam, cultureCodeParam, datetimeParam, numberParam, positiveIdParam } from './params.js';

export const SORT_PROPERTIES = ['time', 'duration', 'distance', 'participantcount'] as const;
export type SortProperty = (typeof SORT_PROPERTIES)[number];
export type SortOrder = 'ascending' | 'descending';

/** Largest page the simulator serves; the contract names none, so clients must page with what they are given. */
export const MAX_PAGE_SIZE = 1000;

export const EVENT_SEARCH_PARAMETERS = [
  'from',
  'to',
  'q',
  'modifiedSince',
  'latitude',
  'longitude',
  'radius',
  'south',
  'north',
  'west',
  'east',
  'countryId',
  'onlySearchable',
  'onlyPublished',
  'onlyHavingValidMapAndCourses',
  'includeClasses',
  'includeProperties',
  // Observed on the real service, not published: includes the viewer urls of classes.
  'includeUrls',
  'cultureCode',
  'sorting',
  'paging',
] as const;

const sortingParam = z.string().transform((value, ctx) => {
  const m = /^([a-z]+)(?::([a-z]+))?$/i.exec(value);
  const property = m?.[1]?.toLowerCase();
  const order = (m?.[2] ?? 'ascending').toLowerCase();
  if (!property || !(SORT_PROPERTIES as readonly string[]).includes(property)) {
    ctx.addIssue({
      code: 'custom',
      message: `'${value}' does not start with one of ${SORT_PROPERTIES.join(', ')} (shape property:order)`,
    });
    return z.NEVER;
  }
  if (order !== 'ascending' && order !== 'descending') {
    ctx.addIssue({ code: 'custom', message: `order '${m?.[2] ?? ''}' is neither ascending nor descending` });
    return z.NEVER;
  }
  return { by: property as SortProperty, order: order satisfies SortOrder };
});

const pagingParam = z.string().transform((value, ctx) => {
  const m = /^(\d{1,9}):(\d{1,9})$/.exec(value);
  if (!m) {
    ctx.addIssue({ code: 'custom', message: `'${value}' is not of the shape index:size, such as 0:50` });
    return z.NEVER;
  }
  const index = Number(m[1]);
  const size = Number(m[2]);
  if (size < 1 || size > MAX_PAGE_SIZE) {
    ctx.addIssue({ code: 'custom', message: `page size ${size} is outside 1..${MAX_PAGE_SIZE}` });
    return z.NEVER;
  }
  return { index, size };
});

const countryIdParam = z.string().transform((value, ctx) => {
  if (/^\d{1,9}$/.test(value)) return { id: Number(value) } as const;
  if (/^[a-z]{3}$/i.test(value)) return { code: value.toUpperCase() } as const;
  ctx.addIssue({ code: 'custom', message: `'${value}' is neither a country id nor an ISO 3166-1 alpha-3 code` });
  return z.NEVER;
});

const latitude = numberParam(-90, 90, 'latitude');
const longitude = numberParam(-180, 180, 'longitude');

/** The wire form of GET /events: every value a string, as in the query string. */
export const eventSearchQuerySchema = z
  .object({
    from: datetimeParam.optional(),
    to: datetimeParam.optional(),
    q: z.string().min(1, { message: 'is empty' }).max(200).optional(),
    modifiedSince: datetimeParam.optional(),
    latitude: latitude.optional(),
    longitude: longitude.optional(),
    radius: numberParam(0, 20_100_000, 'radius in metres').optional(),
    south: latitude.optional(),
    north: latitude.optional(),
    west: longitude.optional(),
    east: longitude.optional(),
    countryId: countryIdParam.optional(),
    onlySearchable: booleanParam.optional(),
    onlyPublished: booleanParam.optional(),
    onlyHavingValidMapAndCourses: booleanParam.optional(),
    includeClasses: booleanParam.optional(),
    includeProperties: booleanParam.optional(),
    includeUrls: booleanParam.optional(),
    cultureCode: cultureCodeParam.optional(),
    sorting: sortingParam.optional(),
    paging: pagingParam.optional(),
  })
  .strict()
  .superRefine((q, ctx) => {
    const circle = ['latitude', 'longitude', 'radius'] as const;
    const box = ['south', 'north', 'west', 'east'] as const;
    const given = (keys: readonly (keyof typeof q)[]) => keys.filter((k) => q[k] !== undefined);
    const circleGiven = given(circle);
    const boxGiven = given(box);
    if (circleGiven.length > 0 && circleGiven.length < circle.length) {
      for (const k of circle.filter((k) => q[k] === undefined)) {
        ctx.addIssue({
          code: 'custom',
          path: [k],
          message: `is required with ${circleGiven.join(', ')} (the circle needs latitude, longitude and radius)`,
        });
      }
    }
    if (boxGiven.length > 0 && boxGiven.length < box.length) {
      for (const k of box.filter((k) => q[k] === undefined)) {
        ctx.addIssue({
          code: 'custom',
          path: [k],
          message: `is required with ${boxGiven.join(', ')} (the box needs south, north, west and east)`,
        });
      }
    }
    if (q.south !== undefined && q.north !== undefined && q.south > q.north) {
      ctx.addIssue({ code: 'custom', path: ['south'], message: `south ${q.south} is north of north ${q.north}` });
    }
    if (q.from !== undefined && q.to !== undefined && q.from >= q.to) {
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'is not later than from' });
    }
    const hasCircle = circleGiven.length === circle.length;
    const hasBox = boxGiven.length === box.length;
    if (
      q.from === undefined &&
      q.to === undefined &&
      q.modifiedSince === undefined &&
      !hasCircle &&
      !hasBox &&
      q.paging === undefined &&
      circleGiven.length === 0 &&
      boxGiven.length === 0
    ) {
      ctx.addIssue({
        code: 'custom',
        path: [],
        message:
          'at least one of from, to, modifiedSince, the circle (latitude, longitude, radius), the box (south, north, west, east) or paging is required',
      });
    }
    if (q.sorting?.by === 'distance' && !hasCircle && !hasBox) {
      ctx.addIssue({
        code: 'custom',
        path: ['sorting'],
        message: 'distance sorting needs a geo search (the circle or the box)',
      });
    }
  });

export type EventSearchQuery = z.output<typeof eventSearchQuerySchema>;

export const EVENT_DETAILS_PARAMETERS = ['includeClasses', 'includeProperties', 'includeUrls', 'cultureCode'] as const;

export const eventDetailsQuerySchema = z
  .object({
    includeClasses: booleanParam.optional(),
    includeProperties: booleanParam.optional(),
    includeUrls: booleanParam.optional(),
    cultureCode: cultureCodeParam.optional(),
  })
  .strict();

export const eventIdParam = positiveIdParam;

// ---- Response records. Loose objects: the real service sends fields the contract does not name, and we keep them.

export const eventClassSchema = z.looseObject({
  id: z.number().int(),
  name: z.string(),
  url: z.string().optional(),
});

export const countryRefSchema = z.looseObject({
  id: z.number().int(),
  code: z.string(),
  name: z.string(),
});

export const eventSchema = z.looseObject({
  id: z.number().int(),
  name: z.string(),
  timeInterval: z.looseObject({ start: z.string(), end: z.string() }),
  organisers: z.array(z.looseObject({ name: z.string() })).optional(),
  country: countryRefSchema.nullable().optional(),
  position: z.looseObject({ latitude: z.number(), longitude: z.number() }).nullable().optional(),
  classes: z.array(eventClassSchema).optional(),
  properties: z.array(z.looseObject({ key: z.string(), value: z.string() })).optional(),
  participantCount: z.number().int().optional(),
  isSearchable: z.boolean().optional(),
  isPublished: z.boolean().optional(),
  hasValidMapAndCourses: z.boolean().optional(),
  modifiedTime: z.string().optional(),
});

export type LiveloxEvent = z.output<typeof eventSchema>;
export const eventListSchema = z.array(eventSchema);
