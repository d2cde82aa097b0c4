/** GET /countries (contract section 4.6). */
import { z } from 'zod';
import { booleanParam, cultureCodeParam } from './params.js';

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
