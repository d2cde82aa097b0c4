/**
 * A map image on disk: its size from its header, after checking it is a regular file no larger than a map image can
 * sensibly be, so that a wrong path (a 500 MB video, a device) is refused before anything else is done with it.
 */
import { withInputFile } from '../core/files.js';
import { readImageHeader, type MapImageSize } from './image-header.js';

/** Default of `ReadMapImageOptions.maxBytes`: 200 MiB, well above a map exported at Purple Pen's resolutions. */
export const DEFAULT_MAX_MAP_IMAGE_BYTES = 200 * 1024 * 1024;

export interface ReadMapImageOptions {
  /** Largest image file accepted, in bytes; a larger one is refused unread. Default `DEFAULT_MAX_MAP_IMAGE_BYTES` (200 MiB). */
  maxBytes?: number;
  signal?: AbortSignal;
}

/** A map image file: what its header says, and its size in bytes. */
export interface MapImageFile extends MapImageSize {
  path: string;
  bytes: number;
}

/**
 * The format and pixel size of the image at `path`, reading only its header. Throws `InputError` naming the file:
 * `unreadable`, `not_a_file`, `too_large` (over `maxBytes`, before reading it), or any reason of `readImageHeader`.
 */
export async function readMapImage(path: string, options: ReadMapImageOptions = {}): Promise<MapImageFile> {
  return withInputFile(
    path,
    {
      what: 'the map image',
      maxBytes: options.maxBytes ?? DEFAULT_MAX_MAP_IMAGE_BYTES,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    },
    async (readAt, bytes) => ({ path, bytes, ...(await readImageHeader(readAt, path)) }),
  );
}
