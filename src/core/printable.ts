/**
 * Text from outside (the service, an event system's export, an OAuth callback) made safe to show: C0 and C1 control
 * characters and DEL become spaces, because a terminal acts on them (colours, cursor moves, a cleared screen) instead of
 * showing them.
 */
// eslint-disable-next-line no-control-regex -- removing control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]+/g;

/** `text` with every run of control characters replaced by one space. */
export function withoutControls(text: string): string {
  return text.replace(CONTROL, ' ');
}

/** `text` for one line of a message: no control characters, trimmed, at most `max` characters. */
export function printable(text: string, max: number): string {
  const clean = withoutControls(text).trim();
  return clean.length > max ? `${clean.slice(0, max)}…` : clean;
}
