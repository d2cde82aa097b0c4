/** GPX 1.1 and TCX v2 writers: one track, one segment (one lap), times as ISO 8601 UTC. */
import { distanceM } from '../geo/distance.js';
import { assertWritablePoints } from './track.js';
import type { TrackPoint } from './types.js';

const DEFAULT_CREATOR = 'livelox-bridge';

/**
 * Writes points as a GPX 1.1 track (`gpx/trk/trkseg/trkpt` with `ele` and `time`).
 * Throws `ValidationError` for an empty list or a point without a valid time or position.
 */
export function writeGpx(
  points: TrackPoint[],
  options: {
    /** The `creator` attribute GPX 1.1 requires. Default `'livelox-bridge'`. */
    creator?: string;
    /** Written as the file's and the track's `name`. Default: none. */
    name?: string;
  } = {},
): string {
  assertWritablePoints(points, 'writeGpx points');
  const name = options.name === undefined ? '' : `    <name>${escapeText(options.name)}</name>\n`;
  const out: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>\n',
    `<gpx version="1.1" creator="${escapeAttribute(options.creator ?? DEFAULT_CREATOR)}"`,
    ' xmlns="http://www.topografix.com/GPX/1/1" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"',
    ' xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd">\n',
    '  <metadata>\n',
    name,
    `    <time>${isoTime(firstTime(points))}</time>\n`,
    '  </metadata>\n',
    '  <trk>\n',
    name,
    '    <trkseg>\n',
  ];
  for (const p of points) {
    out.push(`      <trkpt lat="${decimal(p.lat)}" lon="${decimal(p.lng)}">`);
    if (p.ele !== undefined) out.push(`<ele>${decimal(p.ele)}</ele>`);
    out.push(`<time>${isoTime(p.time)}</time></trkpt>\n`);
  }
  out.push('    </trkseg>\n', '  </trk>\n', '</gpx>\n');
  return out.join('');
}

/**
 * Writes points as a TCX v2 activity with one lap (sport `Other`), its total time and distance filled in as the schema
 * requires. Throws `ValidationError` for an empty list or a point without a valid time or position.
 */
export function writeTcx(
  points: TrackPoint[],
  options: {
    /** Written as the activity's `Creator/Name`. Default `'livelox-bridge'`. */
    creator?: string;
  } = {},
): string {
  assertWritablePoints(points, 'writeTcx points');
  const start = firstTime(points);
  let end = start;
  let distance = 0;
  points.forEach((p, i) => {
    end = Math.max(end, p.time);
    const previous = points[i - 1];
    if (previous) distance += distanceM(previous, p);
  });
  const out: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>\n',
    '<TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2"',
    ' xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"',
    ' xsi:schemaLocation="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2',
    ' http://www.garmin.com/xmlschemas/TrainingCenterDatabasev2.xsd">\n',
    '  <Activities>\n',
    '    <Activity Sport="Other">\n',
    `      <Id>${isoTime(start)}</Id>\n`,
    `      <Lap StartTime="${isoTime(start)}">\n`,
    `        <TotalTimeSeconds>${decimal((end - start) / 1000)}</TotalTimeSeconds>\n`,
    `        <DistanceMeters>${decimal(Math.round(distance * 100) / 100)}</DistanceMeters>\n`,
    '        <Calories>0</Calories>\n',
    '        <Intensity>Active</Intensity>\n',
    '        <TriggerMethod>Manual</TriggerMethod>\n',
    '        <Track>\n',
  ];
  for (const p of points) {
    out.push(
      `          <Trackpoint><Time>${isoTime(p.time)}</Time>`,
      `<Position><LatitudeDegrees>${decimal(p.lat)}</LatitudeDegrees>`,
      `<LongitudeDegrees>${decimal(p.lng)}</LongitudeDegrees></Position>`,
      p.ele === undefined ? '' : `<AltitudeMeters>${decimal(p.ele)}</AltitudeMeters>`,
      '</Trackpoint>\n',
    );
  }
  out.push(
    '        </Track>\n',
    '      </Lap>\n',
    // Device_t is the only Creator type that needs no build or language details; the zeros say "unknown".
    '      <Creator xsi:type="Device_t">',
    `<Name>${escapeText(options.creator ?? DEFAULT_CREATOR)}</Name><UnitId>0</UnitId><ProductID>0</ProductID>`,
    '<Version><VersionMajor>0</VersionMajor><VersionMinor>0</VersionMinor></Version></Creator>\n',
    '    </Activity>\n',
    '  </Activities>\n',
    '</TrainingCenterDatabase>\n',
  );
  return out.join('');
}

function firstTime(points: TrackPoint[]): number {
  return points.reduce((min, p) => Math.min(min, p.time), Number.POSITIVE_INFINITY);
}

function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}

/**
 * A number as xsd:decimal. `String(n)` gives the shortest text that reads back as the same double, but switches to
 * exponent notation (`1e-7`) below 1e-6, which xsd:decimal does not allow.
 */
function decimal(n: number): string {
  const text = String(Object.is(n, -0) ? 0 : n);
  if (!text.includes('e')) return text;
  // Finite doubles of 1e21 and more are integers, which BigInt prints in full.
  if (Math.abs(n) >= 1e21) return BigInt(n).toString();
  return n.toFixed(20).replace(/0+$/, '').replace(/\.$/, '');
}

// Characters XML 1.0 cannot carry at all, not even escaped: most C0 controls, lone surrogates, U+FFFE and U+FFFF.
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** A carriage return is escaped because parsers turn a literal one into a line feed. */
function escapeText(text: string): string {
  return text
    .replace(NOT_XML, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\r/g, '&#13;');
}

/** Tabs and line feeds are escaped too: a parser would otherwise turn them into spaces inside an attribute. */
function escapeAttribute(text: string): string {
  return escapeText(text).replace(/"/g, '&quot;').replace(/\t/g, '&#9;').replace(/\n/g, '&#10;');
}
