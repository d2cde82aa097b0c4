import { describe, expect, it } from 'vitest';
import { distanceM } from '../../src/geo/distance.js';
import { applyAffine, composeAffine, fitAffine, invertAffine, type Affine } from '../../src/maps/affine.js';
import { georeferenceFromCorners, georeferenceFromWorldFile } from '../../src/maps/georeference.js';
import type { MapCorners } from '../../src/maps/types.js';
import { parseWorldFile } from '../../src/maps/world-file.js';
import { catchInputError, catchValidationError } from '../helpers/files.js';
import { worldFileText } from '../helpers/map-images.js';

const ROTATED: Affine = { a: 1.5, b: 0.2, c: 516_000, d: 0.1, e: -1.5, f: 212_000 };

describe('affine transforms', () => {
  it('fits a known transform back from points, inverts and composes it', () => {
    const from = [
      { x: 0, y: 0 },
      { x: 100, y: 0 },
      { x: 0, y: 80 },
      { x: 60, y: 50 },
      { x: 20, y: 70 },
    ];
    const fitted = fitAffine(
      from,
      from.map((p) => applyAffine(ROTATED, p)),
    );
    for (const key of ['a', 'b', 'c', 'd', 'e', 'f'] as const) expect(fitted?.[key]).toBeCloseTo(ROTATED[key], 6);
    const identity = composeAffine(invertAffine(ROTATED), ROTATED);
    expect(applyAffine(identity, { x: 12, y: 34 }).x).toBeCloseTo(12, 6);
    expect(applyAffine(identity, { x: 12, y: 34 }).y).toBeCloseTo(34, 6);
  });

  it('finds no transform from points on one line', () => {
    const line = [0, 1, 2, 3].map((i) => ({ x: i, y: 2 * i }));
    expect(fitAffine(line, line)).toBeUndefined();
  });
});

describe('parseWorldFile', () => {
  it('moves the origin from the top-left pixel centre to its corner', () => {
    const t = parseWorldFile('2\n0\n0\n-2\n1001\n2999\n', 'map.pgw');
    expect(applyAffine(t, { x: 0, y: 0 })).toEqual({ x: 1000, y: 3000 });
    expect(applyAffine(t, { x: 0.5, y: 0.5 })).toEqual({ x: 1001, y: 2999 });
  });

  it('reads CRLF lines, exponents, a BOM and blank lines at the end, and round-trips a rotated transform', () => {
    const t = parseWorldFile('\uFEFF2.0E+00\r\n0\r\n0\r\n-2\r\n1001\r\n2999\r\n\r\n', 'map.wld');
    expect(t.a).toBe(2);
    const back = parseWorldFile(worldFileText(ROTATED), 'map.tfw');
    for (const key of ['a', 'b', 'c', 'd', 'e', 'f'] as const) expect(back[key]).toBeCloseTo(ROTATED[key], 6);
  });

  it('refuses a world file that is not six lines', () => {
    const error = catchInputError(() => parseWorldFile('2\n0\n0\n-2\n1001\n', 'map.pgw'));
    expect(error.reason).toBe('invalid_world_file');
    expect(error.message).toMatch(/^map\.pgw: has 5 lines; a world file has 6/);
  });

  it('refuses a line that is not a number, naming the line and what it holds', () => {
    const error = catchInputError(() => parseWorldFile('2\n0\nzero\n-2\n1001\n2999', 'map.jgw'));
    expect(error.line).toBe(3);
    expect(error.message).toMatch(/^map\.jgw:3: "zero" is not a number: line 3 is B \(rotation term\)/);
    expect(catchInputError(() => parseWorldFile('0,5\n0\n0\n-0.5\n1\n2', 'w.pgw')).message).toMatch(/not a comma/);
  });

  it('refuses a transform with a zero determinant', () => {
    const error = catchInputError(() => parseWorldFile('2\n1\n4\n2\n1001\n2999', 'flat.pgw'));
    expect(error.message).toMatch(/flattens the image/);
  });
});

describe('georeferenceFromWorldFile', () => {
  it('places the image corners through the grid, and each WGS 84 position back on its pixel', () => {
    const t = parseWorldFile(worldFileText({ a: 1, b: 0, c: 516_000, d: 0, e: -1, f: 212_000 }), 'map.pgw');
    const geo = georeferenceFromWorldFile(t, 27700, { width: 1000, height: 800 });
    expect(distanceM(geo.corners.topLeft, geo.corners.topRight)).toBeCloseTo(1000, -1);
    expect(distanceM(geo.corners.topLeft, geo.corners.bottomLeft)).toBeCloseTo(800, -1);
    const pixel = geo.toPixel(geo.toWgs84({ x: 321, y: 654 }));
    expect(pixel.x).toBeCloseTo(321, 2); // proj4 round-trips to about a millimetre
    expect(pixel.y).toBeCloseTo(654, 2);
    expect(geo.describe).toBe('a world file in EPSG:27700');
  });

  it('refuses an unknown grid', () => {
    const t = parseWorldFile('1\n0\n0\n-1\n0\n0', 'map.pgw');
    expect(
      catchValidationError(() => georeferenceFromWorldFile(t, 999_999, { width: 1, height: 1 })).issues[0]?.code,
    ).toBe('unsupported_projection');
  });
});

describe('georeferenceFromCorners', () => {
  // A 1.5 km x 2.2 km map near Ellenbrook, a little rotated.
  const corners: MapCorners = {
    bottomLeft: { lat: 51.75462, lng: -0.27109 },
    bottomRight: { lat: 51.75501, lng: -0.24907 },
    topRight: { lat: 51.77506, lng: -0.24999 },
    topLeft: { lat: 51.77467, lng: -0.27201 },
  };
  const image = { width: 1521, height: 2230 };

  it('puts the image corners on the given corners and maps positions back to pixels', () => {
    const geo = georeferenceFromCorners(corners, image);
    expect(distanceM(geo.corners.topRight, corners.topRight)).toBeLessThan(0.01);
    expect(distanceM(geo.toWgs84({ x: 0, y: image.height }), corners.bottomLeft)).toBeLessThan(0.01);
    const pixel = geo.toPixel(geo.toWgs84({ x: 700, y: 1100 }));
    expect(pixel.x).toBeCloseTo(700, 6);
    expect(pixel.y).toBeCloseTo(1100, 6);
  });

  it('refuses corners going clockwise (a mirrored map)', () => {
    const mirrored = {
      ...corners,
      bottomLeft: corners.bottomRight,
      bottomRight: corners.bottomLeft,
      topRight: corners.topLeft,
      topLeft: corners.topRight,
    };
    expect(catchValidationError(() => georeferenceFromCorners(mirrored, image)).issues.map((i) => i.code)).toEqual([
      'corners_order',
    ]);
  });

  it('refuses crossing corners', () => {
    const crossed = { ...corners, topRight: corners.topLeft, topLeft: corners.topRight };
    expect(catchValidationError(() => georeferenceFromCorners(crossed, image)).issues.map((i) => i.code)).toContain(
      'corners_shape',
    );
  });

  it('refuses an absurdly large map, and corners that are not degrees', () => {
    const huge = { ...corners, topRight: { lat: 53, lng: -0.25 } };
    expect(catchValidationError(() => georeferenceFromCorners(huge, image)).issues.map((i) => i.code)).toContain(
      'corners_size',
    );
    const grid = { ...corners, topLeft: { lat: 212_000, lng: 516_000 } };
    const error = catchValidationError(() => georeferenceFromCorners(grid, image));
    expect(error.issues[0]).toMatchObject({ path: 'corners.topLeft', code: 'not_degrees' });
  });
});
