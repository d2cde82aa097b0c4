/**
 * Text from outside (the service, an event system's export, an OAuth callback) made safe to show: C0 and C1 control
 * characters and DEL become spaces, because a terminal acts on them (colours, cursor moves, a cleared screen) instead of
 * showing them; bidirectional embeddings, overrides and isolates are dropped, because they make a terminal or a page
 * show text in another order than it is stored (a file name that reads `gpx.exe` as `exe.gpx`). Every output of
 * service data (tables, Markdown, CSV, HTML, JSON) goes through here.
 */
// eslint-disable-next-line no-control-regex -- removing control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]+/g;
/** U+202A..U+202E (embeddings and overrides) and U+2066..U+2069 (isolates). */
const BIDI = /[\u202a-\u202e\u2066-\u2069]/g;
/** What JSON text escapes nowhere by itself (JSON.stringify escapes only C0): DEL, C1 and the bidi controls. */
const JSON_UNSAFE = /[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** `text` with every run of control characters replaced by one space and bidi controls removed. */
export function withoutControls(text: string): string {
  return text.replace(CONTROL, ' ').replace(BIDI, '');
}

/** `text` for one line of a message: no control characters, trimmed, at most `max` characters. */
export function printable(text: string, max: number): string {
  const clean = withoutControls(text).trim();
  return clean.length > max ? `${clean.slice(0, max)}…` : clean;
}

/**
 * JSON text (from JSON.stringify) with DEL, C1 and bidi controls written as `\uXXXX` escapes: the same value for a
 * program that parses it, nothing a terminal acts on for a person who prints it. Only string contents can hold these
 * characters, so escaping them in place keeps the JSON valid.
 */
export function escapeJsonControls(json: string): string {
  return json.replace(JSON_UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
