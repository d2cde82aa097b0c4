/**
 * A map placed for publishing: its georeference from the source the caller chose, the scale and paper extent, every
 * control checked to lie on it, and the map's geometry as the importable-event object names it (observed, not
 * published: the field names and the corner order are Purple Pen's).
 */
import { ValidationError } from '../errors.js';
import type { RaceCourseData } from '../iof/model.js';
import { distanceM } from '../geo/distance.js';
import type { Affine } from './affine.js';
import { mapControls } from './controls.js';
import { fitToCourse, type MapFit } from './course-fit.js';
import {
  georeferenceFromCorners,
  georeferenceFromWorldFile,
  imageCorners,
  type MapGeoreference,
} from './georeference.js';
import type { MapImageSize } from './image-header.js';
import { checkControlsInside } from './inside.js';
import { checkPaperAgrees } from './paper-agreement.js';
import { checkImageCoversExtent, resolvePaperExtent, resolveScale } from './paper.js';
import type { MapCorners, PaperExtent } from './types.js';

/** A georeference source with its files read: the world file as the transform it states. */
export type PlaceMapSource =
  | { kind: 'worldFile'; transform: Affine; system: number | string }
  | { kind: 'corners'; corners: MapCorners }
  | { kind: 'courseFile' };

export interface PlaceMapOptions {
  image: MapImageSize;
  race: RaceCourseData;
  source: PlaceMapSource;
  scale?: number | undefined;
  paperExtent?: PaperExtent | undefined;
  positionsSystem?: number | string | undefined;
  maxResidualM?: number | undefined;
}

/**
 * The map's part of the importable-event object `maps[]` entry (the job adds `fileName` and `name`). Corner positions
 * on paper in metres of paper (Purple Pen: millimetres / 1000), y up; image positions in pixels, y down.
 */
export interface ImportableMapGeometry {
  mapScale: number;
  bottomLeftCornerPosition: { x: number; y: number };
  topRightCornerPosition: { x: number; y: number };
  georeference: {
    coordinateMapping: {
      /** Bottom-left, bottom-right, top-right, top-left. */
      positions: Array<{ latitude: number; longitude: number }>;
      /** `(0,H) (W,H) (W,0) (0,0)`, the same corners in the image. */
      imagePositions: Array<{ x: number; y: number }>;
    };
  };
}

export interface PlacedMap {
  scale: number;
  paperExtent: PaperExtent;
  /** Where the paper extent came from: given, the course file's `Map` element, or derived from the ground size (a guess). */
  paperExtentFrom: 'given' | 'courseFile' | 'groundSize';
  georeference: MapGeoreference;
  /** The fit to the course file's controls, for that source. */
  fit?: MapFit;
  /** Controls checked to lie on the map (by geographic position, else by map position). */
  controlsChecked: number;
  entry: ImportableMapGeometry;
}

/**
 * Places the map: the georeference from `source`, the scale and paper extent (given, else the course file's `Map`),
 * and every control of `race` checked to lie on it. Throws `ValidationError` for each way this fails (see
 * `fitToCourse`, `georeferenceFromWorldFile`, `georeferenceFromCorners`, `checkControlsInside`, and codes `no_scale`,
 * `paper_extent`, `no_paper_extent`, `image_shape`, `not_degrees`).
 */
export function placeMap(options: PlaceMapOptions): PlacedMap {
  const { image, race, source } = options;
  const map = race.maps[0];
  const scale = resolveScale(options.scale, map);
  const controls = mapControls(race, options.positionsSystem);
  const known = resolvePaperExtent(options.paperExtent, map);
  if (known !== undefined) checkImageCoversExtent(known, image);
  let georeference: MapGeoreference;
  let fit: MapFit | undefined;
  if (source.kind === 'courseFile') {
    if (known === undefined) throw noPaperExtent();
    ({ georeference, fit } = fitToCourse(controls, known, image, {
      ...(options.maxResidualM === undefined ? {} : { maxResidualM: options.maxResidualM }),
    }));
  } else {
    georeference =
      source.kind === 'worldFile'
        ? georeferenceFromWorldFile(source.transform, source.system, image)
        : georeferenceFromCorners(source.corners, image);
  }
  const paperExtent = known ?? groundSizeExtent(georeference.corners, scale);
  const controlsChecked = checkControlsInside(controls, georeference, { extent: paperExtent, scale });
  // The fit made the two agree; a paper extent made from the ground size has no tie to the map positions to check.
  if (source.kind !== 'courseFile' && known !== undefined) {
    checkPaperAgrees(controls, georeference, { extent: known, scale }, options.maxResidualM);
  }
  return {
    scale,
    paperExtent,
    paperExtentFrom: options.paperExtent !== undefined ? 'given' : known !== undefined ? 'courseFile' : 'groundSize',
    georeference,
    ...(fit === undefined ? {} : { fit }),
    controlsChecked,
    entry: geometry(scale, paperExtent, georeference),
  };
}

function noPaperExtent(): Error {
  return new ValidationError("The map's paper extent is not known", [
    {
      path: 'paperExtent',
      code: 'no_paper_extent',
      message:
        'the course file has no Map element with MapPositionTopLeft and MapPositionBottomRight in mm, so where the ' +
        'image lies on the paper is not known: give the paper extent the image covers',
    },
  ]);
}

/**
 * Without a paper extent (no `Map` element, nothing given), the image's size on the ground at the map's scale, with
 * the bottom-left corner at (0, 0). A guess: what the service does with the paper corners is not known; the controls'
 * geographic positions, not their map positions, then place them.
 */
function groundSizeExtent(corners: MapCorners, scale: number): PaperExtent {
  const widthM =
    (distanceM(corners.bottomLeft, corners.bottomRight) + distanceM(corners.topLeft, corners.topRight)) / 2;
  const heightM =
    (distanceM(corners.bottomLeft, corners.topLeft) + distanceM(corners.bottomRight, corners.topRight)) / 2;
  return { left: 0, bottom: 0, right: (widthM * 1000) / scale, top: (heightM * 1000) / scale };
}

function geometry(scale: number, extent: PaperExtent, georeference: MapGeoreference): ImportableMapGeometry {
  const { bottomLeft, bottomRight, topRight, topLeft } = georeference.corners;
  return {
    mapScale: scale,
    bottomLeftCornerPosition: { x: paperMetres(extent.left), y: paperMetres(extent.bottom) },
    topRightCornerPosition: { x: paperMetres(extent.right), y: paperMetres(extent.top) },
    georeference: {
      coordinateMapping: {
        positions: [bottomLeft, bottomRight, topRight, topLeft].map((p) => ({ latitude: p.lat, longitude: p.lng })),
        imagePositions: imageCorners(georeference.width, georeference.height),
      },
    },
  };
}

/** Millimetres of paper as metres (Purple Pen's unit), to a micrometre: no float noise and no -0 in the object. */
function paperMetres(mm: number): number {
  return Math.round(mm * 1000) / 1_000_000 + 0;
}
