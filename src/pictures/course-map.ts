/**
 * One course of a course check drawn as a map: the organiser's controls and the service's in a local metric plane, in
 * two colours and two shapes (circles and squares, so that the picture reads in greyscale too), start triangles and
 * finish double circles, the legs in order, an arrow from the organiser's position to the service's for each control
 * farther apart than the tolerance, a scale bar and a north arrow. When one fitted transform (a georeferencing
 * difference) explains the differences, it is one arrow at the controls' centre and only the moves left after it are
 * drawn per control.
 *
 * The SVG stands alone (its own namespace, presentation attributes rather than a stylesheet) so that the same markup
 * is a file of its own (`--svg`) and a figure in a page. Drawn controls carry their plane position as data
 * (`data-x-m`, `data-y-m`) and the root the transform from metres to its units, so a test can read positions back.
 */
import { escapeHtml } from '../core/html.js';
import type { PlanePoint } from '../geo/local-plane.js';
import { placeLabels, type Box, type LabelRequest } from './labels.js';

export type MapControlKind = 'control' | 'start' | 'finish';
export type MapSide = 'organiser' | 'service';

/** One control of a course as each side has it. */
export interface MapControl {
  /** The code both sides are matched by. */
  code: string;
  kind: MapControlKind;
  /**
   * Where the side puts it (metres east and north in the plane) when the side's course visits it: `null` when the
   * side gives no position it could be placed by; absent when the side's course does not visit it.
   */
  organiser?: PlanePoint | null;
  service?: PlanePoint | null;
  /** Metres apart, when the comparison found it farther apart than the tolerance. */
  movedM?: number;
}

/** A georeferencing difference: one similarity transform from the organiser's positions to the service's. */
export interface MapFit {
  /** The centre of the organiser's controls the transform turns about, in the plane. */
  centre: PlanePoint;
  shiftEastM: number;
  shiftNorthM: number;
  /** Degrees, positive clockwise. */
  rotationDeg: number;
  scale: number;
  /** The fit in words, as the report says it. */
  message: string;
  /** Controls still farther apart than the tolerance after the transform (the real moves), and by how much. */
  residuals: ReadonlyArray<{ control: string; distanceM: number }>;
}

export interface CourseMapInput {
  /** The course's name (the organiser's, or the service's when only it has the course). */
  name: string;
  /** Codes in order, start and finish included; absent when the side has no such course. */
  organiserSequence?: readonly string[];
  serviceSequence?: readonly string[];
  /** Every control either side's course visits. */
  controls: readonly MapControl[];
  toleranceM: number;
  /** The plane in words: `EPSG:27700 (OSGB36 / British National Grid)`, `a local transverse Mercator plane`. */
  plane: string;
  /** Present when one transform explains the differences (see `MapFit`). */
  fit?: MapFit;
}

export interface CourseMapOptions {
  /** Makes the ids inside the drawing unique in a page holding several (`c3`). Default `map`. */
  idPrefix?: string;
}

/** Colours of the two sides, dark enough on white; the shapes carry the same meaning without colour. */
const SIDE_COLOURS: Readonly<Record<MapSide, string>> = { organiser: '#a3157f', service: '#0550ae' };
const MOVE_COLOUR = '#b3261e';
const FIT_COLOUR = '#7a4a00';
const INK = '#1b1f24';

/** The drawing's width in its own units; the height follows the course's shape. */
const WIDTH = 640;
const MAX_HEIGHT = 760;
const MARGIN = 56;
const LEGEND_HEIGHT = 34;
const FONT = 13;
/** The smallest extent drawn, metres: a course of one point still gets a scale. */
const MIN_EXTENT_M = 60;
/** The square is drawn round the circle, so that both show where the two sides agree. */
const SYMBOL = { circle: 8, square: 22, triangle: 11, finishInner: 7, finishOuter: 11 };

interface Frame {
  /** Drawing units per metre. */
  k: number;
  /** The plane point at the drawing's top-left corner. */
  ox: number;
  oy: number;
  height: number;
}

/** Plane metres to drawing units: east to the right, north up. */
function at(f: Frame, p: PlanePoint): { x: number; y: number } {
  return { x: (p.x - f.ox) * f.k, y: (f.oy - p.y) * f.k };
}

function n(v: number): string {
  return String(Math.round(v * 10) / 10);
}

