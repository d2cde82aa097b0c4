/** `livelox-bridge status <id...>`: the import record of one or more routes, optionally waiting until each is settled. */
import type { LiveloxClient } from '../../../client.js';
import { NotFoundError } from '../../../errors.js';
import { MAX_ROUTE_ID_LENGTH, type ImportRecord } from '../../../resources/routes.js';
import { UsageError, intOption } from '../../command.js';
import { clean, keyValues, terminal, type Style, type Terminal } from '../../format.js';
import { errorJson, errorText } from '../../hints.js';
import { printJson } from '../../json-output.js';
import { DEFAULT_IMPORT_TIMEOUT_S, WAIT_MAX_POLL_INTERVAL_MS, WAIT_POLL_INTERVAL_MS } from '../../import-wait.js';
import { openService } from '../../service.js';
import { EXIT, type CommandContext, type Values } from '../../spec.js';
import type { statusOptions } from './spec.js';

export async function run(
  values: Values<typeof statusOptions>,
  positionals: string[],
  ctx: CommandContext,
): Promise<number> {
  if (positionals.length === 0) throw new UsageError('takes one or more route ids, got none');
  for (const id of positionals) {
    if (id.length === 0 || id.length > MAX_ROUTE_ID_LENGTH) {
      throw new UsageError(`a route id has 1..${MAX_ROUTE_ID_LENGTH} characters, got ${id.length}: '${clean(id)}'`);
    }
  }
  const ids = [...new Set(positionals)];
  const wait = values.wait === true;
  const timeoutS = intOption(values, 'timeout-s', 1, 24 * 3600) ?? DEFAULT_IMPORT_TIMEOUT_S;
  if (values['timeout-s'] !== undefined && !wait) throw new UsageError('--timeout-s is the limit of --wait');
  const session = await openService(values, ctx, { auth: 'any' });
  try {
    const answers: RouteAnswer[] = [];
    // One after the other: the client's rate limit paces them anyway, and the output keeps the order given.
    // One deadline for all: --timeout-s bounds the whole wait, not each id's.
    const deadline = Date.now() + timeoutS * 1000;
    for (const id of ids) {
      try {
        answers.push({ id, record: await lookUp(session.client, id, wait, deadline, ctx) });
      } catch (err) {
        // One id is enough to report a lone failure as before; among several, an unknown id is one line of many.
        if (ids.length === 1 || !(err instanceof NotFoundError) || ctx.signal.aborted) throw err;
        answers.push({ id, error: err });
      }
    }
    const failed = answers.filter((a) => a.error !== undefined || a.record?.status === 'error').length;
    if (ctx.json) {
      printJson(ctx, failed === 0, {
        routes: answers.map((a) => (a.error ? { id: a.id, error: errorJson(a.error) } : { id: a.id, ...a.record })),
      });
    } else {
      const term = terminal(ctx.env);
      ctx.io.out(answers.map((a) => routeLines(a, term)).join('\n\n'));
    }
    return failed === 0 ? EXIT.ok : EXIT.failure;
  } finally {
    await session.close();
  }
}

interface RouteAnswer {
  id: string;
  record?: ImportRecord;
  error?: NotFoundError;
}

async function lookUp(
  client: LiveloxClient,
  id: string,
  wait: boolean,
  deadline: number,
  ctx: CommandContext,
): Promise<ImportRecord> {
  try {
    return wait
      ? await client.routes.waitForImport(id, {
          timeoutMs: Math.max(1, deadline - Date.now()),
          // The route may have been posted long ago: look at once, then as `import --wait` does.
          initialDelayMs: 0,
          pollIntervalMs: WAIT_POLL_INTERVAL_MS,
          maxPollIntervalMs: WAIT_MAX_POLL_INTERVAL_MS,
          signal: ctx.signal,
          onPoll: (r, attempt) => {
            if (r.status === 'pending') ctx.io.err(`${id}: pending (asked ${attempt}×), waiting…`);
          },
        })
      : await client.routes.status(id, { signal: ctx.signal });
  } catch (err) {
    if (err instanceof NotFoundError) {
      throw new NotFoundError('not_found', err.status, `no importable route has the id '${id}'.`, err.body, {
        cause: err,
        hint: 'Use the id `import` printed, with the same API key or login that posted the route.',
      });
    }
    throw err;
  }
}

function routeLines(answer: RouteAnswer, term: Terminal): string {
  const { id, record, error } = answer;
  if (error || !record)
    return keyValues(
      [
        ['Id', id],
        ['Status', 'unknown', 'red'],
        ['Error', errorText(error)],
      ],
      term,
    );
  const style: Style = record.status === 'imported' ? 'green' : record.status === 'error' ? 'red' : 'yellow';
  return keyValues(
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
  );
}
