/** `livelox-bridge event`: its options and help, read without loading the client. */
import { CULTURE_OPTION, SERVICE_OPTIONS } from '../../shared-options.js';
import { defineCommand, defineOptions } from '../../spec.js';

export const eventOptions = defineOptions({
  culture: CULTURE_OPTION,
  'no-classes': { type: 'boolean', description: 'leave out the classes' },
  'no-properties': { type: 'boolean', description: 'leave out the key-value properties' },
  ...SERVICE_OPTIONS,
});

export const eventSpec = defineCommand({
  name: 'event',
  summary: "Show one event's details and its classes with their viewer links.",
  usage: 'event <id> [--culture CODE] [--no-classes] [--no-properties]',
  arguments: { name: 'event id' },
  options: eventOptions,
  details: 'Example: livelox-bridge event 12345 --culture sv-SE',
  load: () => import('./run.js'),
});
