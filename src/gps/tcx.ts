/** Garmin Training Center (TCX v2) activities to a track: every trackpoint that has a time and a position. */
import { InputError } from '../errors.js';
import type { Track, TrackPoint } from './types.js';
import { parseXmlTime } from './xml-time.js';
import { childText, childrenOf, xmlNumber, type XmlNode } from '../xml/walk.js';

/** Reads the parsed `<TrainingCenterDatabase>` element (namespace prefixes already removed). */
export function trackFromTcx(root: XmlNode, source: string): Track {
  const points: TrackPoint[] = [];
  let seen = 0;
  let creator: string | undefined;
  const activities = childrenOf(root, 'Activities').flatMap((a) => childrenOf(a, 'Activity'));
  for (const activity of activities) {
    creator ??= childText(childrenOf(activity, 'Creator')[0], 'Name')?.trim() || undefined;
    for (const lap of childrenOf(activity, 'Lap')) {
      for (const track of childrenOf(lap, 'Track')) {
        for (const trackpoint of childrenOf(track, 'Trackpoint')) {
          seen += 1;
          const point = toPoint(trackpoint);
          if (point) points.push(point);
        }
      }
    }
  }
  if (points.length === 0) {
    const found =
      seen > 0 ? `its ${seen} trackpoints have no position (recorded without GPS?)` : 'it has no activity trackpoints';
    throw new InputError(source, 'no_track_points', `the TCX file holds no recorded route: ${found}.`, {
      hint: 'Export an activity recorded with GPS switched on from the watch or training app.',
    });
  }
  // The exporting program (Author) names the file's origin less usefully than the recording device, so it comes second.
  creator ??= childText(childrenOf(root, 'Author')[0], 'Name')?.trim() || undefined;
  return creator ? { format: 'tcx', points, creator } : { format: 'tcx', points };
}

/** Trackpoints without a position are pauses or indoor samples: there is nothing to draw, so they are skipped. */
function toPoint(trackpoint: unknown): TrackPoint | undefined {
  const position = childrenOf(trackpoint, 'Position')[0];
  if (position === undefined) return undefined;
  const time = parseXmlTime(childText(trackpoint, 'Time'));
  const lat = xmlNumber(childText(position, 'LatitudeDegrees'));
  const lng = xmlNumber(childText(position, 'LongitudeDegrees'));
  if (time === undefined || lat === undefined || lng === undefined) return undefined;
  if (lat < -90 || lat > 90 || lng < -180 || lng > 180) return undefined;
  const ele = xmlNumber(childText(trackpoint, 'AltitudeMeters'));
  return ele === undefined ? { time, lat, lng } : { time, lat, lng, ele };
}
