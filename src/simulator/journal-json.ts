/**
 * A JSON body redacted only as far as the journal keeps it. Parsing a whole answer to keep its first 4 KiB cost more
 * than the search that produced it (a page of 10,000 events is 170 KiB on average); this walks the text once, token by
 * token, and stops as soon as the kept part is written. A long string before that point must still be read to its end,
 * to say its length: in a body in bytes (`redactJsonBytes`) that is done on the bytes, without decoding them, so a
 * 60 MB route upload (one string of base64) costs the journal a search for its closing quote, some milliseconds. What it writes is what
 * `JSON.stringify` of the redacted value would start with: no whitespace, secret fields' values replaced, long strings
 * abbreviated to their start and length.
 */

export interface JsonRedaction {
  /** Whether a field of this name holds a secret (its value is replaced, whatever it is, unless null). */
  isSecretName(name: string): boolean;
  /** What a secret value becomes. */
  redacted: string;
  /** Strings longer than this are abbreviated to their first 32 characters and their length. */
  longValueChars: number;
  /** Characters to write before stopping; the text may run a token past it. */
  maxChars: number;
}

export interface RedactedJson {
  text: string;
  /** True when the walk stopped before the end of the body. */
  cut: boolean;
}

import { isAscii, isUtf8 } from 'node:buffer';

type Frame = { kind: 'object'; expectKey: boolean } | { kind: 'array' };

/** The body's redacted start; undefined when it is not JSON (as far as it was read). */
export function redactJsonPrefix(body: string, o: JsonRedaction): RedactedJson | undefined {
  const r = walk(body, o, false);
  return r === undefined || 'text' in r ? r : undefined;
}

/** Where a walk is: what it wrote, the containers it is in, and whether the next value is a secret's. */
interface WalkState {
  out: string[];
  written: number;
  stack: Frame[];
  secretValue: boolean;
  values: number;
}

/**
 * Where a walk over a window of a longer body ran out of text, with its state there, to go on from: at `at`, the
 * start of the token it could not finish (`string`: a string that opens in the window and closes past it; `key` when
 * it is an object's key), or the window's end.
 */
interface NeedMore {
  needMore: { at: number; string: boolean; key: boolean; state: WalkState };
}

/**
 * The walk. `partial`: the body is a window of a longer one, so running out of text is not an error but a request
 * for more; `from` goes on from where an earlier window's walk stopped.
 */
function walk(body: string, o: JsonRedaction, partial: boolean, from?: WalkState): RedactedJson | NeedMore | undefined {
  const out: string[] = from?.out ?? [];
  let written = from?.written ?? 0;
  const stack: Frame[] = from?.stack ?? [];
  let secretValue = from?.secretValue ?? false;
  let values = from?.values ?? 0;
  let i = 0;
  const more = (at: number, string: boolean, key: boolean): NeedMore => ({
    needMore: { at, string, key, state: { out, written, stack, secretValue, values } },
  });
  const emit = (s: string): void => {
    out.push(s);
    written += s.length;
  };
  while (i < body.length) {
    if (written >= o.maxChars) return { text: out.join(''), cut: true };
    const c = body.charCodeAt(i);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
      i++;
      continue;
    }
    const top = stack.at(-1);
    if (top === undefined && values > 0) return undefined; // a second top-level value
    const isKey = top?.kind === 'object' && top.expectKey;
    if (c === 0x2c /* , */ || c === 0x3a /* : */ || c === 0x7d /* } */ || c === 0x5d /* ] */) {
      if (top === undefined) return undefined;
      if (c === 0x2c && top.kind === 'object') top.expectKey = true;
      if (c === 0x7d || c === 0x5d) {
        if ((c === 0x7d) !== (top.kind === 'object')) return undefined;
        stack.pop();
        if (stack.length === 0) values++;
      }
      emit(body[i]!);
      i++;
      continue;
    }
    if (isKey && c !== 0x22) return undefined; // an object's key must be a string
    if (secretValue && body.startsWith('null', i)) {
      secretValue = false;
    } else if (secretValue) {
      const end = valueEnd(body, i);
      // At a window's end the value may go on (`nu` of `null`, which is kept): go on from its start with more text.
      if (partial && (end === undefined || end >= body.length)) return more(i, c === 0x22 && end === undefined, false);
      if (end === undefined) return undefined;
      emit(JSON.stringify(o.redacted));
      secretValue = false;
      i = end;
      if (stack.length === 0) values++;
      continue;
    }
    if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      stack.push(c === 0x7b ? { kind: 'object', expectKey: true } : { kind: 'array' });
      emit(body[i]!);
      i++;
      continue;
    }
    if (c === 0x22 /* " */) {
      const end = stringEnd(body, i);
      if (end === undefined) return partial ? more(i, true, isKey) : undefined;
      const raw = body.slice(i, end);
      i = end;
      if (isKey) {
        const name = decode(raw);
        if (name === undefined) return undefined;
        secretValue = o.isSecretName(name);
        (top as { expectKey: boolean }).expectKey = false;
        emit(raw);
        continue;
      }
      const text = abbreviated(raw, o.longValueChars);
      if (text === undefined) return undefined;
      emit(text);
      if (stack.length === 0) values++;
      continue;
    }
    const literal = /^(?:-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(body.slice(i, i + 64));
    // Near a window's end a literal may be cut (`tru`, `12` of `1234`, `-12` of `-12.5`): read on before judging it.
    if (partial && body.length - i < 64) return more(i, false, false);
    if (!literal) return undefined;
    emit(literal[0]);
    i += literal[0].length;
    if (stack.length === 0) values++;
  }
  if (partial) return more(body.length, false, false);
  return stack.length === 0 && values === 1 ? { text: out.join(''), cut: false } : undefined;
}

