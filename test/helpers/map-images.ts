/**
 * Map images for the tests, made here rather than committed: a real PNG (zlib-compressed, CRCs right) and the least
 * bytes of a GIF, JPEG and TIFF that carry a size, each as its format lays it out.
 */

export { pngImage } from '../../bench/png.mjs';

/** A GIF89a header: signature and logical screen descriptor. */
export function gifHeader(width: number, height: number): Uint8Array {
  const bytes = Buffer.alloc(13);
  bytes.write('GIF89a', 0, 'latin1');
  bytes.writeUInt16LE(width, 6);
  bytes.writeUInt16LE(height, 8);
  return bytes;
}

/**
 * A JPEG up to its frame header: SOI, an APP0 (JFIF) and an APP1 of `exifBytes` (a camera's EXIF block with its
 * thumbnail comes before the frame), fill bytes before the marker, then SOF`sof` (0 baseline, 2 progressive).
 */
export function jpegHeader(
  width: number,
  height: number,
  options: { exifBytes?: number; sof?: number } = {},
): Uint8Array {
  const segment = (code: number, body: Buffer): Buffer => {
    const head = Buffer.from([0xff, code, 0, 0]);
    head.writeUInt16BE(body.length + 2, 2);
    return Buffer.concat([head, body]);
  };
  const frame = Buffer.from([8, 0, 0, 0, 0, 3, 1, 0x11, 0, 2, 0x11, 1, 3, 0x11, 1]);
  frame.writeUInt16BE(height, 1);
  frame.writeUInt16BE(width, 3);
  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    segment(0xe0, Buffer.from('JFIF\u0000\u0001\u0002\u0000\u0000\u0001\u0000\u0001\u0000\u0000', 'latin1')),
    segment(0xe1, Buffer.alloc(options.exifBytes ?? 30, 0x45)),
    Buffer.from([0xff]), // a fill byte before the next marker
    segment(0xc0 + (options.sof ?? 0), frame),
  ]);
}

/**
 * A TIFF whose first directory holds ImageWidth and ImageLength, in `order` byte order, as SHORT or LONG values, and
 * placed after `gapBytes` of image data (writers often put the directory at the end).
 */
export function tiffHeader(
  width: number,
  height: number,
  options: { order?: 'II' | 'MM'; type?: 'short' | 'long'; gapBytes?: number } = {},
): Uint8Array {
  const little = (options.order ?? 'II') === 'II';
  const gap = options.gapBytes ?? 0;
  const ifd = 8 + gap;
  const bytes = Buffer.alloc(ifd + 2 + 3 * 12 + 4);
  bytes.write(options.order ?? 'II', 0, 'latin1');
  const u16 = (v: number, at: number): number => (little ? bytes.writeUInt16LE(v, at) : bytes.writeUInt16BE(v, at));
  const u32 = (v: number, at: number): number => (little ? bytes.writeUInt32LE(v, at) : bytes.writeUInt32BE(v, at));
  u16(42, 2);
  u32(ifd, 4);
  u16(3, ifd);
  const entries: Array<[number, number]> = [
    [254, 0], // NewSubfileType first, as writers put it: the reader must look past it
    [256, width],
    [257, height],
  ];
  entries.forEach(([tag, value], i) => {
    const at = ifd + 2 + i * 12;
    const short = options.type === 'short' && tag !== 254;
    u16(tag, at);
    u16(short ? 3 : 4, at + 2);
    u32(1, at + 4);
    if (short) u16(value, at + 8);
    else u32(value, at + 8);
  });
  return bytes;
}

/**
 * The text of a world file stating `transform` (pixel corners to grid): the format states the top-left pixel's centre,
 * half a pixel in from the corner, so that is where C and F are moved.
 */
export function worldFileText(t: { a: number; b: number; c: number; d: number; e: number; f: number }): string {
  const lines = [t.a, t.d, t.b, t.e, t.c + t.a / 2 + t.b / 2, t.f + t.d / 2 + t.e / 2];
  return `${lines.map((v) => v.toFixed(10)).join('\n')}\n`;
}
