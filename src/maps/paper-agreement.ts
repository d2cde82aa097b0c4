/**
 * With a world file or corners, the course file's map positions must agree with the georeference too: the paper corner
 * positions sent with the map tie the course file's map positions to the image, and a service that places controls by
 * them would put them elsewhere than their geographic positions say (which it uses is not known: guess, so both must
 * agree). A disagreement means the image does not cover the paper extent the course file states, or the world file or
 * corners belong to another image.
 */
import { ValidationError } from '../errors.js';
import { distanceM } from '../geo/distance.js';
import { applyAffine, invertAffine } from './affine.js';
import type { MapControl } from './controls.js';
import { defaultMaxResidualM, round } from './course-fit.js';
import type { MapGeoreference } from './georeference.js';
import { pixelToPaper } from './paper.js';
import type { PaperExtent } from './types.js';

/**
 * Throws `ValidationError` (code `paper_disagrees`) when a control with both positions lies farther than `maxResidualM`
 * (default as for the fit: 15 m, or a thousandth of the map's diagonal) from where its map position puts it on
 * `georeference`, naming the worst control.
 */
export function checkPaperAgrees(
  controls: readonly MapControl[],
  georeference: MapGeoreference,
  paper: { extent: PaperExtent; scale: number },
  maxResidualM?: number,
): void {
  const toPixel = invertAffine(pixelToPaper(paper.extent, georeference));
  let worst: { id: string; distanceM: number } | undefined;
  for (const control of controls) {
    if (control.paper === undefined || control.position === undefined) continue;
    const placed = georeference.toWgs84(applyAffine(toPixel, control.paper));
    const distance = distanceM(placed, control.position);
    if (worst === undefined || distance > worst.distanceM) worst = { id: control.id, distanceM: distance };
  }
  const limit = maxResidualM ?? defaultMaxResidualM(paper.extent, paper.scale);
  if (worst === undefined || worst.distanceM <= limit) return;
  throw new ValidationError("The course file's map positions do not agree with the map's georeference", [
    {
      path: `controls.${worst.id}`,
      code: 'paper_disagrees',
      message:
        `control ${worst.id}'s map position puts it ${round(worst.distanceM)} m from its geographic position on the ` +
        `map georeferenced by ${georeference.describe} (at most ${round(limit)} m accepted): the image does not ` +
        `cover the paper extent the course file states, or the georeference belongs to another image; give the ` +
        `paper extent the image covers`,
    },
  ]);
}