/** Where the organiser's position ends up under the fitted transform. */
export function fitted(fit: MapFit, p: PlanePoint): PlanePoint {
  const t = (fit.rotationDeg * Math.PI) / 180;
  const dx = p.x - fit.centre.x;
  const dy = p.y - fit.centre.y;
  // Clockwise by t: north turns towards east.
  return {
    x: fit.centre.x + fit.shiftEastM + fit.scale * (dx * Math.cos(t) + dy * Math.sin(t)),
    y: fit.centre.y + fit.shiftNorthM + fit.scale * (-dx * Math.sin(t) + dy * Math.cos(t)),
  };
}

/** An arrow to draw: from, to (plane), its words. */
interface Move {
  code: string;
  from: PlanePoint;
  to: PlanePoint;
  label: string;
}

/** The per-control arrows: the comparison's moves, or with a fit only the moves left after it. */
function movesOf(course: CourseMapInput): Move[] {
  const moves: Move[] = [];
  const residual = new Map(course.fit?.residuals.map((r) => [r.control, r.distanceM]));
  for (const c of course.controls) {
    if (!c.organiser || !c.service) continue;
    if (course.fit !== undefined) {
      const d = residual.get(c.code);
      if (d !== undefined) {
        moves.push({ code: c.code, from: fitted(course.fit, c.organiser), to: c.service, label: metres(d) });
      }
    } else if (c.movedM !== undefined) {
      moves.push({ code: c.code, from: c.organiser, to: c.service, label: metres(c.movedM) });
    }
  }
  return moves;
}

function metres(m: number): string {
  return `${m >= 100 ? Math.round(m) : Math.round(m * 10) / 10} m`;
}

