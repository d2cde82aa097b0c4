/** `livelox-bridge whoami`: who the stored login belongs to, asked of the service, with the token's scopes and expiry. */
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
    // Not logged in, or a login the service refuses to renew: a LoginRequiredError, reported with exit 1.
    const user = await strategy.userinfo(session.client, { signal: ctx.signal });
    // Read after userinfo: an expired token has been renewed by then, and this is the expiry now in force.
    const info = await strategy.tokenInfo();
    const scopes = info?.scopes ?? [];
    const expiresAt = info ? new Date(info.expiresAt).toISOString() : null;
    if (ctx.json) {
      printJson(ctx, true, { user, scopes, expiresAt, refreshable: info?.refreshable ?? false, tokenFile });
      return EXIT.ok;
    }
    // The person id is what the service answers (observed, not published); an OIDC-style server gives `sub` only.
    const rows: Array<[string, string]> = [
      ['name', user.name ?? '(not given)'],
      user.personId === undefined ? ['user id', user.sub] : ['person', String(user.personId)],
      ['email', user.email ?? '(not given)'],
      ['scopes', scopes.join(' ') || '(none)'],
    ];
    if (info) {
      const renew = info.refreshable ? 'renewed automatically' : 'cannot be renewed: log in again then';
      rows.push(['token', `expires ${expiresAt ?? ''} (${untilText(info.expiresAt - Date.now())}), ${renew}`]);
    }
    rows.push(['tokens', tokenFile ?? 'in memory (--simulator)']);
    ctx.io.out(rows.map(([k, v]) => `${k.padEnd(8)} ${v}`).join('\n'));
    return EXIT.ok;
  } finally {
    await session.close();
  }
}

function untilText(ms: number): string {
  if (ms <= 0) return 'expired';
  const minutes = Math.floor(ms / 60_000);
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return h > 0 ? `in ${h} h ${m} min` : `in ${m} min`;
}
