import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { distanceM } from '../../src/geo/distance.js';
import {
  guessProjections,
  isDegrees,
  projectCourseData,
  unprojectCourseData,
} from '../../src/iof/course-projection.js';
import { parseCourseData } from '../../src/iof/read-course-data.js';
import { lintCourseData } from '../../src/iof/lint.js';
import type { Control, CourseData } from '../../src/iof/model.js';
import { catchValidationError, realdataPath } from '../helpers/files.js';

const parse = (path: string): CourseData => parseCourseData(readFileSync(path), path);
const positions = (data: CourseData): Array<Control['position']> =>
  data.races.flatMap((r) => r.controls.map((c) => c.position));

/** Reference points of test/unit/geo-projection.test.ts (PROJ's cs2cs): [epsg, place, lat, lng, easting, northing]. */
const REFERENCE: ReadonlyArray<[number, string, number, number, number, number]> = [
  [3006, 'Skatås, Göteborg', 57.703, 12.043, 323802.7991, 6399489.6427],
  [3006, 'Umeå', 63.826, 20.263, 758801.5977, 7088303.0267],
  [27700, 'Lake District', 54.45, -3.05, 332014.4584, 506574.9317],
  [27700, 'Cannock Chase', 52.75, -2.0, 400097.134, 316931.3999],
];

/** Course data with one control per reference point of `epsg`, and one without a position. */
function referenceData(epsg: number): CourseData {
  const controls: Control[] = REFERENCE.filter((r) => r[0] === epsg).map(([, , lat, lng], i) => ({
    id: String(31 + i),
    type: 'Control',
    position: { lat, lng, alt: 100 + i },
    mapPosition: { x: i, y: i, unit: 'mm' },
  }));
  controls.push({ id: 'X', type: 'Control', mapPosition: { x: 9, y: 9, unit: 'mm' } });
  return {
    iofVersion: '3.0',
    event: { name: 'Reference', organisers: ['Someone'] },
    races: [
      {
        maps: [],
        controls,
        courses: [{ name: 'A', controls: controls.map((c) => ({ controlId: c.id, type: c.type })) }],
        classAssignments: [],
      },
    ],
  };
}

describe('projectCourseData / unprojectCourseData', () => {
  it.each([3006, 27700])('projects the reference points of EPSG:%i to within 1 cm, easting in lng', (epsg) => {
    const data = referenceData(epsg);
    const before = structuredClone(data);
    const projected = projectCourseData(data, epsg);
    const rows = REFERENCE.filter((r) => r[0] === epsg);
    rows.forEach(([, , , , easting, northing], i) => {
      const p = projected.races[0]!.controls[i]!.position!;
      expect(Math.abs(p.lng - easting)).toBeLessThan(0.01);
      expect(Math.abs(p.lat - northing)).toBeLessThan(0.01);
      expect(p.alt).toBe(100 + i);
    });
    // A control without position stays without; everything else is as it was, and the input is untouched.
    expect(projected.races[0]!.controls.at(-1)).toEqual(data.races[0]!.controls.at(-1));
    expect(projected.races[0]!.courses).toEqual(data.races[0]!.courses);
    expect(projected.event).toEqual(data.event);
    expect(data).toEqual(before);
    expect(projected.races[0]!.controls[0]).not.toBe(data.races[0]!.controls[0]);
    expect(projected.event.organisers).not.toBe(data.event.organisers);
  });

  it.each([3006, 27700])('unprojects the reference grid values of EPSG:%i back to degrees (1e-7°)', (epsg) => {
    const rows = REFERENCE.filter((r) => r[0] === epsg);
    const grid = referenceData(epsg);
    rows.forEach(([, , , , easting, northing], i) => {
      grid.races[0]!.controls[i]!.position = { lat: northing, lng: easting };
    });
    const degrees = unprojectCourseData(grid, `EPSG:${epsg}`);
    rows.forEach(([, , lat, lng], i) => {
      const p = degrees.races[0]!.controls[i]!.position!;
      // cs2cs prints 0.1 mm: 1e-6° is about 10 cm, so the reference itself allows no tighter check.
      expect(p.lat).toBeCloseTo(lat, 6);
      expect(p.lng).toBeCloseTo(lng, 6);
    });
  });

  it('round-trips the real OCAD 11 course file through SWEREF99 TM and BNG within 1e-7°', () => {
    const data = parse(realdataPath('iof3/rg2_ellenbrook_CourseData_OCAD11.xml'));
    for (const system of [27700, 3006, '+proj=utm +zone=30 +datum=WGS84 +units=m +no_defs']) {
      const back = unprojectCourseData(projectCourseData(data, system), system);
      const a = positions(data);
      const b = positions(back);
      expect(b).toHaveLength(12);
      a.forEach((p, i) => {
        expect(Math.abs(b[i]!.lat - p!.lat)).toBeLessThan(1e-7);
        expect(Math.abs(b[i]!.lng - p!.lng)).toBeLessThan(1e-7);
      });
    }
  });

  it('projects the OCAD file to British National Grid where Ellenbrook is (Hatfield, TL 2x 0x)', () => {
    const grid = projectCourseData(parse(realdataPath('iof3/rg2_ellenbrook_CourseData_OCAD11.xml')), 27700);
    for (const p of positions(grid)) {
      expect(p!.lng).toBeGreaterThan(519_000);
      expect(p!.lng).toBeLessThan(521_000);
      expect(p!.lat).toBeGreaterThan(208_000);
      expect(p!.lat).toBeLessThan(210_000);
    }
  });

  it('unprojects the Condes georef file (BNG in Position) to Heartwood, and lint agrees afterwards', () => {
    const data = parse(realdataPath('iof3/rg2_heartwood_CourseData_Condes9_georef.xml'));
    const before = lintCourseData(data).filter((i) => i.code === 'position_not_degrees');
    expect(before).toHaveLength(1);
    expect(before[0]!.hint).toMatchObject({ code: 'projection', values: [27700] });

    const degrees = unprojectCourseData(data, 27700);
    const all = positions(degrees);
    expect(all).toHaveLength(36);
    const heartwood = { lat: 51.79, lng: -0.315 }; // Heartwood Forest, Sandridge, Hertfordshire
    for (const p of all) {
      expect(isDegrees(p!)).toBe(true);
      expect(distanceM(heartwood, p!)).toBeLessThan(1500);
    }
    const after = lintCourseData(degrees);
    expect(after.filter((i) => i.code === 'position_not_degrees')).toEqual([]);
    // Now that legs can be measured, Condes' own leg lengths agree with them: the grid was the right one.
    expect(after.filter((i) => i.code === 'leg_length_mismatch')).toEqual([]);
  });

  it('refuses an unknown system with ValidationError unsupported_projection', () => {
    const data = referenceData(3006);
    expect(catchValidationError(() => projectCourseData(data, 99999)).issues[0]!.code).toBe('unsupported_projection');
    expect(catchValidationError(() => unprojectCourseData(data, 'EPSG:99999')).issues[0]!.code).toBe(
      'unsupported_projection',
    );
  });

  it('refuses to project positions that are not degrees, naming each control', () => {
    const data = parse(realdataPath('iof3/rg2_heartwood_CourseData_Condes9_georef.xml'));
    const error = catchValidationError(() => projectCourseData(data, 27700));
    expect(error.issues).toHaveLength(36);
    expect(error.issues[0]).toMatchObject({ path: 'races[0].controls[0].position', code: 'projection_failed' });
    expect(error.issues[0]!.message).toContain('control 170');
    expect(error.message).toContain('Cannot project the course data (EPSG:27700)');
  });

  it('refuses to unproject values that give no latitude/longitude', () => {
    const data = referenceData(3006);
    data.races[0]!.controls[0]!.position = { lat: 1e12, lng: 1e12 };
    const error = catchValidationError(() => unprojectCourseData(data, 3006));
    expect(error.issues.map((i) => i.path)).toContain('races[0].controls[0].position');
  });
});

