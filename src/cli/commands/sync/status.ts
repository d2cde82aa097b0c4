/**
 * `livelox-bridge sync status [--state FILE] [--html FILE]`: where a sync state stands, read without a run (no
 * request, no lock), as text, `--json` (the sync job's status) or the status page. Exit 0 when nothing needs a
 * person, 1 when something does, 4 when the state cannot be read (missing or damaged: nothing is written).
 */
import { StateError } from '../../../errors.js';
import { readSyncStatus } from '../../../jobs/sync/status.js';
import { syncStatusPage } from '../../../pictures/sync-status-page.js';
import { stringOption } from '../../command.js';
import { errorJson, errorText } from '../../hints.js';
import { printJson } from '../../json-output.js';
import { writeFileAtomic } from '../../output-files.js';
import { EXIT, type CommandContext, type Values } from '../../spec.js';
import { defaultStatePath } from './run.js';
import { SYNC_EXIT, type syncStatusOptions } from './spec.js';
import { statusLines, statusPageInput } from './status-page.js';

export async function run(values: Values<typeof syncStatusOptions>, _args: string[], ctx: CommandContext) {
  const statePath = stringOption(values, 'state') ?? defaultStatePath(ctx.env);
  const html = stringOption(values, 'html');
  let status;
  try {
    status = readSyncStatus(statePath);
  } catch (err) {
    if (!(err instanceof StateError)) throw err;
    if (ctx.json) printJson(ctx, false, { error: errorJson(err) });
    else
      ctx.io.err(`livelox-bridge sync status: ${errorText(err)}${html === undefined ? '' : ' No page was written.'}`);
    return SYNC_EXIT.state;
  }
  if (html !== undefined) {
    const page = syncStatusPage(statusPageInput(status, { statePath, writtenAt: new Date() }));
    await writeFileAtomic(html, Buffer.from(page, 'utf8'));
  }
  const ok = status.attention.length === 0;
  if (ctx.json) printJson(ctx, ok, { ...status });
  else ctx.io.out(statusLines(status).join('\n'));
  return ok ? EXIT.ok : EXIT.failure;
}
