/**
 * A route file's bytes, read when its turn comes (one file per slot in memory) and checked before anything is sent:
 * a file too large, not GPS, truncated or damaged fails its own route with a typed InputError and nothing else.
 */
import { inputFileSize, readInputFile } from '../../core/files.js';
import { InputError } from '../../errors.js';
import { parseTrack } from '../../gps/track.js';
import { MAX_ROUTE_FILE_BYTES } from '../../resources/routes.js';

/** The file, checked before anything is sent: too large, not GPS, truncated or damaged fails this route alone. */
export async function readRoute(file: string): Promise<Uint8Array> {
  // The size first, so a hostile file is refused without reading it into memory.
  const size = await inputFileSize(file, { what: 'the route file' });
  if (size > MAX_ROUTE_FILE_BYTES) {
    throw new InputError(file, 'too_large', `the route file is larger than ${MAX_ROUTE_FILE_BYTES / 1048576} MiB.`);
  }
  const bytes = await readInputFile(file, { what: 'the route file' });
  parseTrack(bytes, file);
  return bytes;
}
