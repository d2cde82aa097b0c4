/**
 * Pieces the report pages share (the sync status page, the import report): tables that scroll in their own box,
 * counts as a row of figures, times and durations as people read them. Cells are markup: whoever builds a row escapes
 * its text (`text`).
 */
import { escapeHtml } from '../core/html.js';

/** Text as element content or an attribute value. */
export const text = (value: string): string => escapeHtml(value, { named: true });

/** A table in a box of its own that scrolls sideways on a narrow screen, so the page itself never does. */
export function htmlTable(options: {
  /** Its class; `wide` among them keeps its columns readable on a phone (it scrolls in its box). */
  className: string;
  caption?: string;
  /** Column headings; without them, the first cell of each row is its heading. */
  head?: readonly string[];
  rows: ReadonlyArray<{ cells: readonly string[]; className?: string }>;
}): string {
  const head =
    options.head && `<thead><tr>${options.head.map((h) => `<th scope="col">${text(h)}</th>`).join('')}</tr></thead>`;
  const cells = (cells: readonly string[]): string =>
    cells.map((c, i) => (i === 0 && !head ? `<th scope="row">${c}</th>` : `<td>${c}</td>`)).join('');
  const rows = options.rows.map(
    (r) => `<tr${r.className ? ` class="${text(r.className)}"` : ''}>${cells(r.cells)}</tr>`,
  );
  const caption = options.caption === undefined ? '' : `<caption>${text(options.caption)}</caption>`;
  return [
    `<div class="scroll"><table class="${text(options.className)}">${caption}`,
    ...(head ? [head] : []),
    `<tbody>\n${rows.join('\n')}\n</tbody></table></div>`,
  ].join('\n');
}

/** Counts as a row of figures (wrapping on a phone), those that need a look marked with a word, not colour alone. */
export function countsList(counts: ReadonlyArray<{ label: string; value: number; attention?: boolean }>): string {
  const items = counts.map(
    (c) =>
      `<div class="count${c.attention && c.value > 0 ? ' attention' : ''}"><dt>${text(c.label)}</dt>` +
      `<dd data-count="${text(c.label)}">${c.value}${c.attention && c.value > 0 ? ' <span class="flag">!</span>' : ''}</dd></div>`,
  );
  return `<dl class="counts">\n${items.join('\n')}\n</dl>`;
}

/** Markup that is not broken across lines (a time, a date). */
export const whole = (markup: string): string => `<span class="nowrap">${markup}</span>`;

/** `2026-05-01 03:10:04 UTC`, or the text as given when it is no time. */
export function timeText(iso: string): string {
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms)) return iso;
  return `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** `850 ms`, `12.4 s`, `3 min 05 s`, `2 h 04 min`. */
export function durationText(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  if (s < 3600) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
  return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')} min`;
}

/** Rules of the report pages, after PAGE_CSS. */
export const REPORT_CSS = `
.counts { display: flex; flex-wrap: wrap; gap: 8px; margin: 0 0 12px; padding: 0; }
.count { border: 1px solid var(--line); border-radius: 4px; padding: 6px 10px; min-width: 7.5em; }
.count dt { color: var(--muted); font-size: 0.85em; } .count dd { margin: 0; font-size: 1.3em; font-weight: 600; }
.count.attention { border-color: var(--warn); background: #fff8c5; }
.flag { color: var(--warn); }
/* An error quoting an address, a long portal key in a sentence: broken anywhere rather than widening the page. */
.verdict, p, li { overflow-wrap: anywhere; }
/* Keys, pin lines and times stay whole (a pin line is pasted as it reads); wide tables scroll in their box instead
   of crushing their columns on a phone. */
td code, .nowrap { white-space: nowrap; }
table.wide { min-width: 40em; }
caption { text-align: left; color: var(--muted); padding: 2px 0; }
.status { white-space: nowrap; font-weight: 600; }
.status.good { color: var(--ok); } .status.bad { color: var(--bad); } .status.warn { color: var(--warn); }
.item { border-top: 1px solid var(--line); padding-top: 6px; margin-top: 10px; }
.pin { user-select: all; background: #f6f8fa; padding: 1px 4px; border-radius: 3px; }
`;
