/**
 * A portal's events (an entry or result portal: hundreds to thousands of events) for the nightly `sync`: folders of
 * exports, IOF EventLists and multi-event JSON read into one list, each event (each race) under a key that stays the
 * same from night to night, with what could not be read beside it instead of stopping the run.
 *
 * A key is the event's own id in the portal when it has one (Eventor's first, `eventor:49812`, with `-2` for race 2
 * of a multi-race event), so that moving or renaming a file changes nothing; else where it was read from (the path
 * below the folder given, `#race 2`). Inputs are read in the order given and a folder's files in sorted path order,
 * so when two give the same key the same one is kept every night.
 */
import { stat } from 'node:fs/promises';
import { readFileHead, unreadableFile } from '../core/files.js';
import { LiveloxError, InputError, ValidationError, type Issue } from '../errors.js';
import { identifyIof } from '../iof/identify.js';
import type { EmsExport, EmsSource } from './source.js';
import { readEventListExports } from './event-list.js';
import { readIofRaces } from './iof-source.js';
import { isEmsJsonList, parseEmsJson, parseEmsJsonList, readJsonFile } from './json-source.js';
import { looksLikeJson } from './open.js';
import { listFolder, notAFile } from '../core/folder.js';

export interface PortalEvent {
  /**
   * Stable key in the portal: the event's id (and race number) when it has one (`eventor:49812-2`: system, id, race),
   * else the file's path below the folder given (the path as given for a file), with `#race 2` for a race of a
   * multi-race file, `#event 12` for the 12th event of an EventList, `#events[3]` for an entry of a multi-event JSON
   * document (positions change when the list does: give events ids).
   */
  key: string;
  /** Where it was read from, for messages: a path, `path#race 2`, `list.xml event 12 race 2`, `events.json events[3]`. */
  origin: string;
  /** The event (one race of it) and its classes, in the shape every source gives (`source.ts`). */
  export: EmsExport;
  /** A service (Livelox) event id the portal stores for this race: an exact link, no search needed. */
  serviceEventId?: number;
}

/** One input that could not be read (a file, an entry of a list), or an event left out for a key already taken. */
export interface PortalProblem {
  origin: string;
  /**
   * The `InputError`'s reason (`not_iof`, `entity_declaration`, `empty`, `unreadable`, `not_a_file`, `not_json`, ...),
   * `validation` for data breaking the JSON format's rules, or `duplicate_key`.
   */
  code: string;
  /** The typed error's message (it names the file, and the line or the path in the data). */
  message: string;
  /** Each problem of the data with its path (`events[3].classes[0].name`), for `validation`. */
  issues?: Issue[];
}

export interface PortalRead {
  /** In input order (a folder's files in sorted path order), each file's events and races in their order. */
  events: PortalEvent[];
  problems: PortalProblem[];
}

export interface ReadPortalOptions {
  signal?: AbortSignal;
}

export interface PortalFromSourcesOptions {
  /** The key of a source's export. Default: its id (as `readPortal` keys), else the source's `source`. */
  key?: (e: EmsExport) => string;
  signal?: AbortSignal;
}

/** Bytes looked at to tell JSON from XML and which IOF message a file is: `identifyIof`'s window, and one more. */
const HEAD_BYTES = 64 * 1024 + 1;

/**
 * The key an export's ids give (`eventor:49812`, `-2` for race 2), or undefined when it has none. Eventor's id first:
 * the portal and the service both know it; else the first id the export gives.
 */
export function idKey(e: EmsExport, race?: number): string | undefined {
  const ids = Object.entries(e.event.externalIds ?? {});
  const [system, id] = ids.find(([s]) => s.toLowerCase() === 'eventor') ?? ids[0] ?? [];
  if (system === undefined || id === undefined) return undefined;
  return `${system.toLowerCase()}:${id}${race === undefined ? '' : `-${race}`}`;
}

/** The events and problems of one read, keys settled as they come: the first event with a key keeps it. */
class PortalCollector {
  readonly events: PortalEvent[] = [];
  readonly problems: PortalProblem[] = [];
  private readonly origins = new Map<string, string>();

  constructor(private readonly signal: AbortSignal | undefined) {}

  add(event: PortalEvent): void {
    const first = this.origins.get(event.key);
    if (first !== undefined) {
      this.problems.push({
        origin: event.origin,
        code: 'duplicate_key',
        message: `${event.origin}: gives the key ${event.key}, as ${first} does; ${first} is kept, this one is left out.`,
      });
      return;
    }
    this.origins.set(event.key, event.origin);
    this.events.push(event);
  }

  /** A typed error of one input becomes its problem; an abort or any other error (a bug) ends the read. */
  fail(origin: string, error: unknown): void {
    this.signal?.throwIfAborted();
    if (!(error instanceof LiveloxError)) throw error;
    this.problems.push({
      origin,
      code: error instanceof InputError ? error.reason : error.code,
      message: error.message,
      ...(error instanceof ValidationError ? { issues: error.issues } : {}),
    });
  }

  result(): PortalRead {
    return { events: this.events, problems: this.problems };
  }
}

