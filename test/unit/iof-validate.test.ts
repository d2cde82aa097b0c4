import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { InputError, TimeoutError } from '../../src/errors.js';
import { parseCourseData } from '../../src/iof/read-course-data.js';
import type { CourseData } from '../../src/iof/model.js';
import { iofSchemaPath } from '../../src/iof/schema-path.js';
import { dtdToXsd } from '../../src/iof/validate/grammar.js';
import { iofVersionOf } from '../../src/iof/validate/prepare.js';
import {
  createIofValidator,
  validate,
  validateIofXml,
  type IofValidationResult,
} from '../../src/iof/validate/validate.js';
import { maxMemoryPagesFor, runXmllintWasm, type XmllintRun } from '../../src/iof/validate/xmllint.js';
import { writeCourseData } from '../../src/iof/write-course-data.js';
import {
  fixture,
  fixturePath,
  iofExample,
  iofExamplePath,
  realdata,
  realdataPath,
  utf8,
  IOF3_COURSE_FILES,
} from '../helpers/files.js';

/** bench/generate-iof.mjs: schema-valid IOF 3.0 documents of any size (plain JavaScript, so typed here). */
const generator = (await import(new URL('../../bench/generate-iof.mjs', import.meta.url).href)) as {
  generateResultList(options: { targetBytes: number; seed?: number }): Uint8Array;
  generateCourseData(options: { courses: number; controls: number; seed?: number }): Uint8Array;
};

const IOF2_COURSE_FILES = [
  realdataPath('iof2/rg2_ellenbrook_CourseData_v203_latin1.xml'),
  fixturePath('iof/CourseData_v203_classes_latin1.xml'),
];
const IOF2_REAL_FILES = [
  'iof2/liveresults_meos_ResultList_v203.xml',
  'iof2/rg2_ellenbrook_CourseData_v203_latin1.xml',
  'iof2/splitsbrowserjava_winsplits_ResultList_v203_latin1.xml',
];

