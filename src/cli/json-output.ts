/**
 * The one `--json` envelope of every command: a single JSON document `{"ok": true|false, ...}` on stdout. `ok` says
 * whether the command did what it was asked (the exit code says the same); the rest is the command's answer, with
 * lists under a named key (`countries`, `events`, `routes`) and single records spread beside `ok`. Failures carry
 * `error: {name, code, message, ...}`. Documented in docs/cli-json.md.
 */
import type { CommandContext } from './spec.js';

export function printJson(ctx: Pick<CommandContext, 'io'>, ok: boolean, body: Record<string, unknown>): void {
  ctx.io.out(JSON.stringify({ ok, ...body }));
}
