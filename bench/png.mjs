/**
 * A real, blank PNG (1-bit greyscale: a map-sized one stays small in memory; zlib-compressed, CRCs right), made rather
 * than committed. One writer for the benchmarks and the tests (test/helpers/map-images.ts), which may import from here
 * as the link scenarios are.
 */
import { crc32, deflateSync } from 'node:zlib';

/** A blank PNG of `width` x `height`. */
export function pngImage(width, height) {
  const row = 1 + Math.ceil(width / 8);
  const raw = Buffer.alloc(row * height); // filter byte 0 and black pixels on every row
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([1, 0, 0, 0, 0], 8); // bit depth 1, greyscale, deflate, adaptive filtering, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function chunk(type, data) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}
