/**
 * A route file's bytes, read when its turn comes (one file per slot in memory) and checked before anything is sent:
 * a file too large, not GPS, truncated or damaged fails its own route with a typed InputError and nothing else.
 */
import { realpath } from 'node:fs/promises';
import { resolve } from 'node:path';
import { readInputFile } from '../../core/files.js';
import { parseTrack } from '../../gps/track.js';
import { MAX_ROUTE_FILE_BYTES } from '../../resources/routes.js';

export interface RouteFile {
  bytes: Uint8Array;
  /** The file's real path (links resolved), or its absolute path when that cannot be told. */
  realPath: string;
  /** The earliest time of the track, epoch ms: with the file and the runner, it says which run this is. */
  startMs: number;
}

/** The file, checked before anything is sent: too large, not GPS, truncated or damaged fails this route alone. */
export async function readRoute(file: string): Promise<RouteFile> {
  // The reader checks the size before reading, so a hostile file is refused without reading it into memory.
  const bytes = await readInputFile(file, { what: 'the route file', maxBytes: MAX_ROUTE_FILE_BYTES });
  const { points } = parseTrack(bytes, file);
  let startMs = Number.POSITIVE_INFINITY;
  for (const p of points) if (p.time < startMs) startMs = p.time;
  // Read already: a path that cannot be resolved now (removed meanwhile) is named as given.
  const realPath = await realpath(file).catch(() => resolve(file));
  return { bytes, realPath, startMs };
}
