/**
 * A push tokenizer for XML that checks well-formedness as it goes: decoded text is written to it in pieces of any size
 * and it hands start tags, end tags and (only when asked) text to a handler. It keeps nothing but one pending token and
 * the element stack, so memory stays bounded whatever the document's size.
 *
 * The safety rules are those of the tree parser (`tree.ts`): entity declarations are refused, only the five XML
 * entities and character references are decoded, nesting and size are capped, nothing is ever fetched. Errors are
 * `InputError`s with line and column, as the tree parser gives them.
 *
 * Longer than most files here: the tokenizer is one state machine, and its fast start-tag scan, its slow path that says
 * what is wrong, and the checks of references, names and prefixes share its buffer and position bookkeeping.
 */
import { InputError } from '../errors.js';
import {
  FORBIDDEN_CHAR,
  XML_ENTITIES,
  codePointLabel,
  doctypeEnd,
  entityDeclarationError,
  isNameCode,
  isNameStartCode,
  isSpaceCode,
  isXmlChar,
  isXmlName,
  localName,
  MAX_XML_DEPTH,
} from './syntax.js';

/** Longest single token (a tag, a DOCTYPE, a processing instruction) held while waiting for its end, in characters. */
export const MAX_TOKEN_CHARS = 1024 * 1024;
/** Longest element or attribute name accepted, in characters (libxml2 stops at 50,000; real names are short). */
export const MAX_NAME_CHARS = 10_000;
/** Longest text the handler may ask to collect from one element, in characters. Names and ids are far shorter. */
export const MAX_CAPTURED_CHARS = 64 * 1024;

/** What the tokenizer reports. Names are local names (prefix removed); the tokenizer matches qualified names itself. */
export interface XmlHandler {
  /**
   * A start tag (also of an empty element, which then gets `endElement` at once). `attributes` is raw source text
   * (`parseAttributes` reads it); `qualified` is the name as written, prefix included.
   */
  startElement(name: string, attributes: string, qualified: string): void;
  endElement(name: string): void;
  /** Character data of the current element, entities decoded and line ends normalised; only while `captureText`. */
  text(text: string): void;
  /** The DOCTYPE declaration's root name and system identifier (never fetched). */
  doctype?(name: string, systemId: string | undefined): void;
}

/**
 * Where a reader accepts what XML forbids but real files hold. Defaults are strict (as libxml2): the IOF readers and the
 * validator must agree on what is well-formed. The GPS reader relaxes them, because route files come from many small
 * apps and were read for years by a lenient parser: refusing a run for a stray `&` in its name helps nobody.
 */
export interface XmlTokenizerOptions {
  /**
   * Keep an `&` that starts no known reference (`&nbsp;`, `Run & Walk`) as literal text instead of refusing the
   * document. Character references naming a character XML forbids are still refused. Default `false`.
   */
  literalUnknownReferences?: boolean;
  /** Refuse prefixed names whose prefix is not declared (`xsi:schemaLocation` without `xmlns:xsi`). Default `true`. */
  checkNamespacePrefixes?: boolean;
  /**
   * Accept whitespace before the XML declaration, as some exporters write it (it makes a document not well-formed).
   * Lines and columns still count from the first character written. Default `false`.
   */
  allowSpaceBeforeDeclaration?: boolean;
}

/** A 1-based position in the decoded text. */
export interface XmlPosition {
  line: number;
  column: number;
}

const WS = '[ \\t\\r\\n]';
/**
 * A name as far as patterns need to know: start tags are checked against XML's name rules by hand (`isNameCode`), so
 * attribute lists and end tags (which must repeat a checked start tag) can be split on what cannot be in a name.
 */
