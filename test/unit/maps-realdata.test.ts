import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors.js';
import { distanceM } from '../../src/geo/distance.js';
import { getProjection } from '../../src/geo/projection.js';
import { parseCourseData } from '../../src/iof/read-course-data.js';
import type { RaceCourseData } from '../../src/iof/model.js';
import { fitAffine, type Affine } from '../../src/maps/affine.js';
import type { MapImageSize } from '../../src/maps/image-header.js';
import { loadMap } from '../../src/maps/load-map.js';
import { placeMap, type PlacedMap } from '../../src/maps/place-map.js';
import { parseWorldFile } from '../../src/maps/world-file.js';
import { catchValidationError, realdataPath } from '../helpers/files.js';
import { pngImage, worldFileText } from '../helpers/map-images.js';

function race(file: string): RaceCourseData {
  const path = realdataPath(`iof3/${file}`);
  return parseCourseData(readFileSync(path), path).races[0]!;
}

const OCAD = 'rg2_ellenbrook_CourseData_OCAD11.xml';
const CONDES = 'rg2_heartwood_CourseData_Condes9_georef.xml';
const PURPLE_PEN = 'rg2_pwllddu_CourseData_PurplePen353.xml';

// Images of each map's paper extent at 1 px per metre of ground (0.1 mm of paper at 1:10 000; 1.5 m at 1:15 000).
const OCAD_IMAGE: MapImageSize = { format: 'png', width: 1521, height: 2230 }; // 152.1 x 223.0 mm
const CONDES_IMAGE: MapImageSize = { format: 'png', width: 2158, height: 1569 }; // 215.75 x 156.85 mm
const PURPLE_PEN_IMAGE: MapImageSize = { format: 'png', width: 2306, height: 1847 }; // 230.63 x 184.74 mm

/** The world file (pixel corners to `system`) that states what `placed` found, fitted on a grid of its pixels. */
function worldFileOf(placed: PlacedMap, system: number): Affine {
  const projection = getProjection(system);
  const { width, height } = placed.georeference;
  const pixels = [0, 0.25, 0.5, 0.75, 1].flatMap((u) => [0, 0.5, 1].map((v) => ({ x: u * width, y: v * height })));
  const grid = pixels.map((p) => {
    const { easting, northing } = projection.forward(placed.georeference.toWgs84(p));
    return { x: easting, y: northing };
  });
  return fitAffine(pixels, grid)!;
}

function bounds(points: ReadonlyArray<{ lat: number; lng: number }>) {
  return {
    south: Math.min(...points.map((p) => p.lat)),
    north: Math.max(...points.map((p) => p.lat)),
    west: Math.min(...points.map((p) => p.lng)),
    east: Math.max(...points.map((p) => p.lng)),
  };
}

