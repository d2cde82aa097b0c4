/**
 * Text put into HTML (element content or a quoted attribute): the five characters that could end or open markup.
 * Browsers read a named reference (`&lt;`) and a numeric one (`&#60;`) alike; each page keeps the form it has always
 * been written in, so that its bytes do not change: the link fragments portals embed numeric, the CLI's login page
 * named (`named: true`).
 */
const NAMED: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string, options: { named?: boolean } = {}): string {
  return text.replace(/[&<>"']/g, (c) => (options.named ? NAMED[c] : undefined) ?? `&#${c.charCodeAt(0)};`);
}
