/** `livelox-bridge status`: its options and help, read without loading the client. */
import { DEFAULT_IMPORT_TIMEOUT_S } from '../../import-wait.js';
import { SERVICE_OPTIONS } from '../../shared-options.js';
import { defineCommand, defineOptions } from '../../spec.js';

export const statusOptions = defineOptions({
  wait: { type: 'boolean', description: 'wait until the route is imported or failed' },
  'timeout-s': {
    type: 'string',
    valueName: 'N',
    description: `how long --wait waits (default ${DEFAULT_IMPORT_TIMEOUT_S})`,
  },
  ...SERVICE_OPTIONS,
});

export const statusSpec = defineCommand({
  name: 'status',
  summary: 'Show the import state of a route (pending, imported with viewer links, or error with the reason).',
  usage: 'status <id...> [--wait] [--timeout-s N]',
  arguments: { name: 'route id' },
  options: statusOptions,
  details: [
    'The id is the one `import` printed. Routes belong to who posted them: ask with the same API key or login.',
    'Several ids are looked up in turn.',
    'With --json: {ok, routes: [{id, status, eventName, className, viewerUrl, ...} or {id, error}]}.',
    'Example: livelox-bridge status lb-3q2...Xw --wait',
  ].join('\n'),
  exitCodes: { 1: 'an import failed (status error), an id is unknown, or --wait ran out of time' },
  load: () => import('./run.js'),
});
