/**
 * What a caller says about a map to publish: the image, where its georeference comes from, and what the course file
 * may not say (the scale, the paper extent). Shapes of their own, so that a publishing workflow takes them as they are.
 */

/** A WGS 84 position in degrees. */
export interface MapLatLng {
  lat: number;
  lng: number;
}

/** Where the image's four corners lie on the ground, WGS 84 degrees. */
export interface MapCorners {
  bottomLeft: MapLatLng;
  bottomRight: MapLatLng;
  topRight: MapLatLng;
  topLeft: MapLatLng;
}

/**
 * The map's extent on paper in millimetres, as course files write map positions (IOF 3.0 `MapPosition`: x to the
 * right, y up, origin wherever the course-setting program has it): the image covers exactly this extent.
 */
export interface PaperExtent {
  left: number;
  bottom: number;
  right: number;
  top: number;
}

/**
 * Where the map image's georeference comes from:
 * - `worldFile`: a world file (`.pgw`, `.jgw`, `.tfw`, `.wld`) beside the image and the grid it is in;
 * - `corners`: the image's four corners in WGS 84;
 * - `courseFile`: fitted to the course file's controls that have both a map position and a geographic position
 *   (OCAD and Condes exports have both).
 */
export type MapGeoreferenceInput =
  | {
      kind: 'worldFile';
      /** Path of the world file. */
      path: string;
      /** The grid the world file is in: an EPSG code (`27700`, `'EPSG:3006'`) or a proj4 definition. */
      system: number | string;
    }
  | { kind: 'corners'; corners: MapCorners }
  | { kind: 'courseFile' };

export interface MapInput {
  /** Path of the map image: PNG, JPEG, GIF or TIFF, the map without courses, covering the map's paper extent. */
  image: string;
  /** Default `{ kind: 'courseFile' }`. */
  georeference?: MapGeoreferenceInput;
  /** The map's scale denominator (`10000`); default: the course file's `Map/Scale`. */
  scale?: number;
  /** The paper extent the image covers; default: the course file's `Map` element (`MapPositionTopLeft`, `...BottomRight`). */
  paperExtent?: PaperExtent;
  /**
   * The grid of the course file's control positions when they are not degrees (old Condes exports write grid easting
   * and northing into `Position`): an EPSG code or a proj4 definition. Default: the positions are WGS 84.
   */
  positionsSystem?: number | string;
  /** Largest image file accepted, in bytes. Default 200 MiB. */
  maxImageBytes?: number;
  /**
   * The fit to the course file is refused when a control lies farther than this from where the fit puts it, metres;
   * with a world file or corners, when a control's map position puts it farther than this from its geographic
   * position. Default: 15 m, or a thousandth of the map's diagonal on the ground when that is more.
   */
  maxResidualM?: number;
}
