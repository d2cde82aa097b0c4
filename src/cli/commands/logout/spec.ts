/** `livelox-bridge logout`: its options and help, read without loading the OAuth flow or the client. */
import { SERVICE_OPTIONS } from '../../shared-options.js';
import { defineCommand } from '../../spec.js';

export const logoutSpec = defineCommand({
  name: 'logout',
  summary: 'Revoke the login tokens at the service and remove them from this machine.',
  usage: 'logout [options]',
  options: SERVICE_OPTIONS,
  exitCodes: {
    0: 'logged out, or nobody was logged in',
    1: 'the tokens were removed here, but the service could not be reached to revoke them: revoke the access in your Livelox account settings',
  },
  load: () => import('./run.js'),
});
