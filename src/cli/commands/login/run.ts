/**
 * `livelox-bridge login`: the OAuth 2.0 authorization code flow with PKCE for a command-line program (RFC 8252): a
 * one-shot HTTP server on the loopback interface receives the browser's redirect, the code is exchanged at once and
 * the tokens are saved for the other commands.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AuthorizationRequest, OAuthStrategy } from '../../../auth/oauth.js';
import type { UserInfo } from '../../../auth/oauth-wire.js';
import type { LiveloxClient } from '../../../client.js';
import { escapeHtml } from '../../../core/html.js';
import { ResponseShapeError, TimeoutError } from '../../../errors.js';
import { intOption } from '../../command.js';
import { errorText } from '../../hints.js';
import { printJson } from '../../json-output.js';
import { oauthTokenFile, openOAuthSession } from '../../service.js';
import { EXIT, type CommandContext, type Values } from '../../spec.js';
import { DEFAULT_LOGIN_TIMEOUT_S, type loginOptions } from './spec.js';

/** Interrupted by Ctrl-C (or SIGTERM) before the browser came back. */
class LoginCancelledError extends Error {
  constructor() {
    super('Login cancelled: interrupted before the browser came back. Nothing was saved.');
    this.name = 'LoginCancelledError';
  }
}

export async function run(
  values: Values<typeof loginOptions>,
  _positionals: string[],
  ctx: CommandContext,
): Promise<number> {
  const port = intOption(values, 'port', 0, 65535) ?? 0;
  const timeoutS = intOption(values, 'timeout-s', 1, 86_400) ?? DEFAULT_LOGIN_TIMEOUT_S;
  const session = await openOAuthSession(values, ctx, { rememberIssuer: false });
  try {
    const strategy = session.oauth;
    const { client } = session;
    const outcome = await loginThroughBrowser({
      client,
      strategy,
      ctx,
      port,
      timeoutMs: timeoutS * 1000,
      playBrowser: session.simulator !== undefined,
    });
    const info = await strategy.tokenInfo();
    const scopes = info?.scopes ?? [];
    const tokenFile = oauthTokenFile(values, ctx.env) ?? null;
    if (ctx.json) {
      printJson(ctx, true, { user: outcome.user ?? null, scopes, tokenFile });
      return EXIT.ok;
    }
    const who = outcome.user ? displayName(outcome.user) : 'an unnamed user';
    ctx.io.out(`Logged in as ${who} (${scopes.join(', ') || 'no scopes'})`);
    if (outcome.userError) {
      ctx.io.err(`The user's name could not be read (${outcome.userError}); the login itself worked.`);
    }
    ctx.io.out(
      tokenFile
        ? `Tokens saved to ${tokenFile}`
        : 'Tokens kept in memory only (--simulator without --token-file): they end with this command.',
    );
    return EXIT.ok;
  } finally {
    await session.close();
  }
}

interface LoginOutcome {
  user: UserInfo | undefined;
  /** Why the user info could not be read, when it could not (the login stands without it). */
  userError: string | undefined;
}

interface LoginFlow {
  client: LiveloxClient;
  strategy: OAuthStrategy;
  ctx: CommandContext;
  port: number;
  timeoutMs: number;
  /** --simulator: follow the authorization address here instead of waiting for a person. */
  playBrowser: boolean;
}

