/**
 * A map image's georeference: from image pixels (x right, y down, (0, 0) the top-left corner of the top-left pixel) to
 * WGS 84 and back. Three sources build one: a world file with the map's grid, four corners given in WGS 84, or a fit
 * to the course file's controls (`course-fit.ts`). Whatever the source, the image's corners are what the service is
 * sent (observed, not published: Purple Pen sends them as a `coordinateMapping`).
 */
import { ValidationError, type Issue } from '../errors.js';
import type { LatLng } from '../geo/distance.js';
import { localPlane, type LocalPlane } from '../geo/local-plane.js';
import { getProjection } from '../geo/projection.js';
import {
  applyAffine,
  applyHomography,
  homographyFrom4,
  invertAffine,
  type Affine,
  type Homography,
  type XY,
} from './affine.js';
import type { MapCorners } from './types.js';

export type GeoreferenceSourceKind = 'worldFile' | 'corners' | 'courseFile';

export interface MapGeoreference {
  source: GeoreferenceSourceKind;
  /** Image size in pixels. */
  width: number;
  height: number;
  /** Where an image position (pixels, y down) lies, WGS 84 degrees. */
  toWgs84(pixel: XY): LatLng;
  /** Where a WGS 84 position lies in the image (pixels, y down; outside the image when outside the map). */
  toPixel(position: LatLng): XY;
  /** The image's corners on the ground. */
  corners: MapCorners;
  /** How the pixels' positions were found, in words: `world file in EPSG:27700`, `4 corners`, `fitted to 12 controls`. */
  describe: string;
}

/** Image corners in the order the service's coordinate mapping lists them: bottom-left, bottom-right, top-right, top-left. */
export function imageCorners(width: number, height: number): [XY, XY, XY, XY] {
  return [
    { x: 0, y: height },
    { x: width, y: height },
    { x: width, y: 0 },
    { x: 0, y: 0 },
  ];
}

function cornersOf(width: number, height: number, toWgs84: (p: XY) => LatLng): MapCorners {
  const [bottomLeft, bottomRight, topRight, topLeft] = imageCorners(width, height).map(toWgs84) as [
    LatLng,
    LatLng,
    LatLng,
    LatLng,
  ];
  return { bottomLeft, bottomRight, topRight, topLeft };
}

/**
 * The georeference a world file states (`transform`: pixel corners to grid metres, from `parseWorldFile`) in the grid
 * `system` (an EPSG code or a proj4 definition). Throws `ValidationError` for a system `getProjection` does not know,
 * and when the image's corners have no WGS 84 position in it (the usual sign of a wrong grid).
 */
export function georeferenceFromWorldFile(
  transform: Affine,
  system: number | string,
  image: { width: number; height: number },
): MapGeoreference {
  const projection = getProjection(system);
  const label = projection.epsg === undefined ? projection.name : `EPSG:${projection.epsg}`;
  const inverse = invertAffine(transform);
  const toWgs84 = (p: XY): LatLng => {
    const grid = applyAffine(transform, p);
    return projection.inverse({ easting: grid.x, northing: grid.y });
  };
  const toPixel = (position: LatLng): XY => {
    const { easting, northing } = projection.forward(position);
    return applyAffine(inverse, { x: easting, y: northing });
  };
  let corners: MapCorners;
  try {
    corners = cornersOf(image.width, image.height, toWgs84);
  } catch (error) {
    throw new ValidationError(
      'The world file does not place the map on the ground',
      [
        {
          path: 'worldFile',
          code: 'outside_projection',
          message: `the image's corners have no latitude/longitude in ${label}: is that the map's grid?`,
        },
      ],
      { cause: error },
    );
  }
  return { source: 'worldFile', ...image, toWgs84, toPixel, corners, describe: `a world file in ${label}` };
}

/** Sides of a map given by its corners: shorter is no map, longer is a typing error in a coordinate. */
const MIN_SIDE_M = 10;
const MAX_SIDE_M = 100_000;

/**
 * The georeference four WGS 84 corners of the image give, in between them a projective transform on a local metric
 * plane (exact at the four corners; how the service interpolates between them is not known: guess). Throws
 * `ValidationError` when a corner is not a latitude/longitude, the corners cross or fold (not a proper quadrilateral
 * going round bottom-left, bottom-right, top-right, top-left), or a side is shorter than 10 m or longer than 100 km.
 */
