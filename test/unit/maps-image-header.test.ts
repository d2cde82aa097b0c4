import { mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { readImageHeader, readFromBytes } from '../../src/maps/image-header.js';
import { DEFAULT_MAX_MAP_IMAGE_BYTES, readMapImage } from '../../src/maps/image-file.js';
import { gifHeader, jpegHeader, pngImage, tiffHeader } from '../helpers/map-images.js';

const header = (bytes: Uint8Array, source = 'map.img') => readImageHeader(readFromBytes(bytes), source);

async function refusal(bytes: Uint8Array, source = 'map.img'): Promise<InputError> {
  const error: unknown = await header(bytes, source).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (error instanceof InputError) return error;
  throw new Error(`expected an InputError, got ${String(error)}`);
}

describe('readImageHeader', () => {
  it('reads the size of a real PNG', async () => {
    expect(await header(pngImage(1521, 2230))).toEqual({ format: 'png', width: 1521, height: 2230 });
  });

  it('reads the size of a GIF', async () => {
    expect(await header(gifHeader(640, 480))).toEqual({ format: 'gif', width: 640, height: 480 });
  });

  it('reads a JPEG frame header past APPn segments and fill bytes, baseline and progressive', async () => {
    expect(await header(jpegHeader(3000, 2000, { exifBytes: 40_000 }))).toEqual({
      format: 'jpeg',
      width: 3000,
      height: 2000,
    });
    expect(await header(jpegHeader(17, 5, { sof: 2 }))).toEqual({ format: 'jpeg', width: 17, height: 5 });
  });

  it('reads a TIFF in both byte orders, SHORT and LONG sizes, with the directory after the image data', async () => {
    expect(await header(tiffHeader(4000, 3000, { order: 'II', type: 'long' }))).toEqual({
      format: 'tiff',
      width: 4000,
      height: 3000,
    });
    expect(await header(tiffHeader(4000, 3000, { order: 'MM', type: 'short', gapBytes: 100_000 }))).toEqual({
      format: 'tiff',
      width: 4000,
      height: 3000,
    });
  });

  it('reads only the bytes the header needs', async () => {
    const bytes = tiffHeader(100, 50, { gapBytes: 5_000_000 });
    let read = 0;
    const size = await readImageHeader(async (offset, length) => {
      read += length;
      return bytes.subarray(offset, offset + length);
    }, 'big.tif');
    expect(size.width).toBe(100);
    expect(read).toBeLessThan(200);
  });

  it('refuses what is not an image, naming the file and what it looks like', async () => {
    const cases: Array<[Uint8Array, RegExp]> = [
      [new TextEncoder().encode('%PDF-1.7\n...'), /a PDF document/],
      [new TextEncoder().encode('<?xml version="1.0"?><CourseData/>'), /an XML document/],
      [Uint8Array.from([0x50, 0x4b, 3, 4, 0, 0]), /a zip archive/],
      [Uint8Array.from([0x42, 0x4d, 0, 0, 0, 0]), /a BMP image/],
      [Uint8Array.from([0xad, 0x0c, 0x12, 0]), /an OCAD map file/],
      [new TextEncoder().encode('0.5\n0\n0\n-0.5\n100\n200\n'), /looks like text/],
      [new Uint8Array(0), /an empty file/],
      [Uint8Array.from([0, 1, 2, 3, 0xfe]), /unknown kind \(it starts with 00 01 02 03 fe\)/],
    ];
    for (const [bytes, said] of cases) {
      const error = await refusal(bytes, 'course.pgw');
      expect(error.reason).toBe('not_an_image');
      expect(error.source).toBe('course.pgw');
      expect(error.message).toMatch(said);
    }
  });

  it('refuses truncated headers', async () => {
    for (const bytes of [
      pngImage(10, 10).subarray(0, 20),
      gifHeader(10, 10).subarray(0, 8),
      jpegHeader(10, 10).subarray(0, 40),
      tiffHeader(10, 10).subarray(0, 12),
    ]) {
      expect((await refusal(bytes)).reason).toBe('truncated');
    }
  });

  it('refuses zero and absurd dimensions', async () => {
    expect((await refusal(pngImage(0, 10))).message).toMatch(/0 x 10 pixels: an image has no empty side/);
    expect((await refusal(gifHeader(10, 0))).reason).toBe('image_size');
    const huge = Buffer.from(pngImage(1, 1));
    huge.writeUInt32BE(200_000, 16);
    expect((await refusal(huge)).message).toMatch(/200000 x 1 pixels: more than a map image can be/);
    expect((await refusal(tiffHeader(60_000, 60_000))).reason).toBe('image_size');
  });

  it('refuses broken headers and variants it does not read, saying which', async () => {
    const badIhdr = Buffer.from(pngImage(5, 5));
    badIhdr.write('IDAT', 12, 'latin1');
    expect((await refusal(badIhdr)).reason).toBe('invalid_image');
    const noFrame = Buffer.from([0xff, 0xd8, 0xff, 0xda, 0, 2]);
    expect((await refusal(noFrame)).message).toMatch(/without a frame header/);
    const dnl = Buffer.from(jpegHeader(10, 10));
    dnl.writeUInt16BE(0, dnl.length - 15 + 1);
    expect((await refusal(dnl)).reason).toBe('unsupported_image');
    expect((await refusal(Buffer.from('II+\u0000\u0008\u0000\u0000\u0000', 'latin1'))).message).toMatch(/BigTIFF/);
  });
});

describe('readMapImage', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'maps-image-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads the header of an image file and says its size in bytes', async () => {
    const path = join(dir, 'map.png');
    const bytes = pngImage(800, 600);
    await writeFile(path, bytes);
    expect(await readMapImage(path)).toEqual({ path, bytes: bytes.length, format: 'png', width: 800, height: 600 });
  });

  it('refuses a 500 MB file by its size, before reading it, with the limit an option', async () => {
    const path = join(dir, 'huge.png');
    await writeFile(path, pngImage(10, 10));
    await truncate(path, 500 * 1024 * 1024); // sparse: no disk is used
    const error = await readMapImage(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).reason).toBe('too_large');
    expect((error as InputError).message).toMatch(/200 MiB/);
    expect(DEFAULT_MAX_MAP_IMAGE_BYTES).toBe(200 * 1024 * 1024);
    expect((await readMapImage(path, { maxBytes: 600 * 1024 * 1024 })).width).toBe(10);
  });

  it('refuses a directory and a missing file as unreadable input', async () => {
    expect(await readMapImage(dir).catch((e: unknown) => (e as InputError).reason)).toBe('not_a_file');
    expect(await readMapImage(join(dir, 'none.png')).catch((e: unknown) => (e as InputError).message)).toMatch(
      /does not exist/,
    );
  });
});
