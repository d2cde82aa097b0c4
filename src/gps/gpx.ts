/** GPX 1.0 and 1.1 (with or without namespace) to a track: the recorded points, each with its time. */
import { InputError } from '../errors.js';
import type { Track, TrackPoint } from './types.js';
import { parseXmlTime } from './xml-time.js';
import { attribute, childText, childrenOf, xmlNumber, type XmlNode } from '../xml/walk.js';

interface Collected {
  points: TrackPoint[];
  /** Elements seen, timed or not, to explain an empty result. */
  seen: number;
}

/** Reads the parsed `<gpx>` element (namespace prefixes already removed). */
export function trackFromGpx(root: XmlNode, source: string): Track {
  const track: Collected = { points: [], seen: 0 };
  for (const trk of childrenOf(root, 'trk')) {
    for (const seg of childrenOf(trk, 'trkseg')) collect(childrenOf(seg, 'trkpt'), track);
  }
  let points = track.points;
  if (points.length === 0) {
    // A route (`rte`) is normally a planned line without times; one that has times was recorded, so it is accepted. It
    // is only used when there is no timed track, because files holding both would otherwise count the run twice.
    const route: Collected = { points: [], seen: 0 };
    for (const rte of childrenOf(root, 'rte')) collect(childrenOf(rte, 'rtept'), route);
    points = route.points;
    if (points.length === 0) throw noTrackPoints(source, track.seen, route.seen, childrenOf(root, 'wpt').length);
  }
  const creator = attribute(root, 'creator')?.trim();
  return creator ? { format: 'gpx', points, creator } : { format: 'gpx', points };
}

/** Keeps points with a time and a valid position; the others cannot be placed on a map at a moment of the race. */
function collect(elements: unknown[], into: Collected): void {
  for (const element of elements) {
    into.seen += 1;
    const time = parseXmlTime(childText(element, 'time'));
    const lat = xmlNumber(attribute(element, 'lat'));
    const lng = xmlNumber(attribute(element, 'lon'));
    if (time === undefined || lat === undefined || lng === undefined) continue;
    if (lat < -90 || lat > 90 || lng < -180 || lng > 180) continue;
    const ele = xmlNumber(childText(element, 'ele'));
    into.points.push(ele === undefined ? { time, lat, lng } : { time, lat, lng, ele });
  }
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