async function loginThroughBrowser(flow: LoginFlow): Promise<LoginOutcome> {
  const { client, strategy, ctx } = flow;
  // One controller for everything in flight (token exchange, simulated browser): timeout and Ctrl-C both end it.
  const stop = new AbortController();
  const onAbort = () => stop.abort(new LoginCancelledError());
  if (ctx.signal.aborted) onAbort();
  ctx.signal.addEventListener('abort', onAbort, { once: true });

  let settle!: (result: { outcome: LoginOutcome } | { error: unknown }) => void;
  const answered = new Promise<{ outcome: LoginOutcome } | { error: unknown }>((resolve) => (settle = resolve));
  let request: AuthorizationRequest | undefined;
  let finished = false;
  let busy = false;

  const onCallback = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    // The redirect URI's host: what the browser asked for is resolved against it, never against a Host header.
    const url = new URL(req.url ?? '/', `http://127.0.0.1`);
    if (req.method !== 'GET' || url.pathname !== '/callback' || !request) {
      void page(res, 404, 'Not found', '<p>This address only receives the Livelox login.</p>');
      return;
    }
    if (finished || busy) {
      void page(
        res,
        409,
        'Already answered',
        '<p>This login has already been answered. You can close this window.</p>',
      );
      return;
    }
    if (url.searchParams.get('state') !== request.state) {
      // A stale tab or a forged request: refused, and the real answer is still awaited.
      ctx.io.err('Ignored a callback that does not belong to this login (state mismatch); still waiting.');
      void page(
        res,
        400,
        'Login failed',
        '<p>This answer does not belong to the login in progress (state mismatch). Use the newest address that <code>livelox-bridge login</code> printed.</p>',
      );
      return;
    }
    busy = true;
    try {
      await strategy.completeAuthorization(client, request, url, { signal: stop.signal });
      let user: UserInfo | undefined;
      let userError: string | undefined;
      try {
        user = await strategy.userinfo(client, { signal: stop.signal });
      } catch (err) {
        if (stop.signal.aborted) throw err;
        userError = client.redactor.redact(errorText(err));
      }
      const who = user ? ` as <b>${escapeHtml(displayName(user), NAMED)}</b>` : '';
      await page(
        res,
        200,
        'Logged in',
        `<p>livelox-bridge is logged in to Livelox${who}. You can close this window.</p>`,
      );
      settle({ outcome: { user, userError } });
    } catch (err) {
      const why = client.redactor.redact(errorText(err));
      await page(
        res,
        400,
        'Login failed',
        `<p>${escapeHtml(why, NAMED)}</p><p>You can close this window and run <code>livelox-bridge login</code> again.</p>`,
      );
      settle({ error: err });
    } finally {
      busy = false;
    }
  };

  const server = createServer((req, res) => void onCallback(req, res));
  try {
    const actualPort = await listen(server, flow.port);
    const redirectUri = `http://127.0.0.1:${actualPort}/callback`;
    request = strategy.authorizationRequest(client, redirectUri);
    const say = (text: string) => (ctx.json ? ctx.io.err(text) : ctx.io.out(text));
    say(
      [
        'Open this address in a browser to log in to Livelox:',
        '',
        `  ${request.url.href}`,
        '',
        `Waiting for the browser to come back to ${redirectUri} (up to ${Math.round(flow.timeoutMs / 1000)} s; Ctrl-C cancels)...`,
      ].join('\n'),
    );
    if (flow.playBrowser) {
      say('--simulator: following the address here; the simulated user approves.');
      followAsBrowser(client, request.url, stop.signal).catch((err: unknown) => settle({ error: err }));
    }
    const timer = setTimeout(
      () =>
        stop.abort(
          new TimeoutError(`No answer from the browser within ${Math.round(flow.timeoutMs / 1000)} s.`, {
            hint: 'Run `livelox-bridge login` again and open the address it prints (--timeout-s gives more time).',
          }),
        ),
      flow.timeoutMs,
    );
    try {
      const result = await Promise.race([
        answered,
        new Promise<{ error: unknown }>((resolve) => {
          const stopped = () => resolve({ error: stop.signal.reason });
          if (stop.signal.aborted) stopped();
          stop.signal.addEventListener('abort', stopped, { once: true });
        }),
      ]);
      finished = true;
      if ('error' in result) throw result.error;
      return result.outcome;
    } finally {
      clearTimeout(timer);
    }
  } finally {
    finished = true;
    ctx.signal.removeEventListener('abort', onAbort);
    // Ends an exchange still running (timeout, Ctrl-C); a no-op after success.
    if (!stop.signal.aborted) stop.abort(new LoginCancelledError());
    await closeServer(server);
  }
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      reject(
        new Error(
          `cannot listen on 127.0.0.1:${port} for the browser's answer (${err.code ?? err.message}); choose another --port, or 0 for any free one`,
        ),
      );
    });
    // Loopback only (RFC 8252 7.3): nothing beyond this machine can send the callback.
    server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

async function closeServer(server: Server): Promise<void> {
  if (!server.listening) return;
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // A browser may keep its connection open; the login is over, so it is cut.
  server.closeAllConnections();
  await closed;
}

/**
 * What a browser does with the authorization address, for the embedded simulator: GET it, read the 302 and follow it
 * to the loopback callback (whose answer arrives once the code is exchanged).
 */
async function followAsBrowser(client: LiveloxClient, url: URL, signal: AbortSignal): Promise<void> {
  const info = { method: 'GET', path: '/oauth2/authorize' };
  const res = await client.transport.request({ method: 'GET', url, info, signal, noRetry: true });
  const location = res.headers.location;
  if (res.status !== 302 || typeof location !== 'string') {
    throw new ResponseShapeError(`The authorization page answered ${res.status} instead of a redirect`, [], {
      request: info,
    });
  }
  const target = new URL(location, url);
  await client.transport.request({
    method: 'GET',
    url: target,
    info: { method: 'GET', path: target.pathname },
    signal,
    noRetry: true,
  });
}

function page(res: ServerResponse, status: number, title: string, body: string): Promise<void> {
  const html = `<!doctype html><html lang="en"><meta charset="utf-8"><title>livelox-bridge: ${escapeHtml(title, NAMED)}</title><h1>${escapeHtml(title, NAMED)}</h1>${body}</html>`;
  return new Promise((resolve) => {
    if (res.destroyed || res.writableEnded) {
      resolve();
      return;
    }
    res.writeHead(status, {
      'content-type': 'text/html; charset=utf-8',
      'content-length': String(Buffer.byteLength(html)),
      'cache-control': 'no-store',
      // The callback address carries the code: no page it leads to may learn it from a Referer.
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
      connection: 'close',
    });
    res.end(html, () => resolve());
  });
}

/** The page has always been written with named references (`&lt;`): see core/html.ts. */
const NAMED = { named: true };

function displayName(user: UserInfo): string {
  return user.name ?? user.email ?? user.sub;
}
