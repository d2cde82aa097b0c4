/**
 * GPX 1.0 and 1.1 (with or without namespace) to a track: the recorded points, each with its time. A collector of tags
 * (`xml-read.ts` feeds it) rather than a walk over a tree, so a file of a million points costs the points and no more.
 */
import { InputError } from '../errors.js';
import type { XmlTokenizer } from '../xml/tokenizer.js';
import { parseAttributes } from '../xml/tokenizer.js';
import type { Track, TrackPoint } from './types.js';
import { xmlTrackPoint } from './xml-time.js';

/** Depth (root = 1) of a track point (`gpx/trk/trkseg/trkpt`) and of a route point (`gpx/rte/rtept`). */
const TRKPT_DEPTH = 4;
const RTEPT_DEPTH = 3;

/** A point being read: its attributes, and the text of its first `time` and first `ele` child once they are seen. */
interface OpenPoint {
  route: boolean;
  lat: string | undefined;
  lon: string | undefined;
  time: string | undefined;
  ele: string | undefined;
}

/** Takes the tags under a `<gpx>` root (namespace prefixes already removed) and gives the track. */
export class GpxCollector {
  private readonly points: TrackPoint[] = [];
  private readonly routePoints: TrackPoint[] = [];
  /** Elements seen, timed or not, to explain an empty result. */
  private trackSeen = 0;
  private routeSeen = 0;
  private waypoints = 0;
  private readonly creator: string | undefined;
  /** The child of the root being read (`trk`, `rte`, ...), and whether the element at depth 3 is a `trkseg` of a `trk`. */
  private top = '';
  private inSegment = false;
  private point: OpenPoint | undefined;
  /** Which child of the point collects text now, and that text (it may come in pieces). */
  private field: 'time' | 'ele' | undefined;
  private fieldText = '';

  constructor(
    private readonly tokenizer: XmlTokenizer,
    private readonly source: string,
    rootAttributes: Record<string, string>,
  ) {
    this.creator = rootAttributes['creator']?.trim() || undefined;
  }

  startElement(name: string, attributes: string): void {
    const depth = this.tokenizer.depth;
    if (depth === 2) {
      this.top = name;
      if (name === 'wpt') this.waypoints += 1;
    } else if (depth === 3) {
      this.inSegment = this.top === 'trk' && name === 'trkseg';
      if (this.top === 'rte' && name === 'rtept') this.open(attributes, true);
    } else if (depth === TRKPT_DEPTH && this.inSegment && name === 'trkpt') {
      this.open(attributes, false);
    } else if (this.point !== undefined && depth === (this.point.route ? RTEPT_DEPTH : TRKPT_DEPTH) + 1) {
      // Only the first `time` and `ele` count, as a reader of the first child would take them.
      if ((name === 'time' && this.point.time === undefined) || (name === 'ele' && this.point.ele === undefined)) {
        this.field = name;
        this.fieldText = '';
        this.point[name] = '';
        this.tokenizer.captureText = true;
      }
    }
  }

  text(text: string): void {
    if (this.field !== undefined) this.fieldText += text;
  }

  endElement(): void {
    // The element that ends was one deeper than what is open now.
    const depth = this.tokenizer.depth + 1;
    const point = this.point;
    if (point === undefined) return;
    const pointDepth = point.route ? RTEPT_DEPTH : TRKPT_DEPTH;
    if (depth === pointDepth + 1 && this.field !== undefined) {
      point[this.field] = this.fieldText;
      this.field = undefined;
    } else if (depth === pointDepth) {
      this.point = undefined;
      if (point.route) {
        this.routeSeen += 1;
        keep(point, this.routePoints);
      } else {
        this.trackSeen += 1;
        keep(point, this.points);
      }
    }
  }

  /** The track; throws `InputError` `no_track_points`, saying what the file holds instead. */
  result(): Track {
    let points = this.points;
    if (points.length === 0) {
      // A route (`rte`) is normally a planned line without times; one that has times was recorded, so it is accepted.
      // It is only used when there is no timed track, because files holding both would otherwise count the run twice.
      points = this.routePoints;
      if (points.length === 0) throw noTrackPoints(this.source, this.trackSeen, this.routeSeen, this.waypoints);
    }
    return this.creator ? { format: 'gpx', points, creator: this.creator } : { format: 'gpx', points };
  }

  private open(attributes: string, route: boolean): void {
    const { lat, lon } = parseAttributes(attributes);
    this.point = { route, lat, lon, time: undefined, ele: undefined };
  }
}

/** Keeps a point with a time and a valid position; the others cannot be placed on a map at a moment of the race. */
function keep(point: OpenPoint, into: TrackPoint[]): void {
  const kept = xmlTrackPoint(point.time, point.lat, point.lon, point.ele);
  if (kept) into.push(kept);
}

function noTrackPoints(source: string, trackPoints: number, routePoints: number, waypoints: number): InputError {
  const found =
    trackPoints > 0
      ? `it has ${trackPoints} track points, but none with both a time and a valid position`
      : routePoints > 0
        ? `it has a route of ${routePoints} points without times (a planned route, not a recording)`
        : waypoints > 0
          ? `it has ${waypoints} waypoint${waypoints === 1 ? '' : 's'} but no track`
          : 'it has no track';
  return new InputError(source, 'no_track_points', `the GPX file holds no recorded route: ${found}.`, {
    hint: 'Export the recorded activity (a track with a time on every point) from the watch or training app.',
  });
}
