/** `livelox-bridge countries`: its options and help, read without loading the client. */
import { CULTURE_OPTION, SERVICE_OPTIONS } from '../../shared-options.js';
import { defineCommand, defineOptions } from '../../spec.js';

export const countriesOptions = defineOptions({
  culture: CULTURE_OPTION,
  'only-having-events': { type: 'boolean', description: 'only countries with at least one event' },
  ...SERVICE_OPTIONS,
});

export const countriesSpec = defineCommand({
  name: 'countries',
  summary: 'List the countries of the service with their ids and ISO 3166-1 alpha-3 codes.',
  usage: 'countries [--culture CODE] [--only-having-events]',
  options: countriesOptions,
  details: [
    'The id or the code goes to `events --country`, which also takes names and ISO alpha-2 and numeric codes.',
    'Example: livelox-bridge countries --only-having-events --culture sv-SE',
  ].join('\n'),
  load: () => import('./run.js'),
});
