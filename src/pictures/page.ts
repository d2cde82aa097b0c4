/**
 * The shell every page we write shares (the course check, the sync status page, the import report): one
 * self-contained HTML document, no external resource and no script, so that it opens offline, from an email, and
 * inside a portal's content security policy. Its stylesheet is inline; colours are never the only carrier of meaning
 * (the pages pair each colour with a shape or a word), and wide tables scroll in their own box on a phone.
 */
import { escapeHtml } from '../core/html.js';

export interface PageOptions {
  /** The document's language (`en`). */
  lang: string;
  /** The tab's title; also the page's first heading unless the body has its own. */
  title: string;
  /** The page's own rules, after the shared ones. */
  css?: string;
  /** The body's markup, escaped by whoever built it. */
  body: string;
}

/** Rules every page uses: readable type, a verdict banner, tables that scroll in their box, figures that shrink. */
export const PAGE_CSS = `
:root { color-scheme: light; --ink: #1b1f24; --muted: #59636e; --line: #d0d7de; --ok: #1a7f37; --bad: #cf222e; --warn: #9a6700; }
* { box-sizing: border-box; }
body { margin: 0 auto; padding: 16px; max-width: 1200px; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: #fff; }
h1 { font-size: 1.4em; margin: 0 0 12px; } h2 { font-size: 1.15em; margin: 24px 0 8px; } h3 { font-size: 1em; margin: 16px 0 6px; }
.verdict { border: 2px solid var(--line); border-left-width: 10px; padding: 10px 14px; margin: 0 0 16px; border-radius: 4px; }
.verdict strong { letter-spacing: 0.03em; }
.verdict.ok { border-color: var(--ok); } .verdict.bad { border-color: var(--bad); } .verdict.warn { border-color: var(--warn); }
.scroll { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; margin: 4px 0 12px; }
th, td { border: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: #f6f8fa; }
tr.attention td { background: #fff8c5; }
figure { margin: 8px 0 20px; } figure svg { max-width: 100%; height: auto; display: block; }
figcaption { color: var(--muted); font-size: 0.9em; }
.muted { color: var(--muted); }
pre { white-space: pre-wrap; overflow-wrap: anywhere; font-size: 0.85em; background: #f6f8fa; padding: 8px; border-radius: 4px; }
`;

/** A whole page: doctype, language, charset, viewport, title, the shared and the page's own stylesheet, the body. */
export function htmlPage(options: PageOptions): string {
  return [
    '<!doctype html>',
    `<html lang="${escapeHtml(options.lang)}">`,
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(options.title)}</title>`,
    `<style>${PAGE_CSS}${options.css ?? ''}</style>`,
    '</head>',
    `<body>\n${options.body}\n</body>`,
    '</html>',
    '',
  ].join('\n');
}
