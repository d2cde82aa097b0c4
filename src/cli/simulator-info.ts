/**
 * What the CLI says about a simulator it runs: its addresses and keys, and the `export` block that points other shells
 * at it. `livelox-bridge simulator` prints it when ready, and a demo run with `--keep` when it leaves its simulator
 * serving, so that both read the same.
 */
import { ENV } from '../config.js';
import type { Simulator, SimulatorInfo } from '../simulator/server.js';
import type { CommandContext } from './spec.js';

/** The addresses, the keys and the export block, as printed when a simulator is ready to serve other programs. */
export function simulatorReadyLines(sim: Simulator): string[] {
  const d = sim.describe();
  return [
    `Simulator ready: ${String(d.events)} events in ${(d.countriesWithEvents as string[]).join(', ')}`,
    `  API (base URL)   ${sim.info.baseUrl}`,
    `  OAuth2 (auth)    ${sim.info.authUrl}`,
    `  Viewer pages     ${sim.info.viewerUrl}`,
    `  Controls         ${sim.info.controlUrl}`,
    `  API key          ${sim.info.apiKey}`,
    `  Limited API key  ${sim.info.limitedApiKey}  (no course access)`,
    `  Other API key    ${sim.info.otherApiKey}  (another application: others' importable events are refused)`,
    `  OAuth client id  ${sim.info.clientId}  (any loopback redirect URI)`,
    '',
    'To point livelox-bridge (and `login`) at it from another shell, paste:',
    ...exportLines(sim.info),
  ];
}

/**
 * `export NAME='value'` lines for every setting the CLI reads from the environment, so that pointing other commands
 * at this simulator is one copy-paste (the client id included, so that tokens are issued to the simulator's own
 * client; the control address, so that `livelox-bridge simulator clock +1d` there moves this simulator's clock).
 */
function exportLines(info: SimulatorInfo): string[] {
  const settings: Array<[string, string]> = [
    [ENV.baseUrl, info.baseUrl],
    [ENV.authUrl, info.authUrl],
    [ENV.viewerUrl, info.viewerUrl],
    [ENV.apiKey, info.apiKey],
    [ENV.clientId, info.clientId],
    [ENV.simulatorUrl, info.controlUrl],
  ];
  return settings.map(([name, value]) => `  export ${name}='${value.replaceAll("'", "'\\''")}'`);
}

/**
 * Serves until Ctrl-C or SIGTERM (the command's signal), then stops the simulator and says so. Stopping lets the
 * requests in flight finish (up to the simulator's drain timeout) while new connections are refused; a second Ctrl-C
 * or SIGTERM ends the process at once (main.ts).
 */
export async function serveUntilStopped(sim: Simulator, ctx: CommandContext): Promise<void> {
  await new Promise<void>((resolve) => {
    if (ctx.signal.aborted) resolve();
    ctx.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  const inFlight = sim.requestsInFlight;
  if (!ctx.json && inFlight > 0) {
    const s = sim.drainTimeoutMs / 1000;
    ctx.io.err(
      `Stopping: finishing ${inFlight} request${inFlight === 1 ? '' : 's'} in flight (at most ${s} s; Ctrl-C again stops at once).`,
    );
  }
  await sim.close();
  if (!ctx.json) ctx.io.err('Simulator stopped.');
}
