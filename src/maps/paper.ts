/**
 * The map's paper extent and how the image covers it: the image is the map from its left to its right edge and from
 * its top to its bottom edge, so a pixel's position on paper follows from the image size alone.
 */
import { ValidationError } from '../errors.js';
import type { MapInfo } from '../iof/model.js';
import type { Affine } from './affine.js';
import type { PaperExtent } from './types.js';

/**
 * The paper extent given, else the course file's `Map` element's (`MapPositionTopLeft`, `MapPositionBottomRight`, in
 * mm), else `undefined`. Throws `ValidationError` (code `paper_extent`) for an extent with no width or height.
 */
export function resolvePaperExtent(given: PaperExtent | undefined, map: MapInfo | undefined): PaperExtent | undefined {
  let extent = given;
  const topLeft = map?.mapPositionTopLeft;
  const bottomRight = map?.mapPositionBottomRight;
  if (extent === undefined && topLeft?.unit === 'mm' && bottomRight?.unit === 'mm') {
    extent = { left: topLeft.x, top: topLeft.y, right: bottomRight.x, bottom: bottomRight.y };
  }
  if (extent === undefined) return undefined;
  const { left, bottom, right, top } = extent;
  if (![left, bottom, right, top].every(Number.isFinite) || !(right > left) || !(top > bottom)) {
    throw new ValidationError("The map's paper extent cannot be used", [
      {
        path: 'paperExtent',
        code: 'paper_extent',
        message: `left ${left}, bottom ${bottom}, right ${right}, top ${top} (mm) is no rectangle: right must exceed left and top bottom`,
      },
    ]);
  }
  return { left, bottom, right, top };
}

/** The scale given, else the course file's `Map/Scale`; a `ValidationError` (code `no_scale`) when neither is usable. */
export function resolveScale(given: number | undefined, map: MapInfo | undefined): number {
  const scale = given ?? map?.scale;
  if (scale === undefined || !Number.isFinite(scale) || scale < 100 || scale > 1_000_000) {
    throw new ValidationError("The map's scale is not known", [
      {
        path: 'scale',
        code: 'no_scale',
        message:
          scale === undefined
            ? 'the course file has no Map/Scale: give the scale (10000 for 1:10 000)'
            : `${scale} is no map scale (1:100 to 1:1 000 000)`,
      },
    ]);
  }
  return scale;
}

/** Pixels (y down) to paper millimetres (y up) for an image covering `extent`. */
export function pixelToPaper(extent: PaperExtent, image: { width: number; height: number }): Affine {
  const sx = (extent.right - extent.left) / image.width;
  const sy = (extent.top - extent.bottom) / image.height;
  return { a: sx, b: 0, c: extent.left, d: 0, e: -sy, f: extent.top };
}

/**
 * The image must have the paper extent's shape, or it does not cover exactly that extent (a margin, a crop, another
 * map): its height may differ from the one the extent's shape gives by 1 % or 2 px, whichever is more (rounding).
 */
export function checkImageCoversExtent(extent: PaperExtent, image: { width: number; height: number }): void {
  const expected = (image.width * (extent.top - extent.bottom)) / (extent.right - extent.left);
  if (Math.abs(image.height - expected) <= Math.max(2, 0.01 * expected)) return;
  const mm = (v: number): string => `${Math.round(v * 10) / 10} mm`;
  throw new ValidationError('The map image does not cover the map', [
    {
      path: 'paperExtent',
      code: 'image_shape',
      message:
        `the image is ${image.width} x ${image.height} px, but the map's paper extent is ` +
        `${mm(extent.right - extent.left)} x ${mm(extent.top - extent.bottom)}, which at that width would be ` +
        `${Math.round(expected)} px high: export the whole map, or give the paper extent the image covers`,
    },
  ]);
}
