/**
 * The entry points that decode any of the three route formats (what they give is in `types.ts`): `parseTrack` is pure
 * code, bytes in, values out, so the simulator and the client decide the same way about the same file;
 * `parseTrackFile` reads a file in 64 KiB pieces through core's checked reader, so a long recording is never whole in
 * memory (only its points are).
 */
import { readInputChunks } from '../core/files.js';
import { InputError, ValidationError, type Issue } from '../errors.js';
import { isFitStart, parseFit } from './fit.js';
import { mayBeXml } from './sniff.js';
import type { Track, TrackPoint } from './types.js';
import { readXmlRoute, streamXmlRoute, type XmlRoute } from './xml-read.js';

/**
 * Default input cap of `parseTrack`: a few hours of 1 s GPS recording is a few MB in any format, so 64 MiB leaves room
 * for any honest file. This is the parser's own limit; the route import path has a smaller one of its own (50 MiB,
 * `MAX_ROUTE_FILE_BYTES` in `resources/routes.ts`, what the service accepts), checked before this one.
 */
export const MAX_TRACK_BYTES = 64 * 1024 * 1024;
/**
 * Highest `maxBytes` a caller may ask for. Reading is linear and keeps only the points (a 10^6-point GPX, about
 * 100 MB, reads in about 2 s and 130 MiB of points; `npm run bench gps`), so the limit is the caller's memory.
 */
export const MAX_TRACK_BYTES_LIMIT = 512 * 1024 * 1024;

const DEFAULT_SOURCE = 'route file';

export interface ParseTrackOptions {
  /**
   * Largest file accepted, in bytes: for programs that read long recordings themselves (a 10^6-point GPX is about
   * 100 MB). Default `MAX_TRACK_BYTES` (64 MiB); at most `MAX_TRACK_BYTES_LIMIT` (512 MiB).
   */
  maxBytes?: number;
}

/**
 * Decodes a GPX, TCX or FIT route file, choosing the format by content (never by file name). Linear in the file's size;
 * XML is read as a stream of tags, never as a tree.
 *
 * Throws `InputError` with `reason` `empty`, `too_large`, `unknown_format`, `not_well_formed`, `bad_encoding` (bytes
 * invalid in the declared encoding), `unsupported_encoding`, `truncated`, `corrupt` or `no_track_points`.
 *
 * @param source The file name, used in messages only. Default `'route file'`.
 */
export function parseTrack(bytes: Uint8Array, source: string = DEFAULT_SOURCE, options: ParseTrackOptions = {}): Track {
  const maxBytes = trackMaxBytes(options);
  if (bytes.length === 0) throw emptyFile(source);
  if (bytes.length > maxBytes) {
    throw new InputError(
      source,
      'too_large',
      `the file is ${mib(bytes.length)} MiB; route files larger than ${mib(maxBytes, 0)} MiB are refused.`,
      { hint: TOO_LARGE_HINT },
    );
  }
  if (isFitStart(bytes)) return parseFit(bytes, source);
  if (!mayBeXml(bytes)) throw unknownFormat(source);

  // XML is read in full here rather than trusting the sniffer's first few KB: a damaged GPX should be reported as damaged
  // (with its line) rather than as "not a GPS file", and a long comment before the root should not hide a real GPX.
  return trackOf(readXmlRoute(bytes, source, maxBytes), source);
}

export interface ParseTrackFileOptions extends ParseTrackOptions {
  /** Stops the reading; the promise rejects with the signal's reason. */
  signal?: AbortSignal;
}

/**
 * `parseTrack` for a file on disk, read in 64 KiB pieces so that its bytes are never all in memory at once: a GPX or
 * TCX streams through the same readers, and memory is the points kept (a 10^6-point GPX of about 100 MB needs about
 * 130 MiB of points; `npm run bench gps`). A FIT file is read whole and decoded as `parseTrack` does (FIT is binary and
 * compact, a few MB for hours of recording, and its reader works on the whole file). The format is judged by the first
 * piece, as `parseTrack` judges it by the first bytes. Only a regular file is read (core's `readInputChunks`): a named
 * pipe, device or directory is refused without being read.
 *
 * Throws `InputError` as `parseTrack` does, plus `unreadable` and `not_a_file`; the path names the file in messages.
 * Rejects with the signal's reason when it aborts.
 */
export async function parseTrackFile(path: string, options: ParseTrackFileOptions = {}): Promise<Track> {
  const maxBytes = trackMaxBytes(options);
  const { signal } = options;
  // No hint of ours here: core's reader gives each of its refusals (a pipe, a missing file) the advice that fits it.
  const pieces = readInputChunks(path, { maxBytes, what: 'the route file', ...(signal ? { signal } : {}) });
  try {
    const first = await pieces.next();
    if (first.done === true) throw emptyFile(path);
    const head = first.value;
    if (isFitStart(head)) {
      const all = [head];
      for await (const piece of pieces) all.push(piece);
      return parseFit(all.length === 1 ? head : Buffer.concat(all), path);
    }
    if (!mayBeXml(head)) throw unknownFormat(path);
    const rest = async function* (): AsyncGenerator<Uint8Array> {
      yield head;
      yield* pieces;
    };
    return trackOf(await streamXmlRoute(rest(), path, maxBytes, signal), path);
  } finally {
    // Closes the file when the reading stopped early (a refusal, an error in the content).
    await pieces.return(undefined);
  }
}

