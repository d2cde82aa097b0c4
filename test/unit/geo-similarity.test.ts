/** fitSimilarity: the closed-form least-squares shift, rotation and scale between two sets of plane points. */
import { describe, expect, it } from 'vitest';
import type { PlanePoint } from '../../src/geo/local-plane.js';
import { applySimilarity, fitSimilarity, turnDisplacement, type PointPair } from '../../src/geo/similarity.js';
import { gauss, seeded as random } from '../helpers/georeference.js';

/** `n` points spread over a forest of `sizeM` metres around (`x0`, `y0`). */
function points(n: number, rand: () => number, sizeM = 2000, x0 = 0, y0 = 0): PlanePoint[] {
  return Array.from({ length: n }, () => ({ x: x0 + (rand() - 0.5) * sizeM, y: y0 + (rand() - 0.5) * sizeM }));
}

/** Turns by `deg` counter-clockwise and scales by `scale` about `about`, then shifts by (`dx`, `dy`). */
function transform(p: PlanePoint, t: { dx: number; dy: number; deg: number; scale: number; about: PlanePoint }) {
  const r = (t.deg * Math.PI) / 180;
  const x = p.x - t.about.x;
  const y = p.y - t.about.y;
  return {
    x: t.about.x + t.scale * (x * Math.cos(r) - y * Math.sin(r)) + t.dx,
    y: t.about.y + t.scale * (x * Math.sin(r) + y * Math.cos(r)) + t.dy,
  };
}

const toDeg = (rad: number): number => (rad * 180) / Math.PI;

