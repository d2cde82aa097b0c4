/** `livelox-bridge import`: its options and help, read without loading the GPS readers, the job or SQLite. */
import { DEFAULT_IMPORT_TIMEOUT_S } from '../../import-wait.js';
import { SERVICE_OPTIONS } from '../../shared-options.js';
import { defineCommand, defineOptions } from '../../spec.js';

/** Routes read and sent, and requests in flight, at the same time without --concurrency. */
export const DEFAULT_CONCURRENCY = 8;
export const MAX_CONCURRENCY = 32;
/** Requests per second without --rate: the library's default, gentle with a service shared by everyone. */
export const DEFAULT_RATE = 10;
/** Highest --rate: far above what a batch needs to keep its slots busy (a 400-route batch makes about 300 a second). */
export const MAX_RATE = 1000;

/** Exit code beyond the common ones: the journal cannot be used (read, written: a damaged file, a full disk). */
export const IMPORT_EXIT = { journal: 4 } as const;

export const importOptions = defineOptions({
  journal: {
    type: 'string',
    valueName: 'FILE',
    complete: 'file',
    description: 'the import journal (default ~/.local/share/livelox-bridge/imports.sqlite)',
  },
  'class-id': { type: 'string', valueName: 'N', description: 'connect routes to this class (a manifest row wins)' },
  'device-model': { type: 'string', valueName: 'S', description: 'model of the recording device' },
  device: { type: 'string', valueName: 'S', description: 'the same as --device-model (its earlier name)' },
  'first-name': { type: 'string', valueName: 'X', description: 'first name of the runner (API key only)' },
  'last-name': { type: 'string', valueName: 'Y', description: 'last name of the runner (API key only)' },
  manifest: {
    type: 'string',
    valueName: 'FILE',
    complete: 'file',
    description: 'CSV or JSON rows: file, classId, firstName, lastName, deviceModel, id',
  },
  wait: { type: 'boolean', description: 'wait until each route is imported or failed' },
  'timeout-s': {
    type: 'string',
    valueName: 'N',
    description: `how long --wait waits for one route (default ${DEFAULT_IMPORT_TIMEOUT_S})`,
  },
  'import-time': {
    type: 'string',
    valueName: 'MIN-MAX',
    description: "the service's import time, for the polling pace (default 5s-15s)",
  },
  concurrency: {
    type: 'string',
    valueName: 'N',
    description: `routes read and sent, and requests in flight, at once: 1..${MAX_CONCURRENCY} (default ${DEFAULT_CONCURRENCY})`,
  },
  rate: {
    type: 'string',
    valueName: 'N',
    description: `requests per second at most, POSTs and status requests together: 0.1..${MAX_RATE} (default ${DEFAULT_RATE})`,
  },
  'dry-run': {
    type: 'boolean',
    description: 'read and check every input and say what a run would do with each route; send and write nothing',
  },
  'reimport-deleted': { type: 'boolean', description: 'import again routes deleted on the service since' },
  'retry-errors': { type: 'boolean', description: 'post again routes whose import ended in error' },
  out: {
    type: 'string',
    valueName: 'FILE',
    complete: 'file',
    description: 'write the report to FILE.csv or FILE.json (atomically)',
  },
  html: {
    type: 'string',
    valueName: 'FILE',
    complete: 'file',
    description:
      'write the report as a page to FILE: counts, then every route with its status and viewer link (atomically)',
  },
  quiet: { type: 'boolean', description: 'print nothing but the summary' },
  'progress-lines': {
    type: 'boolean',
    description: 'a progress line on stderr each time a route is posted or settled (for logs)',
  },
  ...SERVICE_OPTIONS,
});

export const importSpec = defineCommand({
  name: 'import',
  summary: 'Import GPS routes (GPX, TCX, FIT files, folders, globs) exactly once, resumable after a stop or crash.',
  usage:
    'import <files, folders, globs...> [--journal FILE] [--class-id N] [--device-model S] [--manifest FILE] [--wait] [--dry-run] [--rate N] [--concurrency N] [--json] [--out FILE.csv|json] [--html FILE]',
  arguments: { name: 'route files', complete: 'file' },
  options: importOptions,
  details: [
    'Folders are read recursively; a file is imported when its content is GPX, TCX or FIT (other files are skipped',
    'and counted). Globs are expanded here, so quote them: "runs/**/*.gpx". A route id comes from its content (and',
    'the runner), and the journal records each route before it is sent: run the same command again after Ctrl-C, a',
    'crash or a network failure and it sends only what is not done, never a route twice. A wrong key or a missing',
    'scope stops the batch with one message. --dry-run reads and checks everything and says, per route, post, skip',
    '(imported earlier), poll (pending), ask (sent, not known to have arrived) or post again (changed), sending',
    'nothing. A file edited after its import (same runner, same start) is reported as changed.',
    'With --json: {ok, interrupted, dryRun, routes: [{file, id, status, decision, changed, eventName, className,',
    'viewerUrl, errorMessage}], progress, skipped, problems}. See docs/import.md.',
    'Example: livelox-bridge import results/ "extra/*.fit" --manifest runners.csv --wait --out report.csv',
  ].join('\n'),
  exitCodes: {
    0: 'all imported (or accepted, without --wait); with --dry-run: every input can be read',
    1: 'some failed, ended in error, were not sent or (with --wait) are still pending, or an input or the manifest could not be used',
    [IMPORT_EXIT.journal]:
      'the journal cannot be used (damaged, not writable, a full disk): what was done is reported, nothing more sent',
    130: 'stopped by Ctrl-C: the same command again resumes from the journal',
  },
  load: () => import('./run.js'),
});
