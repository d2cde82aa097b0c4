/** Worker thread entry of `RouteParser`: parses one route's data per message, answering with the compact result. */
import { parentPort } from 'node:worker_threads';
import { parseRouteData } from './route-parse.js';

parentPort?.on('message', (job: { id: number; data: string }) => {
  const result = parseRouteData(job.data);
  parentPort!.postMessage({ id: job.id, result }, result.ok ? [result.points.buffer as ArrayBuffer] : []);
});
