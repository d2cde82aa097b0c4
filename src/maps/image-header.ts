/**
 * The size of a map image from its header: PNG, JPEG, GIF and TIFF, the formats the service takes for a map (observed,
 * not published: its documentation lists them). Only the bytes the header needs are read, through a reader that can
 * seek (a TIFF may keep its directory at the end of the file), so a large image costs a few reads, never its size.
 */
import { InputError } from '../errors.js';

export type MapImageFormat = 'png' | 'jpeg' | 'gif' | 'tiff';

/** What a map image's header says. Width and height in pixels. */
export interface MapImageSize {
  format: MapImageFormat;
  width: number;
  height: number;
}

/**
 * Reads `length` bytes at `offset` (fewer at the end of the input). What the header reader is handed: a file's
 * positioned reads, or a slice of bytes in memory.
 */
export type ReadAt = (offset: number, length: number) => Promise<Uint8Array>;

/**
 * Each side at most this many pixels: the JPEG and GIF headers' own limit, and far beyond an orienteering map at the
 * resolutions course-setting programs write (Purple Pen: 0.75 px per metre, so 65 535 px covers 87 km).
 */
export const MAX_IMAGE_SIDE_PX = 65_535;
/** At most this many pixels in all (a 22 000 px square): more is no map a viewer can show. */
export const MAX_IMAGE_PIXELS = 500_000_000;

/** JPEG segments looked at before the frame header: a real file has a handful (APPn, DQT, DHT) before its SOF. */
const MAX_JPEG_SEGMENTS = 1000;
/** TIFF directory entries read: the first directory of a real file has a few dozen. */
const MAX_TIFF_ENTRIES = 4096;

/**
 * The format and size of the image `read` gives access to. Throws `InputError` naming `source`: `not_an_image` (with
 * what the bytes look like instead), `truncated` (the header ends early), `unsupported_image` (a variant the reader
 * does not take, such as BigTIFF), `invalid_image` (a header that contradicts itself) or `image_size` (zero or absurd
 * dimensions, see `MAX_IMAGE_SIDE_PX` and `MAX_IMAGE_PIXELS`).
 */
export async function readImageHeader(read: ReadAt, source: string): Promise<MapImageSize> {
  const head = await read(0, 32);
  const at = new Header(read, source);
  let size: MapImageSize;
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) size = await at.png();
  else if (startsWith(head, [0xff, 0xd8, 0xff])) size = await at.jpeg();
  else if (ascii(head, 0, 6) === 'GIF87a' || ascii(head, 0, 6) === 'GIF89a') size = await at.gif();
  else if (ascii(head, 0, 2) === 'II' || ascii(head, 0, 2) === 'MM') size = await at.tiff(head);
  else {
    throw new InputError(
      source,
      'not_an_image',
      `is not a PNG, JPEG, GIF or TIFF image: it looks like ${lookAlike(head)}.`,
      {
        hint: 'Export the map from the course-setting program as a PNG, JPEG, GIF or TIFF image.',
      },
    );
  }
  checkDimensions(size, source);
  return size;
}

/** A `ReadAt` over bytes already in memory. */
export function readFromBytes(bytes: Uint8Array): ReadAt {
  return (offset, length) => Promise.resolve(bytes.subarray(offset, offset + length));
}

class Header {
  constructor(
    private readonly read: ReadAt,
    private readonly source: string,
  ) {}

  /** Exactly `length` bytes at `offset`, or `truncated` naming what was being read. */
  async bytes(offset: number, length: number, what: string): Promise<DataView> {
    const got = await this.read(offset, length);
    if (got.byteLength < length) {
      throw new InputError(this.source, 'truncated', `the ${what} ends early (at byte ${offset + got.byteLength}).`);
    }
    return new DataView(got.buffer, got.byteOffset, got.byteLength);
  }

  invalid(message: string): InputError {
    return new InputError(this.source, 'invalid_image', message);
  }

