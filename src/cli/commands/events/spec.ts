/** `livelox-bridge events`: its options and help, read without loading the client or the search's schemas. */
import { MAX_PAGE_SIZE, SORT_PROPERTIES } from '../../../resources/event-search-terms.js';
import { CULTURE_OPTION, SERVICE_OPTIONS } from '../../shared-options.js';
import { defineCommand, defineOptions } from '../../spec.js';

/** Page size of `--all` when no --page-size is given: few requests, small enough answers. */
export const DEFAULT_ALL_PAGE_SIZE = 500;

/** The table's flags column, explained under the table and in --help. */
export const FLAGS_LEGEND = 'flags: S searchable, P published, V valid map and courses';

export const eventsOptions = defineOptions({
  from: {
    type: 'string',
    valueName: 'DATE',
    description: 'events ending after this (2025-05-01, or ISO with Z/offset)',
  },
  to: { type: 'string', valueName: 'DATE', description: 'events starting before this (exclusive)' },
  q: { type: 'string', valueName: 'TEXT', description: 'matched against event and organiser names' },
  'modified-since': { type: 'string', valueName: 'DATE', description: 'only events modified after this' },
  near: {
    type: 'string',
    valueName: 'LAT,LNG,RADIUS_M',
    description: 'events within RADIUS_M metres of a point (degrees)',
  },
  box: { type: 'string', valueName: 'S,N,W,E', description: 'events inside a box of latitudes and longitudes' },
  country: {
    type: 'string',
    valueName: 'X',
    description: 'country: ISO alpha-3 or alpha-2 code, name (in --culture too), ISO numeric code or service id',
  },
  'only-searchable': { type: 'boolean', description: 'only events listed in the service search' },
  'only-published': { type: 'boolean', description: 'only published events (maps and courses no longer secret)' },
  'only-valid': { type: 'boolean', description: 'only events with a valid map and courses' },
  'no-classes': { type: 'boolean', description: 'leave out the classes' },
  'no-properties': { type: 'boolean', description: 'leave out the key-value properties' },
  culture: CULTURE_OPTION,
  sort: {
    type: 'string',
    valueName: 'BY[:ORDER]',
    description: `${SORT_PROPERTIES.join('|')}, optionally :ascending or :descending (service default time)`,
  },
  page: { type: 'string', valueName: 'N', description: 'zero-based page index (with --page-size)' },
  'page-size': {
    type: 'string',
    valueName: 'N',
    description: `events per page, 1..${MAX_PAGE_SIZE} (with --all default ${DEFAULT_ALL_PAGE_SIZE})`,
  },
  all: { type: 'boolean', description: 'fetch every page, with progress on stderr' },
  limit: { type: 'string', valueName: 'N', description: 'stop after N events' },
  jsonl: { type: 'boolean', description: 'one JSON event per line (streamed with --all)' },
  ...SERVICE_OPTIONS,
});

export const eventsSpec = defineCommand({
  name: 'events',
  summary: 'Search events by time, text, place, country and flags; one page or every page.',
  usage: 'events [--from DATE] [--to DATE] [--q TEXT] [--near LAT,LNG,RADIUS_M | --box S,N,W,E] [options]',
  options: eventsOptions,
  details: [
    'At least one of --from, --to, --modified-since, --near, --box, --page-size or --all is required.',
    `Table columns: id, start date (UTC), country, name, organisers, number of classes, ${FLAGS_LEGEND}.`,
    'Examples:',
    '  livelox-bridge events --from 2025-05-01 --to 2025-06-01 --country Sweden --only-valid',
    '  livelox-bridge events --near 59.33,18.06,20000 --sort distance --page 0 --page-size 20',
    '  livelox-bridge events --modified-since 2025-05-01T00:00:00Z --all --jsonl > events.jsonl',
  ].join('\n'),
  load: () => import('./run.js'),
});
