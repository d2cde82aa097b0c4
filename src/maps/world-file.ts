/**
 * World files (`.pgw`, `.jgw`, `.gfw`, `.tfw`, `.wld`): the six numbers that place an image on a grid. They state the
 * centre of the top-left pixel; the georeference works with pixel corners (the image's corner is (0, 0), its far
 * corner (width, height)), so the origin is moved half a pixel back here, once.
 */
import { InputError } from '../errors.js';
import { determinant, type Affine } from './affine.js';

/** The lines of a world file, in the order the format writes them. */
const LINES = [
  'A (pixel width in grid units)',
  'D (rotation term)',
  'B (rotation term)',
  'E (pixel height in grid units, negative for a north-up image)',
  'C (easting of the top-left pixel centre)',
  'F (northing of the top-left pixel centre)',
] as const;

/** World files are six short lines: anything much longer is another kind of file. */
const MAX_WORLD_FILE_CHARS = 4096;

/**
 * The transform from image pixel corners (x right, y down) to grid easting and northing that a world file states.
 * Throws `InputError` naming `source` (and the line, where one is at fault) with reason `invalid_world_file`: not six
 * lines, a line that is not a number (a decimal comma is said so), or a transform that flattens the image (zero
 * determinant).
 */
export function parseWorldFile(text: string, source: string): Affine {
  const bad = (message: string, line?: number): InputError =>
    new InputError(source, 'invalid_world_file', message, {
      ...(line === undefined ? {} : { line }),
      hint: 'A world file has six lines, one number each: A, D, B, E, C, F.',
    });
  if (text.length > MAX_WORLD_FILE_CHARS) {
    throw bad(`is ${text.length} characters long, too long for a world file (six numbers).`);
  }
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  // Blank lines at the end are what editors leave; blank lines inside would shift every number after them.
  while (lines.length > 0 && lines[lines.length - 1]!.trim() === '') lines.pop();
  if (lines.length !== 6) throw bad(`has ${lines.length} line${lines.length === 1 ? '' : 's'}; a world file has 6.`);
  const values = lines.map((raw, i) => {
    const value = raw.trim();
    const n = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(value) ? Number(value) : Number.NaN;
    if (!Number.isFinite(n)) {
      const comma = /^[+-]?\d+,\d+$/.test(value) ? ' (write the decimals after a point, not a comma)' : '';
      throw bad(`"${value.slice(0, 40)}" is not a number${comma}: line ${i + 1} is ${LINES[i]}.`, i + 1);
    }
    return n;
  });
  const [a, d, b, e, c, f] = values as [number, number, number, number, number, number];
  const transform: Affine = { a, b, c: c - a / 2 - b / 2, d, e, f: f - d / 2 - e / 2 };
  if (determinant(transform) === 0) {
    throw bad(
      'states a transform that flattens the image onto a line (A·E − B·D is 0): no pixel size in one direction.',
    );
  }
  return transform;
}