describe('fitSimilarity', () => {
  it('recovers an exact shift, rotation and scale to a micrometre, with residuals of zero', () => {
    const rand = random(1);
    const from = points(30, rand);
    const about = from.reduce((c, p) => ({ x: c.x + p.x / from.length, y: c.y + p.y / from.length }), { x: 0, y: 0 });
    const t = { dx: 26.9, dy: 26.9, deg: 0.4, scale: 1.0005, about };
    const fit = fitSimilarity(from.map((p) => ({ from: p, to: transform(p, t) })));
    expect(fit.solved).toBe('full');
    expect(fit.toCentre.x - fit.fromCentre.x).toBeCloseTo(26.9, 6);
    expect(fit.toCentre.y - fit.fromCentre.y).toBeCloseTo(26.9, 6);
    expect(toDeg(fit.rotationRad)).toBeCloseTo(0.4, 9);
    expect(fit.scale).toBeCloseTo(1.0005, 9);
    expect(Math.max(...fit.residuals)).toBeLessThan(1e-6);
    expect(fit.rmsResidual).toBeLessThan(1e-6);
  });

  it('keeps full precision on grid metres (eastings of 500 000 m) because it works about the centres', () => {
    const rand = random(2);
    const from = points(40, rand, 3000, 516_000, 211_000);
    const t = { dx: -41.3, dy: 7.2, deg: -0.3, scale: 0.9998, about: { x: 516_000, y: 211_000 } };
    const fit = fitSimilarity(from.map((p) => ({ from: p, to: transform(p, t) })));
    expect(toDeg(fit.rotationRad)).toBeCloseTo(-0.3, 8);
    expect(fit.scale).toBeCloseTo(0.9998, 8);
    // Any point lands where the transform puts it, not just the centre.
    const probe = { x: 517_200, y: 210_100 };
    const expected = transform(probe, t);
    const got = applySimilarity(fit, probe);
    expect(Math.hypot(got.x - expected.x, got.y - expected.y)).toBeLessThan(1e-5);
  });

  it('recovers a transform under 2 m of noise on 60 controls to 0.5 m, 0.05° and 1:2000', () => {
    const rand = random(3);
    const from = points(60, rand, 1500);
    const t = { dx: 40, dy: -12, deg: 1.2, scale: 1.002, about: { x: 0, y: 0 } };
    const pairs = from.map((p) => {
      const q = transform(p, t);
      return { from: p, to: { x: q.x + gauss(rand, 2), y: q.y + gauss(rand, 2) } };
    });
    const fit = fitSimilarity(pairs);
    const centre = applySimilarity(fit, { x: 0, y: 0 });
    expect(Math.abs(centre.x - 40)).toBeLessThan(0.5);
    expect(Math.abs(centre.y + 12)).toBeLessThan(0.5);
    expect(Math.abs(toDeg(fit.rotationRad) - 1.2)).toBeLessThan(0.05);
    expect(Math.abs(fit.scale - 1.002)).toBeLessThan(1 / 2000);
    // The residuals are the noise: about 2 m in each of two directions.
    expect(fit.rmsResidual).toBeGreaterThan(1.5);
    expect(fit.rmsResidual).toBeLessThan(3.5);
  });

  it('gives the residual of each pair in the pairs order: a moved point stands out', () => {
    const rand = random(4);
    const from = points(10, rand);
    const pairs: PointPair[] = from.map((p) => ({ from: p, to: { x: p.x + 5, y: p.y } }));
    pairs[6] = { from: from[6]!, to: { x: from[6]!.x + 5, y: from[6]!.y + 100 } };
    const fit = fitSimilarity(pairs);
    const worst = fit.residuals.indexOf(Math.max(...fit.residuals));
    expect(worst).toBe(6);
    expect(fit.residuals).toHaveLength(10);
  });

  it('is the identity without pairs, never NaN', () => {
    const fit = fitSimilarity([]);
    expect(fit).toEqual({
      solved: 'none',
      fromCentre: { x: 0, y: 0 },
      toCentre: { x: 0, y: 0 },
      scale: 1,
      rotationRad: 0,
      residuals: [],
      rmsResidual: 0,
    });
  });

  it('is a shift with no rotation and a scale of 1 for one pair, or for points all in one place', () => {
    const one = fitSimilarity([{ from: { x: 10, y: 20 }, to: { x: 13, y: 24 } }]);
    expect(one).toMatchObject({ solved: 'shift', scale: 1, rotationRad: 0, residuals: [0], rmsResidual: 0 });
    expect(applySimilarity(one, { x: 10, y: 20 })).toEqual({ x: 13, y: 24 });

    const here = { x: 5, y: 5 };
    const coincident = fitSimilarity([
      { from: here, to: { x: 6, y: 5 } },
      { from: here, to: { x: 8, y: 5 } },
      { from: here, to: { x: 7, y: 8 } },
    ]);
    expect(coincident.solved).toBe('shift');
    expect(coincident.scale).toBe(1);
    expect(coincident.rotationRad).toBe(0);
    expect(coincident.toCentre).toEqual({ x: 7, y: 6 });
    for (const r of coincident.residuals) expect(Number.isFinite(r)).toBe(true);
  });

  it('fits two distinct points exactly, and gives scale 0 (not NaN) when every target is in one place', () => {
    const two = fitSimilarity([
      { from: { x: 0, y: 0 }, to: { x: 1, y: 1 } },
      { from: { x: 10, y: 0 }, to: { x: 1, y: 11 } },
    ]);
    expect(two.solved).toBe('full');
    expect(toDeg(two.rotationRad)).toBeCloseTo(90, 9);
    expect(two.scale).toBeCloseTo(1, 9);
    expect(Math.max(...two.residuals)).toBeLessThan(1e-9);

    const collapsed = fitSimilarity([
      { from: { x: 0, y: 0 }, to: { x: 3, y: 3 } },
      { from: { x: 10, y: 0 }, to: { x: 3, y: 3 } },
      { from: { x: 0, y: 10 }, to: { x: 3, y: 3 } },
    ]);
    expect(collapsed.scale).toBe(0);
    expect(collapsed.rotationRad).toBe(0);
    expect(collapsed.residuals.every(Number.isFinite)).toBe(true);
  });

  it('measures what the rotation and scale alone do at a point: nothing at the centre, r * angle away from it', () => {
    const from = [
      { x: -1000, y: 0 },
      { x: 1000, y: 0 },
      { x: 0, y: 500 },
      { x: 0, y: -500 },
    ];
    const t = { dx: 30, dy: 0, deg: 0.3, scale: 1, about: { x: 0, y: 0 } };
    const fit = fitSimilarity(from.map((p) => ({ from: p, to: transform(p, t) })));
    expect(turnDisplacement(fit, { x: 0, y: 0 })).toBeLessThan(1e-9);
    // 1000 m from the centre, 0.3° moves a point 2 * 1000 * sin(0.15°) = 5.236 m.
    expect(turnDisplacement(fit, { x: 1000, y: 0 })).toBeCloseTo(5.236, 3);
    // About another centre the same turn moves that centre by nothing, and the old one by as much.
    expect(turnDisplacement(fit, { x: 1000, y: 0 }, { x: 1000, y: 0 })).toBeLessThan(1e-9);
    expect(turnDisplacement(fit, { x: 0, y: 0 }, { x: 1000, y: 0 })).toBeCloseTo(5.236, 3);
  });
});
