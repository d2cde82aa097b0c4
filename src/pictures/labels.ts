/**
 * Labels beside points that do not cover each other or the symbols: each label tries eight places around its point,
 * then eight a little farther out, and takes the first that overlaps nothing placed so far (or, when every place
 * does, the one that overlaps least). Greedy and simple: enough for the few dozen labels of a course, where a label a
 * little off its ideal place is fine and an unreadable pile is not.
 */
import { escapeHtml } from '../core/html.js';

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface LabelRequest {
  text: string;
  /** The point the label belongs to, in drawing units. */
  anchor: { x: number; y: number };
  colour: string;
  bold?: boolean;
}

/** How far a label sits from its point: beyond the largest symbol. */
const OFFSET = 13;

/**
 * Where to try, as directions from the point and a distance (1: beside the symbol, 2: a little farther out, where a
 * crowded spot has room): right and above first (as map labels usually go), then round, then the outer ring.
 */
const DIRECTIONS: ReadonlyArray<readonly [number, number]> = [
  [1, -1],
  [1, 1],
  [-1, -1],
  [-1, 1],
  [1, 0],
  [-1, 0],
  [0, -1],
  [0, 1],
];
const PLACES: ReadonlyArray<readonly [number, number, number]> = [1, 2].flatMap((ring) =>
  DIRECTIONS.map(([dx, dy]) => [dx, dy, ring] as const),
);

/** Text width estimate: no font metrics here, and digits and capitals of a sans-serif are about 0.64 em. */
export function textWidth(text: string, fontSize: number, bold = false): number {
  return text.length * fontSize * (bold ? 0.7 : 0.64);
}

function overlap(a: Box, b: Box): number {
  const w = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

/** The label's box when placed in direction `d` (with its ring) from its point. */
function boxAt(req: LabelRequest, d: readonly [number, number, number], fontSize: number): Box {
  const w = textWidth(req.text, fontSize, req.bold);
  const h = fontSize * 1.1;
  const off = OFFSET * d[2];
  const x = d[0] > 0 ? req.anchor.x + off * 0.8 : d[0] < 0 ? req.anchor.x - off * 0.8 - w : req.anchor.x - w / 2;
  const y = d[1] > 0 ? req.anchor.y + off * 0.6 : d[1] < 0 ? req.anchor.y - off * 0.6 - h : req.anchor.y - h / 2;
  // Straight above or below clears the symbol by the whole offset.
  return { x, y: d[0] === 0 ? req.anchor.y + d[1] * (off + h / 2) - h / 2 : y, w, h };
}

/** Boxes of placed labels (for tests): the same placement as `placeLabels`, without the markup. */
export function labelBoxes(
  requests: readonly LabelRequest[],
  obstacles: readonly Box[],
  bounds: Box,
  fontSize: number,
): Box[] {
  const taken: Box[] = [...obstacles];
  const placed: Box[] = [];
  for (const req of requests) {
    let best: Box | undefined;
    let bestCost = Infinity;
    for (const d of PLACES) {
      const box = boxAt(req, d, fontSize);
      const outside =
        Math.max(0, bounds.x - box.x) +
        Math.max(0, box.x + box.w - (bounds.x + bounds.w)) +
        Math.max(0, bounds.y - box.y) +
        Math.max(0, box.y + box.h - (bounds.y + bounds.h));
      const cost = taken.reduce((sum, t) => sum + overlap(box, t), 0) + outside * 1000;
      if (cost < bestCost) {
        best = box;
        bestCost = cost;
      }
      if (cost === 0) break;
    }
    taken.push(best!);
    placed.push(best!);
  }
  return placed;
}

/** The labels as SVG text, each in the place `labelBoxes` found, on a white halo so that lines under it do not cut it. */
export function placeLabels(
  requests: readonly LabelRequest[],
  obstacles: readonly Box[],
  bounds: Box,
  fontSize: number,
): string[] {
  const boxes = labelBoxes(requests, obstacles, bounds, fontSize);
  return requests.map((req, i) => {
    const b = boxes[i]!;
    const weight = req.bold ? ' font-weight="bold"' : '';
    return (
      `<text x="${Math.round(b.x * 10) / 10}" y="${Math.round((b.y + b.h * 0.82) * 10) / 10}" fill="${req.colour}"` +
      `${weight} stroke="#fff" stroke-width="3" paint-order="stroke">${escapeHtml(req.text)}</text>`
    );
  });
}
