/**
 * `livelox-bridge import <files...>`: posts GPS route files for import, optionally waits for each to be imported, and
 * reports every file, good or bad, on its own line. One bad file never stops the others.
 */
import { LiveloxError } from '../../errors.js';
import type { GpsFormat } from '../../gps/types.js';
import type { ImportRecord, RouteImportInput } from '../../resources/routes.js';
import { EXIT, UsageError, intOption, stringOption, type Command, type CommandContext } from '../command.js';
import { plural, table, terminal, type Style } from '../format.js';
import { errorJson, errorText } from '../hints.js';
import {
  DEFAULT_IMPORT_TIMEOUT_S,
  WAIT_FIRST_POLL_MS,
  WAIT_MAX_POLL_INTERVAL_MS,
  WAIT_POLL_INTERVAL_MS,
} from '../import-wait.js';
import { SERVICE_OPTIONS, openService } from '../service.js';

const DEFAULT_IMPORT_CONCURRENCY = 4;

/** Where one file ended: `failed` means it was never accepted (bad file, refused request); the others are the service's. */
type FileStatus = 'pending' | 'imported' | 'error' | 'failed';

/** One line of the report, and one element of the `--json` array. */
interface FileResult {
  file: string;
  id?: string;
  format?: GpsFormat;
  status: FileStatus;
  eventName?: string;
  className?: string;
  viewerUrl?: string;
  /** The service's reason when the import failed (status error). */
  errorMessage?: string;
  /** What went wrong on our side: the file, the request, or the wait (a timeout leaves status pending). */
  error?: Record<string, unknown>;
}

/** An error as plain data for `--json`: the typed error's JSON in the CLI's words (errorJson), or its name and message. */
function errorData(err: unknown): Record<string, unknown> {
  if (err instanceof LiveloxError) return errorJson(err);
  if (err instanceof Error) return { name: err.name, code: 'failure', message: err.message };
  return { name: 'Error', code: 'failure', message: String(err) };
}

