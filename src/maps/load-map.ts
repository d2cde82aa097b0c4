/**
 * A map as a caller describes it (`MapInput`: paths and choices) read and placed: the image's header, the world file
 * when that is the source, then `placeMap`. Nothing is sent anywhere; a publishing workflow calls this before its
 * first request, so that a bad map is refused while nothing has been done.
 */
import { readInputFile } from '../core/files.js';
import type { RaceCourseData } from '../iof/model.js';
import { readMapImage, type MapImageFile } from './image-file.js';
import { placeMap, type PlaceMapSource, type PlacedMap } from './place-map.js';
import type { MapInput } from './types.js';
import { parseWorldFile } from './world-file.js';

/** A world file is six numbers: a few kilobytes is already generous. */
const MAX_WORLD_FILE_BYTES = 64 * 1024;

/**
 * Reads the map image's header (and the world file) and places the map on `race`. Throws `InputError` for a file that
 * cannot be read or is not what it should be (`readMapImage`, `parseWorldFile`), `ValidationError` for a map that
 * cannot be placed (`placeMap`).
 */
export async function loadMap(
  input: MapInput,
  race: RaceCourseData,
  options: { signal?: AbortSignal } = {},
): Promise<PlacedMap & { image: MapImageFile }> {
  const signal = options.signal === undefined ? {} : { signal: options.signal };
  const image = await readMapImage(input.image, {
    ...signal,
    ...(input.maxImageBytes === undefined ? {} : { maxBytes: input.maxImageBytes }),
  });
  const given = input.georeference ?? { kind: 'courseFile' };
  let source: PlaceMapSource;
  if (given.kind === 'worldFile') {
    const bytes = await readInputFile(given.path, {
      ...signal,
      what: 'the world file',
      maxBytes: MAX_WORLD_FILE_BYTES,
    });
    source = { kind: 'worldFile', transform: parseWorldFile(bytes.toString('utf8'), given.path), system: given.system };
  } else {
    source = given;
  }
  const placed = placeMap({
    image,
    race,
    source,
    scale: input.scale,
    paperExtent: input.paperExtent,
    positionsSystem: input.positionsSystem,
    maxResidualM: input.maxResidualM,
  });
  return { ...placed, image };
}
