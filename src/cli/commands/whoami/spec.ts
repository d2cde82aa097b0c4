/** `livelox-bridge whoami`: its options and help, read without loading the OAuth flow or the client. */
import { SERVICE_OPTIONS } from '../../shared-options.js';
import { defineCommand } from '../../spec.js';

export const whoamiSpec = defineCommand({
  name: 'whoami',
  summary: 'Show the logged-in user (name, person id, email), the granted scopes and when the access token expires.',
  usage: 'whoami [options]',
  options: SERVICE_OPTIONS,
  details:
    'The user is shown as the service answers (person id, first and last name; observed, not published), or by an OIDC-style subject.',
  exitCodes: { 1: 'nobody is logged in, or the service no longer honours the login' },
  load: () => import('./run.js'),
});
