/**
 * Telling a georeferencing difference from moved controls, on real course files (Heartwood 2014 by Condes, Ellenbrook
 * by OCAD) whose "service side" is the same file georeferenced differently on purpose, with noise and real moves.
 */
import { describe, expect, it } from 'vitest';
import { compareCourses, type CourseComparison } from '../../src/iof/compare-courses/compare.js';
import { fitGeoreference, type MeasuredControl } from '../../src/iof/compare-courses/georeference.js';
import type { RaceCourseData } from '../../src/iof/model.js';
import { parseCourseData } from '../../src/iof/read-course-data.js';
import { realdata } from '../helpers/files.js';
import {
  ellenbrook,
  gauss,
  heartwoodDegrees,
  inGrid,
  moveControls,
  regeoreference,
  seeded,
  usedCodes,
} from '../helpers/georeference.js';

const heartwood = (): RaceCourseData => heartwoodDegrees().races[0]!;
/** 40 m to the north-east and 0.3° clockwise, with 1 m of noise per axis: the issue's case. */
const NE40 = { eastM: 40 * Math.SQRT1_2, northM: 40 * Math.SQRT1_2, rotationDeg: 0.3, noiseM: 1 };
/** Three controls really moved on top: 25 m north-north-east, 60 m south-south-west, 40 m west-north-west. */
const THREE = { '173': [25, 20], '177': [60, 200], '185': [40, 290] } as const satisfies Record<
  string,
  [number, number]
>;

function kinds(r: CourseComparison): string[] {
  return r.findings.map((f) => f.kind);
}