/**
 * `redactJsonPrefix` of a body in bytes, decoding little more than it keeps: windows of `window` bytes, and a string
 * that runs past a window (60 MB of base64 in a route upload) found in the bytes and stood in for by what the walk
 * would write of it, without decoding it. Writes exactly what `redactJsonPrefix` writes of the whole body decoded.
 */
export function redactJsonBytes(
  buf: Buffer,
  o: JsonRedaction,
  window = 4 * o.maxChars + 1024,
): RedactedJson | undefined {
  // Bytes that are not UTF-8 decode to replacement characters whose sizes are not theirs: walked whole, as decoded.
  if (!isUtf8(buf)) return redactJsonPrefix(buf.toString('utf8'), o);
  let state: WalkState | undefined;
  // The next text walked: `prefix` (a stand-in), then the bytes from `offset`, `size` of them; each byte is walked once,
  // save a token cut by a window's end, walked again in a window twice as large.
  let prefix = '';
  let offset = 0;
  let size = window;
  for (;;) {
    let end = Math.min(buf.length, offset + size);
    // A window ends at a character's end, never inside a multi-byte one: its text's size in bytes is then its own.
    while (end < buf.length && (buf[end]! & 0xc0) === 0x80) end++;
    // `offset` is a character's start (0, past a quote, or a token's start), so the window decodes exactly.
    const text = prefix + buf.toString('utf8', offset, end);
    const r = walk(text, o, end < buf.length, state);
    if (r === undefined || 'text' in r) return r;
    const { at, string, key } = r.needMore;
    state = r.needMore.state;
    // A stand-in is a whole string: a walk never stops inside one.
    const byteAt = offset + Buffer.byteLength(text.slice(prefix.length, Math.max(at, prefix.length)));
    if (string) {
      const close = closingQuote(buf, byteAt);
      if (close === undefined) return undefined; // a string that never closes: not JSON
      prefix = standIn(buf, byteAt, close, key ? Infinity : o.longValueChars);
      offset = close + 1;
      size = window;
    } else {
      prefix = '';
      size = at === text.length ? window : 2 * size;
      offset = byteAt;
    }
  }
}

/** The byte index of the quote that closes the string opening at `open`; quotes and backslashes are single bytes. */
function closingQuote(buf: Buffer, open: number): number | undefined {
  for (let from = open + 1; ;) {
    const q = buf.indexOf(0x22, from);
    if (q < 0) return undefined;
    let slashes = 0;
    for (let k = q - 1; k > open && buf[k] === 0x5c; k--) slashes++;
    if (slashes % 2 === 0) return q;
    from = q + 1;
  }
}

/**
 * What stands in the text for the string `buf[open..close]`: its abbreviation when it is plain ASCII and long (its
 * length is its size, its start readable as bytes), else the string itself, for the walk to treat as any other.
 */
function standIn(buf: Buffer, open: number, close: number, longValueChars: number): string {
  const content = buf.subarray(open + 1, close);
  if (content.length > longValueChars && content.indexOf(0x5c) < 0 && isAscii(content)) {
    return JSON.stringify(abbreviation(content.toString('latin1', 0, SHOWN_CHARS), content.length));
  }
  return buf.toString('utf8', open, close + 1);
}

/** The index just past the string starting at `start` (a quote); undefined when it never closes. */
function stringEnd(body: string, start: number): number | undefined {
  let j = start + 1;
  for (;;) {
    const q = body.indexOf('"', j);
    if (q < 0) return undefined;
    let slashes = 0;
    for (let k = q - 1; k > start && body.charCodeAt(k) === 0x5c; k--) slashes++;
    if (slashes % 2 === 0) return q + 1;
    j = q + 1;
  }
}

/** The index just past the value starting at `start`: a string, a literal, or a whole object or array. */
function valueEnd(body: string, start: number): number | undefined {
  let depth = 0;
  let i = start;
  while (i < body.length) {
    const c = body.charCodeAt(i);
    if (c === 0x22) {
      const end = stringEnd(body, i);
      if (end === undefined) return undefined;
      i = end;
      if (depth === 0) return i;
      continue;
    }
    if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) {
      if (depth === 0) return i; // a literal just ended at its container's close
      depth--;
      if (depth === 0) return i + 1;
    } else if (depth === 0 && (c === 0x2c || c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09)) return i;
    i++;
  }
  return depth === 0 ? i : undefined;
}

function decode(raw: string): string | undefined {
  if (!raw.includes('\\')) return raw.slice(1, -1);
  try {
    return JSON.parse(raw) as string;
  } catch {
    return undefined;
  }
}

/** Characters of a long string's start that may be shown. */
const SHOWN_CHARS = 32;

/**
 * A long string as its start and its length. The start is shown only up to its first run of 8 letters, digits, `_` or
 * `-`: a key, a token or base64 data begins with one, and no part of a secret is shown.
 */
export function abbreviation(start: string, length: number): string {
  return `${start.replace(/[A-Za-z0-9_-]{8,}[^]*$/, '')}... [${length} characters]`;
}

/** A string value as the journal writes it: long ones cut to their start and length. */
function abbreviated(raw: string, longValueChars: number): string | undefined {
  // Without escapes the raw text is the value itself: no decoding of a 60 MB base64 string to learn its length.
  if (!raw.includes('\\')) {
    const length = raw.length - 2;
    return length > longValueChars ? JSON.stringify(abbreviation(raw.slice(1, 1 + SHOWN_CHARS), length)) : raw;
  }
  const value = decode(raw);
  if (value === undefined) return undefined;
  return value.length > longValueChars
    ? JSON.stringify(abbreviation(value.slice(0, SHOWN_CHARS), value.length))
    : JSON.stringify(value);
}
