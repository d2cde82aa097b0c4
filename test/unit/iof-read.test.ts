import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeXml, decodeXmlHead } from '../../src/xml/decode.js';
import { catchInputError, fixture, iofExamplePath, realdata } from '../helpers/files.js';

describe('decodeXml', () => {
  it('detects a UTF-8 BOM before the declaration and strips it from the text', () => {
    const bytes = realdata('iof3/oribos_ResultList_VeNotte2020_BOM.xml');
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const decoded = decodeXml(bytes);
    expect(decoded.encoding).toBe('utf-8');
    expect(decoded.bom).toBe(true);
    expect(decoded.text.startsWith('<?xml version="1.0" encoding="utf-8"?>')).toBe(true);
    expect(decoded.text.charCodeAt(0)).not.toBe(0xfeff);
  });

  it('reads the real OE2010 windows-1252 export (all ASCII: it has no byte above 0x7F) as windows-1252', () => {
    const bytes = Buffer.from(realdata('iof3/liveresults_oe2010_ResultList_SKIO2016_tenths_cp1252.xml'));
    // Checked with a byte scan: the real file never uses a byte above 0x7F, so its text equals its ASCII reading.
    expect(bytes.some((b) => b >= 0x80)).toBe(false);
    const decoded = decodeXml(bytes);
    expect(decoded).toMatchObject({ encoding: 'windows-1252', bom: false });
    expect(decoded.text).toBe(bytes.toString('latin1'));
    expect(decoded.text).toContain('<Time>978,3</Time>');
  });

  it('maps windows-1252 bytes 0x80-0x9F through the real table (smart quotes, en dash, euro), not to C1 controls', () => {
    const bytes = fixture('iof/CourseData_cp1252_smart_quotes.xml');
    const decoded = decodeXml(bytes);
    expect(decoded.encoding).toBe('windows-1252');
    expect(decoded.text).toContain('<Name>\u2018\u00C5bo Sprint\u2019 \u2013 \u201C\u00D8rienteering\u201D Cup</Name>');
    expect(decoded.text).toContain('H21 \u2018Elit\u2019 \u20AC');
    expect(decoded.text).not.toMatch(/[\u0080-\u009f]/);
  });

  it('maps each of the 27 defined windows-1252 high bytes and keeps the 5 undefined ones as C1 code points', () => {
    const head = Buffer.from('<?xml version="1.0" encoding="cp1252"?><a>', 'latin1');
    const high = Buffer.from(Array.from({ length: 32 }, (_, i) => 0x80 + i));
    const { text } = decodeXml(Buffer.concat([head, high, Buffer.from('</a>', 'latin1')]));
    const body = text.slice(text.indexOf('<a>') + 3, text.indexOf('</a>'));
    expect(body).toBe(
      '\u20AC\u0081\u201A\u0192\u201E\u2026\u2020\u2021\u02C6\u2030\u0160\u2039\u0152\u008D\u017D\u008F' +
        '\u0090\u2018\u2019\u201C\u201D\u2022\u2013\u2014\u02DC\u2122\u0161\u203A\u0153\u009D\u017E\u0178',
    );
  });

  it('decodes an ISO-8859-1 IOF 2.0.3 file with Swedish letters', () => {
    const bytes = realdata('iof2/splitsbrowserjava_winsplits_ResultList_v203_latin1.xml');
    const decoded = decodeXml(bytes);
    expect(decoded).toMatchObject({ encoding: 'iso-8859-1', bom: false });
    // Lines 10, 21, 157 and 4218 of the file (found with a byte scan for 0xE4, 0xF6, 0xE5, 0xC5).
    expect(decoded.text).toContain('<Name>Distriktst\u00E4vling</Name>');
    expect(decoded.text).toContain('<Name>Skogsl\u00F6parna</Name>');
    expect(decoded.text).toContain('<Name>IFK Ume\u00E5</Name>');
    expect(decoded.text).toContain('<Given sequence="1">\u00C5sa</Given>');
  });

  it('decodes UTF-16 LE and BE, with and without a BOM, to the same text as the UTF-8 original', () => {
    const utf8 = readFileSync(iofExamplePath('CourseData_Individual_Step2.xml'), 'utf8');
    const text = utf8.replace('encoding="UTF-8"', 'encoding="UTF-16"');
    const le = Buffer.from(text, 'utf16le');
    const be = Buffer.from(le).swap16();
    expect(decodeXml(Buffer.concat([Buffer.from([0xff, 0xfe]), le]))).toEqual({
      text,
      encoding: 'utf-16le',
      bom: true,
    });
    expect(decodeXml(Buffer.concat([Buffer.from([0xfe, 0xff]), be]))).toEqual({
      text,
      encoding: 'utf-16be',
      bom: true,
    });
    expect(decodeXml(le)).toEqual({ text, encoding: 'utf-16le', bom: false });
    expect(decodeXml(be)).toEqual({ text, encoding: 'utf-16be', bom: false });
  });

  it('reads the declared encoding with single quotes, any case, and whitespace before the declaration', () => {
    const bytes = Buffer.from("  \n<?xml version='1.0' ENCODING = 'Windows-1252' ?><a>\x93x\x94</a>", 'latin1');
    expect(decodeXml(bytes)).toMatchObject({
      encoding: 'windows-1252',
      text: expect.stringContaining('\u201Cx\u201D'),
    });
    const latin = Buffer.from('<?xml version="1.0" encoding="iso-8859-1"?><a>\xe5</a>', 'latin1');
    expect(decodeXml(latin)).toMatchObject({ encoding: 'iso-8859-1', text: expect.stringContaining('\u00E5') });
  });

  it('defaults to UTF-8 without BOM or declared encoding', () => {
    const bytes = Buffer.from('<?xml version="1.0"?><a>\u00C5bo</a>', 'utf8');
    expect(decodeXml(bytes)).toEqual({ text: '<?xml version="1.0"?><a>\u00C5bo</a>', encoding: 'utf-8', bom: false });
  });

  it('rejects invalid UTF-8 with bad_encoding and the byte offset and line of the first bad byte', () => {
    const good = Buffer.from('<?xml version="1.0" encoding="UTF-8"?>\n<a>\n\u00C5', 'utf8');
    const bytes = Buffer.concat([good, Buffer.from([0xc3, 0x28]), Buffer.from('</a>')]);
    const error = catchInputError(() => decodeXml(bytes, 'bad.xml'));
    expect(error.reason).toBe('bad_encoding');
    expect(error.message).toContain(`byte offset ${good.length}`);
    expect(error.line).toBe(3);
    expect(error.source).toBe('bad.xml');
  });

  it('rejects a truncated UTF-8 sequence at the end of the input at its first byte', () => {
    const bytes = Buffer.concat([Buffer.from('<a>x'), Buffer.from([0xe2, 0x82])]);
    expect(catchInputError(() => decodeXml(bytes)).message).toContain('byte offset 4');
  });

  it('rejects an encoding it does not decode with unsupported_encoding, naming it', () => {
    const bytes = Buffer.from('<?xml version="1.0" encoding="EBCDIC-CP-US"?><a/>', 'latin1');
    const error = catchInputError(() => decodeXml(bytes, 'ebcdic.xml'));
    expect(error.reason).toBe('unsupported_encoding');
    expect(error.message).toContain('"EBCDIC-CP-US"');
  });
});