const TOO_LARGE_HINT = 'A GPS route of a few hours is usually under 10 MB: check that this is the right file.';

function trackMaxBytes(options: ParseTrackOptions): number {
  return Math.min(options.maxBytes ?? MAX_TRACK_BYTES, MAX_TRACK_BYTES_LIMIT);
}

function trackOf(route: XmlRoute, source: string): Track {
  if (route.track === undefined) throw unknownFormat(source, route.rootName);
  return route.track;
}

function emptyFile(source: string): InputError {
  return new InputError(source, 'empty', 'the file is empty (0 bytes).', {
    hint: 'Export the route again from the watch or training app and choose that file.',
  });
}

function mib(bytes: number, digits = 1): string {
  return (bytes / 1024 / 1024).toFixed(digits);
}

function unknownFormat(source: string, xmlRoot?: string): InputError {
  const what =
    xmlRoot === undefined
      ? 'the file is not a GPS route: its content is not GPX, TCX or FIT.'
      : `the file is XML with root element <${xmlRoot}>, not a GPS route (GPX root <gpx>, TCX root <TrainingCenterDatabase>).`;
  return new InputError(source, 'unknown_format', what, {
    hint: 'Export the activity from the watch or training app as GPX, TCX or FIT; the format is read from the content, so renaming a file does not change it.',
  });
}

/** Most problems listed for bad writer input; the rest are counted, so one broken array cannot produce a huge message. */
const MAX_POINT_ISSUES = 20;

/** Earliest and latest instants `Date#toISOString` writes with a four-digit year, as GPX and TCX require. */
const MIN_XML_TIME_MS = -62_167_219_200_000; // 0000-01-01T00:00:00.000Z
const MAX_XML_TIME_MS = 253_402_300_799_999; // 9999-12-31T23:59:59.999Z

/**
 * Checks points handed to a writer. Writers refuse rather than repair: a point with no valid time or position would be
 * silently dropped by every reader, so the caller should know now.
 *
 * @param timeRange Extra limits on `time` (FIT can store fewer instants than GPX and TCX), with a message.
 */
export function assertWritablePoints(
  points: readonly TrackPoint[],
  what: string,
  timeRange?: { min: number; max: number; message: string },
): void {
  const issues: Issue[] = [];
  if (!Array.isArray(points) || points.length === 0) {
    throw new ValidationError(what, [
      { path: 'points', code: 'required', message: 'at least one point is needed to write a route file' },
    ]);
  }
  let problems = 0;
  const add = (issue: Issue): void => {
    problems += 1;
    if (issues.length < MAX_POINT_ISSUES) issues.push(issue);
  };
  // Checked as unknown values: callers in plain JavaScript or with `as` casts are exactly who this check is for.
  (points as readonly unknown[]).forEach((point, i) => {
    const at = `points[${i}]`;
    if (typeof point !== 'object' || point === null) {
      add({ path: at, code: 'type', message: 'must be an object with time, lat and lng' });
      return;
    }
    const { time, lat, lng, ele } = point as Record<string, unknown>;
    if (typeof time !== 'number' || !Number.isFinite(time) || time < MIN_XML_TIME_MS || time > MAX_XML_TIME_MS) {
      add({ path: `${at}.time`, code: 'range', message: 'must be epoch milliseconds between years 0000 and 9999' });
    } else if (timeRange && (time < timeRange.min || time > timeRange.max)) {
      add({ path: `${at}.time`, code: 'range', message: timeRange.message });
    }
    if (typeof lat !== 'number' || !(lat >= -90 && lat <= 90)) {
      add({ path: `${at}.lat`, code: 'range', message: 'must be a latitude in degrees, -90 to 90' });
    }
    if (typeof lng !== 'number' || !(lng >= -180 && lng <= 180)) {
      add({ path: `${at}.lng`, code: 'range', message: 'must be a longitude in degrees, -180 to 180' });
    }
    if (ele !== undefined && (typeof ele !== 'number' || !Number.isFinite(ele))) {
      add({ path: `${at}.ele`, code: 'type', message: 'must be a finite number of metres or absent' });
    }
  });
  if (problems > issues.length) {
    issues.push({ path: 'points', code: 'more', message: `${problems - issues.length} more problems not listed` });
  }
  if (issues.length > 0) throw new ValidationError(what, issues);
}
