import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { streamXml } from '../../src/xml/stream.js';
import { MAX_XML_DEPTH } from '../../src/xml/syntax.js';
import type { XmlHandler } from '../../src/xml/tokenizer.js';
import { parseXmlDocument, rootElementName } from '../../src/xml/tree.js';
import { catchInputError } from '../helpers/files.js';

const noLists = { isArray: () => false };

describe('rootElementName', () => {
  it('skips the declaration, comments, processing instructions and a DOCTYPE with an internal subset', () => {
    const text = [
      '\uFEFF<?xml version="1.0"?>',
      '<!-- <NotRoot> -->',
      '<?xml-stylesheet href="x.xsl"?>',
      '<!DOCTYPE CourseData [ <!ELEMENT CourseData ANY> <!-- ] > --> <!ATTLIST CourseData a CDATA "]>"> ]>',
      '<iof:CourseData xmlns:iof="http://www.orienteering.org/datastandard/3.0"/>',
    ].join('\n');
    expect(rootElementName(text)).toBe('CourseData');
  });

  it('returns undefined when there is no element', () => {
    expect(rootElementName('<?xml version="1.0"?>\n<!-- nothing -->')).toBeUndefined();
    expect(rootElementName('not xml')).toBeUndefined();
  });
});

describe('parseXmlDocument', () => {
  it('keeps values as trimmed strings, attributes with @, and drops namespace prefixes', () => {
    const doc = parseXmlDocument(
      '<iof:Course xmlns:iof="urn:x" iof:modifyTime="t"><iof:Id type="x"> 031 </iof:Id><iof:Length>2960.0</iof:Length></iof:Course>',
      'doc',
      noLists,
    );
    expect(doc['Course']).toMatchObject({ Id: { '#text': '031', '@type': 'x' }, Length: '2960.0', '@modifyTime': 't' });
  });

  it('decodes the five XML entities and decimal and hex character references, once', () => {
    const doc = parseXmlDocument(
      '<a b="&#229;&amp;lt;"><n>&#229;bo &#xE5;&#xC5; &lt;&gt;&amp;&quot;&apos; &amp;#229;</n></a>',
      'doc',
      noLists,
    );
    expect(doc['a']).toEqual({ '@b': '\u00E5&lt;', n: '\u00E5bo \u00E5\u00C5 <>&"\' &#229;' });
  });

  it('leaves unknown named references literal instead of expanding anything', () => {
    const doc = parseXmlDocument('<a>&nbsp;x</a>', 'doc', noLists);
    expect(doc['a']).toBe('&nbsp;x');
  });

  it('makes lists by path: the same element name can be a list in one place and a value in another', () => {
    const text =
      '<R><Control><Id>1</Id></Control><Course><CourseControl><Control>1</Control></CourseControl></Course></R>';
    const doc = parseXmlDocument(text, 'doc', {
      isArray: (path) => path === 'R.Control' || path === 'R.Course.CourseControl',
    });
    expect(doc['R']).toEqual({ Control: [{ Id: '1' }], Course: { CourseControl: [{ Control: '1' }] } });
  });

  it('reports malformed XML as not_well_formed with line and column', () => {
    const error = catchInputError(() =>
      parseXmlDocument('<?xml version="1.0"?>\n<a>\n  <b>x</a>\n', 'broken.xml', noLists),
    );
    expect(error.reason).toBe('not_well_formed');
    expect(error.line).toBe(3);
    // Column of the '</a>' that closes the wrong element.
    expect(error.column).toBe(7);
    expect(error.message).toMatch(/^broken\.xml:3:7: not well-formed XML: /);
  });

  it('rejects text or a second element after the root, which fast-xml-parser alone accepts', () => {
    expect(catchInputError(() => parseXmlDocument('<a/><b/>', 'doc', noLists)).reason).toBe('not_well_formed');
    expect(catchInputError(() => parseXmlDocument('<a/><a/>', 'doc', noLists)).reason).toBe('not_well_formed');
  });

  it('rejects an empty document', () => {
    expect(catchInputError(() => parseXmlDocument('', 'doc', noLists)).reason).toBe('not_well_formed');
  });

  it('rejects a character reference to a character XML forbids', () => {
    expect(catchInputError(() => parseXmlDocument('<a>&#0;</a>', 'doc', noLists)).reason).toBe('not_well_formed');
  });

  it('rejects a billion-laughs document at its entity declarations, before any expansion', () => {
    const levels = Array.from({ length: 9 }, (_, i) => `<!ENTITY l${i + 1} "${`&l${i};`.repeat(10)}">`).join('');
    const text = `<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY l0 "lol">${levels}]>\n<lolz>&l9;</lolz>`;
    const error = catchInputError(() => parseXmlDocument(text, 'lolz.xml', noLists));
    expect(error.reason).toBe('entity_declaration');
    expect(error.message).toContain('entity declarations are not allowed');
  });

  it('rejects an external entity without reading the file it names', () => {
    const text =
      '<?xml version="1.0"?>\n<!DOCTYPE CourseData [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n<CourseData>&xxe;</CourseData>';
    const error = catchInputError(() => parseXmlDocument(text, 'xxe.xml', noLists));
    expect(error.reason).toBe('entity_declaration');
    expect(JSON.stringify(error.toJSON())).not.toContain('root:');
  });

  it('rejects an entity declared in a DOCTYPE smuggled inside the root element', () => {
    const text = '<a><!DOCTYPE x [<!ENTITY e "boom">]><b>&e;</b></a>';
    expect(catchInputError(() => parseXmlDocument(text, 'doc', noLists)).reason).toBe('entity_declaration');
  });

  it('accepts a DOCTYPE that only names an external DTD (IOF 2.0.3 files do) and never loads it', () => {
    const doc = parseXmlDocument(
      '<!DOCTYPE CourseData SYSTEM "file:///etc/passwd">\n<CourseData><x>1</x></CourseData>',
      'doc',
      noLists,
    );
    expect(doc['CourseData']).toEqual({ x: '1' });
  });

  it(`accepts nesting ${MAX_XML_DEPTH} deep and rejects deeper nesting with too_deep`, () => {
    const nested = (depth: number): string => '<e>'.repeat(depth) + '</e>'.repeat(depth);
    expect(() => parseXmlDocument(nested(MAX_XML_DEPTH), 'doc', noLists)).not.toThrow();
    expect(catchInputError(() => parseXmlDocument(nested(MAX_XML_DEPTH + 1), 'doc', noLists)).reason).toBe('too_deep');
    expect(catchInputError(() => parseXmlDocument(nested(100_000), 'doc', noLists)).reason).toBe('too_deep');
  });

  it('rejects text over 64 MiB with too_large before parsing it', () => {
    const text = `<a>${' '.repeat(64 * 1024 * 1024)}</a>`;
    expect(catchInputError(() => parseXmlDocument(text, 'huge.xml', noLists)).reason).toBe('too_large');
  });

  it('gives the line and column of an entity declaration', () => {
    const text = '<?xml version="1.0"?>\n<!DOCTYPE a [\n  <!ENTITY e "x">\n]>\n<a>&e;</a>';
    expect(catchInputError(() => parseXmlDocument(text, 'doc', noLists))).toMatchObject({
      reason: 'entity_declaration',
      line: 3,
      column: 3,
    });
  });

  it('refuses whitespace before the declaration unless allowed, and then counts positions from the first byte', () => {
    const text = '\n\n  <?xml version="1.0"?>\n<a>\n  <b>x</a>\n';
    expect(catchInputError(() => parseXmlDocument(text, 'doc', noLists)).reason).toBe('not_well_formed');
    const allowed = { ...noLists, allowSpaceBeforeDeclaration: true };
    expect(parseXmlDocument('\n  <?xml version="1.0"?><a>1</a>', 'doc', allowed)['a']).toBe('1');
    expect(catchInputError(() => parseXmlDocument(text, 'doc', allowed))).toMatchObject({ line: 5, column: 7 });
    const sameLine = catchInputError(() => parseXmlDocument('  <a><b></a>', 'doc', allowed));
    expect(sameLine).toMatchObject({ line: 1, column: 9 });
    const declared = '  <?xml version="1.0"?>\n<!DOCTYPE a [<!ENTITY e "x">]><a/>';
    expect(catchInputError(() => parseXmlDocument(declared, 'doc', allowed))).toMatchObject({ line: 2, column: 14 });
  });

  it('keeps the content of stop nodes as raw text', () => {
    const doc = parseXmlDocument('<a><ext><b>&amp;</b></ext><c>&amp;</c></a>', 'doc', {
      ...noLists,
      stopNodes: ['*.ext'],
    });
    expect(doc['a']).toEqual({ ext: '<b>&amp;</b>', c: '&' });
  });

  it('appends the hint it is given to not-well-formed errors only', () => {
    const options = { ...noLists, notWellFormedHint: 'Export it again.' };
    expect(catchInputError(() => parseXmlDocument('<a><b></a>', 'doc', options)).message).toMatch(
      / Export it again\.$/,
    );
    expect(catchInputError(() => parseXmlDocument('<a/><b/>', 'doc', options)).message).toMatch(/ Export it again\.$/);
    const deep = '<e>'.repeat(MAX_XML_DEPTH + 1) + '</e>'.repeat(MAX_XML_DEPTH + 1);
    expect(catchInputError(() => parseXmlDocument(deep, 'doc', options)).message).not.toContain('Export it again');
  });
});

