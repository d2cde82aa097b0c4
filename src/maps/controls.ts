/**
 * A race's controls as the map needs them: where each lies on the ground (WGS 84) and on the paper (mm, y up), when
 * the course file says.
 */
import { ValidationError } from '../errors.js';
import type { LatLng } from '../geo/distance.js';
import { getProjection } from '../geo/projection.js';
import { explainNotDegrees } from '../iof/explain-grid.js';
import { isDegrees } from '../iof/course-projection.js';
import type { RaceCourseData } from '../iof/model.js';
import type { XY } from './affine.js';

export interface MapControl {
  id: string;
  /** WGS 84 degrees. */
  position?: LatLng;
  /** Millimetres on the paper map, y up. Positions in `px` are left out: their origin and resolution are unknown. */
  paper?: XY;
}

/**
 * The race's controls with their positions. `positionsSystem` names the grid of positions that are not degrees; without
 * it such positions are a `ValidationError` (code `not_degrees`) saying which grids the numbers fit.
 */
export function mapControls(race: RaceCourseData, positionsSystem?: number | string): MapControl[] {
  const projection = positionsSystem === undefined ? undefined : getProjection(positionsSystem);
  const given = race.controls.filter((c) => c.position !== undefined).map((c) => c.position!);
  if (projection === undefined && given.some((p) => !isDegrees(p))) {
    const { text, hint } = explainNotDegrees(given.filter((p) => !isDegrees(p)));
    throw new ValidationError(
      "The course file's control positions are not latitude/longitude",
      [{ path: 'controls', code: 'not_degrees', message: text, ...(hint === undefined ? {} : { hint }) }],
      hint === undefined ? {} : { hint },
    );
  }
  if (projection !== undefined && given.length > 0 && given.every(isDegrees)) {
    // Grid metres are never all within ±90/±180 but at a grid's false origin: these are degrees already.
    throw new ValidationError("The course file's control positions are not in the grid named", [
      {
        path: 'controls',
        code: 'already_degrees',
        message: `every position is a latitude/longitude already, not easting and northing in ${projection.name}: name no grid for them`,
      },
    ]);
  }
  return race.controls.map((c) => {
    const out: MapControl = { id: c.id };
    if (c.position !== undefined) {
      out.position =
        projection === undefined
          ? { lat: c.position.lat, lng: c.position.lng }
          : projection.inverse({ easting: c.position.lng, northing: c.position.lat });
    }
    if (c.mapPosition?.unit === 'mm') out.paper = { x: c.mapPosition.x, y: c.mapPosition.y };
    return out;
  });
}
