/**
 * A JSON body redacted only as far as the journal keeps it. Parsing a whole answer to keep its first 4 KiB cost more
 * than the search that produced it (a page of 10,000 events is 170 KiB on average); this walks the text once, token by
 * token, and stops as soon as the kept part is written. A long string before that point is still read to its end, to
 * say its length: a 60 MB route upload, one string of base64, costs the journal some 30 ms. What it writes is what
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

type Frame = { kind: 'object'; expectKey: boolean } | { kind: 'array' };

/** The body's redacted start; undefined when it is not JSON (as far as it was read). */
export function redactJsonPrefix(body: string, o: JsonRedaction): RedactedJson | undefined {
  const out: string[] = [];
  let written = 0;
  const stack: Frame[] = [];
  let secretValue = false;
  let values = 0;
  let i = 0;
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
      if (end === undefined) return undefined;
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
    if (!literal) return undefined;
    emit(literal[0]);
    i += literal[0].length;
    if (stack.length === 0) values++;
  }
  return stack.length === 0 && values === 1 ? { text: out.join(''), cut: false } : undefined;
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

/** A string value as the journal writes it: long ones cut to their start and length. */
function abbreviated(raw: string, longValueChars: number): string | undefined {
  // Without escapes the raw text is the value itself: no decoding of a 60 MB base64 string to learn its length.
  if (!raw.includes('\\')) {
    const length = raw.length - 2;
    return length > longValueChars ? JSON.stringify(`${raw.slice(1, 33)}... [${length} characters]`) : raw;
  }
  const value = decode(raw);
  if (value === undefined) return undefined;
  return value.length > longValueChars
    ? JSON.stringify(`${value.slice(0, 32)}... [${value.length} characters]`)
    : JSON.stringify(value);
}
