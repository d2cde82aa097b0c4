/** `livelox-bridge status <id>`: the import record of one route, optionally waiting until it is settled. */
import { NotFoundError } from '../../errors.js';
import { MAX_ROUTE_ID_LENGTH, type ImportRecord } from '../../resources/routes.js';
import { EXIT, UsageError, intOption, type Command } from '../command.js';
import { keyValues, terminal, type Style } from '../format.js';
import { DEFAULT_IMPORT_TIMEOUT_S, WAIT_MAX_POLL_INTERVAL_MS, WAIT_POLL_INTERVAL_MS } from '../import-wait.js';
import { SERVICE_OPTIONS, openService } from '../service.js';

export const statusCommand: Command = {
  name: 'status',
  summary: 'Show the import state of a route (pending, imported with viewer links, or error with the reason).',
  usage: 'status <id> [--wait] [--timeout-s N]',
  allowPositionals: true,
  options: {
    wait: { type: 'boolean', description: 'wait until the route is imported or failed' },
    'timeout-s': {
      type: 'string',
      valueName: 'N',
      description: `how long --wait waits (default ${DEFAULT_IMPORT_TIMEOUT_S})`,
    },
    ...SERVICE_OPTIONS,
  },
  details: [
    'The id is the one `import` printed. Routes belong to who posted them: ask with the same API key or login.',
    'Exit 1 when the import failed (status error), the id is unknown, or --wait ran out of time.',
    'Example: livelox-bridge status lb-3q2...Xw --wait',
  ].join('\n'),
  async run(values, positionals, ctx) {
    if (positionals.length !== 1) {
      throw new UsageError(`status takes one route id, got ${positionals.length === 0 ? 'none' : positionals.length}`);
    }
    const id = positionals[0]!;
    if (id.length === 0 || id.length > MAX_ROUTE_ID_LENGTH) {
      throw new UsageError(`a route id has 1..${MAX_ROUTE_ID_LENGTH} characters, got ${id.length}`);
    }
    const wait = values.wait === true;
    const timeoutS = intOption(values, 'timeout-s', 1, 24 * 3600) ?? DEFAULT_IMPORT_TIMEOUT_S;
    if (values['timeout-s'] !== undefined && !wait) throw new UsageError('--timeout-s is the limit of --wait');
    const session = await openService(values, ctx, { auth: 'any' });
    try {
      let record: ImportRecord;
      try {
        record = wait
          ? await session.client.routes.waitForImport(id, {
              timeoutMs: timeoutS * 1000,
              // The route may have been posted long ago: look at once, then as `import --wait` does.
              initialDelayMs: 0,
              pollIntervalMs: WAIT_POLL_INTERVAL_MS,
              maxPollIntervalMs: WAIT_MAX_POLL_INTERVAL_MS,
              signal: ctx.signal,
              onPoll: (r, attempt) => {
                if (r.status === 'pending') ctx.io.err(`${id}: pending (asked ${attempt}×), waiting…`);
              },
            })
          : await session.client.routes.status(id, { signal: ctx.signal });
      } catch (err) {
        if (err instanceof NotFoundError) {
          throw new NotFoundError('not_found', err.status, `no importable route has the id '${id}'.`, err.body, {
            cause: err,
            hint: 'Use the id `import` printed, with the same API key or login that posted the route.',
          });
        }
        throw err;
      }
      if (ctx.json) {
        ctx.io.out(JSON.stringify({ id, ...record }));
      } else {
        const term = terminal(ctx.env);
        const style: Style = record.status === 'imported' ? 'green' : record.status === 'error' ? 'red' : 'yellow';
        ctx.io.out(
          keyValues(
            [
              ['Id', id],
              ['Status', record.status, style],
              ['Event', record.eventName],
              ['Class', record.className],
              ['Viewer', record.viewerUrl],
              ['Route page', record.showRouteUrl],
              ['Edit page', record.editRouteUrl],
              ['Error', record.errorMessage],
            ],
            term,
          ),
        );
      }
      return record.status === 'error' ? EXIT.failure : EXIT.ok;
    } finally {
      await session.close();
    }
  },
};
