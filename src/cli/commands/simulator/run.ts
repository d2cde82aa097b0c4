/**
 * `livelox-bridge simulator`: runs the local stand-in for the service until SIGINT/SIGTERM. (`simulator clock|churn|
 * faults` drive a running one: control.ts.)
 */
import { loadDatasetFile } from '../../../simulator/dataset/file.js';
import { parseFaultKinds } from '../../../simulator/faults.js';
import { startSimulator, type SimulatorOptions } from '../../../simulator/server.js';
import { DEFAULT_SIMULATOR_PORT } from '../../../config.js';
import { UsageError, intOption, numberOption, stringOption } from '../../command.js';
import { printJson } from '../../json-output.js';
import { errorText } from '../../hints.js';
import { compact } from '../../../core/compact.js';
import { ValidationError } from '../../../errors.js';
import { EXIT, type CommandContext, type Values } from '../../spec.js';
import { serveUntilStopped, simulatorReadyLines } from '../../simulator-info.js';
import type { simulatorOptions } from './spec.js';

/** The choices of --expired-token-status as the simulator takes them. */
const EXPIRED_TOKEN_STATUS = { '401': 401, '403': 403 } as const;

export async function run(
  values: Values<typeof simulatorOptions>,
  _positionals: string[],
  ctx: CommandContext,
): Promise<number> {
  const data = stringOption(values, 'data');
  if (data !== undefined && (values.events !== undefined || values.seed !== undefined)) {
    throw new UsageError('--data serves a dataset file; --events and --seed only shape a generated dataset');
  }
  const status = values['expired-token-status'];
  const expired = status === undefined ? undefined : EXPIRED_TOKEN_STATUS[status];
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
    ...(values['refresh-token-rotation'] === true ? { refreshTokenRotation: true } : {}),
    ...(values['no-scenarios'] === true ? { scenarios: false } : {}),
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
      minBodyBytesPerSecond: intOption(values, 'min-body-bytes-per-second', 0, Number.MAX_SAFE_INTEGER),
      slowBodyGraceMs: intOption(values, 'slow-body-grace-ms', 0, 3_600_000),
      drainTimeoutMs: intOption(values, 'drain-timeout-ms', 0, 3_600_000),
      apiKey: stringOption(values, 'api-key'),
      journalFile: stringOption(values, 'journal'),
      journalEntries: intOption(values, 'journal-entries', 1, 1_000_000),
      dataset: data === undefined ? undefined : await loadDatasetFile(data),
    }),
  };
  const sim = await startSimulator(options).catch((err: unknown) => {
    throw journalFileError(err) ?? err;
  });
  if (ctx.json) {
    printJson(ctx, true, { ...sim.info });
  } else {
    ctx.io.out([...simulatorReadyLines(sim), '', 'Press Ctrl-C to stop.'].join('\n'));
  }
  await serveUntilStopped(sim, ctx);
  return EXIT.ok;
}

/**
 * The journal file is opened when the simulator starts, so a path it cannot open is only found then: the library names
 * its option (`journalFile`), the user gave `--journal FILE`, a bad argument like any other (exit 2).
 */
function journalFileError(err: unknown): UsageError | undefined {
  if (!(err instanceof ValidationError)) return undefined;
  const issue = err.issues.find((i) => i.path === 'journalFile');
  return issue && new UsageError(`--journal FILE: ${issue.message}`);
}
