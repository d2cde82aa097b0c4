/**
 * Bytes arriving in chunks -> text, in one of the encodings `decode.ts` knows. A chunk may end in the middle of a
 * character (a UTF-8 sequence, a UTF-16 unit or surrogate pair); those bytes are carried into the next chunk, so the
 * text is the same however the bytes were cut, and the same as `decodeXml` gives for the whole document.
 */
import { decodeLatin1, decodeWindows1252, firstInvalidUtf16le, firstInvalidUtf8, type XmlEncoding } from './decode.js';

const fatalUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const fatalUtf16le = new TextDecoder('utf-16le', { fatal: true, ignoreBOM: true });

/** What a chunk decodes to; `badAt` is the byte offset (in the whole document) of bytes invalid in the encoding. */
interface Decoded {
  text: string;
  badAt?: number;
  message?: string;
}

/** Decodes one encoding chunk by chunk; bytes that end a chunk in the middle of a character wait for the next. */
export class XmlChunkDecoder {
  private carry: Uint8Array | undefined;
  /** Bytes of the document before `carry`. */
  private offset = 0;

  constructor(readonly encoding: XmlEncoding) {}

  /** Decodes `bytes`; at `last` a character left incomplete is an error. */
  write(bytes: Uint8Array, last = false): Decoded {
    let input = bytes;
    if (this.carry !== undefined) {
      const joined = new Uint8Array(this.carry.byteLength + bytes.byteLength);
      joined.set(this.carry, 0);
      joined.set(bytes, this.carry.byteLength);
      input = joined;
      this.carry = undefined;
    }
    const base = this.offset;
    switch (this.encoding) {
      case 'iso-8859-1':
        this.offset += input.byteLength;
        return { text: decodeLatin1(input) };
      case 'windows-1252':
        this.offset += input.byteLength;
        return { text: decodeWindows1252(input) };
      case 'utf-16le':
      case 'utf-16be':
        return this.utf16(input, base, last);
      default:
        return this.utf8(input, base, last);
    }
  }

  private utf8(input: Uint8Array, base: number, last: boolean): Decoded {
    const complete = last ? input.byteLength : utf8CompleteLength(input);
    if (complete < input.byteLength) this.carry = input.slice(complete);
    this.offset += complete;
    const body = input.subarray(0, complete);
    try {
      return { text: fatalUtf8.decode(body) };
    } catch {
      const bad = firstInvalidUtf8(body);
      return {
        text: fatalUtf8.decode(body.subarray(0, bad)),
        badAt: base + bad,
        message: `invalid UTF-8 at byte offset ${base + bad}`,
      };
    }
  }

  private utf16(input: Uint8Array, base: number, last: boolean): Decoded {
    let complete = input.byteLength & ~1;
    if (!last && complete >= 2) {
      // A high surrogate last waits for its low half.
      const i = complete - 2;
      const unit = this.encoding === 'utf-16le' ? input[i]! | (input[i + 1]! << 8) : (input[i]! << 8) | input[i + 1]!;
      if (unit >= 0xd800 && unit <= 0xdbff) complete = i;
    }
    if (last && complete < input.byteLength) {
      return {
        text: '',
        badAt: base + complete,
        message: `odd number of bytes for ${this.encoding.toUpperCase()}`,
      };
    }
    if (complete < input.byteLength) this.carry = input.slice(complete);
    this.offset += complete;
    let body = input.subarray(0, complete);
    if (this.encoding === 'utf-16be') body = Buffer.from(body).swap16();
    try {
      return { text: fatalUtf16le.decode(body) };
    } catch {
      const bad = firstInvalidUtf16le(body);
      return {
        text: fatalUtf16le.decode(body.subarray(0, bad)),
        badAt: base + bad,
        message: `invalid ${this.encoding.toUpperCase()} (unpaired surrogate) at byte offset ${base + bad}`,
      };
    }
  }
}

/** Length of `b` without a UTF-8 sequence cut off at its end (one that could still be completed by more bytes). */
function utf8CompleteLength(b: Uint8Array): number {
  const n = b.byteLength;
  for (let back = 1; back <= 3 && back <= n; back++) {
    const c = b[n - back]!;
    if ((c & 0xc0) === 0x80) continue; // a continuation byte: look further back for the lead
    const need = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
    return need > back ? n - back : n;
  }
  return n;
}
