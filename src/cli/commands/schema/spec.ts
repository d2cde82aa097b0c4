/**
 * `livelox-bridge schema fetch|status`: the IOF's grammar files on this machine. Options and help, read without
 * loading the validator or the download.
 */
import { SCHEMA_OPTIONS } from '../../shared-options.js';
import { defineCommand, defineOptions } from '../../spec.js';

export const schemaFetchOptions = defineOptions({
  from: {
    type: 'string',
    valueName: 'URL|FILE',
    description: "take the file from this address (a mirror) or local copy instead of the IOF's repository",
  },
  sha256: {
    type: 'string',
    valueName: 'HEX',
    description: 'the digest the file must have; another one is an error and nothing is written',
  },
  'timeout-s': {
    type: 'string',
    valueName: 'N',
    description: 'seconds one file may take in all, retries included, before giving up (default 60)',
  },
});

export const schemaStatusOptions = defineOptions({ ...SCHEMA_OPTIONS });

const LOOKUP =
  'Validation finds each file with --schema/--dtd, else IOF_XSD/IOF_DTD (read when the command runs), else ' +
  'schemas/ in the package (a checkout), else the cache ($XDG_CACHE_HOME/livelox-bridge, ~/.cache/livelox-bridge ' +
  'on Linux, ~/Library/Caches on macOS, %LOCALAPPDATA% on Windows).';

export const schemaFetchSpec = defineCommand({
  name: 'fetch',
  summary: "Download the IOF's IOF.xsd (and the IOF 2.0.3 DTD), check them and write them into the cache.",
  usage: 'schema fetch [xsd|dtd] [--from URL|FILE] [--sha256 HEX] [--timeout-s N]',
  arguments: { name: 'file', choices: ['xsd', 'dtd'] },
  options: schemaFetchOptions,
  details: [
    "Downloads IOF.xsd and the IOF 2.0.3 DTD from the IOF's repositories at pinned commits (`fetch xsd` or `fetch dtd`",
    'for one), checks that each is that file (whole, with the pinned sha256, compiling with libxml2) and writes it',
    'atomically into the cache; a failed fetch leaves the cache as it was. --from and --sha256 name one file: IOF.xsd,',
    'or the DTD with `fetch dtd`. The download honours HTTPS_PROXY, HTTP_PROXY and NO_PROXY.',
    LOOKUP,
    'With --json: {"ok","files":[{kind,path,from,redirects,sha256,bytes,verified,status,replaced}]} (and "error").',
    'Examples: livelox-bridge schema fetch',
    '          livelox-bridge schema fetch --from https://mirror.example.org/IOF.xsd --sha256 9d00ab...',
  ].join('\n'),
  exitCodes: { 0: 'every file asked for is in the cache', 1: 'a fetch failed (the cache is as it was)' },
  load: () => import('./fetch.js'),
});

export const schemaStatusSpec = defineCommand({
  name: 'status',
  summary: 'Say which copy of IOF.xsd and of the 2.0.3 DTD validation uses, and what each step of the lookup found.',
  usage: 'schema status [--schema FILE] [--dtd FILE]',
  options: schemaStatusOptions,
  details: [
    LOOKUP,
    'With --json: {"ok","cacheDir","schema":{kind,file,path?,source?,sha256?,published?,steps:[{source,status,path?,',
    'variable?,detail?}]},"dtd":{...}}.',
  ].join('\n'),
  exitCodes: { 0: 'IOF.xsd is found', 1: 'IOF.xsd is found nowhere' },
  load: () => import('./status.js'),
});

export const schemaSpec = defineCommand({
  name: 'schema',
  summary:
    "Fetch the IOF's schema files into the cache (schema fetch), or say which copy validation uses (schema status).",
  usage: ['schema fetch [xsd|dtd] [--from URL|FILE] [--sha256 HEX]', 'schema status'],
  details: 'The IOF publishes IOF.xsd and the IOF 2.0.3 DTD; livelox-bridge ships neither. See docs/schema.md.',
  subcommands: [schemaFetchSpec, schemaStatusSpec],
});