const LOOSE_NAME = '[^ \\t\\r\\n/<>=\'"\\[\\]]+';
const END_TAG = new RegExp(`</(${LOOSE_NAME})${WS}*>`, 'y');
const ATTRIBUTES = new RegExp(`(${LOOSE_NAME})${WS}*=${WS}*(?:"([^"<]*)"|'([^'<]*)')`, 'g');
const REFERENCE = /&(?:(lt|gt|amp|quot|apos)|#([0-9]+)|#x([0-9a-fA-F]+));/y;
const REFERENCES = /&(?:(lt|gt|amp|quot|apos)|#([0-9]+)|#x([0-9a-fA-F]+));/g;
const XML_DECLARATION = new RegExp(
  `^<\\?xml${WS}+version${WS}*=${WS}*(["'])1\\.[0-9]+\\1` +
    `(?:${WS}+encoding${WS}*=${WS}*(["'])[A-Za-z][A-Za-z0-9._-]*\\2)?` +
    `(?:${WS}+standalone${WS}*=${WS}*(["'])(?:yes|no)\\3)?${WS}*\\?>$`,
);
/** Longest entity or character reference we wait for across a chunk boundary (`&#x0010FFFF;` with some zeros). */
const MAX_REFERENCE_CHARS = 32;

const GT = 0x3e;
const SLASH = 0x2f;
const BANG = 0x21;
const QUESTION = 0x3f;
const EQUALS = 0x3d;
const QUOTE = 0x22;
const APOSTROPHE = 0x27;

/** Up to this many attributes, duplicates are found by comparing names in place; more go through a set. */
const FEW_ATTRIBUTES = 8;

/** Where the tokenizer is: in a run of markup and text, or inside a construct that may span many chunks. */
const MODE_MARKUP = 0;
const MODE_COMMENT = 1;
const MODE_CDATA = 2;

/** Where in the document: before the root element, inside it, after it. */
const PART_PROLOG = 0;
const PART_ROOT = 1;
const PART_EPILOG = 2;

/**
 * A push tokenizer checking well-formedness: `write` decoded text as it comes, `end` when it is all there. Reports
 * what it finds to the handler, which may set `captureText` (from `startElement`) to receive the text of the element it
 * just entered, and may call `stop` to end the work early (the rest of the document is then not looked at).
 */
export class XmlTokenizer {
  /** Whether `text` is called for character data; set by the handler, for the element just started. */
  captureText = false;

  private buf = '';
  /** Characters of the document before `buf`. */
  private bufOffset = 0;
  /** Line of `buf[0]`, and the document offset where that line starts. */
  private bufLine = 1;
  private bufLineStart = 0;
  private mode = MODE_MARKUP;
  private part = PART_PROLOG;
  private sawDoctype = false;
  private sawMarkup = false;
  /** Document offset of the first markup (`<`), where a declaration may stand when leading space is allowed. */
  private firstMarkupAt = 0;
  /** Namespace prefixes in scope, with the depth of the element declaring them. */
  private readonly prefixScopes: { depth: number; prefixes: string[] }[] = [];
  private readonly stack: string[] = [];
  private stopped = false;
  private capturedChars = 0;
  /** Start and end offsets in the buffer of the first `FEW_ATTRIBUTES` attribute names of the start tag being read. */
  private readonly attributeNames = new Int32Array(2 * FEW_ATTRIBUTES);
  /** Position of a `<` at or after the attribute being read (-1: none, -2: not looked for yet). */
  private nextLt = -2;

  /**
   * `entityDeclarationHint` is what the user can do about a DOCTYPE declaring entities, in the terms of the documents
   * the caller reads (default: a generic hint); `options` what to accept beyond strict XML.
   */
  constructor(
    /** Where events go; may be replaced before the first `write` (a handler that needs the tokenizer). */
    public handler: XmlHandler,
    readonly source: string,
    private readonly entityDeclarationHint?: string,
    private readonly options: XmlTokenizerOptions = {},
  ) {}

  /** Whether the handler has asked to stop. */
  get isStopped(): boolean {
    return this.stopped;
  }

  /** Whether the root element has been closed. */
  get rootClosed(): boolean {
    return this.part === PART_EPILOG;
  }

  /** Ends the work: nothing more is reported, and `write` and `end` return at once. */
  stop(): void {
    this.stopped = true;
  }

  /** Nesting depth of the element being read (1 inside the root). */
  get depth(): number {
    return this.stack.length;
  }

  write(text: string): void {
    if (this.stopped || text.length === 0) return;
    const bad = FORBIDDEN_CHAR.exec(text);
    if (bad !== null) {
      // Whatever precedes the character may hold an earlier error; report that one first.
      this.feed(text.slice(0, bad.index), false);
      if (this.stopped) return;
      throw this.error(`the character ${codePointLabel(bad[0])} is not allowed in XML.`, this.endPosition());
    }
    this.feed(text, false);
  }

  /** The input is complete: anything left open is an error. */
  end(): void {
    if (this.stopped) return;
    this.feed('', true);
    if (this.stopped) return;
    const at = this.endPosition();
    if (this.mode === MODE_COMMENT) throw this.error('the document ends inside a comment.', at);
    if (this.mode === MODE_CDATA) throw this.error('the document ends inside a CDATA section.', at);
    if (this.buf.length > 0) throw this.error('the document ends inside a tag.', this.positionAt(0));
    const open = this.stack[this.stack.length - 1];
    if (open !== undefined) throw this.error(`the document ends before the element <${open}> is closed.`, at);
    if (this.part === PART_PROLOG) {
      if (!this.sawMarkup) {
        throw new InputError(this.source, 'empty', 'the file holds nothing but whitespace.');
      }
      throw this.error('no root element found.', at);
    }
  }

  /** Position just past the text written so far. */
  endPosition(): XmlPosition {
    return this.positionAt(this.buf.length);
  }

  /** An `InputError` `not_well_formed` at a position. */
  error(message: string, at: XmlPosition): InputError {
    return new InputError(this.source, 'not_well_formed', `not well-formed XML: ${message}`, at);
  }

  private positionAt(index: number): XmlPosition {
    let line = this.bufLine;
    let lineStart = this.bufLineStart;
    for (let nl = this.buf.indexOf('\n'); nl >= 0 && nl < index; nl = this.buf.indexOf('\n', nl + 1)) {
      line++;
      lineStart = this.bufOffset + nl + 1;
    }
    return { line, column: this.bufOffset + index - lineStart + 1 };
  }

  private feed(text: string, final: boolean): void {
    this.buf = this.buf.length === 0 ? text : this.buf + text;
    this.nextLt = -2;
    const buf = this.buf;
    const n = buf.length;
    // Where the next `&` and `]]>` are (-1: none left): text runs only look closer when one falls inside them.
    let amp = buf.indexOf('&');
    let cdataEnd = buf.indexOf(']]>');
    let i = 0;
    while (i < n && !this.stopped) {
      if (this.mode !== MODE_MARKUP) {
        const j = this.mode === MODE_COMMENT ? this.comment(buf, i, final) : this.cdata(buf, i, final);
        // No progress means the rest may be the start of the end marker: wait for more.
        if (j <= i) break;
        i = j;
        continue;
      }
      const lt = buf.indexOf('<', i);
      if (lt !== i) {
        const end = lt < 0 ? (final ? n : this.safeTextEnd(buf, i, n)) : lt;
        if (end > i) {
          // The common case, whitespace between tags, must cost next to nothing: it is half of all tokens.
          if (this.part !== PART_ROOT) this.outsideRoot(buf, i, end);
          if (amp !== -1 && amp < i) amp = buf.indexOf('&', i);
          if (amp !== -1 && amp < end) {
            this.checkReferences(buf, amp, end);
            amp = buf.indexOf('&', end);
          }
          if (cdataEnd !== -1 && cdataEnd < i) cdataEnd = buf.indexOf(']]>', i);
          if (cdataEnd !== -1 && cdataEnd < end) {
            throw this.error("']]>' is not allowed in text.", this.positionAt(cdataEnd));
          }
          if (this.captureText) this.deliver(decodeText(buf.slice(i, end)), i);
        }
        i = end;
        if (lt < 0 || this.stopped) break;
      }
      if (i + 1 >= n) break;
      if (!this.sawMarkup) {
        this.sawMarkup = true;
        this.firstMarkupAt = this.bufOffset + i;
      }
      const next = buf.charCodeAt(i + 1);
      let j: number;
      if (next === SLASH) j = this.endTag(buf, i, final);
      else if (next === BANG) j = this.bang(buf, i, final);
      else if (next === QUESTION) j = this.processingInstruction(buf, i, final);
      else j = this.startTag(buf, i, final);
      if (j < 0) break;
      i = j;
    }
    this.advance(i);
    if (this.buf.length > MAX_TOKEN_CHARS && !this.stopped) {
      throw new InputError(
        this.source,
        'too_large',
        `a single tag or declaration is longer than ${MAX_TOKEN_CHARS} characters.`,
        this.positionAt(0),
      );
    }
  }

  /** Drops the first `count` characters of the buffer, keeping line counting right. */
  private advance(count: number): void {
    if (count === 0) return;
    const buf = this.buf;
    for (let nl = buf.indexOf('\n'); nl >= 0 && nl < count; nl = buf.indexOf('\n', nl + 1)) {
      this.bufLine++;
      this.bufLineStart = this.bufOffset + nl + 1;
    }
    this.bufOffset += count;
    this.buf = count >= buf.length ? '' : buf.slice(count);
  }

  /** How much of a text run ending the buffer can be read now: a reference or `]]` cut by the chunk end waits. */
  private safeTextEnd(buf: string, from: number, n: number): number {
    let end = n;
    const amp = buf.lastIndexOf('&', n - 1);
    if (amp >= from && amp >= n - MAX_REFERENCE_CHARS && buf.indexOf(';', amp) < 0) end = amp;
    // `]]>` must not be split from its `>`, and `\r\n` must stay together for line-end normalisation.
    for (let k = 0; k < 2 && end > from; k++) {
      const c = buf.charCodeAt(end - 1);
      if (c !== 0x5d && c !== 0x0d) break;
      end--;
    }
    return end;
  }

  /** Text before or after the root element: only whitespace is allowed there. */
  private outsideRoot(buf: string, from: number, to: number): void {
    for (let k = from; k < to; k++) {
      if (!isSpaceCode(buf.charCodeAt(k))) {
        throw this.error(
          this.part === PART_PROLOG
            ? 'text before the root element (a document starts with markup).'
            : 'text after the root element (a document has one root element).',
          this.positionAt(k),
        );
      }
    }
  }

  /** Every `&` from `first` (the first one) up to `to` starts a reference we know. */
  private checkReferences(buf: string, first: number, to: number): void {
    for (let amp = first; amp !== -1 && amp < to; amp = buf.indexOf('&', amp + 1)) this.checkReference(buf, amp);
  }

  private checkReference(buf: string, amp: number): void {
    REFERENCE.lastIndex = amp;
    const m = REFERENCE.exec(buf);
    if (m === null) {
      const name = /^&(#?[\w.:-]*);/.exec(buf.slice(amp, amp + 64));
      // A malformed character reference (`&#xZZ;`) is still refused: only what cannot be a reference stays literal.
      if (this.options.literalUnknownReferences === true && !name?.[1]?.startsWith('#')) return;
      const message =
        name?.[1] !== undefined && name[1] !== '' && !name[1].startsWith('#')
          ? `the entity &${name[1]}; is not defined (only &lt; &gt; &amp; &quot; &apos; and character references are).`
          : "'&' must start an entity or character reference (write &amp; for a literal '&').";
      throw this.error(message, this.positionAt(amp));
    }
    if (m[1] === undefined) {
      const cp = m[2] !== undefined ? parseInt(m[2], 10) : parseInt(m[3] ?? '', 16);
      if (!isXmlChar(cp)) {
        throw this.error(`the character reference ${m[0]} names a character XML does not allow.`, this.positionAt(amp));
      }
    }
  }

  private deliver(text: string, at: number): void {
    this.capturedChars += text.length;
    if (this.capturedChars > MAX_CAPTURED_CHARS) {
      throw new InputError(
        this.source,
        'too_large',
        `the text of one element is longer than ${MAX_CAPTURED_CHARS} characters.`,
        this.positionAt(at),
      );
    }
    this.handler.text(text);
  }

  private startTag(buf: string, i: number, final: boolean): number {
    // Scanned by hand: this runs for every element of the document, and a pattern costs twice as much. Every read is
    // bounds-checked: reading past the end (at a chunk boundary) would make V8 throw away the optimised code.
    const n = buf.length;
    let j = i + 1;
    if (j >= n || !isNameStartCode(buf.charCodeAt(j))) return this.slowStartTag(buf, i, final);
    for (j++; j < n && isNameCode(buf.charCodeAt(j)); j++);
    if (j - i - 1 > MAX_NAME_CHARS) {
      throw new InputError(
        this.source,
        'too_large',
        `an element name is longer than ${MAX_NAME_CHARS} characters.`,
        this.positionAt(i),
      );
    }
    const qualified = buf.slice(i + 1, j);
    const attributesAt = j;
    let count = 0;
    let selfClosing = false;
    for (;;) {
      if (j >= n) return this.slowStartTag(buf, i, final);
      let c = buf.charCodeAt(j);
      if (c === GT) break;
      if (c === SLASH) {
        if (j + 1 < n && buf.charCodeAt(j + 1) === GT) {
          selfClosing = true;
          break;
        }
        return this.slowStartTag(buf, i, final);
      }
      if (!isSpaceCode(c)) return this.slowStartTag(buf, i, final);
      for (j++; j < n && isSpaceCode(buf.charCodeAt(j)); j++);
      if (j >= n) return this.slowStartTag(buf, i, final);
      c = buf.charCodeAt(j);
      if (c === GT || c === SLASH) continue;
      // name = "value"
      if (!isNameStartCode(c)) return this.slowStartTag(buf, i, final);
      const nameAt = j;
      for (j++; j < n && isNameCode(buf.charCodeAt(j)); j++);
      if (count < FEW_ATTRIBUTES) {
        this.attributeNames[2 * count] = nameAt;
        this.attributeNames[2 * count + 1] = j;
      }
      for (; j < n && isSpaceCode(buf.charCodeAt(j)); j++);
      if (j >= n || buf.charCodeAt(j) !== EQUALS) return this.slowStartTag(buf, i, final);
      for (j++; j < n && isSpaceCode(buf.charCodeAt(j)); j++);
      if (j >= n) return this.slowStartTag(buf, i, final);
      c = buf.charCodeAt(j);
      if (c !== QUOTE && c !== APOSTROPHE) return this.slowStartTag(buf, i, final);
      const close = buf.indexOf(c === QUOTE ? '"' : "'", j + 1);
      if (close < 0) return this.slowStartTag(buf, i, final);
      if (this.nextLt !== -1 && this.nextLt <= j) this.nextLt = buf.indexOf('<', j + 1);
      if (this.nextLt !== -1 && this.nextLt < close) return this.slowStartTag(buf, i, final);
      count++;
      j = close + 1;
    }
    const attributes = count === 0 ? '' : buf.slice(attributesAt, j);
    if (this.part !== PART_ROOT) {
      if (this.part === PART_EPILOG) {
        throw this.error('a second root element (a document has one root element).', this.positionAt(i));
      }
      this.part = PART_ROOT;
    }
    if (count > 0) this.checkAttributes(attributes, count, buf, i, attributesAt);
    if (this.stack.length >= MAX_XML_DEPTH) {
      throw new InputError(
        this.source,
        'too_deep',
        `elements are nested more than ${MAX_XML_DEPTH} deep.`,
        this.positionAt(i),
      );
    }
    this.stack.push(qualified);
    if (this.options.checkNamespacePrefixes !== false) {
      if (count > 0 && attributes.includes('xmlns:')) this.declarePrefixes(attributes);
      if (qualified.includes(':') || (count > 0 && attributes.includes(':')))
        this.checkPrefixes(qualified, attributes, i);
    }
    const local = localName(qualified);
    this.captureText = false;
    this.capturedChars = 0;
    this.handler.startElement(local, attributes, qualified);
    if (selfClosing) {
      this.stack.pop();
      this.close(local);
      return j + 2;
    }
    return j + 1;
  }

  /** Attribute names are unique and every `&` in a value starts a reference we know. */
  private checkAttributes(attributes: string, count: number, buf: string, tagAt: number, base: number): void {
    if (count > 1 && count <= FEW_ATTRIBUTES) {
      // Most tags have two or three attributes (`<trkpt lat lon>`, once per point): compare them in place.
      const names = this.attributeNames;
      for (let a = 1; a < count; a++) {
        for (let b = 0; b < a; b++) {
          if (sameText(buf, names[2 * a]!, names[2 * a + 1]!, names[2 * b]!, names[2 * b + 1]!)) {
            const name = buf.slice(names[2 * a], names[2 * a + 1]);
            throw this.error(`the attribute ${name} is given twice.`, this.positionAt(tagAt));
          }
        }
      }
    } else if (count > 1) {
      const seen = new Set<string>();
      ATTRIBUTES.lastIndex = 0;
      for (let m = ATTRIBUTES.exec(attributes); m !== null; m = ATTRIBUTES.exec(attributes)) {
        const name = m[1]!;
        if (seen.has(name)) throw this.error(`the attribute ${name} is given twice.`, this.positionAt(tagAt));
        seen.add(name);
      }
    }
    if (attributes.includes('&')) {
      for (let amp = attributes.indexOf('&'); amp >= 0; amp = attributes.indexOf('&', amp + 1)) {
        this.checkReference(buf, base + amp);
      }
    }
  }

  /**
   * A start tag the fast pattern did not match: either cut by the end of the chunk (wait for more) or malformed (say
   * exactly where and why).
   */
  private slowStartTag(buf: string, i: number, final: boolean): -1 {
    const n = buf.length;
    const more = (): -1 => {
      if (final) throw this.error('the document ends inside a tag.', this.positionAt(i));
      return -1;
    };
    let j = i + 1;
    if (!isNameStartCode(buf.charCodeAt(j))) {
      throw this.error(`'<' must start a tag, but it is followed by '${buf.charAt(j)}'.`, this.positionAt(j));
    }
    while (j < n && isNameCode(buf.charCodeAt(j))) j++;
    const name = buf.slice(i + 1, j);
    for (;;) {
      const spaceAt = j;
      while (j < n && ' \t\r\n'.includes(buf.charAt(j))) j++;
      if (j >= n) return more();
      const c = buf.charAt(j);
      if (c === '>') break;
      if (c === '/') {
        if (j + 1 >= n) return more();
        if (buf.charAt(j + 1) === '>') break;
        throw this.error(`expected '>' after '/' in the tag <${name}>.`, this.positionAt(j + 1));
      }
      if (!isNameStartCode(c.charCodeAt(0))) {
        throw this.error(`unexpected '${c}' in the tag <${name}>.`, this.positionAt(j));
      }
      if (j === spaceAt)
        throw this.error(`attributes must be separated by whitespace in <${name}>.`, this.positionAt(j));
      const nameAt = j;
      while (j < n && isNameCode(buf.charCodeAt(j))) j++;
      const attribute = buf.slice(nameAt, j);
      while (j < n && ' \t\r\n'.includes(buf.charAt(j))) j++;
      if (j >= n) return more();
      if (buf.charAt(j) !== '=') {
        // Where the '=' was expected, as xmllint points (`<Invalid GPX file>`: at `file`).
        throw this.error(`the attribute ${attribute} in <${name}> has no value.`, this.positionAt(j));
      }
      j++;
      while (j < n && ' \t\r\n'.includes(buf.charAt(j))) j++;
      if (j >= n) return more();
      const quote = buf.charAt(j);
      if (quote !== '"' && quote !== "'") {
        throw this.error(`the value of the attribute ${attribute} in <${name}> is not quoted.`, this.positionAt(j));
      }
      const close = buf.indexOf(quote, j + 1);
      // Look for '<' inside this value only: searching to the end of the buffer for every attribute made a tag with
      // 100,000 attributes quadratic.
      const valueEnd = close < 0 ? n : close;
      let lt = -1;
      for (let k = j + 1; k < valueEnd; k++) {
        if (buf.charCodeAt(k) === 0x3c) {
          lt = k;
          break;
        }
      }
      if (lt >= 0) {
        throw this.error(`'<' is not allowed in the value of the attribute ${attribute}.`, this.positionAt(lt));
      }
      if (close < 0) return more();
      j = close + 1;
    }
    // Complete, yet the fast pattern refused it: a character no name may hold.
    throw this.error(`the tag <${name}> is malformed.`, this.positionAt(i));
  }

  private endTag(buf: string, i: number, final: boolean): number {
    const depth = this.stack.length;
    const open = depth > 0 ? this.stack[depth - 1] : undefined;
    // The usual case, `</Name>` right after its start: no pattern needed.
    const gtAt = i + 2 + (open?.length ?? 0);
    if (open !== undefined && gtAt < buf.length && buf.charCodeAt(gtAt) === GT && buf.startsWith(open, i + 2)) {
      this.stack.pop();
      this.close(localName(open));
      return i + 3 + open.length;
    }
    END_TAG.lastIndex = i;
    const m = END_TAG.exec(buf);
    if (m === null) {
      const gt = buf.indexOf('>', i);
      if (gt < 0 && !final) return -1;
      if (gt < 0) throw this.error('the document ends inside an end tag.', this.positionAt(i));
      // Point where it goes wrong, as libxml2 does: after the name and any whitespace.
      let k = i + 2;
      while (k < gt && isNameCode(buf.charCodeAt(k))) k++;
      const name = buf.slice(i + 2, k);
      while (k < gt && isSpaceCode(buf.charCodeAt(k))) k++;
      throw this.error(
        name === '' ? "'</' must be followed by an element name." : `expected '>' to end the end tag </${name}>.`,
        this.positionAt(k),
      );
    }
    const name = m[1]!;
    if (open === undefined) throw this.error(`the end tag </${name}> has no start tag.`, this.positionAt(i));
    if (name !== open) {
      throw this.error(`the end tag </${name}> does not match the start tag <${open}>.`, this.positionAt(i));
    }
    this.stack.pop();
    this.close(localName(name));
    return END_TAG.lastIndex;
  }

  /** Namespace prefixes an element declares, scoped to it and its content. */
  private declarePrefixes(attributes: string): void {
    const prefixes = Object.keys(namespaceDeclarations(attributes)).filter((p) => p !== '');
    if (prefixes.length > 0) this.prefixScopes.push({ depth: this.stack.length, prefixes });
  }

  /** Prefixed element and attribute names need their prefix declared (namespace well-formedness, as libxml2 has it). */
  private checkPrefixes(qualified: string, attributes: string, tagAt: number): void {
    const names = [qualified];
    if (attributes.includes(':')) {
      ATTRIBUTES.lastIndex = 0;
      for (let m = ATTRIBUTES.exec(attributes); m !== null; m = ATTRIBUTES.exec(attributes)) names.push(m[1]!);
    }
    for (const name of names) {
      const colon = name.indexOf(':');
      if (colon < 0 || name.startsWith('xmlns:')) continue;
      const prefix = name.slice(0, colon);
      if (prefix === 'xml' || this.prefixScopes.some((scope) => scope.prefixes.includes(prefix))) continue;
      throw this.error(`the namespace prefix ${prefix} of ${name} is not declared.`, this.positionAt(tagAt));
    }
  }

  private close(local: string): void {
    this.captureText = false;
    // Length first: reading index -1 of an empty array is a slow property look-up in V8, and this runs per element.
    const scopes = this.prefixScopes.length;
    if (scopes > 0 && this.prefixScopes[scopes - 1]!.depth > this.stack.length) this.prefixScopes.pop();
    this.handler.endElement(local);
    if (this.stack.length === 0) this.part = PART_EPILOG;
  }

  private bang(buf: string, i: number, final: boolean): number {
    if (buf.startsWith('<!--', i)) {
      this.mode = MODE_COMMENT;
      return i + 4;
    }
    if (buf.startsWith('<![CDATA[', i)) {
      if (this.part !== PART_ROOT) throw this.error('a CDATA section outside the root element.', this.positionAt(i));
      this.mode = MODE_CDATA;
      return i + 9;
    }
    if (buf.startsWith('<!DOCTYPE', i)) return this.doctype(buf, i, final);
    const rest = buf.slice(i, i + 9);
    if (!final && ['<!--', '<![CDATA[', '<!DOCTYPE'].some((s) => s.startsWith(rest))) return -1;
    throw this.error("'<!' must start a comment, a CDATA section or the DOCTYPE.", this.positionAt(i));
  }

  /** Inside a comment: find its end; `--` inside is not allowed. */
  private comment(buf: string, i: number, final: boolean): number {
    const dashes = buf.indexOf('--', i);
    if (dashes < 0 || dashes + 2 >= buf.length) {
      if (final) return -1;
      // Keep a last `-` (or `--`) that may begin the end.
      return dashes >= 0 ? dashes : buf.endsWith('-') ? buf.length - 1 : buf.length;
    }
    if (buf.charCodeAt(dashes + 2) !== GT)
      throw this.error("'--' is not allowed inside a comment.", this.positionAt(dashes));
    this.mode = MODE_MARKUP;
    return dashes + 3;
  }

  /** Inside a CDATA section: its text goes to the handler as is (line ends normalised). */
  private cdata(buf: string, i: number, final: boolean): number {
    const end = buf.indexOf(']]>', i);
    if (end < 0) {
      if (final) return -1;
      const keep = Math.max(i, buf.length - 2);
      if (this.captureText && keep > i) this.deliver(normaliseLineEnds(buf.slice(i, keep)), i);
      return keep;
    }
    if (this.captureText && end > i) this.deliver(normaliseLineEnds(buf.slice(i, end)), i);
    this.mode = MODE_MARKUP;
    return end + 3;
  }

  private processingInstruction(buf: string, i: number, final: boolean): number {
    const end = buf.indexOf('?>', i + 2);
    if (end < 0) {
      if (final) throw this.error('the document ends inside a processing instruction.', this.positionAt(i));
      return -1;
    }
    let t = i + 2;
    if (!isNameStartCode(buf.charCodeAt(t))) {
      throw this.error('a processing instruction needs a target name.', this.positionAt(i));
    }
    for (t++; t < end && isNameCode(buf.charCodeAt(t)); t++);
    const target = buf.slice(i + 2, t);
    const after = i + 2 + target.length;
    if (after !== end && !' \t\r\n'.includes(buf.charAt(after))) {
      throw this.error(`malformed processing instruction <?${target}.`, this.positionAt(i));
    }
    if (target === 'xml') {
      const at = this.bufOffset + i;
      if (at !== 0 && !(this.options.allowSpaceBeforeDeclaration === true && at === this.firstMarkupAt)) {
        throw this.error('the XML declaration is allowed only at the very start of the document.', this.positionAt(i));
      }
      if (!XML_DECLARATION.test(buf.slice(i, end + 2)))
        throw this.error('malformed XML declaration.', this.positionAt(i));
    } else if (target.toLowerCase() === 'xml') {
      throw this.error(`the processing instruction name ${target} is reserved.`, this.positionAt(i));
    }
    return end + 2;
  }

  private doctype(buf: string, i: number, final: boolean): number {
    if (this.part !== PART_PROLOG || this.sawDoctype) {
      throw this.error('a DOCTYPE is allowed only once, before the root element.', this.positionAt(i));
    }
    const end = doctypeEnd(buf, i + 9);
    if (end < 0) {
      if (final) throw this.error('the document ends inside the DOCTYPE.', this.positionAt(i));
      return -1;
    }
    const declaration = buf.slice(i, end);
    const entity = declaration.indexOf('<!ENTITY');
    if (entity >= 0) {
      throw entityDeclarationError(this.source, this.positionAt(i + entity), this.entityDeclarationHint);
    }
    const m = new RegExp(
      `^<!DOCTYPE${WS}+(${LOOSE_NAME})(?:${WS}+(?:SYSTEM${WS}+(?:"([^"]*)"|'([^']*)')|PUBLIC${WS}+(?:"[^"]*"|'[^']*')${WS}+(?:"([^"]*)"|'([^']*)')))?${WS}*(?:\\[[^]*\\]${WS}*)?>$`,
    ).exec(declaration);
    if (m === null || !isXmlName(m[1]!)) throw this.error('malformed DOCTYPE.', this.positionAt(i));
    this.sawDoctype = true;
    this.handler.doctype?.(m[1]!, m[2] ?? m[3] ?? m[4] ?? m[5]);
    return end;
  }
}

/** Whether `s[a, aEnd)` and `s[b, bEnd)` are the same text. */
function sameText(s: string, a: number, aEnd: number, b: number, bEnd: number): boolean {
  if (aEnd - a !== bEnd - b) return false;
  for (let k = 0; k < aEnd - a; k++) if (s.charCodeAt(a + k) !== s.charCodeAt(b + k)) return false;
  return true;
}

function normaliseLineEnds(text: string): string {
  return text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
}

/** Character data with references decoded (already checked) and line ends normalised. */
function decodeText(raw: string): string {
  const text = normaliseLineEnds(raw);
  return text.includes('&') ? text.replace(REFERENCES, decodeReference) : text;
}

function decodeReference(_whole: string, name?: string, dec?: string, hex?: string): string {
  if (name !== undefined) return XML_ENTITIES[name] ?? '';
  return String.fromCodePoint(dec !== undefined ? parseInt(dec, 10) : parseInt(hex ?? '', 16));
}

/**
 * The attributes of a start tag as reported to `startElement`, by local name, values decoded (references, and
 * whitespace characters as spaces, as XML normalises attribute values). Namespace declarations are left out.
 */
export function parseAttributes(raw: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (raw.length === 0) return out;
  ATTRIBUTES.lastIndex = 0;
  for (let m = ATTRIBUTES.exec(raw); m !== null; m = ATTRIBUTES.exec(raw)) {
    const name = m[1]!;
    if (name === 'xmlns' || name.startsWith('xmlns:')) continue;
    const value = (m[2] ?? m[3] ?? '').replace(/\r\n|[\r\n\t]/g, ' ');
    out[localName(name)] = value.includes('&') ? value.replace(REFERENCES, decodeReference) : value;
  }
  return out;
}

/** The namespace declarations of a start tag: `''` for the default namespace, else the prefix. */
export function namespaceDeclarations(raw: string): Record<string, string> {
  const out: Record<string, string> = {};
  ATTRIBUTES.lastIndex = 0;
  for (let m = ATTRIBUTES.exec(raw); m !== null; m = ATTRIBUTES.exec(raw)) {
    const name = m[1]!;
    if (name === 'xmlns') out[''] = m[2] ?? m[3] ?? '';
    else if (name.startsWith('xmlns:')) out[name.slice(6)] = m[2] ?? m[3] ?? '';
  }
  return out;
}