describe('the map fitted to a real course file', () => {
  it('OCAD 11 (Ellenbrook): 12 controls, RMS 0.33 m, worst 0.62 m, scale 1:10 003', () => {
    const placed = placeMap({ image: OCAD_IMAGE, race: race(OCAD), source: { kind: 'courseFile' } });
    expect(placed.fit).toMatchObject({ controls: 12, worst: { control: '101' } });
    expect(placed.fit!.rmsM).toBeLessThan(0.4);
    expect(placed.fit!.worst.distanceM).toBeLessThan(0.7);
    expect(placed.fit!.fittedScale / 10_000).toBeCloseTo(1, 3);
    expect(placed.controlsChecked).toBe(12);
    expect(placed.georeference.describe).toBe('fitted to 12 controls (RMS 0.33 m, worst 101 0.62 m)');
    // The image is 152.1 x 223.0 mm of paper at 1:10 000: 1521 x 2230 m of ground.
    const { bottomLeft, bottomRight, topLeft } = placed.georeference.corners;
    expect(distanceM(bottomLeft, bottomRight)).toBeCloseTo(1521, -1);
    expect(distanceM(bottomLeft, topLeft)).toBeCloseTo(2230, -1);
  });

  it('OCAD 11: the corners enclose the controls where their bounding box says, in the service order', () => {
    const data = race(OCAD);
    const placed = placeMap({ image: OCAD_IMAGE, race: data, source: { kind: 'courseFile' } });
    const controls = bounds(data.controls.map((c) => c.position!));
    const corners = bounds(Object.values(placed.georeference.corners));
    expect(corners.south).toBeLessThan(controls.south);
    expect(corners.north).toBeGreaterThan(controls.north);
    expect(corners.west).toBeLessThan(controls.west);
    expect(corners.east).toBeGreaterThan(controls.east);
    // The controls' map positions, through the paper extent, land on their geographic positions.
    for (const control of data.controls) {
      const { x, y } = control.mapPosition!;
      const pixel = { x: ((x - 141.3) / 152.1) * 1521, y: ((178.4 - y) / 223) * 2230 };
      expect(distanceM(placed.georeference.toWgs84(pixel), control.position!)).toBeLessThan(1);
    }
    const { positions, imagePositions } = placed.entry.georeference.coordinateMapping;
    expect(imagePositions).toEqual([
      { x: 0, y: 2230 },
      { x: 1521, y: 2230 },
      { x: 1521, y: 0 },
      { x: 0, y: 0 },
    ]);
    const [bl, br, tr, tl] = positions;
    expect(bl!.latitude).toBeLessThan(tl!.latitude);
    expect(bl!.longitude).toBeLessThan(br!.longitude);
    expect(tr!.latitude).toBeGreaterThan(br!.latitude);
    expect(placed.entry).toMatchObject({
      mapScale: 10_000,
      bottomLeftCornerPosition: { x: 0.1413, y: -0.0446 },
      topRightCornerPosition: { x: 0.2934, y: 0.1784 },
    });
  });

  it('Condes 9 (Heartwood), positions in British National Grid: 36 controls, RMS 0.01 m', () => {
    const placed = placeMap({
      image: CONDES_IMAGE,
      race: race(CONDES),
      source: { kind: 'courseFile' },
      positionsSystem: 27700,
    });
    expect(placed.fit?.controls).toBe(36);
    expect(placed.fit!.rmsM).toBeLessThan(0.02);
    expect(placed.fit!.worst.distanceM).toBeLessThan(0.05);
    expect(placed.controlsChecked).toBe(36);
  });

  it('Condes 9 without the grid named: refused, saying which grid the numbers fit', () => {
    const error = catchValidationError(() =>
      placeMap({ image: CONDES_IMAGE, race: race(CONDES), source: { kind: 'courseFile' } }),
    );
    expect(error.issues[0]?.code).toBe('not_degrees');
    expect(error.hint).toMatchObject({ code: 'projection', values: [27700] });
  });

  it('OCAD 11 with a grid named for its positions, which are degrees: refused', () => {
    const error = catchValidationError(() =>
      placeMap({ image: OCAD_IMAGE, race: race(OCAD), source: { kind: 'courseFile' }, positionsSystem: 27700 }),
    );
    expect(error.issues[0]?.code).toBe('already_degrees');
  });

  it('Purple Pen 3.5.3 (map positions only): no fit, said so with the other sources named', () => {
    const error = catchValidationError(() =>
      placeMap({ image: PURPLE_PEN_IMAGE, race: race(PURPLE_PEN), source: { kind: 'courseFile' } }),
    );
    expect(error.issues[0]).toMatchObject({ code: 'too_few_controls' });
    expect(error.message).toMatch(/0 controls have both a map position \(mm\) and a geographic position.*world file/);
  });
});

