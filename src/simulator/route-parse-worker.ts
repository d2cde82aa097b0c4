/** Worker thread entry of `RouteParser`: parses one route's data per message, answering with the compact result. */
import { parentPort } from 'node:worker_threads';
import { parseRouteData, type ParsedRoute } from './route-parse.js';

parentPort?.on('message', (job: { id: number; data: string }) => {
  let result: ParsedRoute;
  try {
    result = parseRouteData(job.data);
  } catch (err) {
    // Not a client's mistake (the parser broke): the import settles as an error naming it, the server stays up.
    result = { ok: false, errorMessage: `The simulator failed to read the route: ${String(err)}` };
  }
  parentPort!.postMessage({ id: job.id, result }, result.ok ? [result.points.buffer as ArrayBuffer] : []);
});
