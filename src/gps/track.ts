/**
 * The one entry point that decodes any of the three route formats (what it gives is in `types.ts`). Pure code:
 * bytes in, values out, so the simulator and the client decide the same way about the same file.
 */
import { InputError, ValidationError, type Issue } from '../errors.js';
import { isFitHeader, parseFit } from './fit.js';
import { trackFromGpx } from './gpx.js';
import { mayBeXml, xmlRootFormat } from './sniff.js';
import { trackFromTcx } from './tcx.js';
import type { Track, TrackPoint } from './types.js';
import { parseXmlTree } from './xml-tree.js';

/** Input cap: a few hours of 1 s GPS recording is a few MB in any format, so 64 MiB leaves room for any honest file. */
const MAX_TRACK_BYTES = 64 * 1024 * 1024;

const DEFAULT_SOURCE = 'route file';

/**
 * Decodes a GPX, TCX or FIT route file, choosing the format by content (never by file name).
 *
 * Throws `InputError` with `reason` `empty`, `too_large`, `unknown_format`, `not_well_formed`, `bad_encoding` (bytes
 * invalid in the declared encoding), `unsupported_encoding`, `truncated`, `corrupt` or `no_track_points`.
 *
 * @param source The file name, used in messages only. Default `'route file'`.
 */
export function parseTrack(bytes: Uint8Array, source: string = DEFAULT_SOURCE): Track {
  if (bytes.length === 0) {
    throw new InputError(source, 'empty', 'the file is empty (0 bytes).', {
      hint: 'Export the route again from the watch or training app and choose that file.',
    });
  }
  if (bytes.length > MAX_TRACK_BYTES) {
    throw new InputError(
      source,
      'too_large',
      `the file is ${(bytes.length / 1024 / 1024).toFixed(1)} MiB; route files larger than 64 MiB are refused.`,
      { hint: 'A GPS route of a few hours is usually under 10 MB: check that this is the right file.' },
    );
  }
  if (isFitHeader(bytes)) return parseFit(bytes, source);
  if (!mayBeXml(bytes)) throw unknownFormat(source);

  // XML is read in full here rather than trusting the sniffer's first few KB: a damaged GPX should be reported as damaged
  // (with its line) rather than as "not a GPS file", and a long comment before the root should not hide a real GPX.
  const { rootName, root } = parseXmlTree(bytes, source);
  switch (xmlRootFormat(rootName)) {
    case 'gpx':
      return trackFromGpx(root, source);
    case 'tcx':
      return trackFromTcx(root, source);
    default:
      throw unknownFormat(source, rootName);
  }
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