/** The frame that holds every point with room for labels, scaled to the drawing's width (or its height limit). */
function frameFor(points: readonly PlanePoint[]): Frame {
  const xs = points.map((p) => p.x);
  const ys = points.map((p) => p.y);
  let [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const grow = (lo: number, hi: number): [number, number] => {
    const missing = MIN_EXTENT_M - (hi - lo);
    return missing > 0 ? [lo - missing / 2, hi + missing / 2] : [lo, hi];
  };
  [minX, maxX] = grow(minX, maxX);
  [minY, maxY] = grow(minY, maxY);
  const inner = WIDTH - 2 * MARGIN;
  const k = Math.min(inner / (maxX - minX), (MAX_HEIGHT - 2 * MARGIN - LEGEND_HEIGHT) / (maxY - minY));
  // Centred across the width when the height is what limits the scale.
  const slack = (inner - (maxX - minX) * k) / 2;
  return {
    k,
    ox: minX - (MARGIN + slack) / k,
    oy: maxY + MARGIN / k,
    height: Math.ceil((maxY - minY) * k + 2 * MARGIN + LEGEND_HEIGHT),
  };
}

/** Every point the drawing has to show. */
function pointsOf(course: CourseMapInput, moves: readonly Move[]): PlanePoint[] {
  const points: PlanePoint[] = [];
  for (const c of course.controls) {
    if (c.organiser) points.push(c.organiser);
    if (c.service) points.push(c.service);
  }
  for (const m of moves) points.push(m.from);
  return points;
}

/** The course's legs as one path through the side's positions, each leg cut short at the symbols it joins. */
function legs(f: Frame, course: CourseMapInput, side: MapSide, sequence: readonly string[]): string {
  const byCode = new Map(course.controls.map((c) => [c.code, c]));
  const pts = sequence
    .map((code) => byCode.get(code))
    .map((c) => (c === undefined ? undefined : { point: c[side], kind: c.kind }))
    .filter((p): p is { point: PlanePoint; kind: MapControlKind } => p !== undefined && !!p.point);
  const gap = (kind: MapControlKind): number =>
    (kind === 'finish' ? SYMBOL.finishOuter : kind === 'start' ? SYMBOL.triangle : SYMBOL.square / 2) + 2;
  const parts: string[] = [];
  for (let i = 1; i < pts.length; i++) {
    const a = at(f, pts[i - 1]!.point);
    const b = at(f, pts[i]!.point);
    const len = Math.hypot(b.x - a.x, b.y - a.y);
    const cutA = gap(pts[i - 1]!.kind);
    const cutB = gap(pts[i]!.kind);
    if (len <= cutA + cutB) continue;
    const ux = (b.x - a.x) / len;
    const uy = (b.y - a.y) / len;
    parts.push(`M${n(a.x + ux * cutA)} ${n(a.y + uy * cutA)}L${n(b.x - ux * cutB)} ${n(b.y - uy * cutB)}`);
  }
  if (parts.length === 0) return '';
  const dash = side === 'service' ? ' stroke-dasharray="7 5"' : '';
  return (
    `<path class="legs" data-side="${side}" d="${parts.join('')}" fill="none" stroke="${SIDE_COLOURS[side]}" ` +
    `stroke-width="${side === 'service' ? 1.6 : 2}" stroke-opacity="0.8"${dash}/>`
  );
}

/** A side's symbol, centred on 0,0 (its box is centred too, so a reader finds the point at the box's middle). */
function symbol(side: MapSide, kind: MapControlKind): string {
  const stroke = `fill="none" stroke="${SIDE_COLOURS[side]}" stroke-width="2.2"`;
  const dashed = side === 'service' ? ' stroke-dasharray="4 2.5"' : '';
  if (kind === 'start') {
    const s = SYMBOL.triangle;
    return `<path d="M0 ${-s}L${n(s * 1.1)} ${s}L${n(-s * 1.1)} ${s}Z" ${stroke}${dashed}/>`;
  }
  if (kind === 'finish') {
    return (
      `<circle r="${SYMBOL.finishInner}" ${stroke}${dashed}/>` +
      `<circle r="${SYMBOL.finishOuter}" ${stroke}${dashed}/>`
    );
  }
  if (side === 'organiser') return `<circle r="${SYMBOL.circle}" ${stroke}/>`;
  const h = SYMBOL.square / 2;
  return `<rect x="${-h}" y="${-h}" width="${SYMBOL.square}" height="${SYMBOL.square}" ${stroke}/>`;
}

function symbolBox(p: { x: number; y: number }, kind: MapControlKind): Box {
  const r = kind === 'finish' ? SYMBOL.finishOuter : kind === 'start' ? SYMBOL.triangle * 1.1 : SYMBOL.square / 2;
  return { x: p.x - r, y: p.y - r, w: 2 * r, h: 2 * r };
}

interface Drawn {
  markup: string[];
  symbols: Box[];
  labels: LabelRequest[];
}

/** Symbols of both sides, and what each needs labelled. */
function drawControls(f: Frame, course: CourseMapInput): Drawn {
  const out: Drawn = { markup: [], symbols: [], labels: [] };
  for (const c of course.controls) {
    const sides = (['organiser', 'service'] as const).filter((s) => c[s]);
    for (const side of sides) {
      const p = c[side]!;
      const s = at(f, p);
      out.markup.push(
        `<g class="control" data-code="${escapeHtml(c.code)}" data-side="${side}" data-kind="${c.kind}" ` +
          `data-x-m="${p.x.toFixed(2)}" data-y-m="${p.y.toFixed(2)}" transform="translate(${n(s.x)} ${n(s.y)})">` +
          `${symbol(side, c.kind)}</g>`,
      );
      out.symbols.push(symbolBox(s, c.kind));
    }
    out.labels.push(...controlLabels(f, c, oneSided(course)));
  }
  return out;
}

/** A code once where both sides nearly agree, at each symbol where they do not, and the side a control is only on. */
function controlLabels(f: Frame, c: MapControl, oneSidedCourse: boolean): LabelRequest[] {
  const o = c.organiser ? at(f, c.organiser) : undefined;
  const s = c.service ? at(f, c.service) : undefined;
  // A course only one side has: every control is on that side only, which the course's heading already says.
  const only = (side: MapSide): string =>
    oneSidedCourse ? '' : side === 'organiser' ? ' (not on the service)' : " (not in organiser's file)";
  if (o && s) {
    if (Math.hypot(o.x - s.x, o.y - s.y) < 18) return [{ text: c.code, anchor: o, colour: INK }];
    return [
      { text: c.code, anchor: o, colour: SIDE_COLOURS.organiser },
      { text: c.code, anchor: s, colour: SIDE_COLOURS.service },
    ];
  }
  // A side whose course does not visit the control at all (absent, not null) is where it is missing.
  if (o) return [{ text: `${c.code}${c.service === undefined ? only('organiser') : ''}`, anchor: o, colour: INK }];
  if (s) return [{ text: `${c.code}${c.organiser === undefined ? only('service') : ''}`, anchor: s, colour: INK }];
  return [];
}

/** An arrow head, `size` times the line's width. */
function arrowHead(id: string, colour: string, size: number): string {
  return (
    `<marker id="${id}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="${size}" markerHeight="${size}" orient="auto-start-reverse">` +
    `<path d="M0 0L10 5L0 10Z" fill="${colour}"/></marker>`
  );
}

/** The per-control arrows, and their distance labels (placed before the codes, so that they keep their place). */
function drawMoves(
  f: Frame,
  moves: readonly Move[],
  head: string,
  fit: boolean,
): { markup: string[]; labels: LabelRequest[]; boxes: Box[] } {
  const markup: string[] = [];
  const labels: LabelRequest[] = [];
  const boxes: Box[] = [];
  for (const m of moves) {
    const a = at(f, m.from);
    const b = at(f, m.to);
    boxes.push(...along(a, b));
    // After a fit the arrow starts where the shift puts the organiser's control: a dot says where that is.
    if (fit) markup.push(`<circle cx="${n(a.x)}" cy="${n(a.y)}" r="2.5" fill="${MOVE_COLOUR}"/>`);
    markup.push(
      `<line class="move" data-code="${escapeHtml(m.code)}" x1="${n(a.x)}" y1="${n(a.y)}" x2="${n(b.x)}" y2="${n(b.y)}" ` +
        `stroke="${MOVE_COLOUR}" stroke-width="2.2" marker-end="url(#${head})"/>`,
    );
    labels.push({ text: m.label, anchor: { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 }, colour: MOVE_COLOUR, bold: true });
  }
  return { markup, labels, boxes };
}

/** Small boxes along a line, so that labels keep off an arrow as they keep off symbols. */
function along(a: { x: number; y: number }, b: { x: number; y: number }): Box[] {
  const steps = Math.max(1, Math.ceil(Math.hypot(b.x - a.x, b.y - a.y) / 8));
  const boxes: Box[] = [];
  for (let i = 0; i <= steps; i++) {
    const x = a.x + ((b.x - a.x) * i) / steps;
    const y = a.y + ((b.y - a.y) * i) / steps;
    boxes.push({ x: x - 3, y: y - 3, w: 6, h: 6 });
  }
  return boxes;
}

/** The fitted shift as one arrow from the centre of the organiser's controls, at least long enough to be seen. */
function drawFit(
  f: Frame,
  fit: MapFit,
  head: string,
): { markup: string; label: LabelRequest; boxes: Box[]; scaled: boolean } {
  const a = at(f, fit.centre);
  const dx = fit.shiftEastM * f.k;
  const dy = -fit.shiftNorthM * f.k;
  const len = Math.hypot(dx, dy);
  const shown = Math.max(len, 60);
  const ux = len > 0 ? dx / len : 0;
  const uy = len > 0 ? dy / len : -1;
  const b = { x: a.x + ux * shown, y: a.y + uy * shown };
  // The words stay short (the legend says the arrow is the whole map's shift, and not to scale).
  const words = [metres(Math.hypot(fit.shiftEastM, fit.shiftNorthM))];
  if (Math.abs(fit.rotationDeg) >= 0.05) words.push(`${Math.round(fit.rotationDeg * 10) / 10}°`);
  if (Math.abs(fit.scale - 1) >= 0.0005) words.push(`×${Math.round(fit.scale * 1000) / 1000}`);
  return {
    markup:
      `<g class="fit"><circle cx="${n(a.x)}" cy="${n(a.y)}" r="4" fill="${FIT_COLOUR}"/>` +
      `<line x1="${n(a.x)}" y1="${n(a.y)}" x2="${n(b.x)}" y2="${n(b.y)}" stroke="${FIT_COLOUR}" stroke-width="5" ` +
      `stroke-opacity="0.85" marker-end="url(#${head})"/></g>`,
    label: { text: words.join(', '), anchor: b, colour: FIT_COLOUR, bold: true },
    boxes: along(a, b),
    scaled: shown > len + 1,
  };
}

/** A round length about a quarter of the drawing wide. */
export function scaleLength(metresWide: number): number {
  const target = metresWide / 4;
  const power = 10 ** Math.floor(Math.log10(target));
  return [5, 2, 1].map((m) => m * power).find((v) => v <= target) ?? power;
}

function scaleBar(f: Frame): string {
  const m = scaleLength(WIDTH / f.k);
  const len = m * f.k;
  const x = 16;
  const y = f.height - LEGEND_HEIGHT - 12;
  return (
    `<g class="scale" data-metres="${m}" data-length="${n(len)}" stroke="${INK}" stroke-width="2" fill="none">` +
    `<path d="M${x} ${y - 6}V${y}H${n(x + len)}V${y - 6}"/>` +
    `<text x="${n(x + len + 6)}" y="${y}" fill="${INK}" stroke="none" font-size="${FONT}">${metres(m)}</text></g>`
  );
}

/** The north arrow, in the top right corner (east of where any control can be drawn). */
function northArrow(): string {
  const x = WIDTH - 14;
  return (
    `<g class="north" fill="${INK}"><path d="M${x} 6L${x + 6} 26L${x} 22L${x - 6} 26Z"/>` +
    `<text x="${x}" y="40" text-anchor="middle" font-size="${FONT}" font-weight="bold">N</text></g>`
  );
}

/** Where the north arrow and the scale bar are: labels keep off them as they keep off symbols. */
function furniture(f: Frame): Box[] {
  const len = scaleLength(WIDTH / f.k) * f.k;
  return [
    { x: WIDTH - 24, y: 0, w: 24, h: 44 },
    { x: 10, y: f.height - LEGEND_HEIGHT - 30, w: len + 60, h: 24 },
  ];
}

/** A legend item: an arrow of `colour` and `width` at `x`, and its words. */
function arrowItem(x: number, y: number, colour: string, width: number, words: string): string {
  const w = width + 2;
  return (
    `<path d="M${x} ${y - 4}H${x + 26}" stroke="${colour}" stroke-width="${width}"/>` +
    `<path d="M${x + 26} ${y - 4 - w}L${x + 34} ${y - 4}L${x + 26} ${y - 4 + w}Z" fill="${colour}"/>` +
    `<text x="${x + 40}" y="${y}" fill="${INK}">${words}</text>`
  );
}

/** What the shapes mean, along the bottom: the same in every drawing, so the picture reads without the page. */
/** `fit`: whether a fitted shift is drawn, and whether its arrow is longer than the shift. */
function legend(f: Frame, fit: { scaled: boolean } | undefined): string {
  const y = f.height - 12;
  const o = SIDE_COLOURS.organiser;
  const s = SIDE_COLOURS.service;
  const items = [
    `<circle cx="22" cy="${y - 4}" r="6" fill="none" stroke="${o}" stroke-width="2"/>` +
      `<text x="34" y="${y}" fill="${INK}">organiser's file</text>`,
    `<rect x="146" y="${y - 11}" width="14" height="14" fill="none" stroke="${s}" stroke-width="2"/>` +
      `<text x="166" y="${y}" fill="${INK}">service</text>`,
    arrowItem(230, y, MOVE_COLOUR, 2, fit ? 'moved after the shift' : 'moved beyond the tolerance'),
    ...(fit ? [arrowItem(425, y, FIT_COLOUR, 4, fit.scaled ? 'map shift, not to scale' : 'map shift')] : []),
  ];
  return `<g class="legend" font-size="12">${items.join('')}</g>`;
}

/** Whether only one side has the course at all (the other has no sequence for it). */
function oneSided(course: CourseMapInput): boolean {
  return course.organiserSequence === undefined || course.serviceSequence === undefined;
}

/** What only one side has: the whole course, or controls of it. */
function oneSideWords(course: CourseMapInput): string[] {
  if (course.serviceSequence === undefined) {
    return ["The service has no such course: only the organiser's side is drawn."];
  }
  if (course.organiserSequence === undefined) {
    return ["The organiser's file has no such course: only the service's side is drawn."];
  }
  const only = (side: MapSide, other: MapSide): string[] =>
    course.controls.filter((c) => c[side] !== undefined && c[other] === undefined).map((c) => c.code);
  const orgOnly = only('organiser', 'service');
  const svcOnly = only('service', 'organiser');
  return [
    ...(orgOnly.length > 0 ? [`Only in the organiser's file: ${orgOnly.join(', ')}.`] : []),
    ...(svcOnly.length > 0 ? [`Only on the service: ${svcOnly.join(', ')}.`] : []),
  ];
}

/** In words, for a screen reader: what the drawing shows of the course. */
export function describeCourse(course: CourseMapInput): string {
  const sentences: string[] = [];
  const onBoth = course.controls.filter((c) => c.organiser !== undefined && c.service !== undefined).length;
  sentences.push(
    `${course.controls.length} ${course.controls.length === 1 ? 'point' : 'points'} (start, controls and finish); ` +
      `${onBoth} on both sides. Positions in ${course.plane}.`,
  );
  if (course.fit) sentences.push(course.fit.message);
  const moves = movesOf(course);
  if (moves.length > 0) {
    sentences.push(
      `${course.fit ? 'Moved beyond the fitted shift' : `Moved more than ${course.toleranceM} m`}: ` +
        `${moves.map((m) => `${m.code} (${m.label})`).join(', ')}.`,
    );
  }
  sentences.push(...oneSideWords(course));
  const unplaced = course.controls.filter((c) => c.organiser === null || c.service === null);
  if (unplaced.length > 0) {
    sentences.push(`Not drawn on a side without a position: ${unplaced.map((c) => c.code).join(', ')}.`);
  }
  return sentences.join(' ');
}

/** Whether both sides visit the same codes in the same order (the service's legs are drawn only when not). */
export function sameSequence(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  return a !== undefined && b !== undefined && a.length === b.length && a.every((code, i) => code === b[i]);
}

/** The course as one standalone SVG document (also fit to sit inside an HTML page). */
export function drawCourseMap(course: CourseMapInput, options: CourseMapOptions = {}): string {
  const id = options.idPrefix ?? 'map';
  const moves = movesOf(course);
  const points = pointsOf(course, moves);
  if (course.fit) points.push(course.fit.centre);
  const title = `Course ${course.name}: the organiser's controls and the service's`;
  const head = (body: string, height: number, data = ''): string =>
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" ` +
    `role="img" aria-labelledby="${id}-title ${id}-desc" font-family="system-ui, sans-serif"${data}>` +
    `<title id="${id}-title">${escapeHtml(title)}</title><desc id="${id}-desc">${escapeHtml(describeCourse(course))}</desc>` +
    `${body}</svg>`;
  if (points.length === 0) {
    return head(
      `<text x="${WIDTH / 2}" y="40" text-anchor="middle" font-size="${FONT}" fill="${INK}">` +
        'No position on either side to draw.</text>',
      64,
    );
  }
  const f = frameFor(points);
  const body: string[] = [
    `<defs>${arrowHead(`${id}-move`, MOVE_COLOUR, 5)}${arrowHead(`${id}-fit`, FIT_COLOUR, 3.5)}</defs>`,
    `<rect width="${WIDTH}" height="${f.height}" fill="#fff"/>`,
  ];
  if (course.organiserSequence) body.push(legs(f, course, 'organiser', course.organiserSequence));
  if (course.serviceSequence && !sameSequence(course.organiserSequence, course.serviceSequence)) {
    body.push(legs(f, course, 'service', course.serviceSequence));
  }
  const drawnMoves = drawMoves(f, moves, `${id}-move`, course.fit !== undefined);
  const fit = course.fit ? drawFit(f, course.fit, `${id}-fit`) : undefined;
  const controls = drawControls(f, course);
  body.push(...drawnMoves.markup, ...(fit ? [fit.markup] : []), ...controls.markup);
  const bounds: Box = { x: 0, y: 0, w: WIDTH, h: f.height - LEGEND_HEIGHT };
  const labels = placeLabels(
    [...(fit ? [fit.label] : []), ...drawnMoves.labels, ...controls.labels],
    [...controls.symbols, ...drawnMoves.boxes, ...(fit ? fit.boxes : []), ...furniture(f)],
    bounds,
    FONT,
  );
  body.push(`<g class="labels" font-size="${FONT}">${labels.join('')}</g>`, scaleBar(f), northArrow());
  body.push(legend(f, fit));
  const data =
    ` data-metres-per-unit="${(1 / f.k).toPrecision(8)}" data-origin-x-m="${f.ox.toFixed(2)}"` +
    ` data-origin-y-m="${f.oy.toFixed(2)}"`;
  return head(body.filter(Boolean).join(''), f.height, data);
}