/** Runs `fn` over `items` with at most `limit` at a time; `fn` must not throw. */
async function eachLimited<T>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      await fn(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

function applyRecord(result: FileResult, record: ImportRecord): void {
  result.status = record.status;
  if (record.eventName !== undefined) result.eventName = record.eventName;
  if (record.className !== undefined) result.className = record.className;
  if (record.viewerUrl !== undefined) result.viewerUrl = record.viewerUrl;
  if (record.errorMessage !== undefined) result.errorMessage = record.errorMessage;
}

/** Whether a file's outcome counts as a failure of the command (exit 1). */
function fileFailed(result: FileResult, waited: boolean): boolean {
  if (result.status === 'failed' || result.status === 'error' || result.error !== undefined) return true;
  return waited && result.status === 'pending';
}

const STATUS_STYLE: Record<FileStatus, Style> = {
  imported: 'green',
  pending: 'yellow',
  error: 'red',
  failed: 'red',
};

/** File errors start with the file's name; where the file is already named, it is not said twice. */
function withoutFile(text: string, file: string): string {
  return text.startsWith(`${file}: `) ? text.slice(file.length + 2) : text;
}

function outcome(r: FileResult, reason: string | undefined): string {
  return withoutFile(r.viewerUrl ?? r.errorMessage ?? reason ?? '', r.file);
}

export const importCommand: Command = {
  name: 'import',
  summary: 'Import GPS route files (GPX, TCX, FIT) and optionally wait until each is connected to an event.',
  usage:
    'import <files...> [--class-id N] [--device MODEL] [--first-name X --last-name Y] [--wait] [--timeout-s N] [--concurrency N]',
  allowPositionals: true,
  options: {
    'class-id': { type: 'string', valueName: 'N', description: 'connect the routes to this class (see `event <id>`)' },
    device: { type: 'string', valueName: 'MODEL', description: 'model of the recording device' },
    'first-name': { type: 'string', valueName: 'X', description: 'first name of the runner (API key only)' },
    'last-name': { type: 'string', valueName: 'Y', description: 'last name of the runner (API key only)' },
    wait: { type: 'boolean', description: 'wait until each route is imported or failed, with progress on stderr' },
    'timeout-s': {
      type: 'string',
      valueName: 'N',
      description: `how long --wait waits for each route (default ${DEFAULT_IMPORT_TIMEOUT_S})`,
    },
    concurrency: {
      type: 'string',
      valueName: 'N',
      description: `files sent at the same time, 1..16 (default ${DEFAULT_IMPORT_CONCURRENCY})`,
    },
    ...SERVICE_OPTIONS,
  },
  details: [
    "Each file's format is told by its content, not its name. Its route id is derived from its content, so importing",
    'the same file again replaces the earlier import instead of adding a second route.',
    'Every file gets a line: file, route id, status (pending, imported, error, failed), event, class, and the viewer',
    'url or the reason it failed. Exit 1 if any file failed (unreadable or not GPS, refused, import error or, with',
    '--wait, not finished in time); the other files are still imported.',
    'With --json: an array of {file, id?, format?, status, eventName?, className?, viewerUrl?, errorMessage?, error?}.',
    'Example: livelox-bridge import runs/*.gpx --wait --timeout-s 60',
  ].join('\n'),
  async run(values, positionals, ctx) {
    if (positionals.length === 0) throw new UsageError('import needs at least one route file');
    const classId = intOption(values, 'class-id', 1, Number.MAX_SAFE_INTEGER);
    const deviceModel = stringOption(values, 'device');
    const firstName = stringOption(values, 'first-name');
    const lastName = stringOption(values, 'last-name');
    const wait = values.wait === true;
    const timeoutS = intOption(values, 'timeout-s', 1, 24 * 3600) ?? DEFAULT_IMPORT_TIMEOUT_S;
    const concurrency = intOption(values, 'concurrency', 1, 16) ?? DEFAULT_IMPORT_CONCURRENCY;
    if (values['timeout-s'] !== undefined && !wait) throw new UsageError('--timeout-s is the limit of --wait');
    const person =
      firstName === undefined && lastName === undefined
        ? undefined
        : {
            ...(firstName === undefined ? {} : { firstName }),
            ...(lastName === undefined ? {} : { lastName }),
          };
    const session = await openService(values, ctx, { auth: 'any' });
    try {
      if (person && !session.client.auth.honoursPerson) {
        throw new UsageError(
          '--first-name/--last-name are used only with an API key; with a login the route belongs to the logged-in user',
        );
      }
      const client = session.client;
      const total = positionals.length;
      const results: FileResult[] = positionals.map((file) => ({ file, status: 'failed' }));
      // What went wrong on our side, in the CLI's words: `error` keeps it as data (--json), in the library's.
      const reasons = new Map<FileResult, string>();
      const failed = (result: FileResult, err: unknown): string => {
        const text = errorText(err);
        result.error = errorData(err);
        reasons.set(result, text);
        return text;
      };
      const progress = (index: number, text: string) => {
        if (wait) ctx.io.err(`[${index + 1}/${total}] ${results[index]!.file}: ${text}`);
      };
      const waits: Array<Promise<void>> = [];
      await eachLimited(positionals, concurrency, async (file, index) => {
        const result = results[index]!;
        const input: RouteImportInput = {
          file,
          ...(classId === undefined ? {} : { classId }),
          ...(deviceModel === undefined ? {} : { deviceModel }),
          ...(person ? { person } : {}),
          signal: ctx.signal,
        };
        try {
          const submitted = await client.routes.import(input);
          result.id = submitted.id;
          result.format = submitted.format;
          result.status = 'pending';
        } catch (err) {
          progress(index, `failed: ${withoutFile(failed(result, err), file)}`);
          return;
        }
        if (!wait) return;
        progress(index, `submitted as ${result.id} (${result.format}), waiting…`);
        // Waiting holds no sending slot: polls are seconds apart, and the next files go out meanwhile.
        waits.push(
          client.routes
            .waitForImport(result.id, {
              timeoutMs: timeoutS * 1000,
              initialDelayMs: WAIT_FIRST_POLL_MS,
              pollIntervalMs: WAIT_POLL_INTERVAL_MS,
              maxPollIntervalMs: WAIT_MAX_POLL_INTERVAL_MS,
              signal: ctx.signal,
            })
            .then(
              (record) => {
                applyRecord(result, record);
                progress(
                  index,
                  record.status === 'imported'
                    ? `imported${record.eventName ? ` to ${record.eventName}` : ''}${record.className ? `, ${record.className}` : ''}`
                    : `import failed: ${record.errorMessage ?? 'no reason given'}`,
                );
              },
              (err: unknown) => {
                progress(index, `not finished: ${failed(result, err)}`);
              },
            ),
        );
      });
      await Promise.all(waits);
      report(results, reasons, ctx);
      return results.some((r) => fileFailed(r, wait)) ? EXIT.failure : EXIT.ok;
    } finally {
      await session.close();
    }
  },
};

function report(results: FileResult[], reasons: ReadonlyMap<FileResult, string>, ctx: CommandContext): void {
  if (ctx.json) {
    ctx.io.out(JSON.stringify(results));
    return;
  }
  ctx.io.out(
    table(
      results,
      [
        { header: 'file', cell: (r) => r.file, maxWidth: 40, shrink: true, keep: 'end' },
        { header: 'id', cell: (r) => r.id ?? '-' },
        { header: 'status', cell: (r) => r.status, style: (r) => STATUS_STYLE[r.status] },
        { header: 'event', cell: (r) => r.eventName ?? '', maxWidth: 40, shrink: true },
        { header: 'class', cell: (r) => r.className ?? '', maxWidth: 20, shrink: true },
        { header: 'viewer url / error', cell: (r) => outcome(r, reasons.get(r)) },
      ],
      terminal(ctx.env),
    ),
  );
  const counts = new Map<string, number>();
  for (const r of results) {
    const key = r.status === 'pending' && r.error ? 'not finished' : r.status;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  ctx.io.out(`${plural(results.length, 'file')}: ${[...counts].map(([k, n]) => `${n} ${k}`).join(', ')}.`);
}
