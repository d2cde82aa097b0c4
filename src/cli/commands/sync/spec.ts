/** `livelox-bridge sync`: its options, help and exit codes, read without loading the sync job or SQLite. */
import { PORTAL_LINK_FORMATS } from '../../../links/portal.js';
import { DEFAULT_LINK_TEMPLATE } from '../../../links/template.js';
import { SERVICE_OPTIONS } from '../../shared-options.js';
import { defineCommand, defineOptions } from '../../spec.js';

/**
 * Exit codes beyond the common ones, both "nothing committed": `service` the service failed or the disk is full (run
 * again later), `state` the state file cannot be used (damaged, another program's, newer, held by a live run).
 */
export const SYNC_EXIT = { service: 3, state: 4 } as const;

export const syncOptions = defineOptions({
  state: {
    type: 'string',
    valueName: 'FILE',
    complete: 'file',
    description: 'the state file (default ~/.local/share/livelox-bridge/sync.sqlite)',
  },
  out: {
    type: 'string',
    valueName: 'FILE',
    complete: 'file',
    description: "write every portal event's links to FILE (json or csv, atomically)",
  },
  format: {
    type: 'string',
    choices: PORTAL_LINK_FORMATS,
    description: 'format of --out (default by extension, else json)',
  },
  'out-dir': {
    type: 'string',
    valueName: 'DIR',
    complete: 'directory',
    description: 'write one HTML fragment per portal event into DIR, with index.json (docs/sync.md)',
  },
  css: { type: 'boolean', description: 'also write the default stylesheet livelox-links.css into --out-dir' },
  lang: { type: 'string', valueName: 'TAG', description: "the fragments' language (lang attribute; default en)" },
  'no-links-text': {
    type: 'string',
    valueName: 'TEXT',
    description: 'what a fragment says for an event without links (default "No links yet.")',
  },
  'status-html': {
    type: 'string',
    valueName: 'FILE',
    complete: 'file',
    description: 'write the status page to FILE after the run, also after a failed one (atomically)',
  },
  jsonl: { type: 'boolean', description: 'print one JSON line per change' },
  progress: { type: 'boolean', description: 'progress lines on stderr also when it is not a terminal (for logs)' },
  'page-size': { type: 'string', valueName: 'N', description: 'events per search page (default 1000)' },
  full: { type: 'boolean', description: 'sweep the whole window to find events deleted on the service (weekly)' },
  'near-days': {
    type: 'string',
    valueName: 'BACK,AHEAD',
    description:
      "days before and after the service's clock searched every run for deleted linked events (default 3,14; 0,0: off)",
  },
  'dry-run': {
    type: 'boolean',
    description: 'do the whole run and report what would change, with its exit code; commit nothing, write no file',
  },
  overlap: {
    type: 'string',
    valueName: 'D',
    description: 'how far before the cursor to ask for changes (default 1h)',
  },
  'margin-days': {
    type: 'string',
    valueName: 'N',
    description: "days around the portal events' dates to mirror (default 7)",
  },
  pin: {
    type: 'string',
    multiple: true,
    valueName: 'KEY=ID',
    description: 'pin a portal event to a service event (kept in the state)',
  },
  unpin: { type: 'string', multiple: true, valueName: 'KEY', description: 'remove a pin' },
  template: {
    type: 'string',
    valueName: 'T',
    description: `link for classes without a service url (default ${DEFAULT_LINK_TEMPLATE})`,
  },
  ...SERVICE_OPTIONS,
});

export const syncStatusOptions = defineOptions({
  state: syncOptions.state,
  html: {
    type: 'string',
    valueName: 'FILE',
    complete: 'file',
    description: 'write the status page to FILE (atomically)',
  },
});

export const syncStatusSpec = defineCommand({
  name: 'status',
  summary: 'Say where a sync state stands, from the state alone: what needs a person, counts, the last runs.',
  usage: 'sync status [--state FILE] [--html FILE] [--json]',
  options: syncStatusOptions,
  details: [
    'Reads the state as the last run committed it, without a run: no request, no lock (a run may be under way), nothing',
    'written but --html. Prints the summary and the lines that need a person as a run prints them; --html writes the',
    'page `sync --status-html` writes, without the run. A portal folder named "status" is given as ./status. See docs/sync.md.',
  ].join('\n'),
  exitCodes: {
    0: 'nothing needs a person',
    1: 'something needs a person (the lines marked !)',
    [SYNC_EXIT.state]: "the state file cannot be read (missing, damaged, another program's, newer): see the message",
  },
  load: () => import('./status.js'),
});

export const syncSpec = defineCommand({
  name: 'sync',
  summary: 'Keep every event of a portal linked to its service event: a nightly job with its state in SQLite.',
  usage: [
    'sync <folder|events.json|EventList.xml...> [--state FILE] [--out FILE] [--out-dir DIR] [--status-html FILE] [--full] [--dry-run]',
    'sync status [--state FILE] [--html FILE] [--json]',
  ],
  arguments: { name: 'portal events', complete: 'file' },
  options: syncOptions,
  details: [
    'Portal events come from folders of IOF XML / EMS JSON exports, multi-event EMS JSON files (docs/ems-json.md) and',
    "IOF XML 3.0 EventLists (Eventor's, with the Livelox ids it stores per race). The first run mirrors the service's",
    'events of the window the portal spans; later runs ask only for what changed since (one request on a quiet night).',
    'A run commits in one transaction: killed at any point, the next run does what it would have done. See docs/sync.md.',
    'Near today (--near-days) every run also finds linked events deleted on the service; --full finds them everywhere.',
    '--dry-run asks the service and reports as a run would, exit code included, but leaves the state and files as they are.',
    '--status-html writes a page of where the state stands after every run, also a failed one; `sync status` writes it',
    'from the state alone.',
    'Example: livelox-bridge sync exports/ --state portal.sqlite --out links.json --out-dir fragments/',
  ].join('\n'),
  exitCodes: {
    0: 'committed (with --dry-run: would commit); nothing needs a person',
    1: 'committed (with --dry-run: would commit); something needs a person (the lines marked !), or the run failed otherwise',
    [SYNC_EXIT.service]: 'the service failed, or the disk is full; nothing committed (run again later)',
    [SYNC_EXIT.state]:
      'the state file cannot be used (damaged, held by a live run, ...): see the message; nothing committed',
  },
  subcommands: [syncStatusSpec],
  load: () => import('./run.js'),
});
