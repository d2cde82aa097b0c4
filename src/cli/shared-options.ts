/**
 * Options several commands share, as data: the options every command takes (`--json`, `--help`), those of every
 * command that talks to the service, and a few more. A start-up module (spec.ts): specs spread these into their
 * tables, so nothing here may load the client.
 */
import { DEFAULT_AUTH_URL, DEFAULT_BASE_URL, DEFAULT_CLIENT_ID, DEFAULT_VIEWER_URL, ENV } from '../config.js';
import { defineOptions, type OptionSpec } from './spec.js';

/** Taken by every command; the parser adds them to each table, help lists them last. */
export const GLOBAL_OPTIONS = defineOptions({
  json: { type: 'boolean', description: 'machine-readable output on stdout' },
  help: { type: 'boolean', short: 'h', description: 'show help for the command' },
});

/** Where the service is and who asks: read by service.ts (openService), in layers flag > variable > default. */
export const SERVICE_OPTIONS = defineOptions({
  'base-url': {
    type: 'string',
    valueName: 'URL',
    description: `API address (env ${ENV.baseUrl}; default ${DEFAULT_BASE_URL})`,
  },
  'auth-url': {
    type: 'string',
    valueName: 'URL',
    description: `OAuth2 address (env ${ENV.authUrl}; default ${DEFAULT_AUTH_URL})`,
  },
  'viewer-url': {
    type: 'string',
    valueName: 'URL',
    description: `viewer pages address (env ${ENV.viewerUrl}; default ${DEFAULT_VIEWER_URL})`,
  },
  'api-key': {
    type: 'string',
    valueName: 'KEY',
    description: `API key (env ${ENV.apiKey}); without one, the login token is used`,
  },
  'token-file': {
    type: 'string',
    valueName: 'FILE',
    complete: 'file',
    description: `where \`login\` keeps OAuth tokens (env ${ENV.tokenFile}; default ~/.config/livelox-bridge/tokens.json)`,
  },
  'client-id': {
    type: 'string',
    valueName: 'ID',
    description: `OAuth client id (env ${ENV.clientId}; default ${DEFAULT_CLIENT_ID})`,
  },
  simulator: { type: 'boolean', description: 'run against an embedded simulator started for this command' },
});

/** `--culture` of countries, event and events; culture-option.ts checks the value. */
export const CULTURE_OPTION = {
  type: 'string',
  valueName: 'CODE',
  description: 'language of country names and other culture-specific values, such as sv-SE (service default en-US)',
} as const satisfies OptionSpec;

/** Schema errors shown per file unless --all: the first few say what is wrong, the rest are often the same. */
export const MAX_SCHEMA_ERRORS = 10;

/** `--all` of validate and check-courses. */
export const ALL_SCHEMA_ERRORS_OPTION = {
  type: 'boolean',
  description: `show every schema error (default: the first ${MAX_SCHEMA_ERRORS} per file)`,
} as const satisfies OptionSpec;

/**
 * `--schema FILE` and `--dtd FILE`, for the commands that validate: the first step of the schema lookup (then
 * `IOF_XSD` / `IOF_DTD`, the package's copy, the cache); schema-options.ts reads them.
 */
export const SCHEMA_OPTIONS = defineOptions({
  schema: {
    type: 'string',
    valueName: 'FILE',
    complete: 'file',
    description: 'IOF.xsd to validate against (default: IOF_XSD, the package, the cache: `schema status` says which)',
  },
  dtd: {
    type: 'string',
    valueName: 'FILE',
    complete: 'file',
    description: 'the IOF 2.0.3 DTD for 2.0.3 files (default: IOF_DTD, the package, the cache)',
  },
});
