/**
 * A local metric plane for a handful of nearby positions: a transverse Mercator centred on them, so that east and
 * north are metres with no grid's false origin, and distances and angles within a few kilometres are true to well
 * under a millimetre. Fitting a shift between two sides' controls and drawing them both need one.
 */
import { ValidationError } from '../errors.js';
import type { LatLng } from './distance.js';
import { getProjection, type Projection } from './projection.js';

/** Metres east and north of the plane's origin. */
export interface PlanePoint {
  x: number;
  y: number;
}

export interface LocalPlane {
  /** Where the plane's origin lies (the mean of the positions it was made for), in WGS 84 degrees. */
  origin: LatLng;
  toPlane(p: LatLng): PlanePoint;
  toDegrees(p: PlanePoint): LatLng;
}

/**
 * The local plane centred on `positions` (WGS 84 degrees). Throws `ValidationError` (code `no_positions`) when there
 * is none: a plane has to be centred somewhere.
 */
export function localPlane(positions: readonly LatLng[]): LocalPlane {
  if (positions.length === 0) {
    throw new ValidationError('A local plane needs at least one position to be centred on', [
      { path: 'positions', code: 'no_positions', message: 'no position given' },
    ]);
  }
  const origin = {
    lat: positions.reduce((sum, p) => sum + p.lat, 0) / positions.length,
    lng: positions.reduce((sum, p) => sum + p.lng, 0) / positions.length,
  };
  // Six decimals of a degree (about 0.1 m) keep the definition short and stable for proj4's converter cache.
  const projection: Projection = getProjection(
    `+proj=tmerc +lat_0=${origin.lat.toFixed(6)} +lon_0=${origin.lng.toFixed(6)} +k=1 +x_0=0 +y_0=0 +ellps=WGS84 +units=m +no_defs`,
  );
  return {
    origin,
    toPlane(p) {
      const { easting, northing } = projection.forward(p);
      return { x: easting, y: northing };
    },
    toDegrees(p) {
      return projection.inverse({ easting: p.x, northing: p.y });
    },
  };
}