const baseName = (path: string): string => path.slice(path.lastIndexOf('/') + 1);
const parseFile = (path: string): CourseData => parseCourseData(readFileSync(path), path);
const toGrid = (p: { lat: number; lng: number }): { lat: number; lng: number } => ({
  lng: 500000 + p.lng * 69000,
  lat: p.lat * 111200,
});
const VALID_COURSE = iofExample('CourseData_Individual_Step2.xml');
const course = (inner: string): string =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<CourseData xmlns="http://www.orienteering.org/datastandard/3.0" iofVersion="3.0">${inner}</CourseData>\n`;
const INVALID_RESULTS = realdata('iof3/rg2_ResultList_empty_ClassResult_parseerror.xml');

describe('iofSchemaPath', () => {
  it('finds schemas/IOF.xsd in the package root', () => {
    expect(iofSchemaPath()).toBe(fileURLToPath(new URL('../../schemas/IOF.xsd', import.meta.url)));
  });

  it('reports a missing schema as schema_missing, saying how to get it', async () => {
    const error = await validate([{ name: 'a.xml', bytes: utf8('<a/>') }], {
      schemaPath: '/nonexistent/IOF.xsd',
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect(error).toMatchObject({ reason: 'schema_missing', source: '/nonexistent/IOF.xsd' });
    expect(() => iofSchemaPath({ path: '/nonexistent/IOF.xsd' })).toThrow(/IOF_XSD/);
  });

  it('reports a file that is not a schema as schema_invalid', async () => {
    const error = await validate(VALID_COURSE, { schemaPath: iofExamplePath('ClassList.xml') }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ reason: 'schema_invalid' });
  });
});

describe('validate (one xmllint run for everything below)', () => {
  const docs: Array<{ name: string; bytes: Uint8Array }> = [];
  const expectValid: string[] = [];
  let results: IofValidationResult[] = [];
  const result = (name: string): IofValidationResult => {
    const found = results.find((r) => r.name === name);
    if (!found) throw new Error(`no result for ${name}`);
    return found;
  };

  beforeAll(async () => {
    const written = (name: string, xml: string): void => {
      docs.push({ name, bytes: utf8(xml) });
      expectValid.push(name);
    };
    for (const path of [...IOF3_COURSE_FILES, ...IOF2_COURSE_FILES])
      written(`written ${baseName(path)}`, writeCourseData(parseFile(path)));
    written('no controls', writeCourseData(parseFile(IOF3_COURSE_FILES[0]!), { includeControls: false }));
    written(
      'no controls, no classes',
      writeCourseData(parseFile(IOF3_COURSE_FILES[8]!), { includeControls: false, includeClassAssignments: false }),
    );
    written('no class names', writeCourseData(parseFile(IOF3_COURSE_FILES[7]!), { includeClassNames: false }));
    written('empty event', writeCourseData({ iofVersion: '3.0', event: { name: 'Empty', organisers: [] }, races: [] }));
    written('projected positions', writeCourseData(parseFile(IOF3_COURSE_FILES[5]!), { position: toGrid }));

    // Known-invalid real files, interleaved with valid ones to check that errors land on the right document.
    const add = (name: string, bytes: Uint8Array): void => {
      docs.push({ name, bytes });
    };
    add('C:\\results\\rg2: parse error.xml', INVALID_RESULTS);
    add('original cp1252 fixture', fixture('iof/CourseData_cp1252_smart_quotes.xml'));
    expectValid.push('original cp1252 fixture');
    add('sportorg_StartList.xml', realdata('iof3/sportorg_StartList.xml'));
    const utf16 = readFileSync(IOF3_COURSE_FILES[0]!, 'utf8').replace('encoding="UTF-8"', 'encoding="UTF-16"');
    add('utf-16 example', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(utf16, 'utf16le')]));
    expectValid.push('utf-16 example');
    add('oe2010 cp1252', realdata('iof3/liveresults_oe2010_ResultList_SKIO2016_tenths_cp1252.xml'));
    add(
      'malformed',
      utf8('<?xml version="1.0"?>\n<CourseData iofVersion="3.0">\n<Event><Name>x</Event>\n</CourseData>\n'),
    );
    add('bad utf-8', Buffer.concat([utf8('<?xml version="1.0"?>\n<a>'), Buffer.from([0xff]), utf8('</a>')]));
    add('entities', utf8('<?xml version="1.0"?>\n<!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n<a>&x;</a>'));
    add('original ResultList example', iofExample('ResultList1.xml'));
    expectValid.push('original ResultList example');
    for (const path of IOF2_REAL_FILES) add(path, realdata(path));
    add('no namespace', utf8('<?xml version="1.0"?>\n\n<CourseData iofVersion="3.0"><Event/></CourseData>\n'));
    add('gpx', realdata('gpx/gpxpy_korita-zbevnica_gpsbabel_gpx10.gpx'));

    // This batch is about IOF 3.0 and the not-checked report: 2.0.3 checking against the DTD is tested below.
    results = await validateIofXml(docs, { dtdPath: false });
  });

  it('returns one result per document, in order', () => {
    expect(results.map((r) => r.name)).toEqual(docs.map((d) => d.name));
  });

  it('finds every written document valid against IOF.xsd: all course files, both 2.0.3 conversions and every option', () => {
    const invalid = results.filter((r) => expectValid.includes(r.name) && r.valid !== true);
    expect(invalid).toEqual([]);
    expect(results.filter((r) => expectValid.includes(r.name)).every((r) => r.errors.length === 0)).toBe(true);
    expect(results.filter((r) => expectValid.includes(r.name)).every((r) => r.checked === 'xsd')).toBe(true);
  });

  it('reports the rg2 file invalid at line 9, without the namespace braces, under its own (odd) name', () => {
    expect(result('C:\\results\\rg2: parse error.xml')).toEqual({
      name: 'C:\\results\\rg2: parse error.xml',
      valid: false,
      version: '3.0',
      checked: 'xsd',
      errors: [
        { line: 9, code: 'schema', message: "Element 'ClassResult': Missing child element(s). Expected is ( Class )." },
      ],
    });
  });

  it('reports sportorg_StartList.xml invalid at line 30 only', () => {
    const r = result('sportorg_StartList.xml');
    expect(r.valid).toBe(false);
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]).toMatchObject({ line: 30, code: 'schema' });
    expect(r.errors[0]?.message).toMatch(
      /^Element 'BibNumber': This element is not expected\. Expected is one of \( Course, /,
    );
  });

  it('validates the windows-1252 OE2010 file (transcoded) and reports its first error at line 52', () => {
    const r = result('oe2010 cp1252');
    expect(r.valid).toBe(false);
    expect(r.errors[0]).toEqual({
      line: 52,
      code: 'schema',
      message: "Element 'Time': '978,3' is not a valid value of the atomic type 'xs:double'.",
    });
    // 391 errors in all, one per time with a decimal comma: the first 100 are listed, the rest counted.
    expect(r.errors).toHaveLength(101);
    expect(r.errors[100]).toEqual({
      code: 'more_errors',
      message: '291 more errors not listed (only the first 100 are).',
    });
    expect(r.errors.slice(0, 100).every((e) => e.line !== undefined && !e.message.includes('{http'))).toBe(true);
  });

  it('never shows the namespace in braces, and gives every xmllint error a line', () => {
    const checked = results.filter((r) => r.checked === 'xsd');
    const messages = checked.flatMap((r) => r.errors).filter((e) => e.code !== 'more_errors');
    expect(messages.length).toBeGreaterThan(10);
    expect(messages.filter((e) => e.message.includes('{'))).toEqual([]);
    expect(messages.filter((e) => e.line === undefined)).toEqual([]);
    // The extra location-less "fails to validate" line of a batch is a verdict, not an issue.
    expect(messages.filter((e) => /fails to validate/.test(e.message))).toEqual([]);
  });

  it('reports a malformed document as not_well_formed with its line, without the context lines', () => {
    // libxml2 recovers and reports the knock-on mismatch of the next line too.
    expect(result('malformed')).toEqual({
      name: 'malformed',
      valid: false,
      version: '3.0',
      checked: 'xsd',
      errors: [
        { line: 3, code: 'not_well_formed', message: 'Opening and ending tag mismatch: Name line 3 and Event' },
        { line: 4, code: 'not_well_formed', message: 'Opening and ending tag mismatch: Event line 3 and CourseData' },
      ],
    });
  });

  it('reports undecodable and entity-declaring documents without handing them to xmllint', () => {
    expect(result('bad utf-8')).toMatchObject({
      valid: false,
      checked: 'not-checked',
      errors: [{ line: 2, code: 'bad_encoding' }],
    });
    expect(result('bad utf-8').errors[0]?.message).toMatch(/^invalid UTF-8 at byte offset 25\./);
    expect(result('entities')).toMatchObject({
      valid: false,
      checked: 'not-checked',
      errors: [{ line: 2, code: 'entity_declaration' }],
    });
  });

  it('without the 2.0.3 DTD, reports IOF 2.0.3 files as 2.0.3 and not checked, neither valid nor invalid, plainly', () => {
    for (const path of IOF2_REAL_FILES) {
      expect(result(path)).toEqual({
        name: path,
        valid: null,
        version: '2.0.3',
        checked: 'not-checked',
        errors: [
          {
            code: 'not_checked',
            severity: 'warning',
            message:
              "IOF 2.0.3 file: not checked against the IOF 3.0 schema (DTD validation is not available), and the IOF 2.0.3 DTD it would be checked against was not found. Convert the file to IOF XML 3.0, or get the DTD. To get it: give the path of a copy of IOFdata-2.0.3.dtd (the dtdPath option), set IOF_DTD to one, or fetch the IOF's file into the cache (fetchIofSchema).",
            hint: expect.objectContaining({ code: 'schema', values: ['dtd'] }),
          },
        ],
      });
    }
  });

  it('explains a root outside the IOF 3.0 namespace in words', () => {
    expect(result('no namespace')).toMatchObject({ valid: false, version: '3.0', checked: 'xsd' });
    expect(result('no namespace').errors).toEqual([
      {
        line: 3,
        code: 'schema',
        message:
          "Element 'CourseData': the root element has no namespace, so it is not an IOF XML 3.0 message (IOF XML 3.0 root elements are in the namespace http://www.orienteering.org/datastandard/3.0).",
      },
    ]);
    expect(result('gpx')).toMatchObject({ valid: false, version: 'unknown', checked: 'xsd' });
    expect(result('gpx').errors[0]?.message).toMatch(
      /^Element 'gpx': the root element is in the namespace http:\/\/www\.topografix\.com\/GPX\/1\/0, so it is not an IOF XML 3\.0 message/,
    );
  });
});

describe('IOF 2.0.3 against the DTD (translated to a schema)', () => {
  const DTD = iofExamplePath('../IOFdata-2.0.3.dtd');
  const V203 = readFileSync(IOF2_COURSE_FILES[1]!, 'latin1');
  const mutated = (from: string, to: string): Uint8Array => {
    expect(V203).toContain(from);
    return Buffer.from(V203.replace(from, to), 'latin1');
  };
  let results: IofValidationResult[] = [];
  const result = (name: string): IofValidationResult => results.find((r) => r.name === name)!;

  beforeAll(async () => {
    results = await validate(
      [
        ...IOF2_REAL_FILES.map((path) => ({ name: path, bytes: realdata(path) })),
        { name: 'fixture', bytes: fixture('iof/CourseData_v203_classes_latin1.xml') },
        { name: 'bad enumeration', bytes: mutated('unit="km"', 'unit="miles"') },
        { name: 'enumeration with spaces', bytes: mutated('unit="km"', 'unit=" km "') },
        { name: 'namespace declaration', bytes: mutated('<CourseData>', '<CourseData\n  xmlns:x="urn:x">') },
        { name: 'fixed value', bytes: mutated('<IOFVersion version="2.0.3"/>', '<IOFVersion version="2.0.2"/>') },
        { name: 'a 3.0 file beside them', bytes: VALID_COURSE },
      ],
      { dtdPath: DTD },
    );
  });

  it('checks the real 2.0.3 exports: MeOS and the Ellenbrook course data invalid, WinSplits valid, as xmllint --dtdvalid says', () => {
    expect(results.map((r) => [r.name, r.version, r.checked, r.valid])).toEqual([
      [IOF2_REAL_FILES[0], '2.0.3', 'dtd', false],
      [IOF2_REAL_FILES[1], '2.0.3', 'dtd', false],
      [IOF2_REAL_FILES[2], '2.0.3', 'dtd', true],
      ['fixture', '2.0.3', 'dtd', true],
      ['bad enumeration', '2.0.3', 'dtd', false],
      ['enumeration with spaces', '2.0.3', 'dtd', false],
      ['namespace declaration', '2.0.3', 'dtd', false],
      ['fixed value', '2.0.3', 'dtd', false],
      ['a 3.0 file beside them', '3.0', 'xsd', true],
    ]);
  });

  it('says what is wrong in plain words, blaming the element that does not fit (a DTD blames its parent)', () => {
    expect(result(IOF2_REAL_FILES[0]!).errors[0]).toEqual({
      line: 19,
      code: 'schema',
      message: "Element 'PersonId': This element is not expected. Expected is ( PersonName ).",
    });
    expect(result(IOF2_REAL_FILES[1]!).errors[0]).toMatchObject({ line: 7, code: 'schema' });
    expect(result('namespace declaration').errors).toEqual([
      {
        line: 7,
        code: 'schema',
        message: "Attribute 'xmlns:x': the IOF 2.0.3 DTD declares no namespace declarations, so it is not allowed.",
      },
    ]);
    expect(result('fixed value').errors[0]?.message).toMatch(
      /^Element 'IOFVersion', attribute 'version': The value '2\.0\.2' does not match the fixed value constraint '2\.0\.3'/,
    );
  });

  it('translates the DTD element by element', () => {
    const xsd = dtdToXsd(readFileSync(DTD, 'latin1'));
    expect(xsd).toContain(
      '<xs:element name="IOFVersion"><xs:complexType><xs:attribute name="version" type="xs:string" fixed="2.0.3"/></xs:complexType></xs:element>',
    );
    expect(xsd).toContain(
      '<xs:element name="CourseData"><xs:complexType><xs:sequence><xs:element ref="IOFVersion" minOccurs="0"/><xs:element ref="Map" minOccurs="0"/>',
    );
    expect(xsd.match(/<xs:element name=/g)).toHaveLength(181);
  });

  it('refuses to translate what it cannot express, and the documents are then reported not checked', async () => {
    expect(() => dtdToXsd('<!ENTITY x "y"><!ELEMENT a EMPTY>')).toThrow(/declares entities/);
    expect(() => dtdToXsd('<!ENTITY % p "x"> %p;')).toThrow(/parameter entities/);
    expect(() => dtdToXsd('<!ELEMENT a (b, c | d)>')).toThrow(/content model of a cannot be read/);
    expect(() => dtdToXsd('<!ATTLIST b x CDATA #IMPLIED>')).toThrow(/element the DTD does not declare/);
    const dir = mkdtempSync(join(tmpdir(), 'dtd-'));
    try {
      writeFileSync(join(dir, 'odd.dtd'), '<!ENTITY x "y"><!ELEMENT CourseData ANY>');
      const r = await validate(realdata(IOF2_REAL_FILES[1]!), { dtdPath: join(dir, 'odd.dtd') });
      expect(r).toMatchObject({
        valid: null,
        version: '2.0.3',
        checked: 'not-checked',
        errors: [{ code: 'not_checked' }],
      });
      expect(r.errors[0]?.message).toContain('could not be used in its place: the DTD declares entities');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    await expect(validate(VALID_COURSE, { dtdPath: '/nonexistent/IOFdata-2.0.3.dtd' })).rejects.toMatchObject({
      reason: 'schema_missing',
    });
  });
});

describe('validate, one document', () => {
  it('takes bytes and gives one result, under the name given', async () => {
    expect(await validate(VALID_COURSE, { name: 'Step2.xml' })).toEqual({
      name: 'Step2.xml',
      valid: true,
      version: '3.0',
      checked: 'xsd',
      errors: [],
    });
    expect((await validate(INVALID_RESULTS)).name).toBe('input');
  });

  it('validates an empty batch without starting xmllint', async () => {
    const validator = createIofValidator();
    expect(await validator.validate([])).toEqual([]);
    expect(validator.stats().batches).toBe(0);
  });

  it('validates a 50 MB generated ResultList without running out of WebAssembly memory', async () => {
    const big = generator.generateResultList({ targetBytes: 50_000_000, seed: 7 });
    expect(maxMemoryPagesFor(big.byteLength)).toBeGreaterThan(512);
    const validator = createIofValidator();
    expect(await validator.validate(big, { name: 'big.xml' })).toMatchObject({ valid: true, errors: [] });
    expect(validator.stats()).toEqual({ batches: 1, documents: 1, failedBatches: 0 });
  }, 60_000);
});

describe('iofVersionOf', () => {
  const v = (xml: string): string => iofVersionOf(xml);
  it('says 3.0 for the IOF 3.0 namespace, default or prefixed, or an iofVersion of 3.x', () => {
    expect(v('<CourseData xmlns="http://www.orienteering.org/datastandard/3.0"/>')).toBe('3.0');
    expect(v('<iof:ResultList xmlns:iof="http://www.orienteering.org/datastandard/3.0"></iof:ResultList>')).toBe('3.0');
    expect(v('<?xml version="1.0"?>\n<CourseData\n  iofVersion = \'3.0\'>')).toBe('3.0');
    // The attribute value holding a '>' does not end the tag early.
    expect(v('<CourseData creator="a > b" xmlns="http://www.orienteering.org/datastandard/3.0"/>')).toBe('3.0');
  });

  it('says 2.0.3 for a DOCTYPE naming IOFdata.dtd (any case) or an IOFVersion first child', () => {
    expect(v('<!DOCTYPE CourseData SYSTEM "iofData.dtd">\n<CourseData/>')).toBe('2.0.3');
    expect(v('<!DOCTYPE ResultList SYSTEM "http://example.org/IOFdata.dtd">\n<ResultList/>')).toBe('2.0.3');
    expect(v('<ResultList>\n<!-- x -->\n<IOFVersion version="2.0.3"/>')).toBe('2.0.3');
  });

  it('says unknown for anything else, and is not fooled by a DOCTYPE or namespace inside a comment', () => {
    expect(v('<gpx version="1.1"/>')).toBe('unknown');
    expect(v('')).toBe('unknown');
    expect(v('<!-- <!DOCTYPE CourseData SYSTEM "IOFdata.dtd"> -->\n<CourseData/>')).toBe('unknown');
    expect(v('<!-- <CourseData xmlns="http://www.orienteering.org/datastandard/3.0"> -->\n<CourseData/>')).toBe(
      'unknown',
    );
    expect(v('<ResultList><Event/><IOFVersion version="2.0.3"/></ResultList>')).toBe('unknown');
  });
});

describe('coalescing and bounds', () => {
  /** The real runner, counting runs and the most running at once. */
  const counting = (wrap: (run: XmllintRun) => XmllintRun = (run) => run) => {
    const seen = { runs: 0, running: 0, maxRunning: 0, sizes: [] as number[] };
    const runner = async (run: XmllintRun) => {
      seen.runs++;
      seen.sizes.push(run.documents.length);
      seen.running++;
      seen.maxRunning = Math.max(seen.maxRunning, seen.running);
      try {
        return await runXmllintWasm(wrap(run));
      } finally {
        seen.running--;
      }
    };
    return { seen, runner };
  };

  it('merges concurrent callers into one xmllint run and gives each caller only its own results', async () => {
    const { seen, runner } = counting();
    const validator = createIofValidator({ runner });
    const calls = Array.from({ length: 12 }, (_, i) =>
      i % 3 === 0
        ? validator.validate([{ name: `caller${i}-invalid`, bytes: INVALID_RESULTS }])
        : validator.validate([
            { name: `caller${i}-a`, bytes: VALID_COURSE },
            { name: `caller${i}-b`, bytes: INVALID_RESULTS },
          ]),
    );
    const answers = await Promise.all(calls);
    expect(seen.runs).toBe(1);
    expect(validator.stats()).toEqual({ batches: 1, documents: 20, failedBatches: 0 });
    answers.forEach((answer, i) => {
      if (i % 3 === 0) {
        expect(answer.map((r) => [r.name, r.valid])).toEqual([[`caller${i}-invalid`, false]]);
      } else {
        expect(answer.map((r) => [r.name, r.valid])).toEqual([
          [`caller${i}-a`, true],
          [`caller${i}-b`, false],
        ]);
      }
      expect(answer.filter((r) => r.valid === false).every((r) => r.errors[0]?.line === 9)).toBe(true);
    });
  });

  it('keeps to the bounds on documents and bytes per run, one run at a time', async () => {
    const { seen, runner } = counting();
    const validator = createIofValidator({ runner, maxDocumentsPerBatch: 3, maxBatchBytes: 3 * VALID_COURSE.length });
    const docs = Array.from({ length: 7 }, (_, i) => ({ name: `d${i}`, bytes: VALID_COURSE }));
    const big = { name: 'big', bytes: generator.generateCourseData({ courses: 40, controls: 200 }) };
    expect(big.bytes.length).toBeGreaterThan(3 * VALID_COURSE.length);
    const [many, alone] = await Promise.all([validator.validate(docs), validator.validate([big])]);
    expect(many.every((r) => r.valid === true)).toBe(true);
    expect(alone[0]?.valid).toBe(true);
    expect(seen.sizes).toEqual([3, 3, 1, 1]);
    expect(seen.maxRunning).toBe(1);
  });

  it('runs more at once when allowed', async () => {
    const { seen, runner } = counting();
    const validator = createIofValidator({ runner, maxDocumentsPerBatch: 1, maxBatchesInFlight: 2 });
    await validator.validate([1, 2, 3, 4].map((i) => ({ name: String(i), bytes: VALID_COURSE })));
    expect(seen.runs).toBe(4);
    expect(seen.maxRunning).toBe(2);
  });

  it('a failed run fails only the caller whose document broke it: the others are run again without it', async () => {
    const crashing = async (run: XmllintRun) => {
      if (run.documents.some((d) => Buffer.from(d.bytes).includes('CRASH-THE-WORKER'))) {
        throw Object.assign(new Error('worker exited unexpectedly'), { code: 'ERR_WORKER_INIT_FAILED' });
      }
      return runXmllintWasm(run);
    };
    const validator = createIofValidator({ runner: crashing });
    const poison = utf8('<?xml version="1.0"?>\n<a><!-- CRASH-THE-WORKER --></a>');
    const [bad, good, alsoGood] = await Promise.allSettled([
      validator.validate([
        { name: 'mine.xml', bytes: VALID_COURSE },
        { name: 'poison.xml', bytes: poison },
      ]),
      validator.validate([{ name: 'other.xml', bytes: VALID_COURSE }]),
      validator.validate(INVALID_RESULTS, { name: 'third.xml' }),
    ]);
    expect(bad.status).toBe('rejected');
    const error = (bad as PromiseRejectedResult).reason as InputError;
    expect(error).toBeInstanceOf(InputError);
    expect(error).toMatchObject({ reason: 'validator_failed', source: '2 documents (mine.xml, poison.xml)' });
    expect(error.message).toContain('worker exited unexpectedly');
    expect(good).toMatchObject({ status: 'fulfilled', value: [{ name: 'other.xml', valid: true }] });
    expect(alsoGood).toMatchObject({ status: 'fulfilled', value: { name: 'third.xml', valid: false } });
    // The shared run, then one per caller.
    expect(validator.stats()).toMatchObject({ batches: 4, failedBatches: 2 });
  });

  it('a document libxml2 runs out of memory on is tried alone, then reported too_large; the others are validated', async () => {
    // 32 MiB, xmllint-wasm's default, instead of what the document size asks for: 10 MB then fails for real.
    const { seen, runner } = counting((run) => ({ ...run, maxMemoryPages: 512 }));
    const validator = createIofValidator({ runner });
    const big = generator.generateResultList({ targetBytes: 10_000_000, seed: 3 });
    const [mine, theirs] = await Promise.all([
      validator.validate([
        { name: 'small.xml', bytes: VALID_COURSE },
        { name: 'big.xml', bytes: big },
      ]),
      validator.validate([{ name: 'theirs.xml', bytes: INVALID_RESULTS }]),
    ]);
    expect(seen.sizes).toEqual([3, 1]);
    expect(mine[0]).toMatchObject({ name: 'small.xml', valid: true });
    expect(mine[1]).toMatchObject({
      name: 'big.xml',
      valid: false,
      checked: 'not-checked',
      errors: [{ code: 'too_large' }],
    });
    expect(mine[1]?.errors[0]?.message).toMatch(
      /^libxml2 ran out of memory validating this document \(\d+ MiB allowed for a 9\.\d MiB document\)\.$/,
    );
    expect(theirs).toMatchObject([{ name: 'theirs.xml', valid: false, errors: [{ line: 9 }] }]);
  }, 30_000);

  it('stops a run past its deadline: the caller with the slow document gets a TimeoutError, the others their results', async () => {
    // An error on each of 100,000 controls: about 15 s of libxml2 reporting them, from 3.7 MB.
    const slow = utf8(
      course(
        '<Event><Name>x</Name></Event><RaceCourseData>' +
          '<Control><Id>1</Id><Bogus/></Control>'.repeat(100_000) +
          '</RaceCourseData>',
      ),
    );
    const validator = createIofValidator({ timeoutMs: 2000, timeoutMsPerMiB: 0 });
    const [bad, good] = await Promise.allSettled([
      validator.validate(slow, { name: 'slow.xml' }),
      validator.validate(VALID_COURSE, { name: 'quick.xml' }),
    ]);
    expect(bad.status).toBe('rejected');
    const error = (bad as PromiseRejectedResult).reason as TimeoutError;
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.code).toBe('timeout');
    expect(error.message).toMatch(
      /^slow\.xml: validation was stopped after 2\.0 s, the limit for 1 document of 3\.\d MiB/,
    );
    expect(good).toMatchObject({ status: 'fulfilled', value: { name: 'quick.xml', valid: true } });
    // The shared run and the slow one alone, each stopped at 2 s, then the quick one alone.
    expect(validator.stats()).toEqual({ batches: 3, documents: 4, failedBatches: 2 });
  }, 20_000);

  it('an aborted call leaves the queue: its documents are never validated', async () => {
    const { seen, runner } = counting();
    const validator = createIofValidator({ runner, coalesceWindowMs: 50 });
    const controller = new AbortController();
    const aborted = validator.validate([{ name: 'a', bytes: VALID_COURSE }], { signal: controller.signal });
    const kept = validator.validate([{ name: 'b', bytes: VALID_COURSE }]);
    controller.abort();
    await expect(aborted).rejects.toMatchObject({ name: 'AbortError' });
    expect((await kept).map((r) => r.name)).toEqual(['b']);
    expect(seen.sizes).toEqual([1]);
    await expect(validator.validate(VALID_COURSE, { signal: controller.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
  });
});