export function georeferenceFromCorners(
  corners: MapCorners,
  image: { width: number; height: number },
): MapGeoreference {
  const given = [corners.bottomLeft, corners.bottomRight, corners.topRight, corners.topLeft];
  const names = ['bottomLeft', 'bottomRight', 'topRight', 'topLeft'] as const;
  const issues: Issue[] = [];
  given.forEach((p, i) => {
    if (!(Number.isFinite(p.lat) && Number.isFinite(p.lng) && Math.abs(p.lat) <= 90 && Math.abs(p.lng) <= 180)) {
      issues.push({
        path: `corners.${names[i]}`,
        code: 'not_degrees',
        message: `lat ${p.lat}, lng ${p.lng} is not a WGS 84 latitude/longitude`,
      });
    }
  });
  if (issues.length > 0) throw new ValidationError('The map corners cannot be used', issues);
  const plane = localPlane(given);
  const points = given.map((p) => plane.toPlane(p));
  checkQuadrilateral(points);
  const toPlane = homographyFrom4(imageCorners(image.width, image.height), points);
  const fromPlane = homographyFrom4(points, imageCorners(image.width, image.height));
  if (toPlane === undefined || fromPlane === undefined) {
    // checkQuadrilateral refuses every degenerate shape first; a corner case of rounding ends here.
    throw new ValidationError('The map corners cannot be used', [
      { path: 'corners', code: 'degenerate', message: 'three of the corners lie on one line' },
    ]);
  }
  return fromPlaneTransform('corners', image, plane, toPlane, fromPlane, '4 corners given in WGS 84');
}

function fromPlaneTransform(
  source: GeoreferenceSourceKind,
  image: { width: number; height: number },
  plane: LocalPlane,
  toPlane: Homography,
  fromPlane: Homography,
  describe: string,
): MapGeoreference {
  const toWgs84 = (p: XY): LatLng => plane.toDegrees(applyHomography(toPlane, p));
  const toPixel = (position: LatLng): XY => applyHomography(fromPlane, plane.toPlane(position));
  return { source, ...image, toWgs84, toPixel, corners: cornersOf(image.width, image.height, toWgs84), describe };
}

/**
 * A georeference that is affine on a local plane (the course file's fit): pixels to plane metres by `pixelToPlane`.
 */
export function georeferenceFromPlane(
  image: { width: number; height: number },
  plane: LocalPlane,
  pixelToPlane: Affine,
  describe: string,
): MapGeoreference {
  const inverse = invertAffine(pixelToPlane);
  const toWgs84 = (p: XY): LatLng => plane.toDegrees(applyAffine(pixelToPlane, p));
  const toPixel = (position: LatLng): XY => applyAffine(inverse, plane.toPlane(position));
  return {
    source: 'courseFile',
    ...image,
    toWgs84,
    toPixel,
    corners: cornersOf(image.width, image.height, toWgs84),
    describe,
  };
}

/** Bottom-left, bottom-right, top-right, top-left on a plane with y north: a convex shape going anticlockwise. */
function checkQuadrilateral(points: readonly XY[]): void {
  const names = ['bottom-left', 'bottom-right', 'top-right', 'top-left'];
  const issues: Issue[] = [];
  for (let i = 0; i < 4; i += 1) {
    const a = points[i]!;
    const b = points[(i + 1) % 4]!;
    const side = Math.hypot(b.x - a.x, b.y - a.y);
    if (side < MIN_SIDE_M || side > MAX_SIDE_M) {
      issues.push({
        path: 'corners',
        code: 'corners_size',
        message:
          `the side from the ${names[i]} to the ${names[(i + 1) % 4]} corner is ${Math.round(side)} m long; ` +
          `a map's side is ${MIN_SIDE_M} m to ${MAX_SIDE_M / 1000} km`,
      });
    }
  }
  const turns = points.map((a, i) => {
    const b = points[(i + 1) % 4]!;
    const c = points[(i + 2) % 4]!;
    return (b.x - a.x) * (c.y - b.y) - (b.y - a.y) * (c.x - b.x);
  });
  if (turns.every((t) => t < 0)) {
    issues.push({
      path: 'corners',
      code: 'corners_order',
      message:
        'the corners go round clockwise, so the map would be mirrored: give them as bottom-left, bottom-right, ' +
        'top-right, top-left',
    });
  } else if (!turns.every((t) => t > 0)) {
    issues.push({
      path: 'corners',
      code: 'corners_shape',
      message:
        'the corners do not make a proper quadrilateral (its sides cross, or it folds in): check that each corner ' +
        'is the one its name says',
    });
  }
  if (issues.length > 0) throw new ValidationError('The map corners cannot be used', issues);
}
