/**
 * `livelox-bridge publish status`: every importable event the state file records, with its state as the service has
 * it now (one GET each), its event id and addresses. The state file is read as a copy: nothing is written.
 */
import { StateError } from '../../../errors.js';
import { publishedStatus, type PublishedStatus } from '../../../jobs/publish/status.js';
import { openPublishState, publishStateOf, type PublishLinks } from '../../../store/publish-state.js';
import { stringOption } from '../../command.js';
import { clean, keyValues, plural, terminal } from '../../format.js';
import { errorJson, errorText } from '../../hints.js';
import { printJson } from '../../json-output.js';
import { openService } from '../../service.js';
import { EXIT, type CommandContext, type Values } from '../../spec.js';
import { defaultPublishStatePath } from './run.js';
import { PUBLISH_EXIT, type publishStatusOptions } from './spec.js';

export async function run(values: Values<typeof publishStatusOptions>, _args: string[], ctx: CommandContext) {
  const statePath = stringOption(values, 'state') ?? defaultPublishStatePath(ctx.env);
  let published;
  try {
    const state = openPublishState(statePath, { readOnly: true });
    try {
      published = publishStateOf(state).all();
    } finally {
      state.close();
    }
  } catch (err) {
    if (!(err instanceof StateError)) throw err;
    if (ctx.json) printJson(ctx, false, { error: errorJson(err) });
    else ctx.io.err(`livelox-bridge publish status: ${errorText(err)}`);
    return PUBLISH_EXIT.state;
  }
  let rows: PublishedStatus[] = [];
  if (published.length > 0) {
    const session = await openService(values, ctx, { auth: 'any' });
    try {
      rows = await publishedStatus(session.client, published, { signal: ctx.signal });
    } finally {
      await session.close();
    }
  }
  // The newest row per key decides: one gone and replaced since (its row marked `replaced`) is history, not a failure.
  const newest = new Map(rows.map((r) => [r.key, r]));
  const ok = [...newest.values()].every((r) => r.state !== 'gone');
  if (ctx.json) printJson(ctx, ok, { published: rows });
  else ctx.io.out(statusText(rows, ctx));
  return ok ? EXIT.ok : EXIT.failure;
}

function statusText(rows: readonly PublishedStatus[], ctx: CommandContext): string {
  if (rows.length === 0) return 'Nothing published yet.';
  const term = terminal(ctx.env);
  const out = [`${plural(rows.length, 'importable event')} published:`];
  for (const r of rows) {
    out.push(
      '',
      keyValues(
        [
          ['File', clean(r.file)],
          ['Name', clean(r.name)],
          ['Importable event', clean(r.importableId)],
          ['State', r.recorded === 'replaced' ? `${r.state} (replaced by a newer one)` : r.state],
          ...(r.eventId === undefined ? [] : ([['Event id', String(r.eventId)]] as Array<[string, string]>)),
          ...linkRows(r.links),
        ],
        term,
      ),
    );
  }
  return out.join('\n');
}

const LINK_NAMES: Readonly<Record<keyof PublishLinks, string>> = {
  importUrl: 'Import address',
  showUrl: 'Show address',
  editUrl: 'Edit address',
};

function linkRows(links: PublishLinks): Array<[string, string]> {
  return (Object.keys(LINK_NAMES) as Array<keyof PublishLinks>).flatMap((k) => {
    const url = links[k];
    return url === undefined ? [] : [[LINK_NAMES[k], clean(url)] as [string, string]];
  });
}
