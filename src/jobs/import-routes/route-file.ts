/**
 * A route file's bytes, read when its turn comes (one file per slot in memory) and checked before anything is sent:
 * a file too large, not GPS, truncated or damaged fails its own route with a typed InputError and nothing else.
 */
import { readInputFile } from '../../core/files.js';
import { parseTrack } from '../../gps/track.js';
import { MAX_ROUTE_FILE_BYTES } from '../../resources/routes.js';

/** The file, checked before anything is sent: too large, not GPS, truncated or damaged fails this route alone. */
export async function readRoute(file: string): Promise<Uint8Array> {
  // The reader checks the size before reading, so a hostile file is refused without reading it into memory.
  const bytes = await readInputFile(file, { what: 'the route file', maxBytes: MAX_ROUTE_FILE_BYTES });
  parseTrack(bytes, file);
  return bytes;
}