describe('the georeferencing fit on real course files', () => {
  it('recovers a 40 m shift and a 0.3° rotation under 1 m of noise to 0.5 m and 0.03°, and reports one difference', () => {
    const organiser = heartwood();
    expect(usedCodes(organiser)).toHaveLength(35);
    const r = compareCourses(organiser, regeoreference(organiser, NE40));
    const g = r.georeference!;
    expect(g).toMatchObject({ explains: true, controls: 35, within: 35, residuals: [] });
    expect(Math.abs(g.shiftM - 40)).toBeLessThan(0.5);
    expect(Math.abs(g.shiftEastM - 28.28)).toBeLessThan(0.5);
    expect(Math.abs(g.shiftNorthM - 28.28)).toBeLessThan(0.5);
    expect(Math.abs(g.shiftBearingDeg - 45)).toBeLessThan(1);
    expect(Math.abs(g.rotationDeg - 0.3)).toBeLessThan(0.03);
    expect(Math.abs(g.scale - 1)).toBeLessThan(1 / 2000);
    expect(g.residualRmsM).toBeGreaterThan(0.5);
    expect(g.residualRmsM).toBeLessThan(2.5);
    // One finding, not 35 moved controls; the verdict is still that the two differ.
    expect(kinds(r)).toEqual(['georeference_differs']);
    expect(r.verdict).toBe('different');
    expect(r.findings[0]).toEqual({
      kind: 'georeference_differs',
      message:
        'The whole map is shifted 40 m to the north-east and rotated 0.3° clockwise: a georeferencing difference, ' +
        'not 35 moved controls.',
      distanceM: g.shiftM,
      toleranceM: 10,
    });
    expect(g.message).toBe(r.findings[0]!.message);
  });

  it('reports the shift and exactly the three controls really moved on top of it, by their distance after the fit', () => {
    const organiser = heartwood();
    const r = compareCourses(organiser, moveControls(regeoreference(organiser, NE40), THREE));
    const g = r.georeference!;
    expect(g).toMatchObject({ explains: true, controls: 35, within: 32 });
    expect(Math.abs(g.shiftM - 40)).toBeLessThan(0.5);
    expect(Math.abs(g.rotationDeg - 0.3)).toBeLessThan(0.03);
    expect(g.residuals.map((x) => x.control)).toEqual(['177', '185', '173']);
    for (const { control, distanceM } of g.residuals) {
      expect(Math.abs(distanceM - THREE[control as keyof typeof THREE][0])).toBeLessThan(3);
    }
    expect(kinds(r)).toEqual(['georeference_differs', 'control_moved', 'control_moved', 'control_moved']);
    // The real moves are measured after the fit, so with the noise they come out within a metre or two.
    expect(r.findings[0]!.message).toMatch(
      /^The whole map is shifted 40 m to the north-east and rotated 0\.3° clockwise: a georeferencing difference, not 32 moved controls; apart from it, controls 177 \((59|60|61) m\), 185 \((39|40|41) m\) and 173 \((24|25|26) m\) are off\.$/,
    );
    const moved = r.findings.slice(1);
    expect(moved.map((f) => f.control)).toEqual(['173', '177', '185']);
    expect(moved[0]!.distanceM).toBeCloseTo(25, -0.5);
    expect(moved[0]!.message).toMatch(
      /^Control 173 is 2\d m from where the organiser's file puts it once the georeferencing difference is taken out \(\d+ m without; tolerance 10 m\)\.$/,
    );
    // The positions stay as each side wrote them.
    expect(moved[0]!.organiser).toEqual(organiser.controls.find((c) => c.id === '173')!.position);
  });

  it('names a scale that moves the farthest control a metre or more, and recovers it to 1:5000', () => {
    const organiser = heartwood();
    const r = compareCourses(organiser, regeoreference(organiser, { eastM: -30, scale: 1.003, noiseM: 0.5 }));
    const g = r.georeference!;
    expect(g.explains).toBe(true);
    expect(Math.abs(g.scale - 1.003)).toBeLessThan(1 / 5000);
    expect(Math.abs(g.rotationDeg)).toBeLessThan(0.02);
    expect(g.message).toBe(
      'The whole map is shifted 30 m to the west and scaled up 0.3 %: a georeferencing difference, not 35 moved controls.',
    );
  });

  it('tells a map put in the wrong place altogether (150 km off and turned 2°) in kilometres', () => {
    const organiser = heartwood();
    const r = compareCourses(organiser, regeoreference(organiser, { eastM: -150_000, rotationDeg: -2, noiseM: 0.5 }));
    expect(kinds(r)).toEqual(['georeference_differs']);
    expect(Math.abs(r.georeference!.rotationDeg + 2)).toBeLessThan(0.05);
    expect(r.findings[0]!.message).toBe(
      'The whole map is shifted 150 km to the west and rotated 2.0° anticlockwise: a georeferencing difference, ' +
        'not 35 moved controls.',
    );
  });

  it('works with the service in a grid (EPSG:27700), and with the organiser in one', () => {
    const organiser = heartwood();
    const service = inGrid(regeoreference(organiser, NE40), 27700);
    const grid = compareCourses(organiser, service, { serviceProjection: 27700 });
    expect(grid.comparedIn).toMatch(/^EPSG:27700/);
    const g = grid.georeference!;
    expect(g.explains).toBe(true);
    expect(kinds(grid)).toEqual(['georeference_differs']);
    expect(Math.abs(g.shiftM - 40)).toBeLessThan(0.5);
    expect(Math.abs(g.rotationDeg - 0.3)).toBeLessThan(0.03);
    // Grid north is 1.3° off true north at Heartwood: the bearing is the grid's.
    expect(Math.abs(g.shiftBearingDeg - 45)).toBeLessThan(2);

    // The organiser's file as Condes wrote it, in British National Grid metres.
    const condes = parseCourseData(realdata('iof3/rg2_heartwood_CourseData_Condes9_georef.xml')).races[0]!;
    const fromGrid = compareCourses(condes, regeoreference(organiser, NE40), { organiserProjection: 27700 });
    expect(kinds(fromGrid)).toEqual(['georeference_differs']);
    expect(Math.abs(fromGrid.georeference!.shiftM - 40)).toBeLessThan(0.5);
  });

  it('explains a smaller file too (Ellenbrook, 12 controls) with two real moves, but not with three (75 % agree)', () => {
    const organiser = ellenbrook().races[0]!;
    const shifted = regeoreference(organiser, NE40);
    const two = compareCourses(organiser, moveControls(shifted, { '103': [30, 0], '107': [45, 120] }));
    expect(two.georeference).toMatchObject({ explains: true, controls: 12, within: 10 });
    expect(kinds(two)).toEqual(['georeference_differs', 'control_moved', 'control_moved']);

    const three = compareCourses(
      organiser,
      moveControls(shifted, { '103': [30, 0], '107': [45, 120], '109': [40, 250] }),
    );
    expect(three.georeference).toMatchObject({ explains: false, controls: 12, within: 9 });
    expect(three.georeference!.message).toMatch(
      /^No one shift, rotation and scale explains the differences: fitted over 12 controls, the map is shifted 40 m to the north-east.*, and then only 9 of 12 controls are within 10 m\.$/,
    );
    expect(kinds(three)).toEqual(Array(12).fill('control_moved'));
  });

  it('does not explain a few genuinely moved controls away: no shift, and each move reported as it is', () => {
    const organiser = heartwood();
    const r = compareCourses(organiser, moveControls(organiser, THREE));
    const g = r.georeference!;
    expect(g.explains).toBe(false);
    expect(g.shiftM).toBeLessThan(1);
    expect(g.residuals.map((x) => x.control)).toEqual(['177', '185', '173']);
    expect(g.message).toMatch(/^No georeferencing difference: fitted over 35 controls, the map is /);
    expect(kinds(r)).toEqual(['control_moved', 'control_moved', 'control_moved']);
    expect(r.findings[0]!.message).toBe(
      "Control 173 is 25 m from where the organiser's file puts it (tolerance 10 m).",
    );
  });

  it('does not explain many controls moved in different directions away, whatever their number', () => {
    const organiser = heartwood();
    const codes = usedCodes(organiser);
    const rand = seeded(11);
    for (const count of [8, 15, 35]) {
      const moves = Object.fromEntries(
        codes.slice(0, count).map((c) => [c, [15 + rand() * 45, rand() * 360] as [number, number]]),
      );
      const r = compareCourses(organiser, moveControls(organiser, moves));
      expect(r.georeference!.explains, `${count} moved`).toBe(false);
      expect(kinds(r)).toEqual(Array(count).fill('control_moved'));
    }
  });

  it('says there is no georeferencing difference between identical files, and leaves a shift within tolerance alone', () => {
    const organiser = heartwood();
    const same = compareCourses(organiser, organiser);
    expect(same.verdict).toBe('same');
    expect(same.georeference).toMatchObject({ explains: false, shiftM: 0, rotationDeg: 0, scale: 1, within: 35 });
    expect(same.georeference!.message).toBe(
      'No georeferencing difference: fitted over 35 controls, the map is not shifted.',
    );

    const small = compareCourses(organiser, regeoreference(organiser, { northM: 6, noiseM: 0.5 }));
    expect(small.verdict).toBe('same');
    expect(small.georeference!.explains).toBe(false);
    expect(small.georeference!.message).toMatch(
      /^No georeferencing difference: fitted over 35 controls, the map is shifted 6(\.\d)? m to the north, which moves no control beyond the 10 m tolerance\.$/,
    );
  });
});

