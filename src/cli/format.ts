/**
 * Terminal output for the human (non --json) form of every command: tables whose columns are as wide as their
 * content, long cells cut with an ellipsis, aligned key/value blocks, and colour only on a terminal that wants it.
 * Text from the service (event names, organisers) is shown through `clean`, so a name cannot move the cursor or
 * recolour the terminal.
 */
import { stdout } from 'node:process';
import { ENV } from '../config.js';
import { withoutControls } from '../core/printable.js';

export const ELLIPSIS = '…';

export type Style = 'bold' | 'dim' | 'red' | 'green' | 'yellow' | 'cyan';

const SGR: Record<Style, [number, number]> = {
  bold: [1, 22],
  dim: [2, 22],
  red: [31, 39],
  green: [32, 39],
  yellow: [33, 39],
  cyan: [36, 39],
};

/** How output may look: colours on or off, and the terminal's width when there is one. */
export interface Terminal {
  color: boolean;
  /** Columns of the terminal; undefined when stdout is not a terminal (a pipe or a file: nothing is squeezed). */
  width: number | undefined;
}

/**
 * The terminal stdout is: colours only on a TTY, never with NO_COLOR or TERM=dumb, always with FORCE_COLOR (other than
 * 0). Takes the command's environment, not `process.env`, so tests and embedders decide.
 */
export function terminal(env: Readonly<Record<string, string | undefined>>): Terminal {
  const tty = stdout.isTTY === true;
  const forced = env[ENV.forceColor];
  const force = forced !== undefined && forced !== '0' && forced !== 'false';
  const color = force || (tty && env[ENV.noColor] === undefined && env[ENV.term] !== 'dumb');
  return { color, width: tty && stdout.columns > 0 ? stdout.columns : undefined };
}

export function paint(text: string, style: Style | undefined, on: boolean): string {
  if (!on || !style || text === '') return text;
  const [open, close] = SGR[style];
  return `\u001b[${open}m${text}\u001b[${close}m`;
}

/** Text from elsewhere made safe for one table cell: control characters (newlines, escapes) become one space. */
export const clean = withoutControls;

const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });

/** East Asian wide and fullwidth ranges (CJK, Hangul, fullwidth forms) and emoji take two terminal columns. */
function isWide(cp: number): boolean {
  return (
    (cp >= 0x1100 && cp <= 0x115f) ||
    (cp >= 0x2e80 && cp <= 0xa4cf && cp !== 0x303f) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x1f300 && cp <= 0x1faff) ||
    (cp >= 0x20000 && cp <= 0x3fffd)
  );
}

function graphemes(text: string): string[] {
  return Array.from(segmenter.segment(text), (s) => s.segment);
}

function graphemeWidth(g: string): number {
  const cp = g.codePointAt(0) ?? 0;
  return isWide(cp) ? 2 : 1;
}

/** Columns `text` takes on a terminal: graphemes (so "é" written as e + accent is one), wide characters two. */
export function displayWidth(text: string): number {
  let width = 0;
  for (const g of graphemes(text)) width += graphemeWidth(g);
  return width;
}

/**
 * `text` cut to at most `width` columns, the cut marked with an ellipsis. `keep: 'end'` keeps the end instead of the
 * start (file paths, where the name matters more than the directories).
 */
export function truncate(text: string, width: number, keep: 'start' | 'end' = 'start'): string {
  if (displayWidth(text) <= width) return text;
  if (width <= 0) return '';
  if (width === 1) return ELLIPSIS;
  const parts = graphemes(text);
  if (keep === 'end') parts.reverse();
  const kept: string[] = [];
  let used = 0;
  for (const g of parts) {
    const w = graphemeWidth(g);
    if (used + w > width - 1) break;
    kept.push(g);
    used += w;
  }
  if (keep === 'end') return ELLIPSIS + kept.reverse().join('');
  return kept.join('') + ELLIPSIS;
}

function pad(text: string, width: number, align: 'left' | 'right'): string {
  const fill = ' '.repeat(Math.max(0, width - displayWidth(text)));
  return align === 'right' ? fill + text : text + fill;
}

export interface Column<T> {
  header: string;
  cell: (row: T) => string;
  /** Widest the column may get; longer cells are cut with an ellipsis. Default: as wide as its widest cell. */
  maxWidth?: number;
  /** May be narrowed (down to `minWidth`) to fit the terminal. Default false: ids and urls are never cut. */
  shrink?: boolean;
  /** Narrowest a shrinking column gets. Default 8. */
  minWidth?: number;
  align?: 'left' | 'right';
  /** Which part of a long cell to keep. Default 'start'. */
  keep?: 'start' | 'end';
  /** Colour of a cell (only when colours are on). */
  style?: (row: T) => Style | undefined;
}

const GAP = '  ';

/**
 * A table: a header line and one line per row, columns separated by two spaces and as wide as their content (within
 * `maxWidth`). On a terminal, shrinkable columns give up width until the table fits. No trailing spaces.
 */
export function table<T>(rows: readonly T[], columns: readonly Column<T>[], term: Terminal): string {
  const cells = rows.map((row) => columns.map((c) => clean(c.cell(row))));
  const widths = columns.map((c, i) => {
    const natural = Math.max(displayWidth(c.header), ...cells.map((r) => displayWidth(r[i]!)));
    return c.maxWidth === undefined ? natural : Math.min(natural, Math.max(c.maxWidth, displayWidth(c.header)));
  });
  if (term.width !== undefined) {
    let excess = widths.reduce((a, b) => a + b, 0) + GAP.length * (columns.length - 1) - term.width;
    // Take from the widest shrinkable column first, one column at a time, so that narrow ones keep their text.
    while (excess > 0) {
      let widest = -1;
      columns.forEach((c, i) => {
        if (c.shrink && widths[i]! > (c.minWidth ?? 8) && (widest < 0 || widths[i]! > widths[widest]!)) widest = i;
      });
      if (widest < 0) break;
      widths[widest]!--;
      excess--;
    }
  }
  const line = (values: string[], styles: Array<Style | undefined>) =>
    values
      .map((v, i) => {
        const c = columns[i]!;
        const text = pad(truncate(v, widths[i]!, c.keep), widths[i]!, c.align ?? 'left');
        // The last column is not padded: no trailing spaces in pasted output.
        const fitted = i === values.length - 1 && (c.align ?? 'left') === 'left' ? text.trimEnd() : text;
        return paint(fitted, styles[i], term.color);
      })
      .join(GAP)
      .trimEnd();
  return [
    line(
      columns.map((c) => c.header),
      columns.map(() => 'bold'),
    ),
    ...cells.map((values, r) =>
      line(
        values,
        columns.map((c) => c.style?.(rows[r]!)),
      ),
    ),
  ].join('\n');
}

/**
 * A block of `label  value` lines with the labels aligned; entries whose value is undefined or empty are left out.
 * Values are cleaned but never cut (they are urls and names the user wants whole); a third element colours the value.
 */
export function keyValues(
  entries: ReadonlyArray<readonly [string, string | undefined, Style?]>,
  term: Terminal,
): string {
  const shown = entries.filter((e): e is readonly [string, string, Style?] => e[1] !== undefined && e[1] !== '');
  const width = Math.max(0, ...shown.map(([k]) => displayWidth(k)));
  return shown
    .map(
      ([k, v, style]) => `${paint(pad(k, width, 'left'), 'bold', term.color)}  ${paint(clean(v), style, term.color)}`,
    )
    .join('\n');
}

export { plural } from '../core/plural.js';
