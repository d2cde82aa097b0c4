/**
 * `livelox-bridge simulator`: runs the local stand-in for the service until SIGINT/SIGTERM. `simulator clock|churn|
 * faults [VALUE]` instead drives a running one through its control endpoints (simulator-control.ts).
 */
import { loadDatasetFile } from '../../simulator/dataset/file.js';
import { parseFaultKinds } from '../../simulator/faults.js';
import { startSimulator, type SimulatorOptions } from '../../simulator/server.js';
import { ENV } from '../../config.js';
import { EXIT, UsageError, intOption, numberOption, stringOption, type Command } from '../command.js';
import { printJson } from '../json-output.js';
import { errorText } from '../hints.js';
import { compact } from '../../core/compact.js';
import { DEFAULT_SIMULATOR_PORT, serveUntilStopped, simulatorReadyLines } from '../simulator-info.js';

export const simulatorCommand: Command = {
  name: 'simulator',
  usage: 'simulator [options] | simulator clock|churn|faults [VALUE] [--url URL]',
  allowPositionals: true,
  options: {
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
      description: 'request body bytes read at once; more is answered 503 + Retry-After (default about 133 MiB)',
    },
    'request-timeout-ms': {
      type: 'string',
      valueName: 'N',
      description: 'time for headers and body to arrive, then 408 (default 30000)',
    },
    'api-key': { type: 'string', valueName: 'KEY', description: 'the API key to accept (default: random, printed)' },
    'expired-token-status': {
      type: 'string',
      valueName: '401|403',
      description: 'status for expired access tokens (default 401)',
    },
    url: {
      type: 'string',
      valueName: 'URL',
      description: `with clock, churn or faults: a running simulator's control address (env ${ENV.simulatorUrl}; default http://127.0.0.1:${DEFAULT_SIMULATOR_PORT}/_simulator)`,
    },
  },
  details: [
    'When ready it prints the addresses and credentials; with --json one line:',
    '  {"baseUrl": ..., "authUrl": ..., "viewerUrl": ..., "apiKey": ..., "clientId": ..., "limitedApiKey": ..., "controlUrl": ...}',
    "The simulator's own controls (clock, churn, consent, faults, events, changes, stats) are under controlUrl: GET it for the list.",
    'Example: livelox-bridge simulator --port 0 --json --import-delay-ms 200',
    '',
    'A running simulator, from another shell (its address from --url, else the LIVELOX_SIMULATOR_URL its export block sets):',
    '  simulator clock                  the simulated time',
    '  simulator clock +1d              move it forward: +36h, +1d12h, +90m, or to a time: 2026-06-01T12:00:00Z',
    '  simulator churn [0.05]           read or set the share of events that change per simulated day',
    '  simulator faults [0.2]           read or set the share of API requests that fail',
  ].join('\n'),
  async run(values, positionals, ctx) {
    const [subcommand, ...args] = positionals;
    if (subcommand !== undefined) {
      const serving = Object.keys(values).filter(
        (k) => !['url', 'json', 'help'].includes(k) && values[k] !== undefined,
      );
      if (serving.length > 0) {
        throw new UsageError(`${subcommand} takes only --url and --json; --${serving[0]} starts a simulator`);
      }
      const { runSimulatorControl } = await import('../simulator-control.js');
      return runSimulatorControl({ command: subcommand, args, url: stringOption(values, 'url') }, ctx);
    }
    if (values.url !== undefined) throw new UsageError('--url names a running simulator for clock, churn or faults');
    const data = stringOption(values, 'data');
    if (data !== undefined && (values.events !== undefined || values.seed !== undefined)) {
      throw new UsageError('--data serves a dataset file; --events and --seed only shape a generated dataset');
    }
    const expired = intOption(values, 'expired-token-status', 401, 403);
    if (expired !== undefined && expired !== 401 && expired !== 403)
      throw new UsageError('--expired-token-status is 401 or 403');
    const kinds = stringOption(values, 'fault-kinds');
    let faultKinds;
    try {
      faultKinds = kinds === undefined ? undefined : parseFaultKinds(kinds);
    } catch (err) {
      throw new UsageError(`--fault-kinds: ${errorText(err)}`);
    }
    const options: SimulatorOptions = {
      port: intOption(values, 'port', 0, 65535) ?? DEFAULT_SIMULATOR_PORT,
      // Outside compact(): its generic would widen the 401 | 403 literal to number.
      ...(expired === undefined ? {} : { expiredTokenStatus: expired }),
      ...compact({
        host: stringOption(values, 'host'),
        seed: intOption(values, 'seed', 0, 2 ** 31 - 1),
        events: intOption(values, 'events', 0, 1_000_000),
        importDelayMs: intOption(values, 'import-delay-ms', 0, 3_600_000),
        latencyMs: intOption(values, 'latency-ms', 0, 600_000),
        faultRate: numberOption(values, 'fault-rate', 0, 1),
        faultKinds,
        faultStallMs: intOption(values, 'fault-stall-ms', 0, 3_600_000),
        churn: numberOption(values, 'churn', 0, 1),
        maxRoutes: intOption(values, 'max-routes', 1, 100_000_000),
        maxRouteBytes: intOption(values, 'max-route-bytes', 1, Number.MAX_SAFE_INTEGER),
        maxBodyBytesInFlight: intOption(values, 'max-body-bytes-in-flight', 1, Number.MAX_SAFE_INTEGER),
        requestTimeoutMs: intOption(values, 'request-timeout-ms', 1, 3_600_000),
        apiKey: stringOption(values, 'api-key'),
        dataset: data === undefined ? undefined : await loadDatasetFile(data),
      }),
    };
    const sim = await startSimulator(options);
    if (ctx.json) {
      printJson(ctx, true, { ...sim.info });
    } else {
      ctx.io.out([...simulatorReadyLines(sim), '', 'Press Ctrl-C to stop.'].join('\n'));
    }
    await serveUntilStopped(sim, ctx);
    return EXIT.ok;
  },
};