/** A multi-event JSON document's entries, each on its own (a bad entry is a problem of its own). */
function addJsonList(into: PortalCollector, json: unknown, path: string, name: string): void {
  const { entries, problems } = parseEmsJsonList(json, path);
  const all = [
    ...entries.map((entry) => ({ index: entry.index, entry })),
    ...problems.map((problem) => ({ index: problem.index, problem })),
  ].sort((a, b) => a.index - b.index);
  for (const item of all) {
    const origin = `${path} events[${item.index}]`;
    if ('problem' in item) {
      into.fail(origin, item.problem.error);
      continue;
    }
    const { entry } = item;
    into.add({
      key: entry.key ?? idKey(entry.export) ?? `${name}#events[${entry.index}]`,
      origin,
      export: entry.export,
      ...(entry.serviceEventId === undefined ? {} : { serviceEventId: entry.serviceEventId }),
    });
  }
}

/** One file, by what it holds: EMS JSON (one event or several), an IOF EventList, or any other IOF export. */
async function addFile(
  into: PortalCollector,
  path: string,
  name: string,
  signal: AbortSignal | undefined,
): Promise<void> {
  const head = await readFileHead(path, HEAD_BYTES);
  if (looksLikeJson(head)) {
    const json = await readJsonFile(path, { signal });
    if (isEmsJsonList(json)) addJsonList(into, json, path, name);
    else {
      const e = parseEmsJson(json, path);
      into.add({ key: idKey(e) ?? name, origin: path, export: e });
    }
    return;
  }
  if (identifyIof(head, path).messageType === 'EventList') {
    for (const x of await readEventListExports(path, { signal })) {
      const where = `#event ${x.event}${x.race === undefined ? '' : ` race ${x.race}`}`;
      into.add({
        key: idKey(x.export, x.race) ?? `${name}${where}`,
        origin: x.export.source,
        export: x.export,
        ...(x.serviceEventId === undefined ? {} : { serviceEventId: x.serviceEventId }),
      });
    }
    return;
  }
  for (const x of await readIofRaces(path, { signal })) {
    const where = x.race === undefined ? '' : `#race ${x.race}`;
    into.add({ key: idKey(x.export, x.race) ?? `${name}${where}`, origin: `${path}${where}`, export: x.export });
  }
}

async function addFileOrProblem(
  into: PortalCollector,
  path: string,
  name: string,
  signal: AbortSignal | undefined,
): Promise<void> {
  signal?.throwIfAborted();
  try {
    await addFile(into, path, name, signal);
  } catch (err) {
    into.fail(path, err);
  }
}

/**
 * Reads a portal's events from paths, each one of:
 * - a folder: every file in it, recursively (names starting with `.` left out), each taken by what it holds, not by
 *   its name: an IOF XML export (one event per race of a multi-race file), EMS JSON (docs/ems-json.md, one event or
 *   the multi-event form), an IOF EventList;
 * - a file of any of those kinds: an EventList gives every race of every event, with the Livelox event id Eventor
 *   stores for it; the multi-event JSON form gives its entries with their `key` and `serviceEventId`.
 *
 * What cannot be read (a broken file, a hostile or binary one, a file of another kind, a bad entry of a list, a named
 * pipe) is a problem with the typed error's message, and the rest is read. Events are keyed as `PortalEvent.key` says;
 * a key met twice keeps the first event and makes the second a `duplicate_key` problem. Errors that are not the
 * library's typed errors (a bug) are thrown, and so is the signal's reason when it aborts.
 */
export async function readPortal(inputs: readonly string[], options: ReadPortalOptions = {}): Promise<PortalRead> {
  const { signal } = options;
  const into = new PortalCollector(signal);
  for (const input of inputs) {
    signal?.throwIfAborted();
    let found;
    try {
      found = await stat(input);
    } catch (err) {
      into.fail(input, unreadableFile(input, err));
      continue;
    }
    if (found.isDirectory()) {
      const { files, problems } = await listFolder(input, { signal });
      for (const p of problems) into.fail(p.path, p.error);
      for (const file of files) await addFileOrProblem(into, file.path, file.relative, signal);
    } else if (found.isFile()) {
      await addFileOrProblem(into, input, input, signal);
    } else {
      into.fail(input, notAFile(input, found));
    }
  }
  return into.result();
}

/**
 * A portal's events from sources built in code (`objectEmsSource` over a database, `iofEmsSource` per race, ...), in
 * their order. The key is `options.key`'s, else the export's id (`eventor:49812`), else the source's `source`: give
 * `key` when sources are races of one event, which share its id. A source whose `read` fails with a typed error is a
 * problem; duplicate keys are as in `readPortal`.
 */
export async function portalFromSources(
  sources: Iterable<EmsSource> | AsyncIterable<EmsSource>,
  options: PortalFromSourcesOptions = {},
): Promise<PortalRead> {
  const { signal } = options;
  const into = new PortalCollector(signal);
  for await (const source of sources) {
    signal?.throwIfAborted();
    let e: EmsExport;
    try {
      e = await source.read(signal === undefined ? {} : { signal });
    } catch (err) {
      into.fail(source.source, err);
      continue;
    }
    into.add({ key: options.key?.(e) ?? idKey(e) ?? source.source, origin: source.source, export: e });
  }
  return into.result();
}