  /** PNG: the signature, then the IHDR chunk, which the format requires first. */
  async png(): Promise<MapImageSize> {
    const ihdr = await this.bytes(8, 25, 'PNG header');
    if (ihdr.getUint32(0) !== 13 || text(ihdr, 4, 4) !== 'IHDR') {
      throw this.invalid('is not a valid PNG: its first chunk is not a 13-byte IHDR.');
    }
    return { format: 'png', width: ihdr.getUint32(8), height: ihdr.getUint32(12) };
  }

  /** GIF: the logical screen's width and height, little-endian, after the 6-byte signature. */
  async gif(): Promise<MapImageSize> {
    const screen = await this.bytes(6, 4, 'GIF header');
    return { format: 'gif', width: screen.getUint16(0, true), height: screen.getUint16(2, true) };
  }

  /** JPEG: the segments after SOI up to the first frame header (SOF0-SOF15 but DHT, JPG and DAC), which holds the size. */
  async jpeg(): Promise<MapImageSize> {
    let offset = 2;
    for (let segment = 0; segment < MAX_JPEG_SEGMENTS; segment += 1) {
      const marker = await this.jpegMarker(offset);
      offset = marker.next;
      const code = marker.code;
      // Markers without a length: TEM and the restart markers (SOI again would be a broken file, but has none either).
      if (code === 0x01 || (code >= 0xd0 && code <= 0xd8)) continue;
      if (code === 0xd9 || code === 0xda) {
        throw this.invalid(`is a JPEG without a frame header before its ${code === 0xda ? 'image data' : 'end'}.`);
      }
      const length = (await this.bytes(offset, 2, 'JPEG segment')).getUint16(0);
      if (length < 2) throw this.invalid(`is not a valid JPEG: a segment at byte ${offset} has length ${length}.`);
      if (code >= 0xc0 && code <= 0xcf && code !== 0xc4 && code !== 0xc8 && code !== 0xcc) {
        const frame = await this.bytes(offset + 2, 5, 'JPEG frame header');
        const height = frame.getUint16(1);
        if (height === 0) {
          throw new InputError(
            this.source,
            'unsupported_image',
            'is a JPEG whose height is given only after the image data (a DNL marker), which is not supported.',
          );
        }
        return { format: 'jpeg', width: frame.getUint16(3), height };
      }
      offset += length;
    }
    throw this.invalid(`is a JPEG with more than ${MAX_JPEG_SEGMENTS} segments before its frame header.`);
  }

  private async jpegMarker(offset: number): Promise<{ code: number; next: number }> {
    const pair = await this.bytes(offset, 2, 'JPEG header');
    if (pair.getUint8(0) !== 0xff) throw this.invalid(`is not a valid JPEG: no marker at byte ${offset}.`);
    let at = offset + 1;
    let code = pair.getUint8(1);
    // Any number of 0xFF fill bytes may precede a marker's code.
    while (code === 0xff) {
      at += 1;
      code = (await this.bytes(at, 1, 'JPEG header')).getUint8(0);
    }
    return { code, next: at + 1 };
  }

