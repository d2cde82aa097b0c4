/** `livelox-bridge login`: its options and help, read without loading the OAuth flow or the client. */
import { SERVICE_OPTIONS } from '../../shared-options.js';
import { defineCommand, defineOptions } from '../../spec.js';

/** How long login waits for the browser without --timeout-s. */
export const DEFAULT_LOGIN_TIMEOUT_S = 300;

export const loginOptions = defineOptions({
  ...SERVICE_OPTIONS,
  port: {
    type: 'string',
    valueName: 'N',
    description: 'loopback port for the browser to come back to; 0 picks a free one (default 0)',
  },
  'timeout-s': {
    type: 'string',
    valueName: 'N',
    description: `how long to wait for the browser, in seconds (default ${DEFAULT_LOGIN_TIMEOUT_S})`,
  },
});

export const loginSpec = defineCommand({
  name: 'login',
  summary: 'Log in to Livelox in a browser (OAuth 2.0 with PKCE) and keep the tokens for the other commands.',
  usage: 'login [--port N] [--timeout-s N] [options]',
  options: loginOptions,
  details: [
    'Prints an address to open in a browser. After you approve, the browser is sent back to',
    'http://127.0.0.1:PORT/callback, served by this command, and the tokens are saved (file mode 0600).',
    'With --simulator the command plays the browser itself against an embedded simulator, and the tokens stay in',
    'memory unless --token-file is given: they would be worthless once the simulator stops.',
    'With --json the address goes to stderr and stdout gets one line:',
    '  {"ok":true,"user":{...},"scopes":[...],"tokenFile":...}',
  ].join('\n'),
  load: () => import('./run.js'),
});