describe('a world file against the fit', () => {
  it('OCAD 11: a world file in British National Grid made from the fit and read back agrees within 10 cm', () => {
    const data = race(OCAD);
    const fitted = placeMap({ image: OCAD_IMAGE, race: data, source: { kind: 'courseFile' } });
    const transform = parseWorldFile(worldFileText(worldFileOf(fitted, 27700)), 'ellenbrook.pgw');
    const placed = placeMap({ image: OCAD_IMAGE, race: data, source: { kind: 'worldFile', transform, system: 27700 } });
    expect(placed.controlsChecked).toBe(12);
    for (const corner of ['bottomLeft', 'bottomRight', 'topRight', 'topLeft'] as const) {
      expect(distanceM(placed.georeference.corners[corner], fitted.georeference.corners[corner])).toBeLessThan(0.1); // measured: 3 mm
    }
    for (const control of data.controls) {
      const pixel = fitted.georeference.toPixel(control.position!);
      expect(distanceM(placed.georeference.toWgs84(pixel), control.position!)).toBeLessThan(0.1); // measured: 3 mm
    }
  });

  it('OCAD 11: the same world file read in the wrong grid is refused, naming a control outside the map', () => {
    const data = race(OCAD);
    const fitted = placeMap({ image: OCAD_IMAGE, race: data, source: { kind: 'courseFile' } });
    const transform = parseWorldFile(worldFileText(worldFileOf(fitted, 27700)), 'ellenbrook.pgw');
    const error = catchValidationError(() =>
      placeMap({ image: OCAD_IMAGE, race: data, source: { kind: 'worldFile', transform, system: 32630 } }),
    );
    expect(error.message).toMatch(/^12 of 12 controls lie outside the map georeferenced by a world file in EPSG:32630/);
    expect(error.issues[0]).toMatchObject({ path: 'controls.S1', code: 'control_outside_map' });
    expect(error.issues[0]?.message).toMatch(/^control S1 lies \d+(\.\d)? km outside the map, to its north/);
    expect(error.hint?.text).toMatch(/usual sign of a wrong grid/);
  });

  it('OCAD 11: a world file for an image of another part of the paper is refused, the map positions disagreeing', () => {
    const data = race(OCAD);
    const fitted = placeMap({ image: OCAD_IMAGE, race: data, source: { kind: 'courseFile' } });
    const transform = parseWorldFile(worldFileText(worldFileOf(fitted, 27700)), 'ellenbrook.pgw');
    // The same image said to cover the paper 10 mm further right: 100 m of ground at 1:10 000.
    const shifted = { left: 151.3, bottom: -44.6, right: 303.4, top: 178.4 };
    const error = catchValidationError(() =>
      placeMap({
        image: OCAD_IMAGE,
        race: data,
        source: { kind: 'worldFile', transform, system: 27700 },
        paperExtent: shifted,
      }),
    );
    expect(error.issues[0]?.code).toBe('paper_disagrees');
    expect(error.issues[0]?.message).toMatch(/map position puts it 10\d(\.\d+)? m from its geographic position/);
  });

  it('Purple Pen: a world file places the map, its controls checked by their map positions', () => {
    const data = race(PURPLE_PEN);
    // 0.1 mm of paper a pixel at 1:15 000: 1.5 m, north up, somewhere in Wales.
    const text = worldFileText({ a: 1.5, b: 0, c: 300_000, d: 0, e: -1.5, f: 250_000 });
    const placed = placeMap({
      image: PURPLE_PEN_IMAGE,
      race: data,
      source: { kind: 'worldFile', transform: parseWorldFile(text, 'pwllddu.pgw'), system: 27700 },
    });
    expect(placed.controlsChecked).toBe(12);
    expect(placed.paperExtentFrom).toBe('courseFile');
    expect(placed.entry).toMatchObject({
      mapScale: 15_000,
      bottomLeftCornerPosition: { x: 0, y: 0 },
      topRightCornerPosition: { x: 0.23063, y: 0.18474 },
    });
    const moved = structuredClone(data);
    moved.controls[3]!.mapPosition = { x: 300, y: 100, unit: 'mm' };
    const error = catchValidationError(() =>
      placeMap({
        image: PURPLE_PEN_IMAGE,
        race: moved,
        source: { kind: 'worldFile', transform: parseWorldFile(text, 'pwllddu.pgw'), system: 27700 },
      }),
    );
    // 300 - 230.63 mm of paper at 1:15 000.
    expect(error.issues).toEqual([
      expect.objectContaining({ path: 'controls.103', message: 'control 103 lies 1 km outside the map, to its east' }),
    ]);
  });
});

