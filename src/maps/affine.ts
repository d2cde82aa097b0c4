/**
 * Plane transforms the georeference is built from: the affine a world file states and a least-squares fit finds, and
 * the projective transform four given corners define. Plain numbers, no units: each caller says what its planes are.
 */

/** A point of a plane. */
export interface XY {
  x: number;
  y: number;
}

/** `x' = a·x + b·y + c`, `y' = d·x + e·y + f`. */
export interface Affine {
  a: number;
  b: number;
  c: number;
  d: number;
  e: number;
  f: number;
}

export function applyAffine(t: Affine, p: XY): XY {
  return { x: t.a * p.x + t.b * p.y + t.c, y: t.d * p.x + t.e * p.y + t.f };
}

export function determinant(t: Affine): number {
  return t.a * t.e - t.b * t.d;
}

/** The inverse transform. Callers refuse a zero determinant first (a world file, a fit); here it would be Infinity. */
export function invertAffine(t: Affine): Affine {
  const det = determinant(t);
  const a = t.e / det;
  const b = -t.b / det;
  const d = -t.d / det;
  const e = t.a / det;
  return { a, b, c: -(a * t.c + b * t.f), d, e, f: -(d * t.c + e * t.f) };
}

/** `outer(inner(p))` as one transform. */
export function composeAffine(outer: Affine, inner: Affine): Affine {
  return {
    a: outer.a * inner.a + outer.b * inner.d,
    b: outer.a * inner.b + outer.b * inner.e,
    c: outer.a * inner.c + outer.b * inner.f + outer.c,
    d: outer.d * inner.a + outer.e * inner.d,
    e: outer.d * inner.b + outer.e * inner.e,
    f: outer.d * inner.c + outer.e * inner.f + outer.f,
  };
}

/**
 * The least-squares affine taking each `from[i]` to `to[i]`, or `undefined` when the points do not fix one (fewer than
 * three, or all on one line). Coordinates are taken relative to their means first, which keeps the normal equations
 * well conditioned when the values are grid metres in the hundreds of thousands.
 */
export function fitAffine(from: readonly XY[], to: readonly XY[]): Affine | undefined {
  const n = Math.min(from.length, to.length);
  if (n < 3) return undefined;
  const mean = (ps: readonly XY[]): XY => ({
    x: ps.slice(0, n).reduce((s, p) => s + p.x, 0) / n,
    y: ps.slice(0, n).reduce((s, p) => s + p.y, 0) / n,
  });
  const m = mean(from);
  const t = mean(to);
  let sxx = 0;
  let sxy = 0;
  let syy = 0;
  let sxu = 0;
  let syu = 0;
  let sxv = 0;
  let syv = 0;
  for (let i = 0; i < n; i += 1) {
    const x = from[i]!.x - m.x;
    const y = from[i]!.y - m.y;
    const u = to[i]!.x - t.x;
    const v = to[i]!.y - t.y;
    sxx += x * x;
    sxy += x * y;
    syy += y * y;
    sxu += x * u;
    syu += y * u;
    sxv += x * v;
    syv += y * v;
  }
  const det = sxx * syy - sxy * sxy;
  // Collinear points leave one direction unfixed: the normal matrix is singular (relative to its own size).
  if (!(Math.abs(det) > 1e-12 * (sxx * syy || 1))) return undefined;
  const a = (sxu * syy - syu * sxy) / det;
  const b = (syu * sxx - sxu * sxy) / det;
  const d = (sxv * syy - syv * sxy) / det;
  const e = (syv * sxx - sxv * sxy) / det;
  return { a, b, c: t.x - a * m.x - b * m.y, d, e, f: t.y - d * m.x - e * m.y };
}

/** A projective transform (homography): `x' = (h0·x + h1·y + h2) / w`, `y' = (h3·x + h4·y + h5) / w`, `w = h6·x + h7·y + 1`. */
export type Homography = readonly [number, number, number, number, number, number, number, number];

export function applyHomography(h: Homography, p: XY): XY {
  const w = h[6] * p.x + h[7] * p.y + 1;
  return { x: (h[0] * p.x + h[1] * p.y + h[2]) / w, y: (h[3] * p.x + h[4] * p.y + h[5]) / w };
}

/**
 * The homography taking the four points `from` to the four points `to`, or `undefined` when three of either lie on a
 * line. Four pairs fix it exactly; both directions are found this way (swap the arguments for the inverse).
 */
export function homographyFrom4(from: readonly XY[], to: readonly XY[]): Homography | undefined {
  const rows: number[][] = [];
  for (let i = 0; i < 4; i += 1) {
    const { x, y } = from[i]!;
    const { x: u, y: v } = to[i]!;
    rows.push([x, y, 1, 0, 0, 0, -u * x, -u * y, u]);
    rows.push([0, 0, 0, x, y, 1, -v * x, -v * y, v]);
  }
  const solution = solveLinear(rows);
  return solution && solution.length === 8 ? (solution as unknown as Homography) : undefined;
}

/**
 * Solves the square system whose augmented rows are `rows` (n rows of n + 1 numbers) by Gaussian elimination with
 * partial pivoting; `undefined` when it is singular.
 */
function solveLinear(rows: number[][]): number[] | undefined {
  const n = rows.length;
  const m = rows.map((r) => [...r]);
  const scale = Math.max(...m.flat().map(Math.abs)) || 1;
  for (let col = 0; col < n; col += 1) {
    let pivot = col;
    for (let r = col + 1; r < n; r += 1) if (Math.abs(m[r]![col]!) > Math.abs(m[pivot]![col]!)) pivot = r;
    if (Math.abs(m[pivot]![col]!) < 1e-12 * scale) return undefined;
    [m[col], m[pivot]] = [m[pivot]!, m[col]!];
    const top = m[col]!;
    for (let r = 0; r < n; r += 1) {
      if (r === col) continue;
      const row = m[r]!;
      const k = row[col]! / top[col]!;
      for (let c = col; c <= n; c += 1) row[c] = row[c]! - k * top[c]!;
    }
  }
  return m.map((row, i) => row[n]! / row[i]!);
}