  /** TIFF: the first image directory's ImageWidth (256) and ImageLength (257), SHORT or LONG, in either byte order. */
  async tiff(head: Uint8Array): Promise<MapImageSize> {
    const start = await this.bytes(0, 8, 'TIFF header');
    const little = head[0] === 0x49;
    if (ascii(head, 0, 2) !== (little ? 'II' : 'MM')) throw this.invalid('is not a valid TIFF: mixed byte order mark.');
    const version = start.getUint16(2, little);
    if (version === 43) {
      throw new InputError(
        this.source,
        'unsupported_image',
        'is a BigTIFF, which is not supported: save it as a classic TIFF or a PNG.',
      );
    }
    if (version !== 42) {
      throw new InputError(
        this.source,
        'not_an_image',
        `is not a PNG, JPEG, GIF or TIFF image: it looks like ${lookAlike(head)}.`,
      );
    }
    const ifd = start.getUint32(4, little);
    if (ifd < 8) throw this.invalid(`is not a valid TIFF: its first directory is at byte ${ifd}.`);
    const count = (await this.bytes(ifd, 2, 'TIFF directory')).getUint16(0, little);
    if (count === 0 || count > MAX_TIFF_ENTRIES)
      throw this.invalid(`is not a valid TIFF: its first directory has ${count} entries.`);
    const entries = await this.bytes(ifd + 2, count * 12, 'TIFF directory');
    let width: number | undefined;
    let height: number | undefined;
    for (let i = 0; i < count; i += 1) {
      const base = i * 12;
      const tag = entries.getUint16(base, little);
      if (tag !== 256 && tag !== 257) continue;
      const type = entries.getUint16(base + 2, little);
      const value =
        type === 3 ? entries.getUint16(base + 8, little) : type === 4 ? entries.getUint32(base + 8, little) : undefined;
      if (value === undefined)
        throw this.invalid(`is not a valid TIFF: tag ${tag} has type ${type}, not SHORT or LONG.`);
      if (tag === 256) width = value;
      else height = value;
    }
    if (width === undefined || height === undefined) {
      throw this.invalid(
        `is not a valid TIFF: its first directory has no ${width === undefined ? 'ImageWidth' : 'ImageLength'}.`,
      );
    }
    return { format: 'tiff', width, height };
  }
}

function checkDimensions(size: MapImageSize, source: string): void {
  const { width, height, format } = size;
  const said = `the ${format.toUpperCase()} header gives ${width} x ${height} pixels`;
  if (width === 0 || height === 0) throw new InputError(source, 'image_size', `${said}: an image has no empty side.`);
  if (width > MAX_IMAGE_SIDE_PX || height > MAX_IMAGE_SIDE_PX || width * height > MAX_IMAGE_PIXELS) {
    throw new InputError(
      source,
      'image_size',
      `${said}: more than a map image can be (at most ${MAX_IMAGE_SIDE_PX} px a side and ${MAX_IMAGE_PIXELS} pixels).`,
    );
  }
}

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return prefix.every((b, i) => bytes[i] === b);
}

function ascii(bytes: Uint8Array, start: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(start, start + length));
}

function text(view: DataView, start: number, length: number): string {
  return ascii(new Uint8Array(view.buffer, view.byteOffset, view.byteLength), start, length);
}

/** What bytes that are no image we read look like, in words, so that the person sees which file they gave. */
function lookAlike(head: Uint8Array): string {
  if (head.byteLength === 0) return 'an empty file';
  const start = ascii(head, 0, 16);
  const known: Array<[boolean, string]> = [
    [start.startsWith('%PDF'), 'a PDF document'],
    [start.startsWith('PK\u0003\u0004'), 'a zip archive (a KMZ or an office document?)'],
    [start.startsWith('BM'), 'a BMP image, a format the service does not take'],
    [start.startsWith('RIFF') && ascii(head, 8, 4) === 'WEBP', 'a WebP image, a format the service does not take'],
    [start.startsWith('8BPS'), 'a Photoshop document'],
    [head[0] === 0xad && head[1] === 0x0c, 'an OCAD map file'],
    [head[0] === 0x1f && head[1] === 0x8b, 'a gzip archive'],
    [start.startsWith('II+') || start.startsWith('MM\u0000+'), 'a BigTIFF'],
  ];
  const found = known.find(([is]) => is);
  if (found) return found[1];
  const textStart = new TextDecoder('utf-8', { fatal: false })
    .decode(head)
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (textStart.startsWith('<')) {
    if (/<svg/i.test(textStart)) return 'an SVG drawing';
    if (/<(!doctype html|html)/i.test(textStart)) return 'an HTML page';
    return 'an XML document (a course file or a map file?)';
  }
  const printable = [...head].every((b) => b === 9 || b === 10 || b === 13 || (b >= 32 && b !== 127));
  if (printable) return 'text';
  const hex = [...head.subarray(0, 8)].map((b) => b.toString(16).padStart(2, '0')).join(' ');
  return `data of an unknown kind (it starts with ${hex})`;
}