describe('bad maps, each a typed error', () => {
  it('a control whose geographic position disagrees with its map position: a poor fit, with the figures', () => {
    const data = structuredClone(race(OCAD));
    data.controls[5]!.position = { lat: data.controls[5]!.position!.lat + 0.001, lng: data.controls[5]!.position!.lng };
    const error = catchValidationError(() =>
      placeMap({ image: OCAD_IMAGE, race: data, source: { kind: 'courseFile' } }),
    );
    expect(error.issues[0]?.code).toBe('poor_fit');
    expect(error.message).toMatch(/control 105 is \d+(\.\d+)? m from where its map position puts it \(at most 15 m/);
    // A stricter threshold refuses even the real file.
    const strict = catchValidationError(() =>
      placeMap({ image: OCAD_IMAGE, race: race(OCAD), source: { kind: 'courseFile' }, maxResidualM: 0.1 }),
    );
    expect(strict.issues[0]?.code).toBe('poor_fit');
  });

  it('an image that does not have the shape of the map, no scale, no paper extent', () => {
    const square = { format: 'png' as const, width: 1521, height: 1521 };
    const shape = catchValidationError(() =>
      placeMap({ image: square, race: race(OCAD), source: { kind: 'courseFile' } }),
    );
    expect(shape.issues[0]?.code).toBe('image_shape');
    expect(shape.message).toMatch(/1521 x 1521 px.*152\.1 mm x 223 mm.*2230 px high/);
    const noMap = { ...race(OCAD), maps: [] };
    expect(
      catchValidationError(() => placeMap({ image: OCAD_IMAGE, race: noMap, source: { kind: 'courseFile' } })).issues[0]
        ?.code,
    ).toBe('no_scale');
    expect(
      catchValidationError(() =>
        placeMap({ image: OCAD_IMAGE, race: noMap, source: { kind: 'courseFile' }, scale: 10_000 }),
      ).issues[0]?.code,
    ).toBe('no_paper_extent');
    const given = placeMap({
      image: OCAD_IMAGE,
      race: noMap,
      source: { kind: 'courseFile' },
      scale: 10_000,
      paperExtent: { left: 141.3, bottom: -44.6, right: 293.4, top: 178.4 },
    });
    expect(given.paperExtentFrom).toBe('given');
    expect(given.fit?.controls).toBe(12);
  });

  it('controls on one line cannot fix a map', () => {
    const data = structuredClone(race(OCAD));
    data.controls.forEach((c, i) => {
      c.mapPosition = { x: 150 + i, y: 10 + i, unit: 'mm' };
    });
    expect(
      catchValidationError(() => placeMap({ image: OCAD_IMAGE, race: data, source: { kind: 'courseFile' } })).issues[0]
        ?.code,
    ).toBe('collinear_controls');
  });
});

describe('loadMap', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'maps-load-'));
    await writeFile(join(dir, 'ellenbrook.png'), pngImage(OCAD_IMAGE.width, OCAD_IMAGE.height));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads a real PNG and fits it to the course file by default', async () => {
    const placed = await loadMap({ image: join(dir, 'ellenbrook.png') }, race(OCAD));
    expect(placed.image).toMatchObject({ format: 'png', width: 1521, height: 2230 });
    expect(placed.fit?.controls).toBe(12);
  });

  it('reads a world file beside it, and refuses a broken one with its line', async () => {
    const data = race(OCAD);
    const fitted = placeMap({ image: OCAD_IMAGE, race: data, source: { kind: 'courseFile' } });
    await writeFile(join(dir, 'ellenbrook.pgw'), worldFileText(worldFileOf(fitted, 27700)));
    const image = join(dir, 'ellenbrook.png');
    const placed = await loadMap(
      { image, georeference: { kind: 'worldFile', path: join(dir, 'ellenbrook.pgw'), system: 'EPSG:27700' } },
      data,
    );
    expect(placed.georeference.source).toBe('worldFile');
    await writeFile(join(dir, 'broken.pgw'), '1\n0\n0\n-1\n516000\n');
    const error = await loadMap(
      { image, georeference: { kind: 'worldFile', path: join(dir, 'broken.pgw'), system: 27700 } },
      data,
    ).catch((e: unknown) => e);
    expect(error).toMatchObject({ reason: 'invalid_world_file' });
  });

  it('refuses a course file given as the image', async () => {
    const error = await loadMap({ image: realdataPath(`iof3/${OCAD}`) }, race(OCAD)).catch((e: unknown) => e);
    expect(error).toMatchObject({ reason: 'not_an_image' });
    expect(error).not.toBeInstanceOf(ValidationError);
  });
});
