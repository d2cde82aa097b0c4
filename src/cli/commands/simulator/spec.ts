/**
 * `livelox-bridge simulator` (run one), `simulator clock|churn|faults [VALUE]` (drive a running one through its
 * control endpoints) and `simulator openapi` (the document of the contract served): options and help, read without
 * loading the simulator.
 */
import { DEFAULT_SIMULATOR_PORT, ENV } from '../../../config.js';
import { defineCommand, defineOptions } from '../../spec.js';

export const simulatorOptions = defineOptions({
  port: {
    type: 'string',
    valueName: 'N',
    description: `port to listen on, 0 picks a free one (default ${DEFAULT_SIMULATOR_PORT})`,
  },
  host: { type: 'string', valueName: 'ADDR', description: 'interface to listen on (default 127.0.0.1)' },
  seed: {
    type: 'string',
    valueName: 'N',
    description: 'seed of the generated dataset and of random choices (default 1)',
  },
  events: { type: 'string', valueName: 'N', description: 'number of generated events (default 300)' },
  data: {
    type: 'string',
    valueName: 'FILE',
    complete: 'file',
    description: 'serve the events of a dataset file instead (docs/simulator-dataset.md)',
  },
  'import-delay-ms': {
    type: 'string',
    valueName: 'N',
    description: 'fixed route import time (default: 5-15 s per route, as the service)',
  },
  'latency-ms': {
    type: 'string',
    valueName: 'N',
    description: 'added before every API and OAuth answer (default 0)',
  },
  'fault-rate': { type: 'string', valueName: 'R', description: 'share of API requests that fail, 0..1 (default 0)' },
  'fault-kinds': {
    type: 'string',
    valueName: 'LIST',
    description: 'comma-separated faults to draw: 429,500,502,503,reset,stall (default all)',
  },
  'fault-stall-ms': {
    type: 'string',
    valueName: 'N',
    description: 'how long a stalled request hangs (default 10000)',
  },
  churn: {
    type: 'string',
    valueName: 'R',
    description: 'share of events that change per simulated day while the clock is advanced, 0..1 (default 0)',
  },
  'max-routes': {
    type: 'string',
    valueName: 'N',
    description: 'routes kept, the oldest evicted past it (default 10000; docs/simulator-server.md)',
  },
  'max-route-bytes': {
    type: 'string',
    valueName: 'N',
    description: 'bytes of route data kept, the oldest evicted past it (default about 133 MiB)',
  },
  'max-body-bytes-in-flight': {
    type: 'string',
    valueName: 'N',
    description:
      'request body bytes held at once (arrived, or reserved past 1 MiB); more gets 503 (default about 133 MiB)',
  },
  'request-timeout-ms': {
    type: 'string',
    valueName: 'N',
    description: 'time for headers and body to arrive, then 408 (default 30000)',
  },
  'min-body-bytes-per-second': {
    type: 'string',
    valueName: 'N',
    description: 'slowest request body, bytes/s on average after the grace period, then 408; 0 off (default 16384)',
  },
  'slow-body-grace-ms': {
    type: 'string',
    valueName: 'N',
    description: 'time a request body has before its rate is checked (default 10000)',
  },
  'drain-timeout-ms': {
    type: 'string',
    valueName: 'N',
    description: 'on Ctrl-C or SIGTERM, time the requests in flight have to finish, taking no new ones (default 10000)',
  },
  'api-key': { type: 'string', valueName: 'KEY', description: 'the API key to accept (default: random, printed)' },
  'expired-token-status': {
    type: 'string',
    choices: ['401', '403'],
    description: 'status for expired access tokens (default 401)',
  },
  'refresh-token-rotation': {
    type: 'boolean',
    description: 'each refresh answers a new refresh token and refuses the old one from then on (OAuth 2.1)',
  },
  journal: {
    type: 'string',
    valueName: 'FILE',
    complete: 'file',
    description: 'append every request and answer to FILE as JSON lines, secrets redacted (docs/simulator-server.md)',
  },
  'journal-entries': {
    type: 'string',
    valueName: 'N',
    description: 'requests kept in memory for GET /_simulator/journal, the oldest dropped past it (default 1000)',
  },
  'no-scenarios': {
    type: 'boolean',
    description: 'ignore the X-Simulator-Scenario request header (default: honoured)',
  },
});

export const simulatorControlOptions = defineOptions({
  url: {
    type: 'string',
    valueName: 'URL',
    description: `a running simulator's control address (env ${ENV.simulatorUrl}; default http://127.0.0.1:${DEFAULT_SIMULATOR_PORT}/_simulator)`,
  },
});

export const simulatorFaultsOptions = defineOptions({
  ...simulatorControlOptions,
  script: {
    type: 'string',
    valueName: 'FILE|-',
    complete: 'file',
    description: 'set a fault script: a JSON array of steps from FILE, or from stdin with -; checked before it is sent',
  },
  clear: { type: 'boolean', description: 'remove the fault script (the rate stays unless RATE is given)' },
});

export const simulatorOpenApiOptions = defineOptions({
  out: {
    type: 'string',
    valueName: 'FILE',
    complete: 'file',
    description: 'write the document to FILE (replaced atomically) instead of stdout',
  },
});