describe('decodeXmlHead', () => {
  it('decodes only the first bytes, by BOM or declaration as decodeXml does', () => {
    const latin = Buffer.from('<?xml version="1.0" encoding="windows-1252"?><a>\x80\xe5</a>', 'latin1');
    expect(decodeXmlHead(latin, 1024)).toBe('<?xml version="1.0" encoding="windows-1252"?><a>\u20AC\u00E5</a>');
    expect(decodeXmlHead(latin, 5)).toBe('<?xml');
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<gpx/>', 'utf16le')]);
    expect(decodeXmlHead(le, 1024)).toBe('<gpx/>');
    expect(decodeXmlHead(Buffer.from(le).swap16(), 1024)).toBe('<gpx/>');
  });

  it('never throws: bad or cut characters become U+FFFD and an unknown encoding is read as UTF-8', () => {
    const cut = Buffer.concat([Buffer.from('<a>'), Buffer.from([0xff]), Buffer.from('\u00C5', 'utf8')]);
    expect(decodeXmlHead(cut, cut.length - 1)).toBe('<a>\uFFFD\uFFFD');
    const ebcdic = Buffer.from('<?xml version="1.0" encoding="EBCDIC-CP-US"?><a/>', 'latin1');
    expect(decodeXmlHead(ebcdic, 1024)).toBe(ebcdic.toString('latin1'));
    const odd = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<a/>', 'utf16le')]);
    expect(decodeXmlHead(odd, 7)).toBe('<a');
  });
});
