/**
 * Garmin Training Center (TCX v2) activities to a track: every trackpoint that has a time and a position. A collector
 * of tags (`xml-read.ts` feeds it) rather than a walk over a tree, so a long activity costs its points and no more.
 */
import { InputError } from '../errors.js';
import type { XmlTokenizer } from '../xml/tokenizer.js';
import type { Track, TrackPoint } from './types.js';
import { xmlTrackPoint } from './xml-time.js';

/**
 * Where each element that matters stands, as the chain of local names under the root
 * (`TrainingCenterDatabase/Activities/Activity/Lap/Track/Trackpoint`): depth 1 is the root.
 */
const PATH = ['', 'TrainingCenterDatabase', 'Activities', 'Activity', 'Lap', 'Track', 'Trackpoint'] as const;
const ACTIVITY_DEPTH = 3;
const TRACKPOINT_DEPTH = 6;

type Field = 'time' | 'lat' | 'lng' | 'ele' | 'creator' | 'author';

/** A trackpoint being read: the text of its first `Time`, `AltitudeMeters` and of its first `Position`'s degrees. */
interface OpenPoint {
  time?: string;
  ele?: string;
  /** Whether the first `Position` child has been seen (later ones are ignored), and is open now. */
  position: 'none' | 'open' | 'done';
  lat?: string;
  lng?: string;
}

/** Takes the tags under a `<TrainingCenterDatabase>` root (namespace prefixes already removed) and gives the track. */
export class TcxCollector {
  private readonly points: TrackPoint[] = [];
  private seen = 0;
  /** Local names of the open elements below the root, while they follow `PATH`; `matched` is how many do. */
  private matched = 1;
  private point: OpenPoint | undefined;
  /** The device named by the first activity that names one, and the exporting program (`Author`), the fallback. */
  private creator: string | undefined;
  private author: string | undefined;
  private authorSeen = false;
  /** Within the activity being read: whether its first `Creator` was seen, and whether that one's `Name` was. */
  private creatorState: 'none' | 'open' | 'done' = 'none';
  private creatorNameSeen = false;
  private authorState: 'none' | 'open' | 'done' = 'none';
  private field: Field | undefined;
  private fieldDepth = 0;
  private fieldText = '';

  constructor(
    private readonly tokenizer: XmlTokenizer,
    private readonly source: string,
  ) {}

  startElement(name: string): void {
    const depth = this.tokenizer.depth;
    if (depth === this.matched + 1 && depth <= TRACKPOINT_DEPTH && name === PATH[depth]) {
      this.matched = depth;
      if (depth === ACTIVITY_DEPTH) {
        this.creatorState = 'none';
        this.creatorNameSeen = false;
      } else if (depth === TRACKPOINT_DEPTH) {
        this.point = { position: 'none' };
      }
      return;
    }
    const point = this.point;
    if (point !== undefined) {
      if (depth === TRACKPOINT_DEPTH + 1) {
        if (name === 'Time' && point.time === undefined) this.capture('time', point);
        else if (name === 'AltitudeMeters' && point.ele === undefined) this.capture('ele', point);
        else if (name === 'Position' && point.position === 'none') point.position = 'open';
      } else if (depth === TRACKPOINT_DEPTH + 2 && point.position === 'open') {
        if (name === 'LatitudeDegrees' && point.lat === undefined) this.capture('lat', point);
        else if (name === 'LongitudeDegrees' && point.lng === undefined) this.capture('lng', point);
      }
      return;
    }
    if (this.matched === ACTIVITY_DEPTH && depth === ACTIVITY_DEPTH + 1 && name === 'Creator') {
      if (this.creatorState === 'none') this.creatorState = 'open';
    } else if (this.creatorState === 'open' && depth === ACTIVITY_DEPTH + 2 && name === 'Name') {
      if (!this.creatorNameSeen) {
        this.creatorNameSeen = true;
        this.capture('creator');
      }
    } else if (depth === 2 && name === 'Author' && this.authorState === 'none') {
      this.authorState = 'open';
    } else if (this.authorState === 'open' && depth === 3 && name === 'Name' && !this.authorSeen) {
      this.authorSeen = true;
      this.capture('author');
    }
  }

  text(text: string): void {
    if (this.field !== undefined) this.fieldText += text;
  }

  endElement(): void {
    const depth = this.tokenizer.depth + 1;
    if (this.field !== undefined && depth === this.fieldDepth) {
      this.store(this.field, this.fieldText);
      this.field = undefined;
      return;
    }
    const point = this.point;
    if (point !== undefined && depth === TRACKPOINT_DEPTH + 1 && point.position === 'open') {
      point.position = 'done';
    }
    if (depth === this.matched && depth > 1) {
      this.matched = depth - 1;
      if (depth === TRACKPOINT_DEPTH && point !== undefined) {
        this.point = undefined;
        this.seen += 1;
        const kept = toPoint(point);
        if (kept) this.points.push(kept);
      }
    }
    if (this.creatorState === 'open' && depth === ACTIVITY_DEPTH + 1) this.creatorState = 'done';
    if (this.authorState === 'open' && depth === 2) this.authorState = 'done';
  }

  /** The track; throws `InputError` `no_track_points`, saying why there is none. */
  result(): Track {
    if (this.points.length === 0) {
      const found =
        this.seen > 0
          ? `its ${this.seen} trackpoints have no position (recorded without GPS?)`
          : 'it has no activity trackpoints';
      throw new InputError(this.source, 'no_track_points', `the TCX file holds no recorded route: ${found}.`, {
        hint: 'Export an activity recorded with GPS switched on from the watch or training app.',
      });
    }
    // The exporting program (Author) names the file's origin less usefully than the recording device, so it comes second.
    const creator = this.creator ?? this.author;
    return creator ? { format: 'tcx', points: this.points, creator } : { format: 'tcx', points: this.points };
  }

  private capture(field: Field, point?: OpenPoint): void {
    this.field = field;
    this.fieldDepth = this.tokenizer.depth;
    this.fieldText = '';
    if (point !== undefined && field !== 'creator' && field !== 'author') point[field] = '';
    this.tokenizer.captureText = true;
  }

  private store(field: Field, text: string): void {
    if (field === 'creator') this.creator ??= text.trim() || undefined;
    else if (field === 'author') this.author = text.trim() || undefined;
    else if (this.point !== undefined) this.point[field] = text;
  }
}

/** Trackpoints without a position are pauses or indoor samples: there is nothing to draw, so they are skipped. */
function toPoint(point: OpenPoint): TrackPoint | undefined {
  if (point.position === 'none') return undefined;
  return xmlTrackPoint(point.time, point.lat, point.lng, point.ele);
}