const openApiSpec = defineCommand({
  name: 'openapi',
  summary: 'Write the OpenAPI 3.1 document of the contract the simulator serves (API and OAuth endpoints).',
  usage: 'simulator openapi [--out FILE]',
  options: simulatorOpenApiOptions,
  details: [
    `Its servers are the addresses of a simulator on the default port (${DEFAULT_SIMULATOR_PORT}); a running simulator`,
    'serves the same document with its own addresses at GET /_simulator/openapi.json.',
    'What is observed on the real service but not published is marked x-observed: true.',
    'Without --out it prints the document; with --json {"ok":true,"operations":N,"document":{...}};',
    'with --json and --out {"ok":true,"file":...,"bytes":N,"operations":N}.',
    'Example: livelox-bridge simulator openapi --out livelox-openapi.json',
  ].join('\n'),
  load: () => import('./openapi.js'),
});

function controlSpec(name: 'clock' | 'churn', summary: string, value: string) {
  return defineCommand({
    name,
    summary,
    usage: `simulator ${name} ${value} [--url URL]`,
    options: simulatorControlOptions,
    arguments: { name: 'value' },
    details:
      'Without a value it prints the current setting; with one it changes it and prints what the simulator answered.',
    load: () => import('./control.js').then((m) => ({ run: m.controlRun(name) })),
  });
}

const faultsSpec = defineCommand({
  name: 'faults',
  summary: 'Read or set the fault rate and the fault script of a running simulator.',
  usage: ['simulator faults [RATE] [--url URL]', 'simulator faults [RATE] --script FILE|-', 'simulator faults --clear'],
  options: simulatorFaultsOptions,
  arguments: { name: 'rate' },
  details: [
    'Without anything it prints the rate and the script with its progress (the current step, requests or time left).',
    'RATE (0.05 or 5%) sets the share of API requests that fail at random. --script sets a script: ordered steps, each',
    'striking the requests that match it (method, path) with an outcome, for `count` requests or `durationMs`, then',
    'the next; the script wins over the rate. A step refused names its index and field (script[1].count). --clear',
    'removes the script. See docs/simulator-server.md, "Fault scripts".',
    'With --json: {"ok":true,"rate":R,"kinds":[...],"stallMs":N,"script":null|{"steps":[...],"current":I,...}}.',
    'Example, two 503s for route posts, then one answer cut short:',
    `  echo '[{"method":"POST","path":"/api/importableRoutes","outcome":{"kind":"status","status":503,` +
      `"headers":{"retry-after":"1"}},"count":2},{"method":"POST","path":"/api/importableRoutes",` +
      `"outcome":{"kind":"cut"},"count":1}]' | livelox-bridge simulator faults --script -`,
  ].join('\n'),
  exitCodes: {
    2:
      'a RATE it cannot read; a --script that cannot be read (missing, over 1 MiB), is not JSON, or is not a valid ' +
      'script (the step and field named); a script the simulator refused',
  },
  load: () => import('./control.js').then((m) => ({ run: m.faultsRun })),
});

export const simulatorSpec = defineCommand({
  name: 'simulator',
  summary:
    'Run a local simulator of the service (API, OAuth2, viewer pages), or drive a running one (clock, churn, faults).',
  usage: 'simulator [options]',
  options: simulatorOptions,
  details: [
    'When ready it prints the addresses and credentials; with --json one line:',
    '  {"baseUrl": ..., "authUrl": ..., "viewerUrl": ..., "apiKey": ..., "clientId": ..., "limitedApiKey": ..., "otherApiKey": ..., "controlUrl": ...}',
    "The simulator's own controls are under controlUrl (GET it for the list): clock, churn, oauth consent, faults and",
    'fault scripts, events, changes, routes, importable-events, stats, journal and journal.har (requests and answers,',
    'secrets redacted), openapi.json (the OpenAPI 3.1 document), memory.',
    'Example: livelox-bridge simulator --port 0 --json --import-delay-ms 200',
    '',
    `A running simulator, from another shell (its address from --url, else the ${ENV.simulatorUrl} its export block sets):`,
    '  simulator clock                  the simulated time',
    '  simulator clock +1d              move it forward: +36h, +1d12h, +90m, or to a time: 2026-06-01T12:00:00Z',
    '  simulator churn [0.05]           read or set the share of events that change per simulated day',
    '  simulator faults [0.2]           read or set the share of API requests that fail',
    '  simulator faults --script FILE   set a fault script (- reads stdin); --clear removes it',
    '',
    'simulator openapi [--out FILE] writes the OpenAPI 3.1 document of the simulated contract.',
  ].join('\n'),
  exitCodes: { 0: 'stopped by Ctrl-C or SIGTERM, once the requests in flight finished (or --drain-timeout-ms passed)' },
  subcommands: [
    controlSpec('clock', 'Read or move the clock of a running simulator.', '[+1d|+36h|2026-06-01T12:00:00Z]'),
    controlSpec(
      'churn',
      'Read or set the share of events that change per simulated day in a running simulator.',
      '[R]',
    ),
    faultsSpec,
    openApiSpec,
  ],
  load: () => import('./run.js'),
});