describe('streamXml from a path', () => {
  /** `mkfifo` is a POSIX tool: the FIFO test needs it. */
  const canMakeFifo = process.platform !== 'win32';
  const dir = mkdtempSync(join(tmpdir(), 'xml-stream-path-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Element names in document order. */
  async function names(path: string, maxBytes?: number): Promise<string[]> {
    const seen: string[] = [];
    const handler: XmlHandler = {
      startElement: (name) => void seen.push(name),
      endElement: () => undefined,
      text: () => undefined,
    };
    await streamXml(path, () => handler, maxBytes === undefined ? {} : { maxBytes });
    return seen;
  }

  async function refusal(promise: Promise<unknown>): Promise<InputError> {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    if (!(error instanceof InputError)) throw new Error(`expected an InputError, got ${String(error)}`);
    return error;
  }

  it('reads a regular file', async () => {
    const path = join(dir, 'doc.xml');
    writeFileSync(path, '<a><b/><c/></a>');
    expect(await names(path)).toEqual(['a', 'b', 'c']);
  });

  it.skipIf(!canMakeFifo)('refuses a named pipe as not_a_file instead of waiting on it forever', async () => {
    const path = join(dir, 'pipe.xml');
    execFileSync('mkfifo', [path]);
    const error = await refusal(names(path));
    expect(error.reason).toBe('not_a_file');
    expect(error.message).toContain('named pipe');
  });

  it('refuses a file over maxBytes as too_large before reading it', async () => {
    const path = join(dir, 'big.xml');
    writeFileSync(path, `<a>${'x'.repeat(1000)}</a>`);
    expect((await refusal(names(path, 100))).reason).toBe('too_large');
  });

  it('says a missing file is unreadable, with the system code', async () => {
    const error = await refusal(names(join(dir, 'missing.xml')));
    expect(error.reason).toBe('unreadable');
    expect(error.message).toContain('ENOENT');
  });
});
