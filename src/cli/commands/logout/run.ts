/** `livelox-bridge logout`: revokes the login's tokens at the service and removes them from this machine. */
import { existsSync } from 'node:fs';
import { FileTokenStore } from '../../../auth/token-store.js';
import { InputError } from '../../../errors.js';
import { errorJson, errorText } from '../../hints.js';
import { printJson } from '../../json-output.js';
import { oauthTokenFile, openOAuthSession } from '../../service.js';
import type { SERVICE_OPTIONS } from '../../shared-options.js';
import { EXIT, type CommandContext, type Values } from '../../spec.js';

export async function run(
  values: Values<typeof SERVICE_OPTIONS>,
  _positionals: string[],
  ctx: CommandContext,
): Promise<number> {
  const tokenFile = oauthTokenFile(values, ctx.env) ?? null;
  const session = await openOAuthSession(values, ctx);
  try {
    const strategy = session.oauth;
    let loggedIn: boolean;
    try {
      loggedIn = await strategy.loggedIn();
    } catch (err) {
      // An unreadable token file holds nothing that can be revoked; logging out still means removing it.
      if (!(err instanceof InputError) || tokenFile === null) throw err;
      await new FileTokenStore(tokenFile).clear();
      const note = `Logged out: removed the unreadable token file ${tokenFile} (nothing in it could be revoked).`;
      if (ctx.json) printJson(ctx, true, { loggedIn: true, revoked: false, tokenFile });
      else ctx.io.out(note);
      return EXIT.ok;
    }
    if (!loggedIn) {
      if (ctx.json) printJson(ctx, true, { loggedIn: false, revoked: false, tokenFile });
      else ctx.io.out('Not logged in: nothing to do.');
      return EXIT.ok;
    }
    try {
      await strategy.revoke(session.client, { signal: ctx.signal });
    } catch (err) {
      // revoke() has cleared the store already: the login is gone here, only the service may still honour it.
      if (ctx.json) {
        printJson(ctx, false, { loggedOutLocally: true, revoked: false, tokenFile, error: errorJson(err) });
      } else {
        ctx.io.err(
          `livelox-bridge logout: the tokens were removed from this machine, but the service could not revoke them: ${errorText(err)}`,
        );
        ctx.io.err('Revoke the access in your Livelox account settings to be sure.');
      }
      return EXIT.failure;
    }
    if (ctx.json) printJson(ctx, true, { loggedIn: true, revoked: true, tokenFile });
    // revoke() removes only the tokens it revoked: a login another process wrote meanwhile stays in the file.
    else if (tokenFile !== null && existsSync(tokenFile)) {
      ctx.io.out(
        `Logged out: the tokens were revoked; ${tokenFile} holds a newer login, written meanwhile, and was kept.`,
      );
    } else ctx.io.out(`Logged out: the tokens were revoked${tokenFile ? ` and ${tokenFile} removed` : ''}.`);
    return EXIT.ok;
  } finally {
    await session.close();
  }
}