describe('fitGeoreference', () => {
  /** `n` controls over a square kilometre of grid, each moved on its own by `lo` to `hi` metres. */
  function scattered(n: number, lo: number, hi: number, rand: () => number): MeasuredControl[] {
    return Array.from({ length: n }, (_, i) => {
      const organiser = { lng: 500_000 + rand() * 1000, lat: 200_000 + rand() * 1000 };
      const d = lo + rand() * (hi - lo);
      const a = rand() * 2 * Math.PI;
      const service = { lng: organiser.lng + d * Math.sin(a), lat: organiser.lat + d * Math.cos(a) };
      return { code: String(100 + i), organiser, service, distanceM: d };
    });
  }

  it('explains controls each moved its own way as one transform at most 5 times in 500 random sets (moves of 11-20 m; never for 15-60 m), for 6 to 40 controls', () => {
    const rand = seeded(7);
    for (const n of [6, 8, 12, 40]) {
      let barely = 0;
      let far = 0;
      for (let t = 0; t < 500; t++) {
        if (fitGeoreference(scattered(n, 11, 20, rand), 10, true)!.fit.explains) barely++;
        if (fitGeoreference(scattered(n, 15, 60, rand), 10, true)!.fit.explains) far++;
      }
      // Moves just over the tolerance can, once in a long while, line up with a transform; real-sized moves never.
      expect(barely, `${n} controls moved 11-20 m`).toBeLessThanOrEqual(5);
      expect(far, `${n} controls moved 15-60 m`).toBe(0);
    }
  });

  it('names the shift by the nearest of eight compass points, its bearing clockwise from north', () => {
    const rand = seeded(13);
    const base = scattered(10, 0, 0, rand);
    const words = ['north', 'north-east', 'east', 'south-east', 'south', 'south-west', 'west', 'north-west'];
    for (const [i, word] of words.entries()) {
      // 20° past each point still reads as that point.
      const deg = i * 45 + 20;
      const rad = (deg * Math.PI) / 180;
      const shifted = base.map((m) => ({
        ...m,
        service: { lng: m.organiser.lng + 30 * Math.sin(rad), lat: m.organiser.lat + 30 * Math.cos(rad) },
        distanceM: 30,
      }));
      const g = fitGeoreference(shifted, 10, true)!.fit;
      expect(g.shiftBearingDeg).toBeCloseTo(deg, 1);
      expect(g.shiftEastM).toBeCloseTo(30 * Math.sin(rad), 1);
      expect(g.shiftNorthM).toBeCloseTo(30 * Math.cos(rad), 1);
      expect(g.message).toBe(
        `The whole map is shifted 30 m to the ${word}: a georeferencing difference, not 10 moved controls.`,
      );
    }
  });

  it('needs six controls that agree: five controls shifted alike are too few to tell', () => {
    const rand = seeded(3);
    const five = scattered(5, 0, 0, rand).map((m) => ({
      ...m,
      service: { lng: m.organiser.lng + 40, lat: m.organiser.lat + gauss(rand, 0.5) },
      distanceM: 40,
    }));
    const g = fitGeoreference(five, 10, true)!.fit;
    expect(g).toMatchObject({ explains: false, within: 5, controls: 5 });
    expect(g.message).toMatch(
      /^Too few controls agree to tell a georeferencing difference from moved controls: .* \(6 needed\)\.$/,
    );
  });

  it('gives no fit for fewer than three controls', () => {
    const rand = seeded(5);
    expect(fitGeoreference([], 10, true)).toBeUndefined();
    expect(fitGeoreference(scattered(2, 20, 30, rand), 10, true)).toBeUndefined();
    expect(fitGeoreference(scattered(3, 20, 30, rand), 10, true)).toBeDefined();
  });

  it('says when the controls agree only loosely after the fit: not a georeferencing difference', () => {
    const rand = seeded(9);
    // 20 controls shifted 40 m east, each with up to 9.5 m of its own on top: within 10 m after the fit, but only just.
    const loose = scattered(20, 0, 0, rand).map((m) => {
      const d = 7 + rand() * 2.5;
      const a = rand() * 2 * Math.PI;
      const service = { lng: m.organiser.lng + 40 + d * Math.sin(a), lat: m.organiser.lat + d * Math.cos(a) };
      return { ...m, service, distanceM: Math.hypot(service.lng - m.organiser.lng, service.lat - m.organiser.lat) };
    });
    const g = fitGeoreference(loose, 10, true)!.fit;
    expect(g.explains).toBe(false);
    expect(g.message).toMatch(/but \d+(\.\d)? m apart \(root mean square\), more than half the tolerance\.$/);
  });
});
