/** Text put into HTML (element content or a quoted attribute): the five characters that could end or open markup. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
