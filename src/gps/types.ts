/** What a GPS route file holds once decoded, whatever its format: the readers and writers all speak this. */

export type GpsFormat = 'gpx' | 'tcx' | 'fit';

export interface TrackPoint {
  /** Epoch milliseconds, UTC. */
  time: number;
  /** WGS84 degrees, -90..90. */
  lat: number;
  /** WGS84 degrees, -180..180. */
  lng: number;
  /** Metres above sea level, when the file gives one. */
  ele?: number;
}

export interface Track {
  format: GpsFormat;
  /** Every point that has a time and a position, in file order. */
  points: TrackPoint[];
  /** The device or program that wrote the file, when it says so. */
  creator?: string;
}