describe('guessProjections', () => {
  const NATIONAL: ReadonlyArray<[number, number, number, number, number]> = [
    [3006, 57.703, 12.043, 323802.7991, 6399489.6427],
    [3006, 63.826, 20.263, 758801.5977, 7088303.0267],
    [27700, 54.45, -3.05, 332014.4584, 506574.9317],
    [27700, 52.75, -2.0, 400097.134, 316931.3999],
    [3067, 60.26, 24.92, 384906.8041, 6682181.6089],
    [2056, 47.35, 8.49, 2679439.8322, 1244881.5121],
    [21781, 46.14, 8.91, 713693.6138, 110900.3119],
    [3021, 60.61, 15.61, 1489313.8392, 6721423.4922],
    [5514, 50.08, 14.42, -743011.7235, -1043823.1814],
    [31467, 53.55, 9.99, 3565687.5008, 5935847.3696],
    [3835, 49.2, 16.61, 3617456.3964, 5453257.547],
    [3836, 48.72, 21.26, 4519253.4673, 5398651.7136],
  ];

  it.each(NATIONAL)('finds EPSG:%i among the candidates, placing the point right', (epsg, lat, lng, e, n) => {
    const guesses = guessProjections([{ lat: n, lng: e }]);
    const guess = guesses.find((g) => g.epsg === epsg);
    expect(guess, JSON.stringify(guesses.map((g) => g.epsg))).toBeDefined();
    expect(guess!.center.lat).toBeCloseTo(lat, 4);
    expect(guess!.center.lng).toBeCloseTo(lng, 4);
  });

  it('puts the national grid first where zones share its numbers (SWEREF99 TM before ETRS89 UTM 33N)', () => {
    expect(guessProjections([{ lat: 6399489.6427, lng: 323802.7991 }]).map((g) => g.epsg)).toEqual([3006]);
    expect(guessProjections([{ lat: 212058.84, lng: 516218.97 }]).map((g) => g.epsg)).toEqual([27700, 21781]);
  });

  it('marks zones of one family (SWEREF99 local, NTM) that all fit', () => {
    const local = guessProjections([{ lat: 6398205.1022, lng: 152563.7316 }]);
    expect(local.map((g) => g.epsg)).toContain(3007);
    expect(local.every((g) => g.family?.startsWith('SWEREF99 local zones'))).toBe(true);
    const ntm = guessProjections([{ lat: 1222807.0158, lng: 111159.989 }]);
    expect(ntm.map((g) => g.epsg)).toContain(5110);
    expect(ntm.filter((g) => g.family === undefined)).toEqual([]);
  });

  it('keeps a system when most positions fit, and guesses nothing for UTM or nonsense', () => {
    const mostly = [
      { lat: 6637200, lng: 1617400 },
      { lat: 6637480, lng: 1617650 },
      { lat: 6637610, lng: 1617.9 }, // a typo
    ];
    expect(guessProjections(mostly)[0]).toMatchObject({ epsg: 3021 });
    expect(guessProjections(mostly)[0]!.share).toBeCloseTo(2 / 3);
    expect(guessProjections([{ lat: 5814754.8849, lng: 381128.5357 }])).toEqual([]);
    expect(guessProjections([{ lat: 1e15, lng: -1e15 }])).toEqual([]);
    expect(guessProjections([])).toEqual([]);
  });
});
